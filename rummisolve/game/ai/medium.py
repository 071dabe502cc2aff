"""The medium AI: every turn, the solver's most-tiles move (manipulating the table freely).

Under the discard rule it plays without drawing whenever it can (the discard then sheds one more
tile than a draw would let it keep), unless the discard pile's top lets it play at least two more
tiles; with nothing to play it takes the top if that makes a play, else draws from the pool. It
discards the tile whose loss keeps its rack most playable (:mod:`rummisolve.game.ai.discarding`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rummisolve.game.actions import Action, Discard, Draw, Play
from rummisolve.game.ai.discarding import best_discard
from rummisolve.game.state import PlayerView
from rummisolve.position import Position
from rummisolve.solution import Solution
from rummisolve.tiles import Tile

__all__ = ["MediumPlayer", "rack_after"]


def rack_after(rack: Iterable[Tile], played: Iterable[Tile]) -> tuple[Tile, ...]:
    """The rack less the tiles played (sorted)."""
    return tuple(sorted((Counter(rack) - Counter(played)).elements()))


class MediumPlayer:
    """Plays the move that sheds the most tiles; draws when there is none."""

    name = "medium"

    def __init__(self, objective: str = "tiles") -> None:
        self.objective = objective

    def choose(self, view: PlayerView) -> Action:
        from rummisolve.solver import solve

        solution = solve(view.position, objective=self.objective)
        if view.rules.discard:
            return self._discard_turn(view, solution)
        if not solution:
            return Draw()
        return Play(tuple(solution.table))

    def _discard_turn(self, view: PlayerView, solution: Solution) -> Action:
        rules = view.rules
        if view.draw_from is None:  # before drawing: play now, or draw from the pile or the pool
            source = self._draw_source(view, solution)
            if source is not None:
                return Draw(source)
        if not solution:
            return Discard(best_discard(view.rack, rules, view.opened))
        left = rack_after(view.rack, solution.played)
        return Play(tuple(solution.table), discard=best_discard(left, rules, True))

    def _draw_source(self, view: PlayerView, solution: Solution) -> str | None:
        """Where to draw from, or ``None`` to play without drawing. Playing now sheds the tiles
        played and the discard; taking the top first sheds only the tiles played then."""
        from rummisolve.solver import solve

        played = len(solution.played)
        if solution and played == len(view.rack) - 1:
            return None  # out: play, then discard the last tile
        top = view.discard_top
        if top is not None:
            with_top = solve(
                Position(view.table, view.rack + (top,), view.opened, view.rules), objective=self.objective
            )
            if len(with_top.played) > (played + 1 if solution else 0):
                return "discard"
        if solution:
            return None
        return "pool" if view.pool_size else "discard"
