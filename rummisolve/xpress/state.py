"""Immutable Xpress game states and a seat's view of them.

A die is named ``D1``..``D18`` at the edges (the API, the log, the view) and numbered 0..17 inside a
state. What a die shows is its face index (0..5 into :attr:`~rummisolve.xpress.dice.Die.faces`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile
from rummisolve.xpress.dice import DiceError, Die, FreeDie, die_named, xpress_dice

__all__ = ["XpressState", "XpressView", "die_name", "die_number", "face_of"]


def die_name(die: int) -> str:
    """``"D1"`` for die 0."""
    return xpress_dice()[die].name or f"D{die + 1}"


def die_number(name: str) -> int:
    """0 for ``"D1"`` (case-insensitive); :class:`DiceError` for a name that is no die."""
    return xpress_dice().index(die_named(name))


def face_of(die: int, face: int) -> Tile:
    """The tile die ``die`` shows with face ``face`` up."""
    return xpress_dice()[die].faces[face]


@dataclass(frozen=True)
class XpressState:
    """One moment of a game: each seat's free dice (``hands``, die numbers in order), what every die
    shows (``faces``, by die number), the table and the die of each of its tiles (``table_dice``,
    meld by meld), how often each die has been rolled, and whose turn it is.

    ``rolled``: the player to move has used the turn's roll (a roll of no dice counts).
    ``passes``: turns in a row in which no die was played (``3 * players`` of them end the game).
    """

    rules: RuleSet
    hands: tuple[tuple[int, ...], ...]
    faces: tuple[int, ...]
    table: tuple[Meld, ...]
    table_dice: tuple[tuple[int, ...], ...]
    rolls: tuple[int, ...]
    opened: tuple[bool, ...]
    current: int
    turn: int = 0
    rolled: bool = False
    passes: int = 0
    winner: int | None = None
    end_reason: str | None = None
    """``None`` while the game runs; ``"out"`` (a hand emptied) or ``"blocked"`` (three rounds
    without a die played; ``winner`` ``None`` on equal totals, a draw)."""

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def finished(self) -> bool:
        return self.end_reason is not None

    def shown(self, die: int) -> Tile:
        """The tile die ``die`` shows."""
        return face_of(die, self.faces[die])

    @property
    def racks(self) -> tuple[tuple[Tile, ...], ...]:
        """Each seat's free dice as the tiles they show, in the order of ``hands``."""
        return tuple(tuple(self.shown(d) for d in hand) for hand in self.hands)

    @property
    def table_tiles(self) -> tuple[Tile, ...]:
        return tuple(t for meld in self.table for t in meld.tiles)

    def holder(self, die: int) -> int | None:
        """The seat holding die ``die`` free, or ``None`` when it is on the table."""
        return next((s for s, hand in enumerate(self.hands) if die in hand), None)

    def position(self, seat: int | None = None) -> Position:
        """The position of ``seat`` (default: the player to move): the table and the faces its free dice show."""
        seat = self.current if seat is None else seat
        return Position(self.table, self.racks[seat], self.opened[seat], self.rules)

    def totals(self) -> tuple[int, ...]:
        """What each seat's free dice count against it (a number its value, a joker face the joker penalty)."""
        return tuple(self.rules.rack_value(rack) for rack in self.racks)


@dataclass(frozen=True)
class XpressView(PlayerView):
    """What ``seat`` sees: everything (the dice are rolled in the open), in the tile game's terms
    (``rack``: its free dice's faces, ``position``: its position) plus the dice.

    ``dice``: the seat's free dice, by name, in the order of ``rack``; ``hands`` and ``racks``:
    every seat's free dice and what they show; ``table_dice``: the die of each table tile, meld by
    meld; ``rolled``: whether the seat, to move, has used this turn's roll; ``passes``: turns in a
    row without a die played; ``mover``: the seat to move; ``pool_size`` is always 0."""

    dice: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    racks: tuple[tuple[Tile, ...], ...] = ()
    table_dice: tuple[tuple[str, ...], ...] = ()
    rolled: bool = False
    passes: int = 0
    mover: int = 0

    @property
    def pieces(self) -> tuple[str, str]:
        """A seat's rack is the faces its free dice show: ``die``, ``dice``."""
        return ("die", "dice")

    @property
    def has_pool(self) -> bool:
        return False

    @property
    def rack_heading(self) -> str:
        """``your dice (9)``: the faces the free dice show; opened unless the rules set a threshold."""
        return f"your dice ({len(self.rack)}{'' if self.opened else ', not opened yet'})"

    @property
    def continues_turn(self) -> bool:
        """Whether the seat has begun its turn already (it rolled): the next answer finishes it."""
        return self.rolled

    @property
    def free_dice(self) -> tuple[FreeDie, ...]:
        """The seat's free dice and their faces, as :func:`~rummisolve.xpress.best_reroll` takes them."""
        return tuple(FreeDie(die_named(name), face) for name, face in zip(self.dice, self.rack, strict=True))

    def die(self, index: int) -> Die:
        """The die at ``index`` of :attr:`dice`."""
        return die_named(self.dice[index])

    def names_of(self, indices: Sequence[int]) -> tuple[str, ...]:
        """The names of the free dice at ``indices`` of :attr:`dice`."""
        for i in indices:
            if not 0 <= i < len(self.dice):
                raise DiceError(f"no free die {i}: seat {self.seat} has {len(self.dice)} free dice")
        return tuple(self.dice[i] for i in sorted(set(indices)))
