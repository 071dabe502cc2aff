"""Each client's share of the server: who a request's client is, and the limits on how fast one
client may make things and how many jobs it may hold (docs/web.md, "Limits").

- **Who.** :func:`client_key`: the owner a valid token proves (``owner:<hash>``), else the
  client's address (``addr:<host>``). Caps on what a client *holds* (live rooms and games,
  WebSockets, heavy jobs) count per key. Rate limits count per address (:func:`client_address`),
  since a new owner token costs nothing.
- **How fast.** :class:`RateLimit`: at most ``limit`` events per client in any ``window`` seconds
  (new rooms, new games, failed room-code guesses); past it :class:`RateLimited`, a 429 with
  ``Retry-After`` naming the limit and its setting.
- **How many at once.** :class:`ClientCounter`: things a client holds at once (heavy jobs queued
  or running); past the cap a 429. The lanes' callers hold one per job::

      with state.quotas.jobs.hold(client_address(request)):
          result = await state.lanes.run(...)

Both are per worker process and bounded in memory (at most :data:`MAX_CLIENTS` clients tracked).
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from starlette.requests import HTTPConnection

from rummisolve.server.requests import BadRequest
from rummisolve.server.settings import Settings

__all__ = [
    "RateLimit",
    "RateLimited",
    "ClientCounter",
    "Quotas",
    "client_key",
    "client_address",
    "MAX_CLIENTS",
]

MAX_CLIENTS = 100_000
"""Clients a limiter tracks at once; past it the one quiet longest is forgotten."""


def client_address(conn: HTTPConnection) -> str:
    """``addr:<host>``: the address the connection comes from (the proxy's, unless the server
    trusts its ``X-Forwarded-For``: ``serve --trust-proxy``)."""
    client = conn.client
    return f"addr:{client.host if client is not None else 'unknown'}"


def client_key(conn: HTTPConnection, owner: str | None) -> str:
    """``owner:<hash>`` for a connection whose token proves ``owner`` (a hash from the store), else
    its address."""
    return f"owner:{owner}" if owner is not None else client_address(conn)


class RateLimited(BadRequest):
    """Past a rate limit: 429 with ``Retry-After`` (whole seconds) and a message naming the setting."""

    def __init__(self, message: str, retry_after: float) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__(429, f"{message}; try again in {seconds} s", {"Retry-After": str(seconds)})
        self.retry_after = seconds


class RateLimit:
    """At most ``limit`` events per client in any ``window`` seconds (a sliding window)."""

    def __init__(
        self, limit: int, window: float, what: str, setting: str, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self.what = what
        """What is counted, in words ("new rooms"): the refusal names it."""
        self.setting = setting
        self.clock = clock
        self._lock = threading.Lock()
        self._events: OrderedDict[str, deque[float]] = OrderedDict()

    def _recent(self, client: str, now: float) -> deque[float]:
        events = self._events.get(client)
        if events is None:
            return deque()
        while events and events[0] <= now - self.window:
            events.popleft()
        if not events:
            del self._events[client]
        return events

    def _refuse_at_limit(self, events: deque[float], now: float) -> None:
        if len(events) >= self.limit:
            raise RateLimited(
                f"too many {self.what} from this client: at most {self.limit} in {self.window:g} s "
                f"({self.setting}, rate_window_seconds)",
                events[0] + self.window - now,
            )

    def check(self, client: str) -> None:
        """:class:`RateLimited` if ``client`` is at its limit now; nothing is counted."""
        with self._lock:
            now = self.clock()
            self._refuse_at_limit(self._recent(client, now), now)

    def note(self, client: str) -> None:
        """Count one event of ``client`` now."""
        with self._lock:
            self._note(client, self.clock())

    def take(self, client: str) -> None:
        """:meth:`check`, then :meth:`note`, at once."""
        with self._lock:
            now = self.clock()
            self._refuse_at_limit(self._recent(client, now), now)
            self._note(client, now)

    def _note(self, client: str, now: float) -> None:
        events = self._recent(client, now)
        if not events:
            self._events[client] = events
        events.append(now)
        self._events.move_to_end(client)
        while len(events) > self.limit:  # never keep more than the limit needs
            events.popleft()
        while len(self._events) > MAX_CLIENTS:
            self._events.popitem(last=False)

    def clients(self) -> int:
        """Clients tracked now (memory bound: :data:`MAX_CLIENTS`)."""
        with self._lock:
            return len(self._events)


class ClientCounter:
    """Things each client holds at once, at most ``limit`` (heavy jobs queued or running)."""

    def __init__(self, limit: int, what: str, setting: str) -> None:
        self.limit = limit
        self.what = what
        self.setting = setting
        self._lock = threading.Lock()
        self._held: dict[str, int] = {}

    def acquire(self, client: str) -> None:
        """Count one more for ``client``; :class:`~rummisolve.server.requests.BadRequest` (429) past the limit."""
        with self._lock:
            held = self._held.get(client, 0)
            if held >= self.limit:
                raise BadRequest(
                    429,
                    f"this client has {held} {self.what} at once, the most allowed ({self.setting}): "
                    "wait for one to finish",
                    {"Retry-After": "1"},
                )
            self._held[client] = held + 1

    def release(self, client: str) -> None:
        with self._lock:
            held = self._held.get(client, 0) - 1
            if held > 0:
                self._held[client] = held
            else:
                self._held.pop(client, None)

    @contextlib.contextmanager
    def hold(self, client: str) -> Iterator[None]:
        """Hold one for the block (see :meth:`acquire`)."""
        self.acquire(client)
        try:
            yield
        finally:
            self.release(client)

    def held(self, client: str) -> int:
        with self._lock:
            return self._held.get(client, 0)


@dataclass
class Quotas:
    """The server's per-client limiters, from :class:`~rummisolve.server.settings.Settings`."""

    rooms: RateLimit
    games: RateLimit
    guesses: RateLimit
    jobs: ClientCounter

    @classmethod
    def build(cls, settings: Settings, clock: Callable[[], float] = time.monotonic) -> Quotas:
        window = settings.rate_window_seconds
        return cls(
            rooms=RateLimit(settings.rooms_per_window, window, "new rooms", "rooms_per_window", clock),
            games=RateLimit(settings.games_per_window, window, "new games", "games_per_window", clock),
            guesses=RateLimit(
                settings.code_guesses_per_window,
                window,
                "requests naming rooms that do not exist",
                "code_guesses_per_window",
                clock,
            ),
            jobs=ClientCounter(
                settings.max_client_jobs, "heavy jobs (solves, replays) queued or running", "max_client_jobs"
            ),
        )
