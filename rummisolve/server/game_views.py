"""A game as one seat sees it, in the one vocabulary of the web app (docs/web.md, "The game view"):
the fields a single-player game's view (``/games``) and a room's view (``/rooms``) share, built
here once for each kind of game so their names cannot drift apart.

- :func:`tile_view`: the tile game; :func:`xpress_view`: Xpress (no pool, no discard pile, no timer).
- ``turn`` is the seat to move, ``turn_number`` the turns played this round, ``pool`` the tiles
  left to draw (a count), ``timer`` the turn timer, ``seat`` the seat whose view it is (absent for a
  spectator, who has no ``rack``), ``log`` the round's events as that seat may see them, ``last``
  the newest of them with the table before it, ``results`` the newest finished round's result and
  each seat's total.

A seat sees its own rack and nobody else's (once a round is over every rack is shown, as players
lay their tiles down to count them); no view holds the pool's order, a seed or a token. Each event
of a round is put in words once, as every seat and as its own player sees it (:class:`_RoundLog`),
so a view costs little more than copying the log, however long the round.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from rummisolve.game.engine import Game
from rummisolve.game.events import PlayEvent, TimeoutEvent, public_event
from rummisolve.game.match import Match
from rummisolve.jsonio import rules_to_json, table_to_json
from rummisolve.server.session_base import placed_tiles
from rummisolve.xpress.events import DicePlayEvent
from rummisolve.xpress.game import XpressGame
from rummisolve.xpress.seeding import SEATS
from rummisolve.xpress.state import die_name
from rummisolve.xpress.transitions import ROUNDS_WITHOUT_PLAY

__all__ = ["tile_view", "xpress_view", "seat_event", "dice_event", "timer_view", "match_results"]

EventOf = Callable[[Any, "int | None", Sequence[str], Sequence[Any]], dict[str, Any]]
"""An event as a seat may see it: ``(event, seat or None, names, table before it) -> JSON``."""


def tile_view(
    game: Game, seat: int | None, names: Sequence[str], kinds: Sequence[str], match: Match, timer: dict[str, Any]
) -> dict[str, Any]:
    """The tile game ``game`` (the current round of ``match``) as ``seat`` sees it (``None``: a
    spectator); ``timer``: :func:`timer_view`."""
    state = game.state
    finished = state.finished
    players = []
    for s, rack in enumerate(state.racks):
        player: dict[str, Any] = {"name": names[s], "kind": kinds[s], "tiles": len(rack), "opened": state.opened[s]}
        if finished:
            player["rack"] = [str(t) for t in rack]
        players.append(player)
    out = _common("tiles", game, seat, names, match, players, seat_event)
    out["pool"] = len(state.pool)
    out["timer"] = timer
    if game.rules.discard:
        out["discard_pile"] = [str(t) for t in state.discards]
    if seat is not None:
        out["rack"] = [str(t) for t in state.racks[seat]]
        if game.rules.discard:
            mover = seat == state.current  # what it drew this turn: the mover's only (as the engine's view)
            out["draw_from"] = state.draw_from if mover else None
            out["drawn"] = None if state.drawn is None or not mover else str(state.drawn)
    return out


def xpress_view(
    game: XpressGame, seat: int | None, names: Sequence[str], kinds: Sequence[str], match: Match
) -> dict[str, Any]:
    """The Xpress game ``game`` as ``seat`` sees it (``None``: a spectator): the dice are rolled in
    the open, so every seat's dice and faces are shown; never the seed, which decides every roll."""
    state = game.state
    totals = state.totals()
    players: list[dict[str, Any]] = []
    hands = [[die_name(d) for d in hand] for hand in state.hands]
    for s in range(SEATS):
        dice = hands[s]
        rack = [str(t) for t in state.racks[s]]
        players.append(
            {
                "name": names[s],
                "kind": kinds[s],
                "tiles": len(rack),
                "opened": state.opened[s],
                "dice": [{"die": d, "face": f} for d, f in zip(dice, rack, strict=True)],
                "rack": rack,
                "total": totals[s],
            }
        )
    out = _common("xpress", game, seat, names, match, players, dice_event)
    out["table_dice"] = [[die_name(d) for d in meld] for meld in state.table_dice]
    out["rolled"] = state.rolled
    out["passes"] = state.passes
    out["passes_to_end"] = ROUNDS_WITHOUT_PLAY * SEATS
    if seat is not None:
        out["rack"] = list(players[seat]["rack"])
        out["dice"] = list(hands[seat])
    return out


def _common(
    kind: str,
    game: Any,
    seat: int | None,
    names: Sequence[str],
    match: Match,
    players: list[dict[str, Any]],
    event_of: EventOf,
) -> dict[str, Any]:
    """The fields every kind's view has."""
    state = game.state
    out: dict[str, Any] = {
        "kind": kind,
        "status": "over" if state.finished else "playing",
        "round": match.round,
        "turn": state.current,
        "turn_number": state.turn,
        "players": players,
        "table": table_to_json(state.table),
        "rules": rules_to_json(game.rules),
        "finished": state.finished,
        "winner": state.winner,
        "end_reason": state.end_reason,
        "log": _round_log(game, event_of).lines(names, seat),
        "last": _last(game, seat, names, event_of),
        "results": match_results(match),
    }
    if seat is not None:
        out["seat"] = seat
    return out


def timer_view(seconds: float | None, penalty: int, deadline: float | None, left: float | None) -> dict[str, Any]:
    """The turn timer: seconds per turn (``null``: none), the penalty, the mover's deadline
    (wall-clock seconds; ``null`` where the server keeps none) and the seconds left."""
    return {
        "seconds": seconds,
        "penalty": penalty,
        "deadline": deadline,
        "left": None if left is None else max(0.0, round(left, 3)),
    }


def match_results(match: Match) -> dict[str, Any]:
    """The finished rounds in a view: how many, the newest one's result and each seat's total (the
    whole table: ``GET /rooms/{room}/results``, ``GET /games/{id}/results``)."""
    results = match.results()
    return {
        "count": len(results),
        "last": results[-1].to_json() if results else None,
        "totals": list(match.totals()),
    }


def seat_event(event: Any, seat: int | None, names: Sequence[str], before: Sequence[Any] = ()) -> dict[str, Any]:
    """A tile game's event as ``seat`` may see it (``None``: a spectator): that seat's own draws
    shown, the others' hidden; with the mover's name, and for a play the rack tiles it put on the
    table (``before``: the table it started from)."""
    obj = event.to_json() if seat is not None and event.player == seat else public_event(event)
    obj["name"] = names[event.player]
    if isinstance(event, PlayEvent):
        obj["played"] = placed_tiles(event.table, before)
    if isinstance(event, TimeoutEvent):
        obj["drew"] = len(event.tiles)
    return obj


def dice_event(event: Any, seat: int | None, names: Sequence[str], before: Sequence[Any] = ()) -> dict[str, Any]:
    """An Xpress event (the same for every seat: the dice are rolled in the open), with its
    mover's name; a play also lists the faces it put on the table."""
    obj = event.to_json()
    obj["name"] = names[event.player]
    if isinstance(event, DicePlayEvent):
        obj["played"] = placed_tiles(event.table, before)
    return obj


def _last(game: Any, seat: int | None, names: Sequence[str], event_of: EventOf) -> dict[str, Any] | None:
    """The round's last event as ``seat`` may see it, with the table before it (what it changed)."""
    if not game.events:
        return None
    before = game.states[-2].table
    event = event_of(game.events[-1], seat, names, before)
    event["before"] = table_to_json(before)
    return event


class _RoundLog:
    """A round's log lines so far, each as everyone sees it and as its own player does (the names
    filled in when a view is made: a seat handed to an AI is renamed)."""

    def __init__(self, game: Any, event_of: EventOf) -> None:
        self.game = weakref.ref(game)  # not the game itself: the log is kept only while the round is
        self.event_of = event_of
        self.events: list[Any] = []  # the events the lines are of
        self.public: list[dict[str, Any]] = []
        self.own: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def lines(self, names: Sequence[str], seat: int | None) -> list[dict[str, Any]]:
        """The log as ``seat`` sees it (``None``: a spectator): every event of the round so far."""
        game = self.game()
        assert game is not None  # a view is made of a live round
        with self.lock:
            events, states = game.events, game.states
            kept = min(len(self.events), len(events))
            while kept and self.events[kept - 1] is not events[kept - 1]:  # taken back (practice games)
                kept -= 1
            del self.events[kept:], self.public[kept:], self.own[kept:]
            for i in range(kept, len(events)):  # the events since the last view, once each
                before = states[i].table
                self.events.append(events[i])
                self.public.append(_logged(self.event_of(events[i], None, names, before)))
                self.own.append(_logged(self.event_of(events[i], events[i].player, names, before)))
            return [
                {**(self.own[i] if line["player"] == seat else line), "name": names[line["player"]]}
                for i, line in enumerate(self.public)
            ]


_logs: weakref.WeakKeyDictionary[Any, _RoundLog] = weakref.WeakKeyDictionary()
_logs_lock = threading.Lock()


def _round_log(game: Any, event_of: EventOf) -> _RoundLog:
    """The log lines of round ``game`` (kept while the round is: views of it are made holding it)."""
    with _logs_lock:
        log = _logs.get(game)
        if log is None:
            log = _logs[game] = _RoundLog(game, event_of)
        return log


def _logged(event: dict[str, Any]) -> dict[str, Any]:
    """A log line: a play keeps the tiles it put down, not the whole table (``last`` has that)."""
    event.pop("table", None)
    return event
