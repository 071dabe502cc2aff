"""The player interface: a view in, a play or a draw out; and the registry of built-in players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rummisolve.errors import RummisolveError
from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld
from rummisolve.tiles import Tile

__all__ = ["Play", "Draw", "Action", "Player", "PLAYER_KINDS", "make_player", "UnknownPlayerError"]


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


class UnknownPlayerError(RummisolveError):
    """A player kind that does not exist."""


PLAYER_KINDS = ("easy", "medium", "hard", "human")


def make_player(kind: str, seed: int | None = None) -> Player:
    """A built-in player: ``easy``, ``medium``, ``hard`` or ``human`` (``seed`` fixes any randomness)."""
    key = kind.strip().lower() if isinstance(kind, str) else kind
    if key == "easy":
        from rummisolve.game.ai_easy import EasyPlayer

        return EasyPlayer()
    if key == "medium":
        from rummisolve.game.ai_medium import MediumPlayer

        return MediumPlayer()
    if key == "hard":
        from rummisolve.game.ai_hard import HardPlayer

        return HardPlayer(seed=seed)
    if key == "human":
        from rummisolve.game.human import HumanPlayer

        return HumanPlayer()
    raise UnknownPlayerError(f"unknown player {kind!r} (known: {', '.join(PLAYER_KINDS)})")
