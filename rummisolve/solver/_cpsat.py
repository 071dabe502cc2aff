"""CP-SAT itself: its statuses, the parameters of one search, one run, and its answer read back."""

from __future__ import annotations

import json

from ortools.sat.python import cp_model_helper as cmh

from rummisolve.solver._stop import StopSignal

__all__ = [
    "CP_FEASIBLE",
    "CP_INFEASIBLE",
    "CP_OPTIMAL",
    "PROVEN",
    "run_cpsat",
    "sat_parameters",
    "solution_values",
]

CP_OPTIMAL = cmh.CpSolverStatus.OPTIMAL
CP_FEASIBLE = cmh.CpSolverStatus.FEASIBLE
CP_INFEASIBLE = cmh.CpSolverStatus.INFEASIBLE
PROVEN = (CP_OPTIMAL, CP_INFEASIBLE)
_PARAMETERS: dict[tuple[int, float | None, float | None, bool, bool, float | None], cmh.SatParameters] = {}
_CACHED_LIMITS = 64
_CUTS = ("add_cg_cuts", "add_mir_cuts", "add_zero_half_cuts", "add_clique_cuts", "add_rlt_cuts", "add_lin_max_cuts")


def sat_parameters(
    seed: int,
    limit: float | None,
    effort: float | None = None,
    eager: bool = False,
    cuts: bool = False,
    work: float | None = None,
) -> cmh.SatParameters:
    """One worker and a fixed seed: deterministic answers (small models gain nothing from more).

    Presolve, probing, SAT inprocessing and symmetry detection are off: on game positions they
    cost more than they save (benchmarks/RESULTS.md). The quick stage puts the whole linear
    relaxation into the LP at once (not lazily), adds no cuts and stops after
    :data:`~rummisolve.solver._solve.QUICK_EFFORT`. The full stage keeps CP-SAT's cuts; it loads the LP eagerly only when
    ``eager`` (models of up to :data:`~rummisolve.solver._solve.EAGER_FALLBACK_SETS` candidate sets): on small models that
    is faster, on very large ones an eager relaxation with root cuts overruns time limits.

    With ``cuts`` a search capped by ``effort`` keeps CP-SAT's cuts (Twist's target stage).
    ``work``: a cap on the full stage's deterministic time that changes nothing else (a caller's
    load-independent work cap, :func:`~rummisolve.solver._solve.staged_search`).

    CP-SAT's own Ctrl-C handler is off: with it, every solve left SIGINT at the system default,
    so a later Ctrl-C killed the host program (the CLI, a server, a notebook) outright instead
    of raising ``KeyboardInterrupt`` and running its clean-up."""
    key = (seed, limit, effort, eager, cuts, work)
    params = _PARAMETERS.get(key)
    if params is None:
        params = cmh.SatParameters()
        params.num_workers = 1
        params.random_seed = seed
        params.cp_model_presolve = False
        params.cp_model_probing_level = 0
        params.use_sat_inprocessing = False
        params.symmetry_level = 0
        params.catch_sigint_signal = False
        if effort is not None or eager:
            params.add_lp_constraints_lazily = False
        if effort is not None and not cuts:
            for name in _CUTS:
                setattr(params, name, False)
        if effort is not None:
            params.max_deterministic_time = effort
        elif work is not None:
            params.max_deterministic_time = work
        if limit is not None:
            params.max_time_in_seconds = limit
        if len(_PARAMETERS) < _CACHED_LIMITS:
            _PARAMETERS[key] = params
    return params


def solution_values(response: cmh.CpSolverResponse) -> list[int]:
    """The response's variable values as a list.

    Read from the field's printed form: ``list()`` over the wrapped repeated field makes one
    call per element (several times slower on game positions). Falls back to ``list()`` whenever the
    printed form is not exactly the list of values."""
    values = response.solution
    try:
        parsed = _INTEGERS.decode(str(values))
    except ValueError:
        parsed = None
    if type(parsed) is not list or len(parsed) != len(values):
        return list(values)
    return parsed


def _not_an_integer(text: str) -> None:
    raise ValueError(f"not an integer: {text}")


_INTEGERS = json.JSONDecoder(parse_float=_not_an_integer, parse_constant=_not_an_integer)


def run_cpsat(
    proto: cmh.CpModelProto, params: cmh.SatParameters, stop: StopSignal | None = None
) -> cmh.CpSolverResponse:
    """One CP-SAT search; a ``stop`` set before or during it ends it at once (status UNKNOWN or FEASIBLE)."""
    wrapper = cmh.SolveWrapper()
    wrapper.set_parameters(params)
    if stop is None:
        return wrapper.solve(proto)
    with stop.calling(wrapper.stop_search):
        return wrapper.solve(proto)
