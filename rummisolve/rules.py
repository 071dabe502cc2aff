"""The rule set: every parameter and option of the rules (docs/rules.md), validated, with presets."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rummisolve.errors import RuleSetError, TileRangeError
from rummisolve.tiles import COLOUR_CHANGE_JOKER, DOUBLE_JOKER, JOKER, MIRROR_JOKER, Colour, Tile

__all__ = [
    "RuleSet",
    "STANDARD",
    "OFFICIAL",
    "XP",
    "TWIST",
    "XPRESS",
    "PRESETS",
    "JOKER_RETRIEVAL_MODES",
    "EMPTY_POOL_SCORING_MODES",
    "INTEGER_OPTION_BOUNDS",
    "MAX_TURN_TIMER",
]

JOKER_RETRIEVAL_MODES = ("free", "strict")
EMPTY_POOL_SCORING_MODES = ("difference", "rack")

INTEGER_OPTION_BOUNDS: dict[str, tuple[int, int]] = {
    "colours": (1, len(Colour)),
    "numbers": (1, 99),
    "copies": (1, 16),
    "jokers": (0, 16),
    "double_jokers": (0, 16),
    "colour_change_jokers": (0, 16),
    "mirror_jokers": (0, 16),
    "rack_size": (1, 200),
    "min_meld_length": (2, 99),
    "initial_threshold": (0, 10_000),
    "joker_penalty": (0, 10_000),
    "min_players": (1, 16),
    "max_players": (1, 16),
    "timer_penalty": (0, 200),
}
"""The allowed range (inclusive) of every integer option."""
MAX_TURN_TIMER = 86_400
"""The longest turn timer, in seconds (a day)."""
_BOOLEAN_OPTIONS = ("wraparound", "open_then_manipulate", "joker_in_initial_meld", "discard", "dice")


@dataclass(frozen=True, eq=False)
class RuleSet:
    """Immutable, validated game parameters. Defaults are the official rules (the ``standard`` preset).

    >>> RuleSet().total_tiles
    106
    >>> RuleSet.preset("xp").total_tiles
    160
    >>> RuleSet.preset("twist").total_tiles
    112
    """

    colours: int = 4
    """Number of colours in play; the first ``colours`` of :class:`Colour` (K B O R G P W C)."""
    numbers: int = 13
    """Tile numbers run from 1 to ``numbers``."""
    copies: int = 2
    """Copies of each coloured number."""
    jokers: int = 2
    """Regular jokers (``J``)."""
    double_jokers: int = 0
    """Twist double jokers (``JD``): each stands for two tiles."""
    colour_change_jokers: int = 0
    """Twist colour-change jokers (``JC``): a run changes colour across the slot it fills."""
    mirror_jokers: int = 0
    """Twist mirror jokers (``JM``): the meld reads ``L JM reverse(L)``."""
    rack_size: int = 14
    """Tiles dealt to each rack."""
    min_meld_length: int = 3
    initial_threshold: int = 30
    """Points the initial meld must reach (0: no threshold)."""
    wraparound: bool = False
    """Runs may continue from the top number to 1 (12-13-1), but never through it (13-1-2)."""
    open_then_manipulate: bool = False
    """After the initial meld the same turn may go on to rearrange the table."""
    joker_in_initial_meld: bool = True
    joker_retrieval: str = "free"
    """``"free"``: table jokers move like any tile. ``"strict"``: freed only by exact replacement."""
    joker_penalty: int = 30
    """What a joker left on a rack costs at the end of a round."""
    min_players: int = 2
    max_players: int = 4
    turn_timer: float | None = None
    """Seconds a turn may take (``None``: no timer)."""
    timer_penalty: int = 3
    """Tiles drawn by a player whose turn timed out."""
    empty_pool_scoring: str = "difference"
    """Round ends on an empty pool: losers lose the difference to the winner, or their whole rack."""
    discard: bool = False
    """Rummy-style turns: every turn ends with a discard onto a face-up pile, a player may draw its top
    tile instead of the pool's, and goes out by discarding the last tile (so a play must leave one)."""
    dice: bool = False
    """The dice edition (Xpress, docs/rules.md#xpress): the tiles are the faces the dice show. A position
    solves as an ordinary one; the dice add the best re-roll (:func:`rummisolve.xpress.best_reroll`)."""

    def __post_init__(self) -> None:
        def check_int(name: str, low: int, high: int) -> None:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleSetError(f"rule option {name!r} must be an integer, not {value!r}")
            if not low <= value <= high:
                raise RuleSetError(f"rule option {name!r} must be between {low} and {high}, not {value}")

        def check_bool(name: str) -> None:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise RuleSetError(f"rule option {name!r} must be true or false, not {value!r}")

        for name, (low, high) in INTEGER_OPTION_BOUNDS.items():
            check_int(name, low, high)
        for name in _BOOLEAN_OPTIONS:
            check_bool(name)
        if self.joker_retrieval not in JOKER_RETRIEVAL_MODES:
            raise RuleSetError(
                f"rule option 'joker_retrieval' must be one of {', '.join(JOKER_RETRIEVAL_MODES)}, "
                f"not {self.joker_retrieval!r}"
            )
        if self.empty_pool_scoring not in EMPTY_POOL_SCORING_MODES:
            raise RuleSetError(
                f"rule option 'empty_pool_scoring' must be one of {', '.join(EMPTY_POOL_SCORING_MODES)}, "
                f"not {self.empty_pool_scoring!r}"
            )
        if self.joker_retrieval == "strict" and self.has_twist:
            raise RuleSetError(
                "rule option 'joker_retrieval': 'strict' cannot be combined with special jokers "
                "(double_jokers, colour_change_jokers, mirror_jokers): what a freed special joker must be "
                "replaced by is not defined (docs/rules.md, Twist)"
            )
        if self.min_players > self.max_players:
            raise RuleSetError(
                f"rule option 'min_players' ({self.min_players}) exceeds 'max_players' ({self.max_players})"
            )
        if self.turn_timer is not None:
            timer = self.turn_timer
            if isinstance(timer, bool) or not isinstance(timer, int | float) or not 0 < timer <= MAX_TURN_TIMER:
                raise RuleSetError(
                    f"rule option 'turn_timer' must be a positive number of seconds or null, not {timer!r}"
                )

    def __hash__(self) -> int:
        # Rule sets key many caches: hash the fields once.
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self)))
            self.__dict__["_hash"] = cached
        return cached

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, RuleSet):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in dataclasses.fields(self))

    def __getstate__(self) -> dict:
        # The cached hash is per process (string hashing is salted): never pickle it.
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """A named preset: ``"standard"``, ``"official"``, ``"xp"``, ``"twist"`` or ``"xpress"``."""
        try:
            return PRESETS[name.lower()] if isinstance(name, str) else PRESETS[name]
        except (KeyError, TypeError):
            raise RuleSetError(f"unknown rules preset {name!r} (known: {', '.join(PRESETS)})") from None

    @classmethod
    def from_dict(cls, options: Mapping[str, Any]) -> RuleSet:
        """Build from a mapping of option names; ``"preset"`` picks the base (default standard)."""
        if not isinstance(options, Mapping):
            raise RuleSetError(f"rules must be a preset name or an object of options, not {options!r}")
        options = dict(options)
        base = cls.preset(options.pop("preset", "standard"))
        return base.replace(**options)

    def to_dict(self) -> dict[str, Any]:
        """All options as a plain dict (``RuleSet.from_dict(r.to_dict()) == r``)."""
        return dataclasses.asdict(self)

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some options changed (validated)."""
        unknown = sorted(set(changes) - _FIELDS)
        if unknown:
            raise RuleSetError(f"unknown rule option(s): {', '.join(map(repr, unknown))}")
        return dataclasses.replace(self, **changes)

    @property
    def name(self) -> str | None:
        """The preset name if this rule set equals a preset, else ``None``."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return None

    # -- derived facts ------------------------------------------------------------------------

    @cached_property
    def colour_list(self) -> tuple[Colour, ...]:
        """The colours in play, in canonical order."""
        return tuple(Colour)[: self.colours]

    @cached_property
    def colour_letters(self) -> frozenset[str]:
        """The letters a tile's colour may be written with under these rules (``Y`` for orange too)."""
        letters = {colour.letter for colour in self.colour_list}
        return frozenset(letters | {"Y"} if Colour.ORANGE in self.colour_list else letters)

    def colours_in_words(self) -> str:
        """``the colours are K black, B blue, O orange, R red`` (those in play)."""
        return "the colours are " + ", ".join(f"{c.letter} {c.name.lower()}" for c in self.colour_list)

    def unknown_code(self, code: str) -> str:
        """Why ``code`` (which :meth:`Tile.parse` refused) is no tile, in words that name what these
        rules have: ``no colour X (the colours are K black, ...)``, else how a tile is written."""
        match = re.fullmatch(r"\s*([A-Za-z])0*[0-9]+\s*", code)
        if match and match.group(1).upper() not in self.colour_letters:
            return f"no colour {match.group(1).upper()} ({self.colours_in_words()})"
        return self.tiles_in_words()

    def tiles_in_words(self) -> str:
        """How a tile is written under these rules, for messages: the colours, numbers and jokers in play."""
        jokers = [str(tile) for tile in self.joker_counts if self.joker_counts[tile]]
        joker_text = f", or {' '.join(jokers)} for a joker" if jokers else ""
        return f"a tile is a colour letter and a number from 1 to {self.numbers}{joker_text}; {self.colours_in_words()}"

    @cached_property
    def tile_kinds(self) -> tuple[Tile, ...]:
        """Every distinct non-joker tile, in canonical order."""
        return tuple(Tile(c, n) for c in self.colour_list for n in range(1, self.numbers + 1))

    @property
    def has_twist(self) -> bool:
        """Whether the set holds any special (Twist) joker."""
        return bool(self.double_jokers or self.colour_change_jokers or self.mirror_jokers)

    @cached_property
    def joker_counts(self) -> dict[Tile, int]:
        """Copies of every joker tile in the set (``J JD JC JM``), those with none left out."""
        counts = {
            JOKER: self.jokers,
            DOUBLE_JOKER: self.double_jokers,
            COLOUR_CHANGE_JOKER: self.colour_change_jokers,
            MIRROR_JOKER: self.mirror_jokers,
        }
        return {tile: n for tile, n in counts.items() if n}

    @cached_property
    def special_jokers(self) -> dict[Tile, int]:
        """Copies of every special joker in the set (``JD JC JM``), those with none left out."""
        return {tile: n for tile, n in self.joker_counts.items() if tile.is_special_joker}

    @cached_property
    def tiles_by_code(self) -> dict[str, Tile]:
        """Every tile that exists under these rules, by its canonical code (``"R7"``, ``"J"``, ``"JD"``)."""
        tiles = self.tile_kinds + tuple(self.joker_counts)
        return {str(tile): tile for tile in tiles}

    @property
    def total_jokers(self) -> int:
        """Jokers of every kind in the full set."""
        return self.jokers + self.double_jokers + self.colour_change_jokers + self.mirror_jokers

    @property
    def total_tiles(self) -> int:
        """Tiles in the full set, jokers of every kind included."""
        return self.colours * self.numbers * self.copies + self.total_jokers

    def copies_of(self, tile: Tile) -> int:
        """How many copies of ``tile`` the set has (for a joker, the jokers of its kind)."""
        if tile.is_any_joker:
            return self.joker_counts.get(tile, 0)
        return self.copies

    def has_tile(self, tile: Tile) -> bool:
        """Whether the tile exists under these rules."""
        if tile.is_any_joker:
            return tile in self.joker_counts
        colour, number = tile.colour, tile.number
        assert colour is not None and number is not None  # a numbered tile
        return colour.index < self.colours and number <= self.numbers

    def check_tile(self, tile: Tile) -> Tile:
        """Return ``tile`` or raise :class:`TileRangeError` naming it."""
        if not self.has_tile(tile):
            if tile.is_joker:
                raise TileRangeError("tile 'J': this rule set has no jokers")
            if tile.is_special_joker:
                option = _SPECIAL_JOKER_OPTION[tile]
                raise TileRangeError(
                    f"tile {str(tile)!r}: this rule set has no {option.replace('_', ' ')[:-1]} "
                    f"(rule option {option!r}; the 'twist' preset has them)"
                )
            colour = tile.colour
            assert colour is not None  # a numbered tile
            if colour.index >= self.colours:
                raise TileRangeError(
                    f"tile {str(tile)!r}: colour {colour.name.lower()} is not in play ({self.colours_in_words()})"
                )
            raise TileRangeError(f"tile {str(tile)!r}: numbers run from 1 to {self.numbers}")
        return tile

    def rack_value(self, tiles: Iterable[Tile]) -> int:
        """Penalty value of tiles left on a rack (numbers; every joker, special ones too, counts ``joker_penalty``)."""
        return sum(self.joker_penalty if t.is_any_joker else t.value for t in tiles)

    def full_set(self) -> tuple[Tile, ...]:
        """Every tile of the set (copies and jokers of every kind), in canonical order."""
        jokers = tuple(tile for tile, n in self.joker_counts.items() for _ in range(n))
        return tuple(t for t in self.tile_kinds for _ in range(self.copies)) + jokers

    def __repr__(self) -> str:
        changed = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != f.default
        ]
        return f"RuleSet({', '.join(changed)})"


_SPECIAL_JOKER_OPTION = {
    DOUBLE_JOKER: "double_jokers",
    COLOUR_CHANGE_JOKER: "colour_change_jokers",
    MIRROR_JOKER: "mirror_jokers",
}

_FIELDS = frozenset(f.name for f in dataclasses.fields(RuleSet))
_dataclass_init = RuleSet.__init__


@functools.wraps(_dataclass_init)
def _checked_init(self: RuleSet, *args: Any, **options: Any) -> None:
    unknown = sorted(set(options) - _FIELDS)
    if unknown:
        raise RuleSetError(f"unknown rule option(s): {', '.join(map(repr, unknown))}")
    if len(args) > len(_FIELDS):
        raise RuleSetError(f"RuleSet takes at most {len(_FIELDS)} options, not {len(args)}")
    _dataclass_init(self, *args, **options)


# An unknown option is a RuleSetError, not a TypeError (setattr: mypy forbids assigning to a method).
setattr(RuleSet, "__init__", _checked_init)  # noqa: B010

STANDARD = RuleSet()
"""The defaults: 4 colours, 1..13, 2 copies, 2 jokers, 30-point opening; table jokers move freely
(``joker_retrieval="free"``), the one way they differ from the official rules (:data:`OFFICIAL`)."""
OFFICIAL = RuleSet(joker_retrieval="strict")
"""The official game: the defaults, but a table joker is taken only by replacing it from the rack
(``joker_retrieval="strict"``; docs/rules.md, "Jokers on the table")."""
XP = RuleSet(copies=3, jokers=4, max_players=6)
"""The XP edition for up to 6 players: 3 copies, 4 jokers (160 tiles)."""

TWIST = RuleSet(double_jokers=2, colour_change_jokers=2, mirror_jokers=2, turn_timer=60)
"""The Twist edition: the standard set plus 2 double, 2 colour-change and 2 mirror jokers (112 tiles),
with a 60-second turn timer."""

XPRESS = RuleSet(jokers=4, rack_size=9, initial_threshold=0, max_players=2, dice=True)
"""The Xpress dice edition (RULES 5.3): 18 dice of 108 faces (the standard numbers twice, 4 jokers),
9 a player, 2 players, minimum meld 3, no opening threshold."""

PRESETS: dict[str, RuleSet] = {"standard": STANDARD, "official": OFFICIAL, "xp": XP, "twist": TWIST, "xpress": XPRESS}
