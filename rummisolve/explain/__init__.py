"""Explanations of a turn: how to get from the old table to the new one, in the fewest moves.

A tile *stays* when it is in an old meld and also in the new meld that continues that old meld;
every other tile of the new table *moves*, from the rack or from the old meld it was in, and is
one :class:`Step`. Which new meld continues which old meld (``meld_map``) is chosen so that the
steps are fewest: a maximum-weight assignment between old and new melds, weighted by the tiles
they share (copies of a tile are interchangeable), ties going to more melds that stay whole
(the same tiles before and after), then to more melds that keep their kind (run or group).

The steps come in an order a person can follow at the table: first jokers replaced by the tile
they stand for, then the new melds one by one, an old meld giving its tiles away before it is
extended (when melds trade tiles both ways, one sets its departing tiles aside first). Each
step's ``text`` is the sentence of the action it belongs to and names melds by their tiles as
they stand at that moment; the steps of one action (a new meld laid from the rack, a run split
in two, two tiles added to one end) share it.

>>> from rummisolve.position import Position
>>> p = Position.from_notation(["R3 R4 R5 R6", "K9 B9 O9 R9"], "R7 O7 O8", opened=True)
>>> e = explain(p, ["R3 R4 R5 R6 R7", "K9 B9 R9", "O7 O8 O9"])
>>> e.meld_map, e.moves
((0, 1), 4)
>>> print(e)
1. Add R7 from your rack to the end of R3 R4 R5 R6
2-4. Make a new run O7 O8 O9 with O9 from K9 B9 O9 R9 and O7 O8 from your rack
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rummisolve.errors import IllegalTurnError
from rummisolve.explain._matching import meld_map
from rummisolve.explain._steps import plan
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.referee import NewTable, verify
from rummisolve.rules import RuleSet
from rummisolve.solution import Solution
from rummisolve.tiles import Tile, parse_tiles, split_melds

__all__ = ["Step", "Explanation", "explain", "explain_solution", "numbered"]


@dataclass(frozen=True)
class Step:
    """One tile moving: ``tile`` from ``source`` (an old table meld's index; ``None`` is the rack)
    to ``target`` (a new table meld's index). ``text`` is the plain-English sentence of the action
    the step is part of (steps moved together share it)."""

    tile: Tile
    source: int | None
    target: int
    text: str


@dataclass(frozen=True)
class Explanation:
    """How a turn gets from the old table to the new one.

    ``meld_map`` has one entry per old table meld: the index of the new meld that continues it
    (keeps its tiles that do not move), or ``None`` when all its tiles move; no two old melds
    continue into the same new meld. ``steps`` has one :class:`Step` per tile that moves, in
    playing order; their number, ``moves``, is the fewest any meld map allows.
    """

    meld_map: tuple[int | None, ...]
    steps: tuple[Step, ...]

    @property
    def moves(self) -> int:
        """The number of tiles that move (``len(steps)``)."""
        return len(self.steps)

    def __str__(self) -> str:
        """The steps numbered from 1, one line per action (``2-4.`` for three steps moved together)."""
        return "\n".join(numbered([step.text for step in self.steps])) or "no tile moves"


def numbered(texts: Sequence[str]) -> list[str]:
    """Step texts as numbered lines, counting from 1; consecutive equal texts (one action) share a
    line numbered as a range, e.g. ``["a", "b", "b"]`` -> ``["1. a", "2-3. b"]``."""
    lines = []
    start = 0
    for end in range(1, len(texts) + 1):
        if end == len(texts) or texts[end] != texts[start]:
            label = str(start + 1) if end - start == 1 else f"{start + 1}-{end}"
            lines.append(f"{label}. {texts[start]}")
            start = end
    return lines


def explain(position: Position, new_table: NewTable, *, max_steps: int | None = None) -> Explanation:
    """Explain the turn that turns ``position``'s table into ``new_table``.

    ``new_table`` is what :func:`rummisolve.referee.verify` takes (melds as :class:`Meld` objects,
    tile iterables, strings, or one ``"R1 R2 R3 | K7 B7 O7"`` string); the step targets index it in
    the order given. The turn is refereed first: an illegal one raises
    :class:`~rummisolve.errors.IllegalTurnError` listing the referee's reasons (its ``verdict``
    has them all). ``max_steps`` is passed on to the referee. A :class:`Solution` is explained by
    :func:`explain_solution`.
    """
    if not isinstance(position, Position):
        raise TypeError(f"position must be a Position, not {type(position).__name__}")
    table = _materialise(new_table)
    verdict = verify(position, table, max_steps=max_steps)
    if not verdict.legal:
        raise IllegalTurnError("illegal turn: " + "; ".join(str(r) for r in verdict.reasons), verdict)
    rules = position.rules
    new = tuple(_meld(meld, rules) for meld in (split_melds(table) if isinstance(table, str) else table))
    return _explain(position.table, new, verdict.played)


def explain_solution(solution: Solution) -> Explanation:
    """Explain a solver answer: its move, or, for a solution without one (``no_move``, ``unknown``),
    the table left as it is (each old meld continues into itself, no steps)."""
    if not isinstance(solution, Solution):
        raise TypeError(f"solution must be a Solution, not {type(solution).__name__}")
    if not solution:
        return Explanation(tuple(range(len(solution.position.table))), ())
    return explain(solution.position, solution.table)


def _materialise(new_table: NewTable) -> NewTable:
    """``new_table`` with its melds as lists, so that iterators survive being read twice."""
    if isinstance(new_table, str | Meld | Tile):
        return new_table  # a whole table as one string, or something verify() names as wrong
    try:
        items = list(new_table)
    except TypeError:
        return new_table  # verify() names the wrong type
    return [m if isinstance(m, str | Meld | Tile) or not isinstance(m, Iterable) else list(m) for m in items]


def _meld(meld: Meld | str | Iterable[Tile | str], rules: RuleSet) -> Meld:
    if isinstance(meld, Meld):
        return Meld.of(meld.tiles, rules)
    return Meld.of(parse_tiles(meld), rules)


def _explain(old: Sequence[Meld], new: Sequence[Meld], played: Sequence[Tile]) -> Explanation:
    mapping = meld_map(old, new)
    steps = tuple(Step(*step) for step in plan(old, new, mapping, played))
    return Explanation(tuple(mapping), steps)
