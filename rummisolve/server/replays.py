"""Saved games opened as replays (``POST /replays``): a download of the web app, or a
``rummisolve play --save`` file, turned into each round's frames and the analysis of its player's
turns. Nothing is stored: the file is the uploader's own, so every rack and event in it is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rummisolve.errors import JsonInputError, RummisolveError
from rummisolve.game.engine import Game, bounded_referee
from rummisolve.game.saves import SESSION_FORMAT, human_seat, is_session
from rummisolve.jsonio import table_to_json

__all__ = ["saved_replay", "round_frames", "MAX_ROUNDS"]

MAX_ROUNDS = 50
"""The most rounds one upload may hold (each is replayed through the referee and analysed)."""


def saved_replay(obj: Any, max_steps: int | None = None) -> dict[str, Any]:
    """``{"names", "seat", "rounds": [{"round", "finished", "frames", "analysis"}], "current"}`` for
    a saved game; ``current``: a record's running round as its player saw it (else ``None``);
    ``analysis``: :func:`rummisolve.game.analysis.analyse_game` of ``seat`` without the expert, or
    ``{"error"}`` where it does not apply. Bad input raises a :class:`RummisolveError` naming it."""
    rounds = _rounds(obj)
    referee = bounded_referee(max_steps)
    games = [Game.from_json(g, referee=referee) for g in rounds]
    names = list(games[0].names) if games else _names(obj)
    seat = human_seat(obj) or 0
    return {
        "names": names,
        "seat": seat,
        "rounds": [
            {"round": r, "finished": g.finished, "frames": round_frames(g), "analysis": _analysis(raw, seat)}
            for r, (raw, g) in enumerate(zip(rounds, games, strict=True))
        ],
        "current": _current(obj),
    }


def round_frames(
    game: Game,
    *,
    seat: int | None = None,
    public: Callable[[Any, Any], dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Every state of a round: the seat to move (``turn``), ``turn_number``, its table, the event
    that led to it, the racks and their sizes, the ``pool`` (a count), in the game view's names
    (records saved before them, shown as they are, say ``current``, ``turn`` and ``pool_size``). A round still
    running, seen by ``seat``: only that seat's rack, and the others' events as ``public(event,
    table before it)`` gives them; otherwise (a finished round, or no seat) everything."""
    hide = seat is not None and not game.finished
    frames = []
    for i, state in enumerate(game.states):
        event = None
        if i > 0:
            done = game.events[i - 1]
            event = public(done, game.states[i - 1].table) if hide and public is not None else done.to_json()
        frames.append(
            {
                "turn": state.current,
                "turn_number": state.turn,
                "event": event,
                "table": table_to_json(state.table),
                "racks": [None if hide and s != seat else [str(t) for t in rack] for s, rack in enumerate(state.racks)],
                "rack_sizes": [len(rack) for rack in state.racks],
                "pool": len(state.pool),
            }
        )
    return frames


def _rounds(obj: Any) -> list[Any]:
    if isinstance(obj, dict) and str(obj.get("format", "")).startswith("rummisolve-xpress"):
        raise JsonInputError("saved game: an Xpress (dice edition) game does not open as a replay here yet")
    if not is_session(obj):
        if not isinstance(obj, dict) or obj.get("format") != "rummisolve-game":
            raise JsonInputError(
                f'saved game: expected a download of the web app ("format": {SESSION_FORMAT!r}) or a file '
                'of rummisolve play --save ("format": "rummisolve-game")'
            )
        return [obj]
    rounds = obj.get("rounds")
    if not isinstance(rounds, list):
        raise JsonInputError("saved game.rounds: expected an array of saved rounds")
    if len(rounds) > MAX_ROUNDS:
        raise JsonInputError(f"saved game.rounds: {len(rounds)} rounds; at most {MAX_ROUNDS} are opened at once")
    if not rounds and not isinstance(obj.get("current"), dict):
        raise JsonInputError("saved game: no round in it")
    return rounds


def _names(obj: Any) -> list[str]:
    names = obj.get("names") if isinstance(obj, dict) else None
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        return names
    current = obj.get("current") if isinstance(obj, dict) else None
    names = current.get("names") if isinstance(current, dict) else None
    return names if isinstance(names, list) else []


def _current(obj: Any) -> dict[str, Any] | None:
    """A record's running round as its player saw it, checked for shape (it is shown as it is)."""
    current = obj.get("current") if is_session(obj) else None
    if current is None:
        return None
    frames = current.get("frames") if isinstance(current, dict) else None
    if not isinstance(frames, list) or not all(isinstance(f, dict) for f in frames):
        raise JsonInputError("saved game.current: expected the running round's frames")
    return current


def _analysis(raw: Any, seat: int) -> dict[str, Any]:
    from rummisolve.game.analysis import analyse_game

    try:
        return analyse_game(raw, seat, expert=False).to_json()
    except RummisolveError as err:  # e.g. the discard rule, which the analysis does not cover
        return {"error": str(err)}
