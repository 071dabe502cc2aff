"""The ASGI app: POST /solve, /verify and /render, GET /health, OpenAPI docs at /docs.

Requests are read by hand (size-limited, streamed) and decoded by :mod:`rummisolve.jsonio`, so
the service answers exactly what the CLI prints, and no input can crash it: every bad request gets
a 4xx with a JSON body naming the problem. Solves run in a thread pool, never on the event loop
(CP-SAT releases the GIL while it searches), each capped at ``Settings.max_time_limit`` seconds.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, RedirectResponse, Response

from rummisolve import __version__
from rummisolve.errors import RummisolveError
from rummisolve.jsonio import error_message, json_type_name
from rummisolve.server import schemas
from rummisolve.server.settings import Settings

__all__ = ["create_app", "BadRequest"]

log = logging.getLogger("rummisolve.server")

_DESCRIPTION = """\
The best Rummikub move for any position, proven optimal with CP-SAT and re-checked by an
independent referee. Positions and results follow rummisolve's JSON contract: tiles are codes
such as `R7`, `B13`, `K1`, `O5` and `J` (joker); a table is a list of melds in play order.

Bad input gets a 4xx with a JSON body naming the bad part (`{"status": "error", "error": ...}`
from /solve, `{"error": ...}` elsewhere); bodies over the size limit get 413. Limits: `GET /health`.
"""

_WARM_UP = {"table": [["R1", "R2", "R3"]], "rack": ["R4", "K9"], "opened": True}


class BadRequest(Exception):
    """A request the service refuses, with the HTTP status and a message naming the problem."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def create_app(settings: Settings | None = None) -> FastAPI:
    """The service's ASGI app; ``settings`` default to :meth:`Settings.from_env`."""
    settings = Settings.from_env() if settings is None else settings
    executor = ThreadPoolExecutor(settings.solver_threads, thread_name_prefix="rummisolve-solve")
    # Verify and render are quick; their own pool keeps them answering while every solver thread is busy.
    light = ThreadPoolExecutor(2, thread_name_prefix="rummisolve-light")
    load = _SolveLoad()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Load OR-Tools and build the model caches before answering /health, so the first
        # client does not pay for them.
        await _off_loop(executor, _solve_json, dict(_WARM_UP, time_limit=settings.max_time_limit))
        yield
        executor.shutdown(wait=False, cancel_futures=True)
        light.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(
        title="rummisolve",
        version=__version__,
        description=_DESCRIPTION,
        lifespan=lifespan,
    )
    app.state.settings = settings

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        body: dict[str, Any] = {"error": f"internal error: {type(exc).__name__}"}
        if request.url.path == "/solve":
            body = {"status": "error", **body}
        return JSONResponse(body, status_code=500)

    @app.get("/", include_in_schema=False)
    async def root() -> RedirectResponse:
        return RedirectResponse("/docs")

    @app.get("/health", response_model=schemas.Health, summary="Liveness and the server's limits")
    async def health() -> dict[str, Any]:
        return {
            "status": "ok",
            "version": __version__,
            "limits": {
                "max_body_bytes": settings.max_body_bytes,
                "max_time_limit": settings.max_time_limit,
                "solver_threads": settings.solver_threads,
                "max_verify_steps": settings.max_verify_steps,
            },
            "solves": load.snapshot(),
        }

    @app.post(
        "/solve",
        summary="The best move for a position",
        description="Identical to what `rummisolve solve` prints for the position. The response header "
        "`X-Rummisolve-Time-Limit` gives the time limit applied after clamping to the server's cap.",
        responses={
            200: {"model": schemas.SolveResult, "description": "The best move found, no_move or unknown."},
            400: {"model": schemas.SolveError, "description": "Bad input; the message names the bad part."},
            413: {"model": schemas.SolveError, "description": "Body over the size limit."},
        },
        openapi_extra=_request_body("SolveRequest", schemas.SOLVE_EXAMPLES),
    )
    async def solve(request: Request) -> Response:
        try:
            body = await read_json(request, settings.max_body_bytes)
            time_limit = clamp_time_limit(body.get("time_limit") if isinstance(body, dict) else None, settings)
        except BadRequest as err:
            return JSONResponse({"status": "error", "error": err.message}, status_code=err.status)
        if isinstance(body, dict):
            body = {**body, "time_limit": time_limit}
        # Anything else is refused by solve_json with the same message the CLI prints.
        result = await load.run(executor, body)
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
        result = await _off_loop(light, _verify_json, (body, settings.max_verify_steps))
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
            svg = await _off_loop(light, _render_json, body)
        except BadRequest as err:
            return JSONResponse({"error": err.message}, status_code=err.status)
        return Response(svg, media_type="image/svg+xml")

    app.openapi = _openapi_with_request_models(app)  # type: ignore[method-assign]
    return app


# -- request handling ---------------------------------------------------------------------------


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
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRequest(413, f"request body exceeds the limit of {limit} bytes")
        chunks.append(chunk)
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


def _short(value: float) -> str:
    text = repr(value)
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"


async def _off_loop(executor: ThreadPoolExecutor, fn: Callable[[Any], Any], arg: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(executor, fn, arg)


class _SolveLoad:
    """Counts the solves of one worker process: running in a solver thread, and queued for one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.running = 0
        self.queued = 0

    async def run(self, executor: ThreadPoolExecutor, body: Any) -> dict[str, Any]:
        started = [False]
        with self._lock:
            self.queued += 1
        try:
            return await _off_loop(executor, self._counted, (body, started))
        finally:
            with self._lock:
                if not started[0]:  # cancelled before a thread took it
                    self.queued -= 1

    def _counted(self, job: tuple[Any, list[bool]]) -> dict[str, Any]:
        body, started = job
        with self._lock:
            started[0] = True
            self.queued -= 1
            self.running += 1
        try:
            return _solve_json(body)
        finally:
            with self._lock:
                self.running -= 1

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return {"running": self.running, "queued": self.queued}


def _solve_json(body: dict[str, Any]) -> dict[str, Any]:
    from rummisolve.service import solve_json

    return solve_json(body)


def _verify_json(job: tuple[Any, int]) -> dict[str, Any]:
    from rummisolve.service import verify_json

    body, max_steps = job
    return verify_json(body, max_steps=max_steps)


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
