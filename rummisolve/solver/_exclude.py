"""No-good rows: forbid the model a multiset of played rack tiles, so the next search finds the best
move that plays something else (the solver's alternatives).

A played multiset is a vector ``q`` over the rack's tile kinds and its jokers. Two ways to forbid
a multiset ``P``:

* *not contained* (``q`` is no sub-multiset of ``P``: the move plays a tile, or a further copy,
  that ``P`` does not): one Boolean per kind the rack holds more of than ``P``,
  ``gt[k] => q[k] >= P[k] + 1``, at least one true. When ``P`` holds the whole rack there is no
  such kind: no move is left (:func:`exclude_played` answers 0 ways and adds a row no solution
  meets);
* *distinct* (``q != P``): also ``lt[k] => q[k] <= P[k] - 1`` for each kind ``P`` plays, at
  least one of all of them true.

Either way only where the rack allows it. Where the table may be rearranged,
``q[k]`` is the final layer's ``p[k]`` and the jokers played are the layer's jokers less the
table's; in an official opening (the layer holds the new melds only) ``q[k]`` is the layer's
slots of kind ``k`` less its jokers standing for ``k``, and every joker of the layer is played.
"""

from __future__ import annotations

from collections import Counter

from ortools.sat.python import cp_model_helper as cmh

from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._groups import joker_vars
from rummisolve.solver._layout import PositionModel
from rummisolve.solver._protos import INF, group_tiles, linear
from rummisolve.solver._protos import protos as protos_for
from rummisolve.tiles import COLOUR_CHANGE_JOKER, DOUBLE_JOKER, MIRROR_JOKER, Tile

SPECIAL_ORDER = (DOUBLE_JOKER, COLOUR_CHANGE_JOKER, MIRROR_JOKER)

__all__ = ["exclude_played"]


def exclude_played(built: PositionModel, cat: Catalogue, played: tuple[Tile, ...], contained: bool = False) -> int:
    """Add to ``built.proto`` the rows that forbid playing exactly the multiset ``played`` (with
    ``contained``, also every sub-multiset of it); the number of ways left to differ (0: the rows
    forbid every move)."""
    proto = built.proto
    counts = built.counts
    n_kinds = len(cat.kinds)
    jokers_var = list(built.final.jks)
    by_kind = Counter(cat.kind_index[t] for t in played if not t.is_any_joker)
    twist = built.twist
    differences: list[tuple[list[int], list[int], int, int, int]] = []  # (vars, coeffs, value, least, most)
    for k, have in enumerate(counts.rack):
        if not have:
            continue
        if built.kept_by_rule:
            variables = [built.final.x(s) for s in cat.sets_by_kind[k]] + [jokers_var[k]]
            coeffs = [1] * len(cat.sets_by_kind[k]) + [-1]
            for var, slots in twist.kind_terms.get(k, []) if twist is not None else ():
                variables.append(var)
                coeffs.append(slots)
            if cat.grouped:  # + y[k]
                variables.append(built.final_offset + group_tiles(cat, k))
                coeffs.append(1)
        else:
            variables, coeffs = [built.p(k)], [1]
        differences.append((variables, coeffs, by_kind[k], 0, have))
    if counts.rack_jokers:
        table_jokers = 0 if built.kept_by_rule else counts.table_jokers
        played_jokers = sum(t.is_joker for t in played)
        variables, coeffs = list(jokers_var), [1] * n_kinds
        group_jokers = joker_vars(cat, built.final_offset)  # grouped: jokers in groups, new or kept
        variables += group_jokers
        coeffs += [1] * len(group_jokers)
        for keep in built.group_keep:
            if keep.jokers:
                variables.append(keep.var)
                coeffs.append(keep.jokers)
        for piece in twist.pieces if twist is not None else ():  # kept Twist melds' jokers are not in jk
            if piece.joker_anchors.get(-1):
                variables.append(piece.var)
                coeffs.append(piece.joker_anchors[-1])
        differences.append(
            (variables, coeffs, played_jokers + table_jokers, table_jokers, counts.rack_jokers + table_jokers)
        )
    if twist is not None:  # special jokers played (Twist)
        for i, tile in enumerate(SPECIAL_ORDER):
            have = twist.rack_specials[i]
            if not have:
                continue
            if built.kept_by_rule:
                terms = [(p.var, (p.doubles, p.changes, p.mirrors)[i]) for p in twist.pieces]
                terms = [(v, c) for v, c in terms if c]
            else:
                played_var = twist.played.get(i)
                terms = [] if played_var is None else [(played_var, 1)]
            if terms:
                count = sum(t is tile for t in played)
                differences.append(([v for v, _ in terms], [c for _, c in terms], count, 0, have))
    domain = protos_for(cat).domain(0, 1)
    literals: list[int] = []
    rows: list[cmh.ConstraintProto] = []
    for variables, coeffs, value, least, most in differences:
        for lo, hi in ((value + 1, INF),) if contained else ((-INF, value - 1), (value + 1, INF)):
            if hi < least or lo > most:  # the rack cannot differ this way
                continue
            literal = len(proto.variables) + len(literals)
            literals.append(literal)
            row = linear(variables, coeffs, lo, hi)
            row.enforcement_literal.append(literal)
            rows.append(row)
    proto.variables.extend([domain] * len(literals))
    rows.append(linear(literals, [1] * len(literals), 1, INF))
    proto.constraints.extend(rows)
    return len(literals)
