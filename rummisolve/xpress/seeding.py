"""What a game's seed decides (docs/rules.md#xpress, "The seed"): the split, the first player, every roll.

One ``random.Random`` per game, seeded with the string ``"rummisolve-xpress/<seed>"`` (stable across
runs, machines and Python versions), draws in this order:

1. the split: the 18 dice D1..D18 shuffled; seat 0 holds the first 9, seat 1 the other 9;
2. the first player: ``randrange(2)`` (a match alternates it from game to game instead);
3. the rolls: for D1, then D2, ... D18, :data:`ROLLS_PER_DIE` faces ``randrange(6)`` each.

The ``k``-th roll of a die (``k`` 0 is the opening roll) shows its ``k``-th face of that list,
whoever rolls it and whenever: the luck belongs to the dice, not to the order of the rolls. So two
games of one seed (a tournament's seat rotations) give each seat the same dice, and each die the
same faces roll after roll, however the players choose; and an undone roll, rolled again, shows
the same faces.

>>> seeded = Seeding.of(7)
>>> [len(hand) for hand in seeded.hands], seeded.first in (0, 1), seeded.face(0, 0) in range(6)
([9, 9], True, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rummisolve.errors import InternalError
from rummisolve.xpress.dice import FACES, xpress_dice

__all__ = ["Seeding", "ROLLS_PER_DIE", "DICE", "SEATS", "game_random"]

DICE = 18
"""Dice in the game."""
SEATS = 2
"""Players: the dice are split between two."""
ROLLS_PER_DIE = 64
"""Rolls drawn per die. No game needs more: a game has at most 17 plays (the one emptying the 9th
die of a hand ends it) and at most 5 turns without a play between two of them (the 6th ends it),
so at most 17 + 5 * 17 + 6 = 108 turns, 54 of them a player's, each with at most one roll of a die
of theirs; with the opening roll, 55 rolls of a die at the most."""


def game_random(seed: int) -> random.Random:
    """The game's one generator."""
    return random.Random(f"rummisolve-xpress/{seed}")


@dataclass(frozen=True)
class Seeding:
    """The split (each seat's dice, die numbers from 0), the first player and every die's rolls."""

    seed: int
    hands: tuple[tuple[int, ...], ...]
    first: int
    rolls: tuple[tuple[int, ...], ...]
    """``rolls[d][k]``: the face (index 0..5 into the die's faces) that die ``d`` shows on its ``k``-th roll."""

    @classmethod
    def of(cls, seed: int) -> Seeding:
        rng = game_random(seed)
        order = list(range(DICE))
        rng.shuffle(order)
        per_seat = DICE // SEATS
        hands = tuple(tuple(sorted(order[s * per_seat : (s + 1) * per_seat])) for s in range(SEATS))
        first = rng.randrange(SEATS)
        rolls = tuple(tuple(rng.randrange(FACES) for _ in range(ROLLS_PER_DIE)) for _ in range(DICE))
        return cls(seed, hands, first, rolls)

    def face(self, die: int, roll: int) -> int:
        """The face die ``die`` shows on its ``roll``-th roll."""
        if roll >= ROLLS_PER_DIE:
            raise InternalError(f"die {xpress_dice()[die].label} rolled more than {ROLLS_PER_DIE} times in one game")
        return self.rolls[die][roll]

    def opening_faces(self) -> tuple[int, ...]:
        """What every die shows after the opening roll."""
        return tuple(self.face(d, 0) for d in range(DICE))
