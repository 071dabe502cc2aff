"""What the hard and expert AIs share: a move's wall-clock budget and the playouts' cached solver calls.

A move's budget is either *counted* (a number of worlds: the same decisions on any machine, for
tests and analysis) or *clocked*: :class:`MoveClock` holds the wall-clock deadline of one move,
and the search stops sampling when it passes (a world cut short is dropped whole, so every
candidate still meets the same worlds). A solve made under a clock gets the time left as its
``time_limit``, at most the clock's ``solve_cap``: one that the time left cut raises
:class:`OutOfTime`; one that its own cap cut answers the best move found (counted in ``capped``),
so one slow solve does not eat a whole world.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile

if TYPE_CHECKING:
    from rummisolve.solver import TableSolver

__all__ = [
    "MoveClock",
    "OutOfTime",
    "UNTIMED",
    "greedy_move",
    "cannot_go_out",
    "table_key",
    "table_solver",
    "loose_tiles",
    "rack_after",
    "melds_of",
]

Move = tuple[tuple[Meld, ...], tuple[Tile, ...]]
"""(new table, rack left)."""


class OutOfTime(Exception):
    """The move's deadline passed (internal: the search catches it and stops sampling)."""


class MoveClock:
    """The wall-clock deadline of one move (``time.perf_counter`` seconds; ``None``: no clock) and
    the longest one solve under it may take (``solve_cap`` seconds; ``None``: up to the deadline).
    ``work``: a cap on one solve's work instead, counted in CP-SAT's deterministic time, not clocked
    (a counted budget's: the same answers under any load; ``None``: uncapped)."""

    __slots__ = ("deadline", "solve_cap", "work", "capped")

    def __init__(self, deadline: float | None, solve_cap: float | None = None, work: float | None = None) -> None:
        self.deadline = deadline
        self.solve_cap = solve_cap
        self.work = work
        self.capped = 0
        """Solves that ``solve_cap`` or ``work`` cut (answered with the best move found)."""

    @classmethod
    def starting(cls, seconds: float, solve_cap: float | None = None) -> MoveClock:
        """A clock that runs out ``seconds`` from now."""
        return cls(time.perf_counter() + seconds, solve_cap)

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def check(self) -> None:
        """Raise :class:`OutOfTime` once the deadline has passed."""
        if self.expired():
            raise OutOfTime

    def solve_limit(self) -> float | None:
        """The ``time_limit`` for a solve now: the time left (``None`` without a clock); raises
        :class:`OutOfTime` when none is left."""
        if self.deadline is None:
            return None
        left = self.deadline - time.perf_counter()
        if left <= 0:
            raise OutOfTime
        return left


UNTIMED = MoveClock(None)
"""The clock of a counted budget: never runs out."""


def greedy_move(
    table: tuple[Meld, ...],
    rack: tuple[Tile, ...],
    opened: bool,
    rules: RuleSet,
    cache: dict[Any, Any],
    clock: MoveClock = UNTIMED,
) -> Move | None:
    """The solver's most-tiles move (the medium AI): ``(new table, rack left)`` or ``None``,
    remembered in ``cache``. Under ``clock`` the solve gets the time left, at most its
    ``solve_cap``: cut by the time left it raises :class:`OutOfTime` (and nothing is remembered),
    cut by the cap (or by the clock's ``work`` cap) it answers the best move found (``None`` if none)."""
    tiles = table_key(table)
    key = (tiles, rack, opened)
    if key not in cache:
        from rummisolve.solution import Status

        limit = clock.solve_limit()
        capped = limit is not None and clock.solve_cap is not None and clock.solve_cap < limit
        if capped:
            limit = clock.solve_cap
        solution = table_solver(tiles, table, rules, cache).solve(rack, opened, "tiles", limit, work=clock.work)
        if solution.status not in (Status.OPTIMAL, Status.NO_MOVE):
            if limit is not None and not capped:
                raise OutOfTime
            if capped or clock.work is not None:
                clock.capped += 1
        cache[key] = (tuple(solution.table), solution.rack_after) if solution else None
    return cache[key]


def table_key(table: Iterable[Meld]) -> tuple[tuple[Tile, ...], ...]:
    """``table``'s part of a cache key: its melds' tiles."""
    return tuple(m.tiles for m in table)


def table_solver(key: tuple, table: tuple[Meld, ...], rules: RuleSet, cache: dict[Any, Any]) -> TableSolver:
    """The :class:`~rummisolve.solver.TableSolver` of ``table`` (``key``: its melds' tiles),
    remembered in ``cache``: the table is checked and counted once for all the racks solved on it
    (the answers are :func:`~rummisolve.solver.solve`'s)."""
    solver_key = ("table", key)
    solver = cache.get(solver_key)
    if solver is None:
        from rummisolve.solver import TableSolver

        solver = cache[solver_key] = TableSolver(table, rules)
    return solver


def cannot_go_out(
    table: tuple[Meld, ...], rack: tuple[Tile, ...], opened: bool, rules: RuleSet, cache: dict[Any, Any]
) -> bool:
    """Whether counting alone proves that ``rack`` (sorted) does not go out on ``table``:
    :meth:`~rummisolve.solver.TableSolver.counted_out`, no model; ``False`` leaves it open.
    When it is ``True`` the solver's most-tiles move (:func:`greedy_move`) leaves more than one
    tile (under the normal rules, any tile), so a caller that asks only whether the rack goes out
    may skip that solve."""
    tiles = table_key(table)
    key = ("counted out", tiles, rack, opened)
    found = cache.get(key)
    if found is None:
        found = cache[key] = table_solver(tiles, table, rules, cache).counted_out(rack, opened)
    return found


def loose_tiles(rack: tuple[Tile, ...], rules: RuleSet, cache: dict[Any, Any]) -> int:
    """How many of ``rack``'s tiles fit no meld of the rack's own (the solver on an empty table,
    under ``rules`` without the discard rule), remembered in ``cache``."""
    key = ("loose", rack)
    if key not in cache:
        from rummisolve.solver import solve

        plain = rules.replace(discard=False) if rules.discard else rules
        played = solve(Position((), rack, True, plain), objective="tiles").played if rack else ()
        cache[key] = len(rack) - len(played)
    return cache[key]


def rack_after(rack: Iterable[Tile], old_table: Iterable[Meld], new_table: Iterable[Meld]) -> tuple[Tile, ...]:
    """The rack less the tiles a play moved onto the table, sorted."""
    played = Counter(t for m in new_table for t in m.tiles) - Counter(t for m in old_table for t in m.tiles)
    return tuple(sorted((Counter(rack) - played).elements()))


def melds_of(table: Iterable[Meld | tuple[Tile, ...]], rules: RuleSet) -> tuple[Meld, ...]:
    """A play's table as melds (tile tuples made into melds under ``rules``)."""
    return tuple(m if isinstance(m, Meld) else Meld.of(m, rules) for m in table)
