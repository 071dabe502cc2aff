"""The web app's games in memory: :class:`GameCache`, sessions by id, each behind a lock of its own,
over the :class:`~rummisolve.server.store.GameStore` that keeps them; and :func:`token_of`, the
owner's token a request carries.

A game's lock lives as long as any request holds or awaits it, whatever the cache of sessions
drops, so two requests on one game never run at once in a process. :meth:`GameCache.commit`
saves a changed session before the cache keeps it; if the store refuses the write, the copy in
memory is dropped, so the game stays exactly as saved.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection

from rummisolve.errors import RummisolveError
from rummisolve.server.sessions import AnySession, session_from_json
from rummisolve.server.store import DamagedGame, GameStore

__all__ = [
    "GameCache",
    "CachedGame",
    "NoSuchGame",
    "LockTable",
    "TOKEN_COOKIE",
    "token_of",
    "bearer_token",
    "CACHE_SIZE",
]

CACHE_SIZE = 32
"""Sessions kept in memory per worker process; the rest are loaded from the store when asked for."""

TOKEN_COOKIE = "rummisolve_token"
"""The cookie that carries an owner's token in the browser (HttpOnly, SameSite=Strict)."""


class NoSuchGame(Exception):
    """No game by that id that the caller owns."""


@dataclass
class CachedGame:
    version: int
    session: AnySession
    text: str
    """The session's JSON as stored: an action that leaves it equal needs no save."""


class _KeyLock:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0


class LockTable:
    """A lock per key (a game's id, a room's code) that exists while anyone holds or awaits it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._locks: dict[str, _KeyLock] = {}

    @contextlib.contextmanager
    def hold(self, key: str) -> Iterator[None]:
        """Hold ``key``'s lock for the block."""
        with self._lock:
            entry = self._locks.setdefault(key, _KeyLock())
            entry.users += 1
        try:
            with entry.lock:
                yield
        finally:
            with self._lock:
                entry.users -= 1
                if entry.users == 0:
                    del self._locks[key]

    def held(self) -> int:
        """How many keys have a lock in use."""
        with self._lock:
            return len(self._locks)


class GameCache:
    """Sessions by id, each behind its own lock; reloaded from the store when another process saved it.

    A game's lock exists while any request holds or waits for it (:meth:`hold`), independently of
    which sessions the cache keeps, so two requests on one game never run at once in a process.
    """

    def __init__(self, store: GameStore, size: int = CACHE_SIZE, max_steps: int | None = None) -> None:
        self.store = store
        self.max_steps = max_steps
        self.size = size
        self._lock = threading.Lock()
        self._sessions: OrderedDict[str, CachedGame] = OrderedDict()
        self._locks = LockTable()

    @contextlib.contextmanager
    def hold(self, ident: str) -> Iterator[None]:
        """Hold game ``ident``'s lock for the block."""
        with self._locks.hold(ident):
            yield

    def held(self) -> int:
        """How many games have a lock in use (for tests and health)."""
        return self._locks.held()

    def get(self, ident: str, owner: str | None) -> CachedGame:
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
            session = session_from_json(data, max_steps=self.max_steps)
        except (RummisolveError, TypeError, KeyError, IndexError, AttributeError) as err:
            raise DamagedGame(f"saved game {ident!r} is damaged and cannot be loaded ({err})") from None
        cached = CachedGame(version, session, json.dumps(data))
        self._keep(ident, cached)
        return cached

    def create(self, session: AnySession, owner: str, **limits: Any) -> str:
        """Save a new game; ``limits``: the client and its caps, as
        :meth:`~rummisolve.server.store.GameStore.create` takes them."""
        data = session.to_json()
        ident = self.store.create(data, session.summary(), session.game.finished, owner, **limits)
        self._keep(ident, CachedGame(1, session, json.dumps(data)))
        return ident

    def commit(self, ident: str, cached: CachedGame) -> None:
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

    def _keep(self, ident: str, cached: CachedGame) -> None:
        with self._lock:
            self._sessions[ident] = cached
            self._sessions.move_to_end(ident)
            while len(self._sessions) > self.size:
                self._sessions.popitem(last=False)


def token_of(request: HTTPConnection) -> str | None:
    """The token a request carries: ``Authorization: Bearer <token>``, else the cookie."""
    if request.headers.get("authorization") is not None:
        return bearer_token(request.headers.get("authorization"))
    return request.cookies.get(TOKEN_COOKIE) or None


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (``None``: none, or another scheme)."""
    if header is None:
        return None
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None
