"""The move solver: the only package that imports OR-Tools.

Its public face is :func:`solve` (with :class:`StopSignal`, to stop a solve from another
thread) and :class:`TableSolver` / :func:`solve_racks` (many racks against one table); every
module inside is private except :mod:`~rummisolve.solver.probe`, which runs the solver's stages
one at a time for benchmarks. What the solver accepts
(jokers in play, objectives, time limits) can be checked without OR-Tools through
:mod:`rummisolve.solver_limits`; the result type is :class:`rummisolve.solution.Solution`.
"""

from rummisolve.solver._ortools import require_ortools

require_ortools()

from rummisolve.solution import Objective, Solution, Status  # noqa: E402
from rummisolve.solver._solve import solve  # noqa: E402 (after the version check)
from rummisolve.solver._stop import StopSignal  # noqa: E402
from rummisolve.solver._table import TableSolver, solve_racks  # noqa: E402

__all__ = ["solve", "TableSolver", "solve_racks", "StopSignal", "Solution", "Objective", "Status"]
