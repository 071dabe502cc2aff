"""Strict joker retrieval (docs/rules.md, "Jokers on the table") in the CP-SAT model of a position."""

from __future__ import annotations

from rummisolve.melds import MeldKind
from rummisolve.position import Position
from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._layout import PositionModel
from rummisolve.solver._pieces import INF, linear
from rummisolve.solver._pieces import protos as protos_for

__all__ = ["strict_jokers"]


def strict_jokers(
    built: PositionModel,
    cat: Catalogue,
    position: Position,
    ub: list[int],
    anchored: dict[int, int],
    variables: list,
    constraints: list,
) -> None:
    """Strict joker retrieval on the final layer.

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
    for meld_index, meld in enumerate(position.table):
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
            constraints.append(linear(slot_vars + in_host, [1] * len(slot_vars) + [-1] * len(in_host), -INF, 0))
        # the freed jokers assigned to c sit in its joker slots: sum(q) = sum(assign)
        constraints.append(linear(qs + members, [1] * len(qs) + [-1] * len(members), 0, 0))
        # at least two further rack tiles: sum(r) + sum(rr) >= 2 used(c)
        constraints.append(linear(helpers + ws, [1] * len(helpers) + [-2] * len(ws), 0, INF))
        doubled = [w for s, w in zip(hosts, ws) if anchored.get(s, 0) >= 2]
        if doubled:  # a run that would read as a group: two real tiles
            constraints.append(linear(real_helpers + doubled, [1] * len(real_helpers) + [-2] * len(doubled), 0, INF))
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
