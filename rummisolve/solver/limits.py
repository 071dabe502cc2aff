"""What the solver's model can express (no OR-Tools import: the commands check this up front).

The model splits every meld into pieces of ``m .. 2m - 1`` tiles (``m`` the minimum meld length),
each holding a real tile. A meld with ``2m - 1`` jokers or more may not split so (one real tile
with five jokers when ``m`` is 3), and the model would miss it: such positions are refused, not
answered wrongly. Fewer jokers can always be placed so that every piece holds a real tile."""

from __future__ import annotations

from rummisolve.position import Position
from rummisolve.rules import RuleSet

__all__ = ["unsupported_position", "unsupported_rules"]


def unsupported_position(position: Position) -> str | None:
    """Why the solver cannot promise an optimal answer for ``position`` (``None`` if it can)."""
    rules = position.rules
    if unsupported_rules(rules) is None:  # the standard and XP sets: no position can have too many
        return None
    jokers = sum(t.is_joker for meld in position.table for t in meld.tiles) + sum(t.is_joker for t in position.rack)
    return _too_many(jokers, rules.min_meld_length, "jokers in play")


def unsupported_rules(rules: RuleSet) -> str | None:
    """Why some position of a game under ``rules`` may be beyond the solver (``None`` if none is)."""
    return _too_many(rules.jokers, rules.min_meld_length, "jokers in the set")


def _too_many(jokers: int, m: int, what: str) -> str | None:
    if jokers >= 2 * m - 1:
        return (
            f"the solver supports at most {2 * m - 2} jokers in play with min_meld_length {m}, not {jokers} "
            f"{what} (the referee and the game engine take any number)"
        )
    return None
