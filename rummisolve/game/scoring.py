"""Round and match scoring (docs/rules.md, "End of a round and scoring")."""

from __future__ import annotations

from collections.abc import Sequence

from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile

__all__ = ["round_scores", "blocked_winner", "match_totals"]


def blocked_winner(racks: Sequence[Sequence[Tile]], rules: RuleSet, first: int = 0) -> int:
    """The winner when the pool is empty and nobody plays: the lowest rack value.

    Ties go to the player with fewer tiles, then to the one earliest in turn order from ``first``.
    """
    n = len(racks)
    return min(range(n), key=lambda s: (rules.rack_value(racks[s]), len(racks[s]), (s - first) % n))


def round_scores(
    racks: Sequence[Sequence[Tile]], winner: int, rules: RuleSet, blocked: bool = False
) -> tuple[int, ...]:
    """Points for each seat at the end of a round.

    Every loser scores minus their rack value (a joker counts ``rules.joker_penalty``); the winner
    scores plus the sum of the losers' values. When the round ended blocked (empty pool, racks left
    everywhere) and ``rules.empty_pool_scoring == "difference"``, each loser instead loses the
    difference between their rack value and the winner's.

    >>> from rummisolve.tiles import parse_tiles
    >>> racks = [(), parse_tiles("K12 K13"), parse_tiles("B10 O7"), parse_tiles("R9 R9")]
    >>> round_scores(racks, 0, RuleSet())
    (60, -25, -17, -18)
    """
    values = [rules.rack_value(rack) for rack in racks]
    base = values[winner] if blocked and rules.empty_pool_scoring == "difference" else 0
    losses = [0 if seat == winner else max(0, v - base) for seat, v in enumerate(values)]
    return tuple(sum(losses) if seat == winner else -loss for seat, loss in enumerate(losses))


def match_totals(rounds: Sequence[Sequence[int]], players: int) -> tuple[int, ...]:
    """Sum of each seat's round scores."""
    return tuple(sum(r[s] for r in rounds) for s in range(players))
