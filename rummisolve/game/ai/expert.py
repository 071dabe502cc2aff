"""The expert AI: a determinised Monte Carlo search over this turn's candidate moves.

Each turn the expert:

1. goes out whenever the solver finds a way (checked first), and draws when there is no play;
2. while every rack holds more than ``close`` tiles (the round is far from its end), plays the
   hard AI's move: the search below only tells moves apart by rounds won and lost within a few
   turns, and early on nobody goes out that soon;
3. otherwise searches: candidate moves, ``worlds`` guesses at the hidden tiles drawn from its own
   view only, every candidate played out in every world for ``depth`` turns (default: the
   number of players plus one) with a cheap policy for everybody, and the best mean picked, the
   hard AI's move unless another beats it by more than ``margin``. The search is written once
   (:mod:`rummisolve.game.ai.expert_search`); what the rules change plugs into it: the normal
   rules' candidates, worlds and playouts (:mod:`rummisolve.game.ai.expert_plain`) or the
   discard rule's whole-turn plans (:mod:`rummisolve.game.ai.expert_discard`).

Budget and determinism: ``think`` (seconds, default 0.5) sets ``worlds`` through a fixed
calibration (:data:`SOLVES_PER_SECOND` playout turns per second of budget), so where the machine
keeps up a seed fixes every decision. Given in seconds (``worlds`` unset) the budget is also
*clocked* (:class:`~rummisolve.game.ai.common.MoveClock`): the move is held to ``cap`` times
``think`` seconds of wall time from the moment it is asked (0.8 s by default). The solver's
best and next-best moves get :data:`BEST_SHARE` of it (cut sooner, the hard AI's move is played);
the hard AI's move is never cut (it is the floor: the expert plays no worse than hard, whose own
guard and solves take what they take, up to seconds on a dense Twist table); a solve in a playout gets the time left, at most :data:`SOLVE_SHARE` times ``think``
(then answering its best move found); and the search stops at the deadline, dropping a world
cut short (every candidate still meets the same worlds). When the worlds played say the rest
will not fit, it sets candidates aside (keeping the hard AI's move and the best so far) rather
than play fewer worlds; with fewer than :data:`MIN_WORLDS` worlds (or :data:`THIN_SHARE` of
those planned) finished, the hard AI's move is played. So on a busy machine, or under Twist
where solves are slower, a move searches less rather than run late, and says so in
:attr:`ExpertPlayer.note` (``"budget cut: 2 of 5 worlds (hard's move)"``), which the
tournament's turn log keeps; only a move cut so can depend on the machine. With ``worlds``
given (or ``clock=False``) the budget is *counted*: no clock, the same moves on any machine (the
tests, and the strength table's load-independent runs); under Twist each playout solve's work is
then capped in CP-SAT's deterministic time (:data:`COUNTED_WORK`), which no load changes.

Under Twist nothing else changes: the candidates, the sampled worlds (the unseen tiles include
the special jokers, which no history constraint rules out) and the playouts all go through the
solver, which plays special jokers like any tile; the simple-move helpers of the hard AI's guard
leave melds with special jokers alone (:mod:`rummisolve.game.ai.montecarlo`).

Every move still goes through the referee (the engine
checks it). Once the pool is empty the expert plays as the hard AI does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummisolve.errors import OptionError
from rummisolve.game.actions import Action, Draw, Play
from rummisolve.game.ai.common import UNTIMED, MoveClock
from rummisolve.game.ai.expert_discard import (
    AFTER_DRAW_SHARE,
    DiscardVariant,
    Plan,
    best_move,
    discard_plans,
    holding,
    plan_of,
)
from rummisolve.game.ai.expert_plain import (
    LOOSE_WEIGHT,
    PlainVariant,
    action_key,
    candidate_moves,
    sample_world,
    start_of,
)
from rummisolve.game.ai.expert_search import (
    MIN_WORLDS,
    THIN_SHARE,
    SearchResult,
    SolveCache,
    Variant,
    cut_note,
    run_search,
    too_thin,
)
from rummisolve.game.ai.hard import HardPlayer
from rummisolve.game.state import PlayerView
from rummisolve.rules import RuleSet
from rummisolve.solution import Status
from rummisolve.tiles import Tile

if TYPE_CHECKING:
    from rummisolve.solution import Solution

__all__ = [
    "ExpertPlayer",
    "Candidate",
    "SOLVES_PER_SECOND",
    "DEFAULT_THINK",
    "DEFAULT_CAP",
    "COUNTED_WORK",
    "LOOSE_WEIGHT",
    "MIN_WORLDS",
    "THIN_SHARE",
    "action_key",
    "sample_world",
    "too_thin",
]

DEFAULT_THINK = 0.5
"""The default budget per move, in seconds of one core."""
DEFAULT_CAP = 1.6
"""A clocked move's wall-time limit, in multiples of ``think`` (0.8 s at the default budget, so
that with the work left after the deadline a move stays within 1 s)."""
BEST_SHARE = 0.5
"""The share of a clocked move's time the solver's best move and next-best moves may take (cut
before the best move is proven, the hard AI's move is played)."""
SOLVE_SHARE = 0.2
"""The longest one playout solve of a clocked move may take, in multiples of ``think`` (0.1 s at
the default budget): cut there, it answers the best move found (Twist's dense tables)."""
COUNTED_WORK = 0.05
"""Under Twist, a counted budget's cap on one playout solve's work, in CP-SAT's deterministic time:
about the 0.1 s a clocked move allows one (:data:`SOLVE_SHARE` times ``think``; a unit of
deterministic time took about 2.1 CPU seconds on the reference machine's Twist playout solves).
Counted, not clocked: the same moves under any load (uncapped, a counted Twist move's p95 was
34.6 s; benchmarks/results/strength52w/NOTES.md). Under the other rules a counted budget caps
nothing (their moves stay as recorded)."""
SOLVES_PER_SECOND = 160
"""Calibration: playout turns per second of budget (measured on the 2-core reference machine, see
benchmarks/RESULTS.md). Fixed, so the playout count, and the decision, do not depend on the machine."""
DISCARD_TURNS_PER_SECOND = 300
"""The same under the discard rule, where a playout turn asks the solver more (the pile's top, the
guard on the discard)."""


@dataclass(frozen=True)
class Candidate:
    """A move the expert considered: ``label`` (where it came from), the action, and its mean
    playout value (``None`` until searched, or when set aside for time) over ``worlds`` sampled
    worlds."""

    label: str
    action: Action
    value: float | None = None
    worlds: int = 0
    plan: Plan | None = None
    """Under the discard rule: the whole turn (``action`` is its first step)."""


class ExpertPlayer:
    """Searches this turn's candidate moves by playouts over sampled worlds (see the module
    docstring). ``think``: the budget per move in seconds (sets the number of worlds through a
    fixed calibration); ``worlds`` overrides it. ``depth``: turns played out after the move
    (default: one more than the number of players). ``alternatives``: the solver's next-best moves
    considered. ``margin``: how much better than the hard AI's move another must be. ``cap``: a
    clocked move's wall-time limit in multiples of ``think``. ``clock``: whether moves are clocked
    (default: when the budget is in seconds, ``worlds`` unset). ``close``: the search runs once some
    rack holds this many tiles or fewer (before that the hard AI's move is played).

    :attr:`last` keeps the candidates of the last searched turn with their values, :attr:`note`
    what the clock cut from the last move (``None`` when nothing)."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        think: float = DEFAULT_THINK,
        *,
        worlds: int | None = None,
        depth: int | None = None,
        alternatives: int = 2,
        margin: float = 0.02,
        cap: float = DEFAULT_CAP,
        close: int = 8,
        clock: bool | None = None,
    ) -> None:
        if isinstance(think, bool) or not isinstance(think, int | float) or not 0 < think <= 60:
            raise OptionError(f"think must be a number of seconds above 0 and at most 60, not {think!r}")
        if worlds is not None and (isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1):
            raise OptionError(f"worlds must be a whole number of at least 1, not {worlds!r}")
        if isinstance(cap, bool) or not isinstance(cap, int | float) or not cap > 0:
            raise OptionError(f"cap must be a number above 0, not {cap!r}")
        self.seed = seed
        self.think = float(think)
        self.worlds = worlds
        self.depth = depth
        self.alternatives = alternatives
        self.margin = margin
        self.cap = cap
        self.close = close
        self.clocked = worlds is None if clock is None else bool(clock)
        self.hard = HardPlayer(seed=seed)
        self.solves = SolveCache()
        """The playouts' solves under their exact key, kept from move to move (bounded)."""
        self.note: str | None = None
        """What the clock cut from the last move (``"budget cut: 2 of 5 worlds"``), else ``None``."""
        self._notes: list[str] = []
        self.last: tuple[Candidate, ...] = ()
        """The candidates of the last searched turn, with their values (for analysis and tests)."""
        self.plan: Plan | None = None
        """Under the discard rule, the whole turn the last ask chose (a draw from the pool: its
        play and discard unknown until the tile is seen)."""
        self._planned: tuple[int, int, Tile, Plan] | None = None
        """Under the discard rule, after choosing to take the pile's top: (seat, turn, tile, plan)."""

    # -- the turn -----------------------------------------------------------------------------------

    def choose(self, view: PlayerView) -> Action:
        return self.assess(view)[0]

    def assess(self, view: PlayerView, other: Action | Plan | None = None) -> tuple[Action, Candidate | None]:
        """This turn's choice, and ``other`` (another move for this view, e.g. the one a player
        made; under the discard rule a :class:`~rummisolve.game.ai.expert_discard.Plan` of the
        whole turn) judged over the same worlds: ``(action, other's candidate)``, the latter
        ``None`` when the turn is not searched. Adding ``other`` never changes the choice."""
        self.last = ()
        self._notes = []
        try:
            if view.rules.discard:
                return self._assess_discard(
                    view, other if isinstance(other, Plan) or other is None else plan_of(other, view.rules)
                )
            if isinstance(other, Plan):
                raise TypeError("assess: a Plan is a turn under the discard rule only")
            return self._assess(view, other)
        finally:
            self.note = "; ".join(self._notes) or None

    def _clock(self, rules: RuleSet, share: float = 1.0) -> MoveClock:
        """This move's clock (for a counted budget :data:`UNTIMED`, or under Twist no clock but
        each playout solve's work capped at :data:`COUNTED_WORK`)."""
        if not self.clocked:
            return MoveClock(None, work=COUNTED_WORK) if rules.has_twist else UNTIMED
        return MoveClock.starting(self.cap * self.think * share, SOLVE_SHARE * self.think)

    def _hard_choice(self, view: PlayerView) -> Action:
        """The hard AI's move, never cut by the expert's clock (when the clock also cut hard's guard
        and solves, the expert under Twist won only 37.1% of 232 games against hard)."""
        return self.hard.choose(view)

    def _assess(self, view: PlayerView, other: Action | None) -> tuple[Action, Candidate | None]:
        """:meth:`assess` under the normal rules."""
        clock = self._clock(view.rules)
        if view.pool_size == 0 or min(view.rack_sizes) > self.close:
            return self._hard_choice(view), None
        from rummisolve.solver import solve

        limit = None if clock.deadline is None else BEST_SHARE * max(0.001, clock.deadline - time.perf_counter())
        full = solve(
            view.position,
            objective="tiles",
            time_limit=limit,
            alternatives=self.alternatives,
            alternatives_mode="distinct",
        )
        if limit is not None and (full.status not in (Status.OPTIMAL, Status.NO_MOVE) or clock.expired()):
            # the clock cut the search, or it took the whole move's time: no world could be played
            self._notes.append("budget cut: the best move's search (hard's move)")
            return self._hard_choice(view), None
        if not full:
            return Draw(), None
        if len(full.played) >= len(view.rack):
            return Play(tuple(full.table)), None  # out
        candidates = self.candidates(view, full, clock)
        if len(candidates) == 1 and other is None:
            return candidates[0].action, None
        worlds = self.world_count(view, len(candidates))
        keys = [action_key(c.action) for c in candidates]
        extra = other is not None and action_key(other) not in keys
        searched = self.search(
            view, candidates + [Candidate("other", other)] if extra and other is not None else candidates, worlds, clock
        )
        self.last = searched[: len(candidates)]
        judged = searched[-1] if extra else searched[keys.index(action_key(other))] if other is not None else None
        return self.pick(self.last, worlds).action, judged

    def _assess_discard(self, view: PlayerView, other: Plan | None) -> tuple[Action, Candidate | None]:
        """:meth:`assess` under the discard rule (see :mod:`rummisolve.game.ai.expert_discard`)."""
        planned, self._planned = self._planned, None
        if (
            planned is not None
            and view.draw_from == "discard"
            and planned[:3] == (view.seat, view.turn, view.drawn)
            and other is None
        ):
            self.plan = Plan(None, planned[3].table, planned[3].discard)
            return planned[3].final_action(), None  # the plan chosen before taking the top
        if view.pool_size == 0 or min(view.rack_sizes) > self.close:
            action = self._hard_choice(view)
            self.plan = plan_of(action, view.rules)  # a draw: the rest is decided after it
            return action, None
        solved: dict[Any, Solution] = {}  # this turn's solves, asked for again by the candidates
        best = best_move(view.position, solved)
        if best and len(best.rack_after) == 1:  # out: play all but one, discard it
            return self._commit(view, Plan(None, tuple(best.table), best.rack_after[0])), None
        top = view.discard_top
        if view.draw_from is None and top is not None:
            with_top = best_move(holding(view).position, solved)
            if with_top and len(with_top.rack_after) == 1:  # out after taking the top
                return self._commit(view, Plan("discard", tuple(with_top.table), with_top.rack_after[0])), None
        labelled = discard_plans(view, self.hard, solved)
        plans = [p for _, p in labelled]
        keys = [p.key() for p in plans]
        if len(plans) == 1 and other is None:
            return self._commit(view, plans[0]), None
        extra = other is not None and other.key() not in keys
        if extra and other is not None:
            labelled = [*labelled, ("other", other)]
        if view.draw_from == "pool":
            share = AFTER_DRAW_SHARE
        elif any(p.source == "pool" for p in plans):
            share = 1.0 - AFTER_DRAW_SHARE
        else:
            share = 1.0
        # the plans' count, not with ``other``: judging a move never changes the choice
        worlds = self.world_count(view, len(plans), share)
        result = self._run(view, DISCARD, [plan for _, plan in labelled], worlds, self._clock(view.rules, share))
        searched = tuple(
            Candidate(label, plan.first_action(), result.values[i], result.worlds[i], plan)
            for i, (label, plan) in enumerate(labelled)
        )
        self.last = searched[: len(plans)]
        judged = None
        if other is not None:
            judged = searched[-1] if extra else searched[keys.index(other.key())]
        chosen = self.pick(self.last, worlds)
        assert chosen.plan is not None
        return self._commit(view, chosen.plan), judged

    def _commit(self, view: PlayerView, plan: Plan) -> Action:
        """``plan``'s first action, remembering the rest when it takes the pile's top."""
        self.plan = plan
        if plan.source == "discard" and view.draw_from is None:
            top = view.discard_top
            assert top is not None  # a plan takes the top only when there is one
            self._planned = (view.seat, view.turn, top, plan)
        return plan.first_action()

    def candidates(self, view: PlayerView, full: Solution | None = None, clock: MoveClock = UNTIMED) -> list[Candidate]:
        """This turn's distinct candidate moves under the normal rules, the hard AI's first and
        drawing last (:func:`~rummisolve.game.ai.expert_plain.candidate_moves`)."""
        from rummisolve.solver import solve

        if full is None:
            full = solve(view.position, objective="tiles", alternatives=self.alternatives, alternatives_mode="distinct")
        return [Candidate(label, action) for label, action in candidate_moves(view, self._hard_choice(view), full)]

    def world_count(self, view: PlayerView, candidates: int, share: float = 1.0) -> int:
        """The playout worlds for this turn: the budget's solver calls (``share`` of them) shared
        by the candidates, at least :data:`MIN_WORLDS`."""
        if self.worlds is not None:
            return self.worlds
        rate = DISCARD_TURNS_PER_SECOND if view.rules.discard else SOLVES_PER_SECOND
        calls = self.think * share * rate
        return max(MIN_WORLDS, round(calls / (max(1, candidates) * self._depth(view))))

    def search(
        self, view: PlayerView, candidates: list[Candidate], worlds: int | None = None, clock: MoveClock = UNTIMED
    ) -> tuple[Candidate, ...]:
        """Each candidate's mean playout value over the same sampled worlds under the normal rules
        (``worlds`` of them, default :meth:`world_count`; see
        :func:`~rummisolve.game.ai.expert_search.run_search` for what the clock cuts: then
        :attr:`note` says so; a candidate set aside or searched in no world has the value ``None``)."""
        if worlds is None:
            worlds = self.world_count(view, len(candidates))
        starts = [start_of(view, c.action) for c in candidates]
        result = self._run(view, PLAIN, starts, worlds, clock)
        return tuple(Candidate(c.label, c.action, result.values[i], result.worlds[i]) for i, c in enumerate(candidates))

    def _run(
        self, view: PlayerView, variant: Variant[Any], starts: list[Any], worlds: int, clock: MoveClock
    ) -> SearchResult[Any]:
        """The one search, its cuts noted."""
        cache = self.solves.for_rules(view.rules)
        result = run_search(view, variant, starts, worlds, self._depth(view), seed=self.seed, cache=cache, clock=clock)
        if result.done < worlds or result.dropped:
            self._notes.append(cut_note(result.done, worlds, result.dropped))
        if clock.capped:
            self._notes.append(f"{clock.capped} playout solves capped")
        return result

    def pick(self, searched: tuple[Candidate, ...], planned: int | None = None) -> Candidate:
        """The best mean among the candidates searched in every world the first (the hard AI's
        move) met; the first unless another beats it by ``margin``, or when the search had too
        few of the ``planned`` worlds to decide (:func:`~rummisolve.game.ai.expert_search.too_thin`)."""
        first = searched[0]
        if first.value is None or (planned is not None and too_thin(first.worlds, planned)):
            return first
        full = [c for c in searched if c.value is not None and c.worlds == first.worlds]
        best = max(full, key=lambda c: c.value if c.value is not None else 0.0)
        assert best.value is not None
        return best if best.value > first.value + self.margin else first

    # -- internals ----------------------------------------------------------------------------------

    def _depth(self, view: PlayerView) -> int:
        return self.depth if self.depth is not None else view.players + 1


PLAIN = PlainVariant()
DISCARD = DiscardVariant()
