"""The game API of the web app's play page: ``/meta``, ``/tiles``, ``/games`` and ``/games/{id}/...``.

Every game is a :class:`rummisolve.server.session.Session` (one human against AIs, round after
round), or under the Xpress rules (``"rules": "xpress"``) a :class:`rummisolve.server.dice_session.DiceSession`
(one human against one Xpress AI: ``roll``, then ``play`` or ``pass``), saved in a :class:`rummisolve.server.store.GameStore` after every action that changes it,
so a reload or a server restart resumes it. The human's plays are judged by the engine's referee:
an illegal one is answered 200 with ``"legal": false`` and the reasons, each naming the meld it
concerns (an illegal turn is not an error). The AIs move one turn per ``POST /games/{id}/advance``,
so the page can show each.

**Owners.** ``POST /games`` answers a secret ``token`` (and sets it as an HttpOnly, SameSite=Strict
cookie); a request that already carries a valid token adds the game to that owner's games. Every
other request names its owner by ``Authorization: Bearer <token>`` or the cookie; another owner's
game, like a game that does not exist, is a 404. ``GET /games`` lists the caller's games only.

**Every acknowledged action is saved.** Actions run in threads of their own, one at a time per
game (:class:`rummisolve.server.game_cache.GameCache`). An action is committed to the store before
it is answered; if the store refuses the write (503), or the action fails, the copy in memory is
dropped, so the game stays exactly as saved. A save from an older copy (another worker process
saved first) is refused (409).

Errors, always ``{"error": message}`` (:mod:`rummisolve.server.handlers`): 400 bad input (an
unknown field too), 404 no such game, 409 an action that does not fit the game's state (not your
turn, the round is over) or a stale copy, 415 a body that is not JSON, 429 past the limits on games
(the server's or one client's, named in the message; a new owner is saved only with its game) or
past ``games_per_window`` new games from one address (with ``Retry-After``), 500 a damaged saved game,
503 the database refused the write (nothing changed) or the game lane is full, 504 a hint past its
deadline. Hints and AI turns run in worker processes of the game lane (:mod:`rummisolve.server.lanes`);
replays in the heavy lane.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from rummisolve.jsonio import json_type_name, rules_from_json, table_from_json
from rummisolve.server.game_cache import TOKEN_COOKIE, NoSuchGame, token_of
from rummisolve.server.meta import meta, tile_set
from rummisolve.server.openapi import request_body
from rummisolve.server.quotas import client_address, client_key
from rummisolve.server.requests import (
    BadRequest,
    client_gone,
    deadline_headers,
    dealing,
    json_object,
    read_body,
    require_json,
)
from rummisolve.server.sessions import AnySession, new_session
from rummisolve.server.state import ServerState, SharedState
from rummisolve.server.store import StaleGame, hash_token
from rummisolve.server.view_schemas import (
    ACTION_BODIES,
    ERROR_RESPONSES,
    ActionAnswer,
    DeletedGame,
    GameAnswer,
    GamesList,
    NewGameAnswer,
    RoomResults,
    RoundReplay,
    SavedGame,
    VersionBody,
)

__all__ = ["router", "ACTIONS"]

COOKIE_AGE = 400 * 24 * 3600
"""The longest a browser keeps a cookie (Chromium caps it at 400 days)."""

router = APIRouter()

_NEW_GAME_EXAMPLES = {
    "practice": {"summary": "A practice game against a medium AI", "value": {"players": "human,medium", "seed": 7}},
    "xpress": {"summary": "Xpress against a hard AI", "value": {"players": "human,hard", "rules": "xpress"}},
}

Action = Callable[[AnySession, dict[str, Any]], dict[str, Any] | None]


async def _in_game_thread(state: ServerState, work: Callable[[], Any]) -> Any:
    """``work()`` in a game thread; its refusals are answered by :mod:`rummisolve.server.handlers`."""
    return await asyncio.get_running_loop().run_in_executor(state.game_pool, work)


async def _answer(state: ServerState, work: Callable[[], dict[str, Any]]) -> JSONResponse:
    return JSONResponse(await _in_game_thread(state, work))


def _owner_of(state: ServerState, request: Request) -> str | None:
    return state.store.owner_of(token_of(request))


@router.get("/meta", summary="What the web app offers: rule presets and options, colours, AI levels, statuses")
async def get_meta() -> dict[str, Any]:
    return meta()


@router.post("/tiles", summary='Every tile of a rule set, with its copies (body: {"rules": ...})')
async def post_tiles(request: Request, state: SharedState) -> Response:
    body = await json_object(request, state.settings.max_body_bytes, ("rules",), "/tiles")
    return JSONResponse(tile_set(rules_from_json(body.get("rules", "standard"), "rules")))


@router.get(
    "/games",
    response_model=GamesList,
    responses=ERROR_RESPONSES,
    summary="Your saved games, most recent first, and the limits on games",
)
async def list_games(request: Request, state: SharedState) -> Response:
    store = state.store

    def work() -> dict[str, Any]:
        owner = _owner_of(state, request)
        games, damaged = store.listing(owner) if owner is not None else ([], [])
        return {
            "games": games,
            "damaged": damaged,
            "counts": store.counts(owner) if owner is not None else {"stored": 0, "live": 0},
            "limits": {"max_live_games": store.max_live, "max_stored_games": store.max_stored},
        }

    return await _answer(state, work)


@router.post(
    "/games",
    status_code=201,
    response_model=NewGameAnswer,
    openapi_extra=request_body("NewGameBody", _NEW_GAME_EXAMPLES),
    responses=ERROR_RESPONSES,
    summary='A new game: {"players": "human,medium", "rules": "standard", "seed": 7 (a practice game)}',
)
async def new_game(request: Request, state: SharedState) -> Response:
    address = client_address(request)
    state.quotas.games.check(address)
    body = await json_object(request, state.settings.max_body_bytes, ("players", "rules", "seed"), "a new game")
    settings = state.settings

    def work() -> tuple[str, str, dict[str, Any]]:
        rules = rules_from_json(body.get("rules", "standard"), "rules")
        with dealing():
            session = new_session(
                body.get("players", "human,medium"), rules, body.get("seed"), max_steps=settings.max_verify_steps
            )
        token = token_of(request)
        owner = state.store.owner_of(token)
        client = client_key(request, owner)
        fresh = owner is None or token is None
        if fresh:  # no valid token presented: a new owner (never an unknown token), saved with the game
            token = secrets.token_urlsafe(32)
            owner = hash_token(token)
        assert owner is not None and token is not None
        ident = state.games.create(
            session,
            owner,
            client=client,
            max_client_live=settings.max_client_live_games,
            max_client_stored=settings.max_client_stored_games,
            new_owner=fresh,
        )
        return ident, token, session.view()

    ident, token, view = await _in_game_thread(state, work)
    state.quotas.games.note(address)
    response = JSONResponse({"id": ident, "token": token, "version": 1, "state": view}, status_code=201)
    response.set_cookie(
        TOKEN_COOKIE,
        token,
        max_age=COOKIE_AGE,
        path="/",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


@router.get(
    "/games/{ident}",
    response_model=GameAnswer,
    responses=ERROR_RESPONSES,
    summary="A saved game as its human player sees it",
)
async def get_game(ident: str, request: Request, state: SharedState) -> Response:
    def work() -> dict[str, Any]:
        owner = _owner_of(state, request)
        with state.games.hold(ident):
            cached = state.games.get(ident, owner)
            return {"id": ident, "version": cached.version, "state": cached.session.view()}

    return await _answer(state, work)


@router.delete("/games/{ident}", response_model=DeletedGame, responses=ERROR_RESPONSES, summary="Delete a saved game")
async def delete_game(ident: str, request: Request, state: SharedState) -> Response:
    def work() -> dict[str, Any]:
        owner = _owner_of(state, request)
        with state.games.hold(ident):
            if not state.store.delete(ident, owner):
                raise NoSuchGame(ident)
            state.games.forget(ident)
            return {"id": ident, "deleted": True}

    return await _answer(state, work)


@router.get(
    "/games/{ident}/replay",
    response_model=RoundReplay,
    responses=ERROR_RESPONSES,
    summary="A round state by state (every rack once it is over)",
)
async def replay(ident: str, request: Request, state: SharedState) -> Response:
    raw = request.query_params.get("round")
    unknown = sorted(set(request.query_params) - {"round"})
    if unknown:
        raise BadRequest(400, f"unknown query parameter(s) {', '.join(map(repr, unknown))} (replay takes round)")

    def work() -> dict[str, Any]:
        owner = _owner_of(state, request)
        with state.games.hold(ident):
            session = state.games.get(ident, owner).session
            if raw is None:
                return session.replay(len(session.rounds) - 1)
            if not raw.strip().isdigit():
                raise BadRequest(400, f"round: expected a round number from 0, got {raw!r}")
            return session.replay(int(raw))

    return await _answer(state, work)


@router.get(
    "/games/{ident}/results",
    response_model=RoomResults,
    responses=ERROR_RESPONSES,
    summary="Every finished round's result and the totals (the view has the newest), as a room's",
)
async def game_results(ident: str, request: Request, state: SharedState) -> Response:
    def work() -> dict[str, Any]:
        owner = _owner_of(state, request)
        with state.games.hold(ident):
            return state.games.get(ident, owner).session.results()

    return await _answer(state, work)


@router.get(
    "/games/{ident}/saved",
    response_model=SavedGame,
    responses=ERROR_RESPONSES,
    summary="The game to keep: a practice game whole, any other what you have seen (every finished round, "
    "the running one as you saw it)",
)
async def saved(ident: str, request: Request, state: SharedState) -> Response:
    def work() -> dict[str, Any]:
        owner = _owner_of(state, request)
        with state.games.hold(ident):
            return state.games.get(ident, owner).session.record()

    return await _answer(state, work)


SAVED_GAME_LIMIT = 4_000_000
"""The largest saved game ``POST /replays`` reads, in bytes (a match of many rounds is long)."""


@router.post(
    "/replays",
    summary="Open a saved game (a download of this app, or rummisolve play --save) as a replay, "
    "with the analysis of its player's turns; nothing is stored",
)
async def open_replay(request: Request, state: SharedState) -> Response:
    require_json(request)
    # The heavy lane: decoding, replaying and analysing rounds is solver work, in a worker process
    # under replay_deadline_seconds (past it: 504), stopped if the client leaves; one client holds
    # at most max_client_jobs of the heavy jobs at once, its uploads included (refused unread).
    with state.quotas.jobs.hold(client_address(request)):
        raw = await read_body(request, SAVED_GAME_LIMIT)
        job, result = await state.lanes.replay(raw, gone=lambda: client_gone(request))
    if result is None:
        return Response(status_code=499)
    deadline = state.settings.replay_deadline_seconds
    return JSONResponse(result, headers=deadline_headers(deadline, job.waited))


# -- actions ------------------------------------------------------------------------------------


def _play(session: AnySession, body: dict[str, Any]) -> dict[str, Any]:
    if "table" not in body:
        raise BadRequest(400, "missing field 'table' (the whole new table, melds in play order)")
    table = table_from_json(body["table"], "table", session.rules)
    return session.play(table, body.get("discard"))


def _draw(session: AnySession, body: dict[str, Any]) -> dict[str, Any]:
    source = body.get("source", "pool")
    if source not in ("pool", "discard"):
        raise BadRequest(400, f"source: expected 'pool' or 'discard', got {source!r}")
    return session.draw(source)


def _discard(session: AnySession, body: dict[str, Any]) -> dict[str, Any]:
    tile = body.get("tile")
    if not isinstance(tile, str):
        raise BadRequest(400, f"tile: expected a tile code, got {json_type_name(tile)}")
    return session.discard(tile)


def _hint(session: AnySession, body: dict[str, Any]) -> dict[str, Any]:
    return {"hint": session.hint(body.get("level", 1))}


def _roll(session: AnySession, body: dict[str, Any]) -> dict[str, Any]:
    dice = body.get("dice", [])
    if dice != "all" and (not isinstance(dice, list) or not all(isinstance(d, str) for d in dice)):
        raise BadRequest(
            400, f'dice: expected "all" or an array of your free dice\'s names ("D3"), got {json_type_name(dice)}'
        )
    return session.roll(dice)


def _pass(session: AnySession, body: dict[str, Any]) -> dict[str, Any]:
    return session.pass_turn()


ACTIONS: dict[str, tuple[Action, tuple[str, ...], str]] = {
    "play": (
        _play,
        ("table", "discard"),
        'Play the human\'s new table ({"table": [[...]], "discard": tile under the discard rule})',
    ),
    "draw": (_draw, ("source",), 'The human draws ({"source": "pool" | "discard"})'),
    "roll": (
        _roll,
        ("dice",),
        'Xpress: the human re-rolls free dice, once a turn before the play ({"dice": ["D3", "D7"]}, "all", or [] to keep)',
    ),
    "pass": (_pass, (), "Xpress: the human ends the turn without a play"),
    "discard": (_discard, ("tile",), 'Discard rule: the human discards ({"tile": "R7"}) after a draw'),
    "undo": (lambda s, b: s.undo_turn(), (), "Practice games: take back the human's last whole turn"),
    "advance": (lambda s, b: s.advance(), (), "The next AI takes its turn"),
    "timeout": (lambda s, b: s.timeout(), (), "Apply the turn timer's penalty if the time is up"),
    "hint": (
        _hint,
        ("level",),
        'A hint for the human ({"level": 1 | 2 | 3}); Xpress before the roll: the best re-roll',
    ),
    "next-round": (lambda s, b: s.next_round(), (), "Deal the next round once this one is over"),
}
"""Each action a game takes: ``POST /games/{id}/<name>`` runs ``(function, fields its body may have, summary)``."""


async def _act(request: Request, state: ServerState, ident: str, name: str) -> Response:
    """Run action ``name`` on game ``ident`` holding it, commit, answer with the state and its version.

    A body's ``version`` (every action takes one) is the version of the game its page last saw: if
    the game has moved on since (another tab or window played it), the action is refused (409)."""
    action, fields, _ = ACTIONS[name]
    body = await json_object(request, state.settings.max_body_bytes, (*fields, "version"), f"the {name} action")
    seen = body.pop("version", None)
    if seen is not None and (isinstance(seen, bool) or not isinstance(seen, int)):
        raise BadRequest(400, f"version: expected the game's version (a whole number), got {json_type_name(seen)}")

    def work() -> dict[str, Any]:
        owner = _owner_of(state, request)
        with state.games.hold(ident):
            cached = state.games.get(ident, owner)
            if seen is not None and seen != cached.version:
                raise StaleGame(
                    f"this page's copy of the game is out of date (version {seen}; the game is at version "
                    f"{cached.version}): it was played in another tab or window"
                )
            cached.session.workers = state.lanes  # AI turns and hints: in the game lane's workers
            try:
                answer = action(cached.session, body) or {}
            except BaseException:
                state.games.forget(ident)  # it may have changed the copy in memory: the store has the game
                raise
            state.games.commit(ident, cached)
            return {"id": ident, **answer, "version": cached.version, "state": cached.session.view()}

    return await _answer(state, work)


def _action_route(name: str) -> Callable[..., Any]:
    async def route(ident: str, request: Request, state: SharedState) -> Response:
        return await _act(request, state, ident, name)

    return route


for _name, (_, _fields, _summary) in ACTIONS.items():
    router.post(
        f"/games/{{ident}}/{_name}",
        summary=_summary,
        name=f"game_{_name}",
        response_model=ActionAnswer,
        responses=ERROR_RESPONSES,
        openapi_extra=request_body(ACTION_BODIES.get(_name, VersionBody).__name__, {}),
    )(_action_route(_name))
