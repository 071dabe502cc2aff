"""The referee's step budget: how many more search steps judging a turn may take (``max_steps``
of :func:`~rummisolve.referee.verify`). Part of the referee (:mod:`rummisolve.referee`)."""

from __future__ import annotations

from rummisolve.errors import RefereeLimitError


class Budget:
    """Search steps the referee may still take (``None``: no limit)."""

    __slots__ = ("limit", "left")

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.left = limit

    def spend(self) -> None:
        """Take one step; past the limit, :class:`~rummisolve.errors.RefereeLimitError`."""
        if self.left is None:
            return
        self.left -= 1
        if self.left < 0:
            raise RefereeLimitError(
                f"table: judging this turn takes more than the {self.limit:,} search steps allowed "
                "(the initial meld under open_then_manipulate, or the strict joker rule, over many tiles or jokers)"
            )
