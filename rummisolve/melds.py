"""Melds: classify a tile sequence (in play order) as a run, a group or a Twist mirror meld, and
infer what its jokers stand for.

A sequence that is valid both ways (one real tile and jokers, e.g. ``R5 J J``) is read the way
that is worth more; on a tie, as a run. Melds with the Twist special jokers (``JD``, ``JC``,
``JM``; docs/rules.md, "Twist") are classified by :mod:`rummisolve.twist_melds`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import cast

from rummisolve.errors import InvalidMeldError
from rummisolve.rule_facts import run_end
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import JokerKind, Tile, format_tiles, parse_tiles
from rummisolve.twist_melds import (
    TWIST_MELD_REASONS,
    Problem,
    Shape,
    StandsFor,
    classify_twist,
    group_tiles_problem,
    stands_for_value,
    twist_run_reading,
)

__all__ = ["Meld", "MeldKind", "MELD_REASONS", "meld_problem"]

MELD_REASONS: dict[str, str] = {
    "too_short": "fewer tiles than the minimum meld length",
    "only_jokers": "a meld may not consist of jokers only",
    "not_in_rules": "a tile that does not exist under the rule set",
    "mixed_colours": "a run must be one colour (and a group one number)",
    "duplicate_colour": "a group may hold each colour at most once",
    "too_long": "more tiles than such a meld can hold",
    "gap": "the numbers are not consecutive in play order",
    "out_of_range": "a joker would stand for a number outside the rule set's range",
    "wrap_not_allowed": "the run wraps from the top number to 1, which these rules forbid",
    "wrap_through_one": "1 may follow the top number or precede 2, not both in one run",
    **TWIST_MELD_REASONS,
    "bad_stands_for": "what a joker is said to stand for is no valid reading of the meld",
}
"""Every reason code :func:`meld_problem` and :class:`InvalidMeldError` use, with its meaning
(``bad_stands_for`` only :meth:`Meld.with_stands_for`: the tiles are a meld, the reading is not)."""


class MeldKind(enum.Enum):
    """Whether a meld is a run, a group, or a Twist mirror meld (``L JM reverse(L)``). A run with
    colour-change jokers is a run; a run or group with double jokers is a run or a group."""

    RUN = "run"
    GROUP = "group"
    MIRROR = "mirror"

    def __repr__(self) -> str:
        return f"MeldKind.{self.name}"


@dataclass(frozen=True)
class Meld:
    """A valid meld: its tiles in play order, its kind, and what each tile stands for.

    >>> m = Meld.parse("R4 J R6")
    >>> m.kind, str(m), m.value, [str(t) for t in m.represents]
    (MeldKind.RUN, 'R4 J R6', 15, ['R4', 'R5', 'R6'])
    >>> from rummisolve.rules import TWIST
    >>> m = Meld.parse("R2 JD R5", TWIST)
    >>> m.kind, m.value, m.jokers
    (MeldKind.RUN, 14, ((1, (Tile.parse('R3'), Tile.parse('R4'))),))
    """

    tiles: tuple[Tile, ...]
    kind: MeldKind
    represents: tuple[Tile, ...]
    """For each tile (same index), the tile it stands for: the tile itself, or for a regular joker
    the tile it replaces. A special joker (``JD``, ``JC``, ``JM``) is listed as itself here; what it
    stands for is in :attr:`stands_for`."""
    rules: RuleSet = field(default=STANDARD, compare=False, repr=False)
    _twist: tuple[StandsFor, ...] | None = field(default=None, repr=False)
    """What each tile stands for when the meld holds a special joker (see :attr:`stands_for`): compared,
    so that melds reading a ``JD`` differently differ."""

    @classmethod
    def of(cls, tiles: Iterable[Tile | str], rules: RuleSet = STANDARD) -> Meld:
        """Validate ``tiles`` (play order) under ``rules``; raise :class:`InvalidMeldError` if invalid."""
        seq = parse_tiles(tiles)
        result = _classify_cached(seq, rules)
        if isinstance(result, tuple):
            code, detail = result
            raise InvalidMeldError(f"invalid meld {format_tiles(seq)!r}: {detail}", code, seq)
        return result

    @classmethod
    def with_stands_for(
        cls, tiles: Iterable[Tile | str], stands_for: Iterable[StandsFor], rules: RuleSet = STANDARD
    ) -> Meld:
        """The meld ``tiles`` (validated as by :meth:`of`) read as ``stands_for`` (one entry per
        tile, as in :attr:`stands_for`) rather than as inferred: in a group a joker may stand for
        any missing colour (a ``JD``'s two in canonical order), and a sequence valid both ways
        (``R5 J J``) may be read either way. The kind follows the reading. Raise
        :class:`InvalidMeldError` with reason ``bad_stands_for`` if it is no valid reading.

        >>> m = Meld.with_stands_for("K7 B7 J".split(), [Tile.parse("K7"), Tile.parse("B7"), Tile.parse("R7")])
        >>> m.kind, [str(t) for t in m.represents], m == Meld.parse("K7 B7 J")
        (MeldKind.GROUP, ['K7', 'B7', 'R7'], False)
        """
        meld = cls.of(tiles, rules)
        stands = tuple(stands_for)
        if stands == meld.stands_for:
            return meld
        kind = _reading_kind(meld.tiles, stands, rules)
        if kind is None:
            shown = ", ".join(_stands_text(s) for s in stands)
            raise InvalidMeldError(
                f"meld {str(meld)!r} cannot be read as [{shown}]: {MELD_REASONS['bad_stands_for']}",
                "bad_stands_for",
                meld.tiles,
            )
        represents = tuple(s if isinstance(s, Tile) else t for s, t in zip(stands, meld.tiles))
        return cls(meld.tiles, kind, represents, rules, stands if meld._twist is not None else None)

    @classmethod
    def parse(cls, text: str, rules: RuleSet = STANDARD) -> Meld:
        """Parse a meld from notation such as ``"R4 J R6"`` (see :meth:`of`)."""
        return cls.of(parse_tiles(text), rules)

    @property
    def stands_for(self) -> tuple[StandsFor, ...]:
        """For each tile (same index), what it stands for: a numbered tile itself; ``J`` a
        :class:`Tile`; ``JD`` a pair of tiles (in a run two consecutive numbers of its segment's
        colour, ascending; in a group two missing colours); ``JC`` its slot's number (an ``int``,
        no colour); ``JM`` ``None`` (it fills no slot). Without special jokers, :attr:`represents`."""
        return self.represents if self._twist is None else self._twist

    @property
    def value(self) -> int:
        """Points for the initial meld: the sum of the numbers the tiles stand for (``J`` counts the
        number it replaces, ``JD`` its two numbers, ``JC`` its slot's number, ``JM`` 0)."""
        if self._twist is None:
            return sum(t.value for t in self.represents)
        return stands_for_value(self._twist)

    @property
    def joker_count(self) -> int:
        """Regular jokers (``J``) in the meld."""
        return sum(1 for t in self.tiles if t.is_joker)

    @property
    def special_joker_count(self) -> int:
        """Special jokers (``JD``, ``JC``, ``JM``) in the meld."""
        return sum(1 for t in self.tiles if t.is_special_joker)

    @property
    def side_kind(self) -> MeldKind | None:
        """For a mirror meld, whether its side ``L`` is a run or a group fragment; else ``None``."""
        if self.kind is not MeldKind.MIRROR:
            return None
        side = self.represents[: len(self.tiles) // 2]
        return MeldKind.GROUP if len({t.number for t in side}) == 1 else MeldKind.RUN

    @property
    def jokers(self) -> tuple[tuple[int, StandsFor], ...]:
        """``(slot, stands_for)`` for each joker of any kind (see :attr:`stands_for`; the joker
        itself is ``tiles[slot]``). In a group a joker stands for missing colours; the first missing
        ones in canonical order are named, any missing colour is equivalent."""
        return tuple((i, r) for i, (t, r) in enumerate(zip(self.tiles, self.stands_for)) if t.is_any_joker)

    def joker_options(self, slot: int) -> tuple[Tile, ...]:
        """Every tile the regular joker in ``slot`` may stand for: in a run its slot's tile, in a
        group each colour the group misses (canonical order), any of which it may be said to be.

        >>> Meld.parse("K7 B7 J").joker_options(2), Meld.parse("R4 J R6").joker_options(1)
        ((Tile.parse('O7'), Tile.parse('R7')), (Tile.parse('R5'),))
        """
        if self.kind is MeldKind.RUN:
            return (self.represents[slot],)
        number = self.represents[slot].number
        present = {t.colour for t in self.tiles if not t.is_joker}
        return tuple(Tile(c, number) for c in self.rules.colour_list if c not in present)

    def __len__(self) -> int:
        return len(self.tiles)

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles)

    def __str__(self) -> str:
        return format_tiles(self.tiles)

    def __repr__(self) -> str:
        if self.rules is STANDARD or self.rules == STANDARD:
            return f"Meld.parse({str(self)!r})"
        return f"Meld.parse({str(self)!r}, {self.rules!r})"

    def same_tiles(self, other: Meld) -> bool:
        """Whether both melds hold the same tiles as a multiset (groups in any order)."""
        return sorted(self.tiles) == sorted(other.tiles)


def meld_problem(tiles: Iterable[Tile | str], rules: RuleSet = STANDARD) -> tuple[str, str] | None:
    """``None`` if ``tiles`` form a valid meld, else ``(reason_code, explanation)``."""
    result = _classify_cached(parse_tiles(tiles), rules)
    return result if isinstance(result, tuple) else None


# -- readings given (Meld.with_stands_for) -------------------------------------------------------


def _stands_text(stands: StandsFor) -> str:
    if isinstance(stands, tuple):
        return " ".join(map(str, stands))
    return "null" if stands is None else str(stands)


def _reading_kind(seq: tuple[Tile, ...], stands: tuple[StandsFor, ...], rules: RuleSet) -> MeldKind | None:
    """The kind of meld ``stands`` reads ``seq`` (a valid meld) as, or ``None`` if it is no valid reading."""
    if len(stands) != len(seq) or any(not t.is_any_joker and s is not t for t, s in zip(seq, stands)):
        return None
    if any(t.joker_kind is JokerKind.MIRROR for t in seq):
        middle = len(seq) // 2
        if stands[middle] is not None or stands[:middle] != stands[middle + 1 :][::-1]:
            return None
        side = tuple(a if not a.is_any_joker else b for a, b in zip(seq[:middle], seq[::-1]))
        return MeldKind.MIRROR if _reading_kind(side, stands[:middle], rules) is not None else None
    if _is_group_reading(seq, stands, rules):
        return MeldKind.GROUP
    if any(t.is_special_joker for t in seq):
        run: tuple[StandsFor, ...] | Problem = twist_run_reading(seq, rules)
    else:
        run = _as_run(seq, [t for t in seq if not t.is_any_joker], rules)
    return MeldKind.RUN if stands == run else None


def _is_group_reading(seq: tuple[Tile, ...], stands: tuple[StandsFor, ...], rules: RuleSet) -> bool:
    """Whether ``stands`` reads ``seq`` as a group: one number, each colour once, a ``JD``'s pair in order."""
    slots: list[Tile] = []
    for tile, s in zip(seq, stands):
        if tile.joker_kind is JokerKind.DOUBLE and isinstance(s, tuple) and len(s) == 2 and s[0] < s[1]:
            slots.extend(s)
        elif (tile.is_joker or not tile.is_any_joker) and isinstance(s, Tile):
            slots.append(s)
        else:
            return False  # a JC (no group holds one), or an entry of the wrong shape
    return all(not t.is_any_joker and rules.has_tile(t) and t.number == slots[0].number for t in slots) and len(
        {t.colour for t in slots}
    ) == len(slots)


# -- classification -----------------------------------------------------------------------------


_CACHE: dict[tuple[tuple[Tile, ...], RuleSet], Meld | tuple[str, str]] = {}
_CACHE_SIZE = 20_000


def _classify_cached(seq: tuple[Tile, ...], rules: RuleSet) -> Meld | tuple[str, str]:
    """:func:`_classify` with a bounded memo (melds repeat across the positions of a game)."""
    key = (seq, rules)
    result = _CACHE.get(key)
    if result is None:
        result = _classify(seq, rules)
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = result
    return result


def is_checked(meld: Meld, rules: RuleSet) -> bool:
    """Whether ``meld`` was made by :meth:`Meld.of` under ``rules`` (so it is valid there); a
    :class:`Meld` built by hand is not, until checked."""
    return meld.rules == rules and _classify_cached(meld.tiles, rules) is meld


def _classify(seq: tuple[Tile, ...], rules: RuleSet) -> Meld | tuple[str, str]:
    n = len(seq)
    if n < rules.min_meld_length:
        return "too_short", f"{n} tile(s); a meld needs at least {rules.min_meld_length}"
    special = False
    for t in seq:
        if not rules.has_tile(t):
            return "not_in_rules", f"tile {str(t)!r} does not exist under these rules"
        special = special or t.is_special_joker
    real = [t for t in seq if not t.is_any_joker]
    if not real:
        return "only_jokers", "a meld may not consist of jokers only"
    if special:
        result = classify_twist(seq, rules, lambda side: _shape(side, [t for t in side if not t.is_joker], rules))
        if isinstance(result[1], str):
            return result
        kind, detail = result
        represents = tuple(t if isinstance(t, Tile) else u for t, u in zip(detail, seq))
        return Meld(seq, _TWIST_KINDS[kind], represents, rules, detail)
    plain = _shape(seq, real, rules)
    if isinstance(plain[1], str):
        return plain
    kind, represents = plain
    return Meld(seq, MeldKind(kind), represents, rules)


_TWIST_KINDS = {
    "run": MeldKind.RUN,
    "group": MeldKind.GROUP,
    "mirror run": MeldKind.MIRROR,
    "mirror group": MeldKind.MIRROR,
}


def _shape(seq: tuple[Tile, ...], real: list[Tile], rules: RuleSet) -> Shape | Problem:
    """``("run" | "group", represents)`` for numbered tiles and regular jokers of any length (the
    caller checks the length), else ``(reason_code, explanation)``."""
    group = _as_group(seq, real, rules)
    run = _as_run(seq, real, rules)
    group_ok = not isinstance(group[0], str)
    run_ok = not isinstance(run[0], str)
    # (casts: which side of each union a result is, its first item's type tells)
    if run_ok and group_ok:
        run_tiles, group_tiles = cast("tuple[Tile, ...]", run), cast("tuple[Tile, ...]", group)
        run_value = sum(t.value for t in run_tiles)
        group_value = sum(t.value for t in group_tiles)
        if group_value > run_value:
            return "group", group_tiles
        return "run", run_tiles
    if run_ok:
        return "run", cast("tuple[Tile, ...]", run)
    if group_ok:
        return "group", cast("tuple[Tile, ...]", group)
    run_problem, group_problem = cast(Problem, run), cast(Problem, group)

    same_number = all(t.number == real[0].number for t in real)
    same_colour = all(t.colour is real[0].colour for t in real)
    if same_number and len(real) > 1:
        return group_problem
    if same_colour:
        return run_problem
    return "mixed_colours", "tiles differ in colour and number: neither a run (one colour) nor a group (one number)"


def _as_group(seq: tuple[Tile, ...], real: list[Tile], rules: RuleSet) -> tuple[Tile, ...] | Problem:
    number = real[0].number
    problem = group_tiles_problem(real)
    if problem is not None:
        return problem
    colours = [t.colour for t in real]
    if len(seq) > rules.colours:
        return "too_long", f"a group holds at most {rules.colours} tiles (one per colour)"
    missing = iter(c for c in rules.colour_list if c not in colours)
    return tuple(Tile(next(missing), number) if t.is_joker else t for t in seq)


def _as_run(seq: tuple[Tile, ...], real: list[Tile], rules: RuleSet) -> tuple[Tile, ...] | Problem:
    colour = real[0].colour
    if any(t.colour is not colour for t in real):
        return "mixed_colours", "a run's tiles must all have the same colour"
    top = rules.numbers
    first = next(i for i, t in enumerate(seq) if not t.is_joker)
    first_number = seq[first].number
    assert colour is not None and first_number is not None  # numbered tiles
    start = first_number - first
    n = len(seq)
    if rules.wraparound and start < 1 and first == n - 1 and first_number == 1:
        start += top  # jokers then 1 in the last slot: 1 follows the top number (J J R1 = 12 13 1)
    for j, t in enumerate(seq):
        if t.is_joker:
            continue
        expected = start + j
        if t.number == expected:
            continue
        if expected == top + 1 and t.number == 1:
            if not rules.wraparound:
                return "wrap_not_allowed", f"{top} followed by 1 wraps around, which these rules forbid"
            continue
        if expected > top + 1 and t.number == expected - top:
            if rules.wraparound:
                return "wrap_through_one", f"1 may follow {top} or precede 2, not both in one run"
            return "wrap_not_allowed", f"{top} followed by 1 wraps around, which these rules forbid"
        return (
            "gap",
            f"expected {colour.value}{expected if expected <= top else expected - top} at slot {j}, found {t}",
        )
    end = start + n - 1
    if start < 1:
        if rules.wraparound and start > 1 - top:
            return (
                "wrap_through_one",
                f"a joker before 1 would stand for {top}: 1 may not both follow {top} and precede 2",
            )
        return "out_of_range", f"a joker would stand for {start} (numbers start at 1)"
    if end > run_end(rules, start):  # past the top number, or (under wraparound) its wrapped 1
        if not rules.wraparound:
            if any(not t.is_joker and start + j > top for j, t in enumerate(seq)):
                return "wrap_not_allowed", f"{top} followed by 1 wraps around, which these rules forbid"
            return "out_of_range", f"a joker would stand for {end} (numbers end at {top})"
        if end > top + 1:
            return "wrap_through_one", f"1 may follow {top} or precede 2, not both in one run"
        if start == 1:
            return "too_long", "a run cannot hold the same number twice"
    return tuple(Tile(colour, (start + j - 1) % top + 1) for j in range(n))
