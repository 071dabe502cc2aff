"""Real games with the real solver, AIs and referee: legality, conservation, replay, AI behaviour."""

from __future__ import annotations

from collections import Counter

import pytest

from rummisolve import verify
from rummisolve.game import Draw, Game, Play, make_player, play_game
from rummisolve.game.ai_easy import EasyPlayer
from rummisolve.game.ai_hard import HardPlayer, spare_tiles
from rummisolve.game.ai_medium import MediumPlayer
from rummisolve.game.players import UnknownPlayerError
from rummisolve.melds import Meld
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import parse_tiles

# A small game (2 colours, 1..9, 1 copy, 1 joker, racks of 6, opening 10) keeps real games quick.
SMALL = RuleSet(colours=3, numbers=9, copies=1, jokers=1, rack_size=6, initial_threshold=10)


def view_for(table, rack, opened=True, rules=STANDARD, sizes=(10, 10), pool=20):
    from rummisolve.game.state import PlayerView

    melds = tuple(Meld.of(parse_tiles(m), rules) for m in table)
    return PlayerView(0, rules, tuple(sorted(parse_tiles(rack))), melds, opened, (opened, True), sizes, pool, 5)


def checked_game(kinds, seed, rules=STANDARD):
    """Play a full game, re-checking every turn independently of the engine."""
    seen = []

    def on_turn(info):
        seen.append(info)

    game, record = play_game([make_player(k, seed=seed) for k in kinds], rules=rules, seed=seed, on_turn=on_turn)
    full = Counter(rules.full_set())
    for state in game.states:
        assert state.tile_counts() == full
    for info in seen:
        if hasattr(info.event, "table"):
            assert verify(info.position, info.event.table).legal
    assert record.illegal_moves == 0
    assert Game.replay(game.log()).states == game.states
    return game, record


@pytest.mark.parametrize("kinds", [("medium", "easy"), ("hard", "medium"), ("easy", "hard", "medium")])
def test_small_real_games_are_legal_and_replay(kinds):
    for seed in range(2):
        game, record = checked_game(kinds, seed, SMALL)
        assert game.finished and record.winner in range(len(kinds))
        assert sum(record.scores) == 0


def test_one_standard_game_medium_vs_hard():
    game, record = checked_game(("medium", "hard"), 3)
    assert record.turns > 2 and sum(record.scores) == 0


def test_easy_never_touches_the_table():
    view = view_for(["R1 R2 R3"], "R4 K7 B7 O7 K1")
    action = EasyPlayer().choose(view)
    assert isinstance(action, Play)
    assert [str(m) for m in action.table[:1]] == ["R1 R2 R3"]
    added = sorted(t for m in action.table[1:] for t in m.tiles)
    assert added == sorted(parse_tiles("K7 B7 O7"))  # R4 would need the table: easy keeps it


def test_medium_manipulates_and_easy_draws():
    view = view_for(["R1 R2 R3"], "R4 K1")
    assert isinstance(EasyPlayer().choose(view), Draw)
    action = MediumPlayer().choose(view)
    assert isinstance(action, Play) and verify(view.position, action.table).played == parse_tiles("R4")


def test_opening_respects_threshold():
    view = view_for([], "K1 K2 K3 R10 R11 R12", opened=False)
    for player in (EasyPlayer(), MediumPlayer(), HardPlayer(seed=0)):
        action = player.choose(view)
        assert isinstance(action, Play) and verify(view.position, action.table).legal
    low = view_for([], "K1 K2 K3 R5", opened=False)
    assert isinstance(MediumPlayer().choose(low), Draw)


def test_hard_goes_out_when_it_can():
    view = view_for(["R1 R2 R3", "K9 B9 O9"], "R4 R5 R9")
    action = HardPlayer(seed=0).choose(view)
    assert isinstance(action, Play) and verify(view.position, action.table).played == parse_tiles("R4 R5 R9")


def test_hard_keeps_a_reserve_and_stays_legal():
    view = view_for(["R1 R2 R3"], "R4 R5 K9 B9 O9 K1 B13")
    action = HardPlayer(seed=0).choose(view)
    verdict = verify(view.position, action.table)
    assert verdict.legal and len(verdict.played) == 4  # R4 R5 K9 B9 O9 is the full move; one is held back
    # with an opponent about to go out, no hold-back
    urgent = view_for(["R1 R2 R3"], "R4 R5 K9 B9 O9 K1 B13", sizes=(7, 1))
    assert len(verify(urgent.position, HardPlayer(seed=0).choose(urgent).table).played) == 5


def test_spare_tiles():
    assert spare_tiles(Meld.parse("R1 R2 R3 R4")) == [0, 3]
    assert spare_tiles(Meld.parse("R1 R2 R3")) == []
    assert spare_tiles(Meld.parse("K5 B5 O5 R5")) == [0, 1, 2, 3]


def test_make_player_rejects_unknown():
    with pytest.raises(UnknownPlayerError, match="wizard"):
        make_player("wizard")
