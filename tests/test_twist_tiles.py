"""Twist tiles and rules (docs/rules.md, "Twist"): the special jokers JD, JC, JM and the preset."""

from __future__ import annotations

import copy
import pickle
import re
from collections import Counter

import pytest

from rummisolve.errors import RuleSetError, TileCountError, TileNotationError, TileRangeError
from rummisolve.position import Position
from rummisolve.rules import PRESETS, STANDARD, TWIST, XP, RuleSet
from rummisolve.tiles import (
    COLOUR_CHANGE_JOKER,
    DOUBLE_JOKER,
    JOKER,
    MIRROR_JOKER,
    TILE_CODE_PATTERN,
    JokerKind,
    Tile,
    parse_tiles,
)

SPECIAL = {"JD": (DOUBLE_JOKER, JokerKind.DOUBLE), "JC": (COLOUR_CHANGE_JOKER, JokerKind.COLOUR_CHANGE),
           "JM": (MIRROR_JOKER, JokerKind.MIRROR)}  # fmt: skip


@pytest.mark.parametrize("code", ["JD", "jd", " Jc ", "jM", "JM\n"])
def test_special_joker_codes_parse_case_insensitively(code):
    tile = Tile.parse(code)
    expected, kind = SPECIAL[code.strip().upper()]
    assert tile is expected
    assert str(tile) == code.strip().upper()
    assert tile.joker_kind is kind
    assert re.match(TILE_CODE_PATTERN, code)


@pytest.mark.parametrize("code", ["JX", "JDD", "DJ", "J1", "JDC", "JCB"])
def test_other_j_codes_are_refused(code):
    with pytest.raises(TileNotationError, match=re.escape(repr(code))):
        Tile.parse(code)
    assert re.match(TILE_CODE_PATTERN, code) is None


def test_flags_keep_is_joker_for_the_regular_joker_only():
    assert (JOKER.is_joker, JOKER.is_special_joker, JOKER.is_any_joker) == (True, False, True)
    assert JOKER.joker_kind is JokerKind.REGULAR
    for tile, _ in SPECIAL.values():
        assert (tile.is_joker, tile.is_special_joker, tile.is_any_joker) == (False, True, True)
        assert tile.colour is None and tile.number is None and tile.value == 0
    r7 = Tile.parse("R7")
    assert (r7.is_joker, r7.is_special_joker, r7.is_any_joker, r7.joker_kind) == (False, False, False, None)


def test_jokers_sort_last_in_the_order_j_jd_jc_jm():
    tiles = parse_tiles("JM R13 JC J K1 JD")
    assert [str(t) for t in sorted(tiles)] == ["K1", "R13", "J", "JD", "JC", "JM"]
    assert len({t.sort_key for t in tiles}) == len(tiles)


@pytest.mark.parametrize("tile", [JOKER, DOUBLE_JOKER, COLOUR_CHANGE_JOKER, MIRROR_JOKER])
def test_special_jokers_are_interned_immutable_and_pickle_to_themselves(tile):
    assert pickle.loads(pickle.dumps(tile)) is tile
    assert copy.deepcopy(tile) is tile
    assert Tile.parse(str(tile)) is tile
    with pytest.raises(AttributeError):
        tile.colour = None
    with pytest.raises(AttributeError):
        tile.is_joker = True
    assert Tile(None, None) is JOKER


def test_twist_preset():
    assert RuleSet.preset("twist") is TWIST and TWIST.name == "twist"
    assert (TWIST.double_jokers, TWIST.colour_change_jokers, TWIST.mirror_jokers) == (2, 2, 2)
    assert TWIST.turn_timer == 60 and TWIST.jokers == 2 and TWIST.has_twist
    assert TWIST.total_tiles == 112 and len(TWIST.full_set()) == 112
    counts = Counter(TWIST.full_set())
    assert [counts[t] for t in (JOKER, DOUBLE_JOKER, COLOUR_CHANGE_JOKER, MIRROR_JOKER)] == [2, 2, 2, 2]
    assert all(TWIST.copies_of(t) == 2 for t in (JOKER, DOUBLE_JOKER, COLOUR_CHANGE_JOKER, MIRROR_JOKER))
    assert TWIST.special_jokers == {DOUBLE_JOKER: 2, COLOUR_CHANGE_JOKER: 2, MIRROR_JOKER: 2}
    assert {"J", "JD", "JC", "JM"} <= set(TWIST.tiles_by_code)
    assert RuleSet.from_dict(TWIST.to_dict()) == TWIST
    assert eval(repr(TWIST), {"RuleSet": RuleSet}) == TWIST


def test_other_presets_are_unchanged():
    for rules in (STANDARD, XP):
        assert not rules.has_twist and rules.special_jokers == {}
        assert not any(t.is_special_joker for t in rules.full_set())
        assert "JD" not in rules.tiles_by_code
    assert (STANDARD.total_tiles, XP.total_tiles) == (106, 160)
    assert set(PRESETS) == {"standard", "official", "xp", "twist", "xpress"}


def test_one_kind_alone():
    rules = STANDARD.replace(mirror_jokers=1)
    assert rules.total_tiles == 107 and rules.has_twist and rules.special_jokers == {MIRROR_JOKER: 1}
    assert rules.has_tile(MIRROR_JOKER) and not rules.has_tile(DOUBLE_JOKER)


@pytest.mark.parametrize("option", ["double_jokers", "colour_change_jokers", "mirror_jokers"])
@pytest.mark.parametrize("value", [-1, 17, True, 1.0, "2"])
def test_special_joker_options_are_validated(option, value):
    with pytest.raises(RuleSetError, match=option):
        STANDARD.replace(**{option: value})


def test_strict_retrieval_with_special_jokers_is_refused_with_the_reason():
    with pytest.raises(RuleSetError, match="strict.*special jokers"):
        TWIST.replace(joker_retrieval="strict")
    with pytest.raises(RuleSetError, match="strict"):
        RuleSet(joker_retrieval="strict", double_jokers=1)
    assert STANDARD.replace(joker_retrieval="strict").joker_retrieval == "strict"


@pytest.mark.parametrize(
    "code, option", [("JD", "double_jokers"), ("JC", "colour_change_jokers"), ("JM", "mirror_jokers")]
)
def test_check_tile_names_the_missing_option(code, option):
    with pytest.raises(TileRangeError, match=f"'{code}'.*'{option}'"):
        STANDARD.check_tile(Tile.parse(code))
    assert TWIST.check_tile(Tile.parse(code)) is Tile.parse(code)


def test_rack_value_counts_every_joker_30():
    assert TWIST.rack_value(parse_tiles("J JD JC JM R5")) == 4 * 30 + 5
    assert TWIST.replace(joker_penalty=25).rack_value(parse_tiles("JD K1")) == 26


def test_positions_count_special_jokers_per_kind():
    position = Position.from_notation("", "JD JD JC JM J J", rules=TWIST)
    assert position.unseen_counts()[DOUBLE_JOKER] == 0 and position.unseen_counts()[MIRROR_JOKER] == 1
    assert sum(position.unseen_counts().values()) == 112 - 6
    with pytest.raises(TileCountError, match="3 jokers JD"):
        Position.from_notation("", "JD JD JD", rules=TWIST)
    with pytest.raises(TileRangeError, match="'JC'"):
        Position.from_notation("", "JC R1")
