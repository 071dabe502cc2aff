"""The ASGI app: POST /solve, /verify and /render, GET /health, OpenAPI docs at /docs (offline),
and the web app: its pages at / (analysis) and /play, its game API (:mod:`rummisolve.server.games`).

Requests are read by hand (size-limited, streamed) and decoded by :mod:`rummisolve.jsonio`, so
the service answers exactly what the CLI prints, and no input can crash it: every bad request gets
a 4xx with a JSON body naming the problem. Solves run in solver threads, never on the event loop
(CP-SAT releases the GIL while it searches), each capped at ``Settings.max_time_limit`` seconds,
in one of two bounded lanes (:mod:`rummisolve.server.lanes`): small positions have threads of their
own, a full lane answers 503 with ``Retry-After``, and a solve whose client disconnects is
cancelled (queued) or stopped (running). The docs pages load their scripts from this server
(the ``fastapi-offline`` package ships them), not from a CDN.

Browsers' attacks are refused before any route runs (:mod:`rummisolve.server.guards`): a ``Host``
that is not on the allow-list (DNS rebinding), and a state-changing request whose ``Origin`` is
another site. Every error, a bug's 500 too, is a JSON body in the contract's shape, and none
closes the client's keep-alive connection.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from rummisolve import __version__
from rummisolve.errors import RummisolveError
from rummisolve.jsonio import error_message, json_type_name
from rummisolve.server import games, schemas
from rummisolve.server.guards import CatchErrors, HostAndOriginGuard, error_body
from rummisolve.server.lanes import LaneFull, Lanes
from rummisolve.server.settings import Settings
from rummisolve.server.store import GameStore, default_db_path

__all__ = ["create_app", "BadRequest", "clamp_time_limit", "check_position_size", "read_json", "require_json"]

log = logging.getLogger("rummisolve.server")

STATIC = Path(__file__).resolve().parent / "static"
"""The web app's pages, scripts and styles (package data: installed with the package)."""

_DESCRIPTION = """\
The best Rummikub move for any position, proven optimal with CP-SAT and re-checked by an
independent referee. Positions and results follow rummisolve's JSON contract: tiles are codes
such as `R7`, `B13`, `K1`, `O5` and `J` (joker); a table is a list of melds in play order.

Bad input gets a 4xx with a JSON body naming the bad part (`{"status": "error", "error": ...}`
from /solve, `{"error": ...}` elsewhere); bodies over the size limit, and positions over the limits
on tiles in play or melds, get 413. A `Host` not on the server's allow-list gets 400, and a
state-changing request from another site's page (its `Origin`) 403. A server whose solver threads and queue are all taken answers
503 with a `Retry-After` header (seconds). Limits and load: `GET /health`.
"""

_WARM_UP = {"table": [["R1", "R2", "R3"]], "rack": ["R4", "K9"], "opened": True}


class BadRequest(Exception):
    """A request the service refuses, with the HTTP status and a message naming the problem."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def create_app(
    settings: Settings | None = None, *, db: str | None = None, game_cache_size: int | None = None
) -> FastAPI:
    """The service's ASGI app; ``settings`` default to :meth:`Settings.from_env`, ``db`` (the web
    app's saved games, a SQLite file) to :func:`rummisolve.server.store.default_db_path`;
    ``game_cache_size``: sessions kept in memory (default 32)."""
    settings = Settings.from_env() if settings is None else settings
    lanes = Lanes(settings)
    store = GameStore(
        default_db_path() if db is None else db,
        max_live=settings.max_live_games,
        max_stored=settings.max_stored_games,
    )
    # Verify and render are quick; their own pool keeps them answering while every solver thread is busy.
    quick = ThreadPoolExecutor(2, thread_name_prefix="rummisolve-quick")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Load OR-Tools and build the model caches before answering /health, so the first
        # client does not pay for them.
        await _off_loop(quick, _warm_up, settings.max_time_limit)
        yield
        lanes.shutdown()
        quick.shutdown(wait=False, cancel_futures=True)
        game_pool.shutdown(wait=False, cancel_futures=True)
        store.close()

    app = FastAPIOffline(
        title="rummisolve",
        version=__version__,
        description=_DESCRIPTION,
        lifespan=lifespan,
        swagger_ui_parameters={"validatorUrl": None},  # no badge fetched from validator.swagger.io
    )
    app.state.settings = settings
    app.add_middleware(CatchErrors)
    app.add_middleware(HostAndOriginGuard, allowed_hosts=settings.host_allow_list())

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
        if exc.status_code == 404:
            message = f"no such page or endpoint: {request.method} {request.url.path}"
        elif exc.status_code == 405:
            message = f"method {request.method} is not allowed on {request.url.path}"
        return JSONResponse(
            error_body(request.url.path, message), status_code=exc.status_code, headers=getattr(exc, "headers", None)
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', 'invalid')}" for e in exc.errors()
        )
        return JSONResponse(error_body(request.url.path, problems or "invalid request"), status_code=400)

    @app.get("/", include_in_schema=False)
    async def root() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/play", include_in_schema=False)
    async def play_page() -> FileResponse:
        return FileResponse(STATIC / "play.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    game_pool = games.install(
        app,
        store,
        read_json,
        settings.max_body_bytes,
        settings.max_verify_steps,
        **({} if game_cache_size is None else {"cache_size": game_cache_size}),
    )

    @app.get("/health", response_model=schemas.Health, summary="Liveness and the server's limits")
    async def health() -> dict[str, Any]:
        return {
            "status": "ok",
            "version": __version__,
            "limits": {name: getattr(settings, name) for name in schemas.Limits.model_fields},
            "solves": lanes.snapshot(),
        }

    @app.post(
        "/solve",
        summary="The best move for a position",
        description="Identical to what `rummisolve solve` prints for the position. The response header "
        "`X-Rummisolve-Time-Limit` gives the time limit applied after clamping to the server's cap. "
        "Light solves have solver threads of their own (the light lane), so they never wait behind "
        "big ones: a solve is light if its position has at most `light_max_tiles` tiles in play (see "
        "/health) and it asks for no `alternatives` (each alternative is a search of its own, so a "
        "request with alternatives takes the heavy lane whatever its size). A solve whose client "
        "disconnects is dropped from the queue, or stopped if it is running.",
        responses={
            200: {"model": schemas.SolveResult, "description": "The best move found, no_move or unknown."},
            400: {"model": schemas.SolveError, "description": "Bad input; the message names the bad part."},
            413: {
                "model": schemas.SolveError,
                "description": "Body over the size limit, or a position over the limit on tiles in play or "
                "melds (`max_tiles_in_play`, `max_melds`); the message names the limit.",
            },
            503: {
                "model": schemas.SolveError,
                "description": "Busy: every solver thread of the position's lane is taken and its queue is "
                "full (`max_queued_solves`, or `max_queued_light_solves` for light solves). Retry after "
                "the `Retry-After` header's seconds.",
                "headers": {"Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}},
            },
        },
        openapi_extra=_request_body("SolveRequest", schemas.SOLVE_EXAMPLES),
    )
    async def solve(request: Request) -> Response:
        try:
            body = await read_json(request, settings.max_body_bytes)
            time_limit = clamp_time_limit(body.get("time_limit") if isinstance(body, dict) else None, settings)
            tiles = check_position_size(body, settings)
        except BadRequest as err:
            return JSONResponse({"status": "error", "error": err.message}, status_code=err.status)
        if isinstance(body, dict):
            body = {**body, "time_limit": time_limit}
        # Anything else is refused by solve_json with the same message the CLI prints.
        try:
            result = await lanes.run(lanes.lane_for(tiles, body), _solve_json, body, gone=lambda: _client_gone(request))
        except LaneFull as full:
            return JSONResponse(
                {"status": "error", "error": full.message},
                status_code=503,
                headers={"Retry-After": str(full.retry_after)},
            )
        if result is None:  # the client has gone: nobody reads this (499: nginx's "client closed request")
            return Response(status_code=499)
        status = 400 if result.get("status") == "error" else 200
        return JSONResponse(result, status_code=status, headers={"X-Rummisolve-Time-Limit": repr(time_limit)})

    @app.post(
        "/verify",
        summary="Referee a turn: is the proposed table legal from this position?",
        description="Identical to what `rummisolve verify` prints.",
        responses={
            200: {"model": schemas.VerifyResult, "description": "The verdict, with reasons when illegal."},
            400: {"model": schemas.ErrorBody, "description": "Bad input; the message names the bad part."},
            413: {"model": schemas.ErrorBody, "description": "Body over the size limit."},
        },
        openapi_extra=_request_body("VerifyRequest", schemas.VERIFY_EXAMPLES),
    )
    async def verify(request: Request) -> Response:
        try:
            body = await read_json(request, settings.max_body_bytes)
        except BadRequest as err:
            return JSONResponse({"error": err.message}, status_code=err.status)
        # Anything but {"position", "table"} is refused by verify_json with the CLI's message.
        result = await _off_loop(quick, _verify_json, (body, settings.max_verify_steps))
        return JSONResponse(result, status_code=400 if "error" in result else 200)

    @app.post(
        "/explain",
        summary="How to play a turn, step by step, in the fewest moves",
        description="Any legal turn (a person's too): `meld_map` (which new meld continues each old one) and "
        "`steps` (each tile that moves, with a sentence). An illegal turn is a 400 naming the referee's reasons. "
        "Identical to `rummisolve.service.explain_json`.",
        responses={
            200: {"model": schemas.ExplainResult, "description": "The steps."},
            400: {"model": schemas.ExplainError, "description": "Bad input, or an illegal turn and its reasons."},
            413: {"model": schemas.ErrorBody, "description": "Body or turn over the size limits."},
        },
        openapi_extra=_request_body("VerifyRequest", schemas.EXPLAIN_EXAMPLES),
    )
    async def explain(request: Request) -> Response:
        try:
            body = await read_json(request, settings.max_body_bytes)
            if isinstance(body, dict):
                check_position_size(body.get("position"), settings)
                check_position_size({"table": body.get("table")}, settings)
        except BadRequest as err:
            return JSONResponse({"error": err.message}, status_code=err.status)
        result = await _off_loop(quick, _explain_json, (body, settings.max_verify_steps))
        return JSONResponse(result, status_code=400 if "error" in result else 200)

    @app.post(
        "/render",
        summary="An SVG picture of a position or a result",
        description="A position shows its table and rack; a result of /solve shows the new table (melds kept "
        "plain, melds rearranged outlined, tiles played highlighted) and the rack left, under the rules it carries.",
        response_class=Response,
        responses={
            200: {"content": {"image/svg+xml": {}}, "description": "The picture, ready to embed."},
            400: {"model": schemas.ErrorBody, "description": "Bad input; the message names the bad part."},
            413: {"model": schemas.ErrorBody, "description": "Body over the size limit."},
        },
        openapi_extra=_request_body(None, schemas.RENDER_EXAMPLES),
    )
    async def render(request: Request) -> Response:
        try:
            body = await read_json(request, settings.max_body_bytes)
            svg = await _off_loop(quick, _render_json, body)
        except BadRequest as err:
            return JSONResponse({"error": err.message}, status_code=err.status)
        return Response(svg, media_type="image/svg+xml")

    app.openapi = _openapi_with_request_models(app)  # type: ignore[method-assign]
    return app


# -- request handling ---------------------------------------------------------------------------


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
    raw = b"".join(chunks)
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


async def _client_gone(request: Request) -> None:
    """Returns once the client has disconnected: once the body is read, an ASGI server's
    ``receive`` waits until then and yields ``http.disconnect``."""
    while (await request.receive())["type"] != "http.disconnect":
        await asyncio.sleep(0.1)  # a server that does not wait there is polled, never spun on


def _short(value: float) -> str:
    text = repr(value)
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"


async def _off_loop(executor: ThreadPoolExecutor, fn: Callable[[Any], Any], arg: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(executor, fn, arg)


def _solve_json(body: Any, stop: Any) -> dict[str, Any]:
    from rummisolve.service import solve_json

    return solve_json(body, stop=stop)


def _warm_up(time_limit: float) -> None:
    _solve_json(dict(_WARM_UP, time_limit=time_limit), None)


def _verify_json(job: tuple[Any, int]) -> dict[str, Any]:
    from rummisolve.service import verify_json

    body, max_steps = job
    return verify_json(body, max_steps=max_steps)


def _explain_json(job: tuple[Any, int]) -> dict[str, Any]:
    from rummisolve.service import explain_json

    body, max_steps = job
    return explain_json(body, max_steps=max_steps)


def _render_json(body: Any) -> str:
    from rummisolve.service import render_json

    try:
        return render_json(body)
    except RummisolveError as err:
        raise BadRequest(400, error_message(err)) from None


# -- OpenAPI ------------------------------------------------------------------------------------


def _request_body(model: str | None, examples: dict[str, Any]) -> dict[str, Any]:
    """The ``requestBody`` of an operation whose body is read by hand (so FastAPI cannot infer it)."""
    if model is None:
        schema: dict[str, Any] = {
            "oneOf": [{"$ref": "#/components/schemas/PositionIn"}, {"$ref": "#/components/schemas/SolveResult"}]
        }
    else:
        schema = {"$ref": f"#/components/schemas/{model}"}
    return {
        "requestBody": {"required": True, "content": {"application/json": {"schema": schema, "examples": examples}}}
    }


def _openapi_with_request_models(app: FastAPI) -> Callable[[], dict[str, Any]]:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            components = doc.setdefault("components", {}).setdefault("schemas", {})
            for model in (*schemas.REQUEST_MODELS, schemas.SolveResult):
                schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
                components.update(schema.pop("$defs", {}))
                components.setdefault(model.__name__, schema)
            app.openapi_schema = doc
        return app.openapi_schema

    return openapi
