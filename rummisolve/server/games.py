"""The game API of the web app's play page: ``/games`` and ``/games/{id}/...``, saved in SQLite.

Every game is a :class:`rummisolve.game.session.Session` (one human against AIs, round after
round) saved in a :class:`rummisolve.server.store.GameStore` after every action, so a reload or
a server restart resumes it. The human's plays are judged by the engine's referee: an illegal
one is answered 200 with ``"legal": false`` and the reasons, each naming the meld it concerns
(an illegal turn is not an error). The AIs move one turn per ``POST /games/{id}/advance``, so the
page can show each. Actions run in threads of their own (the AIs and hints solve), one at a time
per game. Errors: 400 bad input, 404 no such game, 409 an action that does not fit the game's
state (not your turn, the round is over), 429 past the limits on games (named in the message).
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from rummisolve.errors import GameStateError, RummisolveError
from rummisolve.game.session import Session
from rummisolve.jsonio import error_message, json_type_name, rules_from_json, table_from_json
from rummisolve.server.meta import meta, tile_set
from rummisolve.server.store import GameStore, StoreFull

__all__ = ["install", "GameCache"]

_CACHE_SIZE = 32
"""Sessions kept in memory per worker process; the rest are loaded from the store when asked for."""


class NoSuchGame(Exception):
    pass


class GameCache:
    """Sessions by id, each behind its own lock; reloaded from the store when another process saved it."""

    def __init__(self, store: GameStore, size: int = _CACHE_SIZE, max_steps: int | None = None) -> None:
        self.store = store
        self.max_steps = max_steps
        self.size = size
        self._lock = threading.Lock()
        self._sessions: OrderedDict[str, tuple[int, Session]] = OrderedDict()
        self._locks: dict[str, threading.Lock] = {}

    def lock(self, ident: str) -> threading.Lock:
        with self._lock:
            return self._locks.setdefault(ident, threading.Lock())

    def get(self, ident: str) -> Session:
        """The session (call with its lock held); :class:`NoSuchGame` if there is none."""
        version = self.store.version(ident)
        if version is None:
            raise NoSuchGame(ident)
        with self._lock:
            cached = self._sessions.get(ident)
            if cached is not None and cached[0] == version:
                self._sessions.move_to_end(ident)
                return cached[1]
        loaded = self.store.load(ident)
        if loaded is None:
            raise NoSuchGame(ident)
        version, data = loaded
        session = Session.from_json(data, max_steps=self.max_steps)
        self._keep(ident, version, session)
        return session

    def create(self, session: Session) -> str:
        ident = self.store.create(session.to_json(), session.summary(), session.game.finished)
        self._keep(ident, 1, session)
        return ident

    def save(self, ident: str, session: Session) -> None:
        version = self.store.save(ident, session.to_json(), session.summary(), session.game.finished)
        if version:
            self._keep(ident, version, session)

    def forget(self, ident: str) -> None:
        with self._lock:
            self._sessions.pop(ident, None)

    def _keep(self, ident: str, version: int, session: Session) -> None:
        with self._lock:
            self._sessions[ident] = (version, session)
            self._sessions.move_to_end(ident)
            while len(self._sessions) > self.size:
                old, _ = self._sessions.popitem(last=False)
                self._locks.pop(old, None)


def install(
    app: FastAPI, store: GameStore, read_json: Callable[..., Any], max_body: int, max_steps: int
) -> ThreadPoolExecutor:
    """Add ``/meta``, ``/tiles`` and the ``/games`` routes to ``app``; the thread pool they run in.
    ``max_steps`` bounds the referee's search on each play (as on ``/verify``)."""
    cache = GameCache(store, max_steps=max_steps)
    pool = ThreadPoolExecutor(2, thread_name_prefix="rummisolve-games")
    from rummisolve.server.app import BadRequest

    async def body_of(request: Request) -> dict[str, Any]:
        if request.headers.get("content-length") in (None, "0") and "transfer-encoding" not in request.headers:
            return {}  # an action without options
        body = await read_json(request, max_body)
        if not isinstance(body, dict):
            raise BadRequest(400, f"expected a JSON object, got {json_type_name(body)}")
        return body

    def fail(status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    async def run(func: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(pool, func)

    async def act(request: Request, ident: str, action: Callable[[Session, dict[str, Any]], dict[str, Any] | None]):
        """Run ``action(session, body)`` on game ``ident`` under its lock, save, answer with the state."""
        try:
            body = await body_of(request)
        except BadRequest as err:
            return fail(err.status, err.message)

        def work() -> dict[str, Any]:
            with cache.lock(ident):
                session = cache.get(ident)
                answer = action(session, body) or {}
                cache.save(ident, session)
                return {"id": ident, **answer, "state": session.view()}

        return await guarded(work)

    async def guarded(work: Callable[[], Any]) -> Response:
        try:
            return JSONResponse(await run(work))
        except NoSuchGame as err:
            return fail(404, f"no saved game {str(err)!r} (it may have been deleted)")
        except StoreFull as err:
            return fail(429, str(err))
        except GameStateError as err:
            return fail(409, error_message(err))
        except BadRequest as err:
            return fail(err.status, err.message)
        except RummisolveError as err:
            return fail(400, error_message(err))

    @app.get("/meta", summary="What the web app offers: rule presets and options, colours, AI levels, statuses")
    async def get_meta() -> dict[str, Any]:
        return meta()

    @app.post("/tiles", summary='Every tile of a rule set, with its copies (body: {"rules": ...})')
    async def post_tiles(request: Request) -> Response:
        try:
            body = await body_of(request)
            rules = rules_from_json(body.get("rules", "standard"), "rules")
        except BadRequest as err:
            return fail(err.status, err.message)
        except RummisolveError as err:
            return fail(400, error_message(err))
        return JSONResponse(tile_set(rules))

    @app.get("/games", summary="The saved games, most recent first, and the limits on games")
    async def list_games() -> dict[str, Any]:
        def work() -> dict[str, Any]:
            return {
                "games": store.listing(),
                "counts": store.counts(),
                "limits": {"max_live_games": store.max_live, "max_stored_games": store.max_stored},
            }

        return await run(work)

    @app.post(
        "/games",
        status_code=201,
        summary='A new game: {"players": "human,medium", "rules": "standard", "seed": 7}',
    )
    async def new_game(request: Request) -> Response:
        try:
            body = await body_of(request)
        except BadRequest as err:
            return fail(err.status, err.message)

        def work() -> dict[str, Any]:
            unknown = sorted(set(body) - {"players", "rules", "seed"})
            if unknown:
                raise BadRequest(
                    400, f"unknown field(s) {', '.join(map(repr, unknown))} (a new game takes players, rules, seed)"
                )
            rules = rules_from_json(body.get("rules", "standard"), "rules")
            session = Session.new(body.get("players", "human,medium"), rules, body.get("seed"), max_steps=max_steps)
            ident = cache.create(session)
            return {"id": ident, "state": session.view()}

        response = await guarded(work)
        if response.status_code == 200:
            response.status_code = 201
        return response

    @app.get("/games/{ident}", summary="A saved game as its human player sees it")
    async def get_game(ident: str) -> Response:
        def work() -> dict[str, Any]:
            with cache.lock(ident):
                return {"id": ident, "state": cache.get(ident).view()}

        return await guarded(work)

    @app.delete("/games/{ident}", summary="Delete a saved game")
    async def delete_game(ident: str) -> Response:
        def work() -> dict[str, Any]:
            with cache.lock(ident):
                if not store.delete(ident):
                    raise NoSuchGame(ident)
                cache.forget(ident)
                return {"id": ident, "deleted": True}

        return await guarded(work)

    @app.get("/games/{ident}/replay", summary="A round state by state (every rack once it is over)")
    async def replay(ident: str, round: int | None = None) -> Response:
        def work() -> dict[str, Any]:
            with cache.lock(ident):
                session = cache.get(ident)
                return session.replay(len(session.rounds) - 1 if round is None else round)

        return await guarded(work)

    @app.get("/games/{ident}/saved", summary="The saved game itself: every round's log (replays anywhere)")
    async def saved(ident: str) -> Response:
        def work() -> dict[str, Any]:
            with cache.lock(ident):
                return cache.get(ident).to_json()

        return await guarded(work)

    def play(session: Session, body: dict[str, Any]) -> dict[str, Any]:
        if "table" not in body:
            raise BadRequest(400, "missing field 'table' (the whole new table, melds in play order)")
        table = table_from_json(body["table"], "table", session.rules)
        discard = body.get("discard")
        if discard is not None and not isinstance(discard, str):
            raise BadRequest(400, f"discard: expected a tile code, got {json_type_name(discard)}")
        return session.play(table, discard)

    def draw(session: Session, body: dict[str, Any]) -> dict[str, Any]:
        source = body.get("source", "pool")
        if source not in ("pool", "discard"):
            raise BadRequest(400, f"source: expected 'pool' or 'discard', got {source!r}")
        return session.draw(source)

    def discard(session: Session, body: dict[str, Any]) -> dict[str, Any]:
        tile = body.get("tile")
        if not isinstance(tile, str):
            raise BadRequest(400, f"tile: expected a tile code, got {json_type_name(tile)}")
        return session.discard(tile)

    def hint(session: Session, body: dict[str, Any]) -> dict[str, Any]:
        return {"hint": session.hint(body.get("level", 1))}

    actions: dict[str, tuple[Callable[[Session, dict[str, Any]], Any], str]] = {
        "play": (play, 'Play the human\'s new table ({"table": [[...]], "discard": tile under the discard rule})'),
        "draw": (draw, 'The human draws ({"source": "pool" | "discard"})'),
        "discard": (discard, 'Discard rule: the human discards ({"tile": "R7"}) after a draw'),
        "undo": (lambda s, b: s.undo_turn(), "Take back the human's last whole turn"),
        "advance": (lambda s, b: s.advance(), "The next AI takes its turn"),
        "timeout": (lambda s, b: s.timeout(), "Apply the turn timer's penalty if the time is up"),
        "hint": (hint, 'A hint for the human ({"level": 1 | 2 | 3})'),
        "next-round": (lambda s, b: s.next_round(), "Deal the next round once this one is over"),
    }

    def route_for(action: Callable[[Session, dict[str, Any]], Any]) -> Callable[..., Any]:
        async def route(ident: str, request: Request) -> Response:
            return await act(request, ident, action)

        return route

    for name, (action, summary) in actions.items():
        app.post(f"/games/{{ident}}/{name}", summary=summary, name=f"game_{name}")(route_for(action))
    return pool
