"""What happens to game rooms besides the players' requests: :class:`RoomHub`.

- **Pushes.** Every WebSocket connection to a room is a :class:`Watcher` of one seat (or a
  spectator). After every change the hub builds each watcher's view and hands it over; a watcher
  keeps only the newest view not yet sent (a slow client skips versions, never gets an old one
  after a newer, and holds no queue), and its connection sends it.
- **AI seats** play themselves right after the change that hands them the turn: the hub takes
  what the AI sees (holding the room), lets it choose in the heavy solver lane (not holding the
  room, so reads and pushes go on), and applies the choice (holding it again; if the room moved
  on meanwhile, the AI looks again). Each AI move is a version of its own, pushed at once.
- **The sweeper** wakes every :data:`TICK` seconds: it applies the timeouts whose deadline has
  passed and starts the AI turns that are due (the store's ``due`` column, so after a restart too),
  and pushes the rooms another worker process changed. Every :data:`CHORES` seconds it notes the
  rooms watched here as seen, and archives those nobody changed or watched for ``room_idle_seconds``.

One room is served by one task at a time (:meth:`RoomHub.kick` while one runs makes it run again).
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from rummisolve.server.lanes import LaneFull, Lanes
from rummisolve.server.requests import BadRequest
from rummisolve.server.room_cache import CachedRoom, RoomCache
from rummisolve.server.settings import Settings

__all__ = ["RoomHub", "Watcher", "TICK", "AI_LEASE", "CHORES"]

log = logging.getLogger("rummisolve.server")

TICK = 0.25
"""Seconds between the sweeper's looks at the timers, the AI turns due and other processes' changes."""

AI_LEASE = 30.0
"""Seconds other worker processes leave an AI's turn to the process that took it (if that one
dies, another takes the turn after this)."""

CHORES = 60.0
"""Seconds between the sweeper's chores: rooms watched noted as seen, idle rooms archived."""

_RETRY_FAILED = 30.0
"""Seconds before a room whose service failed (a bug, a damaged row) is tried again."""

T = TypeVar("T")


class SeatRevoked(Exception):
    """The connection's token is no longer its seat's (the creator handed the seat to an AI)."""


class Watcher:
    """One WebSocket connection's seat (``None``: a spectator) and the newest view it has not sent."""

    def __init__(self, seat: int | None, token: str | None = None) -> None:
        self.seat = seat
        self.token = token
        """The seat's token (``None``: a spectator); checked again at every push."""
        self.version = 0
        """The version of the newest view handed over."""
        self.revoked = False
        self._latest: dict[str, Any] | None = None
        self._wake = asyncio.Event()
        self._loop = asyncio.get_running_loop()  # the connection's (an app may serve several loops in tests)

    def offer(self, view: dict[str, Any]) -> None:
        """Hand over ``view`` unless a view as new was handed over already."""
        if view["version"] > self.version:
            self.version = view["version"]
            self._latest = view
            if asyncio.get_running_loop() is self._loop:
                self._wake.set()
            else:
                self._loop.call_soon_threadsafe(self._wake.set)

    def revoke(self) -> None:
        """The token is no longer the seat's: no view is handed over any more."""
        self.revoked = True
        self._latest = None
        if asyncio.get_running_loop() is self._loop:
            self._wake.set()
        else:
            self._loop.call_soon_threadsafe(self._wake.set)

    async def next(self) -> dict[str, Any]:
        """The next view to send (waits for one); :class:`SeatRevoked` once the seat is not the token's."""
        while self._latest is None and not self.revoked:
            self._wake.clear()
            await self._wake.wait()
        if self.revoked:
            raise SeatRevoked(f"seat {self.seat} is no longer this token's")
        view, self._latest = self._latest, None
        assert view is not None
        return view


class RoomHub:
    """Pushes, AI turns and timers of the rooms in ``cache`` (see the module's docstring)."""

    def __init__(self, cache: RoomCache, lanes: Lanes, pool: ThreadPoolExecutor, settings: Settings) -> None:
        self.cache = cache
        self.lanes = lanes
        self.pool = pool
        self.settings = settings
        self.watchers: dict[str, set[Watcher]] = {}
        self._tasks: set[asyncio.Task] = set()
        self._busy: set[str] = set()
        self._again: set[str] = set()
        self._published: dict[str, int] = {}
        self._failed: dict[str, float] = {}
        self._chores_done = -math.inf

    # -- running work ---------------------------------------------------------------------------

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` in a game thread (the store and the referee block)."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, work)

    def start(self) -> None:
        """Start the sweeper (the app's lifespan calls it, on the server's event loop)."""
        self._spawn(self._sweep())

    async def stop(self) -> None:
        """Stop the sweeper and the rooms' tasks on this event loop (an AI thinking in a lane is
        stopped: its task's cancellation sets its stop signal)."""
        loop = asyncio.get_running_loop()
        mine = [task for task in self._tasks if task.get_loop() is loop]
        for task in mine:
            task.cancel()
        await asyncio.gather(*mine, return_exceptions=True)

    def _spawn(self, work: Any) -> asyncio.Task:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- watchers -------------------------------------------------------------------------------

    def connections(self) -> int:
        return sum(len(w) for w in self.watchers.values())

    def watch(self, code: str, seat: int | None, token: str | None = None) -> Watcher:
        """A new watcher of room ``code``; :class:`BadRequest` (503, 429) past the caps on connections."""
        if self.connections() >= self.settings.max_connections:
            raise BadRequest(
                503,
                f"server busy: {self.settings.max_connections} room connections are open (max_connections); "
                "try again later",
            )
        here = self.watchers.setdefault(code, set())
        if len(here) >= self.settings.max_room_connections:
            raise BadRequest(
                429, f"room {code} has {len(here)} connections open (max_room_connections): close one first"
            )
        watcher = Watcher(seat, token)
        here.add(watcher)
        return watcher

    def unwatch(self, code: str, watcher: Watcher) -> None:
        here = self.watchers.get(code)
        if here is not None:
            here.discard(watcher)
            if not here:
                del self.watchers[code]
                self._published.pop(code, None)

    async def publish(self, code: str) -> None:
        """Hand every watcher of room ``code`` its view as stored now."""
        watchers = list(self.watchers.get(code, ()))
        seats = {w.seat for w in watchers}
        if not seats:
            return
        tokens = {w.token for w in watchers if w.token is not None}
        views, holders = await self.run(lambda: (self.cache.views(code, seats), self.cache.seats_of(code, tokens)))
        for watcher in watchers:
            if watcher.token is not None and holders.get(watcher.token) != watcher.seat:
                watcher.revoke()  # its seat was handed to an AI: it sees nothing more
                continue
            view = views.get(watcher.seat)
            if view is not None:
                watcher.offer(view)
        if code in self.watchers:
            self._published[code] = max(v["version"] for v in views.values())

    # -- serving a room -------------------------------------------------------------------------

    def kick(self, code: str) -> None:
        """Room ``code`` changed, or may have something due: push it, apply its timeout, play its AI turns."""
        if code in self._busy:
            self._again.add(code)
            return
        self._busy.add(code)
        self._spawn(self._serve(code))

    async def _serve(self, code: str) -> None:
        try:
            while True:
                self._again.discard(code)
                await self.run(lambda: self.cache.expire(code))
                await self.publish(code)
                if await self._ai_turn(code):
                    continue
                if code not in self._again:
                    break
        except asyncio.CancelledError:
            raise
        except Exception:
            self._failed[code] = self.cache.clock()
            log.exception("room %s: its timers or AI turns failed", code)
        finally:
            self._busy.discard(code)

    async def _ai_turn(self, code: str) -> bool:
        """Play one AI turn of room ``code`` if one is due; whether the room changed (or moved on)."""

        def look(cached: CachedRoom, now: float) -> tuple[int, Any] | None:
            due = cached.room.ai_to_move()
            if due is None or not self.cache.store.lease_room(code, cached.version, now + AI_LEASE):
                return None
            return cached.version, due

        prepared = (await self.run(lambda: self.cache.change(code, look)))[0]
        if prepared is None:
            return False
        version, (seat, player, seen) = prepared
        choice = await self._think(player, seen)

        def apply(cached: CachedRoom, now: float) -> None:
            if cached.version == version:  # else the room moved on: look again
                cached.room.ai_move(seat, choice, seen, now)

        await self.run(lambda: self.cache.change(code, apply, timers=False))
        return True

    async def _think(self, player: Any, seen: Any) -> Any:
        """``player.choose(seen)`` in the heavy lane (waiting while it is full)."""

        def job(body: Any, stop: Any) -> dict[str, Any]:
            return {"choice": player.choose(seen)}

        async def never() -> None:  # nobody waits on the answer: the task is cancelled at shutdown
            await asyncio.Event().wait()

        while True:
            try:
                result = await self.lanes.run(self.lanes.heavy, job, None, gone=never)
            except LaneFull as full:
                await asyncio.sleep(min(float(full.retry_after), 1.0))
                continue
            assert result is not None  # never() never completes
            return result["choice"]

    # -- the sweeper ----------------------------------------------------------------------------

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                for code in await self.run(self._look):
                    self.kick(code)
            except Exception:
                log.exception("rooms: the sweeper's look failed")

    def _look(self) -> list[str]:
        """The rooms to serve: those due (a timer run out, an AI to move) and those watched here
        that another process changed; and once every :data:`CHORES` seconds, the chores."""
        store = self.cache.store
        now = self.cache.clock()
        if now - self._chores_done >= CHORES:
            self._chores_done = now
            self.chores(now)
        due = [c for c in store.rooms_due(now) if now - self._failed.get(c, -_RETRY_FAILED) >= _RETRY_FAILED]
        moved = [c for c in list(self.watchers) if (store.room_version(c) or 0) > self._published.get(c, 0)]
        return list(dict.fromkeys(due + moved))

    def chores(self, now: float) -> None:
        """Note the rooms watched here as seen, and archive those nobody changed or watched for
        ``room_idle_seconds``."""
        store = self.cache.store
        store.touch_rooms(list(self.watchers), now)
        for code in store.idle_rooms(now - self.settings.room_idle_seconds):
            if code in self.watchers:
                continue
            try:
                self.cache.change(code, lambda cached, t: cached.room.archive(), timers=False)
            except Exception:
                log.exception("room %s: archiving it failed", code)
