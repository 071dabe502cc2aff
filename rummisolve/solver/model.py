"""The CP-SAT model of one position.

Variables (names as in DESIGN.md's formulation notes):

- ``x[s]``: copies of base set ``s`` on the final table;
- ``keep[m]``: table meld ``m`` stays exactly as it was (it then holds its own tiles, jokers included);
- ``p[k]``: rack tiles of kind ``k`` played; ``pj``: rack jokers played;
- ``jk[k]``: jokers standing for kind ``k`` inside base sets.

Tile conservation per kind: ``sum_s a[k,s] x[s] + sum_m keep[m] n[m,k] = table[k] + p[k] + jk[k]``, and
for jokers ``sum_k jk[k] + sum_m keep[m] jokers[m] = table jokers + pj``. When enough jokers are in
play to fill a whole set, every set copy is *anchored* to one real tile (``z[s,k]``), which rules out
melds made of jokers only. The objective is lexicographic through weights: the primary objective
(tiles or points), then the number of table melds kept unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from rummisolve.position import Position
from rummisolve.solver.candidates import Catalogue

__all__ = ["PositionModel", "build_model"]


@dataclass
class Layer:
    """One arrangement of base sets (the final table, or the opening melds)."""

    sets: list[int]
    x: list[cp_model.IntVar]
    jk: dict[int, cp_model.IntVar]
    anchors: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    """``z[s,k]``: copies of set ``s`` anchored by a real tile of kind ``k`` (only when jokers could fill a set)."""
    anchor_supply: dict[int, list[cp_model.IntVar]] = field(default_factory=dict)


@dataclass
class PositionModel:
    """A built model and the handles needed to read a solution back."""

    model: cp_model.CpModel
    final: Layer
    keep: list[cp_model.IntVar | None]
    """One per table meld; ``None`` where the meld is kept by rule (opening leaves the table alone)."""
    p: dict[int, cp_model.IntVar]
    pj: cp_model.IntVar | int
    primary_weight: int


def build_model(position: Position, cat: Catalogue, objective: str) -> PositionModel | None:
    """Build the model for ``position``; ``None`` when no legal move can exist (cheap exits)."""
    rules = position.rules
    n_kinds = len(cat.kinds)
    table = [0] * n_kinds
    rack = [0] * n_kinds
    table_jokers = rack_jokers = 0
    meld_counts: list[dict[int, int]] = []
    meld_jokers: list[int] = []
    for meld in position.table:
        counts: dict[int, int] = {}
        jokers = 0
        for tile in meld.tiles:
            if tile.colour is None:
                jokers += 1
            else:
                k = cat.kind_of(tile)
                counts[k] = counts.get(k, 0) + 1
                table[k] += 1
        table_jokers += jokers
        meld_counts.append(counts)
        meld_jokers.append(jokers)
    for tile in position.rack:
        if tile.colour is None:
            rack_jokers += 1
        else:
            rack[cat.kind_of(tile)] += 1
    if not position.rack:
        return None

    model = cp_model.CpModel()
    opening = not position.opened
    if opening and not rules.joker_in_initial_meld:
        opening_jokers = 0
    else:
        opening_jokers = rack_jokers

    p = {k: model.new_int_var(0, rack[k], f"p{k}") for k in range(n_kinds) if rack[k]}
    pj: cp_model.IntVar | int = model.new_int_var(0, rack_jokers, "pj") if rack_jokers else 0
    if opening and not rules.open_then_manipulate:
        # Official opening: new melds from rack tiles only; the table is not touched.
        if not rules.joker_in_initial_meld:
            pj = 0
        layer = _layer(model, cat, rack, opening_jokers, "o")
        if layer is None:
            return None
        _conserve(model, cat, layer, p, pj, rack, [0] * n_kinds, 0, [], [], [])
        _threshold(model, cat, layer, rules.initial_threshold)
        keep: list[cp_model.IntVar | None] = [None] * len(position.table)
    else:
        available = [t + r for t, r in zip(table, rack)]
        layer = _layer(model, cat, available, table_jokers + rack_jokers, "f")
        if layer is None:
            return None
        keep = [model.new_bool_var(f"keep{i}") for i in range(len(position.table))]
        _conserve(model, cat, layer, p, pj, table, table, table_jokers, keep, meld_counts, meld_jokers)
        if opening:
            # Open, then manipulate: some of the played rack tiles form new melds worth the threshold.
            opening_layer = _layer(model, cat, rack, opening_jokers, "o")
            if opening_layer is None:
                return None
            p0 = {k: model.new_int_var(0, rack[k], f"p0_{k}") for k in p}
            pj0 = model.new_int_var(0, opening_jokers, "pj0") if opening_jokers else 0
            _conserve(model, cat, opening_layer, p0, pj0, rack, [0] * n_kinds, 0, [], [], [])
            _threshold(model, cat, opening_layer, rules.initial_threshold)
            for k, var in p0.items():
                model.add(var <= p[k])
            if opening_jokers:
                model.add(pj0 <= pj)

    played_terms = list(p.values()) + ([pj] if rack_jokers and not isinstance(pj, int) else [])
    if not played_terms:
        return None
    model.add(sum(played_terms) >= 1)

    if objective == "value":
        primary = cp_model.LinearExpr.weighted_sum(
            [p[k] for k in p] + ([pj] if not isinstance(pj, int) else []),
            [cat.numbers[k] for k in p] + ([rules.joker_penalty] if not isinstance(pj, int) else []),
        )
    else:
        primary = sum(played_terms)
    kept = [var for var in keep if var is not None]
    weight = len(kept) + 1
    model.maximize(primary * weight + sum(kept) if kept else primary)
    return PositionModel(model, layer, keep, p, pj, weight)


def _layer(model: cp_model.CpModel, cat: Catalogue, available: list[int], jokers: int, tag: str) -> Layer | None:
    """Variables for the base sets that the available tiles (plus ``jokers``) could build."""
    sets = []
    bounds = []
    for index, base in enumerate(cat.sets):
        missing = 0
        smallest = None
        for k in base.kinds:
            count = available[k]
            if count == 0:
                missing += 1
            if smallest is None or count < smallest:
                smallest = count
        if missing > jokers or missing == len(base.kinds):
            continue
        sets.append(index)
        bounds.append(smallest + jokers)
    if not sets:
        return None
    x = [model.new_int_var(0, bound, f"{tag}x{s}") for s, bound in zip(sets, bounds)]
    kinds_used = sorted({k for s in sets for k in cat.sets[s].kinds})
    jk = {k: model.new_int_var(0, jokers, f"{tag}j{k}") for k in kinds_used} if jokers else {}
    layer = Layer(sets, x, jk)
    if jokers >= cat.rules.min_meld_length:
        _anchor(model, cat, layer, available, tag)
    return layer


def _anchor(model: cp_model.CpModel, cat: Catalogue, layer: Layer, real: list[int], tag: str) -> None:
    """Give every set copy one real tile, so no meld is made of jokers only."""
    for s, x in zip(layer.sets, layer.x):
        zs = []
        for k in cat.sets[s].kinds:
            if real[k]:
                z = model.new_int_var(0, real[k], f"{tag}z{s}_{k}")
                layer.anchors[(s, k)] = z
                zs.append(z)
                layer.anchor_supply.setdefault(k, []).append(z)
        model.add(sum(zs) == x)


def _conserve(
    model: cp_model.CpModel,
    cat: Catalogue,
    layer: Layer,
    p: dict[int, cp_model.IntVar],
    pj: cp_model.IntVar | int,
    rack: list[int],
    table: list[int],
    table_jokers: int,
    keep: list,
    meld_counts: list[dict[int, int]],
    meld_jokers: list[int],
) -> None:
    """Tile conservation: what the layer's sets and kept melds hold equals what is available to them."""
    uses: dict[int, list] = {}
    for s, x in zip(layer.sets, layer.x):
        for k in cat.sets[s].kinds:
            uses.setdefault(k, []).append(x)
    kept_uses: dict[int, list] = {}
    for var, counts in zip(keep, meld_counts):
        for k, n in counts.items():
            kept_uses.setdefault(k, []).append(var * n if n != 1 else var)
    kinds = set(uses) | set(kept_uses) | set(p) | {k for k, n in enumerate(table) if n}
    for k in kinds:
        left = sum(uses.get(k, [])) + sum(kept_uses.get(k, []))
        right = table[k] + (p[k] if k in p else 0) + (layer.jk[k] if k in layer.jk else 0)
        model.add(left == right)
    joker_left = sum(layer.jk.values()) + sum(var * n for var, n in zip(keep, meld_jokers) if n)
    model.add(joker_left == table_jokers + pj)
    for k, zs in layer.anchor_supply.items():
        # Anchors are real tiles not held by kept melds.
        model.add(sum(zs) + sum(kept_uses.get(k, [])) <= table[k] + (p[k] if k in p else 0))


def _threshold(model: cp_model.CpModel, cat: Catalogue, layer: Layer, threshold: int) -> None:
    if threshold > 0:
        values = [cat.sets[s].value for s in layer.sets]
        model.add(cp_model.LinearExpr.weighted_sum(layer.x, values) >= threshold)
