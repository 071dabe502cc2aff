"""Differential test of the solver on Twist positions: its optimum against the independent exact
method of :mod:`tests.support.twist_oracle` (every Twist meld enumerated from the definition, then a
HiGHS MIP), on a few hundred seeded random small positions with special jokers, both objectives.

Small rule sets (5-7 numbers, 3-4 colours) keep the definition's enumeration complete for every
meld the position could hold, and make tiles interact; tables are random valid Twist melds, racks
random draws that hold special jokers more often than not. Every solver answer is refereed.
Beside the Twist preset's options: ``wraparound`` (runs through the top number, with and without
special jokers in them), ``open_then_manipulate`` (most positions not opened; the oracle's own
arrangement must pass the referee too, whose search for the initial meld it then exercises) and
dense positions (5 numbers, 3 colours, up to 14 tiles in play).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummisolve import Position, solve
from rummisolve.melds import MeldKind
from rummisolve.referee import verify
from rummisolve.rules import TWIST
from rummisolve.tiles import COLOUR_CHANGE_JOKER, DOUBLE_JOKER, JOKER, MIRROR_JOKER
from tests.support.twist_definition import twist_melds
from tests.support.twist_oracle import twist_solve

RULES = {
    "seven_numbers": TWIST.replace(numbers=7),
    "six_numbers_three_colours": TWIST.replace(numbers=6, colours=3, initial_threshold=20),
    "seven_numbers_threshold_0": TWIST.replace(numbers=7, initial_threshold=0),
    "seven_numbers_wraparound": TWIST.replace(numbers=7, wraparound=True),
    "five_numbers_wraparound_dense": TWIST.replace(numbers=5, colours=3, wraparound=True, initial_threshold=15),
    "seven_numbers_open_then_manipulate": TWIST.replace(numbers=7, open_then_manipulate=True, initial_threshold=20),
    "five_numbers_open_then_manipulate_wraparound_dense": TWIST.replace(
        numbers=5, colours=3, open_then_manipulate=True, wraparound=True, initial_threshold=15
    ),
}
PER_RULES = 100
MAX_TILES = 12
DENSE_TILES = 14
"""Tiles in play at most (the oracle's limit) for the rule sets named ``dense``."""


def _pool(rules) -> Counter:
    pool = Counter({k: rules.copies for k in rules.tile_kinds})
    pool.update({JOKER: rules.jokers, DOUBLE_JOKER: 2, COLOUR_CHANGE_JOKER: 2, MIRROR_JOKER: 2})
    return pool


def _position(rng: random.Random, rules, melds: list, max_tiles: int = MAX_TILES, opened: float = 0.7) -> Position:
    pool = _pool(rules)
    table = []
    size = 0
    target = rng.choice([0, 0, 3, 4, 5, 6, 7, 8])
    for _ in range(30):
        if size >= target:
            break
        tiles = rng.choice(melds)
        need = Counter(tiles)
        if size + len(tiles) > min(target + 2, max_tiles - 2) or any(pool[t] < n for t, n in need.items()):
            continue
        pool.subtract(need)
        table.append(tiles)
        size += len(tiles)
    # racks lean towards special jokers: one or two of them, then random tiles
    rack = [rng.choice([DOUBLE_JOKER, COLOUR_CHANGE_JOKER, MIRROR_JOKER]) for _ in range(rng.choice([0, 1, 1, 2]))]
    rack = [t for t in rack if pool[t] > 0 and not pool.subtract({t: 1})]
    rest = sorted(pool.elements())
    rng.shuffle(rest)
    rack += rest[: rng.randint(2, max(2, min(8, max_tiles - size - len(rack))))]
    return Position.from_notation([list(m) for m in table], rack, rng.random() < opened, rules)


def _positions(name: str) -> list[Position]:
    rules = RULES[name]
    melds = [tiles for tiles, *_ in twist_melds(rules, 6)]
    rng = random.Random(f"twist-differential-{name}")
    max_tiles = DENSE_TILES if "dense" in name else MAX_TILES
    opened = 0.3 if rules.open_then_manipulate else 0.7
    return [_position(rng, rules, melds, max_tiles, opened) for _ in range(PER_RULES)]


def _wraps(meld) -> bool:
    """Whether a meld's numbers go from the top number to 1 (a run, or a mirror's run side)."""
    numbers: list[int] = []
    for stands in meld.stands_for:
        if isinstance(stands, tuple):
            numbers += [t.number for t in stands]
        elif isinstance(stands, int):
            numbers.append(stands)
        elif stands is not None:
            numbers.append(stands.number)
    top = meld.rules.numbers
    return meld.kind is not MeldKind.GROUP and any(a == top and b == 1 for a, b in zip(numbers, numbers[1:]))


@pytest.mark.parametrize("name", list(RULES))
def test_solver_matches_twist_oracle(name):
    mismatches = []
    moves = specials_played = wrapping = manipulating_openings = 0
    positions = _positions(name)
    for position in positions:
        for objective in ("tiles", "value"):
            answer = twist_solve(position, objective)
            expected = answer.optimum
            if expected is not None and position.rules.open_then_manipulate and not position.opened:
                verdict = verify(position, [list(m) for m in answer.table])
                assert verdict, f"the referee rejects the oracle's {objective} move {answer.table}: {verdict}"
            solution = solve(position, objective)  # refereed inside; raises if the referee rejects it
            got = None
            if solution.status != "no_move":
                assert solution.status == "optimal"
                got = len(solution.played) if objective == "tiles" else solution.value
                moves += 1
                specials_played += any(t.is_special_joker for t in solution.played)
                wrapping += any(_wraps(m) and any(t.is_special_joker for t in m.tiles) for m in solution.table)
                manipulating_openings += not position.opened and len(solution.kept) < len(position.table)
            if got != expected:
                mismatches.append(f"{objective}: solver {got}, oracle {expected}: {position!r}")
    assert not mismatches, "\n".join(mismatches[:20])
    # the sample is not degenerate: special jokers in play and played, opened and not, moves and none
    assert sum(any(t.is_special_joker for t in p.rack) for p in positions) > PER_RULES // 3
    assert any(p.opened for p in positions) and not all(p.opened for p in positions)
    assert 0 < moves < 2 * PER_RULES and specials_played > PER_RULES // 4
    if RULES[name].wraparound:  # answers with special jokers in runs through the top number
        assert wrapping >= 5, wrapping
    if RULES[name].open_then_manipulate:  # initial melds that go on to change the table
        assert manipulating_openings >= 5, manipulating_openings
