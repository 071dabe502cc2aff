"""The move solver: candidate melds, the CP-SAT model, decoding. The only package that imports OR-Tools."""

from rummisolve.jsonio import solution_to_json
from rummisolve.solver._ortools import require_ortools

require_ortools()

from rummisolve.solver.api import OBJECTIVES, solve, solve_json  # noqa: E402 (after the version check)
from rummisolve.solver.solution import STATUSES, Solution  # noqa: E402

__all__ = ["solve", "solve_json", "solution_to_json", "Solution", "OBJECTIVES", "STATUSES"]
