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

from rummisolve.errors import InvalidMeldError
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._layout import count_position
from rummisolve.solver._pieces import protos as protos_for
from rummisolve.tiles import JOKER, Tile

__all__ = ["lay_down_all", "BUDGET"]

BUDGET = 2_000
"""Search steps the split of the rack may take before the shortcut gives up (the model decides)."""


def lay_down_all(position: Position, cat: Catalogue) -> tuple[tuple[Tile, ...], tuple[Meld, ...]] | None:
    """``(played, new table)`` when laying down every playable rack tile in new melds beside the
    unchanged table is legal (and so optimal), else ``None``. Not refereed here."""
    rules = position.rules
    counts = count_position(position, cat)
    if counts.has_twist:
        return None
    opening = not position.opened
    jokers = counts.rack_jokers if not opening or rules.joker_in_initial_meld else 0
    # What the model may use: the rack alone for an official opening, else table and rack.
    if opening and not rules.open_then_manipulate:
        available, usable_jokers = counts.rack, jokers
    else:
        available = [t + r for t, r in zip(counts.table, counts.rack)]
        usable_jokers = counts.table_jokers + jokers
    protos = protos_for(cat)
    bounds = protos.copy_bounds(usable_jokers)
    ub = [bounds[slots(available)] for slots in protos.slot_counts]
    fits = [sets is not None and any(sets(ub)) for sets in protos.sets_of_kind]
    remaining = [n if fits[k] else 0 for k, n in enumerate(counts.rack)]
    total = sum(remaining) + jokers
    if not total:
        return None
    if rules.discard and total >= len(position.rack):
        return None  # a tile must stay to discard: the bound cannot be reached
    split = _split(cat, remaining, jokers)
    if split is None:
        return None
    melds = []
    for s, missing in split:
        tiles = [JOKER if k in missing else cat.kinds[k] for k in cat.sets[s].kinds]
        try:
            melds.append(Meld.of(tiles, rules))
        except InvalidMeldError:
            return None
    if opening and sum(m.value for m in melds) < max(rules.initial_threshold, 1):
        return None
    played = tuple(sorted(t for m in melds for t in m.tiles))
    return played, tuple(position.table) + tuple(melds)


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
