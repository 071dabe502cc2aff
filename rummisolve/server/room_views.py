"""What a seat, or a spectator, sees of a game room: :func:`room_view`, the part every kind's room
shows, with the kind's own part (the function its ``room_view`` names: the tile game's
:func:`tile_room_view` here, Xpress's in :mod:`rummisolve.server.room_views_xpress`).

A seat's view holds its own rack and nobody else's; a spectator's holds no rack. Neither holds
the pool's order, a deck, a seed or a token: the pool is a count, other seats are tile counts,
and the log shows other seats' draws without their tiles (a seat sees its own). Once a round is
over every rack is shown, as players lay their tiles down to count them.

A view (and so every push) holds the current round only, and of the finished rounds the newest
one's result and the totals (``results``): its size does not grow with the rounds played. The
whole table of results is :func:`room_results` (``GET /rooms/{room}/results``). Each event of the
round is put in words for the log once, as every seat and as its own player sees it
(:class:`_RoundLog`), so a view costs little more than copying the log, however long the round.
"""

from __future__ import annotations

import importlib
import threading
import weakref
from collections.abc import Callable
from typing import Any, cast

from rummisolve.game import Game
from rummisolve.game.match import round_result
from rummisolve.jsonio import rules_to_json, table_to_json
from rummisolve.server.rooms import Room
from rummisolve.server.session import seat_event

__all__ = ["room_view", "tile_room_view", "room_results", "invite_path"]


def invite_path(code: str) -> str:
    """The page that joins (or watches) room ``code``."""
    return f"/r/{code}"


def room_view(room: Room, seat: int | None, version: int, now: float) -> dict[str, Any]:
    """Room ``room`` at ``version`` as ``seat`` sees it (``None``: a spectator), at time ``now``:
    what every kind's room shows, then the kind's own part (its ``room_view``, e.g. the tile
    game's :func:`tile_room_view`) with each player's own fields merged into ``players``."""
    state = room.game.state
    part = _kind_part(room.kind.room_view)(room, seat, now)
    extra = part.pop("players")
    players = [
        {"name": place.name, "kind": place.kind, **extra[s], "joined": place.taken}
        for s, place in enumerate(room.seats)
    ]
    out: dict[str, Any] = {
        "room": room.code,
        "invite": invite_path(room.code),
        "version": version,
        "status": room.status,
        "round": room.round,
        "turn": state.current,
        "turn_number": state.turn,
        "creator": room.creator,
        "players": players,
        "table": table_to_json(state.table),
        "pool": part.pop("pool"),
        "rules": rules_to_json(room.rules),
        "timer": _timer(room, now),
        "last": part.pop("last"),
        "log": part.pop("log"),
        "winner": state.winner,
        "end_reason": state.end_reason,
        "results": _results(room),
    }
    if seat is not None:
        out["seat"] = seat
    out.update(part)
    return out


def tile_room_view(room: Room, seat: int | None, now: float) -> dict[str, Any]:
    """The tile game's part of a room's view: tile counts, the pool's size, the log (other seats'
    draws without their tiles), the seat's rack; the discard pile and the mover's draw under the
    discard rule; every rack once the round is over."""
    game = room.game
    state = game.state
    finished = state.finished
    players = []
    for s in range(len(room.seats)):
        player: dict[str, Any] = {"tiles": len(state.racks[s]), "opened": state.opened[s]}
        if finished:
            player["rack"] = [str(t) for t in state.racks[s]]
        players.append(player)
    out: dict[str, Any] = {
        "players": players,
        "pool": len(state.pool),
        "last": _last(room, seat),
        "log": _round_log(game).lines(room.names, seat),
    }
    if room.rules.discard:
        out["discard_pile"] = [str(t) for t in state.discards]
    if seat is not None:
        mover = seat == state.current  # what it drew this turn, the mover's only (as the engine's view)
        out["rack"] = [str(t) for t in state.racks[seat]]
        if room.rules.discard:
            out["draw_from"] = state.draw_from if mover else None
            out["drawn"] = None if state.drawn is None or not mover else str(state.drawn)
    return out


def _kind_part(name: str) -> Callable[[Room, int | None, float], dict[str, Any]]:
    """The function a kind names for its part of a room's view (``module:function``)."""
    module, _, function = name.partition(":")
    return cast(
        "Callable[[Room, int | None, float], dict[str, Any]]", getattr(importlib.import_module(module), function)
    )


def room_results(room: Room) -> dict[str, Any]:
    """Every finished round's winner, ending, scores and turns, and each seat's total."""
    return {"rounds": [r.to_json() for r in room.results()], "totals": list(room.match_totals())}


def _results(room: Room) -> dict[str, Any]:
    """The finished rounds in a view: how many, the newest one's result and each seat's total."""
    current = round_result(room.game)
    last = current or (room.past[-1] if room.past else None)
    return {
        "count": len(room.past) + (current is not None),
        "last": None if last is None else last.to_json(),
        "totals": list(room.match_totals()),
    }


def _timer(room: Room, now: float) -> dict[str, Any]:
    """The turn timer: seconds per turn, the mover's deadline and time left (``null`` without one)."""
    deadline = room.deadline
    return {
        "seconds": room.timer,
        "penalty": room.rules.timer_penalty,
        "deadline": deadline,
        "left": None if deadline is None else max(0.0, round(deadline - now, 3)),
    }


def _last(room: Room, seat: int | None) -> dict[str, Any] | None:
    """The round's last event as ``seat`` may see it, with the table before it (what it changed)."""
    game = room.game
    if not game.events:
        return None
    before = game.states[-2].table
    event = seat_event(game.events[-1], seat, room.names, before)
    event["before"] = table_to_json(before)
    return event


class _RoundLog:
    """A round's log lines so far, each as everyone sees it and as its own player does (the names
    filled in when a view is made: a seat handed to an AI is renamed)."""

    def __init__(self, game: Game) -> None:
        self.game = weakref.ref(game)  # not the game itself: the log is kept only while the round is
        self.public: list[dict[str, Any]] = []
        self.own: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def lines(self, names: list[str], seat: int | None) -> list[dict[str, Any]]:
        """The log as ``seat`` sees it (``None``: a spectator): every event of the round so far."""
        game = self.game()
        assert game is not None  # a view is made of a live round
        with self.lock:
            events, states = game.events, game.states
            for i in range(len(self.public), len(events)):  # the events since the last view, once each
                before = states[i].table
                self.public.append(_logged(seat_event(events[i], None, names, before)))
                self.own.append(_logged(seat_event(events[i], events[i].player, names, before)))
            return [
                {**(self.own[i] if line["player"] == seat else line), "name": names[line["player"]]}
                for i, line in enumerate(self.public[: len(events)])
            ]


_logs: weakref.WeakKeyDictionary[Game, _RoundLog] = weakref.WeakKeyDictionary()
_logs_lock = threading.Lock()


def _round_log(game: Game) -> _RoundLog:
    """The log lines of round ``game`` (kept while the round is: views of a room are made holding it)."""
    with _logs_lock:
        log = _logs.get(game)
        if log is None:
            log = _logs[game] = _RoundLog(game)
        return log


def _logged(event: dict[str, Any]) -> dict[str, Any]:
    """A log line: a play keeps the tiles it put down, not the whole table (``last`` has that)."""
    event.pop("table", None)
    return event
