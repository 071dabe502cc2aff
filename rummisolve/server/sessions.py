"""Which kind of web game a request or a save is: the tile game's :class:`~rummisolve.server.session.Session`,
or Xpress's :class:`~rummisolve.server.dice_session.DiceSession` (rules with the ``dice`` option)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummisolve.rules import RuleSet
from rummisolve.server.dice_session import DICE_SESSION_FORMAT, DiceSession
from rummisolve.server.session import Session

__all__ = ["AnySession", "new_session", "session_from_json"]

AnySession = Session | DiceSession


def new_session(
    kinds: Sequence[str] | str, rules: RuleSet, seed: int | None, *, max_steps: int | None = None
) -> AnySession:
    """A new web game: Xpress under the dice edition's rules, else the tile game."""
    if isinstance(rules, RuleSet) and rules.dice:
        return DiceSession.new(kinds, rules, seed, max_steps=max_steps)
    return Session.new(kinds, rules, seed, max_steps=max_steps)


def session_from_json(obj: Any, *, max_steps: int | None = None) -> AnySession:
    """A saved web game of either kind, by its ``format``."""
    if isinstance(obj, dict) and obj.get("format") == DICE_SESSION_FORMAT:
        return DiceSession.from_json(obj, max_steps=max_steps)
    return Session.from_json(obj, max_steps=max_steps)
