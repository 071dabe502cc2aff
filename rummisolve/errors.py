"""Every error rummisolve raises, split by cause.

Three families, so that a caller can tell whose problem it is:

- :class:`RummisolveError` (a ``ValueError``): bad input. The message names the bad part.
- :class:`InternalError` (a ``RuntimeError``): a bug in rummisolve, never bad input (please
  report it with the message).
- :class:`UnavailableError` (a ``RuntimeError``): the environment lacks something an optional
  feature needs (a package, a cluster).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "RummisolveError",
    "TileNotationError",
    "TileRangeError",
    "RuleSetError",
    "InvalidMeldError",
    "TileCountError",
    "JsonInputError",
    "OptionError",
    "RefereeLimitError",
    "IllegalTurnError",
    "IllegalMoveError",
    "GameStateError",
    "TableEditError",
    "UnknownPlayerError",
    "GameLogError",
    "SettingsError",
    "GameDatabaseError",
    "InternalError",
    "RefereeRejectedError",
    "ConservationError",
    "DecodeError",
    "UnavailableError",
    "RayUnavailableError",
]

# -- bad input ------------------------------------------------------------------------------------


class RummisolveError(ValueError):
    """Base class of every error rummisolve raises for bad input."""


class TileNotationError(RummisolveError):
    """A tile code that is not valid notation (e.g. ``'X5'`` or ``'R'``)."""


class TileRangeError(RummisolveError):
    """A well-formed tile that does not exist under the rule set (e.g. ``'R14'`` in the standard game)."""


class RuleSetError(RummisolveError):
    """An unknown preset, an unknown option, or an option value out of range."""


class InvalidMeldError(RummisolveError):
    """A tile sequence that is neither a valid run nor a valid group.

    ``reason`` is a short machine-readable code (see :data:`rummisolve.melds.MELD_REASONS`).
    """

    def __init__(self, message: str, reason: str, tiles: tuple = ()) -> None:
        super().__init__(message)
        self.reason = reason
        self.tiles = tiles


class TileCountError(RummisolveError):
    """More copies of a tile (or more jokers) than the rule set has."""


class JsonInputError(RummisolveError):
    """JSON input of the wrong shape or type; the message names the offending path."""


class OptionError(RummisolveError):
    """An option out of range: an unknown objective, a negative or non-finite time limit, a bad width."""


class RefereeLimitError(RummisolveError):
    """A turn the referee could not judge within the search steps its caller allowed."""


class _RejectedByReferee(RummisolveError):
    """A turn the referee rejected: ``verdict`` carries every reason."""

    def __init__(self, message: str, verdict: Any = None) -> None:
        super().__init__(message)
        self.verdict = verdict

    @property
    def reasons(self) -> tuple:
        return tuple(getattr(self.verdict, "reasons", ()))

    @property
    def codes(self) -> tuple[str, ...]:
        """The referee's reason codes, in order."""
        return tuple(r.code for r in self.reasons)


class IllegalTurnError(_RejectedByReferee):
    """A turn to explain that the referee rejects; the message lists its reasons."""


class IllegalMoveError(_RejectedByReferee):
    """A play the referee rejected; the game state is unchanged."""


class GameStateError(RummisolveError):
    """An action that does not fit the game's state (the round is over, nothing to undo, ...)."""


class TableEditError(RummisolveError):
    """An edit of a tentative table that cannot be made (no such meld, a tile not on the rack, ...)."""


class UnknownPlayerError(RummisolveError):
    """A player kind that does not exist."""


class GameLogError(RummisolveError):
    """A game log that cannot be analysed (no such game or player, a rule the analysis does not cover)."""


class SettingsError(RummisolveError):
    """A server setting out of range (from the command line or a ``RUMMISOLVE_*`` variable)."""


class GameDatabaseError(RummisolveError):
    """A saved-games database file that cannot be used (not SQLite, damaged, a directory, another program's)."""


# -- bugs -----------------------------------------------------------------------------------------


class InternalError(RuntimeError):
    """A bug in rummisolve, never bad input: please report it with its message."""


class RefereeRejectedError(InternalError):
    """The solver produced an arrangement the referee rejects."""


class ConservationError(InternalError):
    """Tiles were lost or duplicated: pool + racks + table no longer equal the full set."""


class DecodeError(InternalError):
    """A solver solution whose counts cannot be laid out as melds."""


# -- the environment ------------------------------------------------------------------------------


class UnavailableError(RuntimeError):
    """Something an optional feature needs is missing: a package, a cluster."""


class RayUnavailableError(UnavailableError):
    """Ray is not installed or the cluster cannot be reached."""
