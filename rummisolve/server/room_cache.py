"""Game rooms in memory over the store: :class:`RoomCache`, rooms by code, each behind a lock.

Every change to a room runs holding its lock (:meth:`RoomCache.change`), on the copy in memory,
and is committed to the store before anyone is answered or told: each change is one new version.
If the change fails or the store refuses the write, the copy in memory is dropped, so the room
stays exactly as saved. A copy is reloaded when the store has a newer version (another worker
process changed the room). Times come from ``clock`` (wall-clock seconds; tests inject one).

The cache holds ``size`` rooms (the ``room_cache_size`` setting, by default ``max_live_rooms``, so
every live room stays in memory); a room past it is loaded from its row when asked for, which
costs the same whatever rounds it has played (:mod:`rummisolve.server.rooms`). A row still in the
first form is written back in the current one when it is first loaded, at the same version (the
same room, stored anew: nobody's view goes stale).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from rummisolve.errors import RummisolveError
from rummisolve.server.game_cache import LockTable
from rummisolve.server.requests import BadRequest
from rummisolve.server.room_views import room_view
from rummisolve.server.rooms import CODE_LENGTH, CODE_LETTERS, ROOM_VERSION, Room, new_code
from rummisolve.server.settings import Settings
from rummisolve.server.store import DamagedGame, GameStore, StaleGame

__all__ = ["RoomCache", "CachedRoom", "NoSuchRoom", "normal_code"]

T = TypeVar("T")


class NoSuchRoom(BadRequest):
    """No room by that code: 404."""

    def __init__(self, code: str) -> None:
        super().__init__(404, f"no room {code!r} (check the code; a room may have been archived)")


def normal_code(code: str) -> str:
    """A room code as stored (upper case); :class:`NoSuchRoom` if it cannot be one."""
    upper = code.strip().upper()
    if len(upper) != CODE_LENGTH or any(c not in CODE_LETTERS for c in upper):
        raise NoSuchRoom(code[:40])
    return upper


@dataclass
class CachedRoom:
    version: int
    room: Room


class RoomCache:
    """Rooms by code over a :class:`~rummisolve.server.store.GameStore` (see the module's docstring)."""

    def __init__(
        self, store: GameStore, settings: Settings, size: int | None = None, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.settings = settings
        self.size = settings.room_cache_rooms() if size is None else size
        """Rooms kept in memory (default: the settings' :meth:`~Settings.room_cache_rooms`)."""
        self.clock = clock
        """Wall-clock seconds: the turn timers' deadlines are measured by it."""
        self.locks = LockTable()
        self._lock = threading.Lock()
        self._rooms: OrderedDict[str, CachedRoom] = OrderedDict()

    # -- making and reading ---------------------------------------------------------------------

    def create(self, make: Callable[[str], tuple[Room, T]], client: str | None = None) -> tuple[CachedRoom, T]:
        """Save the room ``make(code)`` builds under a fresh code, made by ``client``; it and what
        ``make`` answered. :class:`~rummisolve.server.store.StoreFull` past the limits on rooms
        (the server's, and the client's)."""
        settings = self.settings
        for _ in range(20):
            code = new_code()
            room, answer = make(code)
            now = self.clock()
            if self.store.create_room(
                code,
                room.to_json(),
                room.status,
                room.due(now),
                max_live=settings.max_live_rooms,
                max_stored=settings.max_stored_rooms,
                now=now,
                client=client,
                max_client_live=settings.max_client_live_rooms,
                max_client_stored=settings.max_client_stored_rooms,
            ):
                cached = CachedRoom(1, room)
                self._keep(code, cached)
                return cached, answer
        raise RuntimeError("no free room code after 20 tries")  # 148 million codes: a bug, not bad luck

    def get(self, code: str) -> CachedRoom:
        """Room ``code`` as stored (call holding it); :class:`NoSuchRoom` if there is none."""
        version = self.store.room_version(code)
        if version is None:
            raise NoSuchRoom(code)
        with self._lock:
            cached = self._rooms.get(code)
            if cached is not None and cached.version == version:
                self._rooms.move_to_end(code)
                return cached
        loaded = self.store.load_room(code)
        if loaded is None:
            raise NoSuchRoom(code)
        version, data = loaded
        try:
            room = Room.from_json(data, max_steps=self.settings.max_verify_steps)
        except (RummisolveError, TypeError, KeyError, IndexError, AttributeError, ValueError) as err:
            raise DamagedGame(f"room {code!r} is damaged and cannot be loaded ({err})") from None
        if data.get("version") != ROOM_VERSION:  # the first form: stored anew, at the same version
            self.store.rewrite_room(code, room.to_json(), expected=version)
        cached = CachedRoom(version, room)
        self._keep(code, cached)
        return cached

    def views(self, code: str, seats: Iterable[int | None], newer_than: int = 0) -> dict[int | None, dict[str, Any]]:
        """The room's views for ``seats`` (``None``: a spectator), as stored now; none if the room's
        version is not newer than ``newer_than`` (its watchers have it: nothing to build)."""
        with self.locks.hold(code):
            cached = self.get(code)
            if cached.version <= newer_than:
                return {}
            now = self.clock()
            return {seat: room_view(cached.room, seat, cached.version, now) for seat in set(seats)}

    def seats_of(self, code: str, tokens: Iterable[str]) -> dict[str, int | None]:
        """The seat each of ``tokens`` is in room ``code`` now (``None``: no seat's)."""
        with self.locks.hold(code):
            room = self.get(code).room
            return {token: room.seat_of(token) for token in tokens}

    # -- changing -------------------------------------------------------------------------------

    def change(self, code: str, act: Callable[[CachedRoom, float], T], *, timers: bool = True) -> tuple[T, bool]:
        """Run ``act(cached, now)`` holding room ``code`` and commit what it changed; its answer
        and whether anything was saved. With ``timers``, a turn timer that has run out is applied
        (and saved, a version of its own) first, so ``act`` sees the room as it is now."""
        with self.locks.hold(code):
            cached = self.get(code)
            now = self.clock()
            expired = False
            if timers:
                expired = self._commit(code, cached, lambda c, t: c.room.expire(t), now)[1]
            answer, changed = self._commit(code, cached, act, now)
            return answer, expired or changed

    def expire(self, code: str) -> bool:
        """Apply room ``code``'s timeout if its mover's time has run out; whether it did."""
        return self.change(code, lambda c, t: None)[1]

    def _commit(
        self, code: str, cached: CachedRoom, act: Callable[[CachedRoom, float], T], now: float
    ) -> tuple[T, bool]:
        """``act`` on the room, then save it if it changed; its answer and whether it saved.
        If it fails after changing the copy in memory, or the save fails, the copy is dropped: the
        store has the room as it was. (A refusal that changed nothing keeps it: a stranger's bad
        tokens do not make the server replay the room again and again.)"""
        before = cached.room.fingerprint()
        try:
            answer = act(cached, now)
        except BaseException:
            if cached.room.fingerprint() != before:
                self.forget(code)
            raise
        if cached.room.fingerprint() == before:
            return answer, False
        data = cached.room.to_json()
        try:
            version = self.store.save_room(
                code, data, cached.room.status, cached.room.due(now), expected=cached.version, now=now
            )
            if not version:
                raise NoSuchRoom(code)
        except BaseException:
            self.forget(code)
            raise
        cached.version = version
        return answer, True

    def check_version(self, cached: CachedRoom, seen: int) -> None:
        """:class:`~rummisolve.server.store.StaleGame` unless ``seen`` is the room's version."""
        if seen != cached.version:
            raise StaleGame(
                f"the version sent ({seen}) is not the room's ({cached.version}): the game has moved on "
                "(another move, a timeout, a join, or another tab of this seat)"
            )

    def forget(self, code: str) -> None:
        with self._lock:
            self._rooms.pop(code, None)

    def _keep(self, code: str, cached: CachedRoom) -> None:
        with self._lock:
            self._rooms[code] = cached
            self._rooms.move_to_end(code)
            while len(self._rooms) > self.size:
                self._rooms.popitem(last=False)
