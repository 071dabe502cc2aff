"""Colours and tiles, with the notation used everywhere: ``R7``, ``B13``, ``K1``, ``O5``, ``J``.

Parsing is case-insensitive and accepts ``Y`` (yellow) for orange; printing is canonical
upper case, so ``str(Tile.parse(s))`` round-trips every canonical code. A tile's identity
never depends on a rule set: ``R7`` is the red seven in every game.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable

from rummisolve.errors import TileNotationError

__all__ = ["Colour", "Tile", "JOKER", "parse_tiles", "format_tiles", "split_melds", "TILE_CODE_PATTERN"]


class Colour(enum.Enum):
    """A tile colour. The first four are the standard set; the rest serve generalised play."""

    BLACK = "K"
    BLUE = "B"
    ORANGE = "O"
    RED = "R"
    GREEN = "G"
    PURPLE = "P"
    WHITE = "W"
    CYAN = "C"

    @property
    def letter(self) -> str:
        """The one-letter code used in tile notation."""
        return self.value

    @property
    def index(self) -> int:
        """Position in the canonical colour order (0 = black)."""
        return _COLOUR_INDEX[self]

    @classmethod
    def from_letter(cls, letter: str) -> Colour:
        """The colour for a letter (case-insensitive; ``Y`` is orange)."""
        try:
            return _COLOUR_BY_LETTER[letter.upper()]
        except (KeyError, AttributeError):
            raise TileNotationError(f"unknown colour letter {letter!r}") from None

    def __repr__(self) -> str:
        return f"Colour.{self.name}"


_COLOURS = tuple(Colour)
_COLOUR_INDEX = {colour: i for i, colour in enumerate(_COLOURS)}
_COLOUR_BY_LETTER = {colour.value: colour for colour in _COLOURS} | {"Y": Colour.ORANGE}

_TILE_RE = re.compile(r"([A-Za-z])0*([1-9][0-9]{0,2})")


class Tile:
    """An immutable tile: a coloured number, or the joker (``colour`` and ``number`` both ``None``).

    Build them with :meth:`parse` (``Tile.parse("r7")``) or ``Tile(Colour.RED, 7)``; the joker is
    :data:`JOKER` (``Tile.parse("J")``). Tiles are hashable, ordered (colour, then number, joker
    last) and interned: equal tiles are always the same object.
    """

    __slots__ = ("colour", "number", "_key", "_code")

    colour: Colour | None
    number: int | None

    def __new__(cls, colour: Colour | None = None, number: int | None = None) -> Tile:
        cached = _INTERNED.get((colour, number))
        if cached is not None and type(number) is type(cached.number):  # True == 1.0 == 1: not a tile number
            return cached
        if colour is None and number is None:
            key, code = (len(_COLOURS), 0), "J"
        else:
            if not isinstance(colour, Colour):
                raise TileNotationError(f"tile colour must be a Colour, not {colour!r}")
            if isinstance(number, bool) or not isinstance(number, int) or number < 1:
                raise TileNotationError(f"tile number must be a positive integer, not {number!r}")
            key, code = (colour.index, number), f"{colour.value}{number}"
        tile = object.__new__(cls)
        object.__setattr__(tile, "colour", colour)
        object.__setattr__(tile, "number", number)
        object.__setattr__(tile, "_key", key)
        object.__setattr__(tile, "_code", code)
        # setdefault: two threads creating the same new tile still end up with one object.
        return _INTERNED.setdefault((colour, number), tile)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self):
        return (Tile, (self.colour, self.number))

    @classmethod
    def parse(cls, code: str) -> Tile:
        """Parse one tile code such as ``"R7"``, ``"b13"``, ``"Y5"`` or ``"J"``."""
        if not isinstance(code, str):
            raise TileNotationError(f"tile code must be a string, not {code!r}")
        tile = _PARSED.get(code)
        if tile is not None:
            return tile
        text = code.strip()
        if text.upper() == "J":
            tile = JOKER
        else:
            match = _TILE_RE.fullmatch(text)
            if match is None:
                raise TileNotationError(f"unknown tile code {code!r} (expected e.g. 'R7', 'B13', 'J')")
            try:
                colour = Colour.from_letter(match.group(1))
            except TileNotationError:
                raise TileNotationError(
                    f"unknown tile code {code!r}: no colour {match.group(1)!r} "
                    f"(colours are {', '.join(c.value for c in _COLOURS)}, Y for orange)"
                ) from None
            tile = cls(colour, int(match.group(2)))
        if len(_PARSED) < 4096:
            _PARSED[code] = tile
        return tile

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self.colour is None

    @property
    def value(self) -> int:
        """The tile's face value; 0 for the joker (its rack penalty lives in the RuleSet)."""
        return self.number or 0

    @property
    def sort_key(self) -> tuple[int, int]:
        """Canonical order: colour (K B O R ...), then number; the joker last."""
        return self._key

    def __str__(self) -> str:
        return self._code

    def __repr__(self) -> str:
        return f"Tile.parse({self._code!r})"

    # Equality and hashing are object identity (inherited from ``object``, and fast): every tile
    # is interned, so equal tiles are always the same object.

    def __lt__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self._key < other._key
        return NotImplemented

    def __le__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self._key <= other._key
        return NotImplemented

    def __gt__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self._key > other._key
        return NotImplemented

    def __ge__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self._key >= other._key
        return NotImplemented


_INTERNED: dict[tuple[Colour | None, int | None], Tile] = {}
_PARSED: dict[str, Tile] = {}

JOKER: Tile = Tile(None, None)
"""The joker."""


def parse_tiles(text: str | Iterable[str | Tile]) -> tuple[Tile, ...]:
    """Parse tiles from a whitespace/comma separated string or an iterable of codes or tiles."""
    if isinstance(text, str):
        items: Iterable[str | Tile] = text.replace(",", " ").split()
    else:
        items = text
    return tuple(item if isinstance(item, Tile) else Tile.parse(item) for item in items)


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Print tiles as space-separated canonical codes (the inverse of :func:`parse_tiles`)."""
    return " ".join(str(tile) for tile in tiles)


def split_melds(text: str) -> list[str]:
    """The melds of a table written as ``"R1 R2 R3 | K7 B7 O7"``, each still in notation.

    >>> split_melds("R1 R2 R3 | K7 B7 O7 |")
    ['R1 R2 R3 ', ' K7 B7 O7 ']
    """
    return [part for part in text.split("|") if part.strip()]


TILE_CODE_PATTERN = r"^\s*([" + "".join(c + c.lower() for c in _COLOUR_BY_LETTER) + r"]0*[1-9][0-9]{0,2}|[Jj])\s*$"
"""A regular expression that every tile code :meth:`Tile.parse` accepts matches (for schemas)."""
