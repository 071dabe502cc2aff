"""An independent exact method for Twist positions: every valid Twist meld enumerated from the
definition (:mod:`tests.support.twist_definition`, which shares nothing with the solver's model nor
with rummisolve's classifier), then the HiGHS MIP of :mod:`benchmarks.oracle` over those melds.

Complete for positions of up to ``max_tiles`` tiles in play (every meld of the position has at
most that many tiles), so meant for small positions on small rule sets.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from benchmarks.oracle import Candidate, OracleAnswer, candidate_melds
from benchmarks.oracle import solve as oracle_solve
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from tests.support.twist_definition import twist_melds

__all__ = ["twist_solve", "twist_optimum"]


MAX_TILES = 14
"""Melds of up to this many tiles are enumerated: every meld of a position with at most this many
tiles in play (the differential test's positions)."""


@lru_cache(maxsize=8)
def _special_melds(rules: RuleSet, max_tiles: int) -> tuple[tuple[frozenset, Candidate], ...]:
    """Every valid meld with a special joker of up to ``max_tiles`` tiles, one per multiset (the
    reading worth the most kept), with the set of its distinct tiles."""
    best: dict[tuple, tuple[int, tuple]] = {}
    for tiles, _kind, value, _stands in twist_melds(rules, max_tiles):
        if not any(t.is_special_joker for t in tiles):
            continue
        key = tuple(sorted(Counter(tiles).items()))
        old = best.get(key)
        if old is None or value > old[0]:
            best[key] = (value, tiles)
    return tuple((frozenset(tiles), Candidate(tiles, key, value)) for key, (value, tiles) in best.items())


def _candidates(rules: RuleSet, pool: Counter) -> list[Candidate]:
    plain = candidate_melds(rules, pool)  # melds without special jokers
    present = frozenset(t for t, n in pool.items() if n > 0)
    special = [
        c
        for tiles, c in _special_melds(rules, MAX_TILES)
        if tiles <= present and all(pool[t] >= n for t, n in c.counts)
    ]
    return plain + special


def twist_solve(position: Position, objective: str = "tiles", **exclusions) -> OracleAnswer:
    """The proven optimum of a (small) Twist position and an arrangement reaching it.
    ``exclusions``: ``exclude`` and ``exclude_contained`` of :func:`benchmarks.oracle.solve`."""
    if position.tiles_in_play > MAX_TILES:
        raise ValueError(f"the Twist oracle takes at most {MAX_TILES} tiles in play, not {position.tiles_in_play}")
    return oracle_solve(position, objective, candidates=_candidates, **exclusions)


def twist_optimum(position: Position, objective: str = "tiles") -> int | None:
    """Rack tiles played (``tiles``) or points shed (``value``); ``None``: no legal move."""
    return twist_solve(position, objective).optimum
