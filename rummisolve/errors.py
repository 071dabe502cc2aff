"""Errors raised by rummisolve, split by cause. All are ``ValueError`` subclasses."""

from __future__ import annotations


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
    """A solver option out of range: an unknown objective, a negative or non-finite time limit."""


class RefereeLimitError(RummisolveError):
    """A turn the referee could not judge within the search steps its caller allowed."""


class RefereeRejectedError(RuntimeError):
    """The solver produced an arrangement the referee rejects: a bug in rummisolve, never bad input."""
