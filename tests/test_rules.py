"""RuleSet: defaults (docs/rules.md, "Rule options"), presets, validation, dict round trips."""

from __future__ import annotations

import dataclasses
import json
import pickle

import pytest
from hypothesis import given, settings

import rummisolve
from rummisolve.errors import RuleSetError, TileRangeError
from rummisolve.rules import PRESETS, STANDARD, XP, RuleSet
from rummisolve.tiles import JOKER, Colour, Tile, parse_tiles
from tests.support.strategies import rule_sets

NAMESPACE = {name: getattr(rummisolve, name) for name in ("Tile", "Colour", "RuleSet")}


def test_defaults_match_rules_md_section_4():
    r = RuleSet()
    assert r.colours == 4
    assert r.colour_list == (Colour.BLACK, Colour.BLUE, Colour.ORANGE, Colour.RED)
    assert r.numbers == 13
    assert r.copies == 2
    assert r.jokers == 2
    assert r.rack_size == 14
    assert r.min_meld_length == 3
    assert r.initial_threshold == 30
    assert r.wraparound is False
    assert r.open_then_manipulate is False
    assert r.joker_in_initial_meld is True
    assert r.joker_retrieval == "free"
    assert r.joker_penalty == 30
    assert r.turn_timer is None
    assert r.timer_penalty == 3
    assert (r.min_players, r.max_players) == (2, 4)
    assert r.empty_pool_scoring == "difference"
    assert r.total_tiles == 106
    assert len(r.full_set()) == 106
    assert len(r.tile_kinds) == 52
    assert r == STANDARD == RuleSet.preset("standard") == PRESETS["standard"]
    assert r.name == "standard"


def test_xp_preset():
    xp = RuleSet.preset("xp")
    assert xp is XP
    assert (xp.copies, xp.jokers, xp.total_tiles, len(xp.full_set())) == (3, 4, 160, 160)
    assert xp.max_players == 6
    assert xp.colours == 4 and xp.numbers == 13 and xp.min_meld_length == 3 and xp.initial_threshold == 30
    assert xp.name == "xp"
    assert RuleSet.preset("XP") is XP and RuleSet.preset("Standard") is STANDARD


@pytest.mark.parametrize("name", ["", "expert", "std", None, 3, ["xp"]])
def test_unknown_preset(name):
    with pytest.raises(RuleSetError) as info:
        RuleSet.preset(name)
    assert repr(name) in str(info.value)
    assert "standard" in str(info.value) and "xp" in str(info.value)


BAD_OPTIONS = [
    ("colours", 0),
    ("colours", 9),
    ("colours", 4.0),
    ("colours", "4"),
    ("colours", True),
    ("numbers", 0),
    ("numbers", 100),
    ("numbers", None),
    ("copies", 0),
    ("copies", 1.5),
    ("jokers", -1),
    ("jokers", False),
    ("rack_size", 0),
    ("min_meld_length", 1),
    ("min_meld_length", 0),
    ("initial_threshold", -1),
    ("joker_penalty", -30),
    ("joker_penalty", "30"),
    ("min_players", 0),
    ("max_players", 17),
    ("timer_penalty", -1),
    ("wraparound", 1),
    ("wraparound", "yes"),
    ("open_then_manipulate", None),
    ("joker_in_initial_meld", 0),
    ("joker_retrieval", "lenient"),
    ("joker_retrieval", None),
    ("empty_pool_scoring", "sum"),
    ("turn_timer", 0),
    ("turn_timer", -60),
    ("turn_timer", True),
    ("turn_timer", "60"),
    ("turn_timer", float("nan")),
    ("turn_timer", float("inf")),
]


@pytest.mark.parametrize("option, value", BAD_OPTIONS)
def test_bad_option_value_names_the_option(option, value):
    with pytest.raises(RuleSetError) as info:
        RuleSet(**{option: value})
    assert repr(option) in str(info.value)
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_dict({option: value})
    assert repr(option) in str(info.value)
    with pytest.raises(RuleSetError):
        STANDARD.replace(**{option: value})


def test_min_players_above_max_players():
    with pytest.raises(RuleSetError) as info:
        RuleSet(min_players=5, max_players=4)
    assert "'min_players'" in str(info.value) and "'max_players'" in str(info.value)


def test_good_edge_values():
    assert RuleSet(colours=8, numbers=20).total_tiles == 8 * 20 * 2 + 2
    assert RuleSet(jokers=0).total_tiles == 104
    assert RuleSet(turn_timer=60).turn_timer == 60
    assert RuleSet(turn_timer=0.5).turn_timer == 0.5
    assert RuleSet(initial_threshold=0, min_meld_length=2).initial_threshold == 0
    assert RuleSet(joker_retrieval="strict", empty_pool_scoring="rack").joker_retrieval == "strict"


def test_unknown_option():
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_dict({"colors": 4})
    assert "'colors'" in str(info.value)
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_dict({"zeta": 1, "alpha": 2, "copies": 2})
    assert "'alpha'" in str(info.value) and "'zeta'" in str(info.value)
    with pytest.raises(RuleSetError, match="unknown rule option.*'colors'"):
        RuleSet(colors=4)  # a RuleSetError (a ValueError), as every bad option is, not a TypeError
    with pytest.raises(RuleSetError, match="'colors'"):
        RuleSet().replace(colors=4)


def test_from_dict_presets_and_bad_shapes():
    assert RuleSet.from_dict({}) == STANDARD
    assert RuleSet.from_dict({"preset": "xp"}) == XP
    assert RuleSet.from_dict({"preset": "xp", "jokers": 0}) == XP.replace(jokers=0)
    assert RuleSet.from_dict({"wraparound": True}) == RuleSet(wraparound=True)
    with pytest.raises(RuleSetError, match="'nope'"):
        RuleSet.from_dict({"preset": "nope"})
    for bad in ("standard", ["xp"], None, 3):
        with pytest.raises(RuleSetError):
            RuleSet.from_dict(bad)


@settings(max_examples=150)
@given(rule_sets())
def test_dict_round_trip(rules):
    d = rules.to_dict()
    assert RuleSet.from_dict(d) == rules
    assert RuleSet.from_dict(json.loads(json.dumps(d))) == rules
    assert set(d) == {f.name for f in dataclasses.fields(RuleSet)}
    assert rules.replace() == rules


@settings(max_examples=150)
@given(rule_sets())
def test_repr_evaluates_back_and_pickles(rules):
    back = eval(repr(rules), NAMESPACE)
    assert back == rules and hash(back) == hash(rules)
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_repr_of_presets():
    assert repr(STANDARD) == "RuleSet()"
    assert eval(repr(XP), NAMESPACE) == XP


def test_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        STANDARD.colours = 5
    assert STANDARD.colours == 4


@settings(max_examples=100)
@given(rule_sets())
def test_derived_facts(rules):
    kinds = rules.tile_kinds
    assert len(kinds) == rules.colours * rules.numbers == len(set(kinds))
    assert list(kinds) == sorted(kinds)
    full = rules.full_set()
    assert len(full) == rules.total_tiles
    assert full.count(JOKER) == rules.jokers
    assert all(full.count(k) == rules.copies for k in kinds)
    assert all(rules.has_tile(k) and rules.check_tile(k) is k for k in kinds)
    assert rules.copies_of(JOKER) == rules.jokers
    assert rules.copies_of(kinds[0]) == rules.copies
    assert rules.has_tile(JOKER) == (rules.jokers > 0)
    for colour in Colour:
        assert rules.has_tile(Tile(colour, 1)) == (colour.index < rules.colours)
    assert not rules.has_tile(Tile(Colour.BLACK, rules.numbers + 1))


def test_check_tile_errors_name_the_tile():
    with pytest.raises(TileRangeError, match="'R14'"):
        STANDARD.check_tile(Tile.parse("R14"))
    with pytest.raises(TileRangeError, match="'G3'"):
        STANDARD.check_tile(Tile.parse("G3"))
    with pytest.raises(TileRangeError, match="'J'"):
        RuleSet(jokers=0).check_tile(JOKER)
    assert STANDARD.check_tile(JOKER) is JOKER


def test_rack_value():
    assert STANDARD.rack_value(parse_tiles("R1 B13 J")) == 44
    assert STANDARD.rack_value(()) == 0
    assert RuleSet(joker_penalty=50).rack_value(parse_tiles("J J K2")) == 102


def test_the_official_preset_is_the_defaults_with_strict_jokers():
    official = RuleSet.preset("official")
    assert official == STANDARD.replace(joker_retrieval="strict") and official.name == "official"
    assert {k for k, v in official.to_dict().items() if v != STANDARD.to_dict()[k]} == {"joker_retrieval"}
    assert STANDARD.joker_retrieval == "free" and STANDARD.name == "standard"
    assert rummisolve.OFFICIAL is official and RuleSet.from_dict({"preset": "official"}) == official
    from rummisolve.service import solve_json

    # A joker on the table may move freely under the defaults, not in the official game.
    position = {"table": [["R4", "R5", "R6", "J"]], "rack": ["K9", "K10"]}
    assert solve_json(position)["played"] == ["K9", "K10"]
    official_answer = solve_json({**position, "rules": "official"})
    assert official_answer["status"] == "no_move" and official_answer["rules"] == "official"


def test_the_docs_say_which_preset_is_the_official_game():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "The defaults are the official Rummikub rules." not in text
    assert "The\nofficial game is preset `official`" in text or "The official game is preset `official`" in text


def test_a_tile_of_another_colour_names_the_colours_in_play():
    with pytest.raises(
        TileRangeError, match=r"colour green is not in play \(the colours are K black, B blue, O orange, R red\)"
    ):
        STANDARD.check_tile(Tile.parse("G5"))
    assert STANDARD.unknown_code("X3") == "no colour X (the colours are K black, B blue, O orange, R red)"
    assert "green" in RuleSet(colours=5).unknown_code("X3") and "Y" in STANDARD.colour_letters
    assert STANDARD.unknown_code("R").startswith(
        "a tile is a colour letter and a number from 1 to 13, or J for a joker"
    )
