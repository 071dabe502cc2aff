"""Turn the solver's variable values back into a table of melds in play order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import mul
from typing import Any

from rummisolve.errors import DecodeError
from rummisolve.melds import Meld, MeldKind
from rummisolve.position import Position
from rummisolve.rule_facts import run_end
from rummisolve.rules import RuleSet
from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._groups import deal, read_groups
from rummisolve.solver._layout import PositionModel
from rummisolve.solver._slots import JOKER_SLOT, REAL_SLOT, Slot
from rummisolve.solver._twist import KIND, Piece, TwistModel
from rummisolve.solver._twist_decode import PieceCopy, specials_played, twist_melds
from rummisolve.tiles import JOKER, Tile

__all__ = [
    "decode",
    "primary_value",
    "DecodeError",
    "NeedAnchors",
    "Slot",
    "JOKER_SLOT",
    "REAL_SLOT",
    "group_key",
    "group_meld",
    "join_runs",
    "slots_meld",
]


class NeedAnchors(Exception):
    """The solution cannot be laid out as valid melds; re-solve with these sets anchored.

    ``sets`` maps a base set to the real tiles each copy must hold (see ``build_model``)."""

    def __init__(self, sets: dict[int, int]) -> None:
        super().__init__(f"anchor sets {sorted(sets.items())}")
        self.sets = sets


def primary_value(built: PositionModel, cat: Catalogue, sol: Sequence[int], objective: str) -> int:
    """Tiles played or points shed by a solution."""
    counts = built.counts
    copies = built.copies(sol)
    jks = built.final.jks
    extra = 0 if built.twist is None else _twist_primary(built, built.twist, cat, sol, objective)
    if cat.grouped:
        extra += _groups_primary(built, cat, sol, objective)
    if objective == "tiles":
        slots = sum(map(mul, cat.set_sizes, copies)) + extra
        return slots - (0 if built.kept_by_rule else sum(counts.table) + counts.table_jokers)
    value = sum(map(mul, cat.set_values, copies)) + extra
    penalty = cat.rules.joker_penalty
    value += sum((penalty - n) * j for n, j in zip(cat.numbers, sol[jks.start : jks.stop]) if j)
    if not built.kept_by_rule:
        value -= sum(map(mul, cat.numbers, counts.table)) + penalty * counts.table_jokers
    return value


def _groups_primary(built: PositionModel, cat: Catalogue, sol: Sequence[int], objective: str) -> int:
    """The group block's and the kept groups' share of :func:`primary_value` (before the table's
    tiles are taken off): a real tile counts 1 or its number, a joker 1 or the penalty."""
    tiles = objective == "tiles"
    penalty = 1 if tiles else cat.rules.joker_penalty
    total = 0
    for i, _, reals, jokers in read_groups(cat, sol, built.final_offset):
        total += sum(reals) * (1 if tiles else i + 1) + jokers * penalty
    for keep in built.group_keep:
        n = sol[keep.var]
        if n:
            total += n * (sum(1 if tiles else cat.numbers[k] for k in keep.real_kinds) + keep.jokers * penalty)
    return total


def _twist_primary(built: PositionModel, twist: TwistModel, cat: Catalogue, sol: Sequence[int], objective: str) -> int:
    """The Twist pieces' and special jokers' share of :func:`primary_value` (before the table's
    tiles are taken off)."""
    penalty = cat.rules.joker_penalty
    total = 0
    for piece in twist.pieces:
        n = sol[piece.var]
        if not n:
            continue
        regular = piece.joker_anchors.get(-1, 0)
        if objective == "tiles":
            total += n * (sum(piece.slots.values()) + regular)
        else:
            total += n * (sum(cat.numbers[k] * c for k, c in piece.slots.items()) + penalty * regular)
        if built.kept_by_rule:
            specials = piece.doubles + piece.changes + piece.mirrors
            total += n * specials * (1 if objective == "tiles" else penalty)
    if not built.kept_by_rule:
        played = sum(sol[var] for var in twist.played.values())
        total += played * (1 if objective == "tiles" else penalty)
    return total


@dataclass
class _Tally:
    """A solution's tiles not yet laid out: copies of each base set, and real tiles and jokers by
    kind (decoding takes from it step by step)."""

    copies: list[int]
    jokers: list[int]
    real: list[int]
    kept_jokers: int = 0
    """Jokers of kept Twist melds, the group block and kept groups (not in ``jk``)."""
    in_groups: list[int] = field(default_factory=list)
    """Real tiles by kind in the group block and in kept groups."""


"""A copy of a Twist piece and its kind slots, each ``[kind, JOKER_SLOT | REAL_SLOT | None]``."""


def decode(
    position: Position, cat: Catalogue, built: PositionModel, sol: Sequence[int], anchored: dict[int, int]
) -> tuple[tuple[Tile, ...], tuple[Meld, ...], tuple[int, ...]]:
    """``(played rack tiles, new table, indices of the table melds kept as they were)``."""
    chosen = [(piece, sol[piece.var]) for piece in built.twist.pieces if sol[piece.var]] if built.twist else []
    tally = _tally(cat, built, sol, chosen)
    grouped = read_groups(cat, sol, built.final_offset) if cat.grouped else []
    kept_groups = _tally_groups(cat, built, sol, tally, grouped)
    played = _played(cat, built, sol, tally, chosen)
    kept = _take_kept(position, cat, built, sol, tally, chosen, kept_groups)
    copies_of_pieces = _piece_copies(chosen, tally)
    layout = _freed_layout(cat, built, sol, tally)
    for s, n in enumerate(tally.copies):
        if n:
            if n < 0:
                raise DecodeError(f"set {s}: {n} copies")
            kinds = cat.sets[s].kinds
            layout.extend((s, [(k, None) for k in kinds]) for _ in range(n))
    # Copies that need real tiles get them first (no meld of jokers only; no run read as a
    # group), then every open slot takes a real tile while there are any, else a joker.
    _anchor_copies(cat, built, layout, tally.real, anchored)
    _fill(layout, copies_of_pieces, tally)
    new = _new_melds(cat, position.rules, layout, grouped, copies_of_pieces, built.fixes_joker_readings)
    new_table = tuple(position.table[i] for i in kept) + tuple(new)
    return tuple(sorted(played)), new_table, tuple(kept)


def _tally(cat: Catalogue, built: PositionModel, sol: Sequence[int], chosen: list[tuple[Piece, int]]) -> _Tally:
    """The final layer's copies, jokers by kind, and real tiles by kind in sets and Twist pieces."""
    n_kinds = len(cat.kinds)
    copies = built.copies(sol)
    jks = built.final.jks
    jokers = list(sol[jks.start : jks.stop])
    real = [0] * n_kinds
    for s, n in enumerate(copies):
        if n:
            for k in cat.sets[s].kinds:
                real[k] += n
    kept_jokers = 0
    for piece, n in chosen:
        for k, slots in piece.slots.items():
            real[k] += n * slots
        kept_jokers += n * piece.joker_anchors.get(-1, 0)
    for k in range(n_kinds):
        real[k] -= jokers[k]
    return _Tally(copies, jokers, real, kept_jokers, [0] * n_kinds)


def _tally_groups(
    cat: Catalogue,
    built: PositionModel,
    sol: Sequence[int],
    tally: _Tally,
    grouped: list[tuple[int, int, list[int], int]],
) -> list[int]:
    """Grouped: the groups' real tiles (``y``) and jokers (``jg``), and the kept groups', beside
    the runs' (their jokers, like kept Twist melds', are not in ``jk``); the kept groups' indices."""
    top = cat.rules.numbers
    for i, _, reals, n in grouped:
        for c, r in enumerate(reals):
            tally.in_groups[c * top + i] += r
        tally.kept_jokers += n
    kept_groups: list[int] = []
    for keep in built.group_keep:
        n = sol[keep.var]
        if n:
            kept_groups.extend(keep.melds[:n])
            for k in keep.real_kinds:
                tally.in_groups[k] += n
            tally.kept_jokers += n * keep.jokers
    return kept_groups


def _played(
    cat: Catalogue, built: PositionModel, sol: Sequence[int], tally: _Tally, chosen: list[tuple[Piece, int]]
) -> list[Tile]:
    """The rack tiles a solution plays: what the layout holds beyond the table's tiles."""
    counts = built.counts
    table = [0] * len(cat.kinds) if built.kept_by_rule else counts.table
    played: list[Tile] = []
    for k in range(len(cat.kinds)):
        extra = tally.real[k] + tally.in_groups[k] - table[k]
        if extra:
            if extra < 0 or extra > counts.rack[k]:
                raise DecodeError(f"kind {cat.kinds[k]}: {extra} played of {counts.rack[k]}")
            played.extend([cat.kinds[k]] * extra)
    played_jokers = sum(tally.jokers) + tally.kept_jokers - (0 if built.kept_by_rule else counts.table_jokers)
    if not 0 <= played_jokers <= counts.rack_jokers:
        raise DecodeError(f"{played_jokers} jokers played of {counts.rack_jokers}")
    played.extend([JOKER] * played_jokers)
    if built.twist is not None:
        played.extend(specials_played(built.twist, built, chosen, sol))
    return played


def _take_kept(
    position: Position,
    cat: Catalogue,
    built: PositionModel,
    sol: Sequence[int],
    tally: _Tally,
    chosen: list[tuple[Piece, int]],
    kept_groups: list[int],
) -> list[int]:
    """The table melds kept as they were (sorted); they take their own copies, real tiles and
    jokers from ``tally`` first."""
    if built.kept_by_rule:
        return list(range(len(position.table)))
    copies, real, jokers = tally.copies, tally.real, tally.jokers
    kept = []
    for s, (var, melds) in built.simple_keep.items():
        n = sol[var]
        kept.extend(melds[:n])
        copies[s] -= n
        for k in cat.sets[s].kinds:
            real[k] -= n
    for meld in built.complex_keep:
        if sol[meld.var]:
            kept.append(meld.index)
            for s in meld.sets:
                copies[s] -= 1
            for k in meld.real_kinds:
                real[k] -= 1
            for k in meld.joker_kinds:
                jokers[k] -= 1
    for piece, _ in chosen:
        if piece.shape == "kept":
            kept.append(piece.table_index)
            for k, slots in piece.slots.items():
                real[k] -= slots
    kept.extend(kept_groups)
    kept.sort()
    return kept


def _piece_copies(chosen: list[tuple[Piece, int]], tally: _Tally) -> list[PieceCopy]:
    """Each copy of a new Twist piece with its slots; its anchored slots take real tiles before
    anything else."""
    out: list[PieceCopy] = []
    for piece, n in chosen:
        if piece.shape == "kept":
            continue
        for _ in range(n):
            slots: list[list[Any]] = [[k, None] for what, k in piece.elements if what == KIND]
            for k, need in piece.anchors.items():
                for slot in slots:
                    if need and slot[0] == k and slot[1] is None:
                        slot[1] = REAL_SLOT
                        tally.real[k] -= 1
                        need -= 1
            out.append((piece, slots))
    return out


def _freed_layout(
    cat: Catalogue, built: PositionModel, sol: Sequence[int], tally: _Tally
) -> list[tuple[int, list[Slot]]]:
    """Strict jokers' designated melds: a freed joker's new meld holds the jokers and two tiles from
    the rack; a kept joker's host holds the jokers and a tile of their old meld (a host longer than
    a base set is laid out as one run of its base sets). A slot is (kind, JOKER_SLOT | REAL_SLOT |
    None): None, not decided yet."""
    layout: list[tuple[int, list[Slot]]] = []
    for record in built.freed:
        host = next((s for s, var in record.hosts if sol[var]), None)
        sets = (host,) if host is not None else next((p for p, var in record.long if sol[var]), None)
        if sets is None:
            continue
        filled = {k: JOKER_SLOT for k, var in record.jokers + record.rack_jokers if sol[var]}
        filled.update({k: REAL_SLOT for k, var in record.reals if sol[var]})
        for k, what in filled.items():
            if what is JOKER_SLOT:
                tally.jokers[k] -= 1
            else:
                tally.real[k] -= 1
        for s in sets:
            tally.copies[s] -= 1
        kinds = [k for s in sets for k in cat.sets[s].kinds]
        layout.append((sets[0], [(k, filled.get(k)) for k in kinds]))
    return layout


def _fill(layout: list[tuple[int, list[Slot]]], copies_of_pieces: list[PieceCopy], tally: _Tally) -> None:
    """Every open slot takes a real tile of its kind while there are any, else a joker; nothing
    may be left over."""
    real, jokers = tally.real, tally.jokers
    for _, slots in layout:
        for i, (k, what) in enumerate(slots):
            if what is None:
                if real[k] > 0:
                    real[k] -= 1
                    slots[i] = (k, REAL_SLOT)
                else:
                    jokers[k] -= 1
                    slots[i] = (k, JOKER_SLOT)
    for _, piece_slots in copies_of_pieces:
        for slot in piece_slots:
            if slot[1] is None:
                k = slot[0]
                if real[k] > 0:
                    real[k] -= 1
                    slot[1] = REAL_SLOT
                else:
                    jokers[k] -= 1
                    slot[1] = JOKER_SLOT
    if any(real) or any(jokers) or any(r < 0 for r in real):
        raise DecodeError(f"tiles left over after laying out the sets: {real} {jokers}")


def _new_melds(
    cat: Catalogue,
    rules: RuleSet,
    layout: list[tuple[int, list[Slot]]],
    grouped: list[tuple[int, int, list[int], int]],
    copies_of_pieces: list[PieceCopy],
    fixed: bool,
) -> list[Meld]:
    """The laid-out copies as melds: runs that continue one another joined, then the groups, then
    the Twist pieces. ``fixed``: each joker must stand for the tile the model placed it on (a rule
    extension's :attr:`~rummisolve.solver._draft.RuleExtension.fixes_joker_readings`), so a run
    that reads otherwise, or a group no order of which reads as one, anchors its set."""
    runs = [slots for s, slots in layout if cat.sets[s].is_run]
    groups = [slots for s, slots in layout if not cat.sets[s].is_run]
    new = []
    for run in join_runs(cat, runs):
        meld = slots_meld(cat, run, rules)
        if meld.kind is not MeldKind.RUN and fixed:
            # The jokers would stand for other tiles than the model placed them on.
            s = cat.index_of(tuple(k for k, _ in run), True)
            raise NeedAnchors({s: 2})
        new.append(meld)
    groups += _dealt_groups(cat, grouped)
    for group in sorted(groups, key=group_key):
        found = group_meld(cat, group, rules, fixed)
        if found is None:
            # Every order of this group's tiles reads as a run: give its copies two real tiles.
            raise NeedAnchors({cat.index_of(tuple(k for k, _ in group), False): 2})
        new.append(found)
    if copies_of_pieces:
        new.extend(Meld.of(tiles, rules) for tiles in twist_melds(cat, copies_of_pieces))
    return new


def _dealt_groups(cat: Catalogue, grouped: list[tuple[int, int, list[int], int]]) -> list[list[Slot]]:
    """The group block's groups as slots (:func:`~rummisolve.solver._groups.deal`), each joker
    standing for a colour its group misses."""
    top, colours = cat.rules.numbers, cat.rules.colours
    out: list[list[Slot]] = []
    for i, count, reals, jokers in grouped:
        if count <= 0:
            raise DecodeError(f"{sum(reals)} tiles and {jokers} jokers in no group of number {i + 1}")
        for present, n in deal(count, reals, jokers):
            missing = [c for c in range(colours) if c not in present][:n]
            if len(missing) < n:
                raise DecodeError(f"a group of number {i + 1} with {len(present)} colours and {n} jokers")
            group: list[Slot] = [(c * top + i, REAL_SLOT) for c in present]
            out.append(group + [(c * top + i, JOKER_SLOT) for c in missing])
    return out


def _anchor_copies(
    cat: Catalogue,
    built: PositionModel,
    layout: list[tuple[int, list[Slot]]],
    real: list[int],
    anchored: dict[int, int],
) -> None:
    """Give each copy the real tiles it needs, of different kinds (a small max-flow).

    A copy needs one real tile when jokers alone could fill it, and ``anchored[s]`` when the model
    asked for more. Raises :class:`NeedAnchors` when no assignment exists, naming the sets the
    model must anchor."""
    jokers = built.layer_jokers
    demand: list[tuple[int, int]] = []  # (copy, how many more real tiles)
    for i, (s, slots) in enumerate(layout):
        need = max(anchored.get(s, 0), 1 if len(slots) <= jokers else 0)
        have = sum(1 for _, what in slots if what is REAL_SLOT)
        if need > have:
            demand.append((i, need - have))
    if not demand:
        return
    holders: dict[int, list[int]] = {}  # kind -> copies holding one of its real tiles
    chosen: dict[int, set[int]] = {}  # copy -> kinds given to it

    def open_kinds(copy: int) -> list[int]:
        return [k for k, what in layout[copy][1] if what is None]

    def augment(copy: int, seen: set[int]) -> bool:
        mine = chosen.setdefault(copy, set())
        for k in open_kinds(copy):
            if k in mine or k in seen or not real[k]:
                continue
            seen.add(k)
            taken = holders.setdefault(k, [])
            if len(taken) < real[k]:
                taken.append(copy)
                mine.add(k)
                return True
            for j, other in enumerate(taken):
                if augment(other, seen):  # ``other`` found another kind: it gives up this one
                    chosen[other].discard(k)
                    taken[j] = copy
                    mine.add(k)
                    return True
        return False

    failed = {layout[copy][0] for copy, more in demand for _ in range(more) if not augment(copy, set())}
    if failed:
        missing = {s: 1 for s in failed if anchored.get(s, 0) < 1}
        if not missing:
            raise DecodeError("anchored sets still lack the real tiles they need")
        raise NeedAnchors(missing)
    for copy, kinds in chosen.items():
        slots = layout[copy][1]
        for k in kinds:
            slots[slots.index((k, None))] = (k, REAL_SLOT)
            real[k] -= 1


def group_key(slots: list[Slot]) -> tuple[int, ...]:
    """A group's kinds, to sort groups by."""
    return tuple(k for k, _ in slots)


def group_meld(cat: Catalogue, slots: list[Slot], rules: RuleSet, fixed: bool) -> Meld | None:
    """The group as a meld: real tiles in colour order, then jokers.

    A group with one real tile can also read as a (higher-valued) run, e.g. ``K10 J J`` as
    K10 K11 K12; then the real tile moves until the sequence reads as a group (``J J K10``,
    ``J K1 J`` with wraparound). Only where what a joker stands for matters (``fixed``: strict
    joker retrieval, :func:`~rummisolve.rule_facts.joker_reading_matters`) must it read as a
    group: ``None`` when no order does; elsewhere any valid reading is kept."""
    real = sorted(slot for slot in slots if slot[1] is REAL_SLOT)
    jokers = [slot for slot in slots if slot[1] is JOKER_SLOT]
    meld = slots_meld(cat, real + jokers, rules)
    if len(real) != 1 or meld.kind is MeldKind.GROUP:
        return meld
    for at in range(len(slots) - 1, -1, -1):
        order = jokers[:at] + real + jokers[at:]
        candidate = slots_meld(cat, order, rules)
        if candidate.kind is MeldKind.GROUP:
            return candidate
    return None if fixed else meld


def slots_meld(cat: Catalogue, slots: list[Slot], rules: RuleSet) -> Meld:
    """The slots as a meld, each a real tile of its kind or a joker."""
    return Meld.of([JOKER if joker else cat.kinds[k] for k, joker in slots], rules)


def join_runs(cat: Catalogue, runs: list[list[Slot]]) -> list[list[Slot]]:
    """Re-join runs that continue one another (they were split only to keep the model small)."""
    top = cat.rules.numbers
    pending = sorted(runs, key=lambda run: (run[0][0] // top, run[0][0] % top))
    joined: list[list[Slot]] = []
    while pending:
        run = pending.pop(0)
        start = run[0][0] % top + 1
        while True:
            if start + len(run) > run_end(cat.rules, start):
                break  # the run has reached its highest slot: the top number, or the 1 that wraps
            last = run[-1][0]
            colour, number = last // top, last % top + 1
            follower = None
            for j, other in enumerate(pending):
                first = other[0][0]
                if first // top == colour and first % top == number % top:
                    numbers = [k for k, _ in run] + [k for k, _ in other]
                    if len(set(numbers)) == len(numbers):
                        follower = j
                        break
            if follower is None:
                break
            run = run + pending.pop(follower)
        joined.append(run)
    return joined
