"""A solve's work cap (CP-SAT's deterministic time): it stops the search whatever the machine's
load, so a capped answer is the same every time, and an ample cap changes nothing."""

from __future__ import annotations

import pytest

from rummisolve import Position, TableSolver
from rummisolve.errors import OptionError
from rummisolve.rules import TWIST
from rummisolve.solution import Status
from rummisolve.solver import _solve
from rummisolve.solver._work import WORK_FLOOR
from tests.solver.test_twist_search import DENSE_RACK, DENSE_TABLE


def _runs(monkeypatch) -> list[tuple[float, float]]:
    """Each CP-SAT search from now on: (its deterministic-time cap, the deterministic time it took)."""
    runs: list[tuple[float, float]] = []
    real = _solve.run_cpsat

    def recording(proto, params, stop=None):
        response = real(proto, params, stop)
        runs.append((params.max_deterministic_time, response.deterministic_time))
        return response

    monkeypatch.setattr(_solve, "run_cpsat", recording)
    return runs


def test_a_work_cap_bounds_the_searches_and_answers_the_same_every_time(monkeypatch):
    solver = TableSolver(DENSE_TABLE, TWIST)
    runs = _runs(monkeypatch)
    cap = 0.01
    first = solver.solve(DENSE_RACK, work=cap)
    assert first.status in (Status.FEASIBLE, Status.UNKNOWN)  # cut before the proof
    assert runs and all(limit <= cap + 1e-9 for limit, _ in runs)
    # every search but the last starts with work left, and each is given at most what is left
    left = cap
    for limit, took in runs:
        assert limit <= max(left, WORK_FLOOR) + 1e-9
        left -= took
    assert left <= WORK_FLOOR  # spent: that is what stopped it
    again = [TableSolver(DENSE_TABLE, TWIST).solve(DENSE_RACK, work=cap) for _ in range(2)]
    for other in again:
        assert (other.status, other.played, other.table) == (first.status, first.played, first.table)


def test_an_ample_work_cap_changes_no_answer():
    position = Position.from_notation(["R1 R2 R3", "K7 B7 O7"], "R4 JD B12 K1 O1 JM", True, TWIST)
    solver = TableSolver(position.table, TWIST)
    plain = solver.solve(position.rack)
    capped = solver.solve(position.rack, work=100.0)
    assert plain.status == capped.status == Status.OPTIMAL
    assert (capped.played, capped.table, capped.kept) == (plain.played, plain.table, plain.kept)


@pytest.mark.parametrize("work", [0, -1.0, True, "0.1", float("nan")])
def test_a_bad_work_cap_is_refused_by_name(work):
    with pytest.raises(OptionError, match="work"):
        TableSolver(["R1 R2 R3"]).solve("R4", work=work)
