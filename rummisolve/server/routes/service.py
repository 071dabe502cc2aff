"""The solver's routes: ``POST /solve``, ``/verify``, ``/explain``, ``/render``, ``/check`` and ``GET /health``.

Each answers exactly what the CLI prints for the same input. Solves run in a lane's worker
processes (:mod:`rummisolve.server.lanes`) under a hard deadline; verify, explain and render in
the quick pool. Bodies are read by hand (:mod:`rummisolve.server.requests`): size-limited, and
decoded by :mod:`rummisolve.jsonio`, so no input can crash a route.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from rummisolve import __version__
from rummisolve.server import languages, schemas
from rummisolve.server.lanes import JobDeadline
from rummisolve.server.openapi import request_body
from rummisolve.server.quotas import client_address
from rummisolve.server.requests import (
    check_position_size,
    clamp_reroll_budget,
    clamp_time_limit,
    client_gone,
    deadline_headers,
    error_body,
    read_json,
)
from rummisolve.server.state import ServerState, SharedState

__all__ = ["router"]

router = APIRouter()

_SOLVE_DESCRIPTION = (
    "Identical to what `rummisolve solve` prints for the position. The response header "
    "`X-Rummisolve-Time-Limit` gives the time limit applied after clamping to the server's cap, "
    "`X-Rummisolve-Deadline` the solve's hard deadline (that time limit + `job_grace_seconds`: "
    "past it the solve is stopped and answered 504) and `X-Rummisolve-Waited` the seconds it "
    "waited for a worker. Solves run in worker processes, in two lanes: a solve is light if its "
    "expected work (tiles in play, times the rule set's size past 160 tiles and its costly "
    "options, times 1 + its alternatives, times 100 for the Xpress re-roll) is at most `light_max_work` (see "
    "/health); light solves "
    "have workers of their own, so they never wait behind big ones. A solve whose client "
    "disconnects is dropped from the queue, or stopped (its worker replaced) if it is running."
)

_SOLVE_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"model": schemas.SolveResult, "description": "The best move found, no_move or unknown."},
    400: {"model": schemas.SolveError, "description": "Bad input; the message names the bad part."},
    413: {
        "model": schemas.SolveError,
        "description": "Body over the size limit, or a position over the limit on tiles in play or "
        "melds (`max_tiles_in_play`, `max_melds`); the message names the limit.",
    },
    503: {
        "model": schemas.SolveError,
        "description": "Busy: every worker process of the position's lane is taken and its queue is "
        "full (`max_queued_solves`, or `max_queued_light_solves` for light solves). Retry after "
        "the `Retry-After` header's seconds.",
        "headers": {"Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}},
    },
    504: {
        "model": schemas.SolveError,
        "description": "The solve passed its hard deadline (its time limit + `job_grace_seconds`) and was "
        "stopped; the message names the limit.",
        "headers": {"Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}},
    },
}


def _plain_responses(result: type, described: str) -> dict[int | str, dict[str, Any]]:
    return {
        200: {"model": result, "description": described},
        400: {"model": schemas.ErrorBody, "description": "Bad input; the message names the bad part."},
        413: {"model": schemas.ErrorBody, "description": "Body over the size limit."},
    }


@router.get("/health", response_model=schemas.Health, summary="Liveness and the server's limits")
async def health(state: SharedState) -> dict[str, Any]:
    return {
        "status": "ok",
        "version": __version__,
        "limits": {name: getattr(state.settings, name) for name in schemas.Limits.model_fields},
        "solves": state.lanes.snapshot(),
    }


@router.post(
    "/solve",
    summary="The best move for a position",
    description=_SOLVE_DESCRIPTION,
    responses=_SOLVE_RESPONSES,
    openapi_extra=request_body("SolveRequest", schemas.SOLVE_EXAMPLES),
)
async def solve(request: Request, state: SharedState) -> Response:
    settings = state.settings
    body = await read_json(request, settings.max_body_bytes)
    time_limit = clamp_time_limit(body.get("time_limit") if isinstance(body, dict) else None, settings)
    tiles = check_position_size(body, settings)
    if isinstance(body, dict):
        body = clamp_reroll_budget({**body, "time_limit": time_limit}, settings)
    # Anything else is refused by solve_json with the same message the CLI prints.
    heavy = state.lanes.lane_for(tiles, body) is state.lanes.heavy
    search = state.lanes.search_seconds(body, time_limit)  # the re-roll's search comes after the solve's
    deadline = state.lanes.solve_deadline(search)
    # One client holds at most max_client_jobs heavy solves at once (queued or running).
    held = state.quotas.jobs.hold(client_address(request)) if heavy else contextlib.nullcontext()
    try:
        with held:
            job, result = await state.lanes.solve(body, tiles, search, gone=lambda: client_gone(request))
    except JobDeadline as cut:
        headers = {"Retry-After": str(cut.retry_after), **deadline_headers(deadline, cut.job.waited, time_limit)}
        return JSONResponse(error_body("/solve", cut.message), status_code=504, headers=headers)
    if result is None:  # the client has gone: nobody reads this (499: nginx's "client closed request")
        return Response(status_code=499)
    status = 400 if result.get("status") == "error" else 200
    headers = deadline_headers(deadline, job.waited, time_limit)
    return JSONResponse(result, status_code=status, headers=headers)


@router.post(
    "/verify",
    summary="Referee a turn: is the proposed table legal from this position?",
    description="Identical to what `rummisolve verify` prints.",
    responses=_plain_responses(schemas.VerifyResult, "The verdict, with reasons when illegal."),
    openapi_extra=request_body("VerifyRequest", schemas.VERIFY_EXAMPLES),
)
async def verify(request: Request, state: SharedState) -> Response:
    body = await read_json(request, state.settings.max_body_bytes)
    # Anything but {"position", "table"} is refused by verify_json with the CLI's message.
    result = await _quick(state, _verify_json, (body, state.settings.max_verify_steps))
    return JSONResponse(result, status_code=400 if "error" in result else 200)


@router.post(
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
    openapi_extra=request_body("VerifyRequest", schemas.EXPLAIN_EXAMPLES),
)
async def explain(request: Request, state: SharedState) -> Response:
    body = await read_json(request, state.settings.max_body_bytes)
    if isinstance(body, dict):
        check_position_size(body.get("position"), state.settings)
        check_position_size({"table": body.get("table")}, state.settings)
    result = await _quick(state, _explain_json, (body, state.settings.max_verify_steps))
    return JSONResponse(result, status_code=400 if "error" in result else 200)


@router.post(
    "/render",
    summary="An SVG picture of a position or a result",
    description="A position shows its table and rack (an Xpress position with `dice`: each die's name under its "
    "face; `reroll` is refused, the best re-roll is /solve's); a result of /solve shows the new table (melds kept "
    "plain, melds rearranged outlined, tiles played highlighted) and the rack left, under the rules it carries.",
    response_class=Response,
    responses={
        200: {"content": {"image/svg+xml": {}}, "description": "The picture, ready to embed."},
        400: {"model": schemas.ErrorBody, "description": "Bad input; the message names the bad part."},
        413: {"model": schemas.ErrorBody, "description": "Body over the size limit."},
    },
    openapi_extra=request_body(None, schemas.RENDER_EXAMPLES),
)
async def render(request: Request, state: SharedState) -> Response:
    body = await read_json(request, state.settings.max_body_bytes)
    words = languages.render_words(request.query_params.get("lang"))  # ?lang=fi: a result's labels in Finnish
    svg = await _quick(state, _render_json, (body, words))  # bad input: a RummisolveError, answered 400
    return Response(svg, media_type="image/svg+xml")


@router.post(
    "/check",
    summary="Every problem of a position, in a player's words",
    description="What the analysis board lists as you type: each tile that is no tile under the rules, each "
    "table meld that is not valid, each tile the set has fewer copies of, with melds and tiles numbered from "
    "1 (the board's numbering) and the colours of the rules in use. Always 200 for a JSON body; `problems` is "
    "empty when /solve takes the position's table, rack and rules. Identical to `rummisolve.check_json`.",
    responses=_plain_responses(schemas.CheckResult, "The problems (none: the position is fine)."),
    openapi_extra=request_body(None, schemas.CHECK_EXAMPLES),
)
async def check(request: Request, state: SharedState) -> Response:
    body = await read_json(request, state.settings.max_body_bytes)
    return JSONResponse(await _quick(state, _check_json, body))


async def _quick(state: ServerState, fn: Callable[[Any], Any], arg: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(state.quick, fn, arg)


def _verify_json(job: tuple[Any, int]) -> dict[str, Any]:
    from rummisolve.service import verify_json

    body, max_steps = job
    return verify_json(body, max_steps=max_steps)


def _explain_json(job: tuple[Any, int]) -> dict[str, Any]:
    from rummisolve.service import explain_json

    body, max_steps = job
    return explain_json(body, max_steps=max_steps)


def _render_json(job: tuple[Any, Any]) -> str:
    from rummisolve.service import render_json

    body, words = job
    return render_json(body, words=words)


def _check_json(body: Any) -> dict[str, Any]:
    from rummisolve.service import check_json

    return check_json(body)
