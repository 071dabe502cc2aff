"""Everything a :class:`~rummisolve.solution.Solution` promises, checked independently of the
solver: the referee is called again, tiles are conserved, the jokers and kept melds are as reported."""

from __future__ import annotations

from collections import Counter

from rummisolve import JOKER, Meld, Position, verify
from rummisolve.solution import STATUSES, Solution

__all__ = ["assert_sound", "melds"]


def melds(solution: Solution) -> list[str]:
    return [str(m) for m in solution.table]


def assert_sound(position: Position, solution: Solution, objective: str | None = None) -> None:
    """Everything a Solution promises, checked independently of the solver (referee called again)."""
    assert isinstance(solution, Solution)
    assert solution.status in STATUSES
    assert solution.position is position
    if objective is not None:
        assert solution.objective == objective
    rack = Counter(position.rack)
    played = Counter(solution.played)
    assert list(solution.played) == sorted(solution.played)
    assert not played - rack, "played tiles that are not on the rack"
    assert Counter(solution.rack_after) == rack - played
    assert list(solution.rack_after) == sorted(solution.rack_after)
    assert solution.value == position.rules.rack_value(solution.played)
    assert solution.tiles_played == len(solution.played)
    # kept: indices of old melds, which open the new table unchanged and in their old order
    assert list(solution.kept) == sorted(set(solution.kept))
    assert all(0 <= i < len(position.table) for i in solution.kept)
    assert solution.table[: len(solution.kept)] == tuple(position.table[i] for i in solution.kept)
    # every joker is reported with the tile its slot stands for
    for m, slot, stands in solution.jokers:
        assert solution.table[m].tiles[slot] == JOKER
        assert solution.table[m].represents[slot] == stands
    assert len(solution.jokers) == sum(m.joker_count for m in solution.table)
    assert solution.proven == (solution.status in ("optimal", "no_move"))
    if solution.status in ("no_move", "unknown"):
        assert not solution
        assert solution.played == () and solution.value == 0
        assert solution.table == position.table
        assert solution.kept == tuple(range(len(position.table)))
        return
    assert solution
    assert solution.played, "a move plays at least one rack tile"
    verdict = verify(position, solution.table)
    assert verdict.legal, f"referee rejects {melds(solution)} for {position!r}: {verdict.reasons}"
    assert Counter(verdict.played) == played
    # conservation: old table + played == new table, as multisets
    old = Counter(position.table_tiles)
    new = Counter(t for m in solution.table for t in m.tiles)
    assert old + played == new
    for meld in solution.table:
        assert Meld.of(meld.tiles, position.rules) == meld
