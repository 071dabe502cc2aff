"""The Twist primal heuristic (:mod:`rummisolve.solver._twist_heuristic`, issue 52): its move is
legal by the referee, never worse than the empty move, never claimed optimal; handed to the staged
search as hint and bound it leaves the optimum's value as it was."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve import Position, RuleSet, solve
from rummisolve.referee import verify
from rummisolve.rules import TWIST
from rummisolve.solution import Status
from rummisolve.solver import _solve, probe
from rummisolve.tiles import COLOUR_CHANGE_JOKER, DOUBLE_JOKER, JOKER, MIRROR_JOKER
from tests.solver.test_twist_search import _recorded, _triangles
from tests.support.twist_definition import twist_melds

SMALL = (TWIST.replace(numbers=7), TWIST.replace(numbers=6, colours=3, initial_threshold=20))
STORED = Path(__file__).resolve().parents[2] / "benchmarks" / "twist.jsonl"


@cache
def _melds(rules: RuleSet) -> tuple[tuple, ...]:
    return tuple(tiles for tiles, *_ in twist_melds(rules, 6))


@st.composite
def twist_positions(draw) -> Position:
    """Small Twist positions: a table of valid Twist melds (special jokers in many) and a rack
    drawn from what is left, special jokers likely."""
    rules = draw(st.sampled_from(SMALL))
    pool = Counter({k: rules.copies for k in rules.tile_kinds})
    pool.update({JOKER: rules.jokers, DOUBLE_JOKER: 2, COLOUR_CHANGE_JOKER: 2, MIRROR_JOKER: 2})
    table = []
    for tiles in draw(st.lists(st.sampled_from(_melds(rules)), max_size=4)):
        need = Counter(tiles)
        if all(pool[t] >= n for t, n in need.items()):
            pool.subtract(need)
            table.append(list(tiles))
    specials = [t for t in (DOUBLE_JOKER, COLOUR_CHANGE_JOKER, MIRROR_JOKER) for _ in range(pool[t])]
    rack = [specials[i] for i in draw(st.lists(st.integers(0, 5), max_size=2, unique=True)) if i < len(specials)]
    pool.subtract(Counter(rack))
    rest = sorted(pool.elements())
    picks = draw(st.lists(st.integers(0, len(rest) - 1), min_size=1, max_size=7, unique=True))
    rack += [rest[i] for i in picks]
    return Position.from_notation(table, rack, draw(st.booleans()), rules)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(position=twist_positions())
def test_the_heuristic_move_is_legal_never_worse_than_the_empty_move_and_never_claimed_optimal(position):
    move = probe.heuristic_move(position)
    assert move.status in (Status.FEASIBLE, Status.UNKNOWN)  # never a proof
    if move.status == Status.UNKNOWN:  # the empty move: the table as it stands, nothing played
        assert not move.played and move.table == position.table
    else:  # a move that plays a tile (so beats the empty one), which the referee accepts
        verdict = verify(position, move.table)
        assert move.played and verdict.legal and Counter(verdict.played) == Counter(move.played)
    best = solve(position)
    assert len(move.played) <= len(best.played)
    if best.status == Status.OPTIMAL and not any(t.is_special_joker for t in best.played):
        special = [i for i, m in enumerate(position.table) if any(t.is_special_joker for t in m.tiles)]
        if set(special) <= set(best.kept):  # the optimum moves no special joker
            assert len(move.played) == len(best.played)


def test_the_heuristic_leaves_the_rack_special_jokers_and_the_twist_melds_as_they_are():
    position = Position.from_notation(["R5 JD R8", "K1 K2 K3"], "R4 JM K4 B9", opened=True, rules=TWIST)
    move = probe.heuristic_move(position)
    # R4 would change the Twist meld R5 JD R8, which the heuristic keeps as it is
    assert move.status == Status.FEASIBLE and [str(t) for t in move.played] == ["K4"]
    assert position.table[0] in move.table
    assert sorted(str(t) for t in solve(position).played) == ["K4", "R4"]  # R4 R5 JD R8


def test_a_position_where_only_a_special_joker_plays_gives_the_empty_move():
    position = Position.from_notation(["R1 R2 R3"], "JD K9", opened=True, rules=TWIST)
    move = probe.heuristic_move(position)
    assert move.status == Status.UNKNOWN and not move.played and move.table == position.table
    assert [str(t) for t in solve(position).played] == ["JD"]  # R1 R2 R3 JD


def _stored(count: int) -> list[Position]:
    out = []
    for line in STORED.read_text().splitlines()[:count]:
        row = json.loads(line)
        rules = RuleSet.preset(row["rules"])
        out.append(Position.from_notation(row["table"], row["rack"], opened=row["opened"], rules=rules))
    return out


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_the_search_given_the_heuristic_as_hint_and_bound_finds_the_same_optimum(objective):
    """Differential over the first stored Twist self-play positions (fixed seed): the staged search
    with the heuristic's solution as hint and its value as bound proves the same value as without."""
    compared = 0
    for position in _stored(30):
        model = probe.model_of(position, objective)
        if model is None:
            continue
        plain = probe.search(model)
        found = probe.heuristic(model)
        if found is None:
            continue
        assert found.status == "FEASIBLE" and found.objective_value >= plain.objective_value
        hinted = probe.search(model, hint=found, upper=round(found.objective_value))
        assert hinted.status == "OPTIMAL" and hinted.objective_value == plain.objective_value
        compared += 1
    assert compared >= 10


def test_an_upper_bound_caps_every_stage(monkeypatch):
    proto = _triangles(8).proto
    domains = _recorded(monkeypatch)
    found = _solve.staged_search(proto, 0, None, True, efforts=(1e-9, 1.0, 6), widening=True, upper=-6)
    assert round(found.objective_value) == -8 and found.status == _solve.CP_OPTIMAL
    assert domains[0] == [-_solve.INF, -6]  # the quick stage
    assert all(d[1] <= -6 for d in domains[1:])  # the targets
    assert not list(proto.objective.domain)
