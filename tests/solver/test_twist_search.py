"""The widening target stage (Twist models): ranges twice as wide after each infeasible one, the
answer the one an unstaged search proves."""

from __future__ import annotations

from ortools.sat.python import cp_model

from rummisolve import Position
from rummisolve.rules import TWIST
from rummisolve.solver import _solve
from rummisolve.solver._candidates import model_catalogue
from rummisolve.solver._cpsat import CP_OPTIMAL, run_cpsat, sat_parameters
from rummisolve.solver._model import build_model


def _recorded(monkeypatch) -> list[list[int]]:
    """The objective's domain at every CP-SAT search from now on."""
    domains: list[list[int]] = []
    real = _solve.run_cpsat

    def recording(proto, params, stop=None):
        domains.append(list(proto.objective.domain))
        return real(proto, params, stop)

    monkeypatch.setattr(_solve, "run_cpsat", recording)
    return domains


def _triangles(count: int) -> cp_model.CpModel:
    """At most one of each triangle's three variables: the optimum ``-count``, the variables'
    bounds ``-3 * count``."""
    model = cp_model.CpModel()
    xs = [model.new_bool_var(f"x{i}") for i in range(3 * count)]
    for t in range(count):
        a, b, c = xs[3 * t : 3 * t + 3]
        model.add(a + b <= 1)
        model.add(b + c <= 1)
        model.add(a + c <= 1)
    model.minimize(-sum(xs))
    return model


def test_widening_targets_double_their_range_until_one_holds_the_optimum(monkeypatch):
    proto = _triangles(8).proto
    domains = _recorded(monkeypatch)
    # A quick stage that does no work leaves the bound of the variables' domains, -24.
    found = _solve.staged_search(proto, 0, None, True, efforts=(1e-9, 1.0, 6), widening=True)
    assert found.status == CP_OPTIMAL and round(found.objective_value) == -8
    targets = domains[1:]
    assert targets[0] == [-24, -24]
    for before, after in zip(targets, targets[1:]):
        assert after[0] == before[1] + 1 and after[1] - after[0] + 1 == 2 * (before[1] - before[0] + 1)
    assert targets[-1][0] <= -8 <= targets[-1][1] and len(targets) == 5
    assert not list(proto.objective.domain)  # left as it was


def test_without_widening_one_target_pins_the_bound(monkeypatch):
    proto = _triangles(8).proto
    domains = _recorded(monkeypatch)
    found = _solve.staged_search(proto, 0, None, True, efforts=(1e-9, 1.0, 1))
    assert found.status == CP_OPTIMAL and round(found.objective_value) == -8
    assert domains[1] == [-24, -24] and domains[2][0] == -23  # then the full stage, from -23


DENSE_TABLE = [
    "K4 B4 R4", "O9 JD O12", "K13 B13 JD", "K1 K2 K3", "K4 K5 K6", "K8 B8 O8", "K9 K10 K11",
    "B1 B2 B3", "R4 J R6 R7", "B5 B6 B7", "K8 B8 R8", "O8 O9 O10", "B11 O11 R11", "B3 O3 R3",
    "R10 R11 JC O13", "K12 O12 R12", "R7 JC K9 K10", "B5 O5 R5", "K1 B1 R1", "K11 K12 K13",
    "B11 B12 B13",
]  # fmt: skip
"""game-3p-402-t88 (benchmarks/twist.jsonl): the quick stage finds no solution here."""
DENSE_RACK = "K7 B9 B9 B12 O4 O6 O7 O7 R1 R2 R8 R9 R13 R13 JM"


def test_a_dense_twist_table_is_answered_with_the_unstaged_optimum(monkeypatch):
    position = Position.from_notation(DENSE_TABLE, DENSE_RACK, True, TWIST)
    cat = model_catalogue(TWIST)
    built = build_model(position, cat, "tiles")
    assert built is not None and built.twist is not None
    plain = run_cpsat(built.proto, sat_parameters(0, None, eager=True))
    domains = _recorded(monkeypatch)
    staged = _solve.staged_search(built.proto, 0, None, True, efforts=_solve.search_efforts(cat, built), widening=True)
    assert plain.status == staged.status == CP_OPTIMAL
    assert staged.objective_value == plain.objective_value
    assert len(domains) > 2  # the targets ran
