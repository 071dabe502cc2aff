"""The table melds kept exactly as they were, in the model of a table that may be rearranged."""

from __future__ import annotations

from dataclasses import dataclass

from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._draft import ModelDraft, RuleExtension
from rummisolve.solver._layout import PositionModel, Rows
from rummisolve.solver._protos import INF, extend_row, linear

__all__ = ["KeptMelds"]


@dataclass(frozen=True, slots=True)
class KeptMelds(RuleExtension):
    """Variables and constraints that count the table melds kept exactly as they were.

    With :attr:`substitute`, the kept melds are *substituted*: ``x[s]`` then counts only the copies
    of ``s`` that are not kept melds, and each keep variable joins the conservation rows of its
    melds' kinds (``u[k] = sum_s a[k,s] (x[s] + kept copies of s)``), so no ``kept <= x[s]`` rows
    are needed. Same optima, a smaller LP, a faster search (benchmarks/RESULTS.md). Without it
    (strict joker retrieval with table jokers, Twist: their rows read ``x[s]`` as every copy)
    ``x[s]`` counts every copy and the rows ``kc[s] + sum_m km[m] <= x[s]`` tie the keep
    variables to it."""

    ub: list[int]
    """Each base set's upper bound on copies in the final layer (0: unusable)."""
    substitute: bool
    """Substitute the keep variables into the conservation rows (not where strict retrieval with
    table jokers or Twist pieces read ``x[s]`` as every copy)."""

    def add(self, draft: ModelDraft, built: PositionModel) -> None:
        """Add the keep variables and their rows to ``draft``."""
        cat, ub, variables, constraints = draft.cat, self.ub, draft.variables, draft.constraints
        rows = draft.rows if self.substitute else None
        first = len(variables)
        by_shape: dict[int, list[int]] = {}
        for meld in built.counts.melds:
            if meld.is_group:
                built.group_melds.append(meld)
            elif len(meld.sets) == 1 and not meld.joker_kinds:
                by_shape.setdefault(meld.sets[0], []).append(meld.index)
            else:
                built.complex_keep.append(meld)
        protos = draft.protos
        # Where the table holds at least as many melds of shape s as the solution can use copies of s
        # (and no long run or joker meld takes a copy of s), every copy used can be one of those melds
        # kept as it was: kc[s] = x[s], so x[s] itself counts them (no variable, no row). Not under
        # strict joker retrieval with jokers on the table, whose melds for freed jokers take copies of
        # s beside the kept ones.
        in_complex = {s for meld in built.complex_keep for s in meld.sets}
        strict = cat.rules.joker_retrieval == "strict" and built.counts.table_jokers
        # kc[s] + sum_m mult(m, s) km[m] <= x[s]
        terms: dict[int, list[tuple[int, int]]] = {}
        index = first
        for s, melds in by_shape.items():
            if ub[s] <= len(melds) and s not in in_complex and not strict:
                built.simple_keep[s] = (s, melds)
                continue
            variables.append(protos.domain(0, min(len(melds), ub[s])))
            built.simple_keep[s] = (index, melds)
            terms.setdefault(s, []).append((index, 1))
            index += 1
        for meld in built.complex_keep:
            possible = all(ub[s] for s in meld.sets)
            variables.append(protos.domain(0, 1 if possible else 0))
            meld.var = index
            for s in meld.sets:
                terms.setdefault(s, []).append((index, 1))
            index += 1
        built.keep_terms = terms
        if rows is None or not _substitute_kept(built, cat, terms, rows, constraints):
            for s, items in terms.items():
                if len(items) == 1:
                    var = items[0][0]
                    constraints.append(protos.cachedlinear(("keep", var, s), [var, s], [1, -1], -INF, 0))
                else:
                    merged: dict[int, int] = {}
                    for var, coeff in items:
                        merged[var] = merged.get(var, 0) + coeff
                    constraints.append(linear(list(merged) + [s], list(merged.values()) + [-1], -INF, 0))
        # Jokers of kept melds keep standing where they stood: sum_m km[m] jokers(m, k) <= jk[k].
        joker_terms: dict[int, dict[int, int]] = {}
        for meld in built.complex_keep:
            for k in meld.joker_kinds:
                row = joker_terms.setdefault(k, {})
                row[meld.var] = row.get(meld.var, 0) + 1
        for k, row in joker_terms.items():
            constraints.append(linear(list(row) + [built.final.jk(k)], list(row.values()) + [-1], -INF, 0))


def _substitute_kept(
    built: PositionModel, cat: Catalogue, terms: dict[int, list[tuple[int, int]]], rows: Rows, constraints: list
) -> bool:
    """Each keep variable into the conservation rows of its kinds (see :class:`KeptMelds`); ``False``
    (nothing changed) when a kind of a kept meld has no conservation row to take it."""
    by_kind: dict[int, dict[int, int]] = {}
    sets = cat.sets
    for s, items in terms.items():
        for k in sets[s].kinds:
            row = by_kind.get(k)
            if row is None:
                row = by_kind[k] = {}
            for var, coeff in items:
                row[var] = row.get(var, 0) + coeff
    if any(k not in rows.kind for k in by_kind):
        return False
    for k, row in by_kind.items():
        extend_row(constraints, rows.kind[k], list(row.items()))
    built.substituted = True
    return True
