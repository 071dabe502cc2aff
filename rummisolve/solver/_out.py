"""Whether a rack goes out: a legal move plays every rack tile (all but one under the discard rule).

The answer is what ``solve(position, "tiles")`` says (its move plays that many tiles), found with
less work:

1. A rack tile whose kind lies in no *usable* base set (one the tiles and jokers available can
   fill; under a grouped catalogue, 6 colours on, no usable run and no group) is never played by the model (:mod:`~rummisolve.solver._model`); more such tiles (and
   rack jokers the player may not play) than may stay on the rack settle "no" before any model.
2. Else the same model as :func:`~rummisolve.solver.solve`'s (objective ``tiles``), with its
   objective ``-(weight * (tiles played + offset) + melds kept)`` capped at ``-weight * (need +
   offset)`` (melds kept stay below ``weight``, so exactly the moves that play ``need`` tiles or
   more remain; :func:`~rummisolve.solver._objective.primary_offset`), searched for any
   solution, not the best one: "infeasible" proves "no"; a solution is laid out (anchoring sets
   as the solver does when a layout needs it) and refereed, then "yes".
"""

from __future__ import annotations

from ortools.sat.python import cp_model_helper as cmh

from rummisolve.errors import InternalError, RuleSetError
from rummisolve.position import Position
from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._cpsat import CP_FEASIBLE, CP_INFEASIBLE, CP_OPTIMAL, run_cpsat, sat_parameters, solution_values
from rummisolve.solver._decode import NeedAnchors, decode
from rummisolve.solver._layout import Counts, TableCounts, count_position
from rummisolve.solver._model import build_model
from rummisolve.solver._objective import primary_offset
from rummisolve.solver._protos import INF, protos
from rummisolve.solver._solve import QUICK_EFFORT, referee_accepts
from rummisolve.solver_limits import unsupported_position

__all__ = ["goes_out", "counted_out"]


def goes_out(position: Position, cat: Catalogue, table: TableCounts | None = None, seed: int = 0) -> bool:
    """Whether ``len(solve(position, "tiles").played)`` reaches the rack size (less one under the
    discard rule); ``False`` when there is no move. See the module docstring."""
    unsupported = unsupported_position(position)
    if unsupported is not None:
        raise RuleSetError(unsupported)
    rules = position.rules
    need = len(position.rack) - (1 if rules.discard else 0)
    if need < 1:
        return False
    counts = count_position(position, cat, table)
    if _settled_no(position, cat, counts, need):
        return False
    anchored: dict[int, int] = {}
    params = _feasibility(seed)
    while True:
        built = build_model(position, cat, "tiles", anchored, table)
        if built is None:
            return False
        objective = built.proto.objective
        objective.domain.extend([-INF, -built.weight * (need + primary_offset(built))])
        response = run_cpsat(built.proto, params)
        if response.status == CP_INFEASIBLE:
            return False
        if response.status not in (CP_OPTIMAL, CP_FEASIBLE):
            raise InternalError(
                f"the go-out search ended {response.status.name} without a time limit: please report this bug"
            )
        try:
            played, new_table, _ = decode(position, cat, built, solution_values(response), anchored)
        except NeedAnchors as more:
            anchored = {s: max(anchored.get(s, 0), n) for s, n in {**anchored, **more.sets}.items()}
            continue
        break
    if len(played) < need:
        raise InternalError(f"the go-out search played {len(played)} of {need} tiles: please report this bug")
    referee_accepts(position, new_table)
    return True


def counted_out(position: Position, cat: Catalogue, table: TableCounts | None = None) -> bool:
    """Whether the first step of :func:`goes_out` (counting, no model) proves the rack does not
    go out: ``True`` is a proven "no"; ``False`` leaves it open."""
    unsupported = unsupported_position(position)
    if unsupported is not None:
        raise RuleSetError(unsupported)
    need = len(position.rack) - (1 if position.rules.discard else 0)
    return need < 1 or _settled_no(position, cat, count_position(position, cat, table), need)


def _settled_no(position: Position, cat: Catalogue, counts: Counts, need: int) -> bool:
    """More tiles the model can never play than may stay on the rack (step 1)."""
    return not counts.has_twist and _unplayable(position, cat, counts) > len(position.rack) - need


def _unplayable(position: Position, cat: Catalogue, counts: Counts) -> int:
    """Rack tiles the model can never play: tiles of kinds in no usable base set (of a grouped
    catalogue: in no usable run and no group the tiles and jokers available can make), and rack
    jokers when the player may not play jokers (opening without them)."""
    rules = position.rules
    opening = not position.opened
    playable_jokers = 0 if opening and not rules.joker_in_initial_meld else counts.rack_jokers
    if opening and not rules.open_then_manipulate:
        available, jokers = counts.rack, playable_jokers
    else:
        available = [t + r for t, r in zip(counts.table, counts.rack)]
        jokers = counts.table_jokers + playable_jokers
    shared = protos(cat)
    bounds = shared.copy_bounds(jokers)
    ub = [bounds[slots(available)] for slots in shared.slot_counts]
    unfit = counts.rack_jokers - playable_jokers
    top, m = rules.numbers, rules.min_meld_length
    for k, n in enumerate(counts.rack):
        if n:
            sets = shared.sets_of_kind[k]
            if sets is not None and any(sets(ub)):
                continue
            # A grouped catalogue lists runs only: kind k (on the rack, so present) fits a group
            # when its number's colours present, with the jokers, make at least m.
            if cat.grouped and sum(1 for have in available[k % top :: top] if have) + jokers >= m:
                continue
            unfit += n
    return unfit


_PARAMETERS: dict[int, cmh.SatParameters] = {}


def _feasibility(seed: int) -> cmh.SatParameters:
    """The quick stage's parameters, without its work cap, stopping at the first solution."""
    found = _PARAMETERS.get(seed)
    if found is None:
        found = cmh.SatParameters()
        found.copy_from(sat_parameters(seed, None, effort=QUICK_EFFORT))
        found.clear_max_deterministic_time()
        found.stop_after_first_solution = True
        if len(_PARAMETERS) < 64:
            _PARAMETERS[seed] = found
    return found
