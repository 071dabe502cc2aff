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

Optionally (``trickle=True``) it plays a single tile per turn when one fits, holding everything
else; measured no stronger than banking, so off by default.

Defence: when an opponent holds three tiles or fewer, the AI estimates for the table its move
would leave the chance that the opponent's tiles all fit on it (tiles drawn from what it has not
seen; a tile that would have fitted on the table the opponent last drew on is ruled out). If the
move raises that chance, it tries a one-tile play that does not, and otherwise draws on purpose.
Going out is checked before anything else. About three solver calls per move; the risk estimate
needs none.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from rummisolve.game.players import Action, Draw, Play
from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld, MeldKind
from rummisolve.position import Position
from rummisolve.tiles import Tile

__all__ = ["HardPlayer", "fewest_tiles_reaching", "fits", "out_risk"]


def fits(tile: Tile, table: Sequence[Meld]) -> bool:
    """Whether ``tile`` alone can join the table by a simple move: extend a run, join a group, split a
    long run, replace a joker. A fast estimate for the AI (the referee still judges every move)."""
    if tile.is_joker:
        return bool(table)
    for meld in table:
        rep = meld.represents
        if tile in rep and any(t.is_joker and r == tile for t, r in zip(meld.tiles, rep)):
            return True
        if meld.kind is MeldKind.GROUP:
            if (
                rep[0].number == tile.number
                and len(meld) < meld.rules.colours
                and tile.colour not in {r.colour for r in rep}
            ):
                return True
            continue
        if rep[0].colour is not tile.colour:
            continue
        numbers = [r.number for r in rep]
        if tile.number in (numbers[0] - 1, numbers[-1] + 1):
            return True
        if tile.number in numbers:
            i = numbers.index(tile.number)
            if i >= 2 and len(numbers) - i >= 3:
                return True
    return False


def out_risk(table: Sequence[Meld], unseen: Counter, size: int, excluded: Counter | None = None) -> float:
    """Estimated chance that an opponent holding ``size`` unseen tiles can lay them all on ``table``
    (each tile independently; ``excluded`` tiles are known not to be on that rack)."""
    pool = unseen - excluded if excluded else unseen
    total = sum(pool.values())
    if total == 0 or size > 3:
        return 0.0
    fitting = sum(n for tile, n in pool.items() if fits(tile, table))
    return (fitting / total) ** size


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
    """Banks its own melds, plays loose tiles, opens lean; goes out as soon as it can."""

    name = "hard"

    def __init__(
        self,
        seed: int | None = None,
        bank: bool = True,
        lean_opening: bool = True,
        defend: float | None = 0.0,
        trickle: bool = False,
        defend_size: int = 3,
        defend_alternatives: bool = True,
    ) -> None:
        self.defend_size = defend_size
        self.defend_alternatives = defend_alternatives
        self.rng = random.Random(seed)
        self.trickle = trickle
        self.bank = bank
        self.lean_opening = lean_opening
        self.defend = defend
        """Draw instead of playing when the play raises the opponent's chance to go out by this much."""

    def choose(self, view: PlayerView) -> Action:
        action = self._choose(view)
        if self.defend is None or not isinstance(action, Play) or not view.opened or view.pool_size == 0:
            return action
        threat = min(view.opponents(), key=lambda s: view.rack_sizes[s])
        size = view.rack_sizes[threat]
        if size > self.defend_size or len(view.rack) <= 2:
            return action
        new_table = tuple(m if isinstance(m, Meld) else Meld.of(m, view.rules) for m in action.table)
        if sum(len(m) for m in new_table) == sum(len(m) for m in view.table) + len(view.rack):
            return action  # going out
        unseen = view.unseen()
        excluded = _ruled_out(view, threat)
        limit = out_risk(view.table, unseen, size, excluded) + self.defend
        if out_risk(new_table, unseen, size, excluded) <= limit:
            return action
        if self.defend_alternatives:
            for tile in sorted(view.rack, key=lambda t: (t.is_joker, -(t.number or 0)))[:4]:
                single = self._one_tile(view, (tile,))
                if single is not None and out_risk(single, unseen, size, excluded) <= limit:
                    return Play(single)
        return Draw()

    def _one_tile(self, view: PlayerView, candidates) -> tuple[Meld, ...] | None:
        """A new table that adds exactly one rack tile (the highest-numbered that fits), or ``None``."""
        from rummisolve import solve

        tried = set()
        for tile in sorted(candidates, key=lambda t: (t.is_joker, -(t.number or 0))):
            if tile in tried or tile.is_joker:
                continue
            tried.add(tile)
            if len(tried) > 4:
                break
            move = solve(Position(view.table, (tile,), True, view.rules), objective="tiles")
            if move.status != "no_move" and move.played:
                return tuple(move.table)
        return None

    def _choose(self, view: PlayerView) -> Action:
        from rummisolve import solve

        rules = view.rules
        objective = "value" if view.pool_size == 0 else "tiles"
        full = solve(view.position, objective=objective)
        if full.status == "no_move" or not full.played:
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
        if self.trickle:
            single = self._one_tile(view, full.played)
            if single is not None:
                return Play(single)
        bank = solve(Position((), view.rack, True, rules), objective="tiles")
        banked = tuple(bank.table) if bank.status != "no_move" else ()
        banked_tiles = Counter(t for m in banked for t in m.tiles)
        loose = tuple(sorted((Counter(view.rack) - banked_tiles).elements()))
        if loose:
            move = solve(Position(view.table, loose, True, rules), objective="tiles")
            if move.status != "no_move" and move.played:
                return Play(tuple(move.table))
        if banked:
            smallest = min(banked, key=lambda m: (len(m), m.value))
            return Play(tuple(view.table) + (smallest,))
        return Play(tuple(full.table))


def _ruled_out(view: PlayerView, seat: int) -> Counter:
    """Tiles the opponent cannot hold: ones that would have fitted the table it last drew on."""
    table_then = None
    table: tuple = ()
    for event in view.history:
        if event["type"] == "play":
            table = event["table"]
        elif event["player"] == seat and event["type"] == "draw":
            table_then = table
    if table_then is None:
        return Counter()
    melds = [Meld.of(m, view.rules) for m in table_then]
    return Counter({t: n for t, n in view.unseen().items() if fits(t, melds)})
