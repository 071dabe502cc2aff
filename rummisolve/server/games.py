"""The game API of the web app's play page: ``/games`` and ``/games/{id}/...``, saved in SQLite.

Every game is a :class:`rummisolve.game.session.Session` (one human against AIs, round after
round) saved in a :class:`rummisolve.server.store.GameStore` after every action that changes it,
so a reload or a server restart resumes it. The human's plays are judged by the engine's referee:
an illegal one is answered 200 with ``"legal": false`` and the reasons, each naming the meld it
concerns (an illegal turn is not an error). The AIs move one turn per ``POST /games/{id}/advance``,
so the page can show each.

**Owners.** ``POST /games`` answers a secret ``token`` (and sets it as an HttpOnly, SameSite=Strict
cookie); a request that already carries a valid token adds the game to that owner's games. Every
other request names its owner by ``Authorization: Bearer <token>`` or the cookie; another owner's
game, like a game that does not exist, is a 404. ``GET /games`` lists the caller's games only.

**Every acknowledged action is saved.** Actions run in threads of their own, one at a time per
game: a game's lock lives as long as any request holds or awaits it, whatever the cache of
sessions drops. An action is committed to the store before it is answered; if the store refuses
the write (503), or the action fails, the copy in memory is dropped, so the game stays exactly as
saved. A save from an older copy (another worker process saved first) is refused (409).

Errors, always ``{"error": message}``: 400 bad input (an unknown field too), 404 no such game,
409 an action that does not fit the game's state (not your turn, the round is over) or a stale
copy, 415 a body that is not JSON, 429 past the limits on games (named in the message), 500 a
damaged saved game, 503 the database refused the write (nothing changed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from rummisolve.errors import GameStateError, RummisolveError
from rummisolve.game.session import Session
from rummisolve.jsonio import error_message, json_type_name, rules_from_json, table_from_json
from rummisolve.server.meta import meta, tile_set
from rummisolve.server.store import DamagedGame, GameStore, StaleGame, StoreFull, StoreUnavailable

__all__ = ["install", "GameCache", "TOKEN_COOKIE", "NoSuchGame"]

log = logging.getLogger("rummisolve.server")

_CACHE_SIZE = 32
"""Sessions kept in memory per worker process; the rest are loaded from the store when asked for."""

TOKEN_COOKIE = "rummisolve_token"
"""The cookie that carries an owner's token in the browser (HttpOnly, SameSite=Strict)."""

_COOKIE_AGE = 400 * 24 * 3600
"""The longest a browser keeps a cookie (Chromium caps it at 400 days)."""

_GAME_THREADS = 4
"""Threads running game actions (AIs and hints solve; a write may wait on a lock for ``busy_timeout``)."""


class NoSuchGame(Exception):
    """No game by that id that the caller owns."""


@dataclass
class _Cached:
    version: int
    session: Session
    text: str
    """The session's JSON as stored: an action that leaves it equal needs no save."""


class _GameLock:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0


class GameCache:
    """Sessions by id, each behind its own lock; reloaded from the store when another process saved it.

    A game's lock exists while any request holds or waits for it (:meth:`hold`), independently of
    which sessions the cache keeps, so two requests on one game never run at once in a process.
    """

    def __init__(self, store: GameStore, size: int = _CACHE_SIZE, max_steps: int | None = None) -> None:
        self.store = store
        self.max_steps = max_steps
        self.size = size
        self._lock = threading.Lock()
        self._sessions: OrderedDict[str, _Cached] = OrderedDict()
        self._locks: dict[str, _GameLock] = {}

    @contextlib.contextmanager
    def hold(self, ident: str) -> Iterator[None]:
        """Hold game ``ident``'s lock for the block."""
        with self._lock:
            entry = self._locks.setdefault(ident, _GameLock())
            entry.users += 1
        try:
            with entry.lock:
                yield
        finally:
            with self._lock:
                entry.users -= 1
                if entry.users == 0:
                    del self._locks[ident]

    def held(self) -> int:
        """How many games have a lock in use (for tests and health)."""
        with self._lock:
            return len(self._locks)

    def get(self, ident: str, owner: str | None) -> _Cached:
        """The game (call while holding it); :class:`NoSuchGame` unless ``owner`` owns it."""
        version = self.store.version(ident, owner)
        if version is None:
            raise NoSuchGame(ident)
        with self._lock:
            cached = self._sessions.get(ident)
            if cached is not None and cached.version == version:
                self._sessions.move_to_end(ident)
                return cached
        loaded = self.store.load(ident, owner)
        if loaded is None:
            raise NoSuchGame(ident)
        version, data = loaded
        try:
            session = Session.from_json(data, max_steps=self.max_steps)
        except (RummisolveError, TypeError, KeyError, IndexError, AttributeError) as err:
            raise DamagedGame(f"saved game {ident!r} is damaged and cannot be loaded ({err})") from None
        cached = _Cached(version, session, json.dumps(data))
        self._keep(ident, cached)
        return cached

    def create(self, session: Session, owner: str) -> str:
        data = session.to_json()
        ident = self.store.create(data, session.summary(), session.game.finished, owner)
        self._keep(ident, _Cached(1, session, json.dumps(data)))
        return ident

    def commit(self, ident: str, cached: _Cached) -> None:
        """Save the session of ``cached`` if it changed (call while holding the game). Whatever
        goes wrong, the copy in memory is dropped and the store keeps the game as it was."""
        data = cached.session.to_json()
        text = json.dumps(data)
        if text == cached.text:
            return
        try:
            version = self.store.save(
                ident, data, cached.session.summary(), cached.session.game.finished, expected=cached.version
            )
        except BaseException:
            self.forget(ident)
            raise
        if not version:
            self.forget(ident)
            raise NoSuchGame(ident)
        cached.version, cached.text = version, text
        self._keep(ident, cached)

    def forget(self, ident: str) -> None:
        with self._lock:
            self._sessions.pop(ident, None)

    def _keep(self, ident: str, cached: _Cached) -> None:
        with self._lock:
            self._sessions[ident] = cached
            self._sessions.move_to_end(ident)
            while len(self._sessions) > self.size:
                self._sessions.popitem(last=False)


def token_of(request: Request) -> str | None:
    """The token a request carries: ``Authorization: Bearer <token>``, else the cookie."""
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, value = header.partition(" ")
        return value.strip() if scheme.lower() == "bearer" and value.strip() else None
    return request.cookies.get(TOKEN_COOKIE) or None


class _BadBody(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def install(
    app: FastAPI,
    store: GameStore,
    read_json: Callable[..., Any],
    max_body: int,
    max_steps: int,
    *,
    cache_size: int = _CACHE_SIZE,
) -> ThreadPoolExecutor:
    """Add ``/meta``, ``/tiles`` and the ``/games`` routes to ``app``; the thread pool they run in.
    ``max_steps`` bounds the referee's search on each play (as on ``/verify``)."""
    cache = GameCache(store, size=cache_size, max_steps=max_steps)
    app.state.game_cache = cache
    pool = ThreadPoolExecutor(_GAME_THREADS, thread_name_prefix="rummisolve-games")
    from rummisolve.server.app import BadRequest, require_json

    async def body_of(request: Request, fields: tuple[str, ...], what: str) -> dict[str, Any]:
        """The JSON object of a request (``{}`` when it has no body), with no field but ``fields``."""
        if request.headers.get("content-length") in (None, "0") and "transfer-encoding" not in request.headers:
            return {}  # an action without options
        require_json(request)
        body = await read_json(request, max_body)
        if not isinstance(body, dict):
            raise BadRequest(400, f"expected a JSON object, got {json_type_name(body)}")
        unknown = sorted(set(body) - set(fields))
        if unknown:
            takes = f"takes {', '.join(fields)}" if fields else "takes no fields"
            raise BadRequest(400, f"unknown field(s) {', '.join(map(repr, unknown))} ({what} {takes})")
        return body

    def fail(status: int, message: str, **headers: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status, headers=headers or None)

    async def run(func: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(pool, func)

    def owner_of(request: Request) -> str | None:
        return store.owner_of(token_of(request))

    async def guarded(work: Callable[[], Any]) -> Response:
        try:
            result = await run(work)
        except NoSuchGame as err:
            return fail(404, f"no saved game {str(err)!r} of yours (it may have been deleted, or opened elsewhere)")
        except StoreFull as err:
            return fail(429, str(err))
        except StaleGame as err:
            return fail(409, f"{err}: reload the game; nothing was changed")
        except StoreUnavailable as err:
            log.warning("game store: %s", err)
            return fail(503, f"{err}; nothing was changed, try again", **{"Retry-After": "2"})
        except DamagedGame as err:
            log.error("game store: %s", err)
            return fail(500, str(err))
        except GameStateError as err:
            return fail(409, error_message(err))
        except BadRequest as err:
            return fail(err.status, err.message)
        except RummisolveError as err:
            return fail(400, error_message(err))
        return result if isinstance(result, Response) else JSONResponse(result)

    async def act(
        request: Request,
        ident: str,
        action: Callable[[Session, dict[str, Any]], dict[str, Any] | None],
        fields: tuple[str, ...],
        name: str,
    ) -> Response:
        """Run ``action(session, body)`` on game ``ident`` holding it, commit, answer with the state."""
        try:
            body = await body_of(request, fields, f"the {name} action")
        except BadRequest as err:
            return fail(err.status, err.message)

        def work() -> dict[str, Any]:
            owner = owner_of(request)
            with cache.hold(ident):
                cached = cache.get(ident, owner)
                try:
                    answer = action(cached.session, body) or {}
                except BaseException:
                    cache.forget(ident)  # it may have changed the copy in memory: the store has the game
                    raise
                cache.commit(ident, cached)
                return {"id": ident, **answer, "state": cached.session.view()}

        return await guarded(work)

    @app.get("/meta", summary="What the web app offers: rule presets and options, colours, AI levels, statuses")
    async def get_meta() -> dict[str, Any]:
        return meta()

    @app.post("/tiles", summary='Every tile of a rule set, with its copies (body: {"rules": ...})')
    async def post_tiles(request: Request) -> Response:
        try:
            body = await body_of(request, ("rules",), "/tiles")
            rules = rules_from_json(body.get("rules", "standard"), "rules")
        except BadRequest as err:
            return fail(err.status, err.message)
        except RummisolveError as err:
            return fail(400, error_message(err))
        return JSONResponse(tile_set(rules))

    @app.get("/games", summary="Your saved games, most recent first, and the limits on games")
    async def list_games(request: Request) -> Response:
        def work() -> dict[str, Any]:
            owner = owner_of(request)
            games, damaged = store.listing(owner) if owner is not None else ([], [])
            return {
                "games": games,
                "damaged": damaged,
                "counts": store.counts(owner) if owner is not None else {"stored": 0, "live": 0},
                "limits": {"max_live_games": store.max_live, "max_stored_games": store.max_stored},
            }

        return await guarded(work)

    @app.post(
        "/games",
        status_code=201,
        summary='A new game: {"players": "human,medium", "rules": "standard", "seed": 7 (a practice game)}',
    )
    async def new_game(request: Request) -> Response:
        try:
            body = await body_of(request, ("players", "rules", "seed"), "a new game")
        except BadRequest as err:
            return fail(err.status, err.message)

        def work() -> Response:
            rules = rules_from_json(body.get("rules", "standard"), "rules")
            session = Session.new(body.get("players", "human,medium"), rules, body.get("seed"), max_steps=max_steps)
            token = token_of(request)
            owner = store.owner_of(token)
            if owner is None:
                token = store.new_owner()
                owner = store.owner_of(token)
            assert owner is not None and token is not None
            ident = cache.create(session, owner)
            response = JSONResponse({"id": ident, "token": token, "state": session.view()}, status_code=201)
            response.set_cookie(
                TOKEN_COOKIE,
                token,
                max_age=_COOKIE_AGE,
                path="/",
                httponly=True,
                samesite="strict",
                secure=request.url.scheme == "https",
            )
            return response

        return await guarded(work)

    @app.get("/games/{ident}", summary="A saved game as its human player sees it")
    async def get_game(ident: str, request: Request) -> Response:
        def work() -> dict[str, Any]:
            owner = owner_of(request)
            with cache.hold(ident):
                return {"id": ident, "state": cache.get(ident, owner).session.view()}

        return await guarded(work)

    @app.delete("/games/{ident}", summary="Delete a saved game")
    async def delete_game(ident: str, request: Request) -> Response:
        def work() -> dict[str, Any]:
            owner = owner_of(request)
            with cache.hold(ident):
                if not store.delete(ident, owner):
                    raise NoSuchGame(ident)
                cache.forget(ident)
                return {"id": ident, "deleted": True}

        return await guarded(work)

    @app.get("/games/{ident}/replay", summary="A round state by state (every rack once it is over)")
    async def replay(ident: str, request: Request) -> Response:
        def work() -> dict[str, Any]:
            raw = request.query_params.get("round")
            unknown = sorted(set(request.query_params) - {"round"})
            if unknown:
                raise BadRequest(
                    400, f"unknown query parameter(s) {', '.join(map(repr, unknown))} (replay takes round)"
                )
            owner = owner_of(request)
            with cache.hold(ident):
                session = cache.get(ident, owner).session
                if raw is None:
                    return session.replay(len(session.rounds) - 1)
                if not raw.strip().isdigit():
                    raise BadRequest(400, f"round: expected a round number from 0, got {raw!r}")
                return session.replay(int(raw))

        return await guarded(work)

    @app.get(
        "/games/{ident}/saved",
        summary="The game to keep: a practice game whole, any other what you have seen (every finished round, "
        "the running one as you saw it)",
    )
    async def saved(ident: str, request: Request) -> Response:
        def work() -> dict[str, Any]:
            owner = owner_of(request)
            with cache.hold(ident):
                return cache.get(ident, owner).session.record()

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

    actions: dict[str, tuple[Callable[[Session, dict[str, Any]], Any], tuple[str, ...], str]] = {
        "play": (
            play,
            ("table", "discard"),
            'Play the human\'s new table ({"table": [[...]], "discard": tile under the discard rule})',
        ),
        "draw": (draw, ("source",), 'The human draws ({"source": "pool" | "discard"})'),
        "discard": (discard, ("tile",), 'Discard rule: the human discards ({"tile": "R7"}) after a draw'),
        "undo": (lambda s, b: s.undo_turn(), (), "Practice games: take back the human's last whole turn"),
        "advance": (lambda s, b: s.advance(), (), "The next AI takes its turn"),
        "timeout": (lambda s, b: s.timeout(), (), "Apply the turn timer's penalty if the time is up"),
        "hint": (hint, ("level",), 'A hint for the human ({"level": 1 | 2 | 3})'),
        "next-round": (lambda s, b: s.next_round(), (), "Deal the next round once this one is over"),
    }

    def route_for(action: Callable[[Session, dict[str, Any]], Any], fields: tuple[str, ...], name: str):
        async def route(ident: str, request: Request) -> Response:
            return await act(request, ident, action, fields, name)

        return route

    for name, (action, fields, summary) in actions.items():
        app.post(f"/games/{{ident}}/{name}", summary=summary, name=f"game_{name}")(route_for(action, fields, name))
    return pool
