"""The jobs the server's worker processes run (:mod:`rummisolve.server.workers`): module-level
functions, so that they pickle by name. Each does in a worker what the server did in its threads:
the solver's answers still go through the referee there, as everywhere.

``delay``: seconds a job sleeps before its work (the ``test_job_delay`` setting, 0 but in tests),
standing for a model whose building is slow: the job's deadline counts it like any work.
"""

from __future__ import annotations

import time
from typing import Any

__all__ = ["BadBody", "warm_up", "after_job", "solve", "replay", "choose", "solve_position", "xpress_hint", "pid"]

_WARM_UP = {"table": [["R1", "R2", "R3"]], "rack": ["R4", "K9"], "opened": True, "time_limit": 10.0}


def warm_up() -> None:
    """Load OR-Tools and build the model caches, so the first job does not pay for them."""
    from rummisolve.service import solve_json

    solve_json(_WARM_UP)


def after_job() -> None:
    """Hand the pages a big model freed back to the system (see :mod:`rummisolve.server.memory`)."""
    from rummisolve.server.memory import release_free_memory

    release_free_memory()


def _pause(delay: float) -> None:
    if delay > 0:
        time.sleep(delay)


def solve(body: Any, delay: float = 0.0) -> dict[str, Any]:
    """A /solve: :func:`rummisolve.service.solve_json` of the (clamped) body."""
    from rummisolve.service import solve_json

    _pause(delay)
    return solve_json(body)


class BadBody(Exception):
    """A body that is no JSON: the HTTP status and the message to answer (pickles whole)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(status, message)
        self.status = status
        self.message = message


def replay(raw: bytes, max_steps: int, delay: float = 0.0) -> dict[str, Any]:
    """A ``POST /replays`` from its body's bytes (up to 4 MB: decoded here, not on the server's
    event loop): :func:`rummisolve.server.replays.saved_replay` (rounds refereed, turns analysed).
    :class:`BadBody` if the bytes are no JSON."""
    from rummisolve.server.replays import saved_replay
    from rummisolve.server.requests import BadRequest, decode_json

    _pause(delay)
    try:
        saved = decode_json(raw)
    except BadRequest as bad:
        raise BadBody(bad.status, bad.message) from None
    return saved_replay(saved, max_steps=max_steps)


def choose(player: Any, view: Any, delay: float = 0.0) -> tuple[Any, Any, int]:
    """An AI's choice seeing ``view``, the player as it is after choosing (it may remember a plan
    for the rest of its turn) and this worker's pid."""
    import os

    _pause(delay)
    action = player.choose(view)
    return action, player, os.getpid()


def solve_position(position: Any, time_limit: float, delay: float = 0.0) -> tuple[Any, int]:
    """:func:`rummisolve.solver.solve` of ``position`` (a hint's), and this worker's pid."""
    import os

    from rummisolve.solver import solve as solve_it

    _pause(delay)
    return solve_it(position, time_limit=time_limit), os.getpid()


def xpress_hint(position: Any, free_dice: Any, seed: int, delay: float = 0.0) -> Any:
    """The Xpress hint before the roll: :func:`rummisolve.xpress.reroll.best_reroll`."""
    from rummisolve.xpress.reroll import best_reroll

    _pause(delay)
    return best_reroll(position, free_dice, "tiles", seed=seed)


def pid() -> int:
    """This worker's process id (for tests and /health)."""
    import os

    return os.getpid()
