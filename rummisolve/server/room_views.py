"""What a seat, or a spectator, sees of a game room: :func:`room_view`, the game as the seat sees
it in its kind's game view (:mod:`rummisolve.server.game_views`, the vocabulary the single-player
games share; the kind names the function, ``room_view``: the tile game's :func:`tile_room_view`
here, Xpress's in :mod:`rummisolve.server.room_views_xpress`) and the room's own fields: its code,
invite, version, status, creator, and which seats are taken.

A view (and so every push) holds the current round only, and of the finished rounds the newest
one's result and the totals (``results``): its size does not grow with the rounds played. The
whole table of results is :func:`room_results` (``GET /rooms/{room}/results``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, cast

from rummisolve.server.game_views import tile_view, timer_view
from rummisolve.server.rooms import Room

__all__ = ["room_view", "tile_room_view", "room_timer", "room_results", "invite_path"]


def invite_path(code: str) -> str:
    """The page that joins (or watches) room ``code``."""
    return f"/r/{code}"


def room_view(room: Room, seat: int | None, version: int, now: float) -> dict[str, Any]:
    """Room ``room`` at ``version`` as ``seat`` sees it (``None``: a spectator), at time ``now``:
    the kind's game view (its ``room_view``, e.g. :func:`tile_room_view`), then the room's fields."""
    out = _kind_view(room.kind.room_view)(room, seat, now)
    for player, place in zip(out["players"], room.seats, strict=True):
        player["joined"] = place.taken
    out.update(room=room.code, invite=invite_path(room.code), version=version, status=room.status, creator=room.creator)
    return out


def tile_room_view(room: Room, seat: int | None, now: float) -> dict[str, Any]:
    """The tile game's view of room ``room`` as ``seat`` sees it, with the room's turn timer."""
    kinds = [place.kind for place in room.seats]
    return tile_view(room.game, seat, room.names, kinds, room.match, room_timer(room, now))


def room_timer(room: Room, now: float) -> dict[str, Any]:
    """The room's turn timer: seconds per turn, the penalty, the mover's deadline and time left."""
    deadline = room.deadline
    return timer_view(room.timer, room.rules.timer_penalty, deadline, None if deadline is None else deadline - now)


def _kind_view(name: str) -> Callable[[Room, int | None, float], dict[str, Any]]:
    """The function a kind names for its view of a room (``module:function``)."""
    module, _, function = name.partition(":")
    return cast(
        "Callable[[Room, int | None, float], dict[str, Any]]", getattr(importlib.import_module(module), function)
    )


def room_results(room: Room) -> dict[str, Any]:
    """Every finished round's winner, ending, scores and turns, and each seat's total."""
    return {"rounds": [r.to_json() for r in room.results()], "totals": list(room.match_totals())}
