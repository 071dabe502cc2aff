"""Helpers shared by the AI tests: a small rule set, a player's view from notation."""

from __future__ import annotations

import random

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


def with_hidden_reshuffled(deck, game, seed=3):
    """``deck`` with the tiles seat 1 of a two-player ``game`` was dealt or drew (hidden from seat 0)
    shuffled among themselves."""
    size = game.rules.rack_size
    drawn_by_1 = list(range(size, 2 * size))
    pool_index = 2 * size
    for event in game.events:
        if getattr(event, "tile", None) is not None:
            if event.player == 1:
                drawn_by_1.append(pool_index)
            pool_index += 1
    hidden = [deck[i] for i in drawn_by_1]
    random.Random(seed).shuffle(hidden)
    assert hidden != [deck[i] for i in drawn_by_1]
    other = list(deck)
    for i, tile in zip(drawn_by_1, hidden):
        other[i] = tile
    return other


def checked_game(players, rules, seed, on_turn=None):
    """One game refereed as it goes: no illegal move, every play legal from the position it was
    decided on, the tiles conserved in every state, and the log replays to the same states.
    Returns ``(game, record, turns)``; ``on_turn`` sees each turn too."""
    from collections import Counter

    from rummisolve import verify
    from rummisolve.game import Game, play_game

    turns = []

    def seen(info):
        turns.append(info)
        if on_turn is not None:
            on_turn(info)

    game, record = play_game(players, rules=rules, seed=seed, on_turn=seen)
    assert record.illegal_moves == 0 and game.finished
    full = Counter(rules.full_set())
    for info in turns:
        assert info.illegal is None
        if hasattr(info.event, "table"):
            assert verify(info.position, info.event.table).legal
    for state in game.states:
        assert state.tile_counts() == full
    assert Game.replay(game.log()).states == game.states
    return game, record, turns
