"""Server limits, read from ``RUMMISOLVE_*`` environment variables (so every worker process agrees)."""

from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass
from typing import Any

from rummisolve.errors import SettingsError

__all__ = ["Settings", "ENV_PREFIX", "INTEGER_BOUNDS"]

ENV_PREFIX = "RUMMISOLVE_"

INTEGER_BOUNDS: dict[str, tuple[int, int]] = {
    "max_body_bytes": (1024, 64 * 1024 * 1024),
    "heavy_workers": (1, 256),
    "light_workers": (0, 256),
    "game_workers": (1, 256),
    "light_max_work": (0, 10**9),
    "max_queued_solves": (0, 100_000),
    "max_queued_light_solves": (0, 100_000),
    "max_queued_game_jobs": (0, 100_000),
    "heavy_nice": (0, 19),
    "max_tiles_in_play": (1, 1_000_000),
    "max_melds": (1, 1_000_000),
    "max_verify_steps": (1, 10**9),
    "max_live_games": (1, 1_000_000),
    "max_stored_games": (1, 10_000_000),
    "max_live_rooms": (1, 1_000_000),
    "max_stored_rooms": (1, 10_000_000),
    "room_cache_size": (0, 1_000_000),
    "max_connections": (1, 1_000_000),
    "max_room_spectators": (0, 100_000),
    "max_seat_connections": (1, 1_000),
    "room_idle_seconds": (60, 10**9),
    # Each client's share (issue 47): its owner token, else its address (docs/web.md).
    "max_client_live_rooms": (1, 1_000_000),
    "max_client_stored_rooms": (1, 10_000_000),
    "max_client_live_games": (1, 1_000_000),
    "max_client_stored_games": (1, 10_000_000),
    "max_client_connections": (1, 1_000_000),
    "max_client_jobs": (1, 100_000),
    "rooms_per_window": (1, 1_000_000),
    "games_per_window": (1, 1_000_000),
    "code_guesses_per_window": (1, 1_000_000),
    "rate_window_seconds": (1, 10**7),
    "room_retention_seconds": (60, 10**9),
    "game_retention_seconds": (60, 10**9),
    "max_ws_message_bytes": (128, 16 * 1024 * 1024),
}
"""The range of every integer setting."""

_DEADLINES = ("job_grace_seconds", "replay_deadline_seconds", "ai_turn_deadline_seconds")


@dataclass(frozen=True)
class Settings:
    """Limits the service enforces on every request (per worker process where it counts solves)."""

    max_body_bytes: int = 256 * 1024
    """Largest request body accepted; larger ones get 413 before the rest is read."""
    max_time_limit: float = 10.0
    """Server-side cap on one solve, in seconds; a request's ``time_limit`` is clamped to it."""
    absurd_time_limit: float = 86_400.0
    """A ``time_limit`` above this is rejected as absurd (400) rather than clamped."""
    heavy_workers: int = 2
    """Worker processes of the heavy lane: solves whose expected work is over ``light_max_work``,
    and replays (``POST /replays``). Each runs one job at a time under its deadline."""
    light_workers: int = 1
    """Worker processes kept for light solves (expected work at most ``light_max_work``), so that
    a small solve never waits behind big ones; 0: every solve takes the heavy lane."""
    game_workers: int = 1
    """Worker processes for the AI turns and hints of games (``/games``) and rooms."""
    light_max_work: int = 160
    """Expected work up to which a solve is light: its tiles in play, times the rule set's size
    past the XP set's 160 tiles, times 2 for ``open_then_manipulate`` (unopened), 4 for strict
    joker retrieval, 2 for Twist's jokers, times 1 + its alternatives, times 100 for the Xpress
    re-roll (docs/web.md)."""
    max_queued_solves: int = 8
    """Jobs that may wait for a heavy worker; past it, 503 with ``Retry-After``. Each may hold its
    worker until its deadline: 8 behind 2 workers wait up to 4 deadlines."""
    max_queued_light_solves: int = 64
    """Solves that may wait for a light worker; past it, 503. Light solves take milliseconds
    (benchmarks/RESULTS.md), so 64 behind one worker wait well under a second."""
    max_queued_game_jobs: int = 32
    """AI turns and hints that may wait for a game worker; past it, a hint or a game's AI turn
    gets 503 (a room's AI waits its turn)."""
    heavy_nice: int = 10
    """How much lower the heavy lane's worker processes run (Linux nice increment, 0..19): on a
    busy CPU, light solves, AI turns and the server's own process go first. 0: the same priority."""
    job_grace_seconds: float = 5.0
    """A solve's or a hint's hard deadline is its time limit plus this: the time to read the
    position, build the model, decode and referee the answer. Past it, its worker is killed (504)."""
    replay_deadline_seconds: float = 60.0
    """Hard deadline of one ``POST /replays`` (every round refereed, every turn analysed); past it, 504."""
    ai_turn_deadline_seconds: float = 30.0
    """Hard deadline of one AI choice in a game or a room; past it, the AI draws (or passes) instead."""
    test_job_delay_seconds: float = 0.0
    """For tests only: seconds every worker job sleeps before its work, as a slow model build would
    (the deadline counts it). 0 on any real server."""
    max_tiles_in_play: int = 4_000
    """Largest position solved, in tiles on the table and in the rack (past it: 413). Tens of KB of
    JSON; the largest need the most memory while CP-SAT searches (benchmarks/RESULTS.md)."""
    max_melds: int = 1_000
    """Most melds on the table of a position solved (past it: 413)."""
    max_verify_steps: int = 20_000
    """Search steps one /verify may take: about a second of CPU at most (benchmarks/RESULTS.md).
    Real turns take a handful; crafted ones with dozens of tiles or jokers under
    ``open_then_manipulate`` or strict joker retrieval could otherwise take many seconds."""
    max_live_games: int = 200
    """Games of the web app whose round is still running that the server keeps (past it, a new
    game gets 429 naming the limit)."""
    max_stored_games: int = 2_000
    """Games of the web app saved in its database, finished or not (past it, a new game gets 429)."""
    max_live_rooms: int = 200
    """Game rooms whose round is not over that the server keeps (past it, a new room gets 429)."""
    max_stored_rooms: int = 2_000
    """Game rooms saved in the database, over or not (past it, a new room gets 429)."""
    room_cache_size: int = 0
    """Game rooms kept in memory per worker process (the others are read from the database when
    asked for); 0: as many as ``max_live_rooms``, so every live room stays in memory."""
    max_connections: int = 1_000
    """WebSocket connections to rooms open at once in a worker process (past it, a new one is
    closed with code 4503: try again later)."""
    max_room_spectators: int = 8
    """Spectators' WebSocket connections (no seat's token) open at once to one room (past it: code
    4429). Seats' connections never count here: spectators cannot keep a player out."""
    max_seat_connections: int = 4
    """WebSocket connections open at once for one seat (its tabs); a newer one closes the oldest
    (code 4409): a seat's own connection always gets in."""
    room_idle_seconds: int = 7 * 24 * 3600
    """A room that nobody changed or watched (a WebSocket open) for this long is archived: it can be
    seen, no longer played, and counts no more among the live rooms."""
    max_client_live_rooms: int = 8
    """Rooms whose round is not over that one client (its owner token, else its address) made and
    the server keeps (past it, that client's new room gets 429 naming the limit)."""
    max_client_stored_rooms: int = 100
    """Rooms one client made that are kept, over or not (archived ones do not count; past it: 429)."""
    max_client_live_games: int = 10
    """Games of the web app whose round is still running that one client keeps (past it: 429)."""
    max_client_stored_games: int = 200
    """Games of the web app one client keeps saved, finished or not (past it: 429)."""
    max_client_connections: int = 32
    """WebSocket connections one client holds open at once in a worker process (past it: code 4429;
    a seat's connection closes that client's oldest spectator connection instead, if it has one)."""
    max_client_jobs: int = 4
    """Heavy jobs (solves, replays) one client has queued or running at once in a worker process
    (past it: 429 with ``Retry-After``)."""
    rooms_per_window: int = 30
    """New rooms one client address may make in any ``rate_window_seconds`` (past it: 429 with
    ``Retry-After``)."""
    games_per_window: int = 60
    """New games one client address may start in any ``rate_window_seconds`` (past it: 429)."""
    code_guesses_per_window: int = 30
    """Requests naming a room that does not exist one client address may make in any
    ``rate_window_seconds`` (past it, every room request of that address gets 429 until the window
    has moved on): room codes cannot be guessed by trying them."""
    rate_window_seconds: int = 3600
    """The window of the rate limits above, in seconds (counted per worker process)."""
    room_retention_seconds: int = 24 * 3600
    """A room that is over or archived is deleted once nobody changed it for this long."""
    game_retention_seconds: int = 30 * 24 * 3600
    """A game of the web app nobody played for this long (finished or abandoned) is deleted, and its
    owner with it once the owner has no game left."""
    max_ws_message_bytes: int = 4096
    """Largest WebSocket message a client may send a room (clients send nothing the server reads);
    past it the connection is closed with code 1009."""
    allowed_hosts: str = ""
    """Host names (comma-separated) a request's ``Host`` may name besides ``localhost``, ``127.0.0.1``
    and ``::1``; ``*``: any. ``rummisolve serve`` adds the address it binds and each ``--allowed-host``."""

    def __post_init__(self) -> None:
        for name, (low, high) in INTEGER_BOUNDS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise SettingsError(f"{name} must be an integer, not {value!r}")
            if not low <= value <= high:
                raise SettingsError(f"{name} must be between {low:,} and {high:,}, not {value:,}")
        for name in ("max_time_limit", "absurd_time_limit", *_DEADLINES):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value <= 0:
                raise SettingsError(f"{name} must be a positive number of seconds, not {value!r}")
        delay = self.test_job_delay_seconds
        if isinstance(delay, bool) or not isinstance(delay, int | float) or not math.isfinite(delay) or delay < 0:
            raise SettingsError(f"test_job_delay_seconds must be 0 or a positive number of seconds, not {delay!r}")
        if not isinstance(self.allowed_hosts, str):
            raise SettingsError(
                f"allowed_hosts must be a comma-separated string of host names, not {self.allowed_hosts!r}"
            )
        for name in self.host_allow_list():
            if any(c.isspace() or c in "/?#@" for c in name):
                raise SettingsError(f"allowed_hosts: {name!r} is not a host name")
        if self.max_time_limit > self.absurd_time_limit:
            raise SettingsError(
                f"max_time_limit ({self.max_time_limit:g} s) exceeds absurd_time_limit ({self.absurd_time_limit:g} s)"
            )

    def room_cache_rooms(self) -> int:
        """Game rooms kept in memory per worker process: ``room_cache_size``, else ``max_live_rooms``."""
        return self.room_cache_size or self.max_live_rooms

    def host_allow_list(self) -> tuple[str, ...]:
        """The extra allowed host names, lower case."""
        return tuple(n.strip().lower() for n in self.allowed_hosts.split(",") if n.strip())

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        """Defaults overridden by ``RUMMISOLVE_<SETTING>`` variables (e.g. ``RUMMISOLVE_MAX_TIME_LIMIT``);
        :class:`SettingsError` names a variable that is not a number or out of range."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}  # each field's value: str, int or float
        for field in dataclasses.fields(cls):
            variable = ENV_PREFIX + field.name.upper()
            raw = env.get(variable)
            if raw is None or raw == "":
                continue
            if field.type in (str, "str"):
                values[field.name] = raw
                continue
            kind = int if field.name in INTEGER_BOUNDS else float
            try:
                values[field.name] = kind(raw)
            except ValueError:
                raise SettingsError(f"{variable}: expected {kind.__name__}, got {raw!r}") from None
        return cls(**values)

    def to_env(self) -> dict[str, str]:
        """The environment variables that reproduce these settings in another process."""
        out = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            out[ENV_PREFIX + field.name.upper()] = value if isinstance(value, str) else repr(value)
        return out
