"""The hard AI: plays to win the round, not the turn.

Strategy ("banking"): melds the AI can make from its own rack alone are always playable later
(after the initial meld), so putting them on the table early only hands material to opponents
(who may rearrange them to get rid of their own tiles) and leaves the AI nothing to play on a
later turn, when it must then draw. So each turn the hard AI:

1. plays the whole rack and wins whenever the solver finds a way (checked first, every turn);
2. sets aside a *bank*: the most tiles it can arrange into melds of its own (the solver on an
   empty table);
3. plays the best move that uses only the other, "loose" tiles (with the table's help);
4. if there is none, plays one banked meld instead of drawing (the smallest), so it draws only
   when it has nothing at all;
5. opens with the fewest tiles that reach the threshold, banking the rest;
6. when the pool is empty (the lowest rack will win a blocked round) it sheds the most points.

Guard (the default defence): most rounds between solver players end in a long stand-off in
which each side holds a few tiles that fit nowhere, and a player usually goes out right after
the *other* player's move opened the table it needed. So before a play (other than going out)
while the nearest opponent holds ``guard_size`` tiles or fewer, the AI samples that opponent's
rack from the tiles it has not seen (Monte Carlo, :mod:`rummisolve.game.montecarlo`), weighting
by the public history: a tile the opponent kept after its last play, or held when it drew, most
likely did not fit the table of that moment. Racks that could already go out on the current table
are dropped (the opponent would have gone out). The solver then checks, for each sampled rack,
whether it goes out on the table the play would leave. If some do, the AI compares one-tile plays
(the same check) and drawing (worth ``1 - draw_cost``) and takes the safest. Going out is checked
before anything else. Only the AI's own view is used; the sampling is seeded from ``seed`` and
the turn, so a seed fixes every decision.
"""

from __future__ import annotations

import random
from collections import Counter

from rummisolve.game.actions import Action, Draw, Play
from rummisolve.game.montecarlo import (
    World,
    fitting_tiles,
    opponent_groups,
    single_tile_tables,
)
from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.tiles import Tile

__all__ = ["HardPlayer", "fewest_tiles_reaching"]


def fewest_tiles_reaching(melds: tuple[Meld, ...], threshold: int) -> tuple[Meld, ...]:
    """A subset of ``melds`` worth at least ``threshold`` with the fewest tiles (then the least value)."""
    best = melds
    best_key = (sum(len(m) for m in melds), sum(m.value for m in melds))
    n = len(melds)
    if n > 12:
        return melds
    for mask in range(1, 1 << n):
        chosen = tuple(melds[i] for i in range(n) if mask >> i & 1)
        value = sum(m.value for m in chosen)
        if value < threshold:
            continue
        key = (sum(len(m) for m in chosen), value)
        if key < best_key:
            best, best_key = chosen, key
    return best


class HardPlayer:
    """Banks its own melds, plays loose tiles, opens lean, guards against handing a nearly-out
    opponent the table it needs (see the module docstring); goes out as soon as it can.

    ``guard=False`` turns the defence off. Its knobs: ``guard_size`` (opponent rack sizes it
    watches), ``guard_samples`` (sampled racks per turn), ``draw_cost`` (how much safer than the
    best play a draw must be), ``guard_alternatives`` (one-tile plays tried).
    """

    name = "hard"

    def __init__(
        self,
        seed: int | None = None,
        bank: bool = True,
        lean_opening: bool = True,
        guard: bool = True,
        guard_size: int = 6,
        guard_samples: int = 10,
        draw_cost: float = 0.1,
        guard_alternatives: int = 4,
    ) -> None:
        self.guard = guard
        self.guard_size = guard_size
        self.guard_samples = guard_samples
        self.draw_cost = draw_cost
        self.guard_alternatives = guard_alternatives
        self.seed = seed
        self.bank = bank
        self.lean_opening = lean_opening

    def choose(self, view: PlayerView) -> Action:
        action = self._choose(view)
        if not self.guard or not isinstance(action, Play) or not view.opened or view.pool_size == 0:
            return action
        return self._guard(view, action)

    def _guard(self, view: PlayerView, action: Play) -> Action:
        """Solver-checked defence: estimate, over sampled opponent racks, the chance that the table
        ``action`` leaves lets the nearest opponent go out; if it is not zero, compare one-tile plays
        and drawing."""
        from rummisolve.referee import verify
        from rummisolve.solver import solve

        rules = view.rules
        threat = min(view.opponents(), key=lambda s: view.rack_sizes[s])
        size = view.rack_sizes[threat]
        if size > self.guard_size or not view.players_opened[threat] or size == 0:
            return action
        new_table = tuple(m if isinstance(m, Meld) else Meld.of(m, rules) for m in action.table)
        table = tuple(view.table)
        added = sum(len(m) for m in new_table) - sum(len(m) for m in table)
        if added == len(view.rack):
            return action  # going out
        cache: dict = {}

        def fitsets(table_json):
            key = tuple(tuple(m) for m in table_json)
            if key not in cache:
                cache[key] = fitting_tiles(tuple(Meld.of(m, rules) for m in table_json))
            return cache[key]

        groups = opponent_groups(view, threat, fitsets)
        rng = random.Random(f"hard/{self.seed}/{view.seat}/{view.turn}")
        world = World(rng, view.unseen(), groups, self.guard_samples)
        outs: dict = {}

        def goes_out(tbl: tuple[Meld, ...], rack: tuple[Tile, ...]) -> bool:
            key = (_table_key(tbl), rack)
            if key not in outs:
                move = solve(Position(tbl, rack, True, rules), objective="tiles")
                outs[key] = bool(move) and len(move.played) == len(rack)
            return outs[key]

        racks = [tuple(sorted(r)) for r in world.opponent_racks()]
        consistent = [r for r in racks if r and not goes_out(table, r)]
        if not consistent:
            return action

        def risk(tbl: tuple[Meld, ...]) -> float:
            return sum(goes_out(tbl, r) for r in consistent) / len(consistent)

        r0 = risk(new_table)
        if r0 <= 0.0:
            return action
        best_value, best = 1.0 - r0, action
        live = fitting_tiles(table)
        tried = 0
        for tile in sorted(set(view.rack), key=lambda t: (t.is_joker, -(t.number or 0))):
            if tried >= self.guard_alternatives:
                break
            if tile.is_joker or tile not in live:
                continue
            options = single_tile_tables(table, tile)
            if not options:
                continue
            tried += 1
            option = options[0]
            value = 1.0 - risk(option)
            if value > best_value and verify(view.position, option).legal:
                best_value, best = value, Play(option)
        if 1.0 - self.draw_cost > best_value:
            return Draw()
        return best

    def _choose(self, view: PlayerView) -> Action:
        from rummisolve.solver import solve

        rules = view.rules
        objective = "value" if view.pool_size == 0 else "tiles"
        full = solve(view.position, objective=objective)
        if not full:
            return Draw()
        if len(full.played) == len(view.rack) or view.pool_size == 0 or not self.bank:
            return Play(tuple(full.table))  # going out, or shedding points before a blocked ending
        if not view.opened:
            if not self.lean_opening:
                return Play(tuple(full.table))
            kept = tuple(view.table)
            new = [m for m in full.table]
            for meld in kept:  # the opening leaves the table as it was; the rest are new melds
                for i, m in enumerate(new):
                    if m.tiles == meld.tiles:
                        del new[i]
                        break
            lean = fewest_tiles_reaching(tuple(new), rules.initial_threshold)
            return Play(kept + lean)
        bank = solve(Position((), view.rack, True, rules), objective="tiles")
        banked = tuple(bank.table) if bank else ()
        banked_tiles = Counter(t for m in banked for t in m.tiles)
        loose = tuple(sorted((Counter(view.rack) - banked_tiles).elements()))
        if loose:
            move = solve(Position(view.table, loose, True, rules), objective="tiles")
            if move:
                return Play(tuple(move.table))
        if banked:
            smallest = min(banked, key=lambda m: (len(m), m.value))
            return Play(tuple(view.table) + (smallest,))
        return Play(tuple(full.table))


def _table_key(table) -> tuple:
    return tuple(m.tiles for m in table)
