"""The referee's search for the most valuable initial meld the played tiles can form (rules with
``open_then_manipulate``): the threshold test against the exact value, and plays of dozens of
tiles against thresholds near their worth, which used to take minutes and gigabytes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve.position import Position
from rummisolve.referee import verify
from rummisolve.referee._budget import Budget
from rummisolve.referee._opening import Packing
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import JOKER

SMALL = RuleSet(colours=3, numbers=7, copies=2, jokers=2)


@st.composite
def played(draw, rules):
    kinds = [t.sort_key for t in rules.tile_kinds]
    counts = {}
    for key in draw(st.lists(st.sampled_from(kinds), max_size=12)):
        counts[key] = min(rules.copies, counts.get(key, 0) + 1)
    jokers = draw(st.integers(0, rules.jokers))
    if jokers:
        counts[JOKER.sort_key] = jokers
    return counts


def best_packing(counts: dict, rules: RuleSet) -> int | None:
    """Reference: the exact value of the most valuable packing of ``counts`` into melds (the
    referee's earlier search: every packing, memoised, no bound); ``None`` if there is none."""
    from rummisolve.referee._rules_context import context

    shapes = context(rules).shapes
    kinds = sorted(k for k in counts if k != JOKER.sort_key)
    index = {k: i for i, k in enumerate(kinds)}
    memo: dict[tuple, int] = {}

    def fills(others, state):
        states = [list(state)]
        for key in others:
            nxt = []
            for c in states:
                i = index.get(key)
                if i is not None and c[i]:
                    nxt.append(c[:i] + [c[i] - 1] + c[i + 1 :])
                if c[-1]:
                    nxt.append(c[:-1] + [c[-1] - 1])
            states = nxt
        return {tuple(c) for c in states}

    def best(state: tuple) -> int:
        if state not in memo:
            i = next((i for i in range(len(kinds)) if state[i]), None)
            result = -1
            if i is not None:
                rest = state[:i] + (state[i] - 1,) + state[i + 1 :]
                result = best(rest)
                for others, value in shapes(kinds[i]):
                    for after in fills(others, rest):
                        result = max(result, value + max(best(after), 0))
            memo[state] = result
        return memo[state]

    found = best(tuple(counts[k] for k in kinds) + (counts.get(JOKER.sort_key, 0),))
    return None if found < 0 else found


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([SMALL, STANDARD, SMALL.replace(wraparound=True), SMALL.replace(min_meld_length=4)]).flatmap(
        lambda rules: st.tuples(st.just(rules), played(rules))
    )
)
def test_threshold_test_agrees_with_the_exact_value(case):
    rules, counts = case
    exact = best_packing(counts, rules)
    packing = Packing(counts, rules, Budget(None))
    for need in range(1, packing.upper() + 2):
        assert packing.reaches(need) == (exact is not None and exact >= need), (need, exact)


def _otm(threshold):
    return STANDARD.replace(open_then_manipulate=True, initial_threshold=threshold, rack_size=200)


def _runs(colours="KBOR", top=13):
    return [" ".join(f"{c}{n}" for n in range(1, top + 1)) for c in colours]


def test_52_tiles_against_a_threshold_beyond_reach():
    # The exact search went past 120 s and 3.5 GB here.
    runs = _runs()
    p = Position.from_notation([], " ".join(runs), False, _otm(10_000))
    v = verify(p, runs)
    assert v.codes == ("opening_below_threshold",)
    assert "worth at most 364 points" in str(v)


def test_the_whole_set_against_thresholds_near_its_worth():
    # Both copies of every tile and one joker (worth 13 in K13 B13 J): 741 points in all.
    table = [*_runs(), "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12", "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12"]
    table += ["O1 O2 O3 O4 O5 O6 O7 O8 O9 O10 O11 O12 O13", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13", "K13 B13 J"]
    rack = " ".join(table)
    for threshold in (700, 741):
        assert verify(Position.from_notation([], rack, False, _otm(threshold)), table).legal, threshold
    v = verify(Position.from_notation([], rack, False, _otm(742)), table)
    assert v.codes == ("opening_below_threshold",) and "worth at most 741 points" in str(v)


def test_max_steps_bounds_the_search():
    from rummisolve.errors import OptionError, RefereeLimitError

    p = Position.from_notation([], "R1 R2 R3 K1 B1 O1", False, _otm(100))
    table = ["R1 R2 R3", "K1 B1 O1"]
    assert verify(p, table).codes == ("opening_below_threshold",)
    assert verify(p, table, max_steps=10_000).codes == ("opening_below_threshold",)
    with pytest.raises(RefereeLimitError, match="more than the 2 search steps allowed"):
        verify(p, table, max_steps=2)
    for bad in (0, -1):
        with pytest.raises(OptionError, match="max_steps must be at least 1"):
            verify(p, table, max_steps=bad)
    for bad in (True, 2.0, "5"):
        with pytest.raises(TypeError, match="max_steps"):
            verify(p, table, max_steps=bad)


# -- Twist: special jokers in the initial meld -------------------------------------------------------

TWIST_SMALL = RuleSet(colours=3, numbers=6, jokers=1, double_jokers=1, colour_change_jokers=1, mirror_jokers=1)


def _definition_melds(rules: RuleSet) -> dict[tuple, int]:
    """Every valid meld of up to 9 tiles by the definition (tests/support/twist_definition.py,
    independent of the classifier and of the referee's search): tile multiset -> best value."""
    from collections import Counter

    from tests.support.twist_definition import twist_melds

    best: dict[tuple, int] = {}
    for tiles, _kind, value, _stands in twist_melds(rules, 9):
        key = tuple(sorted((t.sort_key, n) for t, n in Counter(tiles).items()))
        best[key] = max(value, best.get(key, 0))
    return best


def _best_by_definition(counts: dict, melds: dict[tuple, int]) -> int | None:
    """The most valuable packing of ``counts`` into the definition's melds (every packing, memoised)."""
    usable = [(dict(key), value) for key, value in melds.items() if all(counts.get(k, 0) >= n for k, n in key)]
    keys = sorted(counts)
    memo: dict[tuple, int] = {}

    def best(state: tuple, start: int) -> int:
        if (state, start) in memo:
            return memo[(state, start)]
        left = dict(zip(keys, state))
        result = -1
        for j in range(start, len(usable)):
            need, value = usable[j]
            if all(left[k] >= n for k, n in need.items()):
                after = tuple(left[k] - need.get(k, 0) for k in keys)
                result = max(result, value + max(best(after, j), 0))
        memo[(state, start)] = result
        return result

    found = best(tuple(counts[k] for k in keys), 0)
    return None if found < 0 else found


@pytest.mark.parametrize("rules", [TWIST_SMALL, TWIST_SMALL.replace(wraparound=True)], ids=["twist", "twist-wrap"])
def test_special_jokers_in_the_exact_search_agree_with_the_definition(rules):
    """Seeded random plays of 4-9 tiles, special jokers in most: the search reaches exactly the
    values up to the most valuable packing the definition's melds give."""
    import random

    from rummisolve.tiles import ALL_JOKERS

    melds = _definition_melds(rules)
    rng = random.Random(f"twist-opening-search-{rules.wraparound}")
    pool = [t for t in rules.tile_kinds for _ in range(rules.copies)] + [j for j in ALL_JOKERS for _ in range(1)]
    specials = [j for j in ALL_JOKERS if j.is_special_joker]
    reached = with_special = 0
    for _ in range(250):
        tiles = rng.sample(specials, rng.choice([0, 1, 1, 2, 2, 3]))
        rest = [t for t in pool if t not in tiles]
        tiles += rng.sample(rest, rng.randint(3, 7))
        counts: dict = {}
        for t in tiles:
            counts[t.sort_key] = counts.get(t.sort_key, 0) + 1
        exact = _best_by_definition(counts, melds)
        packing = Packing(counts, rules, Budget(None))
        text = " ".join(map(str, tiles))
        if exact is None:
            assert not packing.reaches(1), text
            continue
        assert packing.reaches(exact) and not packing.reaches(exact + 1), (text, exact)
        reached += 1
        with_special += exact > (_best_by_definition(_plain(counts), melds) or 0)
    assert reached > 150 and with_special > 40, (reached, with_special)


def _plain(counts: dict) -> dict:
    """``counts`` without its special jokers."""
    from rummisolve.tiles import ALL_JOKERS

    special = {j.sort_key for j in ALL_JOKERS if j.is_special_joker}
    return {k: n for k, n in counts.items() if k not in special}


def test_an_opening_hidden_by_the_manipulation_after_it_is_found():
    # R9 JD R12 (9-10-11-12, 42) opens; then R13 from the table's group joins it. No new meld on
    # the table is made of rack tiles only, so the referee finds the opening by its search.
    rules = TWIST_SMALL.replace(numbers=13, colours=4, open_then_manipulate=True)
    p = Position.from_notation(["R13 B13 K13 O13"], "R9 JD R12 K1", False, rules)
    assert verify(p, ["R9 JD R12 R13", "B13 K13 O13"]).legal
    # R9 JD R11 is no meld (a gap), and R9 R11 alone open nothing: the table was touched unopened
    p = Position.from_notation(["R13 B13 K13 O13"], "R9 JD R11 K1", False, rules)
    assert verify(p, ["R9 JD R11 R13", "B13 K13 O13"]).codes[:1] == ("invalid_meld",)
    p = Position.from_notation(["B7 B8 B9"], "K7 R7 JM R7 K7 B10", False, rules)
    v = verify(p, ["K7 R7 JM R7 K7", "B7 B8 B9 B10"])  # the mirror meld is worth 28: below 30
    assert v.codes == ("opening_below_threshold",) and "worth at most 28 points" in str(v)
