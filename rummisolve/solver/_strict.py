"""Strict joker retrieval (docs/rules.md, "Jokers on the table") in the CP-SAT model of a position."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from ortools.sat.python import cp_model_helper as cmh

from rummisolve.melds import Meld, MeldKind
from rummisolve.position import Position
from rummisolve.rule_facts import run_numbers, run_starts
from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._layout import FreedMeld, PositionModel
from rummisolve.solver._protos import INF, linear
from rummisolve.solver._protos import protos as protos_for
from rummisolve.tiles import Tile

__all__ = ["strict_jokers"]


def strict_jokers(
    built: PositionModel,
    cat: Catalogue,
    position: Position,
    ub: list[int],
    anchored: dict[int, int],
    variables: list[cmh.IntegerVariableProto],
    constraints: list[cmh.ConstraintProto],
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
    A run's hosts are its own (a base set, or a longer run of its colour as its base sets); the
    groups of one number share theirs (:meth:`_StrictBuilder.group_hosts`), a slot holding one
    group's joker or witness. A run's host is one copy of its own, so two runs' jokers never share
    a base set (their hosts may still join into one run); the referee allows that too, so the model
    may miss such a play, never the other way round.

    ``kept_hosts=False`` leaves the kept hosts out (``built.relaxed``): a bound joker then only
    stands for a tile it could stand for before, wherever it sits (the rule before kept jokers had
    to stay with their melds), a relaxation of the rule: every legal play is a solution, and a
    solution the referee accepts is as good as any legal play can be.

    The steps, in the order their variables and rows enter the model (:class:`_StrictBuilder`):
    bind the table jokers, the designated melds of the freed jokers, the kept hosts (a run's, a
    number's groups'), the rows of the reserved real tiles, and the rows linking it all to the
    layer's ``x``, ``jk`` and ``p``.
    """
    model = _StrictBuilder(built, cat, ub, anchored, variables, constraints)
    freeable, joker_melds = model.bind_table_jokers(position)
    assign = [[model.new_var() for _ in freeable] for _ in freeable]  # assign[c][j]; empty if none is freeable
    model.freed_melds(assign)
    model.reserve_freed_reals()
    built.relaxed = not kept_hosts
    if kept_hosts:
        model.kept_hosts(position, joker_melds)
    model.reserved_rows()
    model.linking_rows(freeable, assign)


@dataclass(frozen=True, slots=True)
class TableJoker:
    """A table joker under strict retrieval (see :func:`strict_jokers`)."""

    options: list[int]
    """``O[j]``: the kinds it may stand for (its run slot, or a colour its group misses)."""
    bound: list[int]
    """Its ``b[j,k]`` variables, one per kind of :attr:`options` (it is freed if none is 1)."""
    kind: int
    """The kind it stands for now."""


@dataclass(frozen=True, slots=True)
class JokerMeld:
    """A table meld with jokers, whose bound jokers stay with it: in it, kept as it was, or in its
    kept hosts (see :func:`strict_jokers`)."""

    meld: Meld
    jokers: list[TableJoker]
    keep: int | None
    """The meld's ``km`` (its jokers stay where they are when it is kept), if it has one."""
    witnesses: list[int]
    """The kinds of its real tiles, sorted: what may sit beside its jokers in a host."""
    options: list[int]
    """Every kind one of its jokers may stand for, sorted."""


class HostShape(NamedTuple):
    """A new meld a kept joker may sit in (:func:`_host_shapes`)."""

    sets: tuple[int, ...]
    """Its base sets: one, or those of a run longer than a base set."""
    kinds: tuple[int, ...]


class _StrictBuilder:
    """Builds strict retrieval into the final layer of ``built`` (see :func:`strict_jokers`): the
    new variables go to ``variables``, the rows to ``constraints``, each step in turn."""

    def __init__(
        self,
        built: PositionModel,
        cat: Catalogue,
        ub: list[int],
        anchored: dict[int, int],
        variables: list[cmh.IntegerVariableProto],
        constraints: list[cmh.ConstraintProto],
    ) -> None:
        self.built = built
        self.cat = cat
        self.ub = ub
        self.anchored = anchored
        self.variables = variables
        self.constraints = constraints
        self.protos = protos_for(cat)
        counts = built.counts
        self.hosts = [
            s
            for s, base in enumerate(cat.sets)
            if ub[s]
            and len(base.kinds) >= 3
            and sum(1 for k in base.kinds if counts.rack[k]) + min(counts.rack_jokers, len(base.kinds)) >= 2
        ]
        """The base sets a designated meld of freed jokers may copy."""
        self.kept_var = {meld.index: meld.var for meld in built.complex_keep}
        """Table meld -> its ``km``."""
        self.designated: dict[int, list[int]] = {}
        """Base set -> the variables of the designated melds (or hosts) taking a copy of it."""
        self.real_at: dict[int, list[int]] = {}
        """Kind -> vars of the reserved real tiles: the freed melds' rack tiles, the hosts' witnesses."""
        self.jokers_at: dict[int, list[int]] = {}
        """Kind -> vars of jokers that must sit there."""
        self.played_at: dict[int, list[int]] = {}
        """Kind -> vars of rack tiles reserved."""
        self.rack_joker_uses: list[int] = []
        """The ``rr`` variables: rack jokers in designated melds."""

    def new_var(self, hi: int = 1) -> int:
        """A new variable ``0..hi``: its index."""
        self.variables.append(self.protos.domain(0, hi))
        return len(self.variables) - 1

    def row(self, variables: list[int], coeffs: list[int], lo: int, hi: int) -> None:
        """A new linear row ``lo <= sum(coeffs * variables) <= hi``."""
        self.constraints.append(linear(variables, coeffs, lo, hi))

    # -- the table jokers, and the designated melds of freed jokers --------------------------------

    def bind_table_jokers(self, position: Position) -> tuple[list[list[int]], list[tuple[int, list[TableJoker]]]]:
        """The ``b`` (and ``rp``) variables of every table joker: per freeable joker its bound
        vars (freed = 1 - sum), and per table meld with jokers its index and its jokers."""
        freeable: list[list[int]] = []
        joker_melds: list[tuple[int, list[TableJoker]]] = []
        for meld_index, meld in enumerate(position.table):
            mine: list[TableJoker] = []
            for tile, stands in zip(meld.tiles, meld.represents):
                if tile.colour is not None:
                    continue
                joker = self._bind(meld, stands, self.kept_var.get(meld_index))
                mine.append(joker)
                if self._replace(joker):
                    freeable.append(joker.bound)
            if mine:
                joker_melds.append((meld_index, mine))
        return freeable, joker_melds

    def _bind(self, meld: Meld, stands: Tile, keep: int | None) -> TableJoker:
        """The ``b`` variables of the joker of ``meld`` standing for ``stands``; ``keep``: the meld's ``km``."""
        cat = self.cat
        top = cat.rules.numbers
        if meld.kind is MeldKind.RUN:
            options = [cat.kind_of(stands)]
        else:
            assert stands.number is not None  # a joker stands for a numbered tile
            present = {t.colour for t in meld.tiles if t.colour is not None}
            options = [
                c * top + stands.number - 1
                for c in range(cat.rules.colours)
                if cat.kinds[c * top].colour not in present
            ]
        joker = TableJoker(options, [self.new_var() for _ in options], cat.kind_of(stands))
        for k, var in zip(options, joker.bound):
            self.jokers_at.setdefault(k, []).append(var)
        if keep is not None:
            # A kept meld keeps its joker where it stood.
            self.row([joker.bound[options.index(joker.kind)], keep], [1, -1], 0, INF)
        return joker

    def _replace(self, joker: TableJoker) -> bool:
        """The ``rp`` variables of ``joker``: whether a rack tile may replace it (it is freeable)."""
        bound = joker.bound
        replacements = [k for k in joker.options if self.built.counts.rack[k]]
        if not replacements or not self.hosts:
            self.row(bound, [1] * len(bound), 1, 1)  # cannot be freed
            return False
        rp = [self.new_var() for _ in replacements]
        for k, var in zip(replacements, rp):
            self.played_at.setdefault(k, []).append(var)
        self.row(bound + rp, [1] * (len(bound) + len(rp)), 1, 1)  # freed = sum(rp)
        return True

    def freed_melds(self, assign: list[list[int]]) -> None:
        """The designated melds of the freed jokers, ``c`` in turn with its ``a[j,c]`` (``assign[c]``)."""
        host_kinds = sorted({k for s in self.hosts for k in self.cat.sets[s].kinds})
        previous_used: list[int] | None = None
        for members in assign:
            previous_used = self._freed_meld(members, host_kinds, previous_used)

    def _freed_meld(self, members: list[int], host_kinds: list[int], previous_used: list[int] | None) -> list[int]:
        """One designated meld of freed jokers, its ``w``, ``q``, ``r`` and ``rr``: its ``w`` vars.
        ``previous_used``: the previous designated meld's ``w``."""
        cat, hosts, counts = self.cat, self.hosts, self.built.counts
        ws = [self.new_var() for _ in hosts]
        for s, w in zip(hosts, ws):
            self.designated.setdefault(s, []).append(w)
        record = FreedMeld(list(zip(hosts, ws)), [], [])
        self.built.freed.append(record)
        # used(c) = sum(w) <= 1, used(c) <= jokers assigned, each assigned joker needs used(c)
        self.row(ws, [1] * len(ws), 0, 1)
        self.row(ws + members, [1] * len(ws) + [-1] * len(members), -INF, 0)
        for member in members:
            self.row([member] + ws, [1] + [-1] * len(ws), -INF, 0)
        if previous_used is not None:  # designated melds are used in order (no symmetric copies)
            self.row(ws + previous_used, [1] * len(ws) + [-1] * len(previous_used), -INF, 0)
        qs: list[int] = []
        helpers: list[int] = []
        real_helpers: list[int] = []
        for k in host_kinds:
            in_host = [w for s, w in zip(hosts, ws) if k in cat.sets[s].kinds]
            q = self.new_var()
            qs.append(q)
            record.jokers.append((k, q))
            self.jokers_at.setdefault(k, []).append(q)
            slot_vars = [q]
            if counts.rack[k]:
                r = self.new_var()
                record.reals.append((k, r))
                self.played_at.setdefault(k, []).append(r)
                helpers.append(r)
                real_helpers.append(r)
                slot_vars.append(r)
            if counts.rack_jokers:
                rr = self.new_var()
                record.rack_jokers.append((k, rr))
                self.rack_joker_uses.append(rr)
                self.jokers_at.setdefault(k, []).append(rr)
                helpers.append(rr)
                slot_vars.append(rr)
            # a slot holds one thing, and only inside the designated meld's set
            self.row(slot_vars + in_host, [1] * len(slot_vars) + [-1] * len(in_host), -INF, 0)
        # the freed jokers assigned to c sit in its joker slots: sum(q) = sum(assign)
        self.row(qs + members, [1] * len(qs) + [-1] * len(members), 0, 0)
        # at least two further rack tiles: sum(r) + sum(rr) >= 2 used(c)
        self.row(helpers + ws, [1] * len(helpers) + [-2] * len(ws), 0, INF)
        doubled = [w for s, w in zip(hosts, ws) if self.anchored.get(s, 0) >= 2]
        if doubled:  # a run that would read as a group: two real tiles
            self.row(real_helpers + doubled, [1] * len(real_helpers) + [-2] * len(doubled), 0, INF)
        return ws

    def reserve_freed_reals(self) -> None:
        """Reserved real tiles: the freed melds' rack tiles (then the kept hosts' witnesses)."""
        for record in self.built.freed:
            for k, var in record.reals:
                self.real_at.setdefault(k, []).append(var)

    # -- the kept hosts ----------------------------------------------------------------------------

    def kept_hosts(self, position: Position, joker_melds: list[tuple[int, list[TableJoker]]]) -> None:
        """The kept hosts of the table melds' bound jokers (see :func:`strict_jokers`).

        Groups of one number may share a host (K4 B4 J and K4 O4 J become K4 O4 J J, beside K4 of
        the one and O4 of the other); each run has hosts of its own."""
        kind_of = self.cat.kind_of
        families: dict[tuple[str, int | None], list[JokerMeld]] = {}
        for meld_index, jokers in joker_melds:
            meld = position.table[meld_index]
            key = ("run", meld_index) if meld.kind is MeldKind.RUN else ("group", meld.represents[0].number)
            witnesses = sorted({kind_of(t) for t in meld.tiles if not t.is_joker})
            options = sorted({k for joker in jokers for k in joker.options})
            member = JokerMeld(meld, jokers, self.kept_var.get(meld_index), witnesses, options)
            families.setdefault(key, []).append(member)
        for (shape, _), family in families.items():
            if shape == "run":
                (member,) = family
                self.run_hosts(member)
            else:
                self.group_hosts(family)

    def run_hosts(self, member: JokerMeld) -> None:
        """The kept hosts of one table run's bound jokers (see :func:`strict_jokers`): as many as
        its jokers, each a copy of one of its shapes (:func:`_host_shapes`)."""
        shapes = _host_shapes(self.cat, member.meld, member.options, member.witnesses, self.ub)
        host_q: list[dict[int, int]] = []
        host_w: list[dict[int, int]] = []
        previous: list[int] | None = None
        for _ in member.jokers if shapes else ():
            hs, qs, ws = self._run_host(member, shapes, previous)
            previous = hs
            host_q.append(qs)
            host_w.append(ws)
        joker_cols = {k: [qs[k] for qs in host_q if k in qs] for k in member.options}
        self._stay_rows(member, joker_cols, ([ws[k] for ws in host_w if k in ws] for k in member.witnesses))

    def _run_host(
        self, member: JokerMeld, shapes: list[HostShape], previous: list[int] | None
    ) -> tuple[list[int], dict[int, int], dict[int, int]]:
        """One kept host of a run: its ``h`` vars (one per shape), its ``hq`` and ``hw`` by kind.
        ``previous``: the previous host's ``h``."""
        built, jokers = self.built, member.jokers
        hs = [self.new_var() for _ in shapes]
        qs = {k: self.new_var() for k in member.options if any(k in kinds for _, kinds in shapes)}
        ws = {k: self.new_var() for k in member.witnesses if any(k in kinds for _, kinds in shapes)}
        for (sets, _), var in zip(shapes, hs):
            for s in sets:  # a host is a new meld: it takes a copy of each of its base sets
                self.designated.setdefault(s, []).append(var)
        for slots in (qs, ws):  # a slot of kind k only in a host holding k
            for k, var in slots.items():
                holders = [h for (_, kinds), h in zip(shapes, hs) if k in kinds]
                self.row([var] + holders, [1] + [-1] * len(holders), -INF, 0)
        q, w = list(qs.values()), list(ws.values())
        self.row(hs, [1] * len(hs), 0, 1)  # used = sum(h) <= 1
        # a used host holds one to len(jokers) of the meld's jokers and a witness
        self.row(q + hs, [1] * len(q) + [-len(jokers)] * len(hs), -INF, 0)
        self.row(q + hs, [1] * len(q) + [-1] * len(hs), 0, INF)
        self.row(w + hs, [1] * len(w) + [-1] * len(hs), 0, INF)
        for (sets, kinds), var in zip(shapes, hs):
            if len(sets) == 1 and self.anchored.get(sets[0], 0) >= 2:  # it would read otherwise: two real tiles
                built.doubled_hosts = True
                mine = [ws[k] for k in kinds if k in ws]
                self.row(mine + [var], [1] * len(mine) + [-2], 0, INF)
        if previous is not None:  # hosts are used in order (no symmetric copies)
            self.row(hs + previous, [1] * len(hs) + [-1] * len(previous), -INF, 0)
        for k, var in ws.items():
            self.real_at.setdefault(k, []).append(var)
        built.freed.append(
            FreedMeld(
                hosts=[(sets[0], var) for (sets, _), var in zip(shapes, hs) if len(sets) == 1],
                jokers=list(qs.items()),
                reals=list(ws.items()),
                long=[(sets, var) for (sets, _), var in zip(shapes, hs) if len(sets) > 1],
            )
        )
        return hs, qs, ws

    def group_hosts(self, family: list[JokerMeld]) -> None:
        """Kept hosts shared by the table groups of one number that hold jokers (see
        :func:`strict_jokers`): as many hosts as their jokers, each a copy of a group base set
        (``h[c,s]``) holding the bound jokers of some of the groups (``a[c,i]``: of group ``i``;
        ``hq[c,i,k]``: one standing for ``k``), each with a witness of its own group
        (``hw[c,i,k]``); a slot of kind ``k`` holds one of them. ``family``: the groups."""
        shapes = sorted(
            {
                shape
                for member in family
                for shape in _host_shapes(self.cat, member.meld, member.options, member.witnesses, self.ub)
            }
        )
        total = sum(len(member.jokers) for member in family)
        joker_cols: list[dict[int, list[int]]] = [{} for _ in family]  # per group: kind -> hq vars
        witness_cols: list[dict[int, list[int]]] = [{} for _ in family]  # per group: kind -> hw vars
        previous: list[int] | None = None
        for _ in range(total if shapes else 0):
            previous = self._group_host(
                family, shapes, previous=previous, joker_cols=joker_cols, witness_cols=witness_cols
            )
        for member, jokers, witnesses in zip(family, joker_cols, witness_cols):
            self._stay_rows(member, jokers, witnesses.values())

    def _group_host(
        self,
        family: list[JokerMeld],
        shapes: list[HostShape],
        *,
        previous: list[int] | None,
        joker_cols: list[dict[int, list[int]]],
        witness_cols: list[dict[int, list[int]]],
    ) -> list[int]:
        """One kept host shared by ``family``: its ``h`` vars (one per shape); its ``hq`` and ``hw``
        go to ``joker_cols`` and ``witness_cols`` (per group, by kind). ``previous``: the previous
        host's ``h``."""
        hs = [self.new_var() for _ in shapes]
        for (sets, _), var in zip(shapes, hs):
            for s in sets:
                self.designated.setdefault(s, []).append(var)
        self.row(hs, [1] * len(hs), 0, 1)  # used = sum(h) <= 1
        if previous is not None:  # hosts are used in order (no symmetric copies)
            self.row(hs + previous, [1] * len(hs) + [-1] * len(previous), -INF, 0)
        slot_vars: dict[int, list[int]] = {}  # kind -> every hq and hw of that kind
        a_vars: list[int] = []
        record = FreedMeld([(sets[0], var) for (sets, _), var in zip(shapes, hs)], [], [])
        for i, member in enumerate(family):
            a = self.new_var()
            a_vars.append(a)
            self.row([a] + hs, [1] + [-1] * len(hs), -INF, 0)  # a <= used
            qs = [(k, self.new_var()) for k in member.options]
            ws = [(k, self.new_var()) for k in member.witnesses]
            for _, var in qs + ws:  # hq, hw <= a
                self.row([var, a], [1, -1], -INF, 0)
            q, w = [v for _, v in qs], [v for _, v in ws]
            self.row(q + [a], [1] * len(q) + [-len(member.jokers)], -INF, 0)
            self.row(q + [a], [1] * len(q) + [-1], 0, INF)  # a joker of group i
            self.row(w + [a], [1] * len(w) + [-1], 0, INF)  # and a witness of it
            for k, var in qs:
                slot_vars.setdefault(k, []).append(var)
                joker_cols[i].setdefault(k, []).append(var)
            for k, var in ws:
                slot_vars.setdefault(k, []).append(var)
                witness_cols[i].setdefault(k, []).append(var)
                self.real_at.setdefault(k, []).append(var)
            record.jokers += qs
            record.reals += ws
        self.row(hs + a_vars, [1] * len(hs) + [-1] * len(a_vars), -INF, 0)  # used <= sum(a)
        for k, items in slot_vars.items():  # a slot of kind k: one joker or witness, in a host holding k
            holders = [h for (_, kinds), h in zip(shapes, hs) if k in kinds]
            self.row(items + holders, [1] * len(items) + [-1] * len(holders), -INF, 0)
        for (sets, kinds), var in zip(shapes, hs):
            if self.anchored.get(sets[0], 0) >= 2:  # it would read otherwise: two real tiles
                self.built.doubled_hosts = True
                mine = [v for k, v in record.reals if k in kinds]
                self.row(mine + [var], [1] * len(mine) + [-2], 0, INF)
        self.built.freed.append(record)
        return hs

    def _stay_rows(
        self, member: JokerMeld, joker_cols: dict[int, list[int]], witness_cols: Iterable[list[int]]
    ) -> None:
        """The rows keeping ``member``'s bound jokers with it: ``joker_cols``, kind -> the ``hq``
        vars of its jokers standing for it, host by host; ``witness_cols``, per tile of the meld
        (its kind), its ``hw`` vars."""
        for k in member.options:  # the meld's bound jokers standing for k: kept in place (km) or in its hosts
            terms = [(var, 1) for var in joker_cols.get(k, [])]
            terms += [(joker.bound[joker.options.index(k)], -1) for joker in member.jokers if k in joker.options]
            own = sum(1 for joker in member.jokers if joker.kind == k)
            if own and member.keep is not None:
                terms.append((member.keep, own))
            self.row([v for v, _ in terms], [c for _, c in terms], 0, 0)
        for column in witness_cols:  # each tile of the old meld is the witness of one host at most
            if len(column) > 1:
                self.row(column, [1] * len(column), 0, 1)

    # -- the rows linking it all to the layer --------------------------------------------------------

    def reserved_rows(self) -> None:
        """Reserved real slots of kind k + kept melds' real tiles of kind k <= table[k] + p[k]."""
        if not self.real_at:
            return
        built, cat = self.built, self.cat
        kept_real: dict[int, dict[int, int]] = {}
        for base, (var, _) in built.simple_keep.items():
            for k in cat.sets[base].kinds:
                kept_real.setdefault(k, {})[var] = kept_real.get(k, {}).get(var, 0) + 1
        for meld in built.complex_keep:
            for k in meld.real_kinds:
                kept_real.setdefault(k, {})[meld.var] = kept_real.get(k, {}).get(meld.var, 0) + 1
        for k, items in self.real_at.items():
            kept = kept_real.get(k, {})
            vs = items + list(kept) + [built.p(k)]
            cs = [1] * len(items) + list(kept.values()) + [-1]
            self.row(vs, cs, -INF, built.counts.table[k])

    def linking_rows(self, freeable: list[list[int]], assign: list[list[int]]) -> None:
        """Each freeable joker bound or assigned; the designated melds, the jokers required at a
        kind, the reserved rack tiles and the rack jokers used, against the layer's ``x``, ``jk``, ``p``."""
        built = self.built
        final = built.final
        # each freeable joker: bound, or assigned to exactly one designated meld
        for j, bound in enumerate(freeable):
            column = [assign[c][j] for c in range(len(assign))]
            self.row(bound + column, [1] * (len(bound) + len(column)), 1, 1)
        for s, ws in self.designated.items():
            # designated melds are new melds: together with kept melds at most x[s]
            kept = built.keep_terms.get(s, [])
            vs = ws + [v for v, _ in kept] + [final.x(s)]
            self.row(vs, [1] * len(ws) + [c for _, c in kept] + [-1], -INF, 0)
        for k, items in self.jokers_at.items():
            # jokers required at kind k <= jk[k]
            self.row(items + [final.jk(k)], [1] * len(items) + [-1], -INF, 0)
        for k, items in self.played_at.items():
            # reserved rack tiles of kind k <= p[k] (rack tiles of kind k played)
            self.row(items + [built.p(k)], [1] * len(items) + [-1], -INF, 0)
        if self.rack_joker_uses:
            # rack jokers in designated melds <= rack jokers played = sum(jk) - table jokers
            uses = self.rack_joker_uses
            jk = list(final.jks)
            self.row(uses + jk, [1] * len(uses) + [-1] * len(jk), -INF, -built.counts.table_jokers)


def _host_shapes(
    cat: Catalogue, meld: Meld, options: list[int], witnesses: list[int], ub: list[int]
) -> list[HostShape]:
    """The new melds a kept joker of ``meld`` may sit in, as (base sets, kinds): every usable
    base set holding one of the jokers' kinds and a tile of the meld; for a run, also every
    longer run of its colour doing so (as its base sets), so that a witness need not lie in the
    joker's own base set (``R1 R2 J R4 J R6`` from ``J R4 J``: base sets ``R1 R2 J`` and ``R4 J R6``)."""
    in_meld = set(witnesses)
    shapes = [
        HostShape((s,), cat.sets[s].kinds)
        for s in sorted({s for k in options for s in cat.sets_by_kind[k]})
        if ub[s] and not in_meld.isdisjoint(cat.sets[s].kinds)
    ]
    if meld.kind is not MeldKind.RUN:
        return shapes
    rules = cat.rules
    m, top = rules.min_meld_length, rules.numbers
    colour = options[0] // top
    for length in range(2 * m, top + 1):
        for start in run_starts(rules, length):
            numbers = run_numbers(rules, start, length)
            assert numbers is not None  # a start run_starts gives
            kinds = tuple(colour * top + n - 1 for n in numbers)
            if in_meld.isdisjoint(kinds) or not any(k in kinds for k in options):
                continue
            chunks: list[tuple[int, ...]] = []
            rest = list(kinds)
            while len(rest) > 2 * m - 1:
                chunks.append(tuple(rest[:m]))
                rest = rest[m:]
            chunks.append(tuple(rest))
            sets = tuple(cat.index_of(chunk, True) for chunk in chunks)
            if all(ub[p] for p in sets):
                shapes.append(HostShape(sets, kinds))
    return shapes
