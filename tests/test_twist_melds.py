"""Twist melds (docs/rules.md, "Twist"): the examples, every reason, what each joker stands for,
the initial-meld value, and notation that round-trips."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve.errors import InvalidMeldError
from rummisolve.melds import MELD_REASONS, Meld, MeldKind, meld_problem
from rummisolve.rules import STANDARD, TWIST
from rummisolve.tiles import Tile, parse_tiles
from rummisolve.twist_melds import TWIST_MELD_REASONS
from tests.support.twist_definition import best_readings

T = Tile.parse


@pytest.mark.parametrize(
    "text, kind, value, jokers",
    [
        # JD fills R3 R4: 2+3+4+5.
        ("R2 JD R5", MeldKind.RUN, 14, [(1, (T("R3"), T("R4")))]),
        # JC fills slot 4 (no colour), red 1-3 then blue 5-6: 1+2+3+4+5+6.
        ("R1 R2 R3 JC B5 B6", MeldKind.RUN, 21, [(3, 4)]),
        # Both copies of R1 R2 R3; the mirror is worth 0.
        ("R1 R2 R3 JM R3 R2 R1", MeldKind.MIRROR, 12, [(3, None)]),
        ("K7 R7 JM R7 K7", MeldKind.MIRROR, 28, [(2, None)]),
        # JD stands for the first two missing colours, K3 and O3: 4 x 3.
        ("B3 R3 JD", MeldKind.GROUP, 12, [(2, (T("K3"), T("O3")))]),
        # A regular joker beside a JD in a run: J is R2, JD R3 R4, then R5 JC(6) B7 J(B8).
        ("J JD R5 JC B7 J", MeldKind.RUN, 35, [(0, T("R2")), (1, (T("R3"), T("R4"))), (3, 6), (5, T("B8"))]),
        # Read as a group (5+5+5+5 = 20) rather than a run 3-4-5-6 (18): the more valuable reading.
        ("JD R5 J", MeldKind.GROUP, 20, [(0, (T("K5"), T("B5"))), (2, T("O5"))]),
        # A JD before R12 R13 stands for R10 R11: 10+11+12+13.
        ("JD R12 R13", MeldKind.RUN, 46, [(0, (T("R10"), T("R11")))]),
        # A regular joker mirrored: J stands for K8 on both sides (a run side reads more than K7 B7).
        ("K7 J JM J K7", MeldKind.MIRROR, 30, [(1, T("K8")), (2, None), (3, T("K8"))]),
        # Three physical tiles suffice: R1, JC as 2, B3.
        ("R1 JC B3", MeldKind.RUN, 6, [(1, 2)]),
    ],
)
def test_the_examples(text, kind, value, jokers):
    meld = Meld.parse(text, TWIST)
    assert meld.kind is kind and meld.value == value and list(meld.jokers) == jokers
    assert str(meld) == text
    assert len(meld.represents) == len(meld.tiles) == len(meld.stands_for)


@pytest.mark.parametrize(
    "text, reason",
    [
        ("JC R1 R2", "jc_at_end"),
        ("R1 R2 R3 JC", "jc_at_end"),
        ("R1 R2 JC JC B5 B6", "jc_adjacent"),
        ("R1 R2 JC R4 R5", "jc_same_colour"),
        ("R1 R2 JC B4 JC B6 B7", "jc_same_colour"),
        ("R1 R2 JC J JC K6", "jc_segment_without_number"),
        ("R3 K3 B3 JC", "jc_in_group"),
        ("R3 K3 JC", "jc_in_group"),
        ("R12 R13 JD", "jd_out_of_range"),
        ("JD R1 R2", "jd_out_of_range"),
        ("K11 K12 K13 JD", "jd_out_of_range"),
        ("R3 K3 B3 JD", "jd_overfull"),
        ("R3 K3 JD JD", "jd_overfull"),
        ("R1 R2 R3 JM R3 R1 R2", "mirror_asymmetric"),
        ("R1 R2 JM R2", "mirror_asymmetric"),
        ("K7 R7 JM K7 R7", "mirror_asymmetric"),
        ("R1 JM R1", "mirror_short"),
        ("R1 R2 JM R2 R1 JM", "mirror_twice"),
        ("R1 JD JM JD R1", "mirror_special"),
        ("R1 R2 JC JM JC R2 R1", "mirror_special"),
        ("R2 JD", "too_short"),
        ("JD JC JM", "only_jokers"),
        ("J JD J", "only_jokers"),
        ("R1 K2 JM K2 R1", "mixed_colours"),
        ("R1 R3 JC B5", "gap"),
        ("R1 JC B3 K4", "mixed_colours"),
    ],
)
def test_each_twist_reason(text, reason):
    problem = meld_problem(text, TWIST)
    assert problem is not None and problem[0] == reason, problem
    assert problem[1] and reason in MELD_REASONS
    with pytest.raises(InvalidMeldError) as info:
        Meld.parse(text, TWIST)
    assert info.value.reason == reason and text in str(info.value)


@pytest.mark.parametrize(
    "text, reason",
    [
        ("R12 JD R2", "wrap_through_one"),  # the JD would stand for 13 and 1 with 2 after
        ("JD R2 R3", "wrap_through_one"),
        ("JD R1 R2", "wrap_through_one"),
        ("R12 R13 JD", "wrap_through_one"),
        ("R11 R12 JC B1 B2", "wrap_through_one"),
        ("R13 R1 R2 JM R2 R1 R13", "wrap_through_one"),
        ("R12 R13 JC B1", "gap"),  # the JC would be 1, so B1 stands where 2 belongs
    ],
)
def test_each_wrapping_reason(text, reason):
    problem = meld_problem(text, TWIST.replace(wraparound=True))
    assert problem is not None and problem[0] == reason, problem


def test_every_twist_reason_is_exercised_above():
    exercised = {reason for _, reason in test_each_twist_reason.pytestmark[0].args[1]}
    assert set(TWIST_MELD_REASONS) <= exercised


def test_special_jokers_do_not_exist_under_the_standard_rules():
    assert meld_problem("R2 JD R5", STANDARD)[0] == "not_in_rules"


def test_a_special_joker_never_stands_in_for_a_regular_one():
    # R4 J R6 is a run with J as R5; a JC in J's place changes colour, so R4 JC R6 changes from
    # red to red: refused. A JM in the middle mirrors one slot per side: too short.
    assert Meld.parse("R4 J R6", TWIST).value == 15
    assert meld_problem("R4 JC R6", TWIST)[0] == "jc_same_colour"
    assert meld_problem("R4 JM R6", TWIST)[0] == "mirror_short"
    # A JD takes two slots, never one: R4 JD R6 would need R5 R6 before R6.
    assert meld_problem("R4 JD R6", TWIST)[0] == "gap"


@functools.cache
def _valid_melds() -> list:
    """Every valid Twist meld of up to 5 tiles, from the definition (built on first use)."""
    return sorted(best_readings(TWIST, 5), key=lambda s: [t.sort_key for t in s])


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.data())
def test_notation_round_trips(data):
    melds = _valid_melds()
    tiles = melds[data.draw(st.integers(0, len(melds) - 1))]  # an index: sampled_from would copy the list
    meld = Meld.of(tiles, TWIST)
    text = str(meld)
    assert Meld.parse(text, TWIST) == meld
    assert Meld.parse(text.lower(), TWIST) == meld
    assert parse_tiles(text) == tiles
    assert eval(repr(meld), {"Meld": Meld, "RuleSet": type(TWIST)}) == meld
