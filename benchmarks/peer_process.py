"""rummikub-solver in a child process of its own, fed blocks of solves over a pipe.

The benchmark runner times rummisolve in its own process and the peer here, taking turns: the
peer's numerical libraries (and their threads) never load into the process that times ours."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from benchmarks.build import position_of
from benchmarks.judge import judge

__all__ = ["PeerProcess", "peer_row"]


def peer_row(peers: dict, record: dict, objective: str) -> dict[str, Any]:
    """The peer's answer to one stored position, timed and judged (``peers``: its solver per rule set)."""
    from benchmarks.peer import PeerSolver, unsupported_reason

    position = position_of(record)
    reason = unsupported_reason(position.rules)
    if reason is not None:
        return {"outcome": "unsupported", "detail": reason, "ms": None}
    if position.rules not in peers:
        peers[position.rules] = PeerSolver(position.rules)
    answer = peers[position.rules].solve(position, objective)
    row: dict[str, Any] = {"ms": answer.seconds * 1000, "cpu_ms": answer.cpu_seconds * 1000, "status": answer.status}
    if answer.status == "error":
        row.update(outcome="error", detail=answer.detail)
        return row
    moved = answer.status == "move"
    row["outcome"], row["detail"] = judge(
        position, objective, record["optimum"][objective], moved, answer.played, answer.table
    )
    if answer.detail:
        row["detail"] = (row["detail"] + " " + answer.detail).strip()
    return row


class PeerProcess:
    """rummikub-solver in a child process of its own, fed blocks of solves over a pipe.

    Its numerical libraries (and their threads) never load into the process that times
    rummisolve; while it waits for the next block it takes no CPU."""

    def __init__(self) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")  # a fresh interpreter, not a copy of ours
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_peer_worker, args=(child,), name="rummikub-solver", daemon=True)
        self._process.start()
        child.close()
        # Wait until it has loaded its libraries: the machine's two cores may share one physical
        # core, so a child still starting up beside our first solves slowed them about 2x.
        self._receive()

    def _receive(self) -> Any:
        try:
            kind, reply = self._conn.recv()
        except EOFError:
            raise RuntimeError(f"the peer's process ended unexpectedly (exit code {self._process.exitcode})") from None
        if kind == "error":
            raise RuntimeError(f"the peer's process failed:\n{reply}")
        return reply

    def _ask(self, request: tuple[str, Any]) -> Any:
        self._conn.send(request)
        return self._receive()

    def solve(self, jobs: Sequence[tuple[dict, str]]) -> list[dict[str, Any]]:
        """One row per (record, objective), as :func:`peer_row` makes them."""
        return self._ask(("solve", list(jobs)))

    def setup(self) -> dict[str, Any]:
        """The peer's version, backend and one-off costs (model set-up, first solves)."""
        return self._ask(("setup", None))

    def close(self) -> None:
        if self._process.is_alive():
            try:
                self._conn.send(None)
            except OSError:
                pass
            self._process.join(timeout=10)
            if self._process.is_alive():
                self._process.kill()
        self._conn.close()


def _peer_worker(conn) -> None:
    """The child process's loop: solve the blocks it is sent until it is sent ``None``.

    It ignores Ctrl-C (the parent handles it and closes the child) and ends quietly if the parent
    is gone."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _serve(conn)
    except (EOFError, BrokenPipeError):
        pass
    finally:
        conn.close()


def _serve(conn) -> None:
    import traceback

    try:
        import rummikub_solver  # noqa: F401  (load it now, not during our first solves)
    except Exception:
        conn.send(("error", traceback.format_exc()))
        return
    conn.send(("ok", "ready"))
    peers: dict = {}
    while (request := conn.recv()) is not None:
        kind, payload = request
        try:
            if kind == "solve":
                reply: Any = [peer_row(peers, record, objective) for record, objective in payload]
            else:
                reply = _peer_setup(peers)
        except Exception:  # a bug in the adapter: report it, do not hang the parent
            conn.send(("error", traceback.format_exc()))
            continue
        conn.send(("ok", reply))


def _peer_setup(peers: dict) -> dict[str, Any]:
    if not peers:
        return {}
    from benchmarks import peer as peer_mod

    return {
        "peer_version": peer_mod.version(),
        "peer_backend": next(iter(peers.values())).backend,
        "peer_setup_s": {repr(r): p.setup_seconds for r, p in peers.items()},
        "peer_warmup_s": {repr(r): p.warmup_seconds for r, p in peers.items()},
    }
