"""Adapter for the published peer, rummikub-solver (PyPI; optional, benchmark-only).

Our positions are converted to its notion of table + rack with its default MILP backend:

* opened: its ``TILE_COUNT`` (objective ``tiles``) or ``TOTAL_VALUE`` (objective ``value``) mode
  over table + rack tiles;
* not opened, official rules (table untouched): its ``INITIAL`` mode on the rack alone (empty
  table), and its new sets are laid beside our unchanged table melds;
* not opened with ``open_then_manipulate``: its ``INITIAL`` mode with the table (it then places
  more tiles using the table, as that option allows).

Its answer (sets as unordered tile multisets) is put into play order and judged by our referee.
Positions it cannot express (wraparound, ``joker_in_initial_meld=False``, ``joker_retrieval=
"strict"``, thresholds above 50, more than 4 copies or jokers, ...) are reported as unsupported.
The MILP model is built once per rule set (as the peer intends); that setup and the first,
compiling solve of each mode are timed separately from the per-position latency.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from rummisolve.melds import meld_problem
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.tiles import JOKER, Colour, Tile

__all__ = ["available", "version", "PeerAnswer", "PeerSolver", "unsupported_reason"]


def available() -> bool:
    """Whether rummikub-solver is installed (found without importing it: its numerical libraries
    must not load into a process that times rummisolve)."""
    from importlib.util import find_spec

    return find_spec("rummikub_solver") is not None


def version() -> str | None:
    try:
        from importlib.metadata import version as _version

        return _version("rummikub-solver")
    except Exception:
        return None


@dataclass(frozen=True)
class PeerAnswer:
    """The peer's move in our terms."""

    status: str
    """``move``, ``no_move``, ``unsupported`` or ``error``."""
    played: tuple[Tile, ...] = ()
    table: tuple[tuple[Tile, ...], ...] = ()
    seconds: float = 0.0
    detail: str = ""
    cpu_seconds: float = 0.0
    """Process CPU time of the call (all threads), less sensitive to other load than wall time."""


def unsupported_reason(rules: RuleSet) -> str | None:
    """Why the peer cannot express ``rules`` (``None`` if it can)."""
    if rules.wraparound:
        return "wraparound runs"
    if not rules.joker_in_initial_meld:
        return "joker_in_initial_meld=false"
    if rules.joker_retrieval != "free":
        return "joker_retrieval=strict"
    if rules.initial_threshold > 50:
        return f"initial_threshold {rules.initial_threshold} > 50"
    if not 2 <= rules.numbers <= 26:
        return f"numbers={rules.numbers}"
    if not 2 <= rules.colours <= 8:
        return f"colours={rules.colours}"
    if rules.copies > 4:
        return f"copies={rules.copies}"
    if rules.jokers > 4:
        return f"jokers={rules.jokers}"
    if not 2 <= rules.min_meld_length <= 6 or rules.min_meld_length > rules.colours:
        return f"min_meld_length={rules.min_meld_length}"
    return None


@dataclass
class PeerSolver:
    """The peer for one rule set (its model is compiled once, on construction)."""

    rules: RuleSet
    setup_seconds: float = 0.0
    warmup_seconds: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        import rummikub_solver as rs

        from benchmarks.oracle import silence_highs_banner

        silence_highs_banner()
        self._rs = rs
        start = time.perf_counter()
        self._ruleset = rs.RuleSet(
            numbers=self.rules.numbers,
            repeats=self.rules.copies,
            colours=self.rules.colours,
            jokers=self.rules.jokers,
            min_len=self.rules.min_meld_length,
            min_initial_value=max(1, self.rules.initial_threshold),
        )
        self.setup_seconds = time.perf_counter() - start
        self._tiles = list(self._ruleset.tiles)
        self._index = {}
        for tile in self._tiles:
            if isinstance(tile, rs.Number):
                ours = Tile(tuple(Colour)[tile.colour.value - 1], tile.value)
            else:
                ours = JOKER
            self._index[ours] = tile
        self._back = {int(v): k for k, v in self._index.items()}
        self._warm()

    @property
    def backend(self) -> str:
        return str(self._ruleset.backend)

    def _warm(self) -> None:
        """Solve each mode once (cvxpy compiles a problem on its first solve)."""
        rs = self._rs
        top = self.rules.tile_kinds[self.rules.numbers - self.rules.min_meld_length : self.rules.numbers]
        rack = [self._index[k] for k in top]  # a high run: reaches the opening threshold
        for mode in (rs.SolverMode.TILE_COUNT, rs.SolverMode.TOTAL_VALUE, rs.SolverMode.INITIAL):
            state = self._ruleset.new_game()
            state.add_rack(*rack)
            start = time.perf_counter()
            self._ruleset.solve(state, mode)
            self.warmup_seconds[mode.value] = time.perf_counter() - start

    def _to_peer(self, tiles) -> list:
        return [self._index[t] for t in tiles]

    def solve(self, position: Position, objective: str = "tiles") -> PeerAnswer:
        """The peer's move for ``position``; ``seconds`` covers conversion in and its solve."""
        reason = unsupported_reason(position.rules)
        if reason is not None:
            return PeerAnswer("unsupported", detail=reason)
        rs = self._rs
        start = time.perf_counter()
        cpu_start = time.process_time()
        touch_table = position.opened or position.rules.open_then_manipulate
        table_tiles = [t for meld in position.table for t in meld.tiles] if touch_table else []
        state = rs.GameState(
            self._ruleset._tiles,
            table=self._to_peer(table_tiles),
            rack=self._to_peer(position.rack),
            initial=not position.opened,
        )
        if position.opened:
            mode = rs.SolverMode.TILE_COUNT if objective == "tiles" else rs.SolverMode.TOTAL_VALUE
        else:
            mode = None  # its opening logic (INITIAL mode, with its own shortcuts)
        try:
            proposal = self._ruleset.solve(state, mode)
        except Exception as err:  # the peer failing is a result, not a crash of the benchmark
            return PeerAnswer("error", seconds=time.perf_counter() - start, detail=f"{type(err).__name__}: {err}")
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        if proposal is None or not proposal.tiles:
            old = tuple(tuple(m.tiles) for m in position.table)
            return PeerAnswer("no_move", table=old, seconds=seconds, cpu_seconds=cpu)
        played = tuple(sorted(self._back[int(t)] for t in proposal.tiles))
        sets = tuple(play_order([self._back[int(t)] for t in s], position.rules) for s in proposal.sets)
        if not touch_table:
            sets = tuple(tuple(m.tiles) for m in position.table) + sets
        detail = f"free_jokers={proposal.free_jokers}" if proposal.free_jokers else ""
        return PeerAnswer("move", played, sets, seconds, detail, cpu)


def play_order(tiles: list[Tile], rules: RuleSet) -> tuple[Tile, ...]:
    """Put an unordered meld (the peer's sets are multisets) into a valid play order if one exists;
    otherwise return the tiles sorted (the referee then says what is wrong)."""
    reals = sorted((t for t in tiles if not t.is_joker), key=lambda t: (t.number, t.colour.index))
    jokers = len(tiles) - len(reals)
    options = [tuple(reals) + (JOKER,) * jokers]
    if reals and len({t.colour for t in reals}) == 1:
        low, high = reals[0].number, reals[-1].number
        length = len(tiles)
        by_number = Counter(t.number for t in reals)
        for start in range(max(1, high - length + 1), low + 1):
            numbers = range(start, start + length)
            if all(by_number[n] <= 1 for n in numbers) and sum(by_number[n] for n in numbers) == len(reals):
                colour = reals[0].colour
                options.append(tuple(Tile(colour, n) if by_number[n] else JOKER for n in numbers))
    for option in options:
        if meld_problem(option, rules) is None:
            return option
    return tuple(sorted(tiles))
