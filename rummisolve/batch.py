"""Many positions at once: :func:`solve_many`, and :func:`ordered_map`, a process pool that keeps
the input order (the CLI's ``solve --workers`` uses it too).

One CP-SAT solve uses one core, so a batch gains by solving on every core; each worker process
loads OR-Tools once and then takes position after position. Answers are the same as one by one.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from itertools import islice
from typing import Any, TypeVar

from rummisolve.errors import OptionError, UnavailableError
from rummisolve.position import Position
from rummisolve.solution import Objective, Solution

__all__ = ["solve_many", "ordered_map", "process_pool", "NO_MAIN_GUARD"]

T = TypeVar("T")
R = TypeVar("R")

NO_MAIN_GUARD = (
    "a script that solves or plays with several worker processes must do so under "
    "'if __name__ == \"__main__\":' (each worker process imports the script), or use one worker"
)


def solve_many(
    positions: Iterable[Position],
    objective: Objective | str = Objective.TILES,
    time_limit: float | None = None,
    *,
    workers: int | None = None,
    alternatives: int = 0,
) -> list[Solution]:
    """:func:`rummisolve.solve` on every position, in ``workers`` processes (default: one per
    core); the solutions come back in input order. ``time_limit`` applies to each solve."""
    from rummisolve.solver_limits import check_objective, check_time_limit

    objective = check_objective(objective)
    check_time_limit(time_limit)
    workers = _workers(workers)
    jobs = ((position, objective, time_limit, alternatives) for position in positions)
    return list(ordered_map(_solve, jobs, workers))


def _solve(job: tuple[Position, Objective, float | None, int]) -> Solution:
    from rummisolve.solver import solve

    position, objective, time_limit, alternatives = job
    return solve(position, objective, time_limit, alternatives=alternatives)


def _workers(workers: int | None) -> int:
    if workers is None:
        return os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise OptionError(f"workers must be a whole number of at least 1, not {workers!r}")
    return workers


def ordered_map(function: Callable[[T], R], items: Iterable[T], workers: int, chunk: int = 32) -> Iterator[R]:
    """``function`` over ``items`` in ``workers`` processes, yielding results in input order.

    Items go to the workers in chunks of ``chunk``, with at most two chunks per worker in flight,
    so a long input is never read far ahead. With one worker, everything runs here, in order.
    ``function`` must be importable by name (a module-level function)."""
    if workers <= 1:
        yield from map(function, items)
        return
    items = iter(items)
    with process_pool(workers) as pool:
        pending: deque = deque()
        while batch := list(islice(items, chunk)):
            pending.append(pool.submit(_apply, function, batch))
            if len(pending) >= 2 * workers:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


def _apply(function: Callable[[Any], Any], batch: list[Any]) -> list[Any]:
    return [function(item) for item in batch]


@contextmanager
def process_pool(workers: int) -> Iterator[Executor]:
    """A pool of ``workers`` processes (forkserver where there is one), that fails at once with
    the reason when its processes cannot start."""
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        # A worker process is importing the caller's script, which starts a pool again at import
        # time: say why once and stop, instead of a traceback per worker, forever.
        raise SystemExit(f"rummisolve: {NO_MAIN_GUARD}")
    context = multiprocessing.get_context("forkserver" if os.name != "nt" else "spawn")
    if os.name != "nt":
        # The fork server loads the solver (and OR-Tools) once; every worker forks from it ready.
        context.set_forkserver_preload(["rummisolve.solver"])
    try:
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            yield pool
    except BrokenProcessPool:
        raise UnavailableError(f"the worker processes could not start: {NO_MAIN_GUARD}") from None
