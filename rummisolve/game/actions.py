"""What a player does on a turn, and the player interface: a view in, a :class:`Play` or a :class:`Draw` out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld
from rummisolve.tiles import Tile

__all__ = ["Play", "Draw", "Action", "Player"]


@dataclass(frozen=True)
class Play:
    """Play: ``table`` is the whole new table, melds in play order."""

    table: tuple[Meld | tuple[Tile, ...], ...]


@dataclass(frozen=True)
class Draw:
    """Draw a tile (pass when the pool is empty)."""


Action = Play | Draw


@runtime_checkable
class Player(Protocol):
    """Anything with ``choose(view) -> Play | Draw``. ``name`` labels it in logs and summaries."""

    name: str

    def choose(self, view: PlayerView) -> Action: ...
