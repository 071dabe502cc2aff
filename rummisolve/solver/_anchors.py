"""Anchors: real tiles that copies of some base sets must hold (no meld of jokers only; no run
that reads as a group), added to the model only for the sets a solution needed them for."""

from __future__ import annotations

from dataclasses import dataclass

from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._draft import ModelDraft, RuleExtension
from rummisolve.solver._layout import Layer, PositionModel
from rummisolve.solver._protos import INF, group_tiles, linear
from rummisolve.solver._protos import protos as protos_for
from rummisolve.solver._twist import TwistModel

__all__ = ["Anchors", "anchor_copies"]


def anchor_copies(
    built: PositionModel,
    cat: Catalogue,
    offset: int,
    real_available: list[int],
    sets: dict[int, int],
    variables: list,
    constraints: list,
    layer_twist: TwistModel | None = None,
) -> None:
    """Every copy of the given sets that is not a kept meld gets ``sets[s]`` real tiles of
    different kinds (one: no meld of jokers only; two: a run that cannot read as a group).
    ``layer_twist``: the Twist pieces of a layer other than the final one (the opening layer of
    ``open_then_manipulate``), whose slots and anchors share the layer's real tiles."""
    layer = Layer.of(cat, offset)
    protos = protos_for(cat)
    index = len(variables)
    kept_per_set: dict[int, list[tuple[int, int]]] = {}
    kept_real: dict[int, list[tuple[int, int]]] = {}
    final = offset == built.final_offset and not built.kept_by_rule
    if final:
        # x[s] counts every copy of s, or only the ones that are not kept melds (substituted)
        per_set = not built.substituted
        for s, (var, _) in built.simple_keep.items():
            if per_set or var == s:
                kept_per_set.setdefault(s, []).append((var, 1))
            for k in cat.sets[s].kinds:
                kept_real.setdefault(k, []).append((var, 1))
        for meld in built.complex_keep:
            for s in meld.sets if per_set else ():
                kept_per_set.setdefault(s, []).append((meld.var, 1))
            for k in meld.real_kinds:
                kept_real.setdefault(k, []).append((meld.var, 1))
        if cat.grouped:  # real tiles in groups, new (y) or kept, are not in runs either
            for k in range(len(cat.kinds)):
                kept_real.setdefault(k, []).append((group_tiles(cat, k), 1))
            for keep in built.group_keep:
                for k in set(keep.real_kinds):
                    kept_real[k].append((keep.var, keep.real_kinds.count(k)))
    supply: dict[int, list[int]] = {}
    for s in sorted(sets):
        base = cat.sets[s]
        if variables[layer.x(s)].domain[1] == 0:
            continue
        zs = []
        for k in base.kinds:
            if real_available[k]:
                variables.append(protos.domain(0, real_available[k]))
                built.anchors[(layer.x(s), k)] = index
                zs.append(index)
                supply.setdefault(k, []).append(index)
                index += 1
        kept = kept_per_set.get(s, [])
        need = sets[s]
        # sum_k z[s,k] = need * (x[s] - kept copies of s)
        vs = zs + [layer.x(s)] + [v for v, _ in kept]
        cs = [1] * len(zs) + [-need] + [need * c for _, c in kept]
        constraints.append(linear(vs, cs, 0, 0))
        if need > 1:  # one real tile per kind and copy: z[s,k] <= x[s] - kept copies
            for z in zs:
                vs = [z, layer.x(s)] + [v for v, _ in kept]
                constraints.append(linear(vs, [1, -1] + [c for _, c in kept], -INF, 0))
    twist = built.twist if offset == built.final_offset else layer_twist
    for k, zs in supply.items():
        kept = kept_real.get(k, [])
        if twist is not None:  # Twist pieces' anchored slots take real tiles of kind k too
            kept = kept + twist.anchor_terms.get(k, [])
            if not final:
                kept = kept + [(v, -c) for v, c in twist.kind_terms.get(k, [])]
        vs = zs + [v for v, _ in kept]
        cs = [1] * len(zs) + [c for _, c in kept]
        if final:
            # anchors + kept real slots <= real tiles of kind k = table[k] + p[k]
            constraints.append(linear(vs + [built.p(k)], cs + [-1], -INF, built.counts.table[k]))
        else:
            # anchors of kind k <= real tiles of kind k = u[k] - jk[k]
            holders = cat.sets_by_kind[k]
            vs += [layer.x(s) for s in holders] + [layer.jk(k)]
            constraints.append(linear(vs, cs + [-1] * len(holders) + [1], -INF, 0))


@dataclass(frozen=True, slots=True)
class Anchors(RuleExtension):
    """The anchors' extension: real tiles in the copies of ``sets`` of the layer at ``offset``
    (:func:`anchor_copies`)."""

    real_available: list[int]
    """Real tiles of each kind the layer may hold."""
    sets: dict[int, int]
    """Base set -> real tiles each copy must hold."""
    offset: int = 0
    twist: TwistModel | None = None
    """The Twist pieces of the layer at ``offset`` when it is not the final layer."""

    def add(self, draft: ModelDraft, built: PositionModel) -> None:
        """Add the anchors' variables and rows to ``draft``."""
        anchor_copies(
            built,
            draft.cat,
            self.offset,
            self.real_available,
            self.sets,
            draft.variables,
            draft.constraints,
            self.twist,
        )
