"""Dice conservation, checked by the engine after every event (as the tile engine checks tiles):
every die is on exactly one place (a seat's free dice or the table), every table tile is the face
its die shows, and a die once on the table stays there with its face.

>>> from rummisolve.rules import XPRESS
>>> from rummisolve.xpress.seeding import Seeding
>>> from rummisolve.xpress.transitions import opening_state
>>> check_dice(opening_state(XPRESS, Seeding.of(1), 0))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from rummisolve.errors import ConservationError
from rummisolve.xpress.seeding import DICE
from rummisolve.xpress.state import XpressState, die_name

__all__ = ["check_dice", "check_step"]


def check_dice(state: XpressState) -> None:
    """:class:`ConservationError` unless each of the 18 dice is in one place once and each table
    tile shows its die's face."""
    places = Counter(d for hand in state.hands for d in hand)
    places.update(d for meld in state.table_dice for d in meld)
    wrong = sorted(d for d in range(DICE) if places[d] != 1) + sorted(d for d in places if not 0 <= d < DICE)
    if wrong or len(state.faces) != DICE or len(state.rolls) != DICE:
        named = ", ".join(f"{die_name(d) if 0 <= d < DICE else d} in {places[d]} places" for d in wrong)
        raise ConservationError(f"dice not conserved at turn {state.turn}: {named or 'a die without a face'}")
    if [len(m) for m in state.table] != [len(m) for m in state.table_dice]:
        raise ConservationError(f"dice not conserved at turn {state.turn}: the table's dice do not match its melds")
    for m, (meld, dice) in enumerate(zip(state.table, state.table_dice, strict=True)):
        for tile, die in zip(meld.tiles, dice, strict=True):
            if state.shown(die) != tile:
                raise ConservationError(
                    f"dice not conserved at turn {state.turn}: table[{m}] holds {tile} from "
                    f"{die_name(die)}, which shows {state.shown(die)}"
                )


def check_step(before: XpressState, after: XpressState, rolled: Collection[int] = ()) -> None:
    """:class:`ConservationError` unless every die on the table ``before`` is on it ``after``, and
    every die but those ``rolled`` (free dice of the mover's) shows the same face."""
    for die in range(DICE):
        on_table = before.holder(die) is None
        if on_table and after.holder(die) is not None:
            raise ConservationError(f"dice not conserved at turn {after.turn}: {die_name(die)} left the table")
        if after.faces[die] != before.faces[die] and (on_table or die not in rolled):
            raise ConservationError(
                f"dice not conserved at turn {after.turn}: {die_name(die)} changed its face without a roll"
            )
