"""The Xpress dice (RULES 5.3): the table D1..D18 as package data, and a player's free dice."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

from rummisolve.errors import RummisolveError
from rummisolve.tiles import Tile

__all__ = [
    "Die",
    "FreeDie",
    "DiceError",
    "xpress_dice",
    "die_names",
    "die_named",
    "custom_die",
    "FACES",
    "XPRESS_DICE",
]

FACES = 6
"""Faces of every die."""


class DiceError(RummisolveError, ValueError):
    """Bad dice: an unknown die name, a face the die does not have, a die claimed twice, too many dice."""


@dataclass(frozen=True)
class Die:
    """One die: its name (``"D3"``, or ``None`` for a custom die) and its six faces in order."""

    faces: tuple[Tile, ...]
    name: str | None = None

    def __post_init__(self) -> None:
        if len(self.faces) != FACES:
            raise DiceError(f"die {self.label}: expected {FACES} faces, got {len(self.faces)}")

    @property
    def label(self) -> str:
        """The name, or the faces of a custom die."""
        return self.name if self.name is not None else "{" + " ".join(map(str, self.faces)) + "}"


@dataclass(frozen=True)
class FreeDie:
    """A die of the player's not on the table, and the face it shows."""

    die: Die
    shown: Tile

    def __post_init__(self) -> None:
        if self.shown not in self.die.faces:
            raise DiceError(f"die {self.die.label} has no face {self.shown} (its faces: {_faces(self.die)})")


def _faces(die: Die) -> str:
    return " ".join(map(str, die.faces))


@functools.cache
def xpress_dice() -> tuple[Die, ...]:
    """The 18 dice D1..D18, read once from the package data ``dice.txt``."""
    text = resources.files("rummisolve.xpress").joinpath("dice.txt").read_text(encoding="utf-8")
    dice = []
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            name, *codes = line.split()
            dice.append(Die(tuple(Tile.parse(code) for code in codes), name))
    return tuple(dice)


def die_names() -> tuple[str, ...]:
    """``("D1", ..., "D18")``."""
    return tuple(die.name or "" for die in xpress_dice())


def die_named(name: str) -> Die:
    """The die called ``name`` (``"D7"``, case-insensitive); :class:`DiceError` if there is none."""
    for die in xpress_dice():
        if isinstance(name, str) and die.name == name.upper():
            return die
    raise DiceError(f"unknown die {name!r} (the dice are D1..D{len(xpress_dice())})")


def custom_die(faces: tuple[Tile, ...]) -> Die:
    """A die of the given six faces (not one of D1..D18)."""
    return Die(tuple(faces))


XPRESS_DICE: tuple[tuple[Tile, ...], ...] = tuple(die.faces for die in xpress_dice())
"""The faces of D1..D18, in table order (also ``rummisolve.XPRESS_DICE``)."""
