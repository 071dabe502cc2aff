"""The solver's stages one at a time, for measuring them (``benchmarks/floor.py``, ``benchmarks/shortcut.py``,
``benchmarks/twist_hint.py``).

:func:`rummisolve.solver.solve` is the way to solve; these expose its model and search so a
benchmark can time the search alone, the search given a perfect hint, and the bare model load,
and :func:`solve_variant` solves with another :class:`ModelVariant` (no shortcut, or the keep
rows in place of the substitution) for the tests and benchmarks that compare them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model_helper as cmh

from rummisolve.position import Position
from rummisolve.solution import AlternativesMode, Objective, Solution
from rummisolve.solver._candidates import catalogue, model_catalogue
from rummisolve.solver._cpsat import run_cpsat, sat_parameters, solution_values
from rummisolve.solver._model import build_model
from rummisolve.solver._solve import (
    EAGER_FALLBACK_SETS,
    QUICK_EFFORT,
    check_options,
    search_efforts,
    solve_checked,
    staged_search,
)
from rummisolve.solver._stop import StopSignal
from rummisolve.solver._twist_heuristic import moving_pieces, standard_move, standard_search
from rummisolve.solver._variant import SHIPPED, ModelVariant
from rummisolve.solver_limits import check_alternatives_mode, check_objective

__all__ = [
    "ModelVariant",
    "SHIPPED",
    "SearchResult",
    "model_of",
    "search",
    "load",
    "heuristic",
    "heuristic_move",
    "shortcut_fires",
    "solve_variant",
]


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
    """The search's budgets when not the defaults (grouped catalogues, strict table jokers, Twist)."""
    widening: bool = False
    """Whether the target searches widen (Twist, :func:`~rummisolve.solver._solve.staged_search`)."""
    weight: int = 1
    """The objective's weight of the primary term (:mod:`~rummisolve.solver._objective`)."""
    moving: tuple[int, ...] = ()
    """Variables of the Twist pieces that move a special joker (:mod:`~rummisolve.solver._twist_heuristic`)."""


def model_of(position: Position, objective: Objective | str) -> Model | None:
    """The model ``solve`` would search first; ``None`` when it answers without CP-SAT."""
    cat = model_catalogue(position.rules)
    built = build_model(position, cat, objective)
    if built is None:
        return None
    eager = len(cat.sets) <= EAGER_FALLBACK_SETS
    return Model(built.proto, eager, search_efforts(cat, built), built.widens, built.weight, moving_pieces(built))


def search(model: Model, hint: SearchResult | None = None, upper: int | None = None) -> SearchResult:
    """The shipped staged search on ``model`` (seed 0, no time limit), optionally given a
    complete solution hint (what a perfect first guess would give) and an objective value some
    solution reaches (``upper``, a primal heuristic's bound)."""
    proto = model.proto
    if hint is not None:
        proto = cmh.CpModelProto()
        proto.copy_from(model.proto)
        proto.solution_hint.vars.extend(range(len(hint.values)))
        proto.solution_hint.values.extend(hint.values)
    return _result(
        staged_search(proto, 0, None, model.eager, efforts=model.efforts, widening=model.widening, upper=upper)
    )


def heuristic(model: Model) -> SearchResult | None:
    """The Twist primal heuristic on ``model`` (:mod:`~rummisolve.solver._twist_heuristic`): the
    best solution that moves no special joker, a complete assignment (status ``FEASIBLE``: never
    a proof), or ``None`` when it plays nothing."""
    found = standard_search(model.proto, model.moving, model.eager)
    if found is None:
        return None
    values, value = found
    return SearchResult("FEASIBLE", value, values)


def heuristic_move(position: Position, objective: Objective | str = Objective.TILES) -> Solution:
    """The Twist primal heuristic's move for ``position``, refereed: ``feasible``, or the empty
    move (``unknown``) where it plays nothing."""
    if not isinstance(position, Position):
        raise TypeError(f"position must be a Position, not {type(position).__name__}")
    return standard_move(position, model_catalogue(position.rules), check_objective(objective))


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


def solve_variant(
    position: Position,
    objective: Objective | str = Objective.TILES,
    variant: ModelVariant = SHIPPED,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    alternatives: int = 0,
    alternatives_mode: AlternativesMode | str = AlternativesMode.NOT_CONTAINED,
    stop: StopSignal | None = None,
) -> Solution:
    """:func:`rummisolve.solver.solve` with the model built and searched as ``variant`` says (the
    options are :func:`~rummisolve.solver.solve`'s); every answer is refereed as there."""
    if not isinstance(position, Position):
        raise TypeError(f"position must be a Position, not {type(position).__name__}")
    if not isinstance(variant, ModelVariant):
        raise TypeError(f"variant must be a ModelVariant, not {type(variant).__name__}")
    checked, limit = check_options(objective, time_limit, seed, alternatives, stop)
    mode = check_alternatives_mode(alternatives_mode)
    wanted = (alternatives, mode)
    return solve_checked(position, catalogue(position.rules), checked, limit, seed, wanted, stop, variant=variant)
