"""The hard AI: legal, never peeks, goes out when it can, deterministic; its Monte Carlo helpers."""

from __future__ import annotations

import random
from collections import Counter

from rummisolve import verify
from rummisolve.game import Draw, Game, Play, play_game
from rummisolve.game.ai.hard import HardPlayer
from rummisolve.game.ai.medium import MediumPlayer
from rummisolve.game.ai.montecarlo import World, fitting_tiles, opponent_groups, single_tile_tables
from rummisolve.melds import Meld
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import Tile, parse_tiles
from tests.support.ai_views import SMALL, view_for, with_hidden_reshuffled


def _actions(deck, turns=24):
    game = Game(2, STANDARD, deck=deck)
    hard = HardPlayer(seed=5)
    actions = []
    while not game.finished and len(actions) < turns:
        seat = game.current
        if seat == 0:
            action = hard.choose(game.view(0))
            actions.append(action)
            game.play(action.table) if isinstance(action, Play) else game.draw()
        else:
            game.draw()
    return actions, game


def test_hard_never_peeks_at_hidden_tiles():
    deck = list(STANDARD.full_set())
    random.Random(11).shuffle(deck)
    first, game = _actions(deck)
    # The tiles the drawer was dealt or drew are hidden from the hard AI: shuffle them among
    # themselves (its rack and its draws) and the hard AI must see, and do, exactly the same.
    other = with_hidden_reshuffled(deck, game)
    second, _ = _actions(other)
    assert first == second
    assert any(isinstance(a, Play) for a in first)


def test_hard_is_deterministic_for_a_seed():
    view = view_for(
        ["R1 R2 R3", "K9 B9 O9", "B4 B5 B6"],
        "R4 K7 B7 O13 R13",
        sizes=(5, 2),
        history=({"type": "play", "player": 1, "table": [["R1", "R2", "R3"], ["K9", "B9", "O9"], ["B4", "B5", "B6"]]},),
    )
    actions = {repr(HardPlayer(seed=9).choose(view)) for _ in range(3)}
    assert len(actions) == 1


def test_hard_goes_out_when_it_can_even_with_the_opponent_close():
    view = view_for(["R1 R2 R3", "K9 B9 O9"], "R4 R5 R9", sizes=(3, 1))
    action = HardPlayer(seed=0).choose(view)
    assert isinstance(action, Play) and verify(view.position, action.table).played == parse_tiles("R4 R5 R9")


def test_hard_games_are_legal():
    for seed in range(2):
        seen = []
        game, record = play_game([HardPlayer(seed=seed), MediumPlayer()], rules=SMALL, seed=seed, on_turn=seen.append)
        assert record.illegal_moves == 0 and game.finished
        for info in seen:
            if hasattr(info.event, "table"):
                assert verify(info.position, info.event.table).legal
    game, record = play_game([MediumPlayer(), HardPlayer(seed=1)], seed=21)
    assert record.illegal_moves == 0 and game.finished
    assert Counter(game.state.tile_counts()) == Counter(STANDARD.full_set())


def test_hard_does_not_hand_a_one_tile_opponent_the_round():
    # The opponent kept one tile after its last play on this table, so that tile most likely fits
    # nowhere here: K6 or K7 (K8 and K12 fitted). Playing K4 K5 would open K6 for it; K4 alone is safe.
    rules = RuleSet(colours=1, numbers=13, copies=1, jokers=0, rack_size=4, initial_threshold=0)
    table = [["K1", "K2", "K3"], ["K9", "K10", "K11"]]
    history = ({"type": "play", "player": 1, "table": table},)
    view = view_for([" ".join(m) for m in table], "K4 K5 K13", rules=rules, sizes=(3, 1), pool=3, history=history)
    action = HardPlayer(seed=0).choose(view)
    assert isinstance(action, Play) and verify(view.position, action.table).played == parse_tiles("K4")
    unguarded = HardPlayer(seed=0, guard=False).choose(view)
    assert verify(view.position, unguarded.table).played == parse_tiles("K4 K5")
    # Its only play, K4, would open K5 (it holds K5, K6 or K7): it draws instead.
    view = view_for(["K1 K2 K3", "K9 K10 K11"], "K4 K13", rules=rules, sizes=(2, 1), pool=3, history=history)
    assert isinstance(HardPlayer(seed=0).choose(view), Draw)


def test_fitting_tiles_and_single_tile_tables():
    table = (Meld.parse("R1 R2 R3"), Meld.parse("K7 B7 R7"), Meld.parse("O1 O2 O3 O4 O5 O6"), Meld.parse("B4 J B6"))
    live = fitting_tiles(table)
    for code in ("R4", "O7", "O3", "O4", "B5", "B3", "B7", "O7"):
        assert Tile.parse(code) in live
    for code in ("K4", "O2", "O5", "R5", "K8"):
        assert Tile.parse(code) not in live
    position = view_for(["R1 R2 R3", "K7 B7 R7", "O1 O2 O3 O4 O5 O6"], "R4 O3 O7 O8").position
    for code in ("R4", "O3", "O7"):
        options = single_tile_tables(position.table, Tile.parse(code))
        assert options
        for option in options:
            assert verify(position, option).played == (Tile.parse(code),)
    assert single_tile_tables(position.table, Tile.parse("O8")) == []


def test_opponent_groups_read_the_public_history():
    t1 = [["R1", "R2", "R3"]]
    t2 = [["R1", "R2", "R3"], ["K5", "K6", "K7"]]
    history = (
        {"type": "play", "player": 1, "table": t1},  # its opening: no constraint
        {"type": "draw", "player": 0, "tile": None, "drew": 1},
        {"type": "play", "player": 1, "table": t2},  # kept tiles did not fit t2
        {"type": "play", "player": 0, "table": t2 + [["B9", "O9", "R9"]]},
        {"type": "draw", "player": 1, "tile": None, "drew": 1},
    )
    view = view_for([], "K1", sizes=(1, 4), history=history)
    sets = {}

    def fitsets(table_json):
        key = str(table_json)
        sets[key] = fitting_tiles(tuple(Meld.of(m) for m in table_json))
        return sets[key]

    groups = opponent_groups(view, 1, fitsets)
    assert [g[0] for g in groups] == [3, 1]
    assert len(groups[0][1]) == 2 and groups[1][1] == []
    assert Tile.parse("K8") in groups[0][1][0]  # fitted t2
    unopened = opponent_groups(view_for([], "K1", sizes=(1, 14)), 1, fitsets)
    assert unopened == [(14, [])]


def test_world_samples_respect_the_unseen_tiles_and_weights():
    unseen = Counter(parse_tiles("R4 R5 K8 K8 B2 J"))
    live = frozenset(parse_tiles("R4 R5"))
    world = World(random.Random(1), unseen, [(2, [live])], samples=200)
    for rack in world.samples:
        tiles = Counter(world.tiles[i] for i in rack)
        assert not tiles - unseen and len(rack) == 2 and len(set(rack)) == 2
    held = Counter(t for r in world.opponent_racks() for t in r)
    assert held[Tile.parse("K8")] > 5 * held[Tile.parse("R4")]  # R4 fitted: most likely not held


def test_a_lean_opening_is_legal_under_open_then_manipulate():
    # Under open_then_manipulate the best play may rearrange the table after its opening (here it
    # takes B12 O12 from the table's melds); the lean opening then plays it whole, never the
    # table as it was plus the new melds (which held a B12 from nowhere: an illegal move).
    rules = RuleSet.preset("twist").replace(open_then_manipulate=True, wraparound=True)
    table = ["B12 O12 JD", "R10 JC B12 B13"]
    rack = "K3 K6 K7 K8 K11 K12 K13 B4 B5 O2 O12 O13 R2 R4 R8 R9 R12"
    view = view_for(table, rack, opened=False, rules=rules, pool=40)
    action = HardPlayer(seed=1).choose(view)
    assert isinstance(action, Play) and verify(view.position, list(action.table)), action
    rules = STANDARD.replace(open_then_manipulate=True)
    view = view_for(["R1 R2 R3"], "K10 B10 O10 R4 K5 K6 K7", opened=False, rules=rules, pool=40)
    action = HardPlayer(seed=1).choose(view)
    assert isinstance(action, Play) and verify(view.position, list(action.table)), action
