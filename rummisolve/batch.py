"""Many positions at once: :func:`solve_many`, and :func:`ordered_map`, a pool of worker processes
that keeps the input order (the CLI's ``solve --workers`` and local tournaments use it too).

One CP-SAT solve uses one core, so a batch gains by solving on every core; each worker process
loads OR-Tools once and then takes position after position. Answers are the same as one by one.

The worker model: the workers never import the caller's ``__main__`` (unlike
:mod:`multiprocessing`, which re-imports the calling script in every worker), so a script read
from standard input, ``python -c``, a notebook and a script without the
``if __name__ == "__main__":`` guard all work. The first pool of a process starts a fork server:
a fresh interpreter (``python -I -c ...`` with the caller's ``sys.path``) that imports the solver
once, runs in a session of its own and stays for the caller's later pools (which then start in
milliseconds). It forks each pool's workers from itself (with the caller's ``sys.path`` and
working directory of the moment); each worker talks to the caller over a pair of pipes:
length-prefixed pickles of ``(function, items)`` one way and of the results the other. A Ctrl-C
at the terminal reaches only the caller, whose pool then has the server kill its workers at
once (so does any other early end: an exception, or a caller that stops reading the results);
when the caller exits, the server kills what is left and exits too. On Windows, which has no
``fork``, each worker is such a fresh interpreter.
"""

from __future__ import annotations

import importlib
import itertools
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
from collections.abc import Callable, Generator, Iterable, Sequence
from contextlib import suppress
from itertools import islice
from pathlib import Path
from queue import SimpleQueue
from typing import IO, TYPE_CHECKING, Any, BinaryIO, Literal, TypeVar, overload

from rummisolve.errors import OptionError, UnavailableError
from rummisolve.position import Position
from rummisolve.solution import AlternativesMode, Objective, Solution

if TYPE_CHECKING:
    import socket  # imported where it is used, to keep ``import rummisolve`` cheap

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
    alternatives_mode: AlternativesMode | str = AlternativesMode.NOT_CONTAINED,
) -> list[Solution]:
    """:func:`rummisolve.solve` on every position, in ``workers`` processes (default: one per
    core); the solutions come back in input order. ``time_limit`` applies to each solve;
    ``alternatives`` and ``alternatives_mode`` are :func:`rummisolve.solve`'s."""
    from rummisolve.solver_limits import check_alternatives_mode, check_objective, check_time_limit

    objective = check_objective(objective)
    check_time_limit(time_limit)
    mode = check_alternatives_mode(alternatives_mode)
    workers = _workers(workers)
    jobs = ((position, objective, time_limit, alternatives, mode) for position in positions)
    return list(ordered_map(_solve, jobs, workers))


def _solve(job: tuple[Position, Objective, float | None, int, AlternativesMode]) -> Solution:
    from rummisolve.solver import solve

    position, objective, time_limit, alternatives, mode = job
    return solve(position, objective, time_limit, alternatives=alternatives, alternatives_mode=mode)


def _workers(workers: int | None) -> int:
    if workers is None:
        return os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise OptionError(f"workers must be a whole number of at least 1, not {workers!r}")
    return workers


def ordered_map(
    function: Callable[[T], R], items: Iterable[T], workers: int, chunk: int = 32
) -> Generator[R, None, None]:
    """``function`` over ``items`` in ``workers`` processes, yielding results in input order.

    Items go to the least busy worker in chunks that start at one item and double up to
    ``chunk`` as the input goes on, so a short input is spread over every worker and a long one
    pays little per item. At most two chunks per worker are in flight, so a long input is never
    read far ahead; a result is yielded as soon as it and every one before it are in. With one
    worker, everything runs here, in order.

    ``function`` must be importable by name (a module-level function of a module, not of the
    ``__main__`` script: the workers never import that), and so must the items' and results'
    types. An exception in ``function`` is raised here (the remote traceback as its cause), and
    the pool is torn down; so it is when the caller stops early (``close()``, Ctrl-C). The
    workers get this process's ``sys.path`` and working directory of the moment, but the
    environment variables of the first pool's start (they are forks of the fork server)."""
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
        self._processes: list[subprocess.Popen] = []  # Windows: the workers themselves
        self._server: _Server | None = None
        self._id = next(_POOL_IDS)
        self._jobs: list[IO[bytes]] = []
        self._results: list[IO[bytes]] = []
        self._closed = False
        try:
            if _FORK:
                self._start_forking(workers)
            else:  # pragma: no cover (Windows)
                flags = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
                for _ in range(workers):
                    process = subprocess.Popen(
                        [*_command(), json.dumps(_config())],
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        bufsize=0,
                        creationflags=flags,
                    )
                    self._processes.append(process)
                    assert process.stdin is not None and process.stdout is not None  # both PIPE
                    self._jobs.append(process.stdin)
                    self._results.append(process.stdout)
        except OSError as err:
            self.kill()
            raise UnavailableError(f"the worker processes could not start: {err}") from None
        except BaseException:
            self.kill()
            raise

    def _start_forking(self, workers: int) -> None:
        ends = []
        try:
            for _ in range(workers):
                job_read, job_write = _pipe()
                result_read, result_write = _pipe()
                ends += [job_read, result_write]
                # unbuffered: select() in ready() then sees every byte not yet read
                self._jobs.append(open(job_write, "wb", buffering=0))  # noqa: SIM115 (closed by kill())
                self._results.append(open(result_read, "rb", buffering=0))  # noqa: SIM115
            self._server = _Server.get()
            request = {"op": "start", "pool": self._id, "path": _config()["path"], "cwd": _cwd()}
            self._server.request(request, ends)
        finally:
            for fd in ends:
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
        processes = [*self._processes, *([self._server.process] if self._server else [])]
        for process in processes:
            with suppress(subprocess.TimeoutExpired):
                process.wait(0.2)
        codes = [process.returncode for process in processes if process.returncode]
        if codes:
            return f"the worker processes could not start or stopped (exit status {codes[0]}; see the messages above)"
        return "a worker process stopped unexpectedly (killed, or out of memory?)"

    def close(self) -> None:
        """End the workers once every answer is in."""
        self.kill()

    def kill(self) -> None:
        """Kill every worker now, and wait until they are gone (a no-op the second time)."""
        if self._closed:
            return
        self._closed = True
        for stream in self._jobs:  # a worker also ends by itself when its job pipe closes
            with suppress(OSError):
                stream.close()
        if self._server is not None:
            self._server.request({"op": "kill", "pool": self._id}, quiet=True)
        for process in self._processes:  # pragma: no cover (Windows)
            with suppress(OSError):
                process.kill()
        for process in self._processes:  # pragma: no cover
            with suppress(OSError, subprocess.TimeoutExpired):
                process.wait(5)
        for stream in self._results:
            with suppress(OSError):
                stream.close()


_POOL_IDS = itertools.count()


def _config() -> dict[str, Any]:
    """What a fresh interpreter needs to import what this one does: its ``sys.path``."""
    path = list(sys.path)
    root = str(Path(__file__).resolve().parent.parent)
    if root not in path:
        path.append(root)
    return {"path": path, "preload": list(PRELOAD)}


def _command() -> list[str]:
    return [sys.executable, "-I", "-c", _BOOT]


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None


class _Server:
    """The fork server of this process: started with the first pool and kept (as
    :mod:`multiprocessing`'s forkserver is), so that a pool after the first starts in
    milliseconds. It forks the workers of each pool from itself, kills them when asked, and when
    this process goes away (its socket closes) kills whatever is left and exits."""

    _lock = threading.Lock()
    _current: _Server | None = None
    _exit_hook = False  # whether atexit stops the current server

    def __init__(self) -> None:
        import socket

        mine, theirs = socket.socketpair()
        try:
            config = {**_config(), "socket": theirs.fileno()}
            self.process = subprocess.Popen(
                [*_command(), json.dumps(config)],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl-C at the terminal is for the caller alone
            )
        except BaseException:
            mine.close()
            raise
        finally:
            theirs.close()
        self.socket = mine
        self.owner = os.getpid()

    @classmethod
    def get(cls) -> _Server:
        with cls._lock:
            server = cls._current
            if server is None or server.owner != os.getpid() or server.process.poll() is not None:
                server = cls._current = _Server()
                if server.owner == os.getpid() and not cls._exit_hook:
                    import atexit

                    atexit.register(cls._stop)
                    cls._exit_hook = True
            return server

    @classmethod
    def _stop(cls) -> None:
        server = cls._current
        if server is not None and server.owner == os.getpid():
            server._drop()
            with suppress(subprocess.TimeoutExpired):
                server.process.wait(2)

    def request(self, message: dict[str, Any], fds: Sequence[int] = (), quiet: bool = False) -> None:
        """Send ``message`` (and ``fds``) and wait for the answer. A server that cannot be
        reached is dropped (it then kills its workers itself); ``quiet``: say nothing of it."""
        import socket

        data = json.dumps(message).encode()
        with self._lock:
            try:
                socket.send_fds(self.socket, [_FRAME.pack(len(data)) + data], list(fds))
                answer = _receive_frame(self.socket)
            except BaseException:
                self._drop()  # a request cut short (Ctrl-C) would leave its answer for the next one
                if quiet:
                    return
                raise
            if answer is None:
                self._drop()
                if not quiet:
                    raise UnavailableError(
                        "the worker processes could not start: the pool's process stopped "
                        f"(exit status {self.process.poll()}; see the messages above)"
                    )

    def _drop(self) -> None:
        with suppress(OSError):
            self.socket.close()
        if _Server._current is self:
            _Server._current = None


@overload
def _receive_frame(sock: socket.socket, with_fds: Literal[False] = False) -> bytes | None: ...
@overload
def _receive_frame(sock: socket.socket, with_fds: Literal[True]) -> tuple[bytes, list[int]] | None: ...
def _receive_frame(sock: socket.socket, with_fds: bool = False) -> bytes | tuple[bytes, list[int]] | None:
    """One length-prefixed frame from a socket (and the descriptors that came with it), or
    ``None`` at its end."""
    import socket

    fds: list[int] = []
    data = b""
    while len(data) < _FRAME.size or len(data) < _FRAME.size + _FRAME.unpack(data[: _FRAME.size])[0]:
        if with_fds:
            part, more, _, _ = socket.recv_fds(sock, 1 << 16, 256)
            fds += more
        else:
            part = sock.recv(1 << 16)
        if not part:
            for fd in fds:
                os.close(fd)
            return None
        data += part
    frame = data[_FRAME.size :]
    return (frame, fds) if with_fds else frame


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


def _write_frame(stream: IO[bytes], data: bytes) -> None:
    view = memoryview(_FRAME.pack(len(data)) + data)
    while view:  # an unbuffered stream may take part of it at a time
        written = stream.write(view)
        view = view[written if written is not None else len(view) :]
    stream.flush()


def _read_frame(stream: IO[bytes]) -> bytes | None:
    """One frame, or ``None`` at the end of the stream (the other end closed or died)."""
    header = _read_exactly(stream, _FRAME.size)
    if header is None:
        return None
    return _read_exactly(stream, _FRAME.unpack(header)[0])


def _read_exactly(stream: IO[bytes], size: int) -> bytes | None:
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
    """The fork server: load the solver once, then fork workers as asked over its socket (or,
    without ``fork``, be one worker on standard input and output)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller decides when workers stop
    for name in config["preload"]:
        with suppress(Exception):  # a job that needs it reports why it cannot be loaded
            importlib.import_module(name)
    if "socket" not in config:  # pragma: no cover (Windows)
        jobs = os.fdopen(os.dup(0), "rb")
        results = os.fdopen(os.dup(1), "wb")
        os.dup2(2, 1)  # stray prints go to standard error, not into the answers
        _work(jobs, results)
        return
    import socket

    sock = socket.socket(fileno=config["socket"])
    pools: dict[int, list[int]] = {}
    while True:
        received = _receive_frame(sock, with_fds=True)
        if received is None:  # the caller is gone
            break
        data, fds = received
        message = json.loads(data)
        if message["op"] == "start":
            pools[message["pool"]] = [_fork_worker(sock, message, fds, index) for index in range(0, len(fds), 2)]
            for fd in fds:
                os.close(fd)
        elif message["op"] == "kill":
            _kill(pools.pop(message["pool"], []))
        sock.sendall(_FRAME.pack(2) + b"ok")
    for pids in pools.values():
        _kill(pids)


def _fork_worker(sock: socket.socket, message: dict[str, Any], fds: list[int], index: int) -> int:
    pid = os.fork()
    if pid:
        return pid
    code = 0  # the worker
    try:
        sock.close()
        for fd in fds[:index] + fds[index + 2 :]:
            os.close(fd)
        sys.path[:] = message["path"]
        if message.get("cwd"):
            with suppress(OSError):
                os.chdir(message["cwd"])
        _work(open(fds[index], "rb"), open(fds[index + 1], "wb"))
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _kill(pids: list[int]) -> None:
    """Kill and reap workers of this server (unreaped children: their ids cannot have been reused)."""
    for pid in pids:
        with suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    for pid in pids:
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
