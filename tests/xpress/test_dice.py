"""The Xpress dice table against RULES 5.3, and the xpress preset."""

from __future__ import annotations

from collections import Counter

import pytest

import rummisolve
from rummisolve import JOKER, RuleSet, Tile
from rummisolve.jsonio import rules_from_json, rules_to_json
from rummisolve.xpress import DiceError, FreeDie, die_named, die_names


def test_the_table_has_18_dice_of_6_faces_d1_first():
    dice = rummisolve.XPRESS_DICE
    assert len(dice) == 18 and all(len(die) == 6 and all(isinstance(t, Tile) for t in die) for die in dice)
    assert [str(t) for t in dice[0]] == ["B1", "K3", "R5", "O7", "O10", "J"]
    assert [str(t) for t in dice[17]] == ["R3", "O5", "B7", "K9", "K12", "K13"]
    assert die_names() == tuple(f"D{i}" for i in range(1, 19))


def test_108_faces_every_numbered_face_twice_and_4_jokers_on_4_dice():
    faces = Counter(t for die in rummisolve.XPRESS_DICE for t in die)
    assert sum(faces.values()) == 108
    rules = RuleSet.preset("xpress")
    assert {t: n for t, n in faces.items() if not t.is_joker} == {t: 2 for t in rules.tile_kinds}
    assert faces[JOKER] == 4
    assert sum(JOKER in die for die in rummisolve.XPRESS_DICE) == 4


def test_each_die_has_6_different_numbers_in_at_least_3_colours():
    for die in rummisolve.XPRESS_DICE:
        numbered = [t for t in die if not t.is_joker]
        assert len({t.number for t in numbered}) == len(numbered) >= 5
        assert len(set(die)) == 6
        assert len({t.colour for t in numbered}) >= 3


def test_the_xpress_preset_and_its_json():
    rules = RuleSet.preset("xpress")
    assert (rules.colours, rules.numbers, rules.copies, rules.jokers) == (4, 13, 2, 4)
    assert (rules.min_meld_length, rules.initial_threshold, rules.max_players, rules.dice) == (3, 0, 2, True)
    assert rules.name == "xpress" and rules_to_json(rules) == "xpress"
    assert rules_from_json("xpress") == rules == RuleSet.from_dict(rules.to_dict())
    assert rules_to_json(RuleSet(dice=True)) == {"dice": True}
    assert not RuleSet().dice


def test_dice_errors_name_the_bad_input():
    with pytest.raises(DiceError, match="unknown die 'D19'"):
        die_named("D19")
    with pytest.raises(DiceError, match="D1 has no face B2"):
        FreeDie(die_named("D1"), Tile.parse("B2"))
    assert issubclass(DiceError, ValueError)


def test_the_tile_game_engine_refuses_the_dice_edition_by_name():
    from rummisolve.errors import RuleSetError
    from rummisolve.game import Game

    with pytest.raises(RuleSetError, match="'dice'"):
        Game(2, RuleSet.preset("xpress"), seed=1)
