"""Worker processes for the server's heavy work: :class:`WorkerPool`, a few processes that each
run one job at a time, every job under a hard deadline.

A job is a module-level function and its arguments (both pickled to the worker). A worker that
passes a job's deadline, or runs a job whose client has gone (:meth:`Job.cancel`), is killed and
replaced by a fresh one, so nothing a job does (parsing, model building, search, decoding,
refereeing) can outlive its deadline; a queued job that is cancelled is dropped before it starts.
Each worker is forked from a server (``forkserver``) that imported the solver once, and solves a
small position before its first job, so it starts warm.

One thread of the server's process watches each worker: it sends a job, then waits for the answer,
the deadline, the cancellation or the worker's death. The server's event loop never waits on a
worker: :meth:`WorkerPool.run` awaits the job's future, and a game thread may block on
:meth:`WorkerPool.call`.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import multiprocessing
import multiprocessing.spawn as mp_spawn
import os
import signal
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Future
from multiprocessing.connection import Connection, wait
from typing import Any, ClassVar

__all__ = ["WorkerPool", "Job", "PoolFull", "JobDeadline", "JobCancelled", "WorkerFailed", "PRELOAD"]

log = logging.getLogger("rummisolve.server")

PRELOAD = ["rummisolve.server.worker_jobs"]
"""Modules the fork server imports once (the solver with them), so every worker starts with them."""

_POLL = 0.05
"""Seconds between a watching thread's looks at a running job's cancellation."""

_context_lock = threading.Lock()
_context: Any = None


def _mp_context() -> Any:
    """The ``forkserver`` context (``spawn`` where there is none), its preload set once."""
    global _context
    with _context_lock:
        if _context is None:
            if "forkserver" in multiprocessing.get_all_start_methods():
                _context = multiprocessing.get_context("forkserver")
                _context.set_forkserver_preload(PRELOAD)
            else:  # pragma: no cover - not Linux
                _context = multiprocessing.get_context("spawn")
        return _context


class PoolFull(Exception):
    """Every worker of a pool is busy and its queue is full; ``message`` names the limit."""

    def __init__(self, pool: WorkerPool) -> None:
        self.pool = pool
        self.retry_after = pool.retry_after
        self.message = (
            f"server busy: every worker process of the {pool.name} lane ({pool.workers}, {pool.workers_setting}) "
            f"is taken and its queue is full ({pool.queue_setting} = {pool.max_queued}); "
            f"retry after {pool.retry_after} s"
        )
        super().__init__(self.message)


class JobDeadline(Exception):
    """A job that passed its hard deadline: its worker was killed (``message`` names the limit)."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self.deadline = job.deadline
        self.retry_after = max(1, round(job.deadline))
        self.message = (
            f"{job.what} passed its deadline of {job.deadline:g} s ({job.limit}) and was stopped; "
            f"retry after {self.retry_after} s, or ask for less"
        )
        super().__init__(self.message)


class JobCancelled(Exception):
    """A running job whose client had gone: its worker was killed (nobody reads this)."""


class WorkerFailed(Exception):
    """A worker died during a job, or its answer could not be sent back (a bug: answered 500)."""


class Job:
    """One job on a pool: ``fn(*args)`` in a worker, within ``deadline`` seconds of its start.

    ``what`` names it and ``limit`` its deadline's setting in messages; ``future`` holds the answer,
    a :class:`JobDeadline`, or the job's own exception."""

    def __init__(
        self, pool: WorkerPool, fn: Callable[..., Any], args: tuple[Any, ...], deadline: float, what: str, limit: str
    ) -> None:
        self.pool = pool
        self.fn = fn
        self.args = args
        self.deadline = deadline
        self.what = what
        self.limit = limit
        self.future: Future = Future()
        self.submitted = time.monotonic()
        self.started: float | None = None
        self.pid: int | None = None
        """The worker process that runs it (once started)."""
        self.cancelled = False

    @property
    def waited(self) -> float:
        """Seconds the job waited for a worker (so far, if it has not started)."""
        return (self.started if self.started is not None else time.monotonic()) - self.submitted

    def cancel(self) -> None:
        """Drop the job if queued; kill its worker if running (the client has gone)."""
        self.pool._cancel(self)


@contextlib.contextmanager
def _without_main() -> Iterator[None]:
    """Start processes that do not import the server's ``__main__`` (a script's, pytest's): a
    worker needs only its jobs' modules, and a script's top level must not run again in each."""
    real = mp_spawn.get_preparation_data

    def preparation(name: str) -> dict[str, Any]:
        data = real(name)
        data.pop("init_main_from_name", None)
        data.pop("init_main_from_path", None)
        data.pop("main_path", None)
        return data

    with _context_lock:
        mp_spawn.get_preparation_data = preparation
        try:
            yield
        finally:
            mp_spawn.get_preparation_data = real


class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self, nice: int) -> None:
        ctx = _mp_context()
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker_main, args=(child, nice), daemon=True, name="rummisolve-worker")
        with _without_main():
            self.process.start()
        child.close()
        self.pid = self.process.pid
        self.ready = False

    def wait_ready(self) -> bool:
        """Wait for the worker's warm-up (its first message); whether it came up."""
        try:
            while not self.ready:
                if wait([self.conn, self.process.sentinel], 120) and self.conn.poll():
                    self.ready = self.conn.recv() == "ready"
                else:
                    return False
        except (EOFError, OSError):
            return False
        return True

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(10)
        self.conn.close()


class WorkerPool:
    """``workers`` worker processes and a queue of at most ``max_queued`` jobs waiting for one.

    ``name`` names the lane in messages, ``workers_setting`` and ``queue_setting`` the settings
    that size it; ``retry_after`` is the seconds a refusal asks to wait; ``nice``: how much lower
    the workers run (Linux nice increment). The workers start with the first job, or :meth:`start`.

    Pools are shared within a process (:meth:`shared`): apps of the same settings in one process
    (tests, mostly) use the same workers, which end with the process."""

    def __init__(
        self,
        name: str,
        workers: int,
        max_queued: int,
        *,
        retry_after: int,
        workers_setting: str,
        queue_setting: str,
        nice: int = 0,
    ) -> None:
        self.name = name
        self.workers = workers
        self.max_queued = max_queued
        self.retry_after = retry_after
        self.workers_setting = workers_setting
        self.queue_setting = queue_setting
        self.nice = nice
        self._lock = threading.Condition()
        self._queue: deque[Job] = deque()
        self._running: set[Job] = set()
        self._closed = False
        self.counts = {
            "started": 0,
            "done": 0,
            "refused": 0,
            "cancelled": 0,
            "killed_deadline": 0,
            "killed_cancelled": 0,
            "died": 0,
        }
        self.pids: list[int | None] = [None] * workers
        self.last_pid: int | None = None
        """The worker process that ran the latest job."""
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        """Start the workers (the first job starts them too), each watched by a thread of its own."""
        with self._lock:
            if self._threads or self._closed:
                return
            self._threads = [
                threading.Thread(target=self._watch, args=(i,), name=f"rummisolve-{self.name}-{i}", daemon=True)
                for i in range(self.workers)
            ]
            for thread in self._threads:
                thread.start()

    _shared: ClassVar[dict[tuple[Any, ...], list[Any]]] = {}
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    @classmethod
    def shared(cls, name: str, workers: int, max_queued: int, **options: Any) -> WorkerPool:
        """The process's pool of these parameters (made the first time); give it back with :meth:`release`."""
        key = (name, workers, max_queued, *sorted(options.items()))
        with cls._shared_lock:
            entry = cls._shared.get(key)
            if entry is None or entry[0]._closed:
                entry = cls._shared[key] = [cls(name, workers, max_queued, **options), 0]
            entry[1] += 1
            return entry[0]

    def release(self) -> None:
        """Let go of a pool from :meth:`shared`. The pool stays for the process's next app of the
        same settings (tests make many); its workers end with the process (:func:`_shutdown_all`)."""
        with self._shared_lock:
            for entry in self._shared.values():
                if entry[0] is self:
                    entry[1] = max(0, entry[1] - 1)

    # -- submitting --------------------------------------------------------------------------------

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...], deadline: float, what: str, limit: str) -> Job:
        """Queue ``fn(*args)``; :class:`PoolFull` if every worker is busy and the queue is full."""
        self.start()
        with self._lock:
            if self._closed or len(self._running) + len(self._queue) >= self.workers + self.max_queued:
                self.counts["refused"] += 1
                raise PoolFull(self)
            job = Job(self, fn, args, deadline, what, limit)
            self._queue.append(job)
            self._lock.notify()
        return job

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...], deadline: float, what: str, limit: str) -> Any:
        """``fn(*args)`` in a worker, waited for here (from a thread, never the event loop)."""
        return self.submit(fn, args, deadline, what, limit).future.result()

    async def run(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        deadline: float,
        what: str,
        limit: str,
        gone: Callable[[], Awaitable[None]] | None = None,
    ) -> tuple[Job, Any]:
        """The job and ``fn(*args)``'s answer, awaited; ``(job, None)`` once ``gone()`` (the client
        disconnecting) completes first: the job is then cancelled. Cancelling the awaiting task
        cancels the job too."""
        job = self.submit(fn, args, deadline, what, limit)
        answer = asyncio.wrap_future(job.future)
        watcher = asyncio.ensure_future(gone()) if gone is not None else None
        try:
            await asyncio.wait([answer] if watcher is None else [answer, watcher], return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            job.cancel()
            raise
        finally:
            if watcher is not None:
                watcher.cancel()
        if answer.done():
            return job, answer.result()
        job.cancel()
        answer.add_done_callback(_log_failure)
        return job, None

    def _cancel(self, job: Job) -> None:
        with self._lock:
            if job.future.done() or job.cancelled:
                return
            job.cancelled = True
            if job in self._queue:
                self._queue.remove(job)
                self.counts["cancelled"] += 1
                job.future.cancel()
            # a running job: its watching thread sees the flag, kills the worker and counts it

    # -- the watching threads ------------------------------------------------------------------------

    def _watch(self, index: int) -> None:
        worker: _Worker | None = None
        try:
            while True:
                if worker is None:
                    worker = self._start_worker(index)
                    if worker is None:
                        return
                with self._lock:
                    while not self._queue and not self._closed:
                        self._lock.wait()
                    if self._closed:
                        return
                    job = self._queue.popleft()
                    job.started = time.monotonic()
                    job.pid = self.last_pid = worker.pid
                    self._running.add(job)
                    self.counts["started"] += 1
                if not job.future.set_running_or_notify_cancel():  # pragma: no cover - cancelled under the lock
                    with self._lock:
                        self._running.discard(job)
                    continue
                if not self._run(worker, job):  # killed before the job counts as done: busy 0 means gone
                    worker.kill()
                    worker = None
                with self._lock:
                    self._running.discard(job)
                    self.counts["done"] += 1
        finally:
            if worker is not None:
                worker.kill()

    def _start_worker(self, index: int) -> _Worker | None:
        while True:
            with self._lock:
                if self._closed:
                    return None
            try:
                worker = _Worker(self.nice)
            except OSError:
                log.exception("the %s lane could not start a worker process", self.name)
                time.sleep(1)
                continue
            if worker.wait_ready():
                self.pids[index] = worker.pid
                return worker
            log.error("a worker process of the %s lane did not come up; starting another", self.name)
            worker.kill()
            time.sleep(0.5)

    def _run(self, worker: _Worker, job: Job) -> bool:
        """Run ``job`` on ``worker``; whether the worker may take another job."""
        assert job.started is not None
        try:
            worker.conn.send((job.fn, job.args))
        except Exception as err:  # e.g. arguments that do not pickle: a bug of the caller's
            job.future.set_exception(WorkerFailed(f"{job.what}: could not be sent to a worker ({err})"))
            return not isinstance(err, OSError)
        end = job.started + job.deadline
        while True:
            left = end - time.monotonic()
            if job.cancelled:
                with self._lock:
                    self.counts["killed_cancelled"] += 1
                job.future.set_exception(JobCancelled(f"{job.what}: its client has gone"))
                return False
            if left <= 0:
                with self._lock:
                    self.counts["killed_deadline"] += 1
                log.warning("%s passed its deadline of %g s: worker %s killed", job.what, job.deadline, worker.pid)
                job.future.set_exception(JobDeadline(job))
                return False
            ready = wait([worker.conn, worker.process.sentinel], min(left, _POLL))
            if worker.conn in ready:
                try:
                    kind, value = worker.conn.recv()
                except (EOFError, OSError) as err:
                    ready = [worker.process.sentinel]
                    log.error("worker %s: its answer was lost (%s)", worker.pid, err)
                else:
                    if kind == "ok":
                        job.future.set_result(value)
                    else:
                        job.future.set_exception(value)
                    return True
            if worker.process.sentinel in ready:
                with self._lock:
                    self.counts["died"] += 1
                job.future.set_exception(WorkerFailed(f"{job.what}: its worker process died"))
                return False

    # -- load and shutdown ---------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {
                "workers": self.workers,
                "busy": len(self._running),
                "queued": len(self._queue),
                **self.counts,
                "pids": [p for p in self.pids if p is not None],
                "last_pid": self.last_pid,
            }

    def shutdown(self) -> None:
        """Drop the queued jobs and kill the workers (a running job's future gets no answer)."""
        with self._lock:
            self._closed = True
            for job in self._queue:
                job.future.cancel()
            self._queue.clear()
            running = list(self._running)
            self._lock.notify_all()
        for job in running:
            job.cancelled = True
        for thread in self._threads:
            thread.join(15)


@atexit.register
def _shutdown_all() -> None:
    """At exit: every shared pool's workers killed, its queued jobs dropped."""
    with WorkerPool._shared_lock:
        pools = [entry[0] for entry in WorkerPool._shared.values()]
        WorkerPool._shared.clear()
    for pool in pools:
        pool.shutdown()


def _log_failure(answer: asyncio.Future) -> None:
    """An abandoned job's failure (other than its cancellation) is still a bug to report."""
    err = None if answer.cancelled() else answer.exception()
    if err is not None and not isinstance(err, JobCancelled | JobDeadline):
        log.error("internal error in a job whose client had gone", exc_info=(type(err), err, err.__traceback__))


# -- inside a worker process -------------------------------------------------------------------------


def _worker_main(conn: Connection, nice: int) -> None:
    """A worker: warm up, say so, then run jobs one at a time until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops its workers itself
    if nice and sys.platform.startswith("linux"):
        try:
            os.nice(nice)
        except OSError:  # pragma: no cover - not permitted here
            pass
    from rummisolve.server import worker_jobs

    worker_jobs.warm_up()
    try:
        conn.send("ready")
        while True:
            fn, args = conn.recv()
            try:
                message = ("ok", fn(*args))
            except Exception as err:  # the job's own error: the caller answers it
                message = ("error", _portable(err))
            try:
                conn.send(message)
            except (OSError, EOFError):
                raise
            except Exception as err:  # an answer that does not pickle: a bug
                conn.send(("error", WorkerFailed(f"the answer could not be sent back ({err})")))
            worker_jobs.after_job()
    except (EOFError, OSError, KeyboardInterrupt):  # the server has gone, or let go of this worker
        return


def _portable(err: Exception) -> Exception:
    """``err`` if it survives pickling whole, else a :class:`WorkerFailed` with its traceback."""
    import pickle

    try:
        copy = pickle.loads(pickle.dumps(err))
        if type(copy) is type(err) and str(copy) == str(err):
            return err
    except Exception:
        pass
    text = "".join(traceback.format_exception(err))
    return WorkerFailed(f"{type(err).__name__}: {err}\n{text}")
