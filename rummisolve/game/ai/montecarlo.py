"""Monte Carlo over the tiles the hard AI has not seen, from its own view only.

A player cannot see the other racks or the pool, but the public history says a lot about an
opponent's rack: a solver-driven player plays whatever it can, so a tile it kept after a play, or
held when it drew, most likely fitted nowhere on the table of that moment. :func:`opponent_groups`
reads those constraints from the history and :class:`World` draws weighted guesses at the
opponent's rack from the unseen tiles. :func:`fitting_tiles` and
:func:`single_tile_tables` are quick "simple move" helpers (run ends, groups, run splits, joker
slots); every move the AI makes still goes through the referee.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence

from rummisolve.game.state import PlayerView
from rummisolve.melds import InvalidMeldError, Meld, MeldKind
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile

__all__ = ["fitting_tiles", "opponent_groups", "shrink_groups", "World", "single_tile_tables"]


def fitting_tiles(table: Sequence[Meld]) -> frozenset[Tile]:
    """The (non-joker) tiles that can join ``table`` by a simple move: extend a run at either end,
    join a group, split a long run, or replace a joker."""
    out: set[Tile] = set()
    for meld in table:
        if meld.special_joker_count:  # Twist melds: not judged by these simple moves
            continue
        rep = meld.represents
        for t, r in zip(meld.tiles, rep):
            if t.is_joker:
                out.add(r)
        if meld.kind is MeldKind.GROUP:
            if len(meld) < meld.rules.colours:
                present = {r.colour for r in rep}
                number = rep[0].number
                out.update(Tile(c, number) for c in meld.rules.colour_list if c not in present)
            continue
        colour = rep[0].colour
        numbers = [r.value for r in rep]  # what the tiles stand for: numbered tiles
        if numbers[0] > 1:
            out.add(Tile(colour, numbers[0] - 1))
        if numbers[-1] < meld.rules.numbers:
            out.add(Tile(colour, numbers[-1] + 1))
        for i in range(2, len(numbers) - 2):
            out.add(Tile(colour, numbers[i]))
    return frozenset(out)


FitSets = Callable[[Sequence[Sequence[str]]], frozenset[Tile]]
"""``table_json -> fitting_tiles(table)`` (a table as JSON: melds of tile codes)."""


def fitting_tiles_of_json_tables(rules: RuleSet) -> FitSets:
    """``table_json -> fitting_tiles(table)`` for the tables of the public history, remembered."""
    cache: dict[tuple[tuple[str, ...], ...], frozenset[Tile]] = {}

    def fitsets(table_json: Sequence[Sequence[str]]) -> frozenset[Tile]:
        key = tuple(tuple(m) for m in table_json)
        if key not in cache:
            cache[key] = fitting_tiles(tuple(Meld.of(m, rules) for m in table_json))
        return cache[key]

    return fitsets


def opponent_groups(view: PlayerView, seat: int, fitsets: FitSets) -> list[tuple[int, list[frozenset[Tile]]]]:
    """The opponent's hidden rack as groups of tiles with the tables each group most likely did
    not fit: ``(count, [fitting-tile sets])``. The first group holds the tiles kept after its last
    play (not its opening); each later draw adds a one-tile group. ``fitsets(table_json)`` maps a
    table (as in the history) to its fitting tiles."""
    size = view.rack_sizes[seat]
    table: list = []
    opened = False
    groups: list[tuple[int, list]] = []  # built from the last play on
    kept_constraints: list | None = None
    for event in view.history:
        kind = event.get("type")
        if kind == "play":
            table = event["table"]
            if event.get("player") == seat:
                was_opened = opened
                opened = True
                kept_constraints = [table] if was_opened else []
                groups = []
        elif event.get("player") == seat and kind in ("draw", "timeout"):
            drew = event.get("drew", 0) or 0
            if kind == "draw" and opened and kept_constraints is not None:
                kept_constraints.append(table)
                for _, cons in groups:
                    cons.append(table)
            groups.extend((1, []) for _ in range(drew))
    if kept_constraints is None:
        return [(size, [])]
    drawn = len(groups)
    first = max(0, size - drawn)
    out = [(first, [fitsets(t) for t in kept_constraints])] if first else []
    extra = size - first
    for count, cons in groups[-extra:] if extra else []:
        out.append((count, [fitsets(t) for t in cons]))
    return out


def shrink_groups(
    groups: list[tuple[int, list[frozenset[Tile]]]], total: int
) -> list[tuple[int, list[frozenset[Tile]]]]:
    """``groups`` (as :func:`opponent_groups` gives them) cut down to ``total`` tiles, the latest
    groups first: the rest of a rack once some of its tiles are known (taken from the discard pile)."""
    out = list(groups)
    excess = sum(c for c, _ in out) - total
    for i in range(len(out) - 1, -1, -1):
        if excess <= 0:
            break
        cut = min(excess, out[i][0])
        out[i] = (out[i][0] - cut, out[i][1])
        excess -= cut
    return [(c, cons) for c, cons in out if c > 0]


class World:
    """Weighted guesses at the hidden tiles, drawn once per turn and shared by every candidate
    (common random numbers keep the comparison between candidates fair).

    ``groups`` describe the opponent's rack (see :func:`opponent_groups`); a tile that fitted a
    table the group most likely did not fit keeps ``penalty`` of its weight for each such table."""

    def __init__(
        self,
        rng: random.Random,
        unseen: Counter,
        groups: list[tuple[int, list[frozenset[Tile]]]],
        samples: int,
        penalty: float = 0.05,
    ) -> None:
        self.tiles: list[Tile] = sorted(unseen.elements())
        n = len(self.tiles)
        weights = []
        for count, cons in groups:
            w = []
            for t in self.tiles:
                x = 1.0
                if not t.is_joker:
                    for live in cons:
                        if t in live:
                            x *= penalty
                w.append(x)
            weights.append((count, w))
        self.samples: list[tuple[int, ...]] = []
        """Each sample: indices into :attr:`tiles` of one guessed opponent rack."""
        rand = rng.random
        for _ in range(samples):
            taken: set[int] = set()
            rack: list[int] = []
            for count, w in weights:
                keys = sorted((-math.log(1.0 - rand()) / w[i], i) for i in range(n) if i not in taken)[:count]
                for _, i in keys:
                    taken.add(i)
                    rack.append(i)
            self.samples.append(tuple(rack))

    def opponent_racks(self) -> list[tuple[Tile, ...]]:
        return [tuple(self.tiles[i] for i in rack) for rack in self.samples]


def single_tile_tables(table: Sequence[Meld], tile: Tile) -> list[tuple[Meld, ...]]:
    """Every table that adds ``tile`` alone by a simple move (run end, group, run split)."""
    out: list[tuple[Meld, ...]] = []
    if tile.is_any_joker:
        return out
    for i, meld in enumerate(table):
        if meld.special_joker_count:  # Twist melds: not judged by these simple moves
            continue
        rep = meld.represents
        options: list[tuple[tuple[Tile, ...], ...]] = []
        if meld.kind is MeldKind.GROUP:
            if rep[0].number == tile.number and tile.colour not in {r.colour for r in rep}:
                options.append((meld.tiles + (tile,),))
        elif rep[0].colour is tile.colour:
            numbers = [r.value for r in rep]  # numbered tiles
            if tile.number == numbers[-1] + 1:
                options.append((meld.tiles + (tile,),))
            if tile.number == numbers[0] - 1:
                options.append(((tile,) + meld.tiles,))
            if tile.number in numbers:
                k = numbers.index(tile.number)
                if k >= 2 and len(numbers) - k >= 3:
                    options.append((meld.tiles[:k] + (tile,), meld.tiles[k:]))
        for option in options:
            try:
                melds = tuple(Meld.of(tiles, meld.rules) for tiles in option)
            except InvalidMeldError:
                continue
            out.append(tuple(table[:i]) + melds + tuple(table[i + 1 :]))
    return out
