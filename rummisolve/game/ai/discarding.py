"""Helpers the AI players share under the discard rule: which tile to discard, and what the public
history says about the tiles an opponent wants.

A rack is *playable* to the degree that its tiles form melds of their own (playable on a later
turn, whatever the table) or are one tile short of one. Both are measured with the solver on an
empty table: the tiles in the rack's own melds, then the rack's tiles in melds once a wildcard
(an extra joker) is added. Removing a tile that the best arrangement does not use (or of which
the rack holds a spare copy) changes neither figure, so only the tiles the arrangements use are
solved again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from rummisolve.game.state import PlayerView
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.tiles import JOKER, Tile

__all__ = ["DiscardOption", "discard_options", "best_discard", "taken_tiles", "wanted_by", "played_tiles"]


@dataclass(frozen=True)
class DiscardOption:
    """A tile that could be discarded, and what the rack keeps without it (higher is better)."""

    tile: Tile
    own: int
    """Tiles of the rack left that form melds of their own."""
    near: int
    """Tiles of the rack left in melds once a wildcard tile is added (one tile short of a meld)."""


def discard_options(rack: Sequence[Tile], rules: RuleSet, opened: bool = True) -> list[DiscardOption]:
    """Every distinct tile of ``rack``, the best to discard first: the one whose loss keeps the most
    tiles in melds of the rack's own, then the most one tile short of a meld, then (opened) the
    highest number, fewer points left on the rack, or (not opened) the lowest, keeping points for
    the initial meld. Jokers come last (and are only measured when the rack holds nothing else)."""
    rack = tuple(sorted(rack))
    counts = Counter(rack)
    tiles = [t for t in sorted(counts) if not t.is_joker] or [JOKER]
    own_rules = _plain(rules)
    near_rules = _with_wildcard(rules, rack)
    own_all, own_used = _melds_of(rack, own_rules, False)
    if near_rules is not None:
        near_all, near_used = _melds_of(rack + (JOKER,), near_rules, True)
    options = []
    for tile in tiles:
        left = _without(rack, tile)
        spare = not tile.is_joker  # a joker's measures are always solved again
        own = own_all if spare and counts[tile] > own_used[tile] else _melds_of(left, own_rules, False)[0]
        if near_rules is None:
            near = own
        elif spare and counts[tile] > near_used[tile]:
            near = near_all
        else:
            near = _melds_of(left + (JOKER,), near_rules, True)[0]
        options.append(DiscardOption(tile, own, near))

    def order(option: DiscardOption) -> tuple:
        number = option.tile.number or 0
        return (option.tile.is_joker, -option.own, -option.near, -number if opened else number)

    return sorted(options, key=order)


def best_discard(rack: Sequence[Tile], rules: RuleSet, opened: bool = True) -> Tile:
    """The first of :func:`discard_options`: the tile whose loss keeps the rack most playable."""
    return discard_options(rack, rules, opened)[0].tile


@lru_cache(maxsize=4096)
def _melds_of(rack: tuple[Tile, ...], rules: RuleSet, wildcard: bool) -> tuple[int, Counter]:
    """How many rack tiles the most-tiles arrangement of ``rack`` alone (on an empty table) uses, and
    which; with ``wildcard`` the last joker of ``rack`` is the added wildcard, not counted."""
    from rummisolve.solver import solve

    if not rack:
        return 0, Counter()
    used = Counter(solve(Position((), rack, True, rules), objective="tiles").played)
    count = sum(used.values())
    if wildcard:
        rack_jokers = sum(t.is_joker for t in rack) - 1
        count -= max(0, used[JOKER] - rack_jokers)
    return count, used


@lru_cache(maxsize=64)
def _plain(rules: RuleSet) -> RuleSet:
    return rules.replace(discard=False)


def _with_wildcard(rules: RuleSet, rack: tuple[Tile, ...]) -> RuleSet | None:
    """The rules with room for one more joker (the wildcard), or ``None`` when the solver could not take it."""
    jokers = sum(t.is_joker for t in rack) + 1
    if jokers > 2 * rules.min_meld_length - 2 or jokers > 16:
        return None
    return _plain_with_jokers(rules, max(rules.jokers, jokers))


@lru_cache(maxsize=64)
def _plain_with_jokers(rules: RuleSet, jokers: int) -> RuleSet:
    return rules.replace(discard=False, jokers=jokers)


def _without(rack: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    i = rack.index(tile)
    return rack[:i] + rack[i + 1 :]


# -- what the public history says --------------------------------------------------------------------


def played_tiles(before: Sequence[Sequence[str]], after: Sequence[Sequence[str]]) -> Counter[str]:
    """The tile codes a play added to the table (table tiles never leave it)."""
    return Counter(t for meld in after for t in meld) - Counter(t for meld in before for t in meld)


def taken_tiles(view: PlayerView, seat: int) -> Counter[Tile]:
    """Tiles ``seat`` took from the discard pile (in public) and has neither played nor discarded since."""
    table: list = []
    known: Counter[str] = Counter()
    for event in view.history:
        kind = event.get("type")
        mine = event.get("player") == seat
        if kind == "play":
            if mine:
                known -= played_tiles(table, event["table"])
                if event.get("discard"):
                    known -= Counter([event["discard"]])
            table = event["table"]
        elif mine and kind == "draw" and event.get("source") == "discard" and event.get("tile"):
            known[event["tile"]] += 1
        elif mine and kind == "discard":
            known -= Counter([event["tile"]])
    return Counter({Tile.parse(code): n for code, n in known.items() if n > 0})


def wanted_by(tile: Tile, known: Counter[Tile]) -> bool:
    """Whether ``tile`` would go in a meld with a tile the opponent is known to hold: the same number
    in another colour, or the same colour within two numbers (a joker is wanted by anyone)."""
    if tile.is_joker:
        return bool(known)
    for other in known:
        if other.is_joker:
            return True
        if other.number == tile.number and other.colour is not tile.colour:
            return True
        if other.colour is tile.colour and 0 < abs(cast(int, other.number) - cast(int, tile.number)) <= 2:
            return True
    return False
