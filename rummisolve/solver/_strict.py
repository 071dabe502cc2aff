"""Strict joker retrieval (docs/rules.md, "Jokers on the table") in the CP-SAT model of a position."""

from __future__ import annotations

from rummisolve.melds import MeldKind
from rummisolve.position import Position
from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._layout import FreedMeld, PositionModel
from rummisolve.solver._pieces import INF, linear
from rummisolve.solver._pieces import protos as protos_for

__all__ = ["may_miss", "strict_jokers"]


def strict_jokers(
    built: PositionModel,
    cat: Catalogue,
    position: Position,
    ub: list[int],
    anchored: dict[int, int],
    variables: list,
    constraints: list,
    kept_hosts: bool = True,
) -> None:
    """Strict joker retrieval on the final layer.

    Each table joker ``j`` stands for one of the kinds ``O[j]`` (its run slot, or a colour its group
    misses). It is either *bound*, ``b[j,k]`` for ``k`` in ``O[j]``: it sits in a slot of kind ``k``;
    or *freed*: a rack tile of a kind in ``O[j]`` replaces it (``rp[j,k]``) and the joker goes to a
    designated new meld ``c`` (``a[j,c]``). Each designated meld is a copy of one base set
    (``w[c,s]``) whose slots hold the freed jokers (``q[c,k]``) and at least two tiles played from
    the rack, real (``r[c,k]``) or jokers (``rr[c,k]``); several freed jokers may share one.

    A bound joker stays with its meld (docs/rules.md, "Jokers on the table"): either its table meld
    is kept as it was (``km``), or it sits in one of its meld's *kept hosts*: designated new melds,
    as many as the meld has jokers, each a copy of a base set (``h[i,c,s]``) holding some of the
    meld's bound jokers (``hq[i,c,k]``) and a real tile of the old meld, its witness
    (``hw[i,c,k]``): each of the old meld's tiles beside one host only (the meld has one copy).
    A run's hosts are its own (a base set, or a longer run of its colour as its pieces); the
    groups of one number share theirs (:func:`_group_hosts`), a slot holding one group's joker or
    witness. A run's host is one copy of its own, so two runs' jokers never share a base set
    (their hosts may still join into one run); the referee allows that too, so the model may miss
    such a play, never the other way round.

    ``kept_hosts=False`` leaves the kept hosts out (``built.relaxed``): a bound joker then only
    stands for a tile it could stand for before, wherever it sits (the rule before kept jokers had
    to stay with their melds), a relaxation of the rule: every legal play is a solution, and a
    solution the referee accepts is as good as any legal play can be.
    """
    counts = built.counts
    n_sets = len(cat.sets)
    off = built.final_offset
    protos = protos_for(cat)
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
    bound_jokers: list[tuple[int, list[tuple[list[int], list[int], int]]]] = []  # per joker meld
    for meld_index, meld in enumerate(position.table):
        mine: list[tuple[list[int], list[int], int]] = []  # (options, bound vars, own kind)
        for tile, stands in zip(meld.tiles, meld.represents):
            if tile.colour is not None:
                continue
            if meld.kind is MeldKind.RUN:
                options = [cat.kind_of(stands)]
            else:
                present = {t.colour for t in meld.tiles if t.colour is not None}
                options = [
                    c * top + stands.number - 1
                    for c in range(rules.colours)
                    if cat.kinds[c * top].colour not in present
                ]
            bound = [new_var() for _ in options]
            mine.append((options, bound, cat.kind_of(stands)))
            for k, var in zip(options, bound):
                jokers_at.setdefault(k, []).append(var)
            keep = kept_var.get(meld_index)
            if keep is not None:
                # A kept meld keeps its joker where it stood.
                constraints.append(linear([bound[options.index(cat.kind_of(stands))], keep], [1, -1], 0, INF))
            replacements = [k for k in options if counts.rack[k]]
            if not replacements or not hosts:
                constraints.append(linear(bound, [1] * len(bound), 1, 1))  # cannot be freed
                continue
            rp = [new_var() for _ in replacements]
            for k, var in zip(replacements, rp):
                played_at.setdefault(k, []).append(var)
            constraints.append(linear(bound + rp, [1] * (len(bound) + len(rp)), 1, 1))  # freed = sum(rp)
            freeable.append(bound)
        if mine:
            bound_jokers.append((meld_index, mine))
    host_kinds = sorted({k for s in hosts for k in cat.sets[s].kinds})
    assign = [[new_var() for _ in freeable] for _ in freeable]  # assign[c][j]; empty if none is freeable
    designated: dict[int, list[int]] = {}  # set -> w vars
    rack_joker_uses: list[int] = []
    previous_used: list[int] | None = None
    for members in assign:
        ws = [new_var() for _ in hosts]
        for s, w in zip(hosts, ws):
            designated.setdefault(s, []).append(w)
        record = FreedMeld(list(zip(hosts, ws)), [], [])
        built.freed.append(record)
        # used(c) = sum(w) <= 1, used(c) <= jokers assigned, each assigned joker needs used(c)
        constraints.append(linear(ws, [1] * len(ws), 0, 1))
        constraints.append(linear(ws + members, [1] * len(ws) + [-1] * len(members), -INF, 0))
        for member in members:
            constraints.append(linear([member] + ws, [1] + [-1] * len(ws), -INF, 0))
        if previous_used is not None:  # designated melds are used in order (no symmetric copies)
            constraints.append(linear(ws + previous_used, [1] * len(ws) + [-1] * len(previous_used), -INF, 0))
        previous_used = ws
        qs, helpers, real_helpers = [], [], []
        for k in host_kinds:
            in_host = [w for s, w in zip(hosts, ws) if k in cat.sets[s].kinds]
            q = new_var()
            qs.append(q)
            record.jokers.append((k, q))
            jokers_at.setdefault(k, []).append(q)
            slot_vars = [q]
            if counts.rack[k]:
                r = new_var()
                record.reals.append((k, r))
                played_at.setdefault(k, []).append(r)
                helpers.append(r)
                real_helpers.append(r)
                slot_vars.append(r)
            if rack_jokers:
                rr = new_var()
                record.rack_jokers.append((k, rr))
                rack_joker_uses.append(rr)
                jokers_at.setdefault(k, []).append(rr)
                helpers.append(rr)
                slot_vars.append(rr)
            # a slot holds one thing, and only inside the designated meld's set
            constraints.append(linear(slot_vars + in_host, [1] * len(slot_vars) + [-1] * len(in_host), -INF, 0))
        # the freed jokers assigned to c sit in its joker slots: sum(q) = sum(assign)
        constraints.append(linear(qs + members, [1] * len(qs) + [-1] * len(members), 0, 0))
        # at least two further rack tiles: sum(r) + sum(rr) >= 2 used(c)
        constraints.append(linear(helpers + ws, [1] * len(helpers) + [-2] * len(ws), 0, INF))
        doubled = [w for s, w in zip(hosts, ws) if anchored.get(s, 0) >= 2]
        if doubled:  # a run that would read as a group: two real tiles
            constraints.append(linear(real_helpers + doubled, [1] * len(real_helpers) + [-2] * len(doubled), 0, INF))
    # reserved real tiles: the freed melds' rack tiles, then the kept hosts' witnesses
    real_at: dict[int, list[int]] = {}
    for record in built.freed:
        for k, var in record.reals:
            real_at.setdefault(k, []).append(var)
    # Groups of one number may share a host (K4 B4 J and K4 O4 J become K4 O4 J J, beside K4 of
    # the one and O4 of the other); each run has hosts of its own.
    families: dict[tuple, list[tuple]] = {}
    built.relaxed = not kept_hosts
    for meld_index, mine in bound_jokers if kept_hosts else ():
        meld = position.table[meld_index]
        key = ("run", meld_index) if meld.kind is MeldKind.RUN else ("group", meld.represents[0].number)
        families.setdefault(key, []).append((meld, mine, kept_var.get(meld_index)))
    for (shape, _), family in families.items():
        if shape == "run":
            ((meld, mine, keep),) = family
            _kept_hosts(built, cat, meld, mine, keep, ub, anchored, new_var, constraints, designated, real_at)
        else:
            _group_hosts(built, cat, family, ub, anchored, new_var, constraints, designated, real_at)
    if real_at:
        # reserved real slots of kind k + kept melds' real tiles of kind k <= table[k] + p[k]
        kept_real: dict[int, dict[int, int]] = {}
        for base, (var, _) in built.simple_keep.items():
            for k in cat.sets[base].kinds:
                kept_real.setdefault(k, {})[var] = kept_real.get(k, {}).get(var, 0) + 1
        for meld in built.complex_keep:
            for k in meld.real_kinds:
                kept_real.setdefault(k, {})[meld.var] = kept_real.get(k, {}).get(meld.var, 0) + 1
        for k, items in real_at.items():
            kept = kept_real.get(k, {})
            vs = items + list(kept) + [built.played_offset + k]
            cs = [1] * len(items) + list(kept.values()) + [-1]
            constraints.append(linear(vs, cs, -INF, counts.table[k]))
    # each freeable joker: bound, or assigned to exactly one designated meld
    for j, bound in enumerate(freeable):
        column = [assign[c][j] for c in range(len(assign))]
        constraints.append(linear(bound + column, [1] * (len(bound) + len(column)), 1, 1))
    for s, ws in designated.items():
        # designated melds are new melds: together with kept melds at most x[s]
        kept = built.keep_terms.get(s, [])
        vs = ws + [v for v, _ in kept] + [off + s]
        constraints.append(linear(vs, [1] * len(ws) + [c for _, c in kept] + [-1], -INF, 0))
    for k, items in jokers_at.items():
        # jokers required at kind k <= jk[k]
        constraints.append(linear(items + [off + n_sets + k], [1] * len(items) + [-1], -INF, 0))
    for k, items in played_at.items():
        # reserved rack tiles of kind k <= p[k] (rack tiles of kind k played)
        constraints.append(linear(items + [built.played_offset + k], [1] * len(items) + [-1], -INF, 0))
    if rack_joker_uses:
        # rack jokers in designated melds <= rack jokers played = sum(jk) - table jokers
        jk = list(range(off + n_sets, off + n_sets + len(cat.kinds)))
        constraints.append(
            linear(rack_joker_uses + jk, [1] * len(rack_joker_uses) + [-1] * len(jk), -INF, -counts.table_jokers)
        )


def may_miss(position: Position) -> bool:
    """Whether the kept hosts may miss a legal play of ``position`` other than through a host that
    must hold two tiles of its old meld (``built.doubled_hosts``): when two table runs of one
    colour hold jokers, which may end in one new run that cannot be cut into runs each holding one
    of them with a tile of its own old run (docs/rules.md, "Jokers on the table")."""
    seen: set = set()
    for meld in position.table:
        if meld.kind is MeldKind.RUN and any(t.is_joker for t in meld.tiles):
            colours = {t.colour for t in meld.tiles if t.colour is not None}
            if not seen.isdisjoint(colours):
                return True
            seen |= colours
    return False


def _kept_hosts(
    built: PositionModel,
    cat: Catalogue,
    meld,
    jokers: list[tuple[list[int], list[int], int]],
    keep: int | None,
    ub: list[int],
    anchored: dict[int, int],
    new_var,
    constraints: list,
    designated: dict[int, list[int]],
    real_at: dict[int, list[int]],
) -> None:
    """The kept hosts of one table meld's bound jokers (see :func:`strict_jokers`).

    ``jokers``: per joker of the meld, its kinds, its ``b`` variables and the kind it stands for
    now; ``keep``: the meld's ``km`` (its jokers stay where they are when it is kept)."""
    witnesses = sorted({cat.kind_of(t) for t in meld.tiles if not t.is_joker})
    options = sorted({k for kinds, _, _ in jokers for k in kinds})
    shapes = _host_shapes(cat, meld, options, witnesses, ub)
    host_q: list[dict[int, int]] = []
    host_w: list[dict[int, int]] = []
    previous: list[int] | None = None
    for _ in jokers if shapes else ():
        hs = [new_var() for _ in shapes]
        qs = {k: new_var() for k in options if any(k in kinds for _, kinds in shapes)}
        ws = {k: new_var() for k in witnesses if any(k in kinds for _, kinds in shapes)}
        for (pieces, _), var in zip(shapes, hs):
            for piece in pieces:  # a host is a new meld: it takes a copy of each of its pieces
                designated.setdefault(piece, []).append(var)
        for slots in (qs, ws):  # a slot of kind k only in a host holding k
            for k, var in slots.items():
                holders = [h for (_, kinds), h in zip(shapes, hs) if k in kinds]
                constraints.append(linear([var] + holders, [1] + [-1] * len(holders), -INF, 0))
        q, w = list(qs.values()), list(ws.values())
        constraints.append(linear(hs, [1] * len(hs), 0, 1))  # used = sum(h) <= 1
        # a used host holds one to len(jokers) of the meld's jokers and a witness
        constraints.append(linear(q + hs, [1] * len(q) + [-len(jokers)] * len(hs), -INF, 0))
        constraints.append(linear(q + hs, [1] * len(q) + [-1] * len(hs), 0, INF))
        constraints.append(linear(w + hs, [1] * len(w) + [-1] * len(hs), 0, INF))
        for (pieces, kinds), var in zip(shapes, hs):
            if len(pieces) == 1 and anchored.get(pieces[0], 0) >= 2:  # it would read otherwise: two real tiles
                built.doubled_hosts = True
                mine = [ws[k] for k in kinds if k in ws]
                constraints.append(linear(mine + [var], [1] * len(mine) + [-2], 0, INF))
        if previous is not None:  # hosts are used in order (no symmetric copies)
            constraints.append(linear(hs + previous, [1] * len(hs) + [-1] * len(previous), -INF, 0))
        previous = hs
        for k, var in ws.items():
            real_at.setdefault(k, []).append(var)
        host_q.append(qs)
        host_w.append(ws)
        built.freed.append(
            FreedMeld(
                hosts=[(pieces[0], var) for (pieces, _), var in zip(shapes, hs) if len(pieces) == 1],
                jokers=list(qs.items()),
                reals=list(ws.items()),
                long=[(pieces, var) for (pieces, _), var in zip(shapes, hs) if len(pieces) > 1],
            )
        )
    # the meld's bound jokers standing for k: kept in place (km) or in its hosts
    for k in options:
        terms = [(qs[k], 1) for qs in host_q if k in qs]
        terms += [(bound[kinds.index(k)], -1) for kinds, bound, _ in jokers if k in kinds]
        own = sum(1 for _, _, kind in jokers if kind == k)
        if own and keep is not None:
            terms.append((keep, own))
        constraints.append(linear([v for v, _ in terms], [c for _, c in terms], 0, 0))
    # each tile of the old meld is the witness of one host at most
    for k in witnesses:
        column = [ws[k] for ws in host_w if k in ws]
        if len(column) > 1:
            constraints.append(linear(column, [1] * len(column), 0, 1))


def _group_hosts(
    built: PositionModel,
    cat: Catalogue,
    family: list[tuple],
    ub: list[int],
    anchored: dict[int, int],
    new_var,
    constraints: list,
    designated: dict[int, list[int]],
    real_at: dict[int, list[int]],
) -> None:
    """Kept hosts shared by the table groups of one number that hold jokers (see
    :func:`strict_jokers`): as many hosts as their jokers, each a copy of a group base set
    (``h[c,s]``) holding the bound jokers of some of the groups (``a[c,i]``: of group ``i``;
    ``hq[c,i,k]``: one standing for ``k``), each with a witness of its own group
    (``hw[c,i,k]``); a slot of kind ``k`` holds one of them. ``family``: per group, the meld,
    its jokers (as for :func:`_kept_hosts`) and its ``km``."""
    info = []
    for meld, jokers, _ in family:
        witnesses = sorted({cat.kind_of(t) for t in meld.tiles if not t.is_joker})
        options = sorted({k for kinds, _, _ in jokers for k in kinds})
        info.append((witnesses, options))
    shapes = sorted(
        {shape for (meld, _, _), (w, o) in zip(family, info) for shape in _host_shapes(cat, meld, o, w, ub)}
    )
    total = sum(len(jokers) for _, jokers, _ in family)
    joker_cols: list[dict[int, list[int]]] = [{} for _ in family]  # per group: kind -> hq vars
    witness_cols: list[dict[int, list[int]]] = [{} for _ in family]  # per group: kind -> hw vars
    previous: list[int] | None = None
    for _ in range(total if shapes else 0):
        hs = [new_var() for _ in shapes]
        for (pieces, _), var in zip(shapes, hs):
            for piece in pieces:
                designated.setdefault(piece, []).append(var)
        constraints.append(linear(hs, [1] * len(hs), 0, 1))  # used = sum(h) <= 1
        if previous is not None:  # hosts are used in order (no symmetric copies)
            constraints.append(linear(hs + previous, [1] * len(hs) + [-1] * len(previous), -INF, 0))
        previous = hs
        slot_vars: dict[int, list[int]] = {}  # kind -> every hq and hw of that kind
        a_vars = []
        record = FreedMeld([(pieces[0], var) for (pieces, _), var in zip(shapes, hs)], [], [])
        for i, ((_, jokers, _), (witnesses, options)) in enumerate(zip(family, info)):
            a = new_var()
            a_vars.append(a)
            constraints.append(linear([a] + hs, [1] + [-1] * len(hs), -INF, 0))  # a <= used
            qs = [(k, new_var()) for k in options]
            ws = [(k, new_var()) for k in witnesses]
            for _, var in qs + ws:  # hq, hw <= a
                constraints.append(linear([var, a], [1, -1], -INF, 0))
            q, w = [v for _, v in qs], [v for _, v in ws]
            constraints.append(linear(q + [a], [1] * len(q) + [-len(jokers)], -INF, 0))
            constraints.append(linear(q + [a], [1] * len(q) + [-1], 0, INF))  # a joker of group i
            constraints.append(linear(w + [a], [1] * len(w) + [-1], 0, INF))  # and a witness of it
            for k, var in qs:
                slot_vars.setdefault(k, []).append(var)
                joker_cols[i].setdefault(k, []).append(var)
            for k, var in ws:
                slot_vars.setdefault(k, []).append(var)
                witness_cols[i].setdefault(k, []).append(var)
                real_at.setdefault(k, []).append(var)
            record.jokers += qs
            record.reals += ws
        constraints.append(linear(hs + a_vars, [1] * len(hs) + [-1] * len(a_vars), -INF, 0))  # used <= sum(a)
        for k, items in slot_vars.items():  # a slot of kind k: one joker or witness, in a host holding k
            holders = [h for (_, kinds), h in zip(shapes, hs) if k in kinds]
            constraints.append(linear(items + holders, [1] * len(items) + [-1] * len(holders), -INF, 0))
        for (pieces, kinds), var in zip(shapes, hs):
            if anchored.get(pieces[0], 0) >= 2:  # it would read otherwise: two real tiles
                built.doubled_hosts = True
                mine = [v for k, v in record.reals if k in kinds]
                constraints.append(linear(mine + [var], [1] * len(mine) + [-2], 0, INF))
        built.freed.append(record)
    for i, (_, jokers, keep) in enumerate(family):
        witnesses, options = info[i]
        for k in options:  # group i's bound jokers standing for k: kept in place (km) or in hosts
            terms = [(var, 1) for var in joker_cols[i].get(k, [])]
            terms += [(bound[kinds.index(k)], -1) for kinds, bound, _ in jokers if k in kinds]
            own = sum(1 for _, _, kind in jokers if kind == k)
            if own and keep is not None:
                terms.append((keep, own))
            constraints.append(linear([v for v, _ in terms], [c for _, c in terms], 0, 0))
        for column in witness_cols[i].values():  # each tile of group i: the witness of one host at most
            if len(column) > 1:
                constraints.append(linear(column, [1] * len(column), 0, 1))


def _host_shapes(
    cat: Catalogue, meld, options: list[int], witnesses: list[int], ub: list[int]
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The new melds a kept joker of ``meld`` may sit in, as (base sets, kinds): every usable
    base set holding one of the jokers' kinds and a tile of the meld; for a run, also every
    longer run of its colour doing so (as its pieces), so that a witness need not lie in the
    joker's own piece (``R1 R2 J R4 J R6`` from ``J R4 J``: pieces ``R1 R2 J`` and ``R4 J R6``)."""
    in_meld = set(witnesses)
    shapes = [
        ((s,), cat.sets[s].kinds)
        for s in sorted({s for k in options for s in cat.sets_by_kind[k]})
        if ub[s] and not in_meld.isdisjoint(cat.sets[s].kinds)
    ]
    if meld.kind is not MeldKind.RUN:
        return shapes
    rules = cat.rules
    m, top = rules.min_meld_length, rules.numbers
    colour = options[0] // top
    for length in range(2 * m, top + 1):
        for start in range(1, top + 2):
            numbers = list(range(start, start + length))
            if numbers[-1] > top:  # wraparound: 1 may follow the top number, ending the run
                if not (rules.wraparound and numbers[-1] == top + 1 and start > 1):
                    continue
                numbers[-1] = 1
            kinds = tuple(colour * top + n - 1 for n in numbers)
            if in_meld.isdisjoint(kinds) or not any(k in kinds for k in options):
                continue
            chunks, rest = [], list(kinds)
            while len(rest) > 2 * m - 1:
                chunks.append(tuple(rest[:m]))
                rest = rest[m:]
            chunks.append(tuple(rest))
            pieces = tuple(cat.index_of(chunk, True) for chunk in chunks)
            if all(ub[p] for p in pieces):
                shapes.append((pieces, kinds))
    return shapes
