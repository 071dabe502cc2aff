"""What happens to game rooms besides the players' requests: :class:`RoomHub`.

- **Pushes.** Every WebSocket connection to a room is a :class:`Watcher` of one seat (or a
  spectator). After every change the hub builds each watcher's view and hands it over; a watcher
  keeps only the newest view not yet sent (a slow client skips versions, never gets an old one
  after a newer, and holds no queue), and its connection sends it.
- **Connection caps** (:meth:`RoomHub.watch`): spectators have their own cap per room
  (``max_room_spectators``); a seat's connection always gets in: past ``max_seat_connections``
  it replaces that seat's oldest, past a client's or the server's cap it closes a spectator's
  (that client's own first). Each client (:func:`rummisolve.server.quotas.client_key`) holds at
  most ``max_client_connections``.
- **AI seats** play themselves right after the change that hands them the turn: the hub takes
  what the AI sees (holding the room), lets it choose in a worker process of the game lane (not
  holding the room, so reads and pushes go on; past ``ai_turn_deadline_seconds`` it draws), and applies the choice (holding it again; if the room moved
  on meanwhile, the AI looks again). Each AI move is a version of its own, pushed at once.
- **The sweeper** wakes every :data:`TICK` seconds: it applies the timeouts whose deadline has
  passed and starts the AI turns that are due (the store's ``due`` column, so after a restart too),
  and pushes the rooms another server process changed: told at once by a store that tells
  (PostgreSQL's ``NOTIFY``, :meth:`~rummisolve.server.store.GameStore.watch_rooms`), else found by
  reading the versions of the rooms watched here at every tick (SQLite). Every :data:`LEASE_LOOK`
  seconds it notes that this process is alive and takes over the AI turns leased by a process that
  died (at start-up too). Every :data:`CHORES` seconds it notes the rooms watched here as seen and,
  in one process of those sharing the store (:meth:`~rummisolve.server.store.GameStore.claim_task`),
  archives those nobody changed or watched for ``room_idle_seconds`` and deletes what retention
  lets go (:meth:`~rummisolve.server.store.GameStore.purge`). A failure it meets again and
  again (a damaged database) is logged once a minute, not at every tick.
- **Across processes** an AI's turn is leased by the one process that finds it due first
  (:meth:`~rummisolve.server.store.GameStore.lease_room`); a timeout is applied by whichever saves
  first (the others' saves are stale).
- **Told by the store** that another process changed a room watched here, the hub only pushes it
  (:meth:`RoomHub.push`): that process applies its timeout and plays its AI turns.
- **A race lost** (another process saved the room first, e.g. both applied one timeout) is a
  normal outcome: the room is read again and served at once.
One room is served by one task at a time (:meth:`RoomHub.kick` while one runs makes it run again).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from rummisolve.server.lanes import JobDeadline, LaneFull, Lanes
from rummisolve.server.leases import holder, holder_dead
from rummisolve.server.requests import BadRequest
from rummisolve.server.room_cache import CachedRoom, RoomCache
from rummisolve.server.settings import Settings
from rummisolve.server.store import StaleGame

__all__ = [
    "RoomHub",
    "Watcher",
    "Closed",
    "SeatRevoked",
    "TICK",
    "AI_LEASE",
    "CHORES",
    "LEASE_LOOK",
    "RECHECK",
    "LOG_EVERY",
]

log = logging.getLogger("rummisolve.server")

TICK = 0.25
"""Seconds between the sweeper's looks at the timers, the AI turns due and other processes' changes."""

AI_LEASE = 30.0
"""Seconds other worker processes leave an AI's turn to the process that took it (if that one
dies, another takes the turn after this)."""

CHORES = 60.0
"""Seconds between the sweeper's chores: rooms watched noted as seen, idle rooms archived."""

LEASE_LOOK = 1.0
"""Seconds between two heartbeats of this process, each with a look for AI turns of processes that died."""

RECHECK = 5.0
"""Seconds between two reads of the versions of the rooms watched here when the store tells every
change (a safety net: a change told while the store's listening connection was lost)."""

_RETRY_FAILED = 30.0
"""Seconds before a room whose service failed (a bug, a damaged row) is tried again."""

LOG_EVERY = 60.0
"""Seconds between two log lines of one failure met again and again (a damaged database)."""

_RACES = 5
"""Times in a row a room is read again after a race lost before it is left to the next tick."""

T = TypeVar("T")

_opened = itertools.count()


class Closed(Exception):
    """The connection is to be closed: ``status`` (its close code is 4000 + it) and why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class SeatRevoked(Closed):
    """The connection's token is no longer its seat's (the creator handed the seat to an AI)."""


class Watcher:
    """One WebSocket connection's seat (``None``: a spectator) and the newest view it has not sent."""

    def __init__(self, seat: int | None, token: str | None = None, client: str = "addr:unknown") -> None:
        self.seat = seat
        self.token = token
        """The seat's token (``None``: a spectator); checked again at every push."""
        self.client = client
        """Who opened it (:func:`rummisolve.server.quotas.client_key`)."""
        self.opened = next(_opened)
        """Its rank among the connections opened (the oldest is replaced first)."""
        self.version = 0
        """The version of the newest view handed over."""
        self.revoked = False
        self.closing: Closed | None = None
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
        self.close(SeatRevoked(403, "this seat was handed to an AI: its token no longer plays it"))

    def close(self, why: Closed) -> None:
        """Hand over no more views: the connection is closed for ``why``."""
        self.closing = why
        self._latest = None
        try:
            here = asyncio.get_running_loop() is self._loop
        except RuntimeError:
            here = False
        if here:
            self._wake.set()
        else:
            self._loop.call_soon_threadsafe(self._wake.set)

    async def next(self) -> dict[str, Any]:
        """The next view to send (waits for one); :class:`Closed` once the connection is to close
        (:class:`SeatRevoked`: the seat is not the token's any more)."""
        while self._latest is None and self.closing is None:
            self._wake.clear()
            await self._wake.wait()
        if self.closing is not None:
            raise self.closing
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
        """Rooms kicked while served: served again once their service is over."""
        self._pushes: set[str] = set()
        """Rooms another process changed while served: pushed again once their service is over."""
        self._published: dict[str, int] = {}
        self._failed: dict[str, float] = {}
        self._chores_done = -math.inf
        self._leases_done = -math.inf
        self._rechecked = -math.inf
        self._told = False
        """Whether the store tells this hub every room's new version (else the hub reads them)."""
        self._missed = False
        """Whether the store may have missed telling some (its listening connection was lost)."""
        self._logged: dict[str, float] = {}
        self._unlogged: dict[str, int] = {}

    # -- running work ---------------------------------------------------------------------------

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` in a game thread (the store and the referee block)."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, work)

    def start(self) -> None:
        """Take over the AI turns of processes that died, and start the sweeper (the app's
        lifespan calls it, on the server's event loop)."""
        try:
            self.cache.store.beat(holder())
            self.take_over_leases(self.cache.clock())
        except Exception as err:
            self._log_failure("rooms: taking over dead processes' AI turns failed", err)
        loop = asyncio.get_running_loop()
        self._told = self.cache.store.watch_rooms(
            lambda code, version: loop.call_soon_threadsafe(self.told, code, version)
        )
        self._spawn(self._sweep())

    def told(self, code: str | None, version: int) -> None:
        """The store tells that room ``code`` is at ``version`` now (``None``: some changes may have
        been missed): serve it if it is watched here and its watchers have not had that version."""
        if code is None:
            self._missed = True
        elif code in self.watchers and version > self._published.get(code, 0):
            self.push(code)

    def push(self, code: str) -> None:
        """Room ``code`` changed in another process: push it (only: that process applies its timeout
        and plays its AI turns, or, if it dies, the sweeper of any process finds them due)."""
        if code in self._busy:
            self._pushes.add(code)  # pushed when the room's service now running is over
            return
        self._busy.add(code)
        self._spawn(self._push(code))

    async def _push(self, code: str) -> None:
        try:
            while True:
                self._pushes.discard(code)
                await self.publish(code)
                if code not in self._pushes:  # told again meanwhile: push again
                    break
        except asyncio.CancelledError:
            raise
        except Exception as err:
            self._failed[code] = self.cache.clock()
            self._log_failure(f"room {code}: its push failed", err)
        finally:
            self._busy.discard(code)
        if code in self._again:  # kicked meanwhile: served now
            self._again.discard(code)
            self.kick(code)

    def take_over_leases(self, now: float) -> list[str]:
        """Make due now the AI turns a process that died was thinking (see :mod:`rummisolve.server.leases`)."""
        resumed = self.cache.store.take_over_leases(now, holder_dead)
        if resumed:
            log.info("rooms: %d AI turns of a process that stopped resumed (%s)", len(resumed), ", ".join(resumed))
        return resumed

    def _log_failure(self, what: str, err: BaseException) -> None:
        """Log ``what`` failed, once a :data:`LOG_EVERY` for one failure met again and again: a
        damaged database must not flood the log. A bug's first time comes with its traceback."""
        key = f"{what}: {type(err).__name__}: {err}"
        now = time.monotonic()
        if now - self._logged.get(key, -math.inf) < LOG_EVERY:
            self._unlogged[key] = self._unlogged.get(key, 0) + 1
            return
        again = self._unlogged.pop(key, 0)
        first = key not in self._logged
        self._logged[key] = now
        if len(self._logged) > 1000:
            self._logged.clear()
        from rummisolve.server.handlers import REFUSALS  # refusals (the store's) are no bugs

        suffix = f" (and {again} times more in the last {LOG_EVERY:g} s)" if again else ""
        if first and not isinstance(err, REFUSALS):
            log.error("%s%s", what, suffix, exc_info=err)
        else:
            log.error("%s: %s: %s%s", what, type(err).__name__, err, suffix)

    async def stop(self) -> None:
        """Stop the sweeper and the rooms' tasks on this event loop (an AI thinking in a worker is
        stopped: its task's cancellation cancels the job)."""
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

    def watch(self, code: str, seat: int | None, token: str | None = None, client: str = "addr:unknown") -> Watcher:
        """A new watcher of room ``code`` for ``client``; :class:`BadRequest` (503, 429) past the
        caps on connections (see the module's docstring: a seat's connection always gets in)."""
        settings = self.settings
        every = [w for ws in self.watchers.values() for w in ws]
        theirs = [w for w in every if w.client == client]
        if seat is None:
            spectators = sum(1 for w in self.watchers.get(code, ()) if w.seat is None)
            if spectators >= settings.max_room_spectators:
                raise BadRequest(429, f"room {code} has {spectators} spectators (max_room_spectators): try again later")
            if len(theirs) >= settings.max_client_connections:
                raise BadRequest(
                    429,
                    f"this client has {len(theirs)} room connections open (max_client_connections): close one first",
                )
            if len(every) >= settings.max_connections:
                raise BadRequest(
                    503, f"server busy: {len(every)} room connections are open (max_connections); try again later"
                )
        else:
            self._make_room_for_seat(code, seat, every, theirs)
        watcher = Watcher(seat, token, client)
        self.watchers.setdefault(code, set()).add(watcher)
        return watcher

    def _make_room_for_seat(self, code: str, seat: int, every: list[Watcher], theirs: list[Watcher]) -> None:
        """Close what a seat's new connection replaces: that seat's oldest past
        ``max_seat_connections``, spectators past the client's and the server's caps."""
        settings = self.settings
        same = sorted((w for w in self.watchers.get(code, ()) if w.seat == seat), key=lambda w: w.opened)
        gone: list[Watcher] = same[: max(0, len(same) + 1 - settings.max_seat_connections)]
        for old in gone:
            self._close(code, old, 409, "replaced by a newer connection of this seat (max_seat_connections)")
        theirs = [w for w in theirs if w not in gone]
        if len(theirs) >= settings.max_client_connections:
            spectator = min((w for w in theirs if w.seat is None), key=lambda w: w.opened, default=None)
            if spectator is None:
                raise BadRequest(
                    429,
                    f"this client has {len(theirs)} room connections open, its seats' (max_client_connections): "
                    "close one first",
                )
            self._close_anywhere(spectator, 429, "closed for a seat's connection (max_client_connections)")
            gone.append(spectator)
        if len(every) - len(gone) >= settings.max_connections:
            spectator = min(
                (w for w in every if w.seat is None and w not in gone), key=lambda w: w.opened, default=None
            )
            if spectator is None:
                raise BadRequest(
                    503, f"server busy: {len(every)} room connections are open (max_connections); try again later"
                )
            self._close_anywhere(spectator, 503, "closed for a seat's connection: the server is full (max_connections)")

    def _close(self, code: str, watcher: Watcher, status: int, message: str) -> None:
        watcher.close(Closed(status, message))
        self.unwatch(code, watcher)

    def _close_anywhere(self, watcher: Watcher, status: int, message: str) -> None:
        for code, here in list(self.watchers.items()):
            if watcher in here:
                self._close(code, watcher, status, message)
                return

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
        published = self._published.get(code, 0)

        def build() -> tuple[dict[int | None, dict[str, Any]], dict[str, int | None]]:
            views = self.cache.views(code, seats, newer_than=published)  # none when its watchers have it
            return views, (self.cache.seats_of(code, tokens) if views else {})

        views, holders = await self.run(build)
        if not views:
            return
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
        races = 0
        try:
            while True:
                self._again.discard(code)
                try:
                    await self.run(lambda: self.cache.expire(code))
                    await self.publish(code)
                    if await self._ai_turn(code):
                        continue
                except StaleGame:  # another process saved the room first: read it again, serve it now
                    self.cache.forget(code)
                    races += 1
                    if races <= _RACES:
                        continue
                    raise
                if code not in self._again:
                    break
        except asyncio.CancelledError:
            raise
        except Exception as err:
            self._failed[code] = self.cache.clock()
            self._log_failure(f"room {code}: its timers or AI turns failed", err)
        finally:
            self._busy.discard(code)
        if code in self._pushes:  # told of another process's change meanwhile
            self._pushes.discard(code)
            self.push(code)

    async def _ai_turn(self, code: str) -> bool:
        """Play one AI turn of room ``code`` if one is due; whether the room changed (or moved on)."""

        def look(cached: CachedRoom, now: float) -> tuple[int, Any] | None:
            due = cached.room.ai_to_move()
            if due is None or not self.cache.store.lease_room(code, cached.version, now + AI_LEASE, holder(), now=now):
                return None
            return cached.version, due

        prepared = (await self.run(lambda: self.cache.change(code, look)))[0]
        if prepared is None:
            return False
        version, (seat, player, seen) = prepared
        choice, after = await self._think(player, seen)

        def apply(cached: CachedRoom, now: float) -> None:
            if cached.version == version:  # else the room moved on: look again
                cached.room.ai_move(seat, choice, seen, now, player=after, think=self._think_here)

        await self.run(lambda: self.cache.change(code, apply, timers=False))
        return True

    async def _think(self, player: Any, seen: Any) -> tuple[Any, Any]:
        """``player.choose(seen)`` in a worker process of the game lane (waiting while it is full):
        the choice and the player after it. Past ``ai_turn_deadline_seconds`` the turn is forfeit (the kind's forfeit: a draw, an Xpress pass)."""
        while True:
            try:
                action, after, _ = await self.lanes.choose_async(player, seen)
            except LaneFull as full:
                await asyncio.sleep(min(float(full.retry_after), 1.0))
                continue
            except JobDeadline as late:
                log.warning("a room's AI: %s", late.message)
                return None, player  # the room plays the kind's forfeit
            return action, after

    def _think_here(self, player: Any, view: Any) -> tuple[Any, Any]:
        """The rest of an AI's turn (the discard rule's second step), from a game thread: in a
        worker process too. Past the deadline, or with the lane full, the turn is forfeit."""
        try:
            action, after, _ = self.lanes.choose(player, view)
        except (JobDeadline, LaneFull) as refused:
            log.warning("a room's AI: %s", refused)
            return None, player  # the turn is forfeit (the room plays the kind's forfeit)
        return action, after

    # -- the sweeper ----------------------------------------------------------------------------

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            await self.sweep_once()

    async def sweep_once(self) -> None:
        """One look of the sweeper: serve what is due (a failure is logged, at most once a minute)."""
        try:
            due, moved = await self.run(self._look)
            for code in due:
                self.kick(code)
            for code in moved:
                if code not in due:
                    self.push(code)
        except Exception as err:
            self._log_failure("rooms: the sweeper's look failed", err)

    def _look(self) -> tuple[list[str], list[str]]:
        """The rooms to serve, those due (a timer run out, an AI to move), and to push, those
        watched here that another process changed; and once every :data:`CHORES` seconds, the chores."""
        store = self.cache.store
        now = self.cache.clock()
        if now - self._chores_done >= CHORES:
            self._chores_done = now
            self.chores(now)
        due = [c for c in store.rooms_due(now) if now - self._failed.get(c, -_RETRY_FAILED) >= _RETRY_FAILED]
        if now - self._leases_done >= LEASE_LOOK or now < self._leases_done:
            self._leases_done = now
            store.beat(holder())
            self.take_over_leases(now)
        moved: list[str] = []
        if not self._told or self._missed or now - self._rechecked >= RECHECK or now < self._rechecked:
            self._missed = False
            self._rechecked = now
            versions = store.room_versions(list(self.watchers))
            moved = [c for c, version in versions.items() if version > self._published.get(c, 0)]
        return due, moved

    def chores(self, now: float) -> None:
        """Note the rooms watched here as seen, take over the AI turns of processes that died, and
        (one process of those sharing the store at a time) archive the rooms nobody changed or
        watched for ``room_idle_seconds`` and delete what is past retention (rooms over or
        archived, games nobody played, owners left with none)."""
        store = self.cache.store
        store.touch_rooms(list(self.watchers), now)
        self.take_over_leases(now)
        if not store.claim_task("chores", holder(), now, now + CHORES * 0.9):
            return  # another process sharing the store does the rest
        settings = self.settings
        purged = store.purge(
            rooms_before=now - settings.room_retention_seconds,
            games_before=time.time() - settings.game_retention_seconds,
        )
        if any(purged.values()):
            log.info("retention: deleted %(rooms)d rooms, %(games)d games and %(owners)d owners", purged)
        for code in store.idle_rooms(now - self.settings.room_idle_seconds):
            if code in self.watchers:
                continue
            try:
                self.cache.change(code, lambda cached, t: cached.room.archive(), timers=False)
            except Exception as err:
                self._log_failure(f"room {code}: archiving it failed", err)
