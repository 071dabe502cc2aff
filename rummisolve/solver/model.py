"""The CP-SAT model of one position, written straight into a ``CpModelProto``.

Variables, per *layer* (an arrangement of base sets; the final table, and for
``open_then_manipulate`` also the opening melds), at fixed indices so that most of the model's
pieces can be built once per rule set and reused:

- ``x[s]`` (``s`` < S): copies of base set ``s``; unusable sets are fixed to 0;
- ``jk[k]`` (S + ``k``): jokers standing for kind ``k``.

Per position, after the layers:

- ``kc[s]``: how many of the table's joker-free melds with the shape of base set ``s`` stay as they were;
- ``km[m]``: whether table meld ``m`` (a long run, or a meld with jokers) stays exactly as it was;
- ``z[s,k]`` (only when enough jokers are in play to fill a set): copies of ``s`` that are not
  kept melds, anchored by a real tile of kind ``k``, so that no meld is made of jokers only.

With ``u[k] = sum_s a[k,s] x[s]`` the slots of kind ``k``, rack tiles played are
``p[k] = u[k] - table[k] - jk[k]``, so conservation is one ranged constraint per kind,
``table[k] <= u[k] - jk[k] <= table[k] + rack[k]``, and for jokers
``table jokers <= sum_k jk[k] <= table jokers + rack jokers``. Tiles played are
``sum_s |s| x[s]`` minus a constant; points shed ``sum_s value(s) x[s] + sum_k (penalty - k) jk[k]``
minus a constant. The objective is ``weight * primary + melds kept``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from ortools.sat.python import cp_model_helper as cmh

from rummisolve.position import Position
from rummisolve.solver.candidates import Catalogue

__all__ = ["Counts", "KeptMeld", "PositionModel", "count_position", "build_model"]

_INF = 1 << 40


@dataclass
class KeptMeld:
    """How a table meld decomposes into base sets, and which of its slots hold jokers."""

    index: int
    pieces: list[int]
    """Base set indices (one for a meld of up to 2m-1 tiles; several for a long run)."""
    joker_kinds: list[int]
    """Kind each of its jokers stands for."""
    real_kinds: list[int]
    var: int = -1
    """Variable index: ``kc[s]`` for a simple meld, ``km[m]`` otherwise."""


@dataclass
class Counts:
    """Tile counts of a position by kind index."""

    table: list[int]
    rack: list[int]
    table_jokers: int
    rack_jokers: int
    melds: list[KeptMeld]


@dataclass
class PositionModel:
    """A built model and what decoding needs to read it back."""

    proto: cmh.CpModelProto
    counts: Counts
    layer_size: int
    """S + K: variables of one layer."""
    final_offset: int
    kept_by_rule: bool
    """Official opening: the table stays as it is, the layer holds the new melds only."""
    simple_keep: dict[int, tuple[int, list[int]]] = field(default_factory=dict)
    """Base set -> (kc variable, indices of the table melds of that shape)."""
    complex_keep: list[KeptMeld] = field(default_factory=list)
    anchors: dict[tuple[int, int], int] = field(default_factory=dict)
    """(set, kind) -> z variable."""
    rack_size: int = 0
    layer_jokers: int = 0
    """Jokers the final layer may hold (table and rack)."""
    keep_terms: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """Base set -> [(keep variable, copies of the set it takes)]."""
    freed: list[dict[str, list[tuple[int, int]]]] = field(default_factory=list)
    """Strict jokers that may be freed: variables ``y`` (set, var), ``q``/``r``/``rr`` (kind, var)."""
    weight: int = 1
    """Objective weight of the primary objective (one more than the melds that could be kept)."""


def count_position(position: Position, cat: Catalogue) -> Counts:
    """Tile counts by kind, and each table meld's decomposition into base sets."""
    n = len(cat.kinds)
    table = [0] * n
    rack = [0] * n
    table_jokers = rack_jokers = 0
    kind_of = cat.kind_index.__getitem__
    melds = []
    for index, meld in enumerate(position.table):
        joker_kinds = []
        real_kinds = []
        for tile, stands in zip(meld.tiles, meld.represents):
            k = kind_of(stands)
            if tile.colour is None:
                table_jokers += 1
                joker_kinds.append(k)
            else:
                table[k] += 1
                real_kinds.append(k)
        slots = [kind_of(t) for t in meld.represents]
        melds.append(KeptMeld(index, _pieces(cat, slots, meld.kind.value == "run"), joker_kinds, real_kinds))
    for tile in position.rack:
        if tile.colour is None:
            rack_jokers += 1
        else:
            rack[kind_of(tile)] += 1
    return Counts(table, rack, table_jokers, rack_jokers, melds)


def _pieces(cat: Catalogue, slots: list[int], is_run: bool) -> list[int]:
    """Split a meld (its kinds in play order) into base sets of the catalogue."""
    m = cat.rules.min_meld_length
    longest = 2 * m - 1
    chunks = []
    rest = list(slots) if is_run else sorted(slots)
    while len(rest) > longest:
        chunks.append(rest[:m])
        rest = rest[m:]
    chunks.append(rest)
    return [cat.index_of(tuple(chunk) if is_run else tuple(sorted(chunk)), is_run) for chunk in chunks]


class _Protos:
    """Reusable proto pieces of one catalogue (each built once, copied into models by ``extend``)."""

    def __init__(self, cat: Catalogue) -> None:
        self.cat = cat
        n_kinds = len(cat.kinds)
        width = max(len(base.kinds) for base in cat.sets) if cat.sets else 1
        # Set kinds padded with a sentinel kind (index n_kinds) that is always "available".
        self.set_kinds = np.array(
            [list(base.kinds) + [n_kinds] * (width - len(base.kinds)) for base in cat.sets] or [[n_kinds]],
            dtype=np.int64,
        )
        self.padding = self.set_kinds == n_kinds
        self.set_sizes = np.array([len(base.kinds) for base in cat.sets] or [1], dtype=np.int64)
        self.incidence = np.zeros((n_kinds, max(len(cat.sets), 1)), dtype=np.int64)
        for s, base in enumerate(cat.sets):
            for k in base.kinds:
                self.incidence[k, s] = 1
        self.zero_based: list[cmh.IntegerVariableProto] = []
        self.domains: dict[tuple[int, int], cmh.IntegerVariableProto] = {}
        self.kind_constraints: dict[tuple[int, int, int, int], cmh.ConstraintProto] = {}
        self.linear: dict[tuple, cmh.ConstraintProto] = {}
        self.objectives: dict[tuple, tuple[list[int], list[int]]] = {}

    def domain(self, lo: int, hi: int) -> cmh.IntegerVariableProto:
        key = (lo, hi)
        proto = self.domains.get(key)
        if proto is None:
            proto = cmh.IntegerVariableProto()
            proto.domain.extend([lo, hi])
            self.domains[key] = proto
        return proto

    def domains_up_to(self, hi: int) -> list[cmh.IntegerVariableProto]:
        """The domains ``[0, 0], [0, 1], ..., [0, hi]`` (at least), indexed by their upper bound."""
        cache = self.zero_based
        for value in range(len(cache), hi + 1):
            cache.append(self.domain(0, value))
        return cache

    def kind(self, offset: int, k: int, lo: int, hi: int) -> cmh.ConstraintProto:
        """``lo <= u[k] - jk[k] <= hi`` in the layer at ``offset``."""
        key = (offset, k, lo, hi)
        proto = self.kind_constraints.get(key)
        if proto is None:
            cat = self.cat
            sets = cat.sets_by_kind[k]
            proto = _linear([offset + s for s in sets] + [offset + len(cat.sets) + k], [1] * len(sets) + [-1], lo, hi)
            self.kind_constraints[key] = proto
        return proto

    def cached_linear(
        self, key: tuple, variables: list[int], coeffs: list[int], lo: int, hi: int
    ) -> cmh.ConstraintProto:
        proto = self.linear.get(key)
        if proto is None:
            proto = _linear(variables, coeffs, lo, hi)
            self.linear[key] = proto
        return proto


def _linear(variables: list[int], coeffs: list[int], lo: int, hi: int) -> cmh.ConstraintProto:
    proto = cmh.ConstraintProto()
    linear = proto.linear
    linear.vars.extend(variables)
    linear.coeffs.extend(coeffs)
    linear.domain.extend([lo, hi])
    return proto


_PROTOS: dict[int, _Protos] = {}


def _protos(cat: Catalogue) -> _Protos:
    protos = _PROTOS.get(id(cat))
    if protos is None or protos.cat is not cat:
        protos = _PROTOS[id(cat)] = _Protos(cat)
    return protos


def build_model(
    position: Position, cat: Catalogue, objective: str, anchored: dict[int, int] | None = None
) -> PositionModel | None:
    """Build the model for ``position``; ``None`` when cheap checks prove there is no legal move.

    ``anchored``: base set -> how many real tiles each of its copies must hold (1: not jokers only;
    2: a run that must not read as a group). The solver adds them lazily, only for sets that a
    solution actually needed them for (see :func:`rummisolve.solver.decode.decode`)."""
    anchored = anchored or {}
    if not position.rack:
        return None
    rules = position.rules
    counts = count_position(position, cat)
    opening = not position.opened
    rack_jokers = counts.rack_jokers
    opening_jokers = 0 if opening and not rules.joker_in_initial_meld else rack_jokers
    protos = _protos(cat)
    n_sets, n_kinds = len(cat.sets), len(cat.kinds)
    layer_size = n_sets + n_kinds
    proto = cmh.CpModelProto()
    variables: list = []
    constraints: list = []

    if opening and not rules.open_then_manipulate:
        layer = _layer(protos, counts.rack, opening_jokers, 0, [0] * n_kinds, counts.rack, variables, constraints)
        if layer is None or not _rack_fits(cat, counts.rack, opening_jokers, layer[1], rules.initial_threshold):
            return None
        _jokers(protos, 0, layer_size, 0, opening_jokers, constraints)
        _threshold(protos, cat, 0, rules.initial_threshold, constraints)
        built = PositionModel(proto, counts, layer_size, 0, True, rack_size=len(position.rack))
        built.layer_jokers = opening_jokers
        if anchored:
            _anchor(built, cat, 0, counts.rack, anchored, variables, constraints)
    else:
        available = [t + r for t, r in zip(counts.table, counts.rack)]
        # A player opening without jokers allowed plays no rack joker at all that turn.
        playable_jokers = opening_jokers if opening else rack_jokers
        jokers = counts.table_jokers + playable_jokers
        layer = _layer(protos, available, jokers, 0, counts.table, counts.rack, variables, constraints)
        if layer is None:
            return None
        ub, fits = layer
        if not playable_jokers and not any(counts.rack[k] and fits[k] for k in range(n_kinds)):
            return None
        _jokers(protos, 0, layer_size, counts.table_jokers, jokers, constraints)
        built = PositionModel(proto, counts, layer_size, 0, False, rack_size=len(position.rack))
        built.layer_jokers = jokers
        if opening and not _open_then_manipulate(built, protos, cat, opening_jokers, variables, constraints):
            return None
        _keep(built, cat, ub, variables, constraints)
        if rules.joker_retrieval == "strict" and counts.table_jokers:
            _strict(built, cat, position, ub, anchored, variables, constraints)
        if anchored:
            _anchor(built, cat, 0, available, anchored, variables, constraints)

    proto.variables.extend(variables)
    proto.constraints.extend(constraints)
    _objective(built, cat, objective, len(variables))
    return built


def _rack_fits(cat: Catalogue, rack: list[int], jokers: int, fits: list[bool], threshold: int) -> bool:
    """Cheap bound for an opening: can the rack reach the threshold at all?"""
    best = sum(cat.numbers[k] * rack[k] for k in range(len(rack)) if rack[k] and fits[k])
    best += jokers * cat.rules.numbers
    return best >= max(threshold, 1)


def _layer(
    protos: _Protos,
    available: list[int],
    jokers: int,
    offset: int,
    table: list[int],
    rack: list[int],
    variables: list,
    constraints: list,
) -> tuple[list[int], list[bool]] | None:
    """Add one layer's variables and per-kind conservation.

    Returns each set's upper bound on copies (0: unusable) and, per kind, whether a usable set
    holds it; ``None`` when no set is usable at all."""
    counts = np.array(available + [_INF], dtype=np.int64)[protos.set_kinds]  # sets x slots (padding: _INF)
    empty = counts == 0
    missing = empty.sum(axis=1)
    usable = (missing <= jokers) & (missing < protos.set_sizes)
    if not usable.any():
        return None
    low = np.where(empty, _INF, counts).min(axis=1)
    total = np.where(protos.padding, 0, counts).sum(axis=1) + jokers
    by_size = total // protos.set_sizes
    with_jokers = jokers // np.maximum(missing, 1)
    bound = np.where(missing == 0, np.minimum(low + jokers, by_size), np.minimum(with_jokers, by_size))
    bound = np.where(usable, bound, 0)
    if not bound.any():
        return None
    fits = (protos.incidence @ (bound > 0)) > 0
    ub = bound.tolist()
    fit_list = fits.tolist()
    domains = protos.domains_up_to(max(max(ub), jokers))
    variables.extend([domains[b] for b in ub])
    joker_domain = domains[jokers]
    zero = domains[0]
    kind = protos.kind
    for k, used in enumerate(fit_list):
        variables.append(joker_domain if used else zero)
        if used or table[k] or rack[k]:
            constraints.append(kind(offset, k, table[k], table[k] + rack[k]))
    return ub, fit_list


def _jokers(protos: _Protos, offset: int, layer_size: int, lo: int, hi: int, constraints: list) -> None:
    n_sets = len(protos.cat.sets)
    jk = list(range(offset + n_sets, offset + layer_size))
    constraints.append(protos.cached_linear(("jokers", offset, lo, hi), jk, [1] * len(jk), lo, hi))


def _threshold(protos: _Protos, cat: Catalogue, offset: int, threshold: int, constraints: list) -> None:
    if threshold > 0:
        xs = list(range(offset, offset + len(cat.sets)))
        values = [base.value for base in cat.sets]
        constraints.append(protos.cached_linear(("threshold", offset, threshold), xs, values, threshold, _INF))


def _open_then_manipulate(
    built: PositionModel, protos: _Protos, cat: Catalogue, opening_jokers: int, variables: list, constraints: list
) -> None:
    """A second layer: new melds of rack tiles only, worth the threshold, all of them played."""
    counts = built.counts
    rules = cat.rules
    offset = built.layer_size
    n_sets = len(cat.sets)
    n_kinds = len(cat.kinds)
    zero = [0] * n_kinds
    layer = _layer(protos, counts.rack, opening_jokers, offset, zero, counts.rack, variables, constraints)
    if layer is None or not _rack_fits(cat, counts.rack, opening_jokers, layer[1], rules.initial_threshold):
        return False
    _jokers(protos, offset, built.layer_size, 0, opening_jokers, constraints)
    _threshold(protos, cat, offset, rules.initial_threshold, constraints)
    # Rack tiles of the opening are among the rack tiles played: p0[k] <= p[k].
    for k in range(n_kinds):
        if not counts.rack[k]:
            continue
        sets = cat.sets_by_kind[k]
        vs = [offset + s for s in sets] + [offset + n_sets + k] + list(sets) + [n_sets + k]
        cs = [1] * len(sets) + [-1] + [-1] * len(sets) + [1]
        constraints.append(_linear(vs, cs, -_INF, -counts.table[k]))
    jk0 = list(range(offset + n_sets, offset + built.layer_size))
    jk = list(range(n_sets, built.layer_size))
    constraints.append(_linear(jk0 + jk, [1] * len(jk0) + [-1] * len(jk), -_INF, -counts.table_jokers))
    if opening_jokers >= rules.min_meld_length:
        # The opening melds are never laid out, so anchor every set jokers alone could fill.
        small = {s: 1 for s, base in enumerate(cat.sets) if len(base.kinds) <= opening_jokers}
        _anchor(built, cat, offset, counts.rack, small, variables, constraints)
    return True


def _keep(built: PositionModel, cat: Catalogue, ub: list[int], variables: list, constraints: list) -> None:
    """Variables and constraints that count the table melds kept exactly as they were."""
    n_sets = len(cat.sets)
    first = len(variables)
    by_shape: dict[int, list[int]] = {}
    for meld in built.counts.melds:
        if len(meld.pieces) == 1 and not meld.joker_kinds:
            by_shape.setdefault(meld.pieces[0], []).append(meld.index)
        else:
            built.complex_keep.append(meld)
    protos = _protos(cat)
    # kc[s] + sum_m mult(m, s) km[m] <= x[s]
    terms: dict[int, list[tuple[int, int]]] = {}
    index = first
    for s, melds in by_shape.items():
        variables.append(protos.domain(0, min(len(melds), ub[s])))
        built.simple_keep[s] = (index, melds)
        terms.setdefault(s, []).append((index, 1))
        index += 1
    for meld in built.complex_keep:
        possible = all(ub[s] for s in meld.pieces)
        variables.append(protos.domain(0, 1 if possible else 0))
        meld.var = index
        for s in meld.pieces:
            terms.setdefault(s, []).append((index, 1))
        index += 1
    built.keep_terms = terms
    for s, items in terms.items():
        if len(items) == 1:
            var = items[0][0]
            constraints.append(protos.cached_linear(("keep", var, s), [var, s], [1, -1], -_INF, 0))
        else:
            merged: dict[int, int] = {}
            for var, coeff in items:
                merged[var] = merged.get(var, 0) + coeff
            constraints.append(_linear(list(merged) + [s], list(merged.values()) + [-1], -_INF, 0))
    # Jokers of kept melds keep standing where they stood: sum_m km[m] jokers(m, k) <= jk[k].
    joker_terms: dict[int, dict[int, int]] = {}
    for meld in built.complex_keep:
        for k in meld.joker_kinds:
            row = joker_terms.setdefault(k, {})
            row[meld.var] = row.get(meld.var, 0) + 1
    for k, row in joker_terms.items():
        constraints.append(_linear(list(row) + [n_sets + k], list(row.values()) + [-1], -_INF, 0))


def _strict(
    built: PositionModel,
    cat: Catalogue,
    position: Position,
    ub: list[int],
    anchored: dict[int, int],
    variables: list,
    constraints: list,
) -> None:
    """Strict joker retrieval (RULES.md section 3) on the final layer.

    Each table joker ``j`` stands for one of the kinds ``O[j]`` (its run slot, or a colour its group
    misses). It is either *bound*, ``b[j,k]`` for ``k`` in ``O[j]``: it sits in a slot of kind ``k``;
    or *freed*: a rack tile of a kind in ``O[j]`` replaces it (``rp[j,k]``) and the joker goes to a
    designated new meld ``c`` (``a[j,c]``). Each designated meld is a copy of one base set
    (``w[c,s]``) whose slots hold the freed jokers (``q[c,k]``) and at least two tiles played from
    the rack, real (``r[c,k]``) or jokers (``rr[c,k]``); several freed jokers may share one.
    """
    counts = built.counts
    n_sets = len(cat.sets)
    off = built.final_offset
    protos = _protos(cat)
    rules = cat.rules
    top = rules.numbers
    rack_jokers = counts.rack_jokers
    jokers_at: dict[int, list[int]] = {}  # kind -> vars of jokers that must sit there
    played_at: dict[int, list[int]] = {}  # kind -> vars of rack tiles reserved
    index = len(variables)

    def new_var(hi: int = 1) -> int:
        nonlocal index
        variables.append(protos.domain(0, hi))
        index += 1
        return index - 1

    hosts = [
        s
        for s, base in enumerate(cat.sets)
        if ub[s]
        and len(base.kinds) >= 3
        and sum(1 for k in base.kinds if counts.rack[k]) + min(rack_jokers, len(base.kinds)) >= 2
    ]
    kept_var = {meld.index: meld.var for meld in built.complex_keep}
    freeable: list[list[int]] = []  # per freeable joker: its bound vars (freed = 1 - sum)
    for meld_index, meld in enumerate(position.table):
        for tile, stands in zip(meld.tiles, meld.represents):
            if tile.colour is not None:
                continue
            if meld.kind.value == "run":
                options = [cat.kind_of(stands)]
            else:
                present = {t.colour for t in meld.tiles if t.colour is not None}
                options = [
                    c * top + stands.number - 1
                    for c in range(rules.colours)
                    if cat.kinds[c * top].colour not in present
                ]
            bound = [new_var() for _ in options]
            for k, var in zip(options, bound):
                jokers_at.setdefault(k, []).append(var)
            keep = kept_var.get(meld_index)
            if keep is not None:
                # A kept meld keeps its joker where it stood.
                constraints.append(_linear([bound[options.index(cat.kind_of(stands))], keep], [1, -1], 0, _INF))
            replacements = [k for k in options if counts.rack[k]]
            if not replacements or not hosts:
                constraints.append(_linear(bound, [1] * len(bound), 1, 1))  # cannot be freed
                continue
            rp = [new_var() for _ in replacements]
            for k, var in zip(replacements, rp):
                played_at.setdefault(k, []).append(var)
            constraints.append(_linear(bound + rp, [1] * (len(bound) + len(rp)), 1, 1))  # freed = sum(rp)
            freeable.append(bound)
    host_kinds = sorted({k for s in hosts for k in cat.sets[s].kinds})
    assign = [[new_var() for _ in freeable] for _ in freeable]  # assign[c][j]; empty if none is freeable
    designated: dict[int, list[int]] = {}  # set -> w vars
    rack_joker_uses: list[int] = []
    previous_used: list[int] | None = None
    for members in assign:
        ws = [new_var() for _ in hosts]
        for s, w in zip(hosts, ws):
            designated.setdefault(s, []).append(w)
        built.freed.append({"w": list(zip(hosts, ws)), "q": [], "r": [], "rr": []})
        record = built.freed[-1]
        # used(c) = sum(w) <= 1, used(c) <= jokers assigned, each assigned joker needs used(c)
        constraints.append(_linear(ws, [1] * len(ws), 0, 1))
        constraints.append(_linear(ws + members, [1] * len(ws) + [-1] * len(members), -_INF, 0))
        for member in members:
            constraints.append(_linear([member] + ws, [1] + [-1] * len(ws), -_INF, 0))
        if previous_used is not None:  # designated melds are used in order (no symmetric copies)
            constraints.append(_linear(ws + previous_used, [1] * len(ws) + [-1] * len(previous_used), -_INF, 0))
        previous_used = ws
        qs, helpers, real_helpers = [], [], []
        for k in host_kinds:
            in_host = [w for s, w in zip(hosts, ws) if k in cat.sets[s].kinds]
            q = new_var()
            qs.append(q)
            record["q"].append((k, q))
            jokers_at.setdefault(k, []).append(q)
            slot_vars = [q]
            if counts.rack[k]:
                r = new_var()
                record["r"].append((k, r))
                played_at.setdefault(k, []).append(r)
                helpers.append(r)
                real_helpers.append(r)
                slot_vars.append(r)
            if rack_jokers:
                rr = new_var()
                record["rr"].append((k, rr))
                rack_joker_uses.append(rr)
                jokers_at.setdefault(k, []).append(rr)
                helpers.append(rr)
                slot_vars.append(rr)
            # a slot holds one thing, and only inside the designated meld's set
            constraints.append(_linear(slot_vars + in_host, [1] * len(slot_vars) + [-1] * len(in_host), -_INF, 0))
        # the freed jokers assigned to c sit in its joker slots: sum(q) = sum(assign)
        constraints.append(_linear(qs + members, [1] * len(qs) + [-1] * len(members), 0, 0))
        # at least two further rack tiles: sum(r) + sum(rr) >= 2 used(c)
        constraints.append(_linear(helpers + ws, [1] * len(helpers) + [-2] * len(ws), 0, _INF))
        doubled = [w for s, w in zip(hosts, ws) if anchored.get(s, 0) >= 2]
        if doubled:  # a run that would read as a group: two real tiles
            constraints.append(_linear(real_helpers + doubled, [1] * len(real_helpers) + [-2] * len(doubled), 0, _INF))
    # each freeable joker: bound, or assigned to exactly one designated meld
    for j, bound in enumerate(freeable):
        column = [assign[c][j] for c in range(len(assign))]
        constraints.append(_linear(bound + column, [1] * (len(bound) + len(column)), 1, 1))
    for s, ws in designated.items():
        # designated melds are new melds: together with kept melds at most x[s]
        kept = built.keep_terms.get(s, [])
        vs = ws + [v for v, _ in kept] + [off + s]
        constraints.append(_linear(vs, [1] * len(ws) + [c for _, c in kept] + [-1], -_INF, 0))
    for k, items in jokers_at.items():
        # jokers required at kind k <= jk[k]
        constraints.append(_linear(items + [off + n_sets + k], [1] * len(items) + [-1], -_INF, 0))
    for k, items in played_at.items():
        # reserved rack tiles of kind k <= p[k] = u[k] - jk[k] - table[k]
        holders = cat.sets_by_kind[k]
        vs = items + [off + s for s in holders] + [off + n_sets + k]
        cs = [1] * len(items) + [-1] * len(holders) + [1]
        constraints.append(_linear(vs, cs, -_INF, -counts.table[k]))
    if rack_joker_uses:
        # rack jokers in designated melds <= rack jokers played = sum(jk) - table jokers
        jk = list(range(off + n_sets, off + n_sets + len(cat.kinds)))
        constraints.append(
            _linear(rack_joker_uses + jk, [1] * len(rack_joker_uses) + [-1] * len(jk), -_INF, -counts.table_jokers)
        )


def _anchor(
    built: PositionModel,
    cat: Catalogue,
    offset: int,
    real_available: list[int],
    sets: dict[int, int],
    variables: list,
    constraints: list,
) -> None:
    """Every copy of the given sets that is not a kept meld gets ``sets[s]`` real tiles of
    different kinds (one: no meld of jokers only; two: a run that cannot read as a group)."""
    n_sets = len(cat.sets)
    protos = _protos(cat)
    index = len(variables)
    kept_per_set: dict[int, list[tuple[int, int]]] = {}
    kept_real: dict[int, list[tuple[int, int]]] = {}
    if offset == built.final_offset and not built.kept_by_rule:
        for s, (var, _) in built.simple_keep.items():
            kept_per_set.setdefault(s, []).append((var, 1))
            for k in cat.sets[s].kinds:
                kept_real.setdefault(k, []).append((var, 1))
        for meld in built.complex_keep:
            for s in meld.pieces:
                kept_per_set.setdefault(s, []).append((meld.var, 1))
            for k in meld.real_kinds:
                kept_real.setdefault(k, []).append((meld.var, 1))
    supply: dict[int, list[int]] = {}
    for s in sorted(sets):
        base = cat.sets[s]
        if variables[offset + s].domain[1] == 0:
            continue
        zs = []
        for k in base.kinds:
            if real_available[k]:
                variables.append(protos.domain(0, real_available[k]))
                built.anchors[(offset + s, k)] = index
                zs.append(index)
                supply.setdefault(k, []).append(index)
                index += 1
        kept = kept_per_set.get(s, [])
        need = sets[s]
        # sum_k z[s,k] = need * (x[s] - kept copies of s)
        vs = zs + [offset + s] + [v for v, _ in kept]
        cs = [1] * len(zs) + [-need] + [need * c for _, c in kept]
        constraints.append(_linear(vs, cs, 0, 0))
        if need > 1:  # one real tile per kind and copy: z[s,k] <= x[s] - kept copies
            for z in zs:
                vs = [z, offset + s] + [v for v, _ in kept]
                constraints.append(_linear(vs, [1, -1] + [c for _, c in kept], -_INF, 0))
    for k, zs in supply.items():
        # anchors + kept real slots <= real tiles of kind k = u[k] - jk[k]
        holders = cat.sets_by_kind[k]
        kept = kept_real.get(k, [])
        vs = zs + [v for v, _ in kept] + [offset + s for s in holders] + [offset + n_sets + k]
        cs = [1] * len(zs) + [c for _, c in kept] + [-1] * len(holders) + [1]
        constraints.append(_linear(vs, cs, -_INF, 0))


def _objective(built: PositionModel, cat: Catalogue, objective: str, n_variables: int) -> None:
    """Minimise ``-(weight * primary + kept)`` (CP-SAT minimises)."""
    keep_vars = [var for var, _ in built.simple_keep.values()] + [m.var for m in built.complex_keep]
    weight = len(built.counts.melds) + 1 if keep_vars else 1
    scale = built.rack_size + 1 if objective == "value" and cat.rules.joker_penalty == 0 else 0
    built.weight = weight
    key = (objective, weight, scale, built.final_offset)
    protos = _protos(cat)
    terms = protos.objectives.get(key)
    if terms is None:
        terms = protos.objectives[key] = _primary_terms(cat, objective, weight, scale, built.final_offset)
    obj = built.proto.objective
    obj.vars.extend(terms[0] + keep_vars)
    obj.coeffs.extend(terms[1] + [-1] * len(keep_vars))


def _primary_terms(cat: Catalogue, objective: str, weight: int, scale: int, offset: int) -> tuple[list, list]:
    """Variables and (negated, weighted) coefficients of the primary objective."""
    n_sets = len(cat.sets)
    if objective == "value":
        coeffs = [base.value for base in cat.sets] + [cat.rules.joker_penalty - n for n in cat.numbers]
        if scale:  # a zero-point joker still counts as a tile played
            coeffs = [c * scale + len(base.kinds) for c, base in zip(coeffs, cat.sets)] + [
                c * scale for c in coeffs[n_sets:]
            ]
    else:
        coeffs = [len(base.kinds) for base in cat.sets] + [0] * len(cat.kinds)
    variables = [offset + i for i, c in enumerate(coeffs) if c]
    values = [-c * weight for c in coeffs if c]
    return variables, values
