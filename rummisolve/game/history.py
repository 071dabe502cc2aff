"""A game's history with undo and redo, shared by the tile game's engine
(:class:`~rummisolve.game.engine.Game`) and the dice game's
(:class:`~rummisolve.xpress.game.XpressGame`): the states since the deal, one per event, the
events, and the events undone that can be redone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from rummisolve.errors import GameStateError, JsonInputError

__all__ = ["History"]


class _State(Protocol):
    @property
    def current(self) -> int: ...

    @property
    def finished(self) -> bool: ...

    @property
    def winner(self) -> int | None: ...


class _Json(Protocol):
    def to_json(self) -> dict[str, Any]: ...


S = TypeVar("S", bound=_State)
E = TypeVar("E", bound=_Json)
D = TypeVar("D", bound=_Json)


class History(Generic[S, E, D]):
    """The reading, undo, redo and log of a game whose states are ``S``, events ``E`` and deal
    ``D``; a subclass sets :attr:`deal`, starts it (:meth:`_start`) and applies events
    (:meth:`_apply`)."""

    deal: D
    nothing_to_undo = "nothing to undo"
    """The error's message when nothing can be undone."""

    def _start(self, initial: S) -> None:
        self._states: list[S] = [initial]
        self._events: list[E] = []
        self._redo: list[E] = []

    def _apply(self, event: E, where: str = "move") -> object:
        """Apply one event: the new state and the event are recorded (a subclass checks them)."""
        raise NotImplementedError

    def _undone(self) -> None:
        """After an undo (a subclass restarts its turn's clock, say)."""

    # -- reading --------------------------------------------------------------------------------

    @property
    def state(self) -> S:
        """The current state (an immutable snapshot)."""
        return self._states[-1]

    @property
    def states(self) -> tuple[S, ...]:
        """Every state since the deal, one per event."""
        return tuple(self._states)

    @property
    def events(self) -> tuple[E, ...]:
        return tuple(self._events)

    @property
    def current(self) -> int:
        return self.state.current

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def winner(self) -> int | None:
        """The winner once the game is over (``None`` before, and on a draw)."""
        return self.state.winner

    # -- undo / redo -----------------------------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        return bool(self._events)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> E:
        """Take back the last event; return it."""
        if not self._events:
            raise GameStateError(self.nothing_to_undo)
        event = self._events.pop()
        self._states.pop()
        self._redo.append(event)
        self._undone()
        return event

    def redo(self) -> E:
        """Apply the last event undone again; return it."""
        if not self._redo:
            raise GameStateError("nothing to redo")
        event = self._redo.pop()
        self._apply(event)
        return event

    # -- the log and saves -----------------------------------------------------------------------

    def log(self) -> list[dict[str, Any]]:
        """The event log as JSON objects: the deal, then one object per event."""
        return [self.deal.to_json()] + [e.to_json() for e in self._events]

    def _saved(self, format_name: str, version: int) -> dict[str, Any]:
        """A saved game: the log plus the events undone that can still be redone."""
        return {
            "format": format_name,
            "version": version,
            "log": self.log(),
            "redo": [e.to_json() for e in reversed(self._redo)],
        }

    def _restore_redo(self, obj: dict[str, Any], parse: Callable[[Any, str], E], what: str) -> None:
        """The redo list of a saved game ``obj`` (``what``: how errors name it)."""
        redo = obj.get("redo", [])
        if not isinstance(redo, list):
            raise JsonInputError(f"{what}.redo: expected an array of events")
        self._redo = [parse(e, f"redo[{i}]") for i, e in enumerate(redo)][::-1]
