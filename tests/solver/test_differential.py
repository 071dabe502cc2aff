"""Differential test: the solver's optimum against the independent oracle (benchmarks.oracle,
a HiGHS MIP over explicitly enumerated melds) on a few hundred seeded random positions.

For each rule set: small dense positions (few colours and numbers, so tiles interact) and random
positions of every size up to a nearly full table, opened and not, both objectives. The solver's
primary value (tiles played, or points shed; ``None`` for ``no_move``) must equal the oracle's
proven optimum, and every answer must pass the referee. Strict joker retrieval is not modelled
by the oracle and is covered by hand-made positions in test_solver.py.
"""

from __future__ import annotations

import random

import pytest

from benchmarks.oracle import optimum
from benchmarks.positions import random_position, small_position
from rummisolve import STANDARD, XP, Position, RuleSet, solve
from tests.support.soundness import assert_sound

RULES: dict[str, RuleSet] = {
    "standard": STANDARD,
    "wraparound": STANDARD.replace(wraparound=True),
    "threshold_0": STANDARD.replace(initial_threshold=0),
    "threshold_10": STANDARD.replace(initial_threshold=10),
    "threshold_50": STANDARD.replace(initial_threshold=50),
    "no_joker_in_opening": STANDARD.replace(joker_in_initial_meld=False),
    "open_then_manipulate": STANDARD.replace(open_then_manipulate=True),
    "open_then_manipulate_threshold_0": STANDARD.replace(open_then_manipulate=True, initial_threshold=0),
    "xp": XP,
    "six_colours": STANDARD.replace(colours=6),
    "discard": STANDARD.replace(discard=True),
    "discard_open_then_manipulate": STANDARD.replace(discard=True, open_then_manipulate=True),
    "discard_xp_threshold_0": XP.replace(discard=True, initial_threshold=0),
    # m jokers or more with a threshold: an opening may need a run past 2m - 1 (R1 R2 R3 J J J;
    # four jokers: test_openings_whose_jokers_extend_a_run_past_2m_minus_1)
    "three_jokers_dense": RuleSet(colours=2, numbers=7, jokers=3, initial_threshold=15),
}

SMALL = 30  # small dense positions per rule set
# (table size, rack size) of the random positions per rule set; opened alternates
SIZES = [(0, 14), (6, 6), (12, 20), (20, 10), (30, 14), (40, 3), (55, 24), (85, 14)]
SIZES_OF = {"xp": [(55, 22) if size == (55, 24) else size for size in SIZES]}
"""xp's (55, 24) position took the oracle (HiGHS) 13 s of CPU; the one of 22 rack tiles dealt in its place, 2 s."""


def _positions(name: str, rules: RuleSet) -> list[Position]:
    rng = random.Random(f"differential-{name}")
    out = [small_position(rng, rules) for _ in range(SMALL)]
    for i, (table_size, rack_size) in enumerate(SIZES_OF.get(name, SIZES)):
        out.append(random_position(rng, rules, table_size, rack_size, opened=i % 2 == 0, jokers=i % 3 != 2))
    return out


def _primary(position: Position, objective: str) -> int | None:
    solution = solve(position, objective)
    assert_sound(position, solution, objective)
    if solution.status == "no_move":
        return None
    assert solution.status == "optimal"
    return len(solution.played) if objective == "tiles" else solution.value


@pytest.mark.parametrize("name", list(RULES))
def test_solver_matches_oracle(name):
    rules = RULES[name]
    mismatches = []
    opened = not_opened = moves = 0
    for position in _positions(name, rules):
        opened += position.opened
        not_opened += not position.opened
        for objective in ("tiles", "value"):
            expected = optimum(position, objective)
            got = _primary(position, objective)
            moves += got is not None
            if got != expected:
                mismatches.append(f"{objective}: solver {got}, oracle {expected}: {position!r}")
    assert not mismatches, "\n".join(mismatches)
    # the sample is not degenerate: both kinds of position, and real moves as well as no-moves
    assert opened and not_opened
    assert 0 < moves < 2 * (SMALL + len(SIZES))


def test_openings_whose_jokers_extend_a_run_past_2m_minus_1():
    """Racks of one to three consecutive tiles of one colour and three or four jokers, not opened,
    the threshold the value of the longest run they make: the opening can need that one run
    (``R1 R2 R3 J J J`` is worth 21; cut in two, one part would hold jokers only), which
    catalogues of runs up to ``2m - 1`` missed."""
    rng = random.Random("long-runs")
    long_runs, mismatches = 0, []
    for i in range(40):
        jokers, real = 3 + i % 2, rng.randint(1, 3)
        first = rng.randint(1, 8)
        numbers = list(range(first, first + real))
        top = min(13, first + real + jokers - 1)  # the jokers carry the run up, then down from 13
        value = sum(range(top - real - jokers + 1, top + 1))
        colour = rng.choice("KBOR")
        rack = [f"{colour}{n}" for n in numbers] + ["J"] * jokers
        rack += [f"{rng.choice('KBOR')}{rng.randint(1, 13)}" for _ in range(i % 3)]
        rules = STANDARD.replace(jokers=jokers, initial_threshold=value)
        position = Position.from_notation([], " ".join(rack), opened=False, rules=rules)
        for objective in ("tiles", "value"):
            got, expected = _primary(position, objective), optimum(position, objective)
            if got != expected:
                mismatches.append(f"{objective}: solver {got}, oracle {expected}: {position!r}")
        long_runs += any(len(meld) > 5 for meld in solve(position, "tiles").table)
    assert not mismatches, "\n".join(mismatches)
    assert long_runs >= 10  # the sample holds openings that need the long run


def test_an_xp_opening_that_only_one_long_run_makes():
    """XP (4 jokers, threshold 30): ``K3 K4 J J J J`` opens as ``K3 K4 J J J J`` (3..8, worth 33)
    and in no other way (cut anywhere, a part holds jokers only or the value falls short)."""
    position = Position.from_notation([], "K3 K4 J J J J", opened=False, rules=XP)
    assert optimum(position, "tiles") == 6
    assert _primary(position, "tiles") == 6
