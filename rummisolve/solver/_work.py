"""A search's work cap in CP-SAT's deterministic time: what is left of it, and each stage's share."""

from __future__ import annotations

from collections.abc import Callable

from ortools.sat.python import cp_model_helper as cmh

__all__ = ["Run", "WorkCap", "WORK_FLOOR", "within"]

Run = Callable[[cmh.CpModelProto, cmh.SatParameters], cmh.CpSolverResponse]
"""One CP-SAT search: the model and its parameters to the response."""


class WorkCap:
    """What is left of a search's work cap (CP-SAT's deterministic time), spent run by run: unlike a
    deadline it does not depend on the machine or its load, so a search it cuts gives the same
    answer every time (the best found, unproven)."""

    __slots__ = ("left",)

    def __init__(self, total: float) -> None:
        self.left = total

    def counting(self, run: Run) -> Run:
        """``run``, each response's deterministic time taken from what is left."""

        def counted(proto: cmh.CpModelProto, params: cmh.SatParameters) -> cmh.CpSolverResponse:
            response = run(proto, params)
            self.left -= response.deterministic_time
            return response

        return counted

    def spent(self) -> bool:
        return self.left <= WORK_FLOOR


WORK_FLOOR = 1e-4
"""Less work left than this (CP-SAT's deterministic time) and a capped search stops."""


def within(effort: float, left: WorkCap | None) -> float:
    """A stage's ``effort``, at most the work left."""
    return effort if left is None else max(WORK_FLOOR, min(effort, left.left))
