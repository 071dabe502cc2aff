"""Helpers shared by the AI tests: a small rule set, a player's view from notation."""

from __future__ import annotations

from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import parse_tiles

SMALL = RuleSet(colours=3, numbers=9, copies=1, jokers=1, rack_size=6, initial_threshold=10)


def view_for(table, rack, opened=True, rules=STANDARD, sizes=(10, 10), pool=20, history=(), turn=5):
    melds = tuple(Meld.of(parse_tiles(m), rules) for m in table)
    return PlayerView(
        0, rules, tuple(sorted(parse_tiles(rack))), melds, opened, (opened, True), sizes, pool, turn, tuple(history)
    )
