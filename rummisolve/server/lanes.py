"""Lanes of worker processes for the server's heavy work, each job under a hard deadline.

:class:`Lanes` keeps three pools of worker processes (:class:`~rummisolve.server.workers.WorkerPool`):

- **light**: solves whose expected work (:func:`expected_work`) is at most ``light_max_work``, so a
  small solve never waits behind big ones;
- **heavy**: every other solve, and replays (``POST /replays``);
- **game**: the AI turns and hints of games (``/games``) and rooms.

Every job has a hard deadline on the whole of it (reading the position, building the model,
searching, decoding, refereeing): a solve's time limit plus ``job_grace_seconds``, a replay's
``replay_deadline_seconds``, an AI choice's ``ai_turn_deadline_seconds``. A worker that passes it
is killed and replaced; so is one whose client has gone (a queued job is dropped before it starts).
The server's own process only reads requests, pushes and keeps the games: it answers while every
worker is busy.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any

from rummisolve.server import worker_jobs
from rummisolve.server.requests import BadRequest
from rummisolve.server.settings import Settings
from rummisolve.server.workers import JobDeadline, PoolFull, WorkerPool

__all__ = ["Lanes", "LaneFull", "PoolFull", "JobDeadline", "expected_work", "reroll_seconds", "SET_SIZE_FREE"]

LaneFull = PoolFull
"""A lane whose workers are all busy and whose queue is full (answered 503 with ``Retry-After``)."""

SET_SIZE_FREE = 160
"""Tiles a rule set may hold (the XP set's) before its size counts as work: a bigger set has more
melds to consider, so the model grows with it."""

_OPTION_COST = {"open_then_manipulate": 2, "strict": 4, "twist": 2}
"""Multipliers of the costly options (finding: 106 tiles under open_then_manipulate and strict
joker retrieval on an 8-colour, 40-number set held a light thread for seconds)."""


def expected_work(body: Any, tiles_in_play: int) -> float:
    """The work a /solve ``body`` of ``tiles_in_play`` tiles is expected to take, in tiles of a
    standard position: its tiles, times its set's size over :data:`SET_SIZE_FREE` tiles (when
    larger), times 2 under ``open_then_manipulate`` before the first melds, 4 under strict joker
    retrieval, 2 with Twist's jokers, times 1 + the alternatives asked for, times 100 for the Xpress
    re-roll (up to 1,200 solves, most of them small). Parts of the wrong type
    count nothing (``solve_json`` names them); rules it cannot read are priced as standard."""
    work = float(tiles_in_play)
    rules = _rules(body)
    if rules is not None:
        set_tiles = rules.total_tiles
        if set_tiles > SET_SIZE_FREE:
            work *= set_tiles / SET_SIZE_FREE
        opened = body.get("opened", True) if isinstance(body, dict) else True
        if rules.open_then_manipulate and opened is not True:
            work *= _OPTION_COST["open_then_manipulate"]
        if rules.joker_retrieval == "strict":
            work *= _OPTION_COST["strict"]
        if rules.double_jokers or rules.colour_change_jokers or rules.mirror_jokers:
            work *= _OPTION_COST["twist"]
    wanted = body.get("alternatives") if isinstance(body, dict) else None
    if isinstance(wanted, int | float) and not isinstance(wanted, bool) and wanted > 0 and math.isfinite(wanted):
        work *= 1 + min(wanted, 1_000)
    if isinstance(body, dict) and body.get("reroll", False) is not False:
        work *= _REROLL_COST  # the best re-roll: up to hundreds of solves
    return work


def reroll_seconds(body: Any) -> float:
    """The seconds a /solve ``body`` (clamped) gives the Xpress re-roll's search after the solve's own (0: none)."""
    if not isinstance(body, dict) or body.get("reroll", False) is False:
        return 0.0
    seconds = body.get("reroll_time_limit")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not math.isfinite(seconds):
        return 0.0
    return max(0.0, float(seconds))


_REROLL_COST = 100
"""How many solves' work a re-roll request counts (it makes up to 1,200, most of them small)."""


def _rules(body: Any) -> Any:
    from rummisolve.errors import RummisolveError
    from rummisolve.jsonio import rules_from_json

    raw = body.get("rules") if isinstance(body, dict) else None
    if raw is None:
        return None
    try:
        return rules_from_json(raw, "position.rules")
    except (RummisolveError, TypeError, ValueError):
        return None


class Lanes:
    """The light, heavy and game lanes (pools of worker processes) and their deadlines."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.light_max_work = settings.light_max_work
        self.delay = settings.test_job_delay_seconds
        self.heavy = WorkerPool.shared(
            "heavy",
            settings.heavy_workers,
            settings.max_queued_solves,
            retry_after=math.ceil(settings.max_time_limit + settings.job_grace_seconds),
            workers_setting="heavy_workers",
            queue_setting="max_queued_solves",
            nice=settings.heavy_nice,
        )
        self.light: WorkerPool | None = None
        if settings.light_workers:
            self.light = WorkerPool.shared(
                "light",
                settings.light_workers,
                settings.max_queued_light_solves,
                retry_after=1,
                workers_setting="light_workers",
                queue_setting="max_queued_light_solves",
            )
        self.game = WorkerPool.shared(
            "game",
            settings.game_workers,
            settings.max_queued_game_jobs,
            retry_after=2,
            workers_setting="game_workers",
            queue_setting="max_queued_game_jobs",
        )

    def pools(self) -> list[WorkerPool]:
        return [p for p in (self.light, self.heavy, self.game) if p is not None]

    def start(self) -> None:
        """Start every lane's workers (else the first job does)."""
        for pool in self.pools():
            pool.start()

    def lane_for(self, tiles_in_play: int, body: Any = None) -> WorkerPool:
        """The light lane if the solve's :func:`expected_work` is at most ``light_max_work``, else the heavy one."""
        if self.light is None or expected_work(body, tiles_in_play) > self.light_max_work:
            return self.heavy
        return self.light

    def solve_deadline(self, time_limit: float) -> float:
        """The hard deadline of a solve (or a hint) searching for ``time_limit`` seconds."""
        return time_limit + self.settings.job_grace_seconds

    async def solve(
        self, body: Any, tiles: int, time_limit: float, gone: Callable[[], Awaitable[None]]
    ) -> tuple[Any, dict[str, Any] | None]:
        """A /solve in its lane: ``(job, result)``, the result ``None`` if the client left first.
        ``time_limit``: the solve's searches, the re-roll's included (:meth:`search_seconds`)."""
        lane = self.lane_for(tiles, body)
        searches = (
            f"its time_limit {time_limit:g} s" if not reroll_seconds(body) else f"its time limits {time_limit:g} s"
        )
        return await lane.run(
            worker_jobs.solve,
            (body, self.delay),
            self.solve_deadline(time_limit),
            "the solve",
            f"{searches} + job_grace_seconds {self.settings.job_grace_seconds:g} s",
            gone,
        )

    @staticmethod
    def search_seconds(body: Any, time_limit: float) -> float:
        """The seconds a /solve may search: its time limit, plus the re-roll's when it asks for one."""
        return time_limit + reroll_seconds(body)

    async def replay(self, raw: bytes, gone: Callable[[], Awaitable[None]]) -> tuple[Any, dict[str, Any] | None]:
        """A ``POST /replays`` (its body's bytes, decoded in the worker) in the heavy lane: ``(job,
        result)``, ``None`` if the client left first; :class:`BadRequest` if the body is no JSON."""
        try:
            return await self._replay(raw, gone)
        except worker_jobs.BadBody as bad:
            raise BadRequest(bad.status, bad.message) from None

    async def _replay(self, raw: bytes, gone: Callable[[], Awaitable[None]]) -> tuple[Any, dict[str, Any] | None]:
        return await self.heavy.run(
            worker_jobs.replay,
            (raw, self.settings.max_verify_steps, self.delay),
            self.settings.replay_deadline_seconds,
            "the replay's analysis",
            "replay_deadline_seconds",
            gone,
        )

    def _choose_args(self, player: Any, view: Any) -> tuple[Any, ...]:
        return (
            worker_jobs.choose,
            (player, view, self.delay),
            self.settings.ai_turn_deadline_seconds,
            "an AI's turn",
            "ai_turn_deadline_seconds",
        )

    def choose(self, player: Any, view: Any) -> tuple[Any, Any, int]:
        """An AI's choice in a game worker, waited for by a game thread: ``(action, player after, pid)``.
        :class:`JobDeadline` past ``ai_turn_deadline_seconds``, :class:`LaneFull` if the lane is full."""
        return self.game.call(*self._choose_args(player, view))

    async def choose_async(self, player: Any, view: Any) -> tuple[Any, Any, int]:
        """:meth:`choose`, awaited (a room's AI: cancelling the awaiting task cancels the job)."""
        return (await self.game.run(*self._choose_args(player, view)))[1]

    def solve_position(self, position: Any, time_limit: float) -> tuple[Any, int]:
        """A hint's solve in a game worker: ``(solution, pid)``; :class:`JobDeadline` past its deadline."""
        grace = self.settings.job_grace_seconds
        return self.game.call(
            worker_jobs.solve_position,
            (position, time_limit, self.delay),
            self.solve_deadline(time_limit),
            "the hint",
            f"its time limit {time_limit:g} s + job_grace_seconds {grace:g} s",
        )

    def reroll_hint(self, position: Any, free_dice: Any, seed: int) -> Any:
        """The Xpress hint before the roll (:func:`~rummisolve.xpress.reroll.best_reroll`) in a game
        worker, under ``ai_turn_deadline_seconds``."""
        return self.game.call(
            worker_jobs.xpress_hint,
            (position, free_dice, seed, self.delay),
            self.settings.ai_turn_deadline_seconds,
            "the re-roll hint",
            "ai_turn_deadline_seconds",
        )

    def snapshot(self) -> dict[str, Any]:
        """Each lane's workers (busy, queued, killed at the deadline, cancelled...) and the solve
        counts /health has always shown (``running``, ``queued``, ``started``, ``refused``,
        ``cancelled``: queued solves dropped, ``stopped``: running ones killed, clients gone)."""
        idle = {
            "workers": 0,
            "busy": 0,
            "queued": 0,
            "started": 0,
            "done": 0,
            "refused": 0,
            "cancelled": 0,
            "killed_deadline": 0,
            "killed_cancelled": 0,
            "died": 0,
            "pids": [],
            "last_pid": None,
        }
        lanes = {
            "light": self.light.snapshot() if self.light is not None else idle,
            "heavy": self.heavy.snapshot(),
            "game": self.game.snapshot(),
        }
        solving = (lanes["light"], lanes["heavy"])
        return {
            "running": sum(lane["busy"] for lane in solving),
            "queued": sum(lane["queued"] for lane in solving),
            "started": sum(lane["started"] for lane in solving),
            "refused": sum(lane["refused"] for lane in solving),
            "cancelled": sum(lane["cancelled"] for lane in solving),
            "stopped": sum(lane["killed_cancelled"] for lane in solving),
            "killed_deadline": sum(lane["killed_deadline"] for lane in solving),
            **{name: {**lane, "running": lane["busy"]} for name, lane in lanes.items()},
        }

    def shutdown(self) -> None:
        for pool in self.pools():
            pool.release()
