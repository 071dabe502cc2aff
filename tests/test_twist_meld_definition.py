"""The meld classifier against the definition of a Twist meld, enumerated (tests/twist_definition.py).

Exhaustive over every tile sequence up to 4 tiles on a small rule set (4 colours, numbers 1..5;
3 tiles with wraparound, and on the Twist set),
every valid meld up to 7 (5 on the Twist set) built from the definition, and a seeded sample of
longer sequences and of one-tile mutations of valid melds. Agreement means: valid exactly when the
definition builds the sequence, and then the same kind, value and joker assignment.
"""

from __future__ import annotations

import itertools
import random

import pytest

from rummisolve.melds import Meld, MeldKind, meld_problem
from rummisolve.rules import TWIST, RuleSet
from rummisolve.tiles import ALL_JOKERS
from tests.support.twist_definition import best_readings, random_reading

SMALL = RuleSet(numbers=5, double_jokers=1, colour_change_jokers=1, mirror_jokers=1)
SMALL_WRAP = SMALL.replace(wraparound=True)
THREE_COLOURS = RuleSet(colours=3, numbers=6, double_jokers=1, colour_change_jokers=1, mirror_jokers=1)
KINDS = {"run": MeldKind.RUN, "group": MeldKind.GROUP, "mirror run": MeldKind.MIRROR, "mirror group": MeldKind.MIRROR}


def definition(rules: RuleSet, max_tiles: int):
    return best_readings(rules, max_tiles)


def alphabet(rules: RuleSet):
    return list(rules.tile_kinds) + list(ALL_JOKERS)


def agree(seq, rules: RuleSet, readings) -> None:
    expected = readings.get(seq)
    problem = meld_problem(seq, rules)
    text = " ".join(map(str, seq))
    if expected is None:
        assert problem is not None, f"{text} is accepted but the definition builds no such meld"
        return
    assert problem is None, f"{text} is a valid {expected[0]} by the definition, but refused: {problem}"
    meld = Meld.of(seq, rules)
    kind, value, assignments = expected
    assert meld.kind is KINDS[kind], text
    assert meld.value == value, text
    assert meld.stands_for in assignments, f"{text}: {meld.stands_for} not among {assignments}"
    if meld.kind is MeldKind.MIRROR:
        assert meld.side_kind is (MeldKind.RUN if kind == "mirror run" else MeldKind.GROUP)


@pytest.mark.parametrize("rules, longest", [(SMALL, 4), (SMALL_WRAP, 3)], ids=["small", "wrap"])
def test_every_sequence_up_to_4_tiles(rules, longest):
    readings = definition(rules, 7)
    tiles = alphabet(rules)
    for length in range(1, longest + 1):
        for seq in itertools.product(tiles, repeat=length):
            agree(seq, rules, readings)


@pytest.mark.parametrize("rules", [SMALL, SMALL_WRAP, THREE_COLOURS], ids=["small", "wrap", "three-colours"])
def test_every_defined_meld_up_to_7_tiles_and_a_sample_beyond_4(rules):
    readings = definition(rules, 7)
    for seq in readings:
        agree(seq, rules, readings)
    rng = random.Random(24)
    tiles = alphabet(rules)
    valid_long = sorted((s for s in readings if len(s) >= 5), key=lambda s: [t.sort_key for t in s])
    for _ in range(4000):  # one-tile mutations of valid melds: near misses
        seq = list(rng.choice(valid_long))
        seq[rng.randrange(len(seq))] = rng.choice(tiles)
        agree(tuple(seq), rules, readings)
    for _ in range(4000):  # random sequences
        agree(tuple(rng.choice(tiles) for _ in range(rng.randint(5, 7))), rules, readings)


TWIST_WRAP = TWIST.replace(wraparound=True)


@pytest.mark.parametrize("rules", [TWIST, TWIST_WRAP], ids=["twist", "twist-wraparound"])
def test_the_twist_set_exhaustively_up_to_3_tiles_and_every_meld_up_to_5(rules):
    readings = definition(rules, 5)
    for seq in readings:
        agree(seq, rules, readings)
    tiles = alphabet(rules)
    for seq in itertools.product(tiles, repeat=3):
        agree(seq, rules, readings)
    rng = random.Random(5)
    valid = sorted((s for s in readings if len(s) >= 4), key=lambda s: [t.sort_key for t in s])
    for _ in range(4000):
        seq = list(rng.choice(valid))
        seq[rng.randrange(len(seq))] = rng.choice(tiles)
        agree(tuple(seq), rules, readings)


def test_wrapping_runs_with_special_jokers_are_in_the_definition():
    """The wrapping cases docs/rules.md#twist decides, from the enumeration (a guard on it)."""
    from rummisolve.tiles import parse_tiles

    readings = definition(TWIST_WRAP, 5)
    for text in ("R11 R12 JD", "R11 JD R1", "R11 R12 JC B1", "R10 JC B12 JD", "R13 R1 JM R1 R13", "J R1 JM R1 J"):
        assert readings[parse_tiles(text)][0] in ("run", "mirror run"), text
        assert parse_tiles(text) not in definition(TWIST, 5) or text == "J R1 JM R1 J", text
    # never 13-1-2, and never a JC for 1 (it would end the run)
    for text in ("R12 JD R2", "JD R2 R3", "R11 R12 JC B1 B2", "R12 R13 JC B1", "R13 R1 R2 JM R2 R1 R13"):
        assert parse_tiles(text) not in readings, text
    assert readings[parse_tiles("J R1 JM R1 J")][1] == 28  # 13 1 | 1 13, more than the group K1 R1 (4)


def test_the_definition_is_not_empty_where_it_matters():
    """The enumeration itself holds the melds of the rules' examples (a guard on the generator)."""
    readings = definition(TWIST, 5)
    from rummisolve.tiles import parse_tiles

    for text, kind in [
        ("R2 JD R5", "run"),
        ("R1 JC B3 B4", "run"),
        ("B3 R3 JD", "group"),
        ("K7 R7 JM R7 K7", "mirror group"),
        ("R1 R2 JM R2 R1", "mirror run"),
    ]:
        assert readings[parse_tiles(text)][0] == kind
    assert parse_tiles("R1 R2 JC R4 R5") not in readings  # same colour around the JC
    assert parse_tiles("R12 R13 JD") not in readings  # past 13


@pytest.mark.parametrize("rules", [TWIST, THREE_COLOURS], ids=["twist", "three-colours"])
def test_a_seeded_sample_of_long_melds_built_from_the_definition(rules):
    """Melds of any length (runs up to 13 slots, mirrors with long sides), built at random from the
    definition: each is valid, worth at least its reading (the classifier picks the most valuable
    reading), and when the reading is the only one (two numbered tiles of different numbers in a
    run, or a mirror run), the classifier's is the same."""
    rng = random.Random(2024)
    for _ in range(3000):
        tiles, kind, value, stands = random_reading(rules, rng)
        text = " ".join(map(str, tiles))
        problem = meld_problem(tiles, rules)
        assert problem is None, f"{text} is a valid {kind} by the definition, but refused: {problem}"
        meld = Meld.of(tiles, rules)
        assert meld.value >= value, text
        numbers = {t.number for t in tiles if not t.is_any_joker}
        if kind in ("run", "mirror run") and len(numbers) > 1:
            assert meld.kind is KINDS[kind] and meld.value == value and meld.stands_for == stands, text
