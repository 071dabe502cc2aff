"""The referee on Twist turns (docs/rules.md, "Twist"), worked by hand: the reasoning is in the comments."""

from __future__ import annotations

import pytest

from rummisolve.errors import RuleSetError
from rummisolve.position import Position
from rummisolve.referee import verify
from rummisolve.rules import STANDARD, TWIST, RuleSet
from rummisolve.tiles import parse_tiles


def opened(table: str, rack: str) -> Position:
    return Position.from_notation(table, rack, opened=True, rules=TWIST)


def opening(table: str, rack: str) -> Position:
    return Position.from_notation(table, rack, opened=False, rules=TWIST)


# -- every meld reason of the issue, through the referee ------------------------------------------


@pytest.mark.parametrize(
    "meld, reason",
    [
        ("R1 R2 R3 JC", "jc_at_end"),  # a JC must have a segment on both sides
        ("R1 R2 JC JC B5 B6", "jc_adjacent"),  # two JC side by side: an empty segment between
        ("R1 R2 JC R4 R5", "jc_same_colour"),  # red on both sides: the colour does not change
        ("R1 R2 R3 JM R3 R1 R2", "mirror_asymmetric"),  # the right side is not the left reversed
        ("R12 R13 JD", "jd_out_of_range"),  # the JD would be R14 R15
        ("R3 K3 B3 JD", "jd_overfull"),  # 3 colours + the JD's 2 = 5 tiles of one number, 4 colours
        ("R2 JD", "too_short"),  # 4 numbers, but only 2 physical tiles
        ("R1 JM R1", "mirror_short"),  # a side of one slot
        ("R3 K3 JC", "jc_in_group"),
        ("R1 R2 JM R2 R1 JM", "mirror_twice"),
        ("R1 JD JM JD R1", "mirror_special"),
    ],
)
def test_each_twist_meld_reason_is_an_invalid_meld_with_its_code(meld, reason):
    rack = " ".join(str(t) for t in parse_tiles(meld))
    verdict = verify(opened("", rack), [meld])
    assert verdict.codes == ("invalid_meld",)
    assert f": {reason}: " in verdict.reasons[0].message and verdict.reasons[0].meld == 0


# -- initial meld values ----------------------------------------------------------------------------


def test_an_opening_counts_jd_as_two_numbers():
    # R9 JD R12 is 9 + (10 + 11) + 12 = 42: the JD's two numbers both count.
    verdict = verify(opening("", "R9 JD R12 K1"), ["R9 JD R12"])
    assert verdict.legal and [str(t) for t in verdict.played] == ["R9", "R12", "JD"]
    # R6 JD R9 is 6 + 7 + 8 + 9 = 30: exactly the threshold, only if the JD counts 7 + 8.
    assert verify(opening("", "R6 JD R9"), ["R6 JD R9"]).legal


def test_an_opening_counts_jm_as_zero():
    # K7 R7 JM R7 K7 is 7 + 7 + 0 + 7 + 7 = 28 < 30 (counting the mirror as a 7 would make 35).
    verdict = verify(opening("", "K7 R7 JM R7 K7"), ["K7 R7 JM R7 K7"])
    assert verdict.codes == ("opening_below_threshold",)
    assert "worth 28 points" in verdict.reasons[0].message
    # Adding K8 B8 O8 (24) brings it to 52.
    assert verify(opening("", "K7 R7 JM R7 K7 K8 B8 O8"), ["K7 R7 JM R7 K7", "K8 B8 O8"]).legal


def test_an_opening_counts_jc_as_its_slot_number():
    # R6 JC B8 B9 is 6 + 7 + 8 + 9 = 30 with the JC worth its slot, 7.
    assert verify(opening("", "R6 JC B8 B9"), ["R6 JC B8 B9"]).legal
    # R5 JC B7 B8 is 5 + 6 + 7 + 8 = 26.
    verdict = verify(opening("", "R5 JC B7 B8"), ["R5 JC B7 B8"])
    assert verdict.codes == ("opening_below_threshold",) and "worth 26" in verdict.reasons[0].message


def test_a_jd_group_counts_four_tiles():
    # B9 R9 JD stands for B9 R9 K9 O9: 36 >= 30; as three tiles it would be 27.
    assert verify(opening("", "B9 R9 JD"), ["B9 R9 JD"]).legal


def test_special_jokers_in_the_opening_when_jokers_are_forbidden_there():
    rules = TWIST.replace(joker_in_initial_meld=False)
    position = Position.from_notation("", "R9 JD R12", opened=False, rules=rules)
    verdict = verify(position, ["R9 JD R12"])
    assert verdict.codes == ("joker_in_opening",)


# -- the hand-worked traps --------------------------------------------------------------------------


def test_a_double_joker_makes_a_four_tile_run_of_two_numbered_tiles():
    # R2 JD R5: two numbered tiles and a JD (3 physical tiles) form 2-3-4-5.
    assert verify(opened("K1 K2 K3", "R2 R5 JD"), ["K1 K2 K3", "R2 JD R5"]).legal


def test_a_colour_change_joins_two_short_runs():
    # R1 R2 and B4 B5 are each too short; the JC as 3 joins them: red 1-2, then blue 4-5.
    verdict = verify(opened("", "R1 R2 B4 B5 JC"), ["R1 R2 JC B4 B5"])
    assert verdict.legal and len(verdict.played) == 5
    assert verify(opened("", "R1 R2 B4 B5 JC"), ["R1 R2", "B4 B5 JC"]).codes == ("invalid_meld", "invalid_meld")


def test_a_mirror_meld_uses_both_copies_of_three_tiles():
    # R1 R2 R3 JM R3 R2 R1: each of R1 R2 R3 twice (both copies), the mirror in the middle.
    verdict = verify(opened("", "R1 R1 R2 R2 R3 R3 JM"), ["R1 R2 R3 JM R3 R2 R1"])
    assert verdict.legal and len(verdict.played) == 7


def test_a_special_joker_does_not_stand_in_for_a_regular_one():
    # The table's J (as R5) cannot be swapped for the rack's JD: R4 JD R7 is itself a valid run
    # (4-5-6-7, the JD as R5 R6), but the J and the R6 of the old table vanish.
    verdict = verify(opened("R4 J R6", "JD R7"), ["R4 JD R7"])
    assert verdict.codes == ("tile_vanished", "tile_vanished")
    assert {r.message.split(" vanished")[0] for r in verdict.reasons} == {"R6", "a joker"}
    # Nor the other way round: a J on the rack does not make a JD's meld.
    verdict = verify(opened("R2 JD R5", "J"), ["R2 J R5"])
    assert "tile_vanished" in verdict.codes and "JD vanished" in verdict.reasons[-1].message


def test_special_jokers_move_like_any_table_tile():
    # K1 K2 K3 JD (JD = K4 K5) gives its JD to B7 B8 (JD = B9 B10); K1 K2 K3 stays valid.
    verdict = verify(opened("K1 K2 K3 JD", "B7 B8"), ["K1 K2 K3", "B7 B8 JD"])
    assert verdict.legal and [str(t) for t in verdict.played] == ["B7", "B8"]


def test_a_special_joker_never_returns_to_the_rack():
    verdict = verify(opened("K1 K2 K3 JC B5", "O9 O10 O11"), ["K1 K2 K3", "O9 O10 O11"])
    assert "tile_vanished" in verdict.codes
    assert any("JC vanished" in r.message for r in verdict.reasons)


def test_a_special_joker_from_nowhere():
    verdict = verify(opened("", "R1 R2 B4 B5"), ["R1 R2 JC B4 B5"])
    assert verdict.codes == ("tile_not_on_rack",) and "JC is neither" in verdict.reasons[0].message


def test_special_jokers_do_not_exist_in_the_standard_game():
    position = Position.from_notation("", "R2 R5", opened=True, rules=STANDARD)
    verdict = verify(position, ["R2 JD R5"])
    assert verdict.codes[0] == "bad_tile" and "'JD'" in verdict.reasons[0].message


def test_an_opening_must_not_use_a_table_special_joker():
    # The JD lies on the table; the opening borrows it: not rack tiles only.
    verdict = verify(opening("K1 K2 K3 JD", "R10 R13 K11"), ["K1 K2 K3", "R10 R13 JD", "K11"])
    assert "opening_touched_table" in verdict.codes


def test_rule_sets_the_twist_referee_does_not_judge_are_refused_up_front():
    # strict retrieval: what a freed special joker must be replaced by is not defined
    with pytest.raises(RuleSetError, match="strict.*special jokers.*replaced by is not defined"):
        TWIST.replace(joker_retrieval="strict")
    with pytest.raises(RuleSetError, match="strict"):
        RuleSet(joker_retrieval="strict", mirror_jokers=1)
    # open_then_manipulate and wraparound are judged (tests/solver/test_twist_options.py)
    assert TWIST.replace(open_then_manipulate=True, wraparound=True).has_twist
