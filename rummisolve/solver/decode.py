"""Turn the solver's variable values back into a table of melds in play order."""

from __future__ import annotations

from collections.abc import Callable

from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.solver.candidates import Catalogue
from rummisolve.solver.model import PositionModel
from rummisolve.tiles import JOKER, Tile

__all__ = ["decode"]

Slot = tuple[int, bool]
"""A slot of a set copy: (kind index, filled by a joker)."""


def decode(
    position: Position, cat: Catalogue, built: PositionModel, value: Callable
) -> tuple[tuple[Tile, ...], tuple[Meld, ...], tuple[int, ...]]:
    """``(played rack tiles, new table, indices of the table melds kept as they were)``."""
    played: list[Tile] = []
    for k, var in built.p.items():
        played.extend([cat.kinds[k]] * value(var))
    played_jokers = value(built.pj) if not isinstance(built.pj, int) else built.pj
    played.extend([JOKER] * played_jokers)

    kept = tuple(i for i, var in enumerate(built.keep) if var is None or value(var))
    real = [0] * len(cat.kinds)
    for meld in position.table:
        for tile in meld.tiles:
            if tile.colour is not None:
                real[cat.kind_of(tile)] += 1
    for i in kept:
        for tile in position.table[i].tiles:
            if tile.colour is not None:
                real[cat.kind_of(tile)] -= 1
    for k, var in built.p.items():
        real[k] += value(var)

    layer = built.final
    copies: list[tuple[int, int | None]] = []  # (set index, anchor kind)
    for s, x in zip(layer.sets, layer.x):
        n = value(x)
        if not n:
            continue
        anchored = 0
        for k in cat.sets[s].kinds:
            z = layer.anchors.get((s, k))
            if z is not None:
                for _ in range(value(z)):
                    copies.append((s, k))
                    anchored += 1
        copies.extend((s, None) for _ in range(n - anchored))

    # Anchors first, so that no copy is left with jokers only; then fill real tiles in order.
    slots: list[list[Slot]] = []
    for s, anchor in copies:
        if anchor is not None:
            real[anchor] -= 1
        slots.append([(k, False) if k == anchor else (k, True) for k in cat.sets[s].kinds])
    for copy in slots:
        for i, (k, joker) in enumerate(copy):
            if joker and real[k] > 0:
                real[k] -= 1
                copy[i] = (k, False)

    runs = [copy for (s, _), copy in zip(copies, slots) if cat.sets[s].is_run]
    groups = [copy for (s, _), copy in zip(copies, slots) if not cat.sets[s].is_run]
    new_melds = [_meld(cat, run, position) for run in _join_runs(cat, runs)]
    new_melds += [_meld(cat, _group_order(cat, group), position) for group in sorted(groups, key=_group_key)]
    table = tuple(position.table[i] for i in kept) + tuple(new_melds)
    return tuple(sorted(played)), table, kept


def _meld(cat: Catalogue, slots: list[Slot], position: Position) -> Meld:
    return Meld.of([JOKER if joker else cat.kinds[k] for k, joker in slots], position.rules)


def _group_key(slots: list[Slot]) -> tuple:
    return tuple(k for k, _ in slots)


def _group_order(cat: Catalogue, slots: list[Slot]) -> list[Slot]:
    """Real tiles in colour order, then the jokers."""
    return sorted(slots, key=lambda slot: (slot[1], slot[0]))


def _join_runs(cat: Catalogue, runs: list[list[Slot]]) -> list[list[Slot]]:
    """Re-join runs that continue one another (they were split only to keep the model small)."""
    top = cat.rules.numbers

    def position_key(run: list[Slot]) -> tuple[int, int]:
        first = run[0][0]
        return first // top, first % top

    pending = sorted(runs, key=position_key)
    joined: list[list[Slot]] = []
    while pending:
        run = pending.pop(0)
        while True:
            last = run[-1][0]
            colour, number = last // top, last % top + 1
            if number == top and not cat.rules.wraparound:
                break
            if number == 1:
                break  # only a run that wrapped past the top number ends at 1
            follower = None
            for j, other in enumerate(pending):
                first = other[0][0]
                if first // top == colour and first % top == number % top and not _contains_one_twice(run, other, top):
                    follower = j
                    break
            if follower is None:
                break
            run = run + pending.pop(follower)
        joined.append(run)
    return joined


def _contains_one_twice(run: list[Slot], other: list[Slot], top: int) -> bool:
    """Whether joining would repeat a number (possible only with wraparound)."""
    numbers = [k % top for k, _ in run] + [k % top for k, _ in other]
    return len(set(numbers)) != len(numbers)
