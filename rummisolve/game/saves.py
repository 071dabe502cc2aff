"""Saved games: one family of formats for the CLI and the web app, each read by both.

- ``"format": "rummisolve-game"`` (:data:`SAVE_FORMAT`): one round, as ``rummisolve play --save``
  writes it (:meth:`rummisolve.game.engine.Game.to_json`).
- ``"format": "rummisolve-session"`` (:data:`SESSION_FORMAT`): a match of several rounds, as the
  web app keeps and downloads it (:class:`rummisolve.server.session.Session`): the superset, each
  of its ``rounds`` a ``rummisolve-game`` save, with the seats' ``kinds`` (one ``human``). A
  download of a game that is not practice is a *record* (``"record": true``): its finished rounds
  whole, the running one (``current``) only as its player saw it, so it can be replayed and its
  finished rounds analysed, but not resumed.

:func:`round_of` picks the ``rummisolve-game`` save of one round out of either, with an error that
says why when there is none; :func:`read_save` reads a file of either.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rummisolve.errors import GameLogError, JsonInputError

__all__ = ["SAVE_FORMAT", "SESSION_FORMAT", "is_session", "round_of", "human_seat", "read_save"]

SAVE_FORMAT = "rummisolve-game"
SESSION_FORMAT = "rummisolve-session"


def is_session(obj: Any) -> bool:
    """Whether ``obj`` is a web app save (a ``rummisolve-session``)."""
    return isinstance(obj, dict) and obj.get("format") == SESSION_FORMAT


def round_of(obj: Any, round: int | None = None, *, resume: bool = False) -> Any:
    """The ``rummisolve-game`` save of round ``round`` of ``obj`` (default: its last round); a
    ``rummisolve-game`` save (or an engine log) is its own round 0. ``resume``: the round is to be
    played on, which a record cannot be. :class:`GameLogError` naming the problem otherwise."""
    if round is not None and (isinstance(round, bool) or not isinstance(round, int) or round < 0):
        raise GameLogError(f"round: expected a round number from 0, not {round!r}")
    if not is_session(obj):
        if round not in (None, 0):
            raise GameLogError(f"round: a saved game of one round has round 0 only, not {round}")
        return obj
    if resume and obj.get("record") is True:
        raise GameLogError(
            "this download is a record of a web game (what one seat saw, without the seed): it can be "
            "replayed and its finished rounds analysed, but not resumed"
        )
    rounds = obj.get("rounds")
    if not isinstance(rounds, list):
        raise JsonInputError("saved session.rounds: expected an array of saved games")
    if not rounds:
        raise GameLogError(
            "this record holds no finished round: its first round is still running, and it holds that "
            "round only as its player saw it (open it on the play page to replay it)"
        )
    if round is None:
        return rounds[-1]
    if round >= len(rounds):
        raise GameLogError(f"round: this saved game has rounds 0 to {len(rounds) - 1}, not {round}")
    return rounds[round]


def human_seat(obj: Any) -> int | None:
    """The human's seat in a save: a session's ``human`` kind, a CLI save's seat named ``you``."""
    if is_session(obj):
        kinds = obj.get("kinds")
        return kinds.index("human") if isinstance(kinds, list) and "human" in kinds else None
    log = obj.get("log") if isinstance(obj, dict) else obj
    deal = log[0] if isinstance(log, list) and log and isinstance(log[0], dict) else {}
    names = deal.get("names")
    if isinstance(names, list) and "you" in names:
        return names.index("you")
    return None


def read_save(path: str | Path) -> Any:
    """The JSON of a saved game file (either format); :class:`JsonInputError` naming the file if it is not JSON."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise JsonInputError(f"{path}: not valid JSON ({err.msg} at line {err.lineno})") from None
    except UnicodeDecodeError as err:
        raise JsonInputError(f"{path}: not UTF-8 text ({err.reason} at byte {err.start})") from None
    except (ValueError, RecursionError) as err:  # a number too long for Python, absurd nesting
        raise JsonInputError(f"{path}: not acceptable JSON ({type(err).__name__})") from None
