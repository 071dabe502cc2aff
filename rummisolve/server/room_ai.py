"""An AI seat's turn in a game room, its first choice made out of the room's lock: :class:`Chosen`
(see :meth:`rummisolve.server.rooms.Room.ai_move`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rummisolve.game import Player, PlayerView

__all__ = ["Chosen", "Think"]

Think = Callable[[Player, PlayerView], tuple[Any, Player]]
"""Where an AI chooses: ``think(player, view)`` answers its choice (``None``: none in time, the
turn is forfeit) and the player after choosing."""


class Chosen:
    """A player whose first choice is made already (out of the room's lock); the rest of its turn
    (the discard rule's second step, Xpress's play after its roll) it chooses as usual. A choice of
    ``None`` is ``forfeit(view)``."""

    def __init__(
        self,
        player: Player,
        seen: PlayerView,
        choice: Any,
        think: Think | None = None,
        forfeit: Callable[[Any], Any] | None = None,
    ) -> None:
        self.player = player
        self.name = player.name
        self.seen: PlayerView | None = seen
        self.choice = choice
        self.think = think
        self.forfeit = forfeit

    def choose(self, view: PlayerView) -> Any:
        if self.seen is not None and view == self.seen:
            self.seen = None
            action = self.choice
        elif self.think is not None:
            action, self.player = self.think(self.player, view)
        else:
            action = self.player.choose(view)
        if action is None and self.forfeit is not None:
            return self.forfeit(view)
        return action
