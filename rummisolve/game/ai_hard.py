"""The hard AI: plays to win the round, not the turn.

Each turn it asks the solver for the most-tiles move (the most-points move once the pool is
empty, when the lowest rack wins) and then adjusts it:

- it goes out whenever it can;
- otherwise it keeps a *reserve*: one tile of the move that the new table does not need (the end
  of a run of 4+, a tile of a 4-group) stays on the rack, so that next turn it can play instead of
  drawing; the table it leaves is smaller, which also gives opponents less to manipulate;
- when an opponent is one or two tiles from going out it stops holding back and sheds as much
  as it can (the reserve is only worth something if the round goes on).

The reserve is found by inspecting the solved table, so a move costs one solver call.
"""

from __future__ import annotations

import random

from rummisolve.game.players import Action, Draw, Play
from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld, MeldKind, meld_problem
from rummisolve.tiles import Tile

__all__ = ["HardPlayer", "spare_tiles"]


def spare_tiles(meld: Meld) -> list[int]:
    """Slots whose tile can leave ``meld`` with the rest still a valid meld (ends of runs of 4+, any
    tile of a group of 4+)."""
    n = len(meld.tiles)
    if n <= meld.rules.min_meld_length:
        return []
    if meld.kind is MeldKind.GROUP:
        slots = range(n)
    else:
        slots = (0, n - 1)
    return [i for i in slots if meld_problem(meld.tiles[:i] + meld.tiles[i + 1 :], meld.rules) is None]


class HardPlayer:
    """Solver-based player with a hold-back reserve and end-game awareness (one solve per move)."""

    name = "hard"

    def __init__(self, seed: int | None = None, reserve: bool = True, danger: int = 2) -> None:
        self.rng = random.Random(seed)
        self.reserve = reserve
        self.danger = danger

    def choose(self, view: PlayerView) -> Action:
        from rummisolve import solve

        position = view.position
        objective = "value" if view.pool_size == 0 else "tiles"
        solution = solve(position, objective=objective)
        if solution.status == "no_move" or not solution.played:
            return Draw()
        table = tuple(solution.table)
        if len(solution.played) == len(view.rack):
            return Play(table)  # going out
        if not self.reserve or not view.opened:
            return Play(table)
        threat = min(view.rack_sizes[s] for s in view.opponents())
        if threat <= self.danger or view.pool_size == 0:
            return Play(table)
        held = self._hold_one(view, table, solution.played)
        return Play(held if held is not None else table)

    def _hold_one(self, view: PlayerView, table: tuple[Meld, ...], played: tuple[Tile, ...]):
        """The new table with one played tile kept back as a reserve, or ``None``."""
        if len(played) < 2:
            return None
        old = {}
        for meld in view.table:
            for t in meld.tiles:
                old[t] = old.get(t, 0) + 1
        new_counts: dict[Tile, int] = {}
        for meld in table:
            for t in meld.tiles:
                new_counts[t] = new_counts.get(t, 0) + 1
        options = []
        for m, meld in enumerate(table):
            for slot in spare_tiles(meld):
                tile = meld.tiles[slot]
                if tile.is_joker:
                    continue  # a joker left on the rack costs 30
                if new_counts[tile] - old.get(tile, 0) <= 0:
                    continue  # that tile was already on the table: it may not go to the rack
                options.append((tile.number, m, slot))
        if not options:
            return None
        _, m, slot = min(options)
        meld = table[m]
        rest = Meld.of(meld.tiles[:slot] + meld.tiles[slot + 1 :], meld.rules)
        return table[:m] + (rest,) + table[m + 1 :]
