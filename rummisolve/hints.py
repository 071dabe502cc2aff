"""A hint ladder for frontends: say as much of the best move as the player asks for.

Level 1 names the rack tiles the best move plays; level 2 also the table melds it changes;
level 3 gives the whole move and how to play it, step by step (:mod:`rummisolve.explain`).
Every level comes from the same proven-best move (:func:`rummisolve.solve`).

>>> from rummisolve import Position
>>> p = Position.from_notation(["R3 R4 R5 R6", "K9 B9 O9 R9"], "R7 O7 O8 K1")
>>> print(hint(p, 1))
You can play 3 tiles: O7 O8 R7.
>>> print(hint(p, 2))
You can play 3 tiles: O7 O8 R7. The move changes 2 melds on the table: R3 R4 R5 R6 and K9 B9 O9 R9.
"""

from __future__ import annotations

from dataclasses import dataclass

from rummisolve.errors import OptionError
from rummisolve.explain import Explanation, explain_solution
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.solution import Objective, Solution, Status
from rummisolve.tiles import Tile, format_tiles

__all__ = ["Hint", "HintWords", "TILE_WORDS", "hint", "HINT_LEVELS"]

HINT_LEVELS = (1, 2, 3)


@dataclass(frozen=True)
class HintWords:
    """What a hint calls the pieces a move plays (one, several) and says when there is no move."""

    one: str = "tile"
    many: str = "tiles"
    no_move: str = "No move: draw a tile."


TILE_WORDS = HintWords()
"""The tile game's words (Xpress plays dice: ``HintWords("die", "dice", "No play with these dice: pass.")``)."""


@dataclass(frozen=True)
class Hint:
    """What a hint of ``level`` reveals of the best move.

    ``status`` is the solve's (``no_move``: draw; ``unknown``: nothing found in time). ``tiles``:
    the rack tiles the move plays (every level). ``touched``: the old table melds it changes, by
    index (level 2 and 3; ``None`` below). ``table`` and ``explanation``: the new table and its
    steps (level 3 only). ``text`` says it in a sentence or two."""

    level: int
    status: Status
    tiles: tuple[Tile, ...]
    touched: tuple[int, ...] | None
    table: tuple[Meld, ...] | None
    explanation: Explanation | None
    text: str

    def __str__(self) -> str:
        return self.text


def hint(
    position: Position, level: int, objective: Objective | str = Objective.TILES, time_limit: float | None = None
) -> Hint:
    """A hint of ``level`` (1, 2 or 3) about the best move for ``position`` (see the module docstring)."""
    from rummisolve.solver import solve

    if isinstance(level, bool) or level not in HINT_LEVELS:
        raise OptionError(f"hint level must be 1, 2 or 3, not {level!r}")
    return hint_of(solve(position, objective, time_limit), level)


def hint_of(solution: Solution, level: int, words: HintWords = TILE_WORDS) -> Hint:
    """The hint of ``level`` that ``solution`` (a solve's answer) gives, in ``words``."""
    if isinstance(level, bool) or level not in HINT_LEVELS:
        raise OptionError(f"hint level must be 1, 2 or 3, not {level!r}")
    if not solution:
        text = (
            words.no_move
            if solution.status is Status.NO_MOVE
            else "No move found in time (not a proof that there is none)."
        )
        return Hint(level, solution.status, (), None if level < 2 else (), None, None, text)
    tiles = solution.played
    count = len(tiles)
    text = f"You can play {count} {words.one if count == 1 else words.many}: {format_tiles(tiles)}."
    touched = None
    table = explanation = None
    if level >= 2:
        kept = set(solution.kept)
        old = solution.position.table
        touched = tuple(i for i in range(len(old)) if i not in kept)
        if touched:
            names = [str(old[i]) for i in touched]
            listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            text += f" The move changes {len(touched)} meld{'' if len(touched) == 1 else 's'} on the table: {listed}."
        else:
            text += " The move leaves every meld on the table as it is."
    if level == 3:
        table = solution.table
        explanation = explain_solution(solution)
        text += "\n" + str(explanation)
    return Hint(level, solution.status, tiles, touched, table, explanation, text)
