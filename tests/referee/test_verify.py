"""Tests for the referee, rummisolve.referee: every reason code, rule options, and Hypothesis
properties (random legal turns accepted, random corruptions rejected with the matching code)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rummisolve.melds import Meld, MeldKind
from rummisolve.position import Position
from rummisolve.referee import REASONS, Reason, Verdict, verify
from rummisolve.rules import STANDARD, XP, RuleSet
from rummisolve.tiles import JOKER, Tile, parse_tiles

STRICT = STANDARD.replace(joker_retrieval="strict")


def pos(table, rack, opened=True, rules=STANDARD, **options):
    if options:
        rules = rules.replace(**options)
    return Position.from_notation(table, rack, opened, rules)


def codes(verdict):
    return [r.code for r in verdict.reasons]


def only(verdict, code):
    """The reasons with ``code``."""
    return [r for r in verdict.reasons if r.code == code]


# -- the Verdict and Reason types ---------------------------------------------------------------


def test_legal_verdict_is_truthy_and_lists_played_tiles_sorted():
    p = pos(["R1 R2 R3"], "R4 K9 B9 O9 J K1")
    v = verify(p, ["R1 R2 R3 R4", "K9 B9 O9"])
    assert v.legal and bool(v) and v.reasons == () and v.codes == ()
    assert v.played == parse_tiles("K9 B9 O9 R4")
    assert "legal" in str(v) and "K9 B9 O9 R4" in str(v)


def test_illegal_verdict_is_falsy_and_readable():
    v = verify(pos(["R1 R2 R3"], "R4"), ["R1 R2 R3"])
    assert not v and not v.legal and v.codes == ("no_tile_played",)
    assert str(v).startswith("illegal turn:") and "no_tile_played" in str(v)


def test_verdict_and_reason_are_frozen_and_consistent():
    v = verify(pos(["R1 R2 R3"], "R4"), ["R1 R2 R3 R4"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.legal = False
    r = Reason("no_tile_played", "x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.code = "y"
    assert r.meld is None and str(r) == "no_tile_played: x"
    with pytest.raises(ValueError):
        Verdict(True, (r,), ())
    with pytest.raises(ValueError):
        Verdict(False, (), ())


def test_every_reason_code_is_documented():
    assert set(REASONS) == {
        "bad_tile",
        "invalid_meld",
        "tile_vanished",
        "tile_not_on_rack",
        "no_tile_played",
        "no_tile_to_discard",
        "opening_below_threshold",
        "opening_touched_table",
        "joker_in_opening",
        "joker_retrieval",
    }


def test_new_table_forms_are_equivalent():
    p = pos(["R1 R2 R3", "K7 B7 O7"], "R4 R7")
    as_strings = ["R1 R2 R3 R4", "K7 B7 O7 R7"]
    forms = [
        as_strings,
        [s.split() for s in as_strings],
        [parse_tiles(s) for s in as_strings],
        [Meld.parse(s) for s in as_strings],
        " | ".join(as_strings),
        (m for m in as_strings),
    ]
    verdicts = [verify(p, form) for form in forms]
    assert all(v.legal for v in verdicts)
    assert len({v.played for v in verdicts}) == 1


def test_wrong_python_types_raise_type_error():
    p = pos(["R1 R2 R3"], "R4")
    with pytest.raises(TypeError):
        verify("not a position", [])
    with pytest.raises(TypeError):
        verify(p, 5)
    with pytest.raises(TypeError):
        verify(p, [5])
    with pytest.raises(TypeError):
        verify(p, [["R1", 2, "R3"]])
    with pytest.raises(TypeError):
        verify(p, Meld.parse("R1 R2 R3"))


def test_verify_does_not_change_the_position():
    p = pos(["R1 R2 R3"], "R4")
    before = repr(p)
    verify(p, ["R1 R2", "R3 R4"])
    assert repr(p) == before


# -- bad_tile -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "rules", "word"),
    [
        ("R14", STANDARD, "R14"),
        ("X5", STANDARD, "X5"),
        ("G5", STANDARD, "G5"),
        ("J", STANDARD.replace(jokers=0), "J"),
        ("R0", STANDARD, "R0"),
    ],
)
def test_bad_tile_is_reported_not_raised(code, rules, word):
    p = Position.from_notation(["R1 R2 R3"], "R4", True, rules)
    v = verify(p, ["R1 R2 R3 R4", ["K5", "K6", code]])
    assert not v
    bad = only(v, "bad_tile")
    assert len(bad) == 1 and bad[0].meld == 1 and word in bad[0].message
    invalid = only(v, "invalid_meld")
    assert [r.meld for r in invalid] == [1] and "not_in_rules" in invalid[0].message


def test_good_tiles_are_not_bad():
    v = verify(pos(["R1 R2 R3"], "R4 G5", rules=STANDARD.replace(colours=5)), ["R1 R2 R3 R4"])
    assert v.legal


# -- invalid_meld ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meld", "reason"),
    [
        ("K9 B9", "too_short"),
        ("R5 R6 R8", "gap"),
        ("R5 R6 K7", "mixed_colours"),
        ("K9 K9 B9", "duplicate_colour"),
        ("R12 R13 R1", "wrap_not_allowed"),
        ("J J J", "only_jokers"),
    ],
)
def test_invalid_meld_names_index_and_meld_problem(meld, reason):
    p = pos(["R1 R2 R3"], "K9 K9 B9 R5 R6 R8 K7 R12 R13 R1 J J")
    v = verify(p, ["R1 R2 R3", meld])
    bad = only(v, "invalid_meld")
    assert len(bad) == 1, v
    assert bad[0].meld == 1 and reason in bad[0].message and meld in bad[0].message


def test_every_invalid_meld_is_listed():
    p = pos(["R1 R2 R3", "K7 B7 O7"], "R4")
    v = verify(p, ["R1 R2", "R3 R4", "K7 B7 O7"])
    assert [r.meld for r in only(v, "invalid_meld")] == [0, 1]
    v = verify(p, ["R1 R2 R3 R4", "K7 B7 O7"])
    assert not only(v, "invalid_meld")


def test_empty_meld_is_invalid():
    v = verify(pos(["R1 R2 R3"], "R4"), ["R1 R2 R3 R4", []])
    assert [r.meld for r in only(v, "invalid_meld")] == [1]


def test_wraparound():
    wrap = dict(wraparound=True)
    p = pos(["R11 R12 R13"], "R1 R2 K5", **wrap)
    assert verify(p, ["R11 R12 R13 R1"]).legal
    v = verify(p, ["R11 R12 R13 R1 R2"])
    assert codes(v) == ["invalid_meld"] and "wrap_through_one" in v.reasons[0].message
    q = pos(["R11 R12 R13"], "R1 R2 K5")
    v = verify(q, ["R11 R12 R13 R1"])
    assert codes(v) == ["invalid_meld"] and "wrap_not_allowed" in v.reasons[0].message


# -- tile conservation ------------------------------------------------------------------------------


def test_tile_vanished_names_tile_and_count():
    p = pos(["R1 R2 R3 R4", "K7 B7 O7", "K8 B8 O8"], "R5")
    v = verify(p, ["R1 R2 R3 R5", "K7 B7 O7"])
    vanished = only(v, "tile_vanished")
    assert [r.message.split()[0] for r in vanished] == ["K8", "B8", "O8", "R4"]
    assert all("1 copy missing" in r.message for r in vanished)
    assert "tile_not_on_rack" not in codes(v) and v.played == parse_tiles("R5")


def test_tile_vanished_counts_copies_and_jokers():
    p = pos(["R1 R2 R3", "R1 R2 R3", "K7 B7 J"], "R4")
    v = verify(
        p,
        ["R1 R2 R3 R4", "K7 B7 O7"],
    )
    messages = [r.message for r in only(v, "tile_vanished")]
    assert any(m.startswith("R1") and "2 copies missing" not in m and "1 copy missing" in m for m in messages)
    assert any("joker" in m for m in messages)


def test_tile_not_on_rack_from_nowhere_and_too_many_copies():
    p = pos(["R1 R2 R3"], "R4 K9")
    v = verify(p, ["R1 R2 R3 R4 R5"])
    (reason,) = only(v, "tile_not_on_rack")
    assert "R5" in reason.message and "neither" in reason.message
    p = pos(["R1 R2 R3", "K1 B1 O1"], "R4 K9")
    v = verify(p, ["R1 R2 R3 R4", "K1 B1 O1 R1"])
    (reason,) = only(v, "tile_not_on_rack")
    assert reason.message.startswith("R1")
    p = pos(["R1 R2 R3"], "R4 R5 K9")
    v = verify(p, ["R1 R2 R3 R4", "R4 R5 R6"])
    assert sorted(r.message.split()[0] for r in only(v, "tile_not_on_rack")) == ["R4:", "R6"]
    assert v.played == parse_tiles("R4 R5")


def test_played_counts_only_rack_tiles():
    p = pos(["R1 R2 R3"], "R4 R4 K9")
    v = verify(p, ["R1 R2 R3 R4", "R3 R4 R5"])
    assert v.played == parse_tiles("R4 R4")
    assert codes(v) == ["tile_not_on_rack", "tile_not_on_rack"]
    assert [r.message.split()[0] for r in v.reasons] == ["R3:", "R5"]


def test_no_tile_played():
    p = pos(["R1 R2 R3 R4 R5 R6", "K7 B7 O7"], "R7 J")
    for table in (["R1 R2 R3 R4 R5 R6", "K7 B7 O7"], ["R1 R2 R3", "R4 R5 R6", "O7 K7 B7"]):
        v = verify(p, table)
        assert codes(v) == ["no_tile_played"] and v.played == ()
    assert verify(p, ["R1 R2 R3 R4 R5 R6 R7", "K7 B7 O7"]).legal


def test_all_reasons_are_listed_together():
    p = pos(["R1 R2 R3", "K7 B7 O7"], "R9")
    v = verify(p, ["R1 R2", "K7 B7 O7 X1", "K13 K13 K13"])
    assert set(codes(v)) == {"bad_tile", "invalid_meld", "tile_vanished", "tile_not_on_rack", "no_tile_played"}


# -- the initial meld --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("threshold", "melds", "legal"),
    [
        (30, ["K10 B10 O10"], True),
        (30, ["R9 R10 R11"], True),
        (30, ["K9 B9 O9"], False),
        (30, ["K9 B9 O9", "R1 R2 R3"], True),
        (30, ["R8 J R10"], False),
        (30, ["R9 J R11"], True),
        (30, ["K10 B10 J"], True),
        (50, ["K10 B10 O10", "R9 J R11"], True),
        (50, ["K10 B10 O10", "R1 R2 R3"], False),
        (0, ["R1 R2 R3"], True),
        (1, ["R1 R2 R3"], True),
    ],
)
def test_opening_threshold(threshold, melds, legal):
    p = pos(["K1 B1 O1"], "K10 B10 O10 R9 R10 R11 K9 B9 O9 R1 R2 R3 R8 J", opened=False, initial_threshold=threshold)
    v = verify(p, ["K1 B1 O1", *melds])
    assert v.legal == legal, v
    if not legal:
        (reason,) = v.reasons
        assert reason.code == "opening_below_threshold"
        value = sum(Meld.parse(m).value for m in melds)
        assert f"worth {value} points" in reason.message and str(threshold) in reason.message


def test_opening_does_not_apply_once_opened():
    p = pos([], "K9 B9 O9", opened=True)
    assert verify(p, ["K9 B9 O9"]).legal
    assert not verify(pos([], "K9 B9 O9", opened=False), ["K9 B9 O9"])


def test_play_nothing_unopened_is_only_no_tile_played():
    p = pos(["K1 B1 O1"], "K10 B10 O10", opened=False)
    assert codes(verify(p, ["K1 B1 O1"])) == ["no_tile_played"]


def test_opening_touched_table_extension_and_borrowing():
    p = pos(["R1 R2 R3", "K10 B10 O10"], "R4 R10 R11 R12 R13", opened=False)
    v = verify(p, ["R1 R2 R3 R4", "K10 B10 O10", "R11 R12 R13"])
    touched = only(v, "opening_touched_table")
    assert len(touched) == 2
    assert touched[0].meld is None and "R1 R2 R3" in touched[0].message
    assert touched[1].meld == 0 and "R1 R2 R3" in touched[1].message
    # borrowing a table tile for the opening
    v = verify(p, ["R1 R2 R3", "K10 B10 O10", "R10 R11 R12 R13"])
    assert v.legal
    v = verify(p, ["R1 R2 R3", "K10 B10", "O10 R10 R11 R12 R13"])
    assert "opening_touched_table" in codes(v)
    v = verify(p, ["R1 R2 R3", "K10 B10 R10", "O10 O11 O12"])
    assert "opening_touched_table" in codes(v)


def test_opening_group_order_and_meld_order_do_not_count_as_touching():
    p = pos(["K10 B10 O10", "R1 R2 R3"], "R11 R12 R13", opened=False)
    assert verify(p, ["R11 R12 R13", "R1 R2 R3", "O10 K10 B10"]).legal


def test_opening_moving_a_run_joker_counts_as_touching():
    p = pos(["R4 J R6"], "K11 K12 K13", opened=False)
    assert verify(p, ["R4 J R6", "K11 K12 K13"]).legal
    v = verify(p, ["R4 J R6", "K11 K12 K13"][::-1])
    assert v.legal


def test_opening_with_duplicate_melds_on_the_table():
    p = pos(["R1 R2 R3", "R1 R2 R3"], "K11 K12 K13 R4", opened=False)
    assert verify(p, ["R1 R2 R3", "R1 R2 R3", "K11 K12 K13"]).legal
    v = verify(p, ["R1 R2 R3", "R1 R2 R3 R4", "K11 K12 K13"])
    assert codes(v).count("opening_touched_table") == 2


def test_open_then_manipulate():
    rules = dict(open_then_manipulate=True)
    p = pos(["R1 R2 R3", "K5 B5 O5 R5"], "K10 B10 O10 R4 K4 K6", opened=False, **rules)
    turn = ["R1 R2 R3 R4", "K10 B10 O10", "K4 K5 K6", "B5 O5 R5"]
    assert verify(p, turn).legal
    # the same turn without the option touches the table
    q = pos(["R1 R2 R3", "K5 B5 O5 R5"], "K10 B10 O10 R4 K4 K6", opened=False)
    assert "opening_touched_table" in codes(verify(q, turn))
    # the opening must be worth the threshold on its own, from rack tiles only
    v = verify(p, ["R1 R2 R3 R4", "K4 K5 K6", "B5 O5 R5"])
    assert "opening_below_threshold" in codes(v) and "opening_touched_table" in codes(v)
    # the 30 may not come from a meld mixing table tiles
    p2 = pos(["K10 B10 O10"], "R10 R1 R2 R3", opened=False, **rules)
    v = verify(p2, ["K10 B10 O10 R10", "R1 R2 R3"])
    assert codes(v) == ["opening_below_threshold"] and "worth at most 6 points" in v.reasons[0].message


def test_open_then_manipulate_initial_meld_may_be_extended_or_joined_afterwards():
    rules = STANDARD.replace(open_then_manipulate=True)
    # K7..K10 (34, rack only) opens; then K4 K5 from the rack and the joker freed from a group of 4
    # join it: the final table shows no whole meld of rack tiles worth 30, yet the turn is legal.
    p = Position.from_notation(
        ["B12 K12 J", "B12 K12 R12 O12", "B5 K5 R5 J"], "K4 K5 K7 K8 K9 K10 B1 B8 O8 O13 R8", False, rules
    )
    turn = ["B12 K12 J", "B12 K12 R12 O12", "K4 K5 J K7 K8 K9 K10", "K5 B5 R5", "B8 O8 R8"]
    assert verify(p, turn).legal
    # without the option the same turn touches the table
    q = Position(p.table, p.rack, False, STANDARD)
    assert "opening_touched_table" in codes(verify(q, turn))
    # the played tiles must themselves form the initial meld: R9 R10 R12 R13 need the table's R11
    p = pos(["K11 B11 O11 R11"], "R9 R10 R12 R13", opened=False, open_then_manipulate=True)
    v = verify(p, ["K11 B11 O11", "R9 R10 R11 R12 R13"])
    assert set(codes(v)) == {"opening_touched_table", "opening_below_threshold"}
    # an initial meld split afterwards around a table tile: R8..R12 (50) opened, then R8 R9 R10 | R10 R11 R12
    p = pos(["K10 B10 O10 R10"], "R8 R9 R10 R11 R12", opened=False, open_then_manipulate=True, initial_threshold=50)
    assert verify(p, ["K10 B10 O10", "R8 R9 R10", "R10 R11 R12"]).legal
    assert codes(
        verify(
            Position(p.table, p.rack, False, p.rules.replace(initial_threshold=51)),
            ["K10 B10 O10", "R8 R9 R10", "R10 R11 R12"],
        )
    ) == ["opening_below_threshold"]


@pytest.mark.parametrize(
    ("played", "threshold", "best"),
    [
        ("R1 R2 R3 K1 B1 O1", 100, 9),
        ("J J R5", 100, 18),
        ("R12 R13 J", 100, 36),
        ("K13 B13 J J", 100, 52),
        ("R1 R2 K5", 100, None),
    ],
)
def test_open_then_manipulate_best_value_of_the_played_tiles(played, threshold, best):
    p = pos([], played, opened=False, open_then_manipulate=True, initial_threshold=threshold)
    v = verify(p, [played])  # one meld holding every played tile: invalid, but the opening is judged apart
    (reason,) = only(v, "opening_below_threshold")
    if best is None:
        assert "form no valid meld" in reason.message
    else:
        assert f"worth at most {best} points" in reason.message


def test_open_then_manipulate_best_opening_is_searched():
    rules = dict(open_then_manipulate=True, initial_threshold=50)
    p = pos(["K1 K2 K3"], "K13 B13 O13 R11 R12 R13", opened=False, **rules)
    assert verify(p, ["K1 K2 K3", "K13 B13 O13", "R11 R12 R13"]).legal
    v = verify(p, ["K1 K2 K3", "K13 B13 O13", "R11 R12 R13"][:2])
    assert codes(v) == ["opening_below_threshold"] and "39" in v.reasons[0].message


def test_open_then_manipulate_threshold_zero_still_needs_an_initial_meld():
    p = pos(["R1 R2 R3"], "R4 K9 B9 O9", opened=False, open_then_manipulate=True, initial_threshold=0)
    assert codes(verify(p, ["R1 R2 R3 R4"])) == ["opening_touched_table"]
    assert verify(p, ["R1 R2 R3 R4", "K9 B9 O9"]).legal


@pytest.mark.parametrize("otm", [False, True])
def test_joker_in_opening(otm):
    rules = dict(joker_in_initial_meld=False, open_then_manipulate=otm)
    p = pos(["R1 R2 R3"], "K10 B10 O10 J R12 R13", opened=False, **rules)
    assert verify(p, ["R1 R2 R3", "K10 B10 O10"]).legal
    v = verify(p, ["R1 R2 R3", "K10 B10 J"])
    assert codes(v) == ["joker_in_opening"]
    v = verify(p, ["R1 R2 R3", "K10 B10 O10 J"])
    assert codes(v) == ["joker_in_opening"]
    # allowed by default, and once opened
    assert verify(pos(["R1 R2 R3"], "K10 B10 J", opened=False), ["R1 R2 R3", "K10 B10 J"]).legal
    assert verify(pos(["R1 R2 R3"], "K10 B10 J", opened=True, **rules), ["R1 R2 R3", "K10 B10 J"]).legal


def test_opening_joker_value_is_what_it_stands_for():
    p = pos([], "J R12 R13 K1 K2", opened=False)
    assert verify(p, ["J R12 R13"]).legal  # R11 R12 R13 = 36
    v = verify(p, ["K1 K2 J"])  # J is K3 -> 6 (read as a run: 6 > group 3)
    assert "worth 6 points" in only(v, "opening_below_threshold")[0].message


# -- jokers on the table -------------------------------------------------------------------------------


def test_free_jokers_move_like_any_tile():
    p = pos(["R4 R5 R6 J"], "K8 K9")
    assert verify(p, ["R4 R5 R6", "J K8 K9"]).legal


def test_strict_joker_moved_without_replacement():
    p = pos(["R4 R5 R6 J"], "K8 K9", joker_retrieval="strict")
    v = verify(p, ["R4 R5 R6", "J K8 K9"])
    (reason,) = v.reasons
    assert reason.code == "joker_retrieval" and "R7" in reason.message and "R4 R5 R6 J" in reason.message


def test_strict_joker_freed_by_exact_tile_and_two_rack_tiles():
    p = pos(["R4 J R6"], "R5 K8 K9 B5", joker_retrieval="strict")
    assert verify(p, ["R4 R5 R6", "J K8 K9"]).legal
    assert verify(p, ["R4 R5 R6", "K8 K9 J"]).legal
    # the wrong replacement
    q = pos(["R4 J R6"], "R7 K8 K9", joker_retrieval="strict")
    v = verify(q, ["R4 R7 R6", "J K8 K9"])
    assert "joker_retrieval" in codes(v) and "invalid_meld" in codes(v)


def test_strict_freed_joker_needs_two_rack_tiles_in_its_meld():
    p = pos(["R4 J R6", "K9 K10 K11 K12"], "R5 K8", joker_retrieval="strict")
    v = verify(p, ["R4 R5 R6", "J K8 K9", "K10 K11 K12"])
    (reason,) = v.reasons
    assert reason.code == "joker_retrieval" and "two more tiles" in reason.message
    assert verify(p.__class__(p.table, p.rack, True, STANDARD), ["R4 R5 R6", "J K8 K9", "K10 K11 K12"]).legal


def test_strict_joker_in_group_of_three_either_missing_colour():
    for colour in "OR":
        p = pos(["K5 B5 J"], f"{colour}5 O9 O10", joker_retrieval="strict")
        assert verify(p, [f"K5 B5 {colour}5", "J O9 O10"]).legal, colour
    # adding a missing colour beside the joker keeps it standing for a colour it could stand for
    p = pos(["K5 B5 J"], "O5 O9 O10", joker_retrieval="strict")
    assert verify(p, ["K5 B5 J O5"]).legal
    assert verify(p, ["K5 B5 O5 J"]).legal


def test_strict_joker_group_of_four_needs_the_one_missing_colour():
    p = pos(["K5 B5 O5 J"], "R5 K9 K10", joker_retrieval="strict")
    assert verify(p, ["K5 B5 O5 R5", "J K9 K10"]).legal
    p = pos(["K5 B5 O5 J"], "K9 K10 R7 R8", joker_retrieval="strict")
    assert codes(verify(p, ["K5 B5 O5", "J K9 K10"])) == ["joker_retrieval"]


def test_strict_joker_keeps_its_meaning_when_its_run_is_split_or_extended():
    rules = dict(joker_retrieval="strict")
    p = pos(["R3 R4 J R6 R7 R8"], "R9 R2", **rules)
    assert verify(p, ["R3 R4 J", "R6 R7 R8 R9"]).legal
    assert verify(p, ["R2 R3 R4 J R6 R7 R8 R9"]).legal
    # a rearrangement that changes what it stands for (R7 -> R3) is not
    q = pos(["R5 R6 J"], "R4 K1", **rules)
    assert verify(q, ["R4 R5 R6 J"]).legal
    v = verify(q, ["J R4 R5 R6"])
    assert codes(v) == ["joker_retrieval"]
    assert verify(Position(q.table, q.rack, True, STANDARD), ["J R4 R5 R6"]).legal


def test_strict_two_jokers_any_matching_that_works_is_accepted():
    rules = dict(joker_retrieval="strict")
    p = pos(["R4 J R6", "K7 J K9"], "R5 B1 B2", **rules)
    for table in (
        ["R4 R5 R6", "K7 J K9", "B1 B2 J"],
        ["B1 B2 J", "K7 J K9", "R4 R5 R6"],
        ["B1 B2 J", "R4 R5 R6", "K7 J K9"],
    ):
        assert verify(p, table).legal, table
    # neither joker may be taken without its replacement
    v = verify(p, ["R4 R5 R6", "K7 K9", "B1 B2 J J"])
    assert "joker_retrieval" in codes(v)
    v = verify(p, ["R4 J R6", "K7 R5 K9", "B1 B2 J"])
    assert "joker_retrieval" in codes(v)


def test_strict_each_freed_joker_needs_its_own_replacement():
    rules = dict(joker_retrieval="strict")
    p = pos(["R4 J R6", "O4 J O6"], "R5 B1 B2 K1 K2", **rules)
    v = verify(p, ["R4 R5 R6", "O4 O6", "B1 B2 J", "K1 K2 J"])
    assert "joker_retrieval" in codes(v)
    p = pos(["R4 J R6", "O4 J O6"], "R5 O5 B1 B2 K1 K2", **rules)
    assert verify(p, ["R4 R5 R6", "O4 O5 O6", "B1 B2 J", "K1 K2 J"]).legal


def test_strict_played_rack_joker_is_free_to_go_anywhere():
    p = pos(["R4 J R6"], "J K8 K9", joker_retrieval="strict")
    assert verify(p, ["R4 J R6", "K8 K9 J"]).legal
    v = verify(p, ["R4 J R6 J"])
    assert v.legal and v.played == (JOKER,)
    v = verify(p, ["J R4 J R6"])
    assert v.legal and v.played == (JOKER,)


def test_strict_kept_joker_may_not_walk_off_to_an_unrelated_meld():
    # K4 B4 O4 J: the joker stands for R4. Moved into R2 R3 J it still stands for R4, but it left
    # its meld: no tile of K4 B4 O4 is with it, and no R4 replaced it. Free retrieval allows it.
    p = pos(["K4 B4 O4 J"], "R2 R3", joker_retrieval="strict")
    v = verify(p, ["K4 B4 O4", "R2 R3 J"])
    (reason,) = v.reasons
    assert reason.code == "joker_retrieval"
    assert "R4" in reason.message and "K4 B4 O4 J" in reason.message
    assert "none of the tiles of its old meld" in reason.message
    assert verify(pos(["K4 B4 O4 J"], "R2 R3"), ["K4 B4 O4", "R2 R3 J"]).legal
    # With R4 from the rack replacing it, the freed joker may go (R2 R3 are its two rack tiles).
    p = pos(["K4 B4 O4 J"], "R2 R3 R4", joker_retrieval="strict")
    assert verify(p, ["K4 B4 O4 R4", "R2 R3 J"]).legal


def test_strict_split_run_keeps_its_joker_with_its_neighbours():
    # docs/rules.md: R2 R3 R4 J R6 R7 R8 + R9 may become R2 R3 R4 and J R6 R7 R8 R9 (the joker is
    # still R5, beside R6 R7 R8 of its old meld), or R2 R3 R4 J and R6 R7 R8 R9.
    p = pos(["R2 R3 R4 J R6 R7 R8"], "R9", joker_retrieval="strict")
    assert verify(p, ["R2 R3 R4", "J R6 R7 R8 R9"]).legal
    assert verify(p, ["R2 R3 R4 J", "R6 R7 R8 R9"]).legal
    assert verify(p, ["R2 R3 R4 J R6 R7 R8 R9"]).legal


def test_strict_kept_joker_moves_with_any_tile_of_its_old_meld():
    # K4 B4 J (the joker stands for O4 or R4) loses K4 to a run; J stays with B4 and R4 joins: the
    # joker's new meld B4 J R4 holds B4 of its old meld and the joker now stands for O4.
    p = pos(["K4 B4 J", "K5 K6 K7"], "R4", joker_retrieval="strict")
    assert verify(p, ["K4 K5 K6 K7", "B4 J R4"]).legal
    # Copies are interchangeable: a K4 from elsewhere standing in for the old meld's K4 is fine.
    p = pos(["K4 B4 O4 J", "K4 K5 K6 K7"], "B4 K8", joker_retrieval="strict")
    assert verify(p, ["K4 B4 O4", "K5 K6 K7 K8", "K4 B4 J"]).legal


def test_strict_each_tile_of_the_old_meld_goes_with_one_joker_only():
    # J R4 J (R3 R4 R5) holds one R4. Split into R1 R2 J R4 and R4 J R6, each joker still stands
    # for its tile and each new meld holds an R4, but only one of them is the old meld's R4: the
    # other joker left its meld. Counted as copies, the old meld's tiles accompany one meld each.
    p = pos(["J R4 J"], "R1 R2 R4 R6", joker_retrieval="strict")
    v = verify(p, ["R1 R2 J R4", "R4 J R6"])
    assert codes(v) == ["joker_retrieval"]
    assert "together" in v.reasons[0].message
    assert verify(pos(["J R4 J"], "R1 R2 R4 R6"), ["R1 R2 J R4", "R4 J R6"]).legal
    # Both jokers with the one R4 is fine.
    assert verify(pos(["J R4 J"], "R6 R7", joker_retrieval="strict"), ["J R4 J R6 R7"]).legal
    # Two old melds, one K4 each: both jokers in the group J J K4 (K4 J J would read as the run
    # K4 K5 K6) would need the one K4 there.
    p = pos(["K4 B4 J", "K4 O4 J"], "R4", joker_retrieval="strict")
    v = verify(p, ["J J K4", "K4 B4 O4 R4"])
    assert codes(v) == ["joker_retrieval"]
    assert verify(pos(["K4 B4 J", "K4 O4 J"], "R4"), ["J J K4", "K4 B4 O4 R4"]).legal
    # K4 O4 J J holds K4 (the first joker's old meld's) and O4 (the second's): legal.
    assert verify(p, ["K4 O4 J J", "K4 B4 R4"]).legal
    assert verify(p, ["K4 O4 J R4", "K4 B4 J"]).legal


def test_strict_tile_beside_a_kept_joker_is_not_also_a_freed_jokers_rack_tile():
    # J R6 R7 R8 (the joker R5) and K7 J K9 (K8). K8 frees the K joker, which goes to J R6 R7 J
    # beside the kept R5 joker. Its meld must hold two more rack tiles, and the kept joker a tile
    # of its old meld: R6 R7 are only two tiles, so one of them cannot be both.
    p = pos(["J R6 R7 R8", "K7 J K9"], "K8 R6 R7", joker_retrieval="strict")
    v = verify(p, ["K7 K8 K9", "J R6 R7 J", "R6 R7 R8"])
    assert codes(v) == ["joker_retrieval"]
    assert verify(pos(["J R6 R7 R8", "K7 J K9"], "K8 R6 R7"), ["K7 K8 K9", "J R6 R7 J", "R6 R7 R8"]).legal
    # With R9 too, R6 of the old meld stays beside the kept joker and R7 R9 are the rack tiles.
    p = pos(["J R6 R7 R8", "K7 J K9"], "K8 R6 R7 R9", joker_retrieval="strict")
    assert verify(p, ["K7 K8 K9", "J R6 R7 J R9", "R6 R7 R8"]).legal


def test_strict_vanished_joker_is_not_judged_twice():
    p = pos(["R4 R5 R6 J"], "R8", joker_retrieval="strict")
    v = verify(p, ["R4 R5 R6", "R8"])
    assert "tile_vanished" in codes(v) and "joker_retrieval" not in codes(v)


# -- properties: random legal turns and corruptions ------------------------------------------------------


def _valid(tiles, rules):
    try:
        return Meld.of(tiles, rules)
    except ValueError:
        return None


class TurnBuilder:
    """Build a random position and a legal turn from it, from first principles plus Meld.of checks."""

    def __init__(self, rnd: random.Random, rules: RuleSet) -> None:
        self.rnd = rnd
        self.rules = rules
        self.pool = Counter(rules.full_set())

    def take(self, tiles) -> bool:
        need = Counter(tiles)
        if any(self.pool[t] < n for t, n in need.items()):
            return False
        self.pool -= need
        return True

    def meld(self, joker: bool = True, tries: int = 30):
        rnd, rules = self.rnd, self.rules
        for _ in range(tries):
            if rnd.random() < 0.5 and rules.colours >= 3:
                number = rnd.randint(1, rules.numbers)
                colours = rnd.sample(rules.colour_list, rnd.randint(3, min(4, rules.colours)))
                tiles = [Tile(c, number) for c in colours]
            else:
                colour = rnd.choice(rules.colour_list)
                length = rnd.randint(3, 5)
                start = rnd.randint(1, rules.numbers)
                tiles = [Tile(colour, (start + j - 1) % rules.numbers + 1) for j in range(length)]
            if joker and rnd.random() < 0.3:
                tiles[rnd.randrange(len(tiles))] = JOKER
            if _valid(tiles, rules) is not None and self.take(tiles):
                return tiles
        return None

    def table(self, count: int):
        melds = (self.meld() for _ in range(count))
        return [m for m in melds if m is not None]

    # operations on the new table that keep every meld valid and every joker's meaning
    def op(self, new: list[list[Tile]], rack: list[Tile], strict: bool) -> None:
        rnd, rules = self.rnd, self.rules
        kind = rnd.choice(
            ["meld", "extend", "extend", "group4", "split_insert", "split", "replace_joker", "move_joker"]
        )
        if kind == "move_joker" and strict:
            kind = "extend"
        order = list(range(len(new)))
        rnd.shuffle(order)
        if kind == "meld":
            m = self.meld()
            if m is not None:
                new.append(m)
                rack.extend(m)
            return
        for i in order:
            tiles = new[i]
            meld = _valid(tiles, rules)
            if meld is None:
                continue
            if kind == "extend" and meld.kind is MeldKind.RUN:
                for candidate_tiles, extra in self._extensions(meld):
                    if _valid(candidate_tiles, rules) and self.take([extra]):
                        new[i] = candidate_tiles
                        rack.append(extra)
                        return
            elif kind == "group4" and meld.kind is MeldKind.GROUP and len(tiles) < min(4, rules.colours):
                present = {t.colour for t in tiles if not t.is_joker}
                missing = [c for c in rules.colour_list if c not in present]
                number = meld.represents[0].number
                if meld.joker_count:
                    continue  # keep group jokers' meanings simple
                extra = Tile(rnd.choice(missing), number)
                if self.take([extra]):
                    new[i] = tiles + [extra]
                    rack.append(extra)
                    return
            elif kind == "split_insert" and meld.kind is MeldKind.RUN and len(tiles) >= 5:
                s = rnd.randint(2, len(tiles) - 3)
                if tiles[s].is_joker:
                    continue
                left, right = tiles[: s + 1], tiles[s:]
                if _valid(left, rules) and _valid(right, rules) and self.take([tiles[s]]):
                    new[i : i + 1] = [left, right]
                    rack.append(tiles[s])
                    return
            elif kind == "split" and meld.kind is MeldKind.RUN and len(tiles) >= 6:
                s = rnd.randint(3, len(tiles) - 3)
                if _valid(tiles[:s], rules) and _valid(tiles[s:], rules):
                    new[i : i + 1] = [tiles[:s], tiles[s:]]
                    return
            elif kind in ("replace_joker", "move_joker") and meld.joker_count == 1:
                slot = next(j for j, t in enumerate(tiles) if t.is_joker)
                if kind == "replace_joker":
                    stands = meld.represents[slot]
                    replaced = tiles[:slot] + [stands] + tiles[slot + 1 :]
                    if not _valid(replaced, rules) or not self.take([stands]):
                        continue
                    extra = [stands]
                else:
                    replaced = tiles[:slot] + tiles[slot + 1 :]
                    if slot not in (0, len(tiles) - 1) or not _valid(replaced, rules):
                        continue
                    extra = []
                home = self._two_for_joker()
                if home is None:
                    if extra:
                        self.pool.update(extra)
                    continue
                new[i] = replaced
                new.append(home + [JOKER])
                rack.extend(extra + home)
                return

    def _extensions(self, meld: Meld):
        tiles = list(meld.tiles)
        first, last = meld.represents[0], meld.represents[-1]
        top = self.rules.numbers
        after = Tile(last.colour, last.number % top + 1)
        before = Tile(first.colour, (first.number - 2) % top + 1)
        options = [(tiles + [after], after), ([before] + tiles, before)]
        self.rnd.shuffle(options)
        return options

    def _two_for_joker(self):
        """Two rack tiles that make a valid meld with a joker appended."""
        for _ in range(20):
            colour = self.rnd.choice(self.rules.colour_list)
            n = self.rnd.randint(1, self.rules.numbers - 2)
            pair = [Tile(colour, n), Tile(colour, n + 1)]
            if _valid(pair + [JOKER], self.rules) and self.take(pair):
                return pair
        return None

    def filler(self, count: int, joker: bool = True) -> list[Tile]:
        tiles = [t for t in self.pool.elements() if joker or not t.is_joker]
        picked = self.rnd.sample(tiles, min(count, len(tiles)))
        self.pool -= Counter(picked)
        return picked


RULE_VARIANTS = [
    STANDARD,
    STRICT,
    STANDARD.replace(wraparound=True),
    STRICT.replace(wraparound=True, initial_threshold=50),
    STANDARD.replace(initial_threshold=0, joker_in_initial_meld=False),
    STANDARD.replace(open_then_manipulate=True),
    STRICT.replace(open_then_manipulate=True, joker_in_initial_meld=False),
    XP,
    XP.replace(joker_retrieval="strict", wraparound=True),
    STANDARD.replace(colours=6, numbers=15),
]


def legal_turn(rnd: random.Random, rules: RuleSet, opened: bool):
    """(position, new_table, opening_melds) for a random legal turn."""
    b = TurnBuilder(rnd, rules)
    table = b.table(rnd.randint(0, 9))
    new = [list(m) for m in table]
    rack: list[Tile] = []
    strict = rules.joker_retrieval == "strict"
    opening: list[list[Tile]] = []
    if not opened:
        no_jokers = not rules.joker_in_initial_meld
        value = 0
        for _ in range(12):
            if value >= rules.initial_threshold and opening:
                break
            m = b.meld(joker=not no_jokers)
            if m is not None:
                opening.append(m)
                value += _valid(m, rules).value
        assume(opening and value >= rules.initial_threshold)
        new.extend(opening)
        rack.extend(t for m in opening for t in m)
    if opened or rules.open_then_manipulate:
        jokers_ok = opened or rules.joker_in_initial_meld
        for _ in range(rnd.randint(1 if opened else 0, 4)):
            before = len(rack)
            snapshot = ([list(m) for m in new], Counter(b.pool))
            b.op(new, rack, strict)
            if not jokers_ok and JOKER in rack[before:]:
                new[:], b.pool = snapshot
                del rack[before:]
        if not rack:
            m = b.meld(joker=jokers_ok)
            assume(m is not None)
            new.append(m)
            rack.extend(m)
    rack.extend(b.filler(rnd.randint(0, 5), joker=opened or rules.joker_in_initial_meld))
    rnd.shuffle(new)
    for m in new:
        meld = _valid(m, rules)
        if meld is not None and meld.kind is MeldKind.GROUP and not any(t.is_joker for t in m):
            rnd.shuffle(m)  # a group's order does not matter
    position = Position(tuple(tuple(m) for m in table), tuple(rack), opened, rules)
    return position, [tuple(m) for m in new], opening


seeds = st.integers(0, 2**32 - 1).map(random.Random)
turn_args = st.tuples(seeds, st.sampled_from(RULE_VARIANTS), st.booleans())


@settings(max_examples=300, deadline=None)
@given(turn_args)
def test_random_legal_turns_are_accepted(args):
    rnd, rules, opened = args
    position, new, _ = legal_turn(rnd, rules, opened)
    verdict = verify(position, new)
    assert verdict.legal, (position, new, verdict)
    expected = Counter(t for m in new for t in m) - Counter(position.table_tiles)
    assert Counter(verdict.played) == expected
    assert list(verdict.played) == sorted(verdict.played)


@settings(max_examples=200, deadline=None)
@given(turn_args)
def test_dropping_a_table_tile_is_tile_vanished(args):
    rnd, rules, opened = args
    position, new, _ = legal_turn(rnd, rules, opened)
    old = Counter(position.table_tiles)
    now = Counter(t for m in new for t in m)
    choices = [(i, j) for i, m in enumerate(new) for j, t in enumerate(m) if now[t] <= old[t]]
    assume(choices)
    i, j = rnd.choice(choices)
    dropped = new[i][j]
    new[i] = new[i][:j] + new[i][j + 1 :]
    verdict = verify(position, new)
    assert not verdict
    vanished = only(verdict, "tile_vanished")
    name = "joker" if dropped.is_joker else str(dropped)
    assert any(name in r.message for r in vanished), verdict


@settings(max_examples=200, deadline=None)
@given(turn_args)
def test_adding_a_tile_not_on_the_rack_is_tile_not_on_rack(args):
    rnd, rules, opened = args
    position, new, _ = legal_turn(rnd, rules, opened)
    now = Counter(t for m in new for t in m)
    have = Counter(position.table_tiles) + Counter(position.rack)
    kinds = [t for t in rules.tile_kinds if now[t] + 1 > have[t]]
    assume(kinds)
    extra = rnd.choice(kinds)
    if new and rnd.random() < 0.7:
        i = rnd.randrange(len(new))
        new[i] = new[i] + (extra,)
    else:
        new.append((extra,))
    verdict = verify(position, new)
    assert not verdict
    assert any(r.message.startswith(str(extra)) for r in only(verdict, "tile_not_on_rack")), verdict


@settings(max_examples=200, deadline=None)
@given(turn_args)
def test_breaking_a_meld_is_invalid_meld(args):
    rnd, rules, opened = args
    position, new, _ = legal_turn(rnd, rules, opened)
    assume(new)
    i = rnd.randrange(len(new))
    cut = rnd.randint(1, rules.min_meld_length - 1)
    new[i : i + 1] = [new[i][:cut], new[i][cut:]]
    verdict = verify(position, new)
    assert not verdict
    assert i in [r.meld for r in only(verdict, "invalid_meld")], verdict


@settings(max_examples=150, deadline=None)
@given(turn_args)
def test_playing_nothing_is_no_tile_played(args):
    rnd, rules, opened = args
    position, _, _ = legal_turn(rnd, rules, opened)
    new = [m.tiles for m in position.table]
    rnd.shuffle(new)
    verdict = verify(position, new)
    assert verdict.codes == ("no_tile_played",)


@settings(max_examples=150, deadline=None)
@given(turn_args)
def test_opening_below_threshold_is_rejected(args):
    rnd, rules, _ = args
    position, new, opening = legal_turn(rnd, rules, False)
    if rules.open_then_manipulate:
        played = verify(position, new).played
        value = sum(t.number for t in played if not t.is_joker) + rules.numbers * played.count(JOKER)
    else:
        value = sum(_valid(m, rules).value for m in opening)
    higher = rules.replace(initial_threshold=value + rnd.randint(1, 20))
    verdict = verify(Position(position.table, position.rack, False, higher), new)
    assert verdict.codes == ("opening_below_threshold",), verdict
    # and the same turn at exactly the value is legal
    exact = rules.replace(initial_threshold=value) if not rules.open_then_manipulate else rules
    assert verify(Position(position.table, position.rack, False, exact), new).legal


@settings(max_examples=150, deadline=None)
@given(seeds, st.sampled_from([r for r in RULE_VARIANTS if r.joker_retrieval == "strict"]))
def test_strict_taking_a_joker_without_replacement_is_rejected(rnd, rules):
    b = TurnBuilder(rnd, rules)
    table = b.table(rnd.randint(0, 6))
    run = None
    for _ in range(30):
        colour = rnd.choice(rules.colour_list)
        start = rnd.randint(1, rules.numbers - 3)
        tiles = [Tile(colour, start + j) for j in range(3)] + [JOKER]
        if _valid(tiles, rules) and b.take(tiles):
            run = tiles
            break
    assume(run is not None)
    stands = _valid(run, rules).represents[-1]
    pair = b._two_for_joker()
    assume(pair is not None)
    rack = pair + b.filler(rnd.randint(0, 4))
    assume(stands not in rack)
    assume(all(JOKER not in m for m in table))
    home = pair + [JOKER]
    assume(_valid(home, rules).represents[-1] != stands)
    position = Position(tuple(tuple(m) for m in table) + (tuple(run),), tuple(rack), True, rules)
    new = [tuple(m) for m in table] + [tuple(run[:-1]), tuple(home)]
    assert only(verify(position, new), "joker_retrieval")
    free = rules.replace(joker_retrieval="free")
    assert verify(Position(position.table, position.rack, True, free), new).legal


def test_rummisolve_verify_stays_the_function_after_the_referee_package_is_imported():
    import importlib

    import rummisolve

    importlib.import_module("rummisolve.referee")
    p = pos(["R1 R2 R3"], "R4")
    assert rummisolve.verify is verify
    assert rummisolve.verify(p, ["R1 R2 R3 R4"]).legal
    assert not rummisolve.verify(p, ["R1 R2 R3"])


def test_strict_freed_jokers_share_the_played_rack_tiles_exactly():
    # B4 and B5 from the rack free both jokers of B3 J J. Each freed joker's meld needs two more
    # played rack tiles; K3 K3 K5 K6 are played: K3 + K5 for one meld and K3 + K6 for the other
    # works, although the first meld alone could hold three of them (a greedy count fails here).
    rules = RuleSet(joker_retrieval="strict")
    p = Position.from_notation(["K4 K5 K6", "B3 J J"], "K3 K3 K5 K6 B4 B5", opened=True, rules=rules)
    assert verify(p, ["K3 J K5 K6", "K3 K4 K5 K6 J", "B3 B4 B5"]).legal
    # Only one meld's worth of rack tiles besides the replacements: illegal.
    verdict = verify(p, ["K3 J K5", "K4 K5 K6 J", "B3 B4 B5"])
    assert not verdict.legal and "joker_retrieval" in {r.code for r in verdict.reasons}


def test_an_initial_meld_of_no_valid_meld_is_said_to_be_not_valid():
    # Issue 50: a single tile played as an opening was "worth 0 points"; it is no meld at all.
    def message(new_table, **options):
        verdict = verify(pos([], "R4 R5 R6 K9", opened=False, **options), new_table)
        return next(r.message for r in verdict.reasons if r.code == "opening_below_threshold")

    assert message(["R4"]) == "the initial meld is not valid: its meld is not a valid meld"
    assert message(["R4", "K9"]) == "the initial meld is not valid: none of its melds is a valid meld"
    assert message(["R4 R5 R6", "K9"]) == (
        "the initial meld is worth 15 points (its melds that are not valid count nothing), less than the 30 required"
    )
    assert message(["R4 R5 R6"]) == "the initial meld is worth 15 points, less than the 30 required"
    assert message(["R4"], open_then_manipulate=True) == (
        "the initial meld is not valid: the played rack tiles form no valid meld"
    )
