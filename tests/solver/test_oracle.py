"""The benchmark oracle (HiGHS MIP over explicit melds) against an exhaustive search and the referee."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from benchmarks.exhaustive import exhaustive_optimum, meld_value
from benchmarks.oracle import candidate_melds, optima, optimum, solve
from benchmarks.positions import small_position, trap_positions
from rummisolve.jsonio import position_from_json
from rummisolve.melds import Meld, meld_problem
from rummisolve.position import Position
from rummisolve.rules import STANDARD, XP, RuleSet
from rummisolve.tiles import JOKER, Tile, parse_tiles

VARIANTS = {
    "standard": STANDARD,
    "wraparound": STANDARD.replace(wraparound=True),
    "open_then_manipulate": STANDARD.replace(open_then_manipulate=True),
    "no_joker_in_opening": STANDARD.replace(joker_in_initial_meld=False),
    "otm_no_joker_in_opening": STANDARD.replace(joker_in_initial_meld=False, open_then_manipulate=True),
    "threshold_10": STANDARD.replace(initial_threshold=10),
    "threshold_0": STANDARD.replace(initial_threshold=0),
    "xp": XP,
    "six_colours": STANDARD.replace(colours=6, initial_threshold=20),
    "min_length_4": STANDARD.replace(min_meld_length=4, jokers=3),
}


def _pos(table, rack, opened=True, rules=STANDARD) -> Position:
    return Position.from_notation(table, rack, opened, rules)


def test_standard_candidate_count_matches_den_hertog_hulshof():
    # den Hertog & Hulshof (2006) count 1173 sets for the standard game
    assert len(candidate_melds(STANDARD)) == 1173


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_candidate_is_a_valid_meld_with_its_value(name):
    rules = VARIANTS[name]
    cands = candidate_melds(rules)
    assert cands
    keys = set()
    for cand in cands:
        meld = Meld.of(cand.tiles, rules)  # raises if invalid
        assert Counter(cand.tiles) == Counter(dict(cand.counts))
        # the stored value is the best reading of this multiset, as found by brute force
        assert cand.value == meld_value(tuple(sorted(cand.tiles)), rules)
        assert meld.value <= cand.value
        keys.add(cand.counts)
    assert len(keys) == len(cands)


def test_wraparound_candidates():
    wrap = {str(Meld.of(c.tiles, VARIANTS["wraparound"])) for c in candidate_melds(VARIANTS["wraparound"])}
    plain = {" ".join(map(str, c.tiles)) for c in candidate_melds(STANDARD)}
    assert "R12 R13 R1" in wrap and "R12 R13 R1" not in plain
    assert "R13 R1 R2" not in wrap


@pytest.mark.parametrize(
    "table, rack, opened, rules, expected",
    [
        ([], "K13 B13 O13 R2", False, STANDARD, {"tiles": 3, "value": 39}),
        ([], "K2 B2 O2 R2 R6 R7 R8", False, STANDARD, {"tiles": None, "value": None}),
        ([], "K9 K10 K11", False, STANDARD, {"tiles": 3, "value": 30}),
        (["R1 R2 R3"], "R4 R5 K10 B10 O10", False, STANDARD, {"tiles": 3, "value": 30}),
        (
            ["R1 R2 R3"],
            "R4 R5 K10 B10 O10",
            False,
            STANDARD.replace(open_then_manipulate=True),
            {"tiles": 5, "value": 39},
        ),
        (["R1 R2 R3"], "R4 K13 B1", False, STANDARD.replace(initial_threshold=10), {"tiles": None, "value": None}),
        (["B5 B6 B7"], "R10 R11 R12 J", True, STANDARD, {"tiles": 4, "value": 63}),
        ([], "K7 B7 O7 J", True, STANDARD, {"tiles": 4, "value": 51}),
        (["R5 J R7"], "R6 B9 O9", True, STANDARD, {"tiles": 3, "value": 24}),
        (["R9 R10 R11"], "K1 K2 K4 J B13 O13", True, STANDARD, {"tiles": 4, "value": 56}),
        ([], "K12 K13 J", False, STANDARD.replace(joker_in_initial_meld=False), {"tiles": None, "value": None}),
        # the ban on jokers covers the whole opening turn, also the melds after the initial meld
        (
            ["R1 R2 R3"],
            "K10 B10 O10 J",
            False,
            STANDARD.replace(joker_in_initial_meld=False, open_then_manipulate=True),
            {"tiles": 3, "value": 30},
        ),
        (["R1 R2 R3"], "K10 B10 O10 J", False, STANDARD.replace(open_then_manipulate=True), {"tiles": 4, "value": 60}),
        ([], "R12 R13 R1", True, STANDARD.replace(wraparound=True), {"tiles": 3, "value": 26}),
        ([], "R12 R13 R1", True, STANDARD, {"tiles": None, "value": None}),
    ],
)
def test_known_optima(table, rack, opened, rules, expected):
    assert optima(_pos(table, rack, opened, rules)) == expected


def test_empty_rack_is_no_move():
    assert optimum(_pos(["R1 R2 R3"], ""), "tiles") is None


def test_strict_joker_retrieval_is_refused():
    with pytest.raises(NotImplementedError):
        solve(_pos([], "R1 R2 R3", rules=STANDARD.replace(joker_retrieval="strict")))


def test_unknown_objective():
    with pytest.raises(ValueError, match="objective"):
        solve(_pos([], "R1 R2 R3"), "points")


def _check_arrangement(position: Position, answer, objective: str) -> None:
    """Independent of the referee: conservation, valid melds, the objective, the opening rules."""
    rules = position.rules
    table = position.table_counts()
    played = Counter(answer.played)
    assert not played - position.rack_counts()
    after = Counter(t for meld in answer.table for t in meld)
    assert after == table + played
    for meld in answer.table:
        assert meld_problem(meld, rules) is None, meld
    score = len(answer.played) if objective == "tiles" else rules.rack_value(answer.played)
    assert score == answer.optimum
    if not position.opened and not rules.open_then_manipulate:
        old = [tuple(m.tiles) for m in position.table]
        assert list(answer.table[: len(old)]) == old
        new = answer.table[len(old) :]
        assert Counter(t for m in new for t in m) == played
        assert sum(meld_value(tuple(sorted(m)), rules) for m in new) >= rules.initial_threshold
    if not position.opened and not rules.joker_in_initial_meld:
        assert JOKER not in played


def _referee():
    try:
        from rummisolve.referee import verify
    except ImportError:  # the referee lands separately; the rest of the check still runs
        return None
    return verify


def test_oracle_matches_exhaustive_search_on_small_positions():
    rng = random.Random(20261130)
    verify = _referee()
    names = sorted(VARIANTS)
    checked = moves = 0
    for i in range(110):
        rules = VARIANTS[names[i % len(names)]]
        position = small_position(rng, rules, max_tiles=11)
        for objective in ("tiles", "value"):
            answer = solve(position, objective)
            assert answer.optimum == exhaustive_optimum(position, objective), (objective, repr(position))
            checked += 1
            if answer.optimum is None:
                continue
            moves += 1
            _check_arrangement(position, answer, objective)
            if verify is not None:
                verdict = verify(position, answer.table)
                assert verdict.legal, (verdict.reasons, repr(position))
                assert Counter(verdict.played) == Counter(answer.played)
    assert checked == 220
    assert moves > 80  # the generator must produce positions with moves, not only draws


def test_long_runs_always_resplit():
    # The claim behind capping candidate runs at 2m-1 tiles: a run of any length, with jokers in
    # any slots, re-splits into candidate melds. With such a run as the table and the next tile
    # of the run on the rack, the optimum must be 1.
    for rules in (STANDARD, XP, STANDARD.replace(min_meld_length=4, jokers=4)):
        m = rules.min_meld_length
        rng = random.Random(m * 100 + rules.jokers)
        for _ in range(40):
            length = rng.randint(2 * m, rules.numbers - 1)
            start = rng.randint(1, rules.numbers - length + 1)
            tiles = [Tile.parse(f"O{start + i}") for i in range(length)]
            slots = list(range(length))
            rng.shuffle(slots)
            for slot in slots[: rng.randint(0, min(rules.jokers, length - 1))]:
                tiles[slot] = JOKER
            extra = start + length if start + length <= rules.numbers else start - 1
            position = Position((tuple(tiles),), parse_tiles([f"O{extra}"]), True, rules)
            answer = solve(position, "tiles")
            assert answer.optimum == 1, [str(t) for t in tiles]
            _check_arrangement(position, answer, "tiles")


@pytest.mark.parametrize("record", trap_positions(), ids=lambda r: r["id"])
def test_traps_agree_with_exhaustive_search(record):
    position = position_from_json({k: record[k] for k in ("rules", "table", "rack", "opened")})
    if position.tiles_in_play > 14:
        pytest.skip("too large for the exhaustive search")
    for objective in ("tiles", "value"):
        assert optimum(position, objective) == exhaustive_optimum(position, objective)


def test_generalised_rule_sets_full_positions_are_solved_and_conserve_tiles():
    rules = RuleSet(colours=8, copies=3, jokers=4, max_players=8)
    rng = random.Random(7)
    from benchmarks.positions import random_position

    position = random_position(rng, rules, table_size=40, rack_size=12)
    for objective in ("tiles", "value"):
        answer = solve(position, objective)
        assert answer.optimum is not None
        _check_arrangement(position, answer, objective)
