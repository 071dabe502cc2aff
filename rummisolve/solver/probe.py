"""The solver's stages one at a time, for measuring them (``benchmarks/floor.py``, ``benchmarks/shortcut.py``).

:func:`rummisolve.solver.solve` is the way to solve; these expose its model and search so a
benchmark can time the search alone, the search given a perfect hint, and the bare model load.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ortools.sat.python import cp_model_helper as cmh

from rummisolve.position import Position
from rummisolve.solution import Objective
from rummisolve.solver._candidates import catalogue, model_catalogue
from rummisolve.solver._model import build_model
from rummisolve.solver._solve import (
    EAGER_FALLBACK_SETS,
    QUICK_EFFORT,
    run_cpsat,
    sat_parameters,
    search_efforts,
    solution_values,
    staged_search,
)

__all__ = ["SearchResult", "model_of", "search", "load", "shortcut_fires", "without_shortcut"]


@dataclass(frozen=True)
class SearchResult:
    """What CP-SAT returned: its status name, the objective value and every variable's value."""

    status: str
    objective_value: float
    values: tuple[int, ...]


@dataclass(frozen=True)
class Model:
    """The CP-SAT model of one position and objective, as :func:`rummisolve.solver.solve` builds it."""

    proto: cmh.CpModelProto
    eager: bool
    """Whether the fallback search loads the whole relaxation at once (small catalogues)."""
    efforts: tuple[float, float, int] | None = None
    """The search's budgets when not the defaults (grouped catalogues, strict table jokers)."""


def model_of(position: Position, objective: Objective | str) -> Model | None:
    """The model ``solve`` would search first; ``None`` when it answers without CP-SAT."""
    cat = model_catalogue(position.rules)
    built = build_model(position, cat, objective)
    if built is None:
        return None
    return Model(built.proto, len(cat.sets) <= EAGER_FALLBACK_SETS, search_efforts(cat, built))


def search(model: Model, hint: SearchResult | None = None) -> SearchResult:
    """The shipped staged search on ``model`` (seed 0, no time limit), optionally given a
    complete solution hint (what a perfect first guess would give)."""
    proto = model.proto
    if hint is not None:
        proto = cmh.CpModelProto()
        proto.copy_from(model.proto)
        proto.solution_hint.vars.extend(range(len(hint.values)))
        proto.solution_hint.values.extend(hint.values)
    return _result(staged_search(proto, 0, None, model.eager, efforts=model.efforts))


def load(model: Model) -> SearchResult:
    """CP-SAT stopped at once (a deterministic-time limit of ~0): loading the model, no search."""
    params = cmh.SatParameters()
    params.copy_from(sat_parameters(0, None, effort=model.efforts[0] if model.efforts else QUICK_EFFORT))
    params.max_deterministic_time = 1e-9
    return _result(run_cpsat(model.proto, params))


def _result(response: cmh.CpSolverResponse) -> SearchResult:
    return SearchResult(response.status.name, response.objective_value, tuple(solution_values(response)))


def shortcut_fires(position: Position) -> bool:
    """Whether :func:`rummisolve.solver.solve` answers ``position`` by its exact shortcut (no model)."""
    from rummisolve.solver._shortcut import lay_down_all

    return lay_down_all(position, catalogue(position.rules)) is not None


@contextmanager
def without_shortcut() -> Iterator[None]:
    """Within it, :func:`rummisolve.solver.solve` sends every position to the model (not thread-safe)."""
    from rummisolve.solver import _solve

    saved = _solve._SHORTCUTS
    _solve._SHORTCUTS = False
    try:
        yield
    finally:
        _solve._SHORTCUTS = saved
