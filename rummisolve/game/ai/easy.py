"""The easy AI: never touches the table; plays the most tiles it can as new melds from its own rack.

Under the discard rule it plays without drawing when it has melds, takes the discard pile's top
when that gives it a meld, else draws from the pool, and discards its highest-numbered tile (never
a joker while it holds anything else).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rummisolve.game.actions import Action, Discard, Draw, Play
from rummisolve.game.state import PlayerView
from rummisolve.position import Position
from rummisolve.solution import Solution
from rummisolve.tiles import Tile

__all__ = ["EasyPlayer", "own_melds", "highest_tile"]


def own_melds(view: PlayerView, objective: str = "tiles", rack: tuple[Tile, ...] | None = None) -> Solution | None:
    """The solver's best new melds made only from the rack (the initial-meld model before opening).

    Solving the same rack against an empty table gives exactly the moves that add new melds and
    leave the table alone; ``None`` when there is none. ``rack`` replaces the view's rack.
    """
    from rummisolve.solver import solve

    alone = Position((), view.rack if rack is None else rack, view.opened, view.rules)
    solution = solve(alone, objective=objective)
    if not solution:
        return None
    return solution


def highest_tile(rack: Iterable[Tile]) -> Tile:
    """The highest-numbered tile of ``rack``; a joker only when there is nothing else."""
    return max(rack, key=lambda t: (not t.is_joker, t.number or 0, t.sort_key))


class EasyPlayer:
    """Plays only new melds from its rack (the most tiles it can); draws when it has none."""

    name = "easy"

    def choose(self, view: PlayerView) -> Action:
        solution = own_melds(view)
        if view.rules.discard:
            return self._discard_turn(view, solution)
        if solution is None:
            return Draw()
        return Play(tuple(view.table) + tuple(solution.table))

    def _discard_turn(self, view: PlayerView, solution: Solution | None) -> Action:
        if view.draw_from is None and solution is None:
            top = view.discard_top
            if top is not None and (own_melds(view, rack=view.rack + (top,)) is not None or not view.pool_size):
                return Draw("discard")
            return Draw("pool")
        if solution is None:
            return Discard(highest_tile(view.rack))
        left = (Counter(view.rack) - Counter(solution.played)).elements()
        return Play(tuple(view.table) + tuple(solution.table), discard=highest_tile(list(left)))
