"""The strict joker rule (``joker_retrieval == "strict"``; the rule is in :mod:`rummisolve.referee`'s
docstring, "Jokers on the table"): what each joker stands for, the question put to
:class:`~rummisolve.referee._joker_matching.JokerMatching`, and the reasons that name the jokers at
fault. Part of the referee; independent of the solver."""

from __future__ import annotations

from rummisolve.position import Position
from rummisolve.referee._budget import Budget
from rummisolve.referee._joker_matching import JokerMatching
from rummisolve.referee._keys import JOKER_KEY, Key
from rummisolve.referee._new_table import NewMeld
from rummisolve.referee._verdict import Reason
from rummisolve.tiles import Tile, format_tiles


def check_jokers(
    position: Position,
    table: list[NewMeld],
    played_counts: dict[Key, int],
    tile_of: dict[Key, Tile],
    reasons: list[Reason],
    budget: Budget,
) -> None:
    """The strict joker rule (module docstring): legal if ANY matching of old to new jokers works."""
    old_jokers = [
        (oi, slot, frozenset(t.sort_key for t in meld.joker_options(slot)))
        for oi, meld in enumerate(position.table)
        for slot, t in enumerate(meld.tiles)
        if t.is_joker
    ]
    new_jokers = [
        (i, None if new.meld is None else frozenset(t.sort_key for t in new.meld.joker_options(slot)))
        for i, new in enumerate(table)
        for slot, k in enumerate(new.keys)
        if k == JOKER_KEY
    ]
    matching = JokerMatching(
        new_jokers,
        {i: [k for k in table[i].keys if k != JOKER_KEY] for i in {i for i, _ in new_jokers}},
        {k: n for k, n in played_counts.items() if k != JOKER_KEY},
        {oi: frozenset(t.sort_key for t in position.table[oi].tiles if not t.is_joker) for oi, _, _ in old_jokers},
    )

    def solve(jokers: list, deficit: int, beside: bool = True) -> bool:
        origins = [oi for oi, _, _ in jokers] if beside else None
        return matching.possible([stands for _, _, stands in jokers], deficit, budget.spend, origins)

    deficit = max(0, len(old_jokers) - len(new_jokers))
    if solve(old_jokers, deficit):
        return
    # Illegal: name each joker that fails on its own; if each is fine alone, report them jointly.
    blamed = False
    for joker in old_jokers:
        if solve([joker], deficit):
            continue
        blamed = True
        oi, slot, stands = joker
        what = " or ".join(str(tile_of[k]) for k in sorted(stands))
        if not any(played_counts.get(k, 0) for k in stands):
            why = f"{what} was not played from the rack to replace it"
        else:
            why = "the freed joker is not in a meld with at least two more tiles played from the rack"
        old = position.table[oi]
        if solve([joker], deficit, beside=False):
            # It could keep standing for the same tile, but only away from its old meld.
            mates = format_tiles([t for t in old.tiles if not t.is_joker])
            how = (
                f"on the new table it stands for it only in a meld holding none of the tiles of its old meld "
                f"({mates}), and a joker that is not freed stays with its meld"
            )
        else:
            how = "on the new table it stands for something else"
        reasons.append(
            Reason(
                "joker_retrieval",
                f"the joker in position.table[{oi}] ({old}, slot {slot}) stood for {what}; "
                f"{how}; it was not freed legally: {why}",
            )
        )
    if not blamed:
        reasons.append(
            Reason(
                "joker_retrieval",
                "the table jokers cannot all be accounted for together: each must keep standing for the same "
                "tile in a meld with a tile of its old meld (each such tile beside one new meld's jokers, and not "
                "also one of a freed joker's rack tiles), or be freed by its own replacement from the rack and "
                "played with at least two more rack tiles",
            )
        )
