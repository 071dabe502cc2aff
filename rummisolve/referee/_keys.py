"""Tiles as the referee handles them: by their canonical sort key ``(colour index, number)``.

A tuple of ints hashes and compares in C, which keeps the referee fast; the jokers' keys sort
last. ``Tile.sort_key`` is a plain slot, so the loops over every tile of a turn read it at C
speed. Part of the referee
(:mod:`rummisolve.referee`); independent of the solver.
"""

from __future__ import annotations

from collections.abc import Iterable

from rummisolve.tiles import ALL_JOKERS, JOKER

Key = tuple[int, int]
"""A tile's :attr:`~rummisolve.tiles.Tile.sort_key`."""
JOKER_KEY: Key = JOKER.sort_key
ALL_JOKER_KEYS: tuple[Key, ...] = tuple(t.sort_key for t in ALL_JOKERS)
"""The keys of every joker kind (the plain joker and Twist's special jokers)."""


def count(keys: Iterable[Key]) -> dict[Key, int]:
    """How many copies of each key ``keys`` holds (a multiset)."""
    counts: dict[Key, int] = {}
    get = counts.get
    for k in keys:
        counts[k] = get(k, 0) + 1
    return counts
