"""Which web game a request or a save is: the game kind's web session, found through the registry
of game kinds (:mod:`rummisolve.kinds`): the tile game's :class:`~rummisolve.server.session.Session`,
Xpress's :class:`~rummisolve.server.dice_session.DiceSession`, or any kind registered later (each
kind names its session class, ``module:Class``, imported here)."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from rummisolve.game.kind import GameKind
from rummisolve.kinds import kind_of, kind_of_save
from rummisolve.rules import RuleSet
from rummisolve.server.session_base import SessionBase

__all__ = ["AnySession", "new_session", "session_from_json", "session_class"]

AnySession = SessionBase[Any, Any]


def session_class(kind: GameKind) -> type[AnySession]:
    """The web session class ``kind`` names."""
    module, _, name = kind.session.partition(":")
    cls = getattr(importlib.import_module(module), name)
    if not (isinstance(cls, type) and issubclass(cls, SessionBase)):
        raise TypeError(f"game kind {kind.name}: its session {kind.session!r} is not a web session class")
    return cls


def new_session(
    kinds: Sequence[str] | str, rules: RuleSet, seed: int | None, *, max_steps: int | None = None
) -> AnySession:
    """A new web game of the kind that plays ``rules``."""
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
    return session_class(kind_of(rules)).new(kinds, rules, seed, max_steps=max_steps)  # type: ignore[attr-defined]


def session_from_json(obj: Any, *, max_steps: int | None = None) -> AnySession:
    """A saved web game of any kind, by its ``format``."""
    return session_class(kind_of_save(obj)).from_json(obj, max_steps=max_steps)  # type: ignore[attr-defined]
