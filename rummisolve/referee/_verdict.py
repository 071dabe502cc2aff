"""The referee's ruling: the reason codes, :class:`Reason`, :class:`Verdict`, and the helpers
that word the reasons' messages. Part of the referee (:mod:`rummisolve.referee`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rummisolve.tiles import Tile, format_tiles

REASONS: dict[str, str] = {
    "bad_tile": "a tile that does not exist under the rule set",
    "invalid_meld": "a meld on the new table that is not a valid run, group or (Twist) mirror meld",
    "tile_vanished": "a tile of the old table is missing from the new table",
    "tile_not_on_rack": "a tile on the new table that is neither on the old table nor on the rack",
    "no_tile_played": "no tile from the rack was played",
    "no_tile_to_discard": "the play emptied the rack, leaving no tile to discard (the discard rule)",
    "opening_below_threshold": "the initial meld is worth less than the rules' threshold",
    "opening_touched_table": "the initial meld used or rearranged the table's melds",
    "joker_in_opening": "a joker from the rack was played in the initial meld, which the rules forbid",
    "joker_retrieval": "a table joker was moved or freed against the strict joker rule",
}
"""Every reason code :func:`~rummisolve.referee.verify` uses, with its meaning."""


@dataclass(frozen=True)
class Reason:
    """Why a turn is illegal: a code from :data:`REASONS`, a message naming the meld or tile, and
    the index into the new table of the meld concerned (``None`` when it concerns no single one)."""

    code: str
    message: str
    meld: int | None = None

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


@dataclass(frozen=True)
class Verdict:
    """The referee's ruling: ``legal``, every reason it is not, and the rack tiles the turn played
    (sorted). ``bool(verdict)`` is ``verdict.legal``."""

    legal: bool
    reasons: tuple[Reason, ...] = ()
    played: tuple[Tile, ...] = ()

    def __post_init__(self) -> None:
        if self.legal == bool(self.reasons):
            raise ValueError("a verdict is legal exactly when it has no reasons")

    def __bool__(self) -> bool:
        return self.legal

    @property
    def codes(self) -> tuple[str, ...]:
        """The reason codes, in order."""
        return tuple(r.code for r in self.reasons)

    def __str__(self) -> str:
        if self.legal:
            return f"legal turn: played {format_tiles(self.played) or '(nothing)'}"
        return "illegal turn:\n" + "\n".join(f"  {r}" for r in self.reasons)


def plural(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and ``word``, in the plural (``plural``, else ``word + "s"``) unless ``n`` is 1."""
    return f"{n} {word}" if n == 1 else f"{n} {plural or word + 's'}"


def names(tiles: Iterable[Tile]) -> str:
    """The tiles' codes, sorted."""
    return format_tiles(sorted(tiles))
