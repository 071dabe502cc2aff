"""The aggregated group block of grouped catalogues (rummisolve.solver._groups).

- Its rows are exactly the condition for a number's tiles and jokers to split into legal groups:
  every count vector the block's rows accept deals (``deal``, the decoder) into legal melds, and
  every vector they reject has no split at all (brute force over small cases).
- The grouped model against the enumerated one (the same solver with the group base sets) on
  seeded random positions of 4-8 colours: same status, primary value and melds kept, for both
  objectives, opened and not, ``open_then_manipulate``, ``discard``, alternatives; every answer
  refereed (``assert_sound``).
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model_helper as cmh

from benchmarks.positions import random_position
from rummisolve import Position, RuleSet, solve
from rummisolve.errors import InvalidMeldError
from rummisolve.melds import Meld
from rummisolve.solver import _candidates
from rummisolve.solver._candidates import model_catalogue
from rummisolve.solver._groups import add_groups, deal, group_bound, group_offsets
from rummisolve.solver._protos import protos
from rummisolve.solver.probe import ModelVariant, solve_variant
from rummisolve.tiles import JOKER, Tile
from tests.support.soundness import assert_sound


def _legal_groups(rules: RuleSet, number: int, dealt: list[tuple[list[int], int]]) -> bool:
    """Whether every dealt group, as tiles (colours then jokers), is a legal meld of ``number``."""
    colours = rules.colour_list
    for present, jokers in dealt:
        if len(set(present)) != len(present):
            return False
        tiles = [Tile(colours[c], number) for c in present] + [JOKER] * jokers
        try:
            Meld.of(tiles, rules)
        except InvalidMeldError:
            return False
    return True


@cache
def _splits(reals: tuple[int, ...], jokers: int, groups: int, m: int) -> bool:
    """Brute force: can ``reals`` (tiles per colour) and ``jokers`` form exactly ``groups`` groups
    of ``m..len(reals)`` distinct colours, each with a real tile? One group at a time."""
    if groups == 0:
        return not any(reals) and jokers == 0
    colours = len(reals)
    present = [c for c, n in enumerate(reals) if n]
    for size in range(1, len(present) + 1):
        for chosen in itertools.combinations(present, size):
            rest = list(reals)
            for c in chosen:
                rest[c] -= 1
            for used in range(max(0, m - size), min(jokers, colours - size) + 1):
                if _splits(tuple(rest), jokers - used, groups - 1, m):
                    return True
    return False


def _block_accepts(colours: int, m: int, have: list[int], jokers: int, g: int, ys: list[int], jg: int) -> bool:
    """Whether the model's group block (built for tiles ``have`` and ``jokers`` of number 1)
    admits ``G = g, y = ys, jg = jg``: the block alone, those values fixed, solved by CP-SAT."""
    rules = RuleSet(colours=colours, min_meld_length=m, numbers=5, copies=4, jokers=4, max_players=colours)
    cat = _candidates._catalogue(rules, True)
    variables: list = [protos(cat).domain(0, 0)] * (len(cat.sets) + len(cat.kinds))
    constraints: list = []
    available = [0] * len(cat.kinds)
    for c, n in enumerate(have):
        available[c * rules.numbers] = n
    add_groups(protos(cat), cat, available, jokers, 0, variables, constraints)
    g_var, y0, jg_var = group_offsets(cat, 0)
    proto = cmh.CpModelProto()
    for var, value in [(g_var, g), (jg_var, jg)] + [(y0 + c, y) for c, y in enumerate(ys)]:
        if not variables[var].domain[0] <= value <= variables[var].domain[1]:
            return False
        fixed = cmh.IntegerVariableProto()
        fixed.domain.extend([value, value])
        variables[var] = fixed
    proto.variables.extend(variables)
    proto.constraints.extend(constraints)
    wrapper = cmh.SolveWrapper()
    params = cmh.SatParameters()
    params.num_workers = 1
    params.catch_sigint_signal = False
    wrapper.set_parameters(params)
    return wrapper.solve(proto).status == cmh.CpSolverStatus.OPTIMAL


@settings(max_examples=150, deadline=None, derandomize=True)
@given(colours=st.integers(2, 8), groups=st.integers(1, 5), data=st.data())
def test_every_count_vector_meeting_the_rows_deals_into_legal_groups(colours, groups, data):
    m = data.draw(st.integers(2, min(colours, 4)))
    reals = data.draw(st.lists(st.integers(0, groups), min_size=colours, max_size=colours))
    total = sum(reals)
    assume(total >= groups)
    jokers = data.draw(st.integers(max(0, m * groups - total), colours * groups - total))
    dealt = deal(groups, reals, jokers)
    rules = RuleSet(colours=colours, min_meld_length=m, max_players=max(colours, 2))
    assert len(dealt) == groups
    assert sorted(c for present, _ in dealt for c in present) == sorted(
        c for c, n in enumerate(reals) for _ in range(n)
    )
    assert sum(n for _, n in dealt) == jokers
    assert _legal_groups(rules, 7, dealt)


def test_deal_of_a_vector_breaking_a_row_gives_an_illegal_group():
    """The decoder is not lenient: counts outside the rows deal into some illegal group."""
    rules = RuleSet(colours=5, max_players=5)
    assert not _legal_groups(rules, 7, deal(2, [2, 2, 0, 0, 0], 0))  # 4 tiles < 3 * 2
    assert not _legal_groups(rules, 7, deal(1, [1, 1, 1, 1, 1], 1))  # 6 tiles > 5 colours
    assert not _legal_groups(rules, 7, deal(2, [1, 0, 0, 0, 0], 5))  # a group of jokers only
    assert not _legal_groups(rules, 7, deal(1, [2, 1, 0, 0, 0], 0))  # a colour twice


@pytest.mark.parametrize(
    ("colours", "m", "have", "jokers"), [(3, 2, [2, 1, 2], 2), (4, 3, [2, 2, 2, 1], 3), (5, 3, [2, 0, 2, 1, 2], 2)]
)
def test_the_block_accepts_exactly_the_splittable_count_vectors(colours, m, have, jokers):
    """Exhaustive over a small box: the model's rows (CP-SAT, values fixed) accept a vector
    exactly when a brute-force split into that many legal groups exists."""
    accepted = rejected = 0
    for g in range(4):
        for ys in itertools.product(*(range(n + 1) for n in have)):
            for jg in range(jokers + 1):
                expected = _splits(tuple(ys), jg, g, m)
                got = _block_accepts(colours, m, have, jokers, g, list(ys), jg)
                assert got == expected, (g, ys, jg)
                accepted += got
                rejected += not got
    assert accepted > 10 and rejected > 10  # both sides are exercised


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    have=st.lists(st.integers(0, 3), min_size=2, max_size=5),
    jokers=st.integers(0, 4),
    m=st.integers(2, 4),
)
def test_group_bound_is_the_most_groups_that_split(have, jokers, m):
    """``group_bound`` groups split in some way (unless 0), one more in none (brute force)."""

    def splits(g: int) -> bool:
        for ys in itertools.product(*(range(min(n, g) + 1) for n in have)):
            if _splits(tuple(ys), min(jokers, max(0, m * g - sum(ys))), g, m):
                return True
        return False

    bound = group_bound(have, jokers, m)
    assert bound == 0 or splits(bound)
    assert not splits(bound + 1)


RULES = {
    "4 colours": RuleSet(colours=4),
    "5 colours, 3 copies": RuleSet(colours=5, copies=3, max_players=5),
    "6 colours": RuleSet(colours=6, max_players=6),
    "6 colours, open then manipulate": RuleSet(colours=6, max_players=6, open_then_manipulate=True),
    "6 colours, discard, threshold 0": RuleSet(colours=6, max_players=6, discard=True, initial_threshold=0),
    "7 colours, 4 jokers, no joker in opening": RuleSet(
        colours=7, jokers=4, max_players=7, joker_in_initial_meld=False
    ),
    "7 colours, wraparound, penalty 0": RuleSet(colours=7, max_players=7, wraparound=True, joker_penalty=0),
    "8 colours, 3 copies, 4 jokers": RuleSet(colours=8, copies=3, jokers=4, max_players=8),
    "8 colours, min 4, open then manipulate": RuleSet(
        colours=8, max_players=8, min_meld_length=4, open_then_manipulate=True, discard=True
    ),
}


def _answers(position: Position, objective: str, grouped: bool, alternatives: int) -> tuple:
    saved = _candidates.GROUPED_COLOURS
    _candidates.GROUPED_COLOURS = 1 if grouped else 99
    try:
        assert model_catalogue(position.rules).grouped is grouped
        # both models, not the shortcut, answer
        solution = solve_variant(position, objective, ModelVariant(shortcut=False), alternatives=alternatives)
    finally:
        _candidates.GROUPED_COLOURS = saved
    assert_sound(position, solution, objective)
    answers = []
    for s in (solution, *solution.alternatives):
        primary = len(s.played) if objective == "tiles" else s.value
        answers.append((s.status, primary, len(s.kept)))
    return tuple(answers)


@pytest.mark.parametrize("name", list(RULES))
def test_grouped_model_gives_the_enumerated_models_answers(name):
    rules = RULES[name]
    rng = random.Random(f"groups-{name}")
    # (table size, rack size, opened): openings get large racks, so that some can open
    sizes = [(0, 14, False), (8, 6, True), (20, 14, True), (30, 24, False), (40, 10, True), (55, 18, True)]
    sizes += [(70, 14, True), (90, 20, True)] if rules.colours <= 6 else [(70, 12, True)]
    moves = kept = 0
    for i, (table, rack, opened) in enumerate(sizes):
        position = random_position(rng, rules, table, rack, opened, jokers=True, joker_rate=0.3)
        for objective in ("tiles", "value"):
            alternatives = 2 if i in (2, 4) else 0
            grouped = _answers(position, objective, True, alternatives)
            assert grouped == _answers(position, objective, False, alternatives), (objective, position)
            moves += grouped[0][0] == "optimal"
            kept += grouped[0][2]
    assert moves >= 4 and kept  # real moves, and melds kept to tie-break


def test_wide_rule_sets_use_the_grouped_catalogue_unless_jokers_need_named_sets():
    assert model_catalogue(RuleSet(colours=8, max_players=8)).grouped
    assert not model_catalogue(RuleSet()).grouped
    assert not model_catalogue(RuleSet(colours=8, max_players=8, joker_retrieval="strict")).grouped
    assert not model_catalogue(RuleSet(colours=8, max_players=8, double_jokers=2)).grouped


def test_grouped_models_search_with_their_own_budgets(monkeypatch):
    """The quick stage of a grouped model gets :data:`GROUPED_EFFORTS`' budget, others the default."""
    from rummisolve.solver import _solve

    budgets = []
    real_run = _solve.run_cpsat

    def spy(proto, params, stop=None):
        budgets.append(params.max_deterministic_time)
        return real_run(proto, params)

    monkeypatch.setattr(_solve, "run_cpsat", spy)
    wide = (RuleSet(colours=8, max_players=8), _solve.GROUPED_EFFORTS[0])
    for rules, expected in (wide, (RuleSet(), _solve.QUICK_EFFORT)):
        budgets.clear()
        position = Position.from_notation(["K1 K2 K3", "R5 B5 O5"], "K4 R4 R6 O9", rules=rules)
        solution = solve_variant(position, "tiles", ModelVariant(shortcut=False))
        assert solution.status == "optimal"
        assert budgets[0] == expected


def test_table_solver_on_a_wide_rule_set_gives_solves_answers():
    """Many racks against one table under 8 colours: TableSolver (table counted once, under the
    grouped catalogue, for solve and goes_out) answers as solve does."""
    from rummisolve import TableSolver

    rules = RULES["8 colours, 3 copies, 4 jokers"]
    rng = random.Random("wide table")
    base = random_position(rng, rules, 60, 10, True, jokers=True, joker_rate=0.3)
    tables = TableSolver(base.table, rules)
    checked = 0
    for _ in range(6):
        rack = random_position(rng, rules, 0, rng.randint(3, 12), True).rack
        position = Position(base.table, rack, True, rules)
        for objective in ("tiles", "value"):
            mine, plain = tables.solve(rack, objective=objective), solve(position, objective)
            assert_sound(mine.position, mine, objective)
            assert mine.position == position
            primary = [len(s.played) if objective == "tiles" else s.value for s in (mine, plain)]
            assert (mine.status, primary[0], len(mine.kept)) == (plain.status, primary[1], len(plain.kept))
        out = tables.goes_out(rack)
        assert out == (len(solve(position, "tiles").played) == len(rack))
        checked += 1
    assert checked == 6
