"""The move solver: candidate melds, the CP-SAT model, decoding. The only package that imports OR-Tools."""

from rummisolve.jsonio import solution_to_json
from rummisolve.solver.api import OBJECTIVES, solve, solve_json
from rummisolve.solver.solution import STATUSES, Solution

__all__ = ["solve", "solve_json", "solution_to_json", "Solution", "OBJECTIVES", "STATUSES"]
