"""Xpress's part of a game room's view (the ``room_view`` of :data:`~rummisolve.xpress.kind.XPRESS_GAME`):
what :func:`~rummisolve.server.room_views.room_view` adds to the part every room shows.

The dice are rolled in the open (docs/rules.md#xpress), so every seat and every spectator sees
every seat's dice and the faces they show: ``players[s].dice`` (``{"die": "D3", "face": "K5"}``,
the seat's free dice), ``players[s].tiles`` (how many), ``players[s].total`` (what they count
against the seat). A seat's view adds its ``rack`` (the faces its free dice show) and ``dice`` (their
names, in the order of ``rack``). Beside them: ``table_dice`` (the die of every tile on the table,
meld by meld), ``rolled`` (the mover has rolled this turn: a play or a pass comes next), ``passes``
(turns in a row without a die played) and ``passes_to_end`` (that many end the round); ``pool`` is 0
(Xpress has none). No view holds the seed, which decides every roll to come. The ``log`` is every
event of the round (a roll with the dice and the faces they show, a play with the faces it put
down, a pass), each public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rummisolve.jsonio import table_to_json
from rummisolve.server.rooms import Room
from rummisolve.server.session_base import placed_tiles
from rummisolve.xpress.state import die_name
from rummisolve.xpress.transitions import ROUNDS_WITHOUT_PLAY

if TYPE_CHECKING:
    from rummisolve.xpress.game import XpressGame

__all__ = ["xpress_room_view"]


def xpress_room_view(room: Room, seat: int | None, now: float) -> dict[str, Any]:
    """Xpress's part of room ``room``'s view as ``seat`` sees it (``None``: a spectator)."""
    game = cast("XpressGame", room.game)  # the kind's engine (a room types its round as the tile game's)
    state = game.state
    totals = state.totals()
    racks = state.racks
    players = [
        {
            "tiles": len(hand),
            "opened": state.opened[s],
            "dice": [{"die": die_name(d), "face": str(f)} for d, f in zip(hand, racks[s], strict=True)],
            "total": totals[s],
        }
        for s, hand in enumerate(state.hands)
    ]
    log = [_event(game, i, room.names) for i in range(len(game.events))]
    last = None
    if log:
        last = {**log[-1], "before": table_to_json(game.states[-2].table)}
    out: dict[str, Any] = {
        "players": players,
        "pool": 0,
        "last": last,
        "log": log,
        "table_dice": [[die_name(d) for d in meld] for meld in state.table_dice],
        "rolled": state.rolled,
        "passes": state.passes,
        "passes_to_end": ROUNDS_WITHOUT_PLAY * state.players,
    }
    if seat is not None:
        out["rack"] = [str(t) for t in racks[seat]]
        out["dice"] = [die_name(d) for d in state.hands[seat]]
    return out


def _event(game: XpressGame, i: int, names: list[str]) -> dict[str, Any]:
    """Event ``i`` of the round in the log: every event is public; a play lists the faces it put down."""
    event = game.events[i]
    line = event.to_json()
    line["name"] = names[event.player]
    if line["type"] == "play":
        line["played"] = placed_tiles(line.pop("table"), table_to_json(game.states[i].table))
    return line
