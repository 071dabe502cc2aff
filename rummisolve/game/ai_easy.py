"""The easy AI: never touches the table; plays the most tiles it can as new melds from its own rack."""

from __future__ import annotations

from rummisolve.game.actions import Action, Draw, Play
from rummisolve.game.state import PlayerView
from rummisolve.position import Position

__all__ = ["EasyPlayer", "own_melds"]


def own_melds(view: PlayerView, objective: str = "tiles"):
    """The solver's best new melds made only from the rack (the initial-meld model before opening).

    Solving the same rack against an empty table gives exactly the moves that add new melds and
    leave the table alone; ``None`` when there is none.
    """
    from rummisolve.solver import solve

    alone = Position((), view.rack, view.opened, view.rules)
    solution = solve(alone, objective=objective)
    if not solution:
        return None
    return solution


class EasyPlayer:
    """Plays only new melds from its rack (the most tiles it can); draws when it has none."""

    name = "easy"

    def choose(self, view: PlayerView) -> Action:
        solution = own_melds(view)
        if solution is None:
            return Draw()
        return Play(tuple(view.table) + tuple(solution.table))
