"""Turn the solver's variable values back into a table of melds in play order."""

from __future__ import annotations

from collections.abc import Sequence

from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.solver.candidates import Catalogue
from rummisolve.solver.model import PositionModel
from rummisolve.tiles import JOKER, Tile

__all__ = ["decode", "primary_value", "DecodeError", "NeedAnchors"]

Slot = tuple[int, bool]
"""A slot of a set copy: (kind index, filled by a joker)."""


class DecodeError(RuntimeError):
    """The solution's counts cannot be laid out as melds (a modelling bug; never bad input)."""


class NeedAnchors(Exception):
    """The solution needs a meld of jokers only; re-solve with these sets anchored to real tiles."""

    def __init__(self, sets: frozenset[int]) -> None:
        super().__init__(f"anchor sets {sorted(sets)}")
        self.sets = sets


def primary_value(built: PositionModel, cat: Catalogue, sol: Sequence[int], objective: str) -> int:
    """Tiles played or points shed by a solution."""
    off = built.final_offset
    n_sets = len(cat.sets)
    counts = built.counts
    slots = sum(len(base.kinds) * sol[off + s] for s, base in enumerate(cat.sets) if sol[off + s])
    if objective == "tiles":
        return slots - (0 if built.kept_by_rule else sum(counts.table) + counts.table_jokers)
    value = sum(base.value * sol[off + s] for s, base in enumerate(cat.sets) if sol[off + s])
    penalty = cat.rules.joker_penalty
    value += sum((penalty - n) * sol[off + n_sets + k] for k, n in enumerate(cat.numbers) if sol[off + n_sets + k])
    if not built.kept_by_rule:
        value -= sum(n * c for n, c in zip(cat.numbers, counts.table)) + penalty * counts.table_jokers
    return value


def decode(
    position: Position, cat: Catalogue, built: PositionModel, sol: Sequence[int]
) -> tuple[tuple[Tile, ...], tuple[Meld, ...], tuple[int, ...]]:
    """``(played rack tiles, new table, indices of the table melds kept as they were)``."""
    off = built.final_offset
    n_sets = len(cat.sets)
    n_kinds = len(cat.kinds)
    counts = built.counts
    copies = [sol[off + s] for s in range(n_sets)]
    jokers = [sol[off + n_sets + k] for k in range(n_kinds)]
    real = [0] * n_kinds
    for s, n in enumerate(copies):
        if n:
            for k in cat.sets[s].kinds:
                real[k] += n
    for k in range(n_kinds):
        real[k] -= jokers[k]
    table = [0] * n_kinds if built.kept_by_rule else counts.table
    played: list[Tile] = []
    for k in range(n_kinds):
        extra = real[k] - table[k]
        if extra < 0 or extra > counts.rack[k]:
            raise DecodeError(f"kind {cat.kinds[k]}: {extra} played of {counts.rack[k]}")
        played.extend([cat.kinds[k]] * extra)
    played_jokers = sum(jokers) - (0 if built.kept_by_rule else counts.table_jokers)
    if not 0 <= played_jokers <= counts.rack_jokers:
        raise DecodeError(f"{played_jokers} jokers played of {counts.rack_jokers}")
    played.extend([JOKER] * played_jokers)

    # Kept melds take their own copies, real tiles and jokers first.
    if built.kept_by_rule:
        kept = list(range(len(position.table)))
    else:
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
                for s in meld.pieces:
                    copies[s] -= 1
                for k in meld.real_kinds:
                    real[k] -= 1
                for k in meld.joker_kinds:
                    jokers[k] -= 1
        kept.sort()

    # Strict jokers that were freed: their new meld holds the joker and two tiles from the rack.
    layout: list[tuple[int, list[Slot]]] = []
    for record in built.freed:
        host = next((s for s, var in record["y"] if sol[var]), None)
        if host is None:
            continue
        filled = {k: True for k, var in record["q"] + record["rr"] if sol[var]}
        filled.update({k: False for k, var in record["r"] if sol[var]})
        slots = [(k, filled[k]) if k in filled else (k, None) for k in cat.sets[host].kinds]
        for k, joker in filled.items():
            if joker:
                jokers[k] -= 1
            else:
                real[k] -= 1
        copies[host] -= 1
        layout.append((host, slots))
    fixed = len(layout)

    # Remaining copies: anchored real tiles first (no meld of jokers only), then fill.
    for s, n in enumerate(copies):
        if n < 0:
            raise DecodeError(f"set {s}: {n} copies")
        kinds = cat.sets[s].kinds
        for _ in range(n):
            layout.append((s, [(k, True) for k in kinds]))
    if built.layer_jokers >= cat.rules.min_meld_length:
        _anchor_copies(cat, built, layout, real, fixed)
    for copy, (_, slots) in enumerate(layout):
        for i, (k, joker) in enumerate(slots):
            if copy < fixed and joker is not None:
                continue  # a designated slot of a freed joker's meld
            if joker or joker is None:
                if real[k] > 0:
                    real[k] -= 1
                    slots[i] = (k, False)
                else:
                    jokers[k] -= 1
    if any(real) or any(jokers):
        raise DecodeError("tiles left over after laying out the sets")

    rules = position.rules
    runs = [slots for s, slots in layout if cat.sets[s].is_run]
    groups = [slots for s, slots in layout if not cat.sets[s].is_run]
    new = [_meld(cat, run, rules) for run in _join_runs(cat, runs)]
    new += [_meld(cat, _group_order(group), rules) for group in sorted(groups, key=_group_key)]
    new_table = tuple(position.table[i] for i in kept) + tuple(new)
    return tuple(sorted(played)), new_table, tuple(kept)


def _anchor_copies(
    cat: Catalogue, built: PositionModel, layout: list[tuple[int, list[Slot]]], real: list[int], fixed: int
) -> None:
    """Give one real tile to every copy that jokers alone could fill (a bipartite matching).

    Raises :class:`NeedAnchors` when no such assignment exists, naming the sets to anchor."""
    jokers = built.layer_jokers
    needy = [i for i, (s, _) in enumerate(layout) if i >= fixed and len(cat.sets[s].kinds) <= jokers]
    if not needy:
        return
    holders: dict[int, list[int]] = {}  # kind -> copies anchored to it
    anchor: dict[int, int] = {}

    def augment(copy: int, seen: set[int]) -> bool:
        for k in cat.sets[layout[copy][0]].kinds:
            if k in seen or not real[k]:
                continue
            seen.add(k)
            taken = holders.setdefault(k, [])
            if len(taken) < real[k]:
                taken.append(copy)
                anchor[copy] = k
                return True
            for j, other in enumerate(taken):
                if augment(other, seen):
                    taken[j] = copy
                    anchor[copy] = k
                    return True
        return False

    failed = [copy for copy in needy if not augment(copy, set())]
    if failed:
        present = frozenset(layout[i][0] for i in needy)
        missing = present - {s - built.final_offset for s, _ in built.anchors}
        if not missing:
            raise DecodeError("anchored sets still hold a meld of jokers only")
        raise NeedAnchors(missing)
    for copy, k in anchor.items():
        slots = layout[copy][1]
        slots[slots.index((k, True))] = (k, False)
        real[k] -= 1


def _group_key(slots: list[Slot]) -> tuple[int, ...]:
    return tuple(k for k, _ in slots)


def _group_order(slots: list[Slot]) -> list[Slot]:
    """Real tiles in colour order, then jokers; jokers first when only one tile is real, so that
    the sequence cannot read as a (higher-valued) run such as ``K10 J J`` = K10 K11 K12."""
    real = sorted(slot for slot in slots if not slot[1])
    jokers = [slot for slot in slots if slot[1]]
    return jokers + real if len(real) == 1 else real + jokers


def _meld(cat: Catalogue, slots: list[Slot], rules) -> Meld:
    return Meld.of([JOKER if joker else cat.kinds[k] for k, joker in slots], rules)


def _join_runs(cat: Catalogue, runs: list[list[Slot]]) -> list[list[Slot]]:
    """Re-join runs that continue one another (they were split only to keep the model small)."""
    top = cat.rules.numbers
    pending = sorted(runs, key=lambda run: (run[0][0] // top, run[0][0] % top))
    joined: list[list[Slot]] = []
    while pending:
        run = pending.pop(0)
        while True:
            last = run[-1][0]
            colour, number = last // top, last % top + 1
            if number == 1 or (number == top and not cat.rules.wraparound):
                break  # nothing follows the top number, nor a 1 that wrapped
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
