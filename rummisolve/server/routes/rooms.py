"""The game rooms' protocol: ``/rooms`` over HTTP, ``/rooms/{room}/ws`` over WebSocket (docs/rooms.md).

- ``POST /rooms`` makes a room (201: its code, the creator's seat and secret token, the invite);
  ``POST /rooms/{room}/join`` takes the next free human seat (409 when none is).
- ``GET /rooms/{room}``: the view of the seat whose token ``Authorization: Bearer`` carries, or
  without one the spectator's view; ``GET /rooms/{room}/results``: every finished round's result.
- ``POST /rooms/{room}/turn`` (the seat's token, the ``version`` its view showed): a play (the
  whole new table), a draw, or under the discard rule a discard; in Xpress a roll (the dice
  named), then a play or a pass (the kind's actions: a room refuses another kind's); 200 with the new view, 400 with
  the referee's reasons for an illegal play, 409 out of turn or a stale version, 401 without a
  token, 403 with one that is no seat's. ``POST /rooms/{room}/next-round`` deals the next round;
  ``POST /rooms/{room}/seats/{seat}`` (the creator) hands a human seat to an AI.
- ``WS /rooms/{room}/ws?token=...`` (no token: a spectator) sends the view at once and after every
  change; refusals send ``{"error"}`` and close with code 4000 + the HTTP status (4403, 4404, ...).

**Each client's share** (:mod:`rummisolve.server.quotas`): a client address makes at most
``rooms_per_window`` rooms in ``rate_window_seconds``, and a client holds at most
``max_client_live_rooms`` live rooms (429 with ``Retry-After`` or naming the cap; nothing is
written for a refused room). Requests naming a room that does not exist count as code guesses:
past ``code_guesses_per_window`` of them, every room request of that address gets 429 until the
window has moved on.

Every change runs holding the room and is saved before it is answered or pushed
(:mod:`rummisolve.server.room_cache`); the hub (:mod:`rummisolve.server.room_hub`) pushes it and
plays the AI seats' turns. Errors are ``{"error": message}`` (:mod:`rummisolve.server.handlers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import Any

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocketDisconnect

from rummisolve.errors import IllegalMoveError
from rummisolve.jsonio import json_type_name, rules_from_json, table_from_json
from rummisolve.server.game_cache import bearer_token, token_of
from rummisolve.server.handlers import REFUSALS, refusal
from rummisolve.server.openapi import request_body
from rummisolve.server.quotas import client_address, client_key
from rummisolve.server.requests import BadRequest, dealing, json_object
from rummisolve.server.room_cache import CachedRoom, NoSuchRoom, normal_code
from rummisolve.server.room_hub import Closed, RoomHub, Watcher
from rummisolve.server.room_views import invite_path, room_results, room_view
from rummisolve.server.rooms import Room
from rummisolve.server.session import illegal_answer
from rummisolve.server.state import ServerState, SharedState
from rummisolve.server.view_schemas import ERROR_RESPONSES, IllegalTurn, RoomMade, RoomResults, RoomView

__all__ = ["router"]

log = logging.getLogger("rummisolve.server")

router = APIRouter(responses=ERROR_RESPONSES)

_TURN_FIELDS = ("table", "draw", "source", "discard", "roll", "pass", "version")


def _token(request: Request) -> str | None:
    """The ``Authorization: Bearer`` token (``None`` without the header); 401 for another scheme."""
    header = request.headers.get("authorization")
    token = bearer_token(header)
    if header is not None and token is None:
        raise BadRequest(401, "Authorization: expected 'Bearer <token>' (the seat's token)", _CHALLENGE)
    return token


_CHALLENGE = {"WWW-Authenticate": "Bearer"}


def _seat(room: Room, token: str | None) -> int:
    """The seat ``token`` is: 401 without a token, 403 for a token that is no seat's of the room."""
    if token is None:
        raise BadRequest(
            401,
            "this needs a seat's token: send Authorization: Bearer <token> (from POST /rooms or /join)",
            _CHALLENGE,
        )
    seat = room.seat_of(token)
    if seat is None:
        raise BadRequest(403, f"this token is no seat's in room {room.code}")
    return seat


@contextlib.contextmanager
def _guessing(state: ServerState, conn: HTTPConnection) -> Iterator[None]:
    """Count a request that names no room as a code guess of its address; 429 (``Retry-After``)
    while the address is past ``code_guesses_per_window``."""
    address = client_address(conn)
    state.quotas.guesses.check(address)
    try:
        yield
    except NoSuchRoom:
        state.quotas.guesses.note(address)
        raise


def _version(body: dict[str, Any]) -> int:
    if "version" not in body:
        raise BadRequest(400, "missing field 'version' (the room's version your view showed)")
    seen = body["version"]
    if isinstance(seen, bool) or not isinstance(seen, int):
        raise BadRequest(400, f"version: expected the room's version (a whole number), got {json_type_name(seen)}")
    return seen


def _answer(hub: RoomHub, code: str, changed: bool, answer: dict[str, Any], status: int = 200) -> JSONResponse:
    if changed:
        hub.kick(code)
    return JSONResponse(answer, status_code=status)


@router.post(
    "/rooms",
    status_code=201,
    response_model=RoomMade,
    openapi_extra=request_body(
        "NewRoomBody",
        {
            "three": {
                "summary": "Two people and an AI",
                "value": {"seats": ["human", "human", "hard"], "name": "Ann", "timer": 60},
            }
        },
    ),
    summary='A new game room: {"rules", "seats": ["human", "human", "hard"], "name", "timer": seconds | null}',
)
async def create_room(request: Request, state: SharedState) -> Response:
    fields = ("rules", "seats", "name", "timer", "seat")
    address = client_address(request)
    state.quotas.rooms.check(address)
    body = await json_object(request, state.settings.max_body_bytes, fields, "a new room")
    hub = state.rooms

    def work() -> dict[str, Any]:
        rules = rules_from_json(body.get("rules", "standard"), "rules")
        seats = body.get("seats", ["human", "human"])

        def make(code: str) -> tuple[Room, tuple[int, str]]:
            with dealing():
                room, seat, token = Room.new(
                    code,
                    rules,
                    seats,
                    body.get("name"),
                    hub.cache.clock(),
                    timer=body.get("timer"),
                    seat=body.get("seat"),
                    max_steps=state.settings.max_verify_steps,
                )
            return room, (seat, token)

        client = client_key(request, state.store.owner_of(token_of(request)))
        cached, (seat, token) = hub.cache.create(make, client)
        code = cached.room.code
        view = room_view(cached.room, seat, cached.version, hub.cache.clock())
        return {"room": code, "seat": seat, "token": token, "invite": invite_path(code), "view": view}

    answer = await hub.run(work)
    state.quotas.rooms.note(address)
    return _answer(hub, answer["room"], True, answer, 201)


@router.post(
    "/rooms/{code}/join",
    response_model=RoomMade,
    openapi_extra=request_body("JoinBody", {"named": {"summary": "Join as Bo", "value": {"name": "Bo"}}}),
    summary='Take the next free human seat of a room ({"name": "Bo"}, or a free one: {"seat": 2}); 409 if none is',
)
async def join_room(code: str, request: Request, state: SharedState) -> Response:
    with _guessing(state, request):
        return await _join(normal_code(code), request, state)


async def _join(code: str, request: Request, state: ServerState) -> Response:
    body = await json_object(request, state.settings.max_body_bytes, ("name", "seat"), "joining a room")
    hub = state.rooms

    def join(cached: CachedRoom, now: float) -> dict[str, Any]:
        seat, token = cached.room.join(body.get("name"), now, body.get("seat"))
        return {"room": code, "seat": seat, "token": token, "invite": invite_path(code)}

    def work() -> tuple[dict[str, Any], bool]:
        answer, changed = hub.cache.change(code, join)
        answer["view"] = hub.cache.views(code, [answer["seat"]])[answer["seat"]]
        return answer, changed

    answer, changed = await hub.run(work)
    return _answer(hub, code, changed, answer)


@router.get(
    "/rooms/{code}",
    response_model=RoomView,
    summary="A room as a seat sees it (Authorization: Bearer <token>), or a spectator",
)
async def get_room(code: str, request: Request, state: SharedState) -> Response:
    with _guessing(state, request):
        return await _get(normal_code(code), request, state)


async def _get(code: str, request: Request, state: ServerState) -> Response:
    token = _token(request)
    hub = state.rooms

    def look(cached: CachedRoom, now: float) -> dict[str, Any]:
        seat = None if token is None else _seat(cached.room, token)
        return room_view(cached.room, seat, cached.version, now)

    view, changed = await hub.run(lambda: hub.cache.change(code, look))
    return _answer(hub, code, changed, view)


@router.get(
    "/rooms/{code}/results",
    response_model=RoomResults,
    summary="Every finished round's result and the totals (a view has the newest)",
)
async def get_results(code: str, state: SharedState) -> Response:
    code = normal_code(code)
    hub = state.rooms
    answer, changed = await hub.run(lambda: hub.cache.change(code, lambda cached, now: room_results(cached.room)))
    return _answer(hub, code, changed, answer)


@router.post(
    "/rooms/{code}/turn",
    response_model=RoomView,
    openapi_extra=request_body(
        "TurnBody",
        {
            "draw": {"summary": "A draw", "value": {"draw": True, "version": 7}},
            "play": {"summary": "A play: the whole new table", "value": {"table": [["R1", "R2", "R3"]], "version": 7}},
        },
    ),
    responses={400: {"model": IllegalTurn, "description": "An illegal play (the referee's reasons), or bad input"}},
    summary='A seat\'s turn: {"table": [[...]], "version": n} (a play: the whole new table), {"draw": true, '
    '"version": n}; Xpress: {"roll": ["D3"], "version": n}, a play, or {"pass": true, "version": n}',
)
async def take_turn(code: str, request: Request, state: SharedState) -> Response:
    with _guessing(state, request):
        return await _turn(normal_code(code), request, state)


async def _turn(code: str, request: Request, state: ServerState) -> Response:
    token = _token(request)
    body = await json_object(request, state.settings.max_body_bytes, _TURN_FIELDS, "a turn")
    seen = _version(body)
    hub = state.rooms

    def turn(cached: CachedRoom, now: float) -> tuple[int, dict[str, Any] | None]:
        room = cached.room
        seat = _seat(room, token)
        hub.cache.check_version(cached, seen)
        try:
            _act(room, seat, body, now)
        except IllegalMoveError as err:
            refused = illegal_answer(err)
            return seat, {"error": f"illegal play: {refused['message']}", "reasons": refused["reasons"]}
        return seat, None

    def work() -> tuple[dict[str, Any], bool, int]:
        (seat, refused), changed = hub.cache.change(code, turn)
        if refused is not None:  # nothing changed: the referee's reasons, and the version to play on
            return {**refused, "version": seen}, changed, 400
        return hub.cache.views(code, [seat])[seat], changed, 200

    answer, changed, status = await hub.run(work)
    return _answer(hub, code, changed, answer, status)


def _act(room: Room, seat: int, body: dict[str, Any], now: float) -> None:
    """The turn ``body`` asks for; :class:`BadRequest` (400) naming a body that asks for none or two."""
    asked: list[str] = [k for k in ("table", "draw", "roll", "pass") if k in body]
    asked = asked or (["discard"] if "discard" in body else [])
    if len(asked) != 1:
        raise BadRequest(
            400,
            'a turn is {"table": [[...]], "version": n} (a play), {"draw": true, "version": n}, or in '
            'Xpress {"roll": ["D3", ...], "version": n} then a play or {"pass": true, "version": n}'
            + (f", not both {' and '.join(asked)}" if asked else ""),
        )
    if asked[0] in ("roll", "pass") and "discard" in body:
        raise BadRequest(400, f"a {asked[0]} and a discard are two actions: send them one at a time")
    if asked == ["table"]:
        discard = body.get("discard")
        if discard is not None and not isinstance(discard, str):
            raise BadRequest(400, f"discard: expected a tile code, got {json_type_name(discard)}")
        room.play(seat, table_from_json(body["table"], "table", room.rules), discard, now)
    elif asked == ["draw"]:
        if "discard" in body:
            raise BadRequest(400, "a draw and a discard are two actions: send the draw, then the discard")
        if body["draw"] is not True:
            raise BadRequest(400, f"draw: expected true, got {json_type_name(body['draw'])}")
        source = body.get("source", "pool")
        if source not in ("pool", "discard"):
            raise BadRequest(400, f"source: expected 'pool' or 'discard', got {source!r}")
        room.draw(seat, source, now)
    elif asked == ["roll"]:
        room.roll(seat, body["roll"], now)
    elif asked == ["pass"]:
        if body["pass"] is not True:
            raise BadRequest(400, f"pass: expected true, got {json_type_name(body['pass'])}")
        room.pass_turn(seat, now)
    else:
        tile = body["discard"]
        if not isinstance(tile, str):
            raise BadRequest(400, f"discard: expected a tile code, got {json_type_name(tile)}")
        room.discard(seat, tile, now)


@router.post(
    "/rooms/{code}/next-round",
    response_model=RoomView,
    openapi_extra=request_body("RoomVersionBody", {"next": {"summary": "Deal on", "value": {"version": 40}}}),
    summary='Deal the next round once this one is over ({"version": n})',
)
async def next_round(code: str, request: Request, state: SharedState) -> Response:
    with _guessing(state, request):
        code = normal_code(code)
        token = _token(request)
        body = await json_object(request, state.settings.max_body_bytes, ("version",), "the next round")
        return await _seat_action(state, code, token, _version(body), lambda room, seat, now: room.next_round(now))


async def _seat_action(
    state: ServerState, code: str, token: str | None, seen: int, act: Callable[[Room, int, float], None]
) -> Response:
    """``act(room, seat, now)`` by the seat of ``token`` on the room at version ``seen``, saved and
    pushed; that seat's new view."""
    hub = state.rooms

    def change(cached: CachedRoom, now: float) -> int:
        seat = _seat(cached.room, token)
        hub.cache.check_version(cached, seen)
        act(cached.room, seat, now)
        return seat

    def work() -> tuple[dict[str, Any], bool]:
        seat, changed = hub.cache.change(code, change)
        return hub.cache.views(code, [seat])[seat], changed

    view, changed = await hub.run(work)
    return _answer(hub, code, changed, view)


@router.post(
    "/rooms/{code}/seats/{seat}",
    response_model=RoomView,
    openapi_extra=request_body(
        "HandSeatBody", {"hard": {"summary": "A hard AI takes the seat", "value": {"kind": "hard", "version": 9}}}
    ),
    summary='The creator hands a human seat to an AI ({"kind": "hard", "version": n}): its player left, or nobody came',
)
async def hand_seat(code: str, seat: int, request: Request, state: SharedState) -> Response:
    with _guessing(state, request):
        code = normal_code(code)
        token = _token(request)
        body = await json_object(request, state.settings.max_body_bytes, ("kind", "version"), "handing a seat to an AI")
        kind = body.get("kind")
        return await _seat_action(
            state, code, token, _version(body), lambda room, by, now: room.hand_to_ai(by, seat, kind, now)
        )


# -- WebSocket ----------------------------------------------------------------------------------


@router.websocket("/rooms/{code}/ws")
async def room_socket(websocket: WebSocket, code: str) -> None:
    """Push the seat's (or a spectator's) view at once and after every change of the room."""
    state: ServerState = websocket.app.state.server
    hub = state.rooms
    await websocket.accept()
    unknown = sorted(set(websocket.query_params) - {"token"})
    token = websocket.query_params.get("token") or None
    try:
        if unknown:
            raise BadRequest(400, f"unknown query parameter(s) {', '.join(map(repr, unknown))} (it takes token)")
        with _guessing(state, websocket):
            code = normal_code(code)
            seat, changed, client = await hub.run(lambda: _seat_of(hub, code, token, websocket))
        if changed:
            hub.kick(code)
        # Watch first, then look: a change made meanwhile is pushed, never missed.
        watcher = hub.watch(code, seat, token if seat is not None else None, client)
    except BadRequest as err:
        await _refuse(websocket, err.status, err.message)
        return
    except Exception as err:  # the store refused, a damaged room: the connection's error, not the server's
        if not isinstance(err, REFUSALS):
            log.exception("internal error opening a room's WebSocket")
            await _refuse(websocket, 500, f"internal error: {type(err).__name__} (see the server's log)")
            return
        status, message, _ = refusal(websocket, err)
        await _refuse(websocket, status, message)
        return
    try:
        watcher.offer((await hub.run(lambda: hub.cache.views(code, [seat])))[seat])
        await _pump(websocket, watcher, state.settings.max_ws_message_bytes)
    except Exception as err:  # the room could not be read: the connection's error
        status, message, _ = refusal(websocket, err) if isinstance(err, REFUSALS) else (500, "internal error", None)
        await _refuse(websocket, status, message)
    finally:
        hub.unwatch(code, watcher)


def _seat_of(hub: RoomHub, code: str, token: str | None, conn: HTTPConnection) -> tuple[int | None, bool, str]:
    """The seat ``token`` is in room ``code`` (``None``: a spectator), whether a timeout due
    was applied first, and who the client is."""

    def look(cached: CachedRoom, now: float) -> int | None:
        return None if token is None else _seat(cached.room, token)

    seat, changed = hub.cache.change(code, look)
    return seat, changed, client_key(conn, hub.cache.store.owner_of(token_of(conn)))


async def _refuse(websocket: WebSocket, status: int, message: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_json({"error": message})
        await websocket.close(code=4000 + status, reason=message[:120])


async def _pump(websocket: WebSocket, watcher: Watcher, limit: int) -> None:
    """Send the watcher's views until the client goes (what it sends is read and ignored; a
    message over ``limit`` bytes closes the connection with code 1009)."""

    async def send() -> None:
        try:
            while True:
                await websocket.send_json(await watcher.next())
        except Closed as closed:  # the seat handed to an AI, replaced by a newer connection, ...
            await _refuse(websocket, closed.status, closed.message)

    async def receive() -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                data = message.get("bytes") or message.get("text") or ""
                if len(data) > limit:  # the ASGI server's own limit (serve sets it) comes first
                    with contextlib.suppress(Exception):
                        await websocket.close(code=1009, reason=f"message too big (max_ws_message_bytes: {limit})")
                    return

    sender, receiver = asyncio.ensure_future(send()), asyncio.ensure_future(receive())
    try:
        await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (sender, receiver):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
