"""What the solver accepts: positions its model can express, objectives and time limits.

Nothing here imports OR-Tools, so the commands and the service check their input up front,
cheaply, before the solver is loaded.

The model splits every meld into base sets of ``m .. 2m - 1`` tiles (``m`` the minimum meld length),
each holding a real tile. A meld with ``2m - 1`` jokers or more may not split so (one real tile
with five jokers when ``m`` is 3), and the model would miss it: such positions are refused, not
answered wrongly. Fewer jokers can always be placed so that every piece holds a real tile."""

from __future__ import annotations

import math
from typing import Any

from rummisolve.errors import OptionError
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.solution import ALTERNATIVES_MODES, OBJECTIVES, AlternativesMode, Objective

__all__ = [
    "unsupported_position",
    "unsupported_rules",
    "check_objective",
    "check_time_limit",
    "check_alternatives_mode",
]


def check_objective(objective: Any) -> Objective:
    """``objective`` as an :class:`Objective`; :class:`OptionError` naming it if it is none."""
    if isinstance(objective, str) and objective in OBJECTIVES:
        return Objective(objective)
    raise OptionError(f"objective must be one of {', '.join(map(repr, OBJECTIVES))}, not {objective!r}")


def check_alternatives_mode(mode: Any) -> AlternativesMode:
    """``mode`` as an :class:`AlternativesMode`; :class:`OptionError` naming it if it is none."""
    if isinstance(mode, str) and mode in ALTERNATIVES_MODES:
        return AlternativesMode(mode)
    raise OptionError(f"alternatives_mode must be one of {', '.join(map(repr, ALTERNATIVES_MODES))}, not {mode!r}")


def check_time_limit(time_limit: Any) -> float | None:
    """A time limit in seconds, or ``None`` for none (also for infinity); :class:`OptionError`
    naming it unless it is a positive number."""
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
        raise OptionError(f"time_limit must be a number of seconds, not {time_limit!r}")
    try:
        seconds = float(time_limit)
    except OverflowError:  # an integer beyond any float: as unlimited as Infinity
        seconds = math.inf
    if math.isnan(seconds) or seconds <= 0:
        raise OptionError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
    return None if math.isinf(seconds) else seconds


def unsupported_position(position: Position) -> str | None:
    """Why the solver cannot promise an optimal answer for ``position`` (``None`` if it can)."""
    rules = position.rules
    if unsupported_rules(rules) is None:  # the standard and XP sets: no position can have too many
        return None
    jokers = sum(t.is_joker for meld in position.table for t in meld.tiles) + sum(t.is_joker for t in position.rack)
    return _too_many(jokers, rules.min_meld_length, "jokers in play")


def unsupported_rules(rules: RuleSet) -> str | None:
    """Why some position of a game under ``rules`` may be beyond the solver (``None`` if none is).
    Special jokers (Twist) take every rule option the rule set allows with them."""
    return _too_many(rules.jokers, rules.min_meld_length, "jokers in the set")


def _too_many(jokers: int, m: int, what: str) -> str | None:
    if jokers >= 2 * m - 1:
        return (
            f"the solver supports at most {2 * m - 2} jokers in play with min_meld_length {m}, not {jokers} "
            f"{what} (the referee and the game engine take any number)"
        )
    return None
