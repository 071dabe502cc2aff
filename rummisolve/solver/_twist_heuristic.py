"""A primal heuristic for Twist: the best move that moves no special joker (issue 52).

The position's own model with every Twist piece fixed to 0 but the table's melds with special
jokers kept exactly as they were (``kept`` pieces): the standard-rules optimum around the Twist
melds as they stand, the rack's special jokers left on the rack. Its answer is a legal move (the
empty move where the model demands a tile and none can be played without a special joker) and
a complete assignment of the full model's variables, so CP-SAT may take it as a hint and its
value as a bound (:func:`~rummisolve.solver._solve.staged_search`'s ``upper``). It is never a
proof: the full model may do better by moving special jokers.

Measured (``python -m benchmarks.twist_hint``, ``benchmarks/RESULTS.md``): it does not pay, so
:func:`~rummisolve.solver.solve` does not use it; :mod:`~rummisolve.solver.probe` exposes it.
"""

from __future__ import annotations

from ortools.sat.python import cp_model_helper as cmh

from rummisolve.position import Position
from rummisolve.solution import Objective, Solution, Status
from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._cpsat import CP_FEASIBLE, CP_OPTIMAL, solution_values
from rummisolve.solver._decode import NeedAnchors, decode
from rummisolve.solver._layout import PositionModel
from rummisolve.solver._model import build_model
from rummisolve.solver._solve import EAGER_FALLBACK_SETS, referee_accepts, staged_search

__all__ = ["moving_pieces", "restricted", "standard_search", "standard_move"]


def moving_pieces(built: PositionModel) -> tuple[int, ...]:
    """The variables of the pieces that move a special joker (all but the table's kept melds)."""
    if built.twist is None:
        return ()
    return tuple(piece.var for piece in built.twist.pieces if piece.shape != "kept")


def restricted(proto: cmh.CpModelProto, fixed: tuple[int, ...]) -> cmh.CpModelProto:
    """A copy of ``proto`` with the variables ``fixed`` pinned to 0."""
    copy = cmh.CpModelProto()
    copy.copy_from(proto)
    for var in fixed:
        domain = copy.variables[var].domain
        domain.clear()
        domain.extend([0, 0])
    return copy


def standard_search(
    proto: cmh.CpModelProto, moving: tuple[int, ...], eager: bool, seed: int = 0
) -> tuple[tuple[int, ...], int] | None:
    """The heuristic on a model: a complete solution of ``proto`` that moves no special joker
    (``moving``: :func:`moving_pieces`) and its objective value, or ``None`` when every such
    solution plays nothing (the model demands a tile played). The standard staged search
    (``eager``: its fallback's), no time limit."""
    response = staged_search(restricted(proto, moving), seed, None, eager)
    if response.status not in (CP_OPTIMAL, CP_FEASIBLE):
        return None
    return tuple(solution_values(response)), round(response.objective_value)


def standard_move(position: Position, cat: Catalogue, objective: Objective, seed: int = 0) -> Solution:
    """The heuristic's move, decoded and refereed: ``feasible`` (never claimed optimal), or the
    empty move (the table as it stands) with status ``unknown``."""
    anchored: dict[int, int] = {}
    while True:
        built = build_model(position, cat, objective, anchored)
        eager = len(cat.sets) <= EAGER_FALLBACK_SETS
        found = None if built is None else standard_search(built.proto, moving_pieces(built), eager, seed)
        if built is None or found is None:
            kept = tuple(range(len(position.table)))
            return Solution(Status.UNKNOWN, (), position.table, 0, objective, position, kept)
        try:
            played, table, kept = decode(position, cat, built, found[0], anchored)
        except NeedAnchors as need:
            anchored = {s: max(anchored.get(s, 0), n) for s, n in {**anchored, **need.sets}.items()}
            continue
        referee_accepts(position, table)
        value = position.rules.rack_value(played)
        return Solution(Status.FEASIBLE, played, table, value, objective, position, kept)
