"""Many positions at once: :func:`solve_many`, and :func:`ordered_map`, a pool of worker processes
that keeps the input order (the CLI's ``solve --workers`` and local tournaments use it too).

One CP-SAT solve uses one core, so a batch gains by solving on every core; each worker process
loads OR-Tools once and then takes position after position. Answers are the same as one by one.

The worker model: the workers never import the caller's ``__main__`` (unlike
:mod:`multiprocessing`, which re-imports the calling script in every worker), so a script read
from standard input, ``python -c``, a notebook and a script without the
``if __name__ == "__main__":`` guard all work. A pool is one fresh interpreter, started as
``python -I -c ...`` with the caller's ``sys.path``, that imports the solver once and then forks
the workers from itself (on Windows, which has no ``fork``, each worker is such an interpreter).
Each worker talks to the caller over a pair of pipes: length-prefixed pickles of
``(function, items)`` one way and of the results the other. The pool runs in a session of its own,
so a Ctrl-C at the terminal reaches only the caller, which kills the whole pool at once (and so
does any other early end: an exception, or a caller that stops reading the results).
"""

from __future__ import annotations

import importlib
import json
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import threading
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from itertools import islice
from pathlib import Path
from queue import SimpleQueue
from typing import Any, BinaryIO, TypeVar

from rummisolve.errors import OptionError, UnavailableError
from rummisolve.position import Position
from rummisolve.solution import Objective, Solution

__all__ = ["solve_many", "ordered_map"]

T = TypeVar("T")
R = TypeVar("R")

PRELOAD = ("rummisolve.solver",)
"""What a pool imports once before it starts its workers (OR-Tools is most of a worker's start)."""


def solve_many(
    positions: Iterable[Position],
    objective: Objective | str = Objective.TILES,
    time_limit: float | None = None,
    *,
    workers: int | None = None,
    alternatives: int = 0,
) -> list[Solution]:
    """:func:`rummisolve.solve` on every position, in ``workers`` processes (default: one per
    core); the solutions come back in input order. ``time_limit`` applies to each solve."""
    from rummisolve.solver_limits import check_objective, check_time_limit

    objective = check_objective(objective)
    check_time_limit(time_limit)
    workers = _workers(workers)
    jobs = ((position, objective, time_limit, alternatives) for position in positions)
    return list(ordered_map(_solve, jobs, workers))


def _solve(job: tuple[Position, Objective, float | None, int]) -> Solution:
    from rummisolve.solver import solve

    position, objective, time_limit, alternatives = job
    return solve(position, objective, time_limit, alternatives=alternatives)


def _workers(workers: int | None) -> int:
    if workers is None:
        return os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise OptionError(f"workers must be a whole number of at least 1, not {workers!r}")
    return workers


def ordered_map(function: Callable[[T], R], items: Iterable[T], workers: int, chunk: int = 32) -> Iterator[R]:
    """``function`` over ``items`` in ``workers`` processes, yielding results in input order.

    Items go to the least busy worker in chunks that start at one item and double up to
    ``chunk`` as the input goes on, so a short input is spread over every worker and a long one
    pays little per item. At most two chunks per worker are in flight, so a long input is never
    read far ahead; a result is yielded as soon as it and every one before it are in. With one
    worker, everything runs here, in order.

    ``function`` must be importable by name (a module-level function of a module, not of the
    ``__main__`` script: the workers never import that), and so must the items' and results'
    types. An exception in ``function`` is raised here (the remote traceback as its cause), and
    the pool is torn down; so it is when the caller stops early (``close()``, Ctrl-C)."""
    if workers <= 1:
        yield from map(function, items)
        return
    _check_importable(function)
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise OptionError(f"chunk must be a whole number of at least 1, not {chunk!r}")
    items = iter(items)
    pool = _Pool(workers)
    try:
        pending: deque[int] = deque()  # the worker of each chunk in flight, oldest first
        load = [0] * workers
        size, sent, exhausted = 1, 0, False
        while True:
            while not exhausted and len(pending) < 2 * workers:
                batch = list(islice(items, size))
                if not batch:
                    exhausted = True
                    break
                worker = min(range(workers), key=load.__getitem__)
                pool.send(worker, function, batch)
                load[worker] += 1
                pending.append(worker)
                sent += 1
                if sent % (2 * workers) == 0:
                    size = min(chunk, 2 * size)
                while pending and pool.ready(pending[0]):  # answer what is in without waiting
                    load[pending[0]] -= 1
                    yield from pool.receive(pending.popleft())
            if not pending:
                break
            load[pending[0]] -= 1
            yield from pool.receive(pending.popleft())
        pool.close()
    finally:
        pool.kill()


def _check_importable(function: Callable[..., Any]) -> None:
    module = getattr(function, "__module__", None)
    name = getattr(function, "__qualname__", repr(function))
    if module == "__main__" or module is None or "<" in name:
        where = "the __main__ script" if module == "__main__" else "no importable module"
        raise OptionError(
            f"worker processes run a function by its module and name, and {name} is from {where}: "
            "pass a module-level function of an importable module, or use one worker"
        )


# -- the pool ------------------------------------------------------------------------------------

_FRAME = struct.Struct(">Q")
_FORK = os.name != "nt" and hasattr(os, "fork")
_BOOT = (
    "import json, sys; config = json.loads(sys.argv[1]); sys.path[:] = config['path']; "
    "from rummisolve.batch import _serve; _serve(config)"
)


class _RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker (the ``__cause__`` of the one raised here)."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0])


class _Pool:
    """``workers`` worker processes, each fed jobs over a pipe and answering over another."""

    def __init__(self, workers: int) -> None:
        if not sys.executable:
            raise UnavailableError("the worker processes could not start: no Python executable (sys.executable)")
        path = list(sys.path)
        root = str(Path(__file__).resolve().parent.parent)
        if root not in path:
            path.append(root)
        config: dict[str, Any] = {"path": path, "preload": list(PRELOAD)}
        command = [sys.executable, "-I", "-c", _BOOT]
        self._processes: list[subprocess.Popen] = []
        self._jobs: list[BinaryIO] = []
        self._results: list[BinaryIO] = []
        self._closed = False
        try:
            if _FORK:
                self._start_forking(workers, command, config)
            else:  # pragma: no cover (Windows)
                flags = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
                for _ in range(workers):
                    process = subprocess.Popen(
                        [*command, json.dumps(config)],
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        bufsize=0,
                        creationflags=flags,
                    )
                    self._processes.append(process)
                    self._jobs.append(process.stdin)
                    self._results.append(process.stdout)
        except OSError as err:
            self.kill()
            raise UnavailableError(f"the worker processes could not start: {err}") from None
        except BaseException:
            self.kill()
            raise

    def _start_forking(self, workers: int, command: list[str], config: dict[str, Any]) -> None:
        ends = []
        for _ in range(workers):
            job_read, job_write = _pipe()
            result_read, result_write = _pipe()
            ends.append((job_read, result_write))
            # unbuffered: select() in ready() then sees every byte not yet read
            self._jobs.append(open(job_write, "wb", buffering=0))  # noqa: SIM115 (closed by close() or kill())
            self._results.append(open(result_read, "rb", buffering=0))  # noqa: SIM115
        config["workers"] = ends
        try:
            self._processes.append(
                subprocess.Popen(
                    [*command, json.dumps(config)],
                    pass_fds=[fd for pair in ends for fd in pair],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    start_new_session=True,  # a Ctrl-C at the terminal is for the caller alone
                )
            )
        finally:
            for pair in ends:
                for fd in pair:
                    os.close(fd)

    def send(self, worker: int, function: Callable[[Any], Any], batch: list[Any]) -> None:
        data = pickle.dumps((function, batch), pickle.HIGHEST_PROTOCOL)
        try:
            _write_frame(self._jobs[worker], data)
        except (BrokenPipeError, ConnectionResetError):
            raise UnavailableError(self._failure()) from None

    def ready(self, worker: int) -> bool:
        """Whether ``worker`` has (the start of) an answer waiting."""
        if not _FORK:  # pragma: no cover (select() takes no pipes on Windows)
            return False
        return bool(select.select([self._results[worker]], [], [], 0)[0])

    def receive(self, worker: int) -> list[Any]:
        """The results of ``worker``'s oldest chunk, or its exception raised here."""
        data = _read_frame(self._results[worker])
        if data is None:
            raise UnavailableError(self._failure())
        reply = pickle.loads(data)
        if reply[0]:
            return reply[1]
        error = reply[1]
        error.__cause__ = _RemoteTraceback(reply[2])
        raise error

    def _failure(self) -> str:
        for process in self._processes:
            with suppress(subprocess.TimeoutExpired):
                process.wait(0.5)
        codes = [process.returncode for process in self._processes if process.returncode]
        if codes:
            return f"the worker processes could not start or stopped (exit status {codes[0]}; see the messages above)"
        return "a worker process stopped unexpectedly (killed, or out of memory?)"

    def close(self) -> None:
        """End the workers once every answer is in: they exit when their job pipe closes."""
        for stream in self._jobs:
            with suppress(OSError):
                stream.close()
        for process in self._processes:
            with suppress(subprocess.TimeoutExpired):
                process.wait(5)
        self.kill()

    def kill(self) -> None:
        """Kill every worker now (a no-op once they are gone)."""
        if self._closed:
            return
        self._closed = True
        for process in self._processes:
            if process.returncode is None:
                with suppress(OSError):
                    if _FORK:
                        os.killpg(process.pid, signal.SIGKILL)  # the pool's process and its workers
                    else:  # pragma: no cover
                        process.kill()
        for process in self._processes:
            with suppress(OSError, subprocess.TimeoutExpired):
                process.wait(5)
        for stream in (*self._jobs, *self._results):
            with suppress(OSError):
                stream.close()


def _pipe() -> tuple[int, int]:
    """A pipe whose ends are not 0, 1 or 2 (any of those closed would be reused, and the pool's
    process sets its own standard streams over them)."""
    ends = []
    for fd in os.pipe():
        if fd <= 2:
            import fcntl

            moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
            os.close(fd)
            fd = moved
        ends.append(fd)
    return ends[0], ends[1]


def _write_frame(stream: BinaryIO, data: bytes) -> None:
    view = memoryview(_FRAME.pack(len(data)) + data)
    while view:  # an unbuffered stream may take part of it at a time
        written = stream.write(view)
        view = view[written if written is not None else len(view) :]
    stream.flush()


def _read_frame(stream: BinaryIO) -> bytes | None:
    """One frame, or ``None`` at the end of the stream (the other end closed or died)."""
    header = _read_exactly(stream, _FRAME.size)
    if header is None:
        return None
    return _read_exactly(stream, _FRAME.unpack(header)[0])


def _read_exactly(stream: BinaryIO, size: int) -> bytes | None:
    parts, missing = [], size
    while missing:
        part = stream.read(missing)
        if not part:
            return None
        parts.append(part)
        missing -= len(part)
    return b"".join(parts) if len(parts) != 1 else parts[0]


# -- inside the pool's processes -----------------------------------------------------------------


def _serve(config: dict[str, Any]) -> None:
    """The pool's process: load the solver once, then fork one worker per pipe pair and wait for
    them (or, without ``fork``, be the one worker on standard input and output)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller decides when the pool stops
    for name in config["preload"]:
        with suppress(Exception):  # a job that needs it reports why it cannot be loaded
            importlib.import_module(name)
    if "workers" not in config:  # pragma: no cover (Windows)
        jobs = os.fdopen(os.dup(0), "rb")
        results = os.fdopen(os.dup(1), "wb")
        os.dup2(2, 1)  # stray prints go to standard error, not into the answers
        _work(jobs, results)
        return
    ends = [tuple(pair) for pair in config["workers"]]
    children = []
    for job_read, result_write in ends:
        pid = os.fork()
        if pid == 0:  # a worker
            code = 0
            try:
                for pair in ends:
                    for fd in pair:
                        if fd not in (job_read, result_write):
                            with suppress(OSError):
                                os.close(fd)
                _work(open(job_read, "rb"), open(result_write, "wb"))
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        os.close(job_read)
        os.close(result_write)
        children.append(pid)
    for pid in children:
        with suppress(ChildProcessError):
            os.waitpid(pid, 0)


def _work(jobs: BinaryIO, results: BinaryIO) -> None:
    """Answer job frames in order until the job pipe closes."""
    queue: SimpleQueue[bytes] = SimpleQueue()

    def read() -> None:
        # Jobs are read as they come, so that a large job never waits on a large answer being read.
        while True:
            data = _read_frame(jobs)
            if data is None:  # the caller is done (every answer read) or gone: stop at once
                os._exit(0)
            queue.put(data)

    threading.Thread(target=read, daemon=True).start()
    while True:
        data = queue.get()
        try:
            function, batch = pickle.loads(data)
            reply: tuple = (True, [function(item) for item in batch])
        except BaseException as err:  # noqa: BLE001 (reported to the caller, which raises it)
            reply = (False, _portable(err), traceback.format_exc())
        try:
            answer = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
        except Exception as err:  # noqa: BLE001 (an answer that cannot be pickled)
            answer = pickle.dumps((False, RuntimeError(f"a worker's answer cannot be sent: {err}"), ""))
        _write_frame(results, answer)


def _portable(err: BaseException) -> BaseException:
    """``err`` if it survives pickling, else a RuntimeError that says what it was."""
    try:
        pickle.loads(pickle.dumps(err, pickle.HIGHEST_PROTOCOL))
        return err
    except Exception:  # noqa: BLE001
        return RuntimeError(f"{type(err).__name__}: {err}")
