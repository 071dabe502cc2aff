"""Solver lanes: bounded thread pools for solves, and the solves whose client has gone.

A lane is a pool of solver threads with a bounded queue in front of it: past its threads plus
``max_queued`` solves, :meth:`Lane.submit` refuses (:class:`LaneFull`; the service answers 503).
The service keeps two lanes, so that a small solve never waits behind big ones: light solves
(:meth:`Lanes.lane_for`: few tiles in play, no alternatives) have their own threads.
:meth:`Lanes.run` awaits a solve unless the client disconnects first: then a queued solve is
cancelled before it starts, and a running one is stopped through its
:class:`~rummisolve.solver.StopSignal`.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import sys
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from rummisolve.server.memory import release_free_memory
from rummisolve.server.settings import Settings

__all__ = ["Lane", "LaneFull", "Lanes"]

log = logging.getLogger("rummisolve.server")

Job = Callable[[Any, Any], dict[str, Any]]
"""A solve: ``job(body, stop)`` returns the result object."""


class LaneFull(Exception):
    """A lane whose threads are all busy and whose queue is full; ``message`` names the limit."""

    def __init__(self, lane: Lane) -> None:
        self.lane = lane
        self.retry_after = lane.retry_after
        self.message = (
            f"server busy: every solver thread of the {lane.name} lane ({lane.threads}) is taken and its queue "
            f"is full ({lane.limit} = {lane.max_queued}); retry after {lane.retry_after} s"
        )
        super().__init__(self.message)


class Lane:
    """``threads`` solver threads and a queue of at most ``max_queued`` solves waiting for one
    (``limit``: the setting that says so, for messages)."""

    def __init__(
        self,
        name: str,
        threads: int,
        max_queued: int,
        retry_after: int,
        limit: str,
        nice: int = 0,
        *,
        when_idle: Callable[[], object] | None = None,
    ) -> None:
        self.name = name
        self.threads = threads
        self.max_queued = max_queued
        self.retry_after = retry_after
        self.limit = limit
        self._executor = ThreadPoolExecutor(
            threads, thread_name_prefix=f"rummisolve-{name}", initializer=_lower_priority, initargs=(nice,)
        )
        self._lock = threading.Lock()
        self._running = 0
        self._queued = 0
        self._started = 0
        self._when_idle = when_idle

    def submit(self, job: Job, body: Any, stop: Any) -> Future:
        """Queue ``job(body, stop)``; :class:`LaneFull` if the threads and the queue are all taken."""
        with self._lock:
            if self._running + self._queued >= self.threads + self.max_queued:
                raise LaneFull(self)
            self._queued += 1
        try:
            future = self._executor.submit(self._run, job, body, stop)
        except BaseException:
            with self._lock:
                self._queued -= 1
            raise
        future.add_done_callback(self._settle)
        return future

    def _run(self, job: Job, body: Any, stop: Any) -> dict[str, Any]:
        with self._lock:
            self._queued -= 1
            self._running += 1
            self._started += 1
        try:
            return job(body, stop)
        finally:
            with self._lock:
                self._running -= 1

    def _settle(self, future: Future) -> None:
        """Runs once ``future`` is done (its answer already on its way): in the solver thread
        that ran it, or where it was cancelled."""
        with self._lock:
            if future.cancelled():  # taken off the queue before a thread started it
                self._queued -= 1
            idle = self._running == 0 and self._queued == 0
        if idle and self._when_idle is not None and not future.cancelled():
            self._when_idle()

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return {"running": self._running, "queued": self._queued, "started": self._started}

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


class Lanes:
    """The heavy lane and (with ``light_solver_threads``) the light lane, with counts for /health."""

    def __init__(self, settings: Settings) -> None:
        self.light_max_tiles = settings.light_max_tiles
        # A running heavy solve ends within the time cap; a light one within moments.
        cap = math.ceil(settings.max_time_limit)
        self.heavy = Lane(
            "heavy",
            settings.solver_threads,
            settings.max_queued_solves,
            cap,
            "max_queued_solves",
            settings.heavy_nice,
            when_idle=release_free_memory,  # after a burst of big models, not after every small solve
        )
        self.light = None
        if settings.light_solver_threads:
            queue = settings.max_queued_light_solves
            self.light = Lane("light", settings.light_solver_threads, queue, 1, "max_queued_light_solves")
        self.refused = 0
        self.cancelled = 0
        self.stopped = 0

    def lane_for(self, tiles_in_play: int, body: Any = None) -> Lane:
        """The lane for a /solve ``body`` of ``tiles_in_play`` tiles: light if it has at most
        ``light_max_tiles`` tiles in play and asks for no alternatives, else heavy.

        The work a solve takes is set by its size and by how many searches it makes: one, or up to
        ``alternatives + 1``, each proven (10 alternatives of a position of at most 160 tiles took up
        to 1 s on one core, 10-100 times one solve), so a request with alternatives would hold a
        light thread for many light solves' time. The time limit is no measure of it: every request
        without one gets the cap (a rule on the clamped limit would send them all to the heavy lane,
        or none), and one search of a light position ends long before any limit. A request whose
        ``alternatives`` is no positive number is refused at once by ``solve_json`` in either lane
        (or asks for none): it stays light."""
        if self.light is None or tiles_in_play > self.light_max_tiles or _asks_for_alternatives(body):
            return self.heavy
        return self.light

    async def run(self, lane: Lane, job: Job, body: Any, gone: Callable[[], Awaitable[None]]) -> dict[str, Any] | None:
        """``job(body, stop)`` on ``lane`` with a fresh :class:`~rummisolve.solver.StopSignal`, or
        ``None`` if ``gone()`` (the client disconnecting) completes first.

        Then the solve is taken off the queue if no thread has started it (counted as cancelled),
        else its stop signal is set (counted as stopped). :class:`LaneFull` if the lane is full."""
        from rummisolve.solver import StopSignal  # loaded with the solver (the app warms it up first)

        stop = StopSignal()
        try:
            future = lane.submit(job, body, stop)
        except LaneFull:
            self.refused += 1
            raise
        answer = asyncio.wrap_future(future)
        watcher = asyncio.ensure_future(gone())
        try:
            await asyncio.wait((answer, watcher), return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # the request task itself was cancelled (server shutting down)
            self._abandon(future, stop, answer)
            raise
        finally:
            watcher.cancel()
        if answer.done():
            return answer.result()
        self._abandon(future, stop, answer)
        return None

    def _abandon(self, future: Future, stop: Any, answer: asyncio.Future) -> None:
        if future.cancel():
            self.cancelled += 1
        elif not future.done():
            stop.set()
            self.stopped += 1
        answer.add_done_callback(_log_failure)

    def snapshot(self) -> dict[str, Any]:
        lanes = {"light": {"running": 0, "queued": 0, "started": 0}, "heavy": self.heavy.snapshot()}
        if self.light is not None:
            lanes["light"] = self.light.snapshot()
        return {
            "running": sum(lane["running"] for lane in lanes.values()),
            "queued": sum(lane["queued"] for lane in lanes.values()),
            "started": sum(lane["started"] for lane in lanes.values()),
            "refused": self.refused,
            "cancelled": self.cancelled,
            "stopped": self.stopped,
            **lanes,
        }

    def shutdown(self) -> None:
        for lane in (self.heavy, self.light):
            if lane is not None:
                lane.shutdown()


def _asks_for_alternatives(body: Any) -> bool:
    """Whether a /solve body asks for at least one alternative (``alternatives`` a positive number)."""
    wanted = body.get("alternatives") if isinstance(body, dict) else None
    return isinstance(wanted, int | float) and not isinstance(wanted, bool) and wanted > 0


def _lower_priority(increment: int) -> None:
    """Runs first in each thread of a lane. On Linux every thread has its own nice value: raised,
    the heavy lane's searches give way to light solves and to the event loop on a busy CPU."""
    if increment and sys.platform.startswith("linux"):
        thread = threading.get_native_id()
        try:
            os.setpriority(os.PRIO_PROCESS, thread, min(19, os.getpriority(os.PRIO_PROCESS, thread) + increment))
        except OSError:  # not permitted here: run at the usual priority
            pass


def _log_failure(answer: asyncio.Future) -> None:
    """An abandoned solve's failure is still a bug to report (nobody else will see it)."""
    err = None if answer.cancelled() else answer.exception()
    if err is not None:
        log.error("internal error in a solve whose client had gone", exc_info=(type(err), err, err.__traceback__))
