"""``StopSignal``: asks a running :func:`~rummisolve.solver.solve` to stop early, from another thread."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["StopSignal"]


class StopSignal:
    """A one-way flag that stops a solve as if its time limit had run out.

    Pass one to :func:`~rummisolve.solver.solve` (``stop=``) and call :meth:`set` from any
    thread: the CP-SAT search under way stops at once (``SolveWrapper.stop_search``) and no
    further search stage starts, so the solve answers ``feasible`` with the best move found so
    far, or ``unknown`` (never ``no_move``: nothing was proven). The HTTP service sets it when
    the client that asked has disconnected. A signal never set changes nothing.
    """

    __slots__ = ("_lock", "_set", "_callbacks")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._set = False
        self._callbacks: list[Callable[[], None]] = []

    def set(self) -> None:
        """Stop the solve; later calls do nothing."""
        with self._lock:
            if self._set:
                return
            self._set = True
            callbacks = list(self._callbacks)
        for callback in callbacks:
            callback()

    def is_set(self) -> bool:
        return self._set

    @contextmanager
    def calling(self, callback: Callable[[], None]) -> Iterator[None]:
        """Within the block, :meth:`set` calls ``callback`` (at once if the signal is already set)."""
        with self._lock:
            already = self._set
            if not already:
                self._callbacks.append(callback)
        if already:
            callback()
        try:
            yield
        finally:
            if not already:
                with self._lock:
                    self._callbacks.remove(callback)

    def __repr__(self) -> str:
        return f"StopSignal({'set' if self._set else 'not set'})"
