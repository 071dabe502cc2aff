"""What an Xpress player does on a turn, and the player interface: a view in, an action out (the
tile game's interface, :class:`rummisolve.game.actions.Player`, with the dice game's view and actions).

A turn asks the player once or twice. Before the roll (``view.rolled`` false) it answers
:class:`Roll` (which of its free dice to roll; none is allowed), and is asked again with the new
faces; or it answers at once, keeping its dice as they are. Then it answers
:class:`~rummisolve.game.actions.Play` (the whole new table; ``discard`` stays ``None``) or
:class:`Pass`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rummisolve.game.actions import Play
from rummisolve.xpress.state import XpressView

__all__ = ["Roll", "Pass", "Play", "XpressAction", "XpressPlayer"]


@dataclass(frozen=True)
class Roll:
    """Roll the free dice named in ``dice`` (``"D3"``; empty: roll none), once a turn, before the play."""

    dice: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pass:
    """End the turn without a play."""


XpressAction = Roll | Play | Pass


@runtime_checkable
class XpressPlayer(Protocol):
    """Anything with ``choose(view) -> Roll | Play | Pass``; ``name`` labels it in logs and summaries."""

    name: str

    def choose(self, view: XpressView) -> XpressAction: ...
