"""Twist pieces filtered from templates (listed once per rule set and special jokers) are exactly
the pieces the enumeration lists for the position's tiles, in the same order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve.rules import TWIST
from rummisolve.solver._twist import Piece, listed_pieces, twist_pieces

RULES = (TWIST, TWIST.replace(wraparound=True), TWIST.replace(min_meld_length=4))
KINDS = TWIST.colours * TWIST.numbers


def _fields(piece: Piece) -> tuple:
    return tuple(v for name, v in piece.__dict__.items() if name != "var")


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    rules=st.sampled_from(RULES),
    available=st.lists(st.sampled_from((0, 0, 0, 1, 2)), min_size=KINDS, max_size=KINDS),
    jokers=st.integers(0, 2),
    specials=st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2)),
)
def test_pieces_from_templates_are_the_listed_pieces(rules, available, jokers, specials):
    found = twist_pieces(rules, available, jokers, *specials)
    assert [_fields(p) for p in found] == [_fields(p) for p in listed_pieces(rules, available, jokers, *specials)]


def test_pieces_are_fresh_copies():
    available = [2] * KINDS
    first = twist_pieces(TWIST, available, 1, 1, 1, 1)
    first[0].var = 7
    first[0].upper = 0
    second = twist_pieces(TWIST, available, 1, 1, 1, 1)
    assert second[0] is not first[0] and second[0].var == -1 and second[0].upper >= 1
