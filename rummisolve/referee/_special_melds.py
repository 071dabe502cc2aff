"""Melds with Twist special jokers for the initial-meld search under ``open_then_manipulate``
(:class:`~rummisolve.referee._opening.Packing`): every valid meld that holds a ``JD``, ``JC`` or
``JM`` and a given numbered tile, built from the definition (docs/rules.md#twist) out of the
tiles a search state has left, with its initial-meld value (``JD`` its two numbers, ``JC`` its
slot's, ``JM`` 0). Not bounded in length: whatever the state's tiles can build is built.

Part of the referee; independent of the solver (which lists bounded pieces of such melds).

A state is a list of counts: the numbered tile kinds (in the packing's order), then ``J``,
``JD``, ``JC``, ``JM``. A meld's *waste* is what its tiles could be worth at most (a number its
number, ``J`` the top number, ``JD`` twice it, ``JC`` once, ``JM`` 0) less what it is worth.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations

from rummisolve.referee._keys import Key
from rummisolve.rule_facts import number_slots, run_end, run_starts, slot_number
from rummisolve.rules import RuleSet

__all__ = ["SpecialMelds", "Built"]

Built = tuple[tuple[int, ...], int, int]
"""``(state after, value, waste)``: one meld taken out of a state."""

Fill = Callable[[tuple, list[int]], dict[tuple, int]]
"""``fill(slot keys, counts)``: every way to fill those slots with numbered tiles or ``J``: the
states after, each with its least waste."""


class SpecialMelds:
    """The melds with special jokers that hold a given tile, per search state."""

    def __init__(self, rules: RuleSet, index: dict[Key, int], joker: int, fill: Fill) -> None:
        self.rules = rules
        self.top = rules.numbers
        self.m = rules.min_meld_length
        self.colours = [c.index for c in rules.colour_list]
        self.index = index
        self.joker, self.double, self.change, self.mirror = joker, joker + 1, joker + 2, joker + 3
        self.fill = fill

    def holding(self, key: Key, counts: list[int]) -> Iterator[Built]:
        """Every meld with a special joker holding the tile ``key`` (its copy already taken out
        of ``counts``) and otherwise tiles of ``counts``; ``counts`` is left as it was."""
        if counts[self.double] or counts[self.change]:
            yield from self._runs(key, counts)
        if counts[self.double]:
            yield from self._groups(key, counts)
        if counts[self.mirror]:
            yield from self._mirrors(key, counts)

    # -- runs with JD or JC ----------------------------------------------------------------------

    def _runs(self, key: Key, counts: list[int]) -> Iterator[Built]:
        colour, number = key
        top = self.top
        for at in number_slots(self.rules, number):
            if at <= top:
                # the slots before the tile hold no numbered tile (the search takes the lowest
                # tile first) nor a JC (its segment would hold none): J and JD only
                low = max(1, at - counts[self.joker] - 2 * counts[self.double])
                starts = range(low, at + 1)
            else:
                starts = range(2, top + 1)  # the tile is the 1 ending a run that wraps
            for start in starts:
                last = run_end(self.rules, start)
                if at > last:
                    continue
                first_colours = [colour] if at <= top else self.colours
                for first in first_colours:
                    yield from _RunBuilder(self, counts, key, at, last).build(start, first)

    # -- groups with JD ----------------------------------------------------------------------------

    def _groups(self, key: Key, counts: list[int]) -> Iterator[Built]:
        colour, number = key
        others = [c for c in self.colours if c != colour]
        n_colours = len(self.colours)
        for doubles in range(1, counts[self.double] + 1):
            left = list(counts)
            left[self.double] -= doubles
            for size in range(len(others) + 1):
                slots = 1 + size
                if slots + 2 * doubles > n_colours or slots + doubles < self.m:
                    continue
                value = number * (slots + 2 * doubles)
                waste = doubles * 2 * (self.top - number)
                for subset in combinations(others, size):
                    for after, fill_waste in self.fill(tuple((c, number) for c in subset), left).items():
                        yield after, value, waste + fill_waste

    # -- mirror melds ------------------------------------------------------------------------------

    def _mirrors(self, key: Key, counts: list[int]) -> Iterator[Built]:
        colour, number = key
        left = list(counts)
        left[self.mirror] -= 1
        for side in self._sides(colour, number):
            if 2 * len(side) + 1 < self.m:
                continue
            slots = side + side
            slots.remove(key)  # the tile itself
            value = 2 * sum(n for _, n in side)
            for after, waste in self.fill(tuple(slots), left).items():
                yield after, value, waste

    def _sides(self, colour: int, number: int) -> Iterator[list[Key]]:
        """Mirror sides holding tile ``(colour, number)``: run fragments (one colour, consecutive,
        ending on the wrapped 1 under wraparound) and group fragments (one number), 2+ slots."""
        top = self.top
        for length in range(2, top + 1):
            for start in run_starts(self.rules, length):  # under wraparound, one may end on the wrapped 1
                numbers = [slot_number(s, top) for s in range(start, start + length)]
                if number in numbers:
                    yield [(colour, n) for n in numbers]
        others = [c for c in self.colours if c != colour]
        for size in range(1, len(others) + 1):
            for subset in combinations(others, size):
                yield [(colour, number)] + [(c, number) for c in subset]


class _RunBuilder:
    """A depth-first build of the runs with special jokers that hold one tile at one slot."""

    def __init__(self, melds: SpecialMelds, counts: list[int], key: Key, at: int, last: int) -> None:
        self.s = melds
        self.counts = counts
        self.key = key
        self.at = at
        """The slot the tile stands in."""
        self.last = last
        """The highest slot a run may reach (``top + 1`` when it may wrap)."""

    def build(self, start: int, colour: int) -> Iterator[Built]:
        yield from self._grow(start, colour, False, False, 0, False, 0, 0)

    def _grow(
        self,
        slot: int,
        colour: int,
        numbered: bool,
        after_change: bool,
        tiles: int,
        special: bool,
        value: int,
        upper: int,
    ) -> Iterator[Built]:
        """Extend a run whose next slot is ``slot`` and whose current segment has ``colour``
        (``numbered``: it holds a numbered tile; ``after_change``: the last tile is a ``JC``)."""
        s, counts = self.s, self.counts
        if slot > self.at and special and numbered and not after_change and tiles >= s.m:
            yield tuple(counts), value, upper - value
        if slot > self.last:
            return
        number = slot_number(slot, s.top)
        top = s.top
        if slot == self.at:  # the tile itself, in a segment of its colour
            if colour == self.key[0]:
                yield from self._grow(slot + 1, colour, True, False, tiles + 1, special, value + number, upper + number)
            return
        k = s.index.get((colour, number))
        if k is not None and counts[k]:
            counts[k] -= 1
            yield from self._grow(slot + 1, colour, True, False, tiles + 1, special, value + number, upper + number)
            counts[k] += 1
        if counts[s.joker]:
            counts[s.joker] -= 1
            yield from self._grow(slot + 1, colour, numbered, False, tiles + 1, special, value + number, upper + top)
            counts[s.joker] += 1
        if counts[s.double] and slot + 1 <= self.last and slot + 1 != self.at:
            counts[s.double] -= 1
            both = number + slot_number(slot + 1, s.top)
            yield from self._grow(slot + 2, colour, numbered, False, tiles + 1, True, value + both, upper + 2 * top)
            counts[s.double] += 1
        if counts[s.change] and tiles and numbered and not after_change and slot < self.last:
            counts[s.change] -= 1
            for other in s.colours:
                if other != colour:
                    yield from self._grow(slot + 1, other, False, True, tiles + 1, True, value + number, upper + top)
            counts[s.change] += 1
