"""Load test of the game rooms: scripted clients play N rooms over HTTP and WebSocket for T seconds.

Starts ``rummisolve serve`` on a free loopback port with a temporary database, makes ``--rooms``
rooms of 2, 3 and 4 seats (``--ai-rooms`` of them with one AI seat, easy and medium in turn or
the ``--ai-levels`` given, so AI turns run on the server meanwhile), joins every human seat and opens one WebSocket per human seat
(docs/rooms.md). Then each seat plays for ``--duration`` seconds: on its turn it waits a think
time (``--think`` seconds on average), plays new melds from its rack when a greedy search finds
some (runs and groups, no jokers, worth the initial meld before opening), else draws; a finished
round's creator deals the next. Moves go over HTTP with the version of the view they were decided
on; every view arrives over the WebSocket. Loopback only; bounded in rooms, moves and time (the
setup, at most :data:`SETUP_TIMEOUT` s; the load; then a grace of :data:`DRAIN_GRACE` s for the
last answers, AI turns and pushes; every wait has a timeout).

    python -m benchmarks.load_rooms [--rooms 50] [--duration 60] [--ai-rooms N] [--seed S] [--out FILE]
        [--ai-levels easy,medium] [--think 1.0] [--servers N] [--db postgresql://...]

With ``--servers N``, N servers share the database (``--db``: a PostgreSQL URL, else the temporary
SQLite file), each on its own port, as machines behind a load balancer would: room ``i`` is made on
server ``i mod N`` and its other seats join, listen and play on the next ones, so a move made
through one server reaches seats on the others (the pushes across processes). Memory and CPU are
per server and summed.

The room plan (sizes, AI seats, think times) follows ``--seed``; the server deals its own tiles
(the rooms' rounds are dealt from the system's randomness), so two runs play different games.

What it measures and checks (the targets of issue 39 in brackets):

- **Push latency** of every human move (a draw, a play, a next round): from the moment its HTTP
  request is sent to each seat's WebSocket receipt of the view of that version (or a newer one,
  where pushes coalesced), over all (seat, move) pairs, and per move until its room's last seat
  has it (``every_seat``) [p99 under 200 ms]. Split by rooms with and without an AI seat, and for
  the rooms without one, by whether an AI was taking a turn in another room meanwhile [no delay
  beyond the same 200 ms]. An AI's turn runs from the view handing it the turn (or the human's
  request that did) to the first receipt of its move.
- **Lost and duplicated events**, per the protocol (docs/rooms.md, rummisolve/server/room_hub.py):
  each message is a whole view; a connection never gets a view older than, or as old as, one it
  got (``out_of_order``, ``duplicates``); a slow client may skip versions (a watcher keeps only the
  newest view not yet sent, and a push builds the views as stored when it runs), counted as
  ``skipped_versions``, and allowed when the next change came while the skipped version's push
  was on its way (``coalesced``: it began within :data:`COALESCE_WINDOW` s of another seat's
  receipt of the skipped version; else ``unexplained``, counted as lost); every change reaches
  every seat: once the load stops and each room is quiet, every seat has its room's last version
  (``lost``: seats that do not, within the grace); and a view's log holds every event since the
  seat's previous view, skipped ones too (``log_mismatches``: a log not extending the previous one
  by exactly the versions in between, once the room plays).
- **Server memory**: RSS of the server process (``/proc/<pid>/status`` VmRSS, summed over any
  child process, sampled every 100 ms) at start, after the setup, at its peak and at the end
  [under 300 MB].

The figures are printed and written as JSON to ``--out`` (default
``benchmarks/results/load_rooms.json``; a directory: ``load_rooms.json`` in it). The exit status
is 1 when an invariant fails (an error, a lost, duplicated or out-of-order view, a log mismatch),
not for a missed timing target: those are in the JSON's ``targets``. The scripted clients run in
this process, so their own event loop's lag (``client_loop_lag_ms``) is in the latencies too.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.load_server import (  # noqa: E402
    MemorySampler,
    _descendants,
    _free_port,
    _ms,
    _percentile,
    _status_kib,
    cpu_seconds,
    request,
)

MAX_ROOMS = 200
MAX_DURATION = 600.0
MAX_MOVES = 200_000
"""Human moves at most in one run (a bound on the count, besides the time)."""
SETUP_TIMEOUT = 120.0
"""Seconds for making the rooms, joining their seats and opening their WebSockets."""
DRAIN_GRACE = 10.0
"""Seconds after the load for the last moves' answers, AI turns and pushes to arrive."""
HTTP_TIMEOUT = 30.0
"""Seconds one HTTP request may take."""
KEEP_ALIVE = 4.0
"""Seconds a client reuses an idle connection (uvicorn closes one idle for 5 s)."""
SEAT_COUNTS = (2, 3, 4)
AI_KINDS = ("easy", "medium")
COALESCE_WINDOW = 0.5
"""A version a seat skipped counts as coalesced (allowed) when the change after it began within this
many seconds of another seat's receipt of it; else as lost (the server had it alone that long)."""
TARGET_PUSH_P99_MS = 200.0
TARGET_MEMORY_MB = 300.0
TARGET_ABUSE_MEMORY_RATIO = 1.5
"""With --abuse: the server's RSS at the end over its RSS once the rooms are set up (issue 47)."""
"""Megabytes (10**6 bytes; the figures are in MiB)."""
SAMPLES = 5
"""Examples kept of each kind of problem."""


# -- a small HTTP/1.1 client on asyncio streams --------------------------------------------------


class Http:
    """One client's keep-alive HTTP/1.1 connection to the server (JSON in, JSON out)."""

    def __init__(self, host: str, port: int, local: str | None = None) -> None:
        self.host = host
        self.port = port
        self.local = local
        """The client's own address (a loopback one of its own: the server counts each client's share)."""
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._used = 0.0

    async def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        """Status and JSON body of one request (:class:`OSError` or :class:`TimeoutError` on failure)."""
        return await asyncio.wait_for(self._call(method, path, body, token), HTTP_TIMEOUT)

    async def _call(self, method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Content-Length: {len(data)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        if token is not None:
            head.append(f"Authorization: Bearer {token}")
        stale = time.monotonic() - self._used > KEEP_ALIVE
        if self._writer is None or stale or self._reader is None or self._reader.at_eof():
            await self.close()
            local = None if self.local is None else (self.local, 0)
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port, local_addr=local)
        reader, writer = self._reader, self._writer
        try:
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
            status_line = await reader.readline()
            if not status_line:
                raise ConnectionError("the server closed the connection")
            status = int(status_line.split()[1])
            length, keep = None, True
            while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                name = name.strip().lower()
                if name == "content-length":
                    length = int(value)
                elif name == "connection" and value.strip().lower() == "close":
                    keep = False
                elif name == "transfer-encoding":
                    raise ConnectionError(f"unexpected transfer-encoding {value.strip()!r}")
            if length is None:
                raise ConnectionError("an answer without Content-Length")
            raw = await reader.readexactly(length)
        except BaseException:
            await self.close()
            raise
        self._used = time.monotonic()
        if not keep:
            await self.close()
        return status, json.loads(raw) if raw else None

    async def close(self) -> None:
        writer, self._reader, self._writer = self._writer, None, None
        if writer is not None:
            writer.close()
            try:
                await asyncio.wait_for(writer.wait_closed(), 2)
            except (OSError, TimeoutError):
                pass


# -- the scripted player's move ------------------------------------------------------------------


def rack_melds(rack: list[str], opened: bool, threshold: int, min_length: int = 3) -> list[list[str]]:
    """New melds from the rack alone, found greedily (the longest runs, then groups, or groups
    first, whichever is worth more; no jokers); ``[]`` when there are none, or before the initial
    meld when they are worth less than ``threshold``."""
    from rummisolve.tiles import Tile

    plain = [t for t in map(Tile.parse, rack) if not t.is_any_joker]
    best: list[list[Any]] = []
    for order in ((_runs, _groups), (_groups, _runs)):
        left = Counter(plain)
        melds = [meld for find in order for meld in find(left, min_length)]
        if _value(melds) > _value(best):
            best = melds
    if not best or (not opened and _value(best) < threshold):
        return []
    return [[str(t) for t in meld] for meld in best]


def _value(melds: list[list[Any]]) -> int:
    return sum(t.number for meld in melds for t in meld)


def _runs(left: Counter, min_length: int) -> list[list[Any]]:
    """Runs taken from ``left`` (each colour's longest stretch of numbers, again and again)."""
    from rummisolve.tiles import Tile

    found = []
    for colour in sorted({t.colour for t in left}, key=lambda c: c.index):
        while True:
            numbers = sorted({t.number for t, n in left.items() if n > 0 and t.colour is colour})
            longest: list[int] = []
            stretch: list[int] = []
            for number in numbers:
                stretch = [*stretch, number] if stretch and number == stretch[-1] + 1 else [number]
                if len(stretch) > len(longest):
                    longest = stretch
            if len(longest) < min_length:
                break
            meld = [Tile(colour, n) for n in longest]
            left.subtract(meld)
            found.append(meld)
    return found


def _groups(left: Counter, min_length: int) -> list[list[Any]]:
    """Groups taken from ``left`` (each number in every colour left, while there are enough)."""
    found = []
    for number in sorted({t.number for t, n in left.items() if n > 0}, reverse=True):
        while True:
            meld = sorted({t for t, n in left.items() if n > 0 and t.number == number}, key=lambda t: t.sort_key)
            if len(meld) < min_length:
                break
            left.subtract(meld)
            found.append(meld)
    return found


# -- what the clients see ------------------------------------------------------------------------


@dataclass
class Stats:
    """Counts and examples of everything that went wrong, or is worth a look."""

    errors: list[str] = field(default_factory=list)
    duplicates: int = 0
    out_of_order: int = 0
    skipped_versions: int = 0
    log_mismatches: int = 0
    refused_plays: int = 0
    answer_ahead: int = 0
    """Moves whose HTTP answer had a newer version than the move's (a change right after it)."""
    samples: dict[str, list[Any]] = field(default_factory=dict)
    moves: int = 0

    def note(self, kind: str, sample: Any) -> None:
        kept = self.samples.setdefault(kind, [])
        if len(kept) < SAMPLES:
            kept.append(sample)

    def error(self, message: str) -> None:
        self.errors.append(message)


@dataclass
class Move:
    """A human move sent over HTTP: the version it makes, when it was sent and answered."""

    version: int
    sent: float
    answered: float
    kind: str
    seat: int


@dataclass
class SeatClient:
    """One human seat: its WebSocket's receipts and the newest view."""

    room: RoomClient
    seat: int
    token: str
    received: list[tuple[int, float, int, str]] = field(default_factory=list)
    """(version, time of receipt, seat to move, status) of every view, in order of receipt."""
    latest: dict[str, Any] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    socket: Any = None
    reader: asyncio.Task | None = None
    port: int = 0
    """The port of the server its WebSocket and its moves go to (with --servers, a room's seats spread)."""

    def receive(self, view: dict[str, Any], at: float, stats: Stats) -> None:
        where = f"room {self.room.code} seat {self.seat}"
        if "error" in view:
            stats.error(f"{where}: the WebSocket sent {view}")
            return
        version = view["version"]
        if view.get("room") != self.room.code or view.get("seat") != self.seat:
            stats.error(f"{where}: a view of room {view.get('room')} seat {view.get('seat')}")
        before = self.latest
        if before is not None:
            last = before["version"]
            if version == last:
                stats.duplicates += 1
                stats.note("duplicates", f"{where}: version {version} twice")
                return
            if version < last:
                stats.out_of_order += 1
                stats.note("out_of_order", f"{where}: version {version} after {last}")
                return
            if version > last + 1:
                stats.skipped_versions += version - last - 1
                stats.note("skipped_versions", f"{where}: version {last} then {version}")
            self._check_log(before, view, where, stats)
        self.received.append((version, at, view["turn"], view["status"]))
        self.latest = view
        self.changed.set()

    @staticmethod
    def _check_log(before: dict[str, Any], view: dict[str, Any], where: str, stats: Stats) -> None:
        """The log goes on from the previous view: one event per version in between, once the room plays."""
        if view["round"] != before["round"]:
            if view["round"] < before["round"]:
                stats.log_mismatches += 1
                stats.note("log_mismatches", f"{where}: round {view['round']} after round {before['round']}")
            return
        old, new = before["log"], view["log"]
        versions = view["version"] - before["version"]
        grown = len(new) - len(old)
        ok = new[: len(old)] == old and (grown == versions if before["status"] != "waiting" else grown <= versions)
        if not ok:
            stats.log_mismatches += 1
            stats.note(
                "log_mismatches",
                f"{where}: versions {before['version']} -> {view['version']}, log {len(old)} -> {len(new)} events"
                + ("" if new[: len(old)] == old else ", earlier events changed"),
            )

    def first_at_least(self, version: int) -> float | None:
        """When this seat first had a view of ``version`` or newer (``None``: never)."""
        i = bisect.bisect_left(self.received, (version,))
        return self.received[i][1] if i < len(self.received) else None


@dataclass
class RoomClient:
    """One room: its seats' kinds, the human seats' clients and the moves sent."""

    code: str
    kinds: list[str]
    creator: int
    seats: dict[int, SeatClient] = field(default_factory=dict)
    moves: list[Move] = field(default_factory=list)
    threshold: int = 30
    min_length: int = 3
    address: str | None = None
    """The loopback address its players connect from (each room's players are a client of their own)."""

    @property
    def ai_seat(self) -> int | None:
        return next((s for s, kind in enumerate(self.kinds) if kind != "human"), None)


# -- the run -------------------------------------------------------------------------------------


class Load:
    """The scripted clients of every room, and what they saw."""

    def __init__(
        self,
        host: str,
        port: int,
        plans: list[list[str]],
        think: float,
        seed: int,
        spread: bool = False,
        ports: list[int] | None = None,
        sticky: bool = False,
    ) -> None:
        self.sticky = sticky
        """Each room's seats all on the server that made it (else spread over the servers)."""
        self.host = host
        self.ports = ports or [port]
        """Every server's port: room ``i`` is made on server ``i``, its next seats join on the next ones."""
        self.spread = spread
        """Each room's players from a loopback address of their own (else all from 127.0.0.1)."""
        self.port = port
        self.plans = plans
        self.think = think
        self.rng = random.Random(seed)
        self.stats = Stats()
        self.rooms: list[RoomClient] = []
        self.stopping = False
        self.lags: list[float] = []

    # setup

    async def setup(self) -> None:
        limit = asyncio.Semaphore(8)

        async def one(i: int, kinds: list[str]) -> None:
            async with limit:
                await self._make_room(kinds, client_address(i) if self.spread else None, i)

        await asyncio.gather(*(one(i, kinds) for i, kinds in enumerate(self.plans)))

    async def _make_room(self, kinds: list[str], address: str | None, index: int = 0) -> None:
        from rummisolve.jsonio import rules_from_json

        ports = [self.ports[(index + (0 if self.sticky else k)) % len(self.ports)] for k in range(len(kinds))]
        http = Http(self.host, ports[0], address)
        try:
            status, made = await http.call("POST", "/rooms", {"rules": "standard", "seats": kinds, "name": "seat 0"})
            if status != 201:
                raise RuntimeError(f"POST /rooms: {status} {made}")
            rules = rules_from_json(made["view"]["rules"], "rules")
            room = RoomClient(made["room"], kinds, made["seat"], threshold=rules.initial_threshold, address=address)
            room.min_length = rules.min_meld_length
            self.rooms.append(room)  # before its sockets open: closed at the end whatever happens
            await self._connect(room, made["seat"], made["token"], ports[0])
            for k in range(1, kinds.count("human")):
                joining = Http(self.host, ports[k], address)
                try:
                    status, joined = await joining.call("POST", f"/rooms/{room.code}/join", {"name": "a player"})
                finally:
                    await joining.close()
                if status != 200:
                    raise RuntimeError(f"POST /rooms/{room.code}/join: {status} {joined}")
                await self._connect(room, joined["seat"], joined["token"], ports[k])
        finally:
            await http.close()

    async def _connect(self, room: RoomClient, seat: int, token: str, port: int) -> None:
        from websockets.asyncio.client import connect

        client = SeatClient(room, seat, token, port=port)
        url = f"ws://{self.host}:{port}/rooms/{room.code}/ws?token={token}"
        local = None if room.address is None else (room.address, 0)
        client.socket = await connect(url, open_timeout=10, close_timeout=2, max_size=4 * 2**20, local_addr=local)
        room.seats[seat] = client
        client.reader = asyncio.ensure_future(self._read(client))

    async def _read(self, client: SeatClient) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for message in client.socket:
                at = time.perf_counter()
                client.receive(json.loads(message), at, self.stats)
        except ConnectionClosed as closed:
            if not self.stopping:
                self.stats.error(f"room {client.room.code} seat {client.seat}: WebSocket closed: {closed}")
        except Exception as err:
            self.stats.error(f"room {client.room.code} seat {client.seat}: {type(err).__name__}: {err}")
        else:
            if not self.stopping:
                self.stats.error(f"room {client.room.code} seat {client.seat}: WebSocket closed by the server")

    # the load

    async def play(self, duration: float) -> float:
        """Every seat plays until ``duration`` seconds from now; the seconds it took."""
        start = time.perf_counter()
        stop_at = start + duration
        lag = asyncio.ensure_future(self._watch_lag(stop_at))
        players = [
            self._player(seat, stop_at, random.Random(self.rng.random()))
            for room in self.rooms
            for seat in room.seats.values()
        ]
        try:
            done = await asyncio.wait_for(asyncio.gather(*players, return_exceptions=True), duration + HTTP_TIMEOUT + 5)
        except TimeoutError:
            self.stats.error(f"the players did not stop within {HTTP_TIMEOUT + 5:g} s of the end")
            done = []
        for outcome in done:
            if isinstance(outcome, BaseException):
                self.stats.error(f"a player failed: {type(outcome).__name__}: {outcome}")
        lag.cancel()
        return time.perf_counter() - start

    async def _watch_lag(self, stop_at: float) -> None:
        """How late this process's event loop wakes from a 50 ms sleep (its own share of the latencies)."""
        while time.perf_counter() < stop_at:
            t0 = time.perf_counter()
            await asyncio.sleep(0.05)
            self.lags.append(time.perf_counter() - t0 - 0.05)

    async def _player(self, client: SeatClient, stop_at: float, rng: random.Random) -> None:
        http = Http(self.host, client.port, client.room.address)
        acted = 0
        try:
            while time.perf_counter() < stop_at and self.stats.moves < MAX_MOVES:
                client.changed.clear()
                if not self._to_act(client, acted):
                    try:
                        await asyncio.wait_for(client.changed.wait(), max(0.0, stop_at - time.perf_counter()))
                    except TimeoutError:
                        break
                    continue
                await asyncio.sleep(min(self.think * rng.uniform(0.5, 1.5), max(0.0, stop_at - time.perf_counter())))
                if time.perf_counter() >= stop_at or not self._to_act(client, acted):
                    continue
                view = client.latest
                assert view is not None
                acted = view["version"]
                await self._move(client, view, http)
        finally:
            await http.close()

    @staticmethod
    def _to_act(client: SeatClient, acted: int) -> bool:
        """Whether the newest view asks this seat to act (its turn, or dealing the next round)."""
        view = client.latest
        if view is None or view["version"] <= acted:
            return False
        if view["status"] == "playing":
            return view["turn"] == client.seat
        return view["status"] == "over" and view["creator"] == client.seat

    async def _move(self, client: SeatClient, view: dict[str, Any], http: Http) -> None:
        room, version = client.room, view["version"]
        if view["status"] == "over":
            await self._send(client, http, "next-round", f"/rooms/{room.code}/next-round", {"version": version})
            return
        path = f"/rooms/{room.code}/turn"
        me = view["players"][client.seat]
        melds = rack_melds(view["rack"], me["opened"], room.threshold, room.min_length)
        if melds:
            body = {"table": view["table"] + melds, "version": version}
            status, answer = await self._send(client, http, "play", path, body, expect=(200, 400))
            if status != 400:
                return
            self.stats.refused_plays += 1
            self.stats.note("refused_plays", f"room {room.code}: {melds} on {view['table']}: {answer.get('error')}")
        await self._send(client, http, "draw", path, {"draw": True, "version": version})

    async def _send(
        self, client: SeatClient, http: Http, kind: str, path: str, body: dict, expect: tuple[int, ...] = (200,)
    ) -> tuple[int | None, Any]:
        where = f"room {client.room.code} seat {client.seat} {kind}"
        self.stats.moves += 1
        sent = time.perf_counter()
        try:
            status, answer = await http.call("POST", path, body, client.token)
        except (OSError, TimeoutError, ValueError) as err:
            self.stats.error(f"{where}: {type(err).__name__}: {err}")
            return None, None
        answered = time.perf_counter()
        if status not in expect:
            self.stats.error(f"{where} on version {body['version']}: HTTP {status} {str(answer)[:200]}")
        elif status == 200:
            made = body["version"] + 1  # a change is one version (rooms without a timer: no timeout first)
            if answer["version"] < made:
                self.stats.error(f"{where}: answered version {answer['version']}, not {made}")
            elif answer["version"] > made:
                self.stats.answer_ahead += 1
            client.room.moves.append(Move(made, sent, answered, kind, client.seat))
        return status, answer

    # the end

    async def drain(self) -> dict[str, Any]:
        """Wait (at most :data:`DRAIN_GRACE` s) until every room is quiet (no AI to move) and every
        seat has its room's version; what was still missing then."""
        http = Http(self.host, self.port)
        deadline = time.perf_counter() + DRAIN_GRACE
        state: dict[str, tuple[int, str, int]] = {}
        changed_at: dict[str, float] = {}
        waiting = list(self.rooms)
        try:
            while waiting and time.perf_counter() < deadline:
                still = []
                for room in waiting:
                    try:
                        status, view = await http.call("GET", f"/rooms/{room.code}")
                    except (OSError, TimeoutError, ValueError) as err:
                        self.stats.error(f"GET /rooms/{room.code}: {type(err).__name__}: {err}")
                        continue
                    if status != 200:
                        self.stats.error(f"GET /rooms/{room.code}: {status} {view}")
                        continue
                    now = (view["version"], view["status"], view["turn"])
                    if state.get(room.code) != now:
                        changed_at[room.code] = time.perf_counter()
                    state[room.code] = now
                    if not self._settled(room, *now):
                        still.append(room)
                waiting = still
                if waiting:
                    await asyncio.sleep(0.2)
        finally:
            await http.close()
        lost, moving = [], []
        for room in waiting:
            version, status, turn = state[room.code]
            if (status == "playing" and room.kinds[turn] != "human") or time.perf_counter() - changed_at[room.code] < 1:
                moving.append(room.code)
                continue
            for client in room.seats.values():
                got = client.received[-1][0] if client.received else None
                if got is None or got < version:
                    lost.append({"room": room.code, "seat": client.seat, "received": got, "room_version": version})
        return {"lost": lost, "rooms_still_moving": moving}

    @staticmethod
    def _settled(room: RoomClient, version: int, status: str, turn: int) -> bool:
        if status == "playing" and room.kinds[turn] != "human":
            return False  # an AI to move: more to come
        return all(c.received and c.received[-1][0] == version for c in room.seats.values())

    async def close(self) -> None:
        self.stopping = True
        sockets = [c.socket.close() for room in self.rooms for c in room.seats.values() if c.socket is not None]
        await asyncio.wait_for(asyncio.gather(*sockets, return_exceptions=True), 30)
        readers = [c.reader for room in self.rooms for c in room.seats.values() if c.reader is not None]
        await asyncio.wait_for(asyncio.gather(*readers, return_exceptions=True), 30)


# -- figures -------------------------------------------------------------------------------------


def _spread(seconds: list[float]) -> dict[str, Any]:
    values = sorted(seconds)
    return {
        "n": len(values),
        "p50": _ms(_percentile(values, 50)),
        "p95": _ms(_percentile(values, 95)),
        "p99": _ms(_percentile(values, 99)),
        "max": _ms(values[-1] if values else 0.0),
    }


def ai_turns(rooms: list[RoomClient], end: float) -> list[tuple[float, float, str]]:
    """Each AI turn's (start, end, level): from the view handing it the turn (or the human's
    request that made that view) to the first receipt of the AI's move."""
    turns = []
    for room in rooms:
        ai = room.ai_seat
        if ai is None or not room.seats:
            continue
        sent = {m.version: m.sent for m in room.moves}
        first: dict[int, float] = {}
        handed: set[int] = set()
        for client in room.seats.values():
            for version, at, turn, status in client.received:
                first[version] = min(at, first.get(version, at))
                if status == "playing" and turn == ai:
                    handed.add(version)
        versions = sorted(first)
        for version in sorted(handed):
            start = min(first[version], sent.get(version, first[version]))
            i = bisect.bisect_right(versions, version)
            stop = first[versions[i]] if i < len(versions) else end
            turns.append((start, stop, room.kinds[ai]))
    return turns


def skips(rooms: list[RoomClient]) -> dict[str, Any]:
    """The versions seats skipped once their room was connected, each judged by its window: from
    another seat's first receipt of it (or, for a move no other seat saw, its HTTP answer) to the
    start of the next change (its HTTP request; for an AI's move, its first receipt: later than
    the AI began). A push builds the views as stored when it runs and a watcher keeps only the
    newest view not yet sent, so a version is skipped legitimately only when the next change came
    while its push was on the way: a short window. A window over :data:`COALESCE_WINDOW` is a
    view the server held and did not send (``unexplained``)."""
    out: dict[str, Any] = {"versions": 0, "coalesced": 0, "unexplained": 0, "unknown": 0, "window_ms_max": None}
    samples: list[str] = []
    widest = None
    for room in rooms:
        if not room.seats or not all(c.received for c in room.seats.values()):
            continue
        connected = max(c.received[0][0] for c in room.seats.values())
        moves = {m.version: m for m in room.moves}
        firsts = {s: {v: at for v, at, *_ in c.received} for s, c in room.seats.items()}
        for seat, client in room.seats.items():
            versions = [v for v, *_ in client.received]
            for u, w in zip(versions, versions[1:]):
                for v in range(max(u, connected) + 1, w):
                    out["versions"] += 1
                    seen = [firsts[o][v] for o in firsts if o != seat and v in firsts[o]]
                    available = min(seen) if seen else (moves[v].answered if v in moves else None)
                    if v + 1 in moves:
                        begun: float | None = moves[v + 1].sent
                    else:
                        later = [c.first_at_least(v + 1) for c in room.seats.values()]
                        begun = min((t for t in later if t is not None), default=None)
                    if available is None or begun is None:
                        out["unknown"] += 1
                        continue
                    window = begun - available
                    widest = window if widest is None else max(widest, window)
                    if window <= COALESCE_WINDOW:
                        out["coalesced"] += 1
                        continue
                    out["unexplained"] += 1
                    if len(samples) < SAMPLES:
                        samples.append(
                            f"room {room.code} seat {seat}: version {v} skipped (got {u} then {w}), "
                            f"the next change began {_ms(window)} ms after another seat had it"
                        )
    out["window_ms_max"] = None if widest is None else _ms(widest)
    out["unexplained_samples"] = samples
    return out


def _merged(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for start, stop in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], stop))
        else:
            out.append((start, stop))
    return out


def _overlaps(merged: list[tuple[float, float]], start: float, stop: float) -> bool:
    i = bisect.bisect_right(merged, (stop, float("inf")))  # the spans starting at or before stop
    return i > 0 and merged[i - 1][1] >= start


def figures(load: Load, played_s: float, end: float) -> dict[str, Any]:
    """Push latencies, AI turns and the moves' counts, from what the clients saw."""
    pairs: dict[str, list[float]] = {"all": [], "ai_rooms": [], "no_ai_rooms": [], "during": [], "outside": []}
    every: dict[str, list[float]] = {key: [] for key in pairs}
    missing = 0
    turns = ai_turns(load.rooms, end)
    busy = _merged([(start, stop) for start, stop, _ in turns])
    kinds: Counter = Counter()
    answers = []
    for room in load.rooms:
        for move in room.moves:
            kinds[move.kind] += 1
            answers.append(move.answered - move.sent)
            took = []
            for client in room.seats.values():
                if not client.received or client.received[0][0] >= move.version:
                    continue  # connected after this move (never, once the setup is over)
                at = client.first_at_least(move.version)
                if at is None:
                    missing += 1
                    continue
                took.append(at - move.sent)
            if not took:
                continue
            keys = ["all", "ai_rooms" if room.ai_seat is not None else "no_ai_rooms"]
            if room.ai_seat is None:
                keys.append("during" if _overlaps(busy, move.sent, move.sent + max(took)) else "outside")
            for key in keys:
                pairs[key] += took
                every[key].append(max(took))
    busy_s = sum(stop - start for start, stop in busy)
    levels = sorted({level for _, _, level in turns})
    names = {
        "all": "all",
        "ai_rooms": "rooms_with_an_ai_seat",
        "no_ai_rooms": "rooms_without_ai",
        "during": "rooms_without_ai_while_an_ai_turn_runs_elsewhere",
        "outside": "rooms_without_ai_while_no_ai_turn_runs",
    }
    return {
        "moves": {
            "human": sum(kinds.values()),
            **dict(sorted(kinds.items())),
            "per_second": round(sum(kinds.values()) / played_s, 1) if played_s else 0.0,
            "ai_turns": len(turns),
            "refused_plays": load.stats.refused_plays,
        },
        "push_latency_ms": {
            "pairs": {names[k]: _spread(v) for k, v in pairs.items()},
            "every_seat": {names[k]: _spread(v) for k, v in every.items()},
        },
        "move_answer_ms": _spread(answers),
        "ai_turn_ms": {level: _spread([b - a for a, b, lv in turns if lv == level]) for level in levels},
        "ai_turn_running_share": round(busy_s / played_s, 3) if played_s else 0.0,
        "pushes_never_received": missing,
        "skips": skips(load.rooms),
        "client_loop_lag_ms": _spread(load.lags),
    }


def room_plans(rooms: int, ai_rooms: int, rng: random.Random, levels: tuple[str, ...] = AI_KINDS) -> list[list[str]]:
    """Seat kinds of every room: 2, 3 and 4 seats in turn, ``ai_rooms`` of them (spread by ``rng``)
    with one AI seat (of the ``levels`` in turn) at a random place."""
    sizes = [SEAT_COUNTS[i % len(SEAT_COUNTS)] for i in range(rooms)]
    rng.shuffle(sizes)
    plans = [["human"] * size for size in sizes]
    for n, i in enumerate(sorted(rng.sample(range(rooms), ai_rooms))):
        plans[i][rng.randrange(len(plans[i]))] = levels[n % len(levels)]
    return plans


# -- the server ----------------------------------------------------------------------------------


def start_server(db: Path | str, log: Path, extra: list[str]) -> tuple[subprocess.Popen, str, int]:
    """``rummisolve serve`` of this checkout on a free loopback port; the process, URL and port."""
    port = _free_port()
    command = [sys.executable, "-m", "rummisolve", "serve", "--port", str(port), "--db", str(db)]
    command += ["--no-access-log", "--log-level", "warning", *extra]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    with open(log, "wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with status {proc.returncode}:\n{log.read_text()[-2000:]}")
        try:
            status, _ = request(url, "GET", "/health", None)
            if status == 200:
                return proc, url, port
        except OSError:
            pass
        time.sleep(0.1)
    proc.terminate()
    raise SystemExit("server did not come up within 120 s")


def client_address(i: int) -> str:
    """Room ``i``'s players' loopback address: 127.0.1.1, 127.0.1.2, ... (Linux routes all of 127/8 here)."""
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


def serve_options(plans: list[list[str]], spread: bool) -> list[str]:
    """Caps raised where the run needs more than the defaults allow (without ``spread``, every
    room's players are one client: its share must hold them all)."""
    from rummisolve.server.settings import Settings

    sockets = sum(p.count("human") for p in plans)
    needs = {
        "max_live_rooms": len(plans),
        "max_stored_rooms": 2 * len(plans),  # a round over and dealt again stays one room
        "max_connections": sockets,
    }
    if not spread:
        needs |= {
            "max_client_live_rooms": len(plans),
            "max_client_stored_rooms": 2 * len(plans),
            "max_client_connections": sockets,
            "rooms_per_window": len(plans),
        }
    return [f"--{k.replace('_', '-')}={v}" for k, v in needs.items() if v > getattr(Settings, k)]


def _server_log_problems(log: Path) -> list[str]:
    lines = log.read_text(errors="replace").splitlines()
    return [line for line in lines if "Traceback" in line or "ERROR" in line or "Exception" in line]


# -- main ----------------------------------------------------------------------------------------


async def _run(load: Load, duration: float, pids: list[int], attack: Any = None) -> dict[str, Any]:
    t0 = time.perf_counter()
    attacker = None
    try:
        await asyncio.wait_for(load.setup(), SETUP_TIMEOUT)
        setup_s = time.perf_counter() - t0
        after_setup_kib = [sum(_status_kib(p, "VmRSS") for p in _descendants(pid)) for pid in pids]
        print(
            f"{len(load.rooms)} rooms, {sum(len(r.seats) for r in load.rooms)} WebSockets open in {setup_s:.1f} s; "
            f"playing for {duration:g} s",
            flush=True,
        )
        if attack is not None:
            attacker = attack([room.code for room in load.rooms])
            attacking = asyncio.ensure_future(attacker.run())
        played_s = await load.play(duration)
        if attacker is not None:
            try:
                await asyncio.wait_for(attacking, SETUP_TIMEOUT)
            except TimeoutError:
                load.stats.error(f"the attacker did not finish within {SETUP_TIMEOUT:g} s of the end")
            await attacker.close()
        ended = await load.drain()
        end = time.perf_counter()
        end_kib = [sum(_status_kib(p, "VmRSS") for p in _descendants(pid)) for pid in pids]
    finally:
        await load.close()
    out = figures(load, played_s, end)
    out["setup_s"] = round(setup_s, 1)
    out["played_s"] = round(played_s, 1)
    out["memory_kib"] = {"after_setup": after_setup_kib, "end": end_kib}
    out.update(ended)
    if attacker is not None:
        out["abuse"] = attacker.report()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load_rooms", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=50, help="rooms (default 50)")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play (default 60)")
    parser.add_argument("--ai-rooms", type=int, default=None, help="rooms with one AI seat (default: a fifth)")
    parser.add_argument(
        "--ai-levels",
        default=",".join(AI_KINDS),
        help=f"the AI seats' levels, in turn (default {','.join(AI_KINDS)}; also hard, expert)",
    )
    parser.add_argument(
        "--think", type=float, default=1.0, help="a seat's mean seconds before its move (uniform, 0.5-1.5 times it)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the clients' randomness (the server deals its own)")
    parser.add_argument(
        "--out", default=None, help="JSON file or directory (default benchmarks/results/load_rooms.json)"
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="rummisolve serve processes sharing the database, each on a port of its own; room i is made on "
        "server i and its other seats join (and play) on the next ones, so every move crosses processes (default 1)",
    )
    parser.add_argument(
        "--sticky",
        action="store_true",
        help="with --servers: each room's seats all on the server that made it (a balancer routing by room)",
    )
    parser.add_argument(
        "--db",
        default=None,
        help="the servers' database: a PostgreSQL URL (postgresql://...; a database of its own: the run's rooms "
        "stay in it), else a temporary SQLite file",
    )
    parser.add_argument(
        "--abuse",
        action="store_true",
        help="an attacker client (127.0.0.2) beside the players: rooms, games, code guesses, spectator "
        "sockets and big messages, each loop bounded (benchmarks/abuse.py)",
    )
    parser.add_argument(
        "--abuse-scale", type=float, default=1.0, help="the attacker's budget times this (default 1; the smoke: 0.1)"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.rooms <= MAX_ROOMS:
        parser.error(f"--rooms must be between 1 and {MAX_ROOMS}")
    if args.ai_rooms is None:
        args.ai_rooms = args.rooms // 5
    if not 0 <= args.ai_rooms <= args.rooms:
        parser.error("--ai-rooms must be between 0 and --rooms")
    from rummisolve.game import AI_LEVELS

    levels = tuple(level.strip() for level in args.ai_levels.split(",") if level.strip())
    if not levels or any(level not in AI_LEVELS for level in levels):
        parser.error(f"--ai-levels: a comma-separated list of {', '.join(AI_LEVELS)}")
    if not 0 < args.duration <= MAX_DURATION:
        parser.error(f"--duration must be in (0, {MAX_DURATION:g}] seconds")
    if not 0 <= args.think <= 60:
        parser.error("--think must be in [0, 60] seconds")
    if not 1 <= args.servers <= 8:
        parser.error("--servers must be between 1 and 8")
    out_path = Path(args.out) if args.out else ROOT / "benchmarks" / "results" / "load_rooms.json"
    if out_path.is_dir() or (args.out or "").endswith(os.sep):
        out_path = out_path / "load_rooms.json"
    try:
        import websockets  # noqa: F401  (the server extra)
    except ImportError:
        raise SystemExit("benchmarks.load_rooms needs the 'websockets' package (pip install '.[server]')") from None

    rng = random.Random(args.seed)
    plans = room_plans(args.rooms, args.ai_rooms, rng, levels)
    spread = sys.platform.startswith("linux")  # elsewhere only 127.0.0.1 answers without aliases
    if args.abuse and not spread:
        parser.error("--abuse needs Linux (the attacker and the rooms' players use loopback addresses of their own)")
    options = serve_options(plans, spread)
    attack = None
    if args.abuse:
        from benchmarks.abuse import Attacker, Budget

        full = Budget()
        budget = Budget(
            **{k: max(1, round(v * args.abuse_scale)) for k, v in full.__dict__.items() if k != "big_bytes"},
            big_bytes=full.big_bytes,
        )

        def attack(codes: list[str]) -> Attacker:
            return Attacker("127.0.0.1", port, codes, budget, seed=args.seed)

    with tempfile.TemporaryDirectory(prefix="load_rooms-") as tmp:
        db = args.db or Path(tmp) / "rooms.sqlite3"
        logs = [Path(tmp) / f"server{i}.log" for i in range(args.servers)]
        servers: list[subprocess.Popen] = []
        try:
            ports = []
            for log in logs:
                proc, url, port = start_server(db, log, options)
                servers.append(proc)
                ports.append(port)
            port = ports[0]
            samplers = [MemorySampler(proc.pid, interval=0.1) for proc in servers]
            for sampler in samplers:
                sampler.sample()
            start_kib = [sampler.peak_rss_kib for sampler in samplers]
            for sampler in samplers:
                sampler.start()
            load_before = os.getloadavg()
            cpu_before = [cpu_seconds(proc.pid) for proc in servers]
            client_before = os.times()
            load = Load("127.0.0.1", port, plans, args.think, rng.randrange(2**32), spread, ports, args.sticky)
            try:
                measured = asyncio.run(_run(load, args.duration, [proc.pid for proc in servers], attack))
                server_cpus = [cpu_seconds(proc.pid) - before for proc, before in zip(servers, cpu_before)]
                alive = all(proc.poll() is None for proc in servers)
            finally:
                for sampler in samplers:
                    sampler.stop()
        finally:
            for proc in servers:
                proc.terminate()
            for proc in servers:
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        client = os.times()
        problems = [line for log in logs for line in _server_log_problems(log)]

    stats = load.stats
    memory = measured.pop("memory_kib")
    each = [
        {
            "start_rss": round(start_kib[i] / 1024, 1),
            "after_setup_rss": round(memory["after_setup"][i] / 1024, 1),
            "peak_rss": round(samplers[i].peak_rss_kib / 1024, 1),
            "end_rss": round(memory["end"][i] / 1024, 1),
            "processes": len(samplers[i].hwm_kib),
        }
        for i in range(args.servers)
    ]
    mib: dict[str, Any] = {key: round(sum(e[key] for e in each), 1) for key in each[0]}  # every server's summed
    if args.servers > 1:
        mib["per_server"] = each
    peak_kib = max(sampler.peak_rss_kib for sampler in samplers)
    lost = measured.pop("lost")
    events = {
        "pushes_received": sum(len(c.received) for r in load.rooms for c in r.seats.values()),
        "lost": len(lost),
        "lost_samples": lost[:SAMPLES],
        "duplicates": stats.duplicates,
        "out_of_order": stats.out_of_order,
        "log_mismatches": stats.log_mismatches,
        "skipped_versions": stats.skipped_versions,
        "skipped_after_connecting": measured.pop("skips"),
        "rooms_still_moving_at_the_end": measured.pop("rooms_still_moving"),
        "answers_ahead_of_their_move": stats.answer_ahead,
    }
    if not alive:
        stats.error("the server died during the run")
    invariants_hold = not (
        stats.errors
        or lost
        or stats.duplicates
        or stats.out_of_order
        or stats.log_mismatches
        or measured["pushes_never_received"]
        or events["skipped_after_connecting"]["unexplained"]
    )
    every = measured["push_latency_ms"]["every_seat"]
    report = {
        "rooms": args.rooms,
        "ai_rooms": args.ai_rooms,
        "seats": dict(sorted(Counter(len(p) for p in plans).items())),
        "ai_seats": dict(sorted(Counter(k for p in plans for k in p if k != "human").items())),
        "websockets": sum(p.count("human") for p in plans),
        "duration_s": args.duration,
        "think_s": args.think,
        "seed": args.seed,
        **measured,
        "events": events,
        "server_memory_mib": mib,
        "servers": args.servers,
        "sticky": args.sticky,
        "database": "postgresql" if args.db and args.db.startswith(("postgresql://", "postgres://")) else "sqlite",
        "server_cpu_s": round(sum(server_cpus), 1),
        "server_cpu_s_per_server": [round(c, 1) for c in server_cpus],
        "client_cpu_s": round(client.user + client.system - client_before.user - client_before.system, 1),
        "errors": len(stats.errors),
        "error_samples": stats.errors[:SAMPLES],
        "samples": stats.samples,
        "server_log_problems": len(problems),
        "server_log_samples": problems[:SAMPLES],
        "serve_options": options,
        "invariants_hold": invariants_hold,
        "targets": {
            f"every_seat_p99_under_{TARGET_PUSH_P99_MS:g}_ms": every["all"]["p99"] < TARGET_PUSH_P99_MS,
            "no_lost_or_duplicated_event": invariants_hold,
            f"server_rss_under_{TARGET_MEMORY_MB:g}_mb": peak_kib * 1024 < TARGET_MEMORY_MB * 1e6,  # each server
            f"rooms_without_ai_p99_under_{TARGET_PUSH_P99_MS:g}_ms_during_ai_turns": (
                every["rooms_without_ai_while_an_ai_turn_runs_elsewhere"]["p99"] < TARGET_PUSH_P99_MS
            ),
        },
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "load_average_1min": {"before": round(load_before[0], 2), "after": round(os.getloadavg()[0], 2)},
    }
    if "abuse" in report:
        # Idle: the server with the players' rooms made and their sockets open, before any move and
        # before the attacker; after: at the end, the attacker gone (its sockets closed).
        ratio = round(sum(memory["end"]) / max(1, sum(memory["after_setup"])), 2)
        report["abuse"]["memory_end_over_idle"] = ratio
        report["targets"][f"memory_after_within_{TARGET_ABUSE_MEMORY_RATIO:g}x_idle"] = (
            ratio <= TARGET_ABUSE_MEMORY_RATIO
        )
    text = json.dumps(report, indent=2)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(text + "\n")
    print(_summary(report))
    print(f"written to {out_path}")
    return 0 if invariants_hold else 1


def _summary(report: dict[str, Any]) -> str:
    moves, events, memory = report["moves"], report["events"], report["server_memory_mib"]
    after = events["skipped_after_connecting"]
    lines = [
        f"{report['servers']} server(s) on {report['database']}: "
        f"{report['rooms']} rooms ({report['ai_rooms']} with an AI seat), {report['websockets']} WebSockets, "
        f"{report['played_s']} s: {moves['human']} human moves ({moves['per_second']}/s), {moves['ai_turns']} AI turns "
        f"(one running {100 * report['ai_turn_running_share']:.0f}% of the time)",
        "push latency ms (n p50 p95 p99 max), per (seat, move) | per move, its room's last seat:",
    ]
    pairs, every = report["push_latency_ms"]["pairs"], report["push_latency_ms"]["every_seat"]
    for name in pairs:
        a, b = pairs[name], every[name]
        lines.append(
            f"  {name:50} {a['n']:6} {a['p50']:7} {a['p95']:7} {a['p99']:7} {a['max']:8} | "
            f"{b['n']:5} {b['p50']:7} {b['p99']:7} {b['max']:8}"
        )
    lines += [
        f"views received {events['pushes_received']}: lost {events['lost']}, duplicates {events['duplicates']}, "
        f"out of order {events['out_of_order']}, log mismatches {events['log_mismatches']}, "
        f"skipped {events['skipped_versions']} ({events['skipped_versions'] - after['versions']} while the rooms "
        f"filled; then coalesced {after['coalesced']}, unexplained {after['unexplained']}); "
        f"errors {report['errors']}; "
        f"server log problems {report['server_log_problems']}",
        f"server RSS MiB (all servers): start {memory['start_rss']}, after setup {memory['after_setup_rss']}, "
        f"peak {memory['peak_rss']}, end {memory['end_rss']}; server CPU {report['server_cpu_s']} s, "
        f"clients' {report['client_cpu_s']} s; client loop lag p99 {report['client_loop_lag_ms']['p99']} ms",
        "targets: " + ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in report["targets"].items()),
    ]
    if "abuse" in report:
        abuse = report["abuse"]
        lines.insert(
            -1,
            f"attacker ({abuse['address']}): answers {abuse['answers']}, sockets {abuse['sockets']}, "
            f"{abuse['refusals']} refusals, {abuse['errors']} errors; server RSS end/idle {abuse['memory_end_over_idle']}",
        )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
