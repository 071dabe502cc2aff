"""Colours and tiles, with the notation used everywhere: ``R7``, ``B13``, ``K1``, ``O5``, ``J``.

Beside the regular joker ``J`` the Twist edition has three special jokers: ``JD`` (double),
``JC`` (colour change) and ``JM`` (mirror); see :class:`JokerKind` and docs/rules.md.

Parsing is case-insensitive and accepts ``Y`` (yellow) for orange; printing is canonical
upper case, so ``str(Tile.parse(s))`` round-trips every canonical code. A tile's identity
never depends on a rule set: ``R7`` is the red seven in every game.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable

from rummisolve.errors import TileNotationError

__all__ = [
    "Colour",
    "JokerKind",
    "Tile",
    "JOKER",
    "DOUBLE_JOKER",
    "COLOUR_CHANGE_JOKER",
    "MIRROR_JOKER",
    "SPECIAL_JOKERS",
    "ALL_JOKERS",
    "parse_tiles",
    "format_tiles",
    "split_melds",
    "TILE_CODE_PATTERN",
]


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


class JokerKind(enum.Enum):
    """The kind of a joker: the regular one, or one of the Twist edition's special jokers."""

    REGULAR = "J"
    DOUBLE = "JD"
    COLOUR_CHANGE = "JC"
    MIRROR = "JM"

    @property
    def code(self) -> str:
        """The tile code (``"J"``, ``"JD"``, ``"JC"``, ``"JM"``)."""
        return self.value

    def __repr__(self) -> str:
        return f"JokerKind.{self.name}"


_JOKER_KINDS = tuple(JokerKind)
_JOKER_KIND_BY_CODE = {kind.value: kind for kind in _JOKER_KINDS}

_TILE_RE = re.compile(r"([A-Za-z])0*([1-9][0-9]{0,2})")


class Tile:
    """An immutable tile: a coloured number, or a joker (``colour`` and ``number`` both ``None``).

    Build them with :meth:`parse` (``Tile.parse("r7")``) or ``Tile(Colour.RED, 7)``; the regular
    joker is :data:`JOKER` (``Tile.parse("J")``), the special ones :data:`DOUBLE_JOKER` (``JD``),
    :data:`COLOUR_CHANGE_JOKER` (``JC``) and :data:`MIRROR_JOKER` (``JM``). Tiles are hashable,
    ordered (colour, then number; jokers last, in the order J JD JC JM) and interned: equal tiles
    are always the same object.

    ``is_joker`` is true only for the regular joker ``J``; ``is_special_joker`` for ``JD JC JM``;
    ``is_any_joker`` for all four; ``joker_kind`` is the :class:`JokerKind` (``None`` for a
    numbered tile).
    """

    __slots__ = ("colour", "number", "joker_kind", "is_joker", "is_special_joker", "is_any_joker", "sort_key", "_code")

    colour: Colour | None
    number: int | None
    joker_kind: JokerKind | None
    is_joker: bool
    is_special_joker: bool
    is_any_joker: bool
    sort_key: tuple[int, int]
    """Canonical order: colour (K B O R ...), then number; the jokers last (J JD JC JM)."""
    _code: str

    def __new__(cls, colour: Colour | None = None, number: int | None = None) -> Tile:
        cached = _INTERNED.get((colour, number))
        if cached is not None and type(number) is type(cached.number):  # True == 1.0 == 1: not a tile number
            return cached
        if colour is None and number is None:
            return _joker_of_kind(JokerKind.REGULAR)
        else:
            if not isinstance(colour, Colour):
                raise TileNotationError(f"tile colour must be a Colour, not {colour!r}")
            if isinstance(number, bool) or not isinstance(number, int) or number < 1:
                raise TileNotationError(f"tile number must be a positive integer, not {number!r}")
            key, code = (colour.index, number), f"{colour.value}{number}"
        tile = _make(cls, colour, number, None, key, code)
        # setdefault: two threads creating the same new tile still end up with one object.
        return _INTERNED.setdefault((colour, number), tile)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        if self.joker_kind is not None:
            return (_joker_of_kind, (self.joker_kind,))
        return (Tile, (self.colour, self.number))

    @classmethod
    def parse(cls, code: str) -> Tile:
        """Parse one tile code such as ``"R7"``, ``"b13"``, ``"Y5"``, ``"J"`` or ``"jd"``."""
        if not isinstance(code, str):
            raise TileNotationError(f"tile code must be a string, not {code!r}")
        tile = _PARSED.get(code)
        if tile is not None:
            return tile
        text = code.strip()
        kind = _JOKER_KIND_BY_CODE.get(text.upper())
        if kind is not None:
            tile = _JOKERS[kind]
        else:
            match = _TILE_RE.fullmatch(text)
            if match is None:
                raise TileNotationError(
                    f"unknown tile code {code!r} (expected e.g. 'R7', 'B13', 'J', or a special joker 'JD', 'JC', 'JM')"
                )
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
    def value(self) -> int:
        """The tile's face value; 0 for every joker (its rack penalty lives in the RuleSet)."""
        return self.number or 0

    def __str__(self) -> str:
        return self._code

    def __repr__(self) -> str:
        return f"Tile.parse({self._code!r})"

    # Equality and hashing are object identity (inherited from ``object``, and fast): every tile
    # is interned, so equal tiles are always the same object.

    def __lt__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self.sort_key < other.sort_key
        return NotImplemented

    def __le__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self.sort_key <= other.sort_key
        return NotImplemented

    def __gt__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self.sort_key > other.sort_key
        return NotImplemented

    def __ge__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self.sort_key >= other.sort_key
        return NotImplemented


_INTERNED: dict[tuple[Colour | None, int | None], Tile] = {}
_PARSED: dict[str, Tile] = {}


def _make(
    cls: type[Tile], colour: Colour | None, number: int | None, kind: JokerKind | None, key: tuple[int, int], code: str
) -> Tile:
    tile = object.__new__(cls)
    for name, value in (
        ("colour", colour),
        ("number", number),
        ("joker_kind", kind),
        ("is_joker", kind is JokerKind.REGULAR),
        ("is_special_joker", kind is not None and kind is not JokerKind.REGULAR),
        ("is_any_joker", kind is not None),
        ("sort_key", key),
        ("_code", code),
    ):
        object.__setattr__(tile, name, value)
    return tile


_JOKERS: dict[JokerKind, Tile] = {
    kind: _make(Tile, None, None, kind, (len(_COLOURS), i), kind.value) for i, kind in enumerate(_JOKER_KINDS)
}


def _joker_of_kind(kind: JokerKind) -> Tile:
    """The (interned) joker tile of ``kind``."""
    return _JOKERS[JokerKind(kind)]


_INTERNED[(None, None)] = _JOKERS[JokerKind.REGULAR]

JOKER: Tile = _JOKERS[JokerKind.REGULAR]
"""The regular joker ``J``."""
DOUBLE_JOKER: Tile = _JOKERS[JokerKind.DOUBLE]
"""The Twist double joker ``JD``: two tiles at once."""
COLOUR_CHANGE_JOKER: Tile = _JOKERS[JokerKind.COLOUR_CHANGE]
"""The Twist colour-change joker ``JC``: one number slot where a run changes colour."""
MIRROR_JOKER: Tile = _JOKERS[JokerKind.MIRROR]
"""The Twist mirror joker ``JM``: the meld reads the same backwards around it."""
SPECIAL_JOKERS: tuple[Tile, ...] = (DOUBLE_JOKER, COLOUR_CHANGE_JOKER, MIRROR_JOKER)
"""The three special jokers, in canonical order."""
ALL_JOKERS: tuple[Tile, ...] = (JOKER, *SPECIAL_JOKERS)
"""All four joker tiles, in canonical order."""


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


TILE_CODE_PATTERN = (
    r"^\s*([" + "".join(c + c.lower() for c in _COLOUR_BY_LETTER) + r"]0*[1-9][0-9]{0,2}|[Jj][DdCcMm]?)\s*$"
)
"""A regular expression that every tile code :meth:`Tile.parse` accepts matches (for schemas)."""
