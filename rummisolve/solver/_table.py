"""Many racks against one table: :class:`TableSolver` and :func:`solve_racks`.

A search (an AI's playouts, its guard's sampled opponent racks, one solve per candidate tile)
asks for the best move of rack after rack on the same table. The table is checked, counted by
kind and split into base sets once; each rack then costs only its own part. Every answer is
the one :func:`rummisolve.solver.solve` gives for the same position, refereed the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from rummisolve.errors import OptionError
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.solution import AlternativesMode, Objective, Solution
from rummisolve.solver._candidates import catalogue, model_catalogue
from rummisolve.solver._layout import count_table
from rummisolve.solver._out import counted_out, goes_out
from rummisolve.solver._solve import check_options, solve_checked
from rummisolve.solver._stop import StopSignal
from rummisolve.solver_limits import check_alternatives_mode
from rummisolve.tiles import Tile, parse_tiles, split_melds

__all__ = ["TableSolver", "solve_racks"]


class TableSolver:
    """The best move of any rack on one ``table`` (melds, as :class:`~rummisolve.Position` takes
    them, or notation such as ``"R1 R2 R3 | K7 B7 O7"``) under ``rules``.

    The table is checked here, once: a meld that is not legal raises the
    :class:`~rummisolve.errors.InvalidMeldError` a :class:`~rummisolve.Position` would.

    >>> tables = TableSolver(["R1 R2 R3"])
    >>> [[str(m) for m in tables.solve(rack).table] for rack in ("R4 K9", "K9")]
    [['R1 R2 R3 R4'], ['R1 R2 R3']]
    """

    __slots__ = ("_cat", "_counts", "_model", "rules", "table")

    def __init__(self, table: Iterable[Meld | str | Iterable[Tile | str]] | str, rules: RuleSet = STANDARD) -> None:
        if isinstance(table, str):
            table = split_melds(table)
        empty = Position(cast("tuple[Meld, ...]", tuple(table)), (), True, rules)  # __post_init__ checks them
        self.table: tuple[Meld, ...] = empty.table
        """The table's melds, checked."""
        self.rules: RuleSet = rules
        self._cat = catalogue(rules)
        self._model = model_catalogue(rules)
        self._counts = count_table(self.table, self._model)
        """The table's counts under the model's catalogue (grouped from 6 colours on)."""

    def position(self, rack: str | Iterable[Tile | str], opened: bool = True) -> Position:
        """The position of ``rack`` on this table (checked as :class:`~rummisolve.Position` checks it)."""
        return Position(self.table, parse_tiles(rack), opened, self.rules)

    def solve(
        self,
        rack: str | Iterable[Tile | str],
        opened: bool = True,
        objective: Objective | str = Objective.TILES,
        time_limit: float | None = None,
        *,
        seed: int = 0,
        alternatives: int = 0,
        alternatives_mode: AlternativesMode | str = AlternativesMode.NOT_CONTAINED,
        stop: StopSignal | None = None,
        work: float | None = None,
    ) -> Solution:
        """``solve(Position(table, rack, opened, rules), objective, time_limit, ...)``: the same
        solution (status, tiles played, value, table, melds kept, alternatives), the same errors.

        ``work``: a cap on each CP-SAT search's work in its deterministic time (about seconds of
        one core, but counted, not clocked): unlike ``time_limit`` it does not depend on the
        machine's load, so a search it cuts gives the same answer every time, the best move found
        (``feasible``) or none (``unknown``). The AIs' counted budgets use it."""
        position = Position(self.table, parse_tiles(rack), opened, self.rules)
        objective, limit = check_options(objective, time_limit, seed, alternatives, stop)
        if work is not None and (isinstance(work, bool) or not isinstance(work, int | float) or not work > 0):
            raise OptionError(f"work must be a number above 0, not {work!r}")
        wanted = (alternatives, check_alternatives_mode(alternatives_mode))
        return solve_checked(
            position,
            self._cat,
            objective,
            limit,
            seed,
            wanted,
            stop,
            self._counts,
            work=None if work is None else float(work),
        )

    def goes_out(self, rack: str | Iterable[Tile | str], opened: bool = True) -> bool:
        """Whether some legal move plays every tile of ``rack`` (under the discard rule all but
        one, to discard): the same answer as ``len(solve(position, "tiles").played) >= len(rack)``
        (``- 1`` under the discard rule), found faster. A rack tile that fits no meld the
        available tiles could make settles it at once; otherwise the search stops at the first
        such move, which the referee checks."""
        position = Position(self.table, parse_tiles(rack), opened, self.rules)
        return goes_out(position, self._model, self._counts)

    def counted_out(self, rack: str | Iterable[Tile | str], opened: bool = True) -> bool:
        """Whether counting alone (no model) proves that ``rack`` does not go out: ``True`` is
        :meth:`goes_out`'s "no" (a rack tile that fits no meld the available tiles could make,
        more of them than may stay on the rack), ``False`` leaves the answer open."""
        position = Position(self.table, parse_tiles(rack), opened, self.rules)
        return counted_out(position, self._model, self._counts)

    def __repr__(self) -> str:
        args = [repr([str(m) for m in self.table])]
        if self.rules != STANDARD:
            args.append(f"rules={self.rules!r}")
        return f"TableSolver({', '.join(args)})"


def solve_racks(
    table: Iterable[Meld | str | Iterable[Tile | str]] | str,
    racks: Iterable[str | Iterable[Tile | str]],
    opened: bool = True,
    objective: Objective | str = Objective.TILES,
    time_limit: float | None = None,
    *,
    rules: RuleSet = STANDARD,
    seed: int = 0,
    alternatives: int = 0,
    alternatives_mode: AlternativesMode | str = AlternativesMode.NOT_CONTAINED,
) -> list[Solution]:
    """The best move of each of ``racks`` on ``table``, in order (:meth:`TableSolver.solve` on
    each; ``time_limit`` applies to each solve)."""
    solver = TableSolver(table, rules)
    return [
        solver.solve(
            rack,
            opened,
            objective,
            time_limit,
            seed=seed,
            alternatives=alternatives,
            alternatives_mode=alternatives_mode,
        )
        for rack in racks
    ]
