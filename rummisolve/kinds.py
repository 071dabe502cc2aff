"""The registry of game kinds: every kind of game rummisolve plays, found by name, by rule set or
by a saved file's ``format``, as python-chess finds a variant.

The apps (the terminal, the tournament command, the web games) ask the registry for a kind and use
what it owns (:class:`~rummisolve.game.kind.GameKind`); none of them asks which kind it is. A new
edition is a :class:`~rummisolve.game.kind.GameKind` passed to :func:`register_kind`.

>>> find_kind("xpress").name, find_kind("official").name
('xpress', 'tiles')
>>> from rummisolve.rules import XPRESS
>>> kind_of(XPRESS).title
'the Xpress game'
>>> kind_of_save({"format": "rummisolve-session"}).name
'tiles'
"""

from __future__ import annotations

from typing import Any

from rummisolve.errors import OptionError
from rummisolve.game.kind import GameKind
from rummisolve.game.tile_game import TILE_GAME
from rummisolve.rules import RuleSet
from rummisolve.xpress.kind import XPRESS_GAME

__all__ = ["KINDS", "GameKind", "find_kind", "kind_of", "kind_of_save", "register_kind"]

KINDS: list[GameKind] = [XPRESS_GAME, TILE_GAME]
"""The kinds, asked in this order (:func:`kind_of`): the tile game, which plays every rule set
without dice, last."""


def register_kind(kind: GameKind) -> None:
    """Add ``kind`` to the registry, asked before the kinds there already (a kind of the same name
    is replaced)."""
    if not isinstance(kind, GameKind):
        raise TypeError(f"a game kind is a GameKind, not {type(kind).__name__}")
    KINDS[:] = [kind, *(k for k in KINDS if k.name != kind.name)]


def find_kind(name: str) -> GameKind:
    """The kind named ``name`` (its name or an alias, any case); :class:`OptionError` naming the known ones."""
    key = name.strip().lower() if isinstance(name, str) else name
    for kind in KINDS:
        if key == kind.name or key in kind.aliases:
            return kind
    raise OptionError(f"unknown game kind {name!r} (known: {', '.join(k.name for k in KINDS)})")


def kind_of(rules: RuleSet) -> GameKind:
    """The kind that plays ``rules``."""
    for kind in KINDS:
        if kind.plays(rules):
            return kind
    raise OptionError(f"rules: no game kind plays these rules (known kinds: {', '.join(k.name for k in KINDS)})")


def kind_of_save(obj: Any) -> GameKind:
    """The kind a saved file is of, by its ``format`` (the tile game's when no kind claims it: its
    loader then says what is wrong)."""
    saved = obj.get("format") if isinstance(obj, dict) else None
    for kind in KINDS:
        if saved in kind.formats:
            return kind
    return TILE_GAME
