"""The app's one error handler: every exception a route lets out that means "refused" becomes an
answer in the contract's shape (:func:`~rummisolve.server.requests.error_body`) with its status.

- ``BadRequest``: its own status, message and headers;
- ``LaneFull``: 503, the full lane, with ``Retry-After``;
- ``JobDeadline``: 504, the job's hard deadline and its setting, with ``Retry-After``;
- ``NoSuchGame``: 404, no game of yours by that id (another owner's game too: ids are not confirmed);
- ``StoreFull``: 429, the limit on games it reached;
- ``StaleGame``: 409, another copy was saved first: reload;
- ``StoreUnavailable``: 503, the database refused the write (nothing changed), with ``Retry-After``;
- ``DamagedGame``: 500, that one saved game cannot be read;
- ``GameStateError``: 409, the action does not fit the game's state (not your turn, round over);
- any other ``RummisolveError``: 400, the bad input named;
- an HTTP error (no such route, a wrong method): its status, what was asked for;
- a request FastAPI could not validate: 400, every problem by location.

A bug (any other exception) is answered 500 by :class:`~rummisolve.server.guards.CatchErrors`.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse

from rummisolve.errors import GameStateError, RummisolveError
from rummisolve.jsonio import error_message
from rummisolve.server.game_cache import NoSuchGame
from rummisolve.server.lanes import JobDeadline, LaneFull
from rummisolve.server.requests import BadRequest, error_body
from rummisolve.server.store import DamagedGame, StaleGame, StoreFull, StoreUnavailable

__all__ = ["install_error_handler", "refusal", "REFUSALS"]

log = logging.getLogger("rummisolve.server")

REFUSALS: tuple[type[Exception], ...] = (
    BadRequest,
    LaneFull,
    JobDeadline,
    NoSuchGame,
    StoreFull,
    StaleGame,
    StoreUnavailable,
    DamagedGame,
    RummisolveError,  # GameStateError included
    StarletteHTTPException,
    RequestValidationError,
)


def refusal(request: HTTPConnection, exc: Exception) -> tuple[int, str, dict[str, str] | None]:
    """The status, message and headers that answer ``exc``, raised by a route of ``request`` (a
    WebSocket's too: its connection is closed with code 4000 + the status)."""
    if isinstance(exc, BadRequest):
        return exc.status, exc.message, exc.headers
    if isinstance(exc, LaneFull):
        return 503, exc.message, {"Retry-After": str(exc.retry_after)}
    if isinstance(exc, JobDeadline):
        return 504, exc.message, {"Retry-After": str(exc.retry_after)}
    if isinstance(exc, NoSuchGame):
        return 404, f"no saved game {str(exc)!r} of yours (it may have been deleted, or opened elsewhere)", None
    if isinstance(exc, StoreFull):
        return 429, str(exc), None
    if isinstance(exc, StaleGame):
        return 409, f"{exc}: reload the game; nothing was changed", None
    if isinstance(exc, StoreUnavailable):
        log.warning("game store: %s", exc)
        return 503, f"{exc}; nothing was changed, try again", {"Retry-After": "2"}
    if isinstance(exc, DamagedGame):
        log.error("game store: %s", exc)
        return 500, str(exc), None
    if isinstance(exc, GameStateError):
        return 409, error_message(exc), None
    if isinstance(exc, RummisolveError):
        return 400, error_message(exc), None
    if isinstance(exc, RequestValidationError):
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', 'invalid')}" for e in exc.errors()
        )
        return 400, problems or "invalid request", None
    assert isinstance(exc, StarletteHTTPException), exc
    message = exc.detail if isinstance(exc.detail, str) else "request refused"
    method = getattr(request, "method", "GET")
    if exc.status_code == 404:
        message = f"no such page or endpoint: {method} {request.url.path}"
    elif exc.status_code == 405:
        message = f"method {method} is not allowed on {request.url.path}"
    return exc.status_code, message, getattr(exc, "headers", None)


async def _answer(request: Request, exc: Exception) -> JSONResponse:
    status, message, headers = refusal(request, exc)
    return JSONResponse(error_body(request.url.path, message), status_code=status, headers=headers)


def install_error_handler(app: FastAPI) -> None:
    """Answer every refusal of :data:`REFUSALS` with :func:`refusal`."""
    for kind in REFUSALS:
        app.add_exception_handler(kind, _answer)
