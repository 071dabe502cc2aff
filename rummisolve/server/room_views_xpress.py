"""Xpress's view of a game room (the ``room_view`` of :data:`~rummisolve.xpress.kind.XPRESS_GAME`):
its game view (:func:`~rummisolve.server.game_views.xpress_view`, the one a single-player Xpress
game shows) with the room's turn timer; :func:`~rummisolve.server.room_views.room_view` adds the
room's fields.

The dice are rolled in the open (docs/rules.md#xpress), so every seat and every spectator sees
every seat's dice and the faces they show (``players[s].dice``, ``rack``, ``tiles``, ``total``); a
seat's view adds its ``rack`` and ``dice`` (their names, in the order of ``rack``). Beside them:
``table_dice``, ``rolled``, ``passes`` and ``passes_to_end``; no pool (Xpress has none). No view
holds the seed, which decides every roll to come; every event of the log is public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rummisolve.server.game_views import xpress_view
from rummisolve.server.room_views import room_timer
from rummisolve.server.rooms import Room

if TYPE_CHECKING:
    from rummisolve.xpress.game import XpressGame

__all__ = ["xpress_room_view"]


def xpress_room_view(room: Room, seat: int | None, now: float) -> dict[str, Any]:
    """Room ``room``'s Xpress game as ``seat`` sees it (``None``: a spectator), with its timer."""
    game = cast("XpressGame", room.game)  # the kind's engine (a room types its round as the tile game's)
    kinds = [place.kind for place in room.seats]
    out = xpress_view(game, seat, room.names, kinds, room.match)
    out["timer"] = room_timer(room, now)
    return out
