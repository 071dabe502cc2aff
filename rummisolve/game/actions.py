"""What a player does on a turn, and the player interface: a view in, an action out.

Under the normal rules a turn is one action: :class:`Play` (the whole new table) or :class:`Draw`
(a tile from the pool, which ends the turn).

Under the discard rule (``rules.discard``) a turn is one or two actions, and every turn ends with
a discard. Before drawing (``view.draw_from is None``) the player returns either
``Play(table, discard=tile)`` (play without drawing, then discard) or ``Draw(source)`` with
``source`` ``"pool"`` or ``"discard"`` (the discard pile's top tile, ``view.discard_top``); after a
draw the engine asks again (``view.draw_from`` and ``view.drawn`` now say where from and which
tile), and the player returns ``Play(table, discard=tile)`` or :class:`Discard` (no play). The
discarded tile must be on the rack after the play; discarding the last tile goes out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rummisolve.errors import OptionError
from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld
from rummisolve.tiles import Tile

__all__ = ["Play", "Draw", "Discard", "Action", "Player", "DRAW_SOURCES"]

DRAW_SOURCES = ("pool", "discard")
"""Where a draw takes its tile from: the pool's next tile, or the discard pile's top (the discard rule)."""


@dataclass(frozen=True)
class Play:
    """Play: ``table`` is the whole new table, melds in play order. ``discard``: the rack tile put
    on the discard pile afterwards, which ends the turn (required under the discard rule, else ``None``)."""

    table: tuple[Meld | tuple[Tile, ...], ...]
    discard: Tile | None = None


@dataclass(frozen=True)
class Draw:
    """Draw a tile. Normal rules: from the pool, ending the turn (a pass when the pool is empty).
    Discard rule: from ``source`` (``"pool"`` or ``"discard"``); the turn goes on."""

    source: str = "pool"

    def __post_init__(self) -> None:
        if self.source not in DRAW_SOURCES:
            raise OptionError(f"draw source must be one of {', '.join(DRAW_SOURCES)}, not {self.source!r}")


@dataclass(frozen=True)
class Discard:
    """Discard rule only, after a draw: put ``tile`` from the rack on the discard pile without playing."""

    tile: Tile


Action = Play | Draw | Discard


@runtime_checkable
class Player(Protocol):
    """Anything with ``choose(view) -> Play | Draw | Discard``. ``name`` labels it in logs and summaries."""

    name: str

    def choose(self, view: PlayerView) -> Action: ...
