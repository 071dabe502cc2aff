"""The medium AI: every turn, the solver's most-tiles move (manipulating the table freely)."""

from __future__ import annotations

from rummisolve.game.actions import Action, Draw, Play
from rummisolve.game.state import PlayerView

__all__ = ["MediumPlayer"]


class MediumPlayer:
    """Plays the move that sheds the most tiles; draws when there is none."""

    name = "medium"

    def __init__(self, objective: str = "tiles") -> None:
        self.objective = objective

    def choose(self, view: PlayerView) -> Action:
        from rummisolve.solver import solve

        solution = solve(view.position, objective=self.objective)
        if not solution:
            return Draw()
        return Play(tuple(solution.table))
