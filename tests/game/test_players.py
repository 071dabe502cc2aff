"""Real games with the real solver, AIs and referee: legality, conservation, replay, AI behaviour."""

from __future__ import annotations

from collections import Counter

import pytest

from rummisolve import verify
from rummisolve.errors import UnknownPlayerError
from rummisolve.game import Draw, Game, Play, make_player, play_game
from rummisolve.game.ai.easy import EasyPlayer
from rummisolve.game.ai.hard import HardPlayer, fewest_tiles_reaching
from rummisolve.game.ai.medium import MediumPlayer
from rummisolve.game.ai.montecarlo import fitting_tiles
from rummisolve.melds import Meld
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import Tile, parse_tiles

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


def test_hard_banks_its_own_melds_and_plays_loose_tiles():
    view = view_for(["R1 R2 R3"], "R4 K9 B9 O9 K1 B13")
    action = HardPlayer(seed=0).choose(view)
    assert verify(view.position, action.table).played == parse_tiles("R4")  # K9 B9 O9 stays banked
    stuck = view_for(["R1 R2 R3"], "K9 B9 O9 K1 B13")
    action = HardPlayer(seed=0).choose(stuck)
    assert verify(stuck.position, action.table).played == parse_tiles("K9 B9 O9")  # rather than draw
    assert len(MediumPlayer().choose(view).table) == 2  # medium dumps everything


def test_hard_opens_lean():
    view = view_for([], "R10 R11 R12 K1 K2 K3 B5 B6 B7 O13", opened=False)
    action = HardPlayer(seed=0).choose(view)
    assert verify(view.position, action.table).played == parse_tiles("R10 R11 R12")
    melds = tuple(Meld.parse(m) for m in ("K1 K2 K3", "B5 B6 B7", "R10 R11 R12"))
    assert fewest_tiles_reaching(melds, 30) == melds[2:]
    assert fewest_tiles_reaching(melds, 50) == melds[1:]


def test_fitting_tiles_extend_runs_join_groups_and_split_long_runs():
    table = [Meld.parse("R1 R2 R3"), Meld.parse("K7 B7 R7"), Meld.parse("O1 O2 O3 O4 O5 O6")]
    live = fitting_tiles(table)
    assert {Tile.parse("R4"), Tile.parse("O7"), Tile.parse("O3")} <= live
    assert Tile.parse("K4") not in live and Tile.parse("O2") not in live


def test_hard_draws_rather_than_hand_the_opponent_the_round():
    rules = RuleSet(colours=1, numbers=9, copies=1, jokers=0, rack_size=4, initial_threshold=0)
    view = view_for(["K1 K2 K3"], "K5 K6 K7 K9", rules=rules, sizes=(4, 1), pool=1)
    assert isinstance(HardPlayer(seed=0).choose(view), Draw)  # K5 K6 K7 would let K8 (or K4) out
    assert isinstance(HardPlayer(seed=0, guard=False).choose(view), Play)
    assert isinstance(MediumPlayer().choose(view), Play)


def test_make_player_rejects_unknown():
    with pytest.raises(UnknownPlayerError, match="wizard"):
        make_player("wizard")


def test_match_of_rounds_adds_up_and_rotates_the_first_player():
    from rummisolve.game import play_match

    match = play_match([make_player("medium"), make_player("easy")], 3, rules=SMALL, seed=4)
    assert [r.first for r in match.rounds] == [0, 1, 0]
    assert match.totals == tuple(sum(r.scores[s] for r in match.rounds) for s in range(2))
    assert sum(match.totals) == 0 and match.leaders


def test_a_match_of_no_rounds_is_an_option_error():
    from rummisolve.errors import OptionError
    from rummisolve.game import play_match

    with pytest.raises(OptionError, match="at least one round"):
        play_match([make_player("easy"), make_player("easy")], 0)
