"""Exact shortcut before CP-SAT: a rack that lays down everything it can while the table stays.

The model (:mod:`~rummisolve.solver._model`) can play a rack tile only if its kind lies in a
*usable* base set (one whose slots the tiles and jokers available can fill; every meld splits
into base sets, so no other tile can ever be played). So the tiles played are at most the rack
tiles of usable kinds plus the rack jokers the player may play, and the melds kept at most every
table meld. When exactly those rack tiles and jokers split into melds of their own, laying them
down beside the untouched table reaches both bounds at once: its objective (points or tiles) is
the model's upper bound and it keeps every meld, so it is optimal, ties included. Every optimum
then plays the same multiset of tiles (each usable tile adds to the objective: a tile counts 1, a
number at least 1, a joker its penalty, or one tile when the penalty is 0) and keeps every meld,
so what this answer shares with the model's is the status, the tiles played (as a multiset), the
value, the melds kept (all of them, as they were); only how the played tiles are split into new
melds may differ, a choice the model makes arbitrarily among equal answers.

When the shortcut is not proven (special jokers in play; under the discard rule when every rack
tile would go; an opening below the threshold; a split not found within :data:`BUDGET` steps), it
answers ``None`` and the model decides. Its answer is refereed like any other.

No-move positions the same bound settles (no rack tile in a usable set) are answered by
:func:`~rummisolve.solver._model.build_model` returning ``None``, before any model is built.
"""

from __future__ import annotations

from functools import lru_cache

from rummisolve.errors import InvalidMeldError
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rule_facts import joker_reading_matters
from rummisolve.rules import RuleSet
from rummisolve.solver._candidates import Catalogue, catalogue
from rummisolve.solver._decode import JOKER_SLOT, REAL_SLOT, Slot, group_key, group_meld, join_runs, slots_meld
from rummisolve.solver._layout import TableCounts
from rummisolve.tiles import Tile

__all__ = ["lay_down_all", "BUDGET"]

BUDGET = 2_000
"""Search steps the split of the rack may take before the shortcut gives up (the model decides)."""


def lay_down_all(
    position: Position, cat: Catalogue, table: TableCounts | None = None
) -> tuple[tuple[Tile, ...], tuple[Meld, ...]] | None:
    """``(played, new table)`` when laying down every playable rack tile in new melds beside the
    unchanged table is legal (and so optimal), else ``None``. Not refereed here.

    A kind is playable only if some base set of :data:`min_meld_length` tiles holding it can be
    filled (a larger base set holds one of them, needing no more tiles). The tiles to lay down
    must be exactly the playable ones, and they must split among themselves: so each must be
    playable from the rack alone, and a rack tile that is not must not be playable with the
    table either (checked only then: most positions stop at that point, before the table is
    counted). ``table``: the table's counts (:func:`~rummisolve.solver._layout.count_table`), if
    already made."""
    rules = position.rules
    if any(t.is_special_joker for t in position.rack):
        return None
    if table is not None:
        if any(table.table_specials):
            return None
    elif any(t.is_special_joker for meld in position.table for t in meld.tiles):
        return None
    kind_index = cat.kind_index
    rack = [0] * len(cat.kinds)
    rack_jokers = 0
    for tile in position.rack:
        if tile.is_joker:
            rack_jokers += 1
        else:
            rack[kind_index[tile]] += 1
    opening = not position.opened
    jokers = rack_jokers if not opening or rules.joker_in_initial_meld else 0
    smallest = _smallest_sets(rules)
    remaining = rack[:]
    unfit = [k for k, n in enumerate(rack) if n and not _fits(smallest[k], rack, jokers)]
    if unfit and (not opening or rules.open_then_manipulate):
        # What the model may use here: table and rack, the table's jokers too.
        if table is not None:
            available = [r + t for r, t in zip(rack, table.table)]
            table_jokers = table.table_jokers
        else:
            available = rack[:]
            table_jokers = 0
            for meld in position.table:
                for tile in meld.tiles:
                    if tile.is_joker:
                        table_jokers += 1
                    else:
                        available[kind_index[tile]] += 1
        if any(_fits(smallest[k], available, table_jokers + jokers) for k in unfit):
            return None
    for k in unfit:
        remaining[k] = 0
    total = sum(remaining) + jokers
    if not total:
        return None
    if rules.discard and total >= len(position.rack):
        return None  # a tile must stay to discard: the bound cannot be reached
    split = _split(cat, remaining, jokers)
    if split is None:
        return None
    # Laid out as the model's answers are: runs that continue one another joined, then groups.
    runs: list[list[Slot]] = []
    groups: list[list[Slot]] = []
    for s, missing in split:
        slots: list[Slot] = [(k, JOKER_SLOT if k in missing else REAL_SLOT) for k in cat.sets[s].kinds]
        (runs if cat.sets[s].is_run else groups).append(slots)
    try:
        melds = [slots_meld(cat, run, rules) for run in join_runs(cat, runs)]
        for group in sorted(groups, key=group_key):
            found = group_meld(cat, group, rules, joker_reading_matters(rules))
            if found is None:
                return None
            melds.append(found)
    except InvalidMeldError:
        return None
    if opening and sum(m.value for m in melds) < max(rules.initial_threshold, 1):
        return None
    played = tuple(sorted(t for m in melds for t in m.tiles))
    return played, tuple(position.table) + tuple(melds)


def _fits(sets: tuple[tuple[int, ...], ...], available: list[int], jokers: int) -> bool:
    """Whether one of ``sets`` (each the other kinds of a smallest base set) can be filled."""
    for others in sets:
        missing = 0
        for i in others:
            if not available[i]:
                missing += 1
        if missing <= jokers:
            return True
    return False


@lru_cache(maxsize=32)
def _smallest_sets(rules: RuleSet) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per kind, the other kinds of each base set of ``min_meld_length`` tiles that holds it."""
    cat = catalogue(rules)
    m = cat.rules.min_meld_length
    return tuple(
        tuple(tuple(i for i in cat.sets[s].kinds if i != k) for s in sets if cat.set_sizes[s] == m)
        for k, sets in enumerate(cat.sets_by_kind)
    )


def _split(cat: Catalogue, remaining: list[int], jokers: int) -> list[tuple[int, frozenset[int]]] | None:
    """Base sets (each with the kinds its jokers fill) that use exactly ``remaining`` and
    ``jokers``, each set holding at least two real tiles (so it reads only as intended); ``None``
    if there is none or the search overruns :data:`BUDGET` steps."""
    steps = [0]
    chosen: list[tuple[int, frozenset[int]]] = []

    def search(first: int, jokers_left: int) -> bool:
        steps[0] += 1
        if steps[0] > BUDGET:
            return False
        k = next((i for i in range(first, len(remaining)) if remaining[i]), None)
        if k is None:
            return jokers_left == 0
        for s in cat.sets_by_kind[k]:
            kinds = cat.sets[s].kinds
            missing = frozenset(i for i in kinds if not remaining[i])
            if len(missing) > jokers_left or len(kinds) - len(missing) < 2:
                continue
            for i in kinds:
                if i not in missing:
                    remaining[i] -= 1
            chosen.append((s, missing))
            if search(k, jokers_left - len(missing)):
                return True
            chosen.pop()
            for i in kinds:
                if i not in missing:
                    remaining[i] += 1
        return False

    return list(chosen) if search(0, jokers) else None
