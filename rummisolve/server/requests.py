"""Reading requests and refusing them: the body as JSON (size-limited, streamed), the checks every
route shares, and :class:`BadRequest`, the one error a route raises to refuse a request.

Every refusal is a JSON body in the contract's shape (:func:`error_body`): ``{"status": "error",
"error": message}`` from /solve (the shape of a solve's result), ``{"error": message}`` elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from collections.abc import Iterator
from typing import Any

from starlette.requests import ClientDisconnect, Request

from rummisolve.errors import GameStateError
from rummisolve.jsonio import error_message, json_type_name
from rummisolve.server.settings import Settings

__all__ = [
    "BadRequest",
    "error_body",
    "read_json",
    "read_body",
    "decode_json",
    "require_json",
    "json_object",
    "clamp_time_limit",
    "clamp_reroll_budget",
    "check_position_size",
    "client_gone",
    "dealing",
    "deadline_headers",
]


class BadRequest(Exception):
    """A request the service refuses, with the HTTP status, a message naming the problem, and
    headers for the answer (``Retry-After``)."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


@contextlib.contextmanager
def dealing() -> Iterator[None]:
    """Making a new game or room: the engine's refusal to deal (racks bigger than the set allows,
    a bad first seat) is bad input of the request (400), not a game's state (409)."""
    try:
        yield
    except GameStateError as err:
        raise BadRequest(400, error_message(err)) from None


def error_body(path: str, message: str) -> dict[str, Any]:
    """An error in the contract's shape: ``{"status": "error", "error"}`` from /solve, ``{"error"}`` elsewhere."""
    return {"status": "error", "error": message} if path == "/solve" else {"error": message}


def require_json(request: Request) -> None:
    """:class:`BadRequest` (415) unless the body is declared JSON (``application/json`` or ``+json``):
    a page on another site can send ``text/plain`` or a form without asking, never JSON."""
    declared = request.headers.get("content-type", "")
    media = declared.split(";", 1)[0].strip().lower()
    if media != "application/json" and not (media.startswith("application/") and media.endswith("+json")):
        shown = f"Content-Type {declared!r}" if declared else "no Content-Type"
        raise BadRequest(415, f"{shown}: this endpoint takes a JSON body (send Content-Type: application/json)")


async def read_json(request: Request, limit: int) -> Any:
    """The request body decoded as JSON; :class:`BadRequest` if it is too large or not JSON.

    The size limit is checked against ``Content-Length`` before reading and again while the
    body streams in (a chunked body has no length), so an oversized body is never held whole.
    """
    return decode_json(await read_body(request, limit))


async def read_body(request: Request, limit: int) -> bytes:
    """The request body's bytes, size-limited as :func:`read_json` says (to decode elsewhere:
    :func:`decode_json`, e.g. in a worker process, for a big body)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.strip().isdigit():
            raise BadRequest(400, f"invalid Content-Length header {declared!r}")
        if int(declared) > limit:
            raise BadRequest(413, f"request body of {int(declared)} bytes exceeds the limit of {limit} bytes")
    chunks = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise BadRequest(413, f"request body exceeds the limit of {limit} bytes")
            chunks.append(chunk)
    except ClientDisconnect:  # nobody will read the answer; this keeps it out of the error log
        raise BadRequest(400, "the client disconnected before sending the whole body") from None
    return b"".join(chunks)


def decode_json(raw: bytes) -> Any:
    """``raw`` decoded as JSON (UTF-8); :class:`BadRequest` (400) naming what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise BadRequest(400, f"request body is not UTF-8 text (bad byte at offset {err.start})") from None
    if not text.strip():
        raise BadRequest(400, "empty request body: expected a JSON object")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise BadRequest(
            400, f"malformed JSON: {err.msg} at line {err.lineno} column {err.colno} (char {err.pos})"
        ) from None
    except RecursionError:
        raise BadRequest(400, "malformed JSON: nested too deeply") from None
    except ValueError as err:  # e.g. an integer literal with more digits than Python converts
        raise BadRequest(400, f"malformed JSON: {err}") from None


async def json_object(request: Request, limit: int, fields: tuple[str, ...], what: str) -> dict[str, Any]:
    """The JSON object of a request with no field but ``fields`` (``{}`` when it has no body);
    ``what`` names the request in messages ("the draw action")."""
    if request.headers.get("content-length") in (None, "0") and "transfer-encoding" not in request.headers:
        return {}  # an action without options
    require_json(request)
    body = await read_json(request, limit)
    if not isinstance(body, dict):
        raise BadRequest(400, f"expected a JSON object, got {json_type_name(body)}")
    unknown = sorted(set(body) - set(fields))
    if unknown:
        takes = f"takes {', '.join(fields)}" if fields else "takes no fields"
        raise BadRequest(400, f"unknown field(s) {', '.join(map(repr, unknown))} ({what} {takes})")
    return body


def clamp_time_limit(value: Any, settings: Settings) -> float:
    """A request's ``time_limit`` clamped to the server's cap; :class:`BadRequest` if absurd."""
    if value is None:
        return settings.max_time_limit
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadRequest(400, f"position.time_limit: expected a number of seconds, got {json_type_name(value)}")
    if (isinstance(value, float) and math.isnan(value)) or value <= 0:
        raise BadRequest(
            400, f"position.time_limit: expected a positive, finite number of seconds, got {_short(value)}"
        )
    if value > settings.absurd_time_limit:  # also infinity and integers too large for a float
        raise BadRequest(
            400,
            f"position.time_limit: {_short(value)} seconds is absurd (this server accepts at most "
            f"{settings.absurd_time_limit:g} and clamps to {settings.max_time_limit:g})",
        )
    return float(min(value, settings.max_time_limit))


def clamp_reroll_budget(body: Any, settings: Settings) -> Any:
    """A /solve body asking for the Xpress re-roll with its budget capped (the re-roll's search
    hears no stop signal): ``reroll_max_solves`` at most the default
    (:data:`~rummisolve.xpress.reroll.DEFAULT_MAX_SOLVES`), ``reroll_time_limit`` at most the
    server's cap on a solve, also when absent. A value of the wrong kind is left for
    ``solve_json`` to name."""
    from rummisolve.xpress.reroll import DEFAULT_MAX_SOLVES

    if not isinstance(body, dict) or body.get("reroll", False) is False:
        return body
    body = dict(body)
    solves = body.get("reroll_max_solves")
    if isinstance(solves, int) and not isinstance(solves, bool) and solves > DEFAULT_MAX_SOLVES:
        body["reroll_max_solves"] = DEFAULT_MAX_SOLVES
    seconds = body.get("reroll_time_limit")
    if seconds is None:
        body["reroll_time_limit"] = settings.max_time_limit
    elif isinstance(seconds, int | float) and not isinstance(seconds, bool) and seconds > settings.max_time_limit:
        body["reroll_time_limit"] = settings.max_time_limit
    return body


def check_position_size(body: Any, settings: Settings) -> int:
    """The tiles in play of a /solve body, counted without validating it (a part of the wrong
    type counts nothing: ``solve_json`` names it); :class:`BadRequest` (413) past the server's
    limits on tiles in play or melds."""
    if not isinstance(body, dict):
        return 0
    table = body.get("table")
    rack = body.get("rack")
    melds = table if isinstance(table, list) else []
    tiles = sum(len(meld) for meld in melds if isinstance(meld, list)) + (len(rack) if isinstance(rack, list) else 0)
    if len(melds) > settings.max_melds:
        raise BadRequest(
            413,
            f"position.table: {len(melds):,} melds exceed this server's limit of {settings.max_melds:,} (max_melds)",
        )
    if tiles > settings.max_tiles_in_play:
        raise BadRequest(
            413,
            f"position: {tiles:,} tiles in play (table and rack) exceed this server's limit of "
            f"{settings.max_tiles_in_play:,} (max_tiles_in_play)",
        )
    return tiles


async def client_gone(request: Request) -> None:
    """Returns once the client has disconnected: once the body is read, an ASGI server's
    ``receive`` waits until then and yields ``http.disconnect``."""
    while (await request.receive())["type"] != "http.disconnect":
        await asyncio.sleep(0.1)  # a server that does not wait there is polled, never spun on


def deadline_headers(deadline: float, waited: float | None = None, time_limit: float | None = None) -> dict[str, str]:
    """The headers that say a job's hard deadline (and the time limit its search had, the seconds it waited)."""
    out = {"X-Rummisolve-Deadline": f"{deadline:g}"}
    if time_limit is not None:
        out["X-Rummisolve-Time-Limit"] = repr(time_limit)
    if waited is not None:
        out["X-Rummisolve-Waited"] = f"{waited:.3f}"
    return out


def _short(value: float) -> str:
    text = repr(value)
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"
