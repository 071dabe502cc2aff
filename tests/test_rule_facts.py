"""The core's rule facts (rummisolve/rule_facts.py) against the meld definition: a run the helpers
list is exactly a run the classifier accepts, and a joker's options are what the meld allows."""

from __future__ import annotations

import pytest

from rummisolve.errors import InvalidMeldError
from rummisolve.melds import Meld, MeldKind
from rummisolve.rule_facts import joker_reading_matters, number_slots, run_end, run_numbers, run_starts
from rummisolve.rules import OFFICIAL, STANDARD, RuleSet
from rummisolve.tiles import Colour, Tile

RULE_SETS = [
    RuleSet(numbers=numbers, min_meld_length=m, wraparound=wrap)
    for numbers in (5, 7, 13)
    for m in (2, 3)
    for wrap in (False, True)
]


def _is_run(numbers: tuple[int, ...], rules: RuleSet) -> bool:
    try:
        return Meld.of([Tile(Colour.RED, n) for n in numbers], rules).kind is MeldKind.RUN
    except InvalidMeldError:
        return False


@pytest.mark.parametrize("rules", RULE_SETS, ids=repr)
def test_run_numbers_are_the_runs_the_classifier_accepts(rules):
    top, m = rules.numbers, rules.min_meld_length
    listed = set()
    for length in range(m, top + 2):
        for start in run_starts(rules, length):
            numbers = run_numbers(rules, start, length)
            assert numbers is not None and len(numbers) == length
            listed.add(numbers)
    # Every sequence of consecutive slots from any start (wrapping or not): accepted iff listed.
    for length in range(m, top + 2):
        for start in range(1, top + 1):
            numbers = tuple((start + i - 1) % top + 1 for i in range(length))
            assert _is_run(numbers, rules) == (numbers in listed), numbers
            assert (run_numbers(rules, start, length) == numbers) == (numbers in listed), numbers


def test_run_end_and_number_slots():
    wrap = STANDARD.replace(wraparound=True)
    assert [run_end(wrap, s) for s in (1, 2, 13)] == [13, 14, 14]
    assert [run_end(STANDARD, s) for s in (1, 2, 13)] == [13, 13, 13]
    assert number_slots(wrap, 1) == (1, 14) and number_slots(wrap, 5) == (5,)
    assert number_slots(STANDARD, 1) == (1,)


def test_joker_options_are_the_readings_the_meld_allows():
    group = Meld.parse("K7 J B7")
    options = group.joker_options(1)
    assert options == (Tile.parse("O7"), Tile.parse("R7"))
    for tile in options:  # each is a valid reading of the joker, and only these are
        stands = [Tile.parse("K7"), tile, Tile.parse("B7")]
        assert Meld.with_stands_for(group.tiles, stands).represents[1] is tile
    with pytest.raises(InvalidMeldError):
        Meld.with_stands_for(group.tiles, [Tile.parse("K7"), Tile.parse("K7"), Tile.parse("B7")])
    assert Meld.parse("R12 R13 J", STANDARD.replace(wraparound=True)).joker_options(2) == (Tile.parse("R1"),)


def test_joker_reading_matters_only_under_strict_retrieval():
    assert joker_reading_matters(OFFICIAL) and not joker_reading_matters(STANDARD)
