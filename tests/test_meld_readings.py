"""``Meld.with_stands_for``: a meld read as given (the joker assignments a result carries), not as inferred."""

from __future__ import annotations

import pytest

from rummisolve.errors import InvalidMeldError
from rummisolve.melds import Meld, MeldKind
from rummisolve.rules import STANDARD, TWIST, RuleSet
from rummisolve.tiles import Tile

T = Tile.parse


def test_the_inferred_reading_gives_the_inferred_meld_itself():
    for text, rules in (("R4 J R6", STANDARD), ("K7 B7 J", STANDARD), ("R2 JD R5", TWIST), ("R1 J JM J R1", TWIST)):
        meld = Meld.parse(text, rules)
        assert Meld.with_stands_for(meld.tiles, meld.stands_for, rules) is meld


def test_a_group_joker_may_stand_for_any_missing_colour():
    inferred = Meld.parse("K7 B7 J")
    assert inferred.represents[2] == T("O7")  # the first missing colour
    meld = Meld.with_stands_for(["K7", "B7", "J"], [T("K7"), T("B7"), T("R7")])
    assert meld.kind is MeldKind.GROUP
    assert meld.represents == (T("K7"), T("B7"), T("R7"))
    assert meld.stands_for == meld.represents and meld.jokers == ((2, T("R7")),)
    assert meld.value == 21 and meld.tiles == inferred.tiles and str(meld) == "K7 B7 J"
    assert meld != inferred and meld == Meld.with_stands_for(["K7", "B7", "J"], [T("K7"), T("B7"), T("R7")])


def test_a_sequence_valid_both_ways_may_be_read_the_other_way():
    assert Meld.parse("R5 J J").kind is MeldKind.RUN  # worth more as a run
    group = Meld.with_stands_for(["R5", "J", "J"], [T("R5"), T("K5"), T("B5")])
    assert group.kind is MeldKind.GROUP and group.value == 15
    assert Meld.parse("J J R3").kind is MeldKind.GROUP  # worth more as a group
    run = Meld.with_stands_for(["J", "J", "R3"], [T("R1"), T("R2"), T("R3")])
    assert run.kind is MeldKind.RUN and run.value == 6


def test_a_double_joker_in_a_group_may_stand_for_any_two_missing_colours():
    five = RuleSet.from_dict({"preset": "twist", "colours": 5})
    inferred = Meld.parse("R7 K7 JD", five)
    assert inferred.stands_for[2] == (T("B7"), T("O7"))
    meld = Meld.with_stands_for(inferred.tiles, [T("R7"), T("K7"), (T("O7"), T("G7"))], five)
    assert meld.kind is MeldKind.GROUP and meld.jokers == ((2, (T("O7"), T("G7"))),)
    assert meld != inferred  # the readings differ, so the melds do
    with pytest.raises(InvalidMeldError):  # the pair in canonical order only
        Meld.with_stands_for(inferred.tiles, [T("R7"), T("K7"), (T("G7"), T("O7"))], five)


def test_a_mirror_group_is_read_alike_on_both_sides():
    tiles = Meld.parse("R1 K1 J JM J K1 R1", TWIST).tiles
    meld = Meld.with_stands_for(tiles, [T("R1"), T("K1"), T("O1"), None, T("O1"), T("K1"), T("R1")], TWIST)
    assert meld.kind is MeldKind.MIRROR and meld.side_kind is MeldKind.GROUP and meld.value == 6
    with pytest.raises(InvalidMeldError) as info:  # the sides differ
        Meld.with_stands_for(tiles, [T("R1"), T("K1"), T("O1"), None, T("B1"), T("K1"), T("R1")], TWIST)
    assert info.value.reason == "bad_stands_for"


@pytest.mark.parametrize(
    ("text", "rules", "stands"),
    [
        ("R5 J J", STANDARD, ["R5", "R6", "R8"]),  # not consecutive
        ("R5 J J", STANDARD, ["R5", "K5", "K5"]),  # a colour twice
        ("R5 J J", STANDARD, ["R5", "K5"]),  # one entry short
        ("R5 J J", STANDARD, ["R4", "R5", "R6"]),  # a numbered tile stands for itself
        ("R5 J J", STANDARD, ["R5", "R6", None]),  # a J stands for a tile
        ("K7 B7 J", STANDARD, ["K7", "B7", "G7"]),  # no such colour under these rules
        ("K7 B7 J", STANDARD, ["K7", "B7", "O8"]),  # another number
        ("R1 R2 JC K4 J", TWIST, ["R1", "R2", 4, "K4", "K5"]),  # a JC stands for its slot's number
        ("R2 JD R5", TWIST, ["R2", ("R4", "R3"), "R5"]),  # a run's JD pair ascends
    ],
)
def test_no_valid_reading_is_an_invalid_meld_error(text, rules, stands):
    tiles = Meld.parse(text, rules).tiles

    def tile(s):
        if isinstance(s, str):
            return T(s)
        return tuple(map(T, s)) if isinstance(s, tuple) else s

    with pytest.raises(InvalidMeldError) as info:
        Meld.with_stands_for(tiles, [tile(s) for s in stands], rules)
    assert info.value.reason == "bad_stands_for" and isinstance(info.value, ValueError)
    assert repr(text) in str(info.value)


def test_tiles_that_are_no_meld_fail_as_in_meld_of():
    with pytest.raises(InvalidMeldError) as info:
        Meld.with_stands_for(["R1", "R2"], [T("R1"), T("R2")])
    assert info.value.reason == "too_short"


def test_a_meld_read_as_given_is_immutable_and_hashable():
    meld = Meld.with_stands_for(["K7", "B7", "J"], [T("K7"), T("B7"), T("R7")])
    with pytest.raises(AttributeError):
        meld.kind = MeldKind.RUN  # type: ignore[misc]
    assert hash(meld) == hash(Meld.with_stands_for(["K7", "B7", "J"], [T("K7"), T("B7"), T("R7")]))
