"""Editing a tentative table within a turn: rack tiles onto melds, tiles between melds, split, join.

Every function is pure: it takes a :class:`Draft` and returns a new one, or raises
:class:`~rummisolve.errors.TableEditError` naming the bad part. A draft's melds may be invalid
(rearranging passes through invalid tables); only the table the player submits is judged, by the
referee. Tiles never leave the draft: a rack tile put on the table can be taken back to the rack,
a tile that was on the table when the turn began cannot.

Melds and slots are addressed by index from 0. Messages name them as the terminal shows them,
numbered from 1 (index 2 is "meld 3"). New melds go at the end of the table; a meld that is
emptied or joined into another is removed, and the melds after it move up one.

>>> d = Draft.start([Meld.parse("R4 R5 R6")], parse_tiles("R7 R3 K9"))
>>> d = put(d, parse_tiles("R7 R3"), 0)
>>> [format_tiles(m) for m in d.table], format_tiles(d.rack)
(['R3 R4 R5 R6 R7'], 'K9')
>>> d = split(d, 0, 2)
>>> [format_tiles(m) for m in d.table], d.invalid()
(['R3 R4', 'R5 R6 R7'], (0,))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from math import comb

from rummisolve.errors import InvalidMeldError, TableEditError
from rummisolve.melds import Meld, MeldKind, StandsFor, meld_problem
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import Tile, format_tiles, parse_tiles

__all__ = ["Draft", "put", "new_meld", "move", "take", "split", "split_at", "join", "place", "arrange"]

Melds = tuple[tuple[Tile, ...], ...]

_MAX_ARRANGEMENTS = 5000
"""Placing jokers in a meld tries at most this many joker slot choices (a huge meld is not a real one)."""


@dataclass(frozen=True)
class Draft:
    """A tentative table within a turn: its melds in order (valid or not), the rack tiles not yet
    placed, and the table as the turn began (``origin``)."""

    table: Melds
    rack: tuple[Tile, ...]
    origin: Melds
    rules: RuleSet = STANDARD

    @classmethod
    def start(cls, table: Iterable[Meld | Iterable[Tile]], rack: Iterable[Tile], rules: RuleSet = STANDARD) -> Draft:
        """The draft at the start of a turn: the table as it is, the whole rack."""
        melds = tuple(tuple(m) for m in table)
        return cls(melds, tuple(rack), melds, rules)

    @property
    def changed(self) -> bool:
        """Whether the table differs from the turn's start."""
        return self.table != self.origin

    @property
    def played(self) -> tuple[Tile, ...]:
        """The rack tiles now on the table (sorted)."""
        placed = Counter(t for m in self.table for t in m) - Counter(t for m in self.origin for t in m)
        return tuple(sorted(placed.elements()))

    def invalid(self) -> tuple[int, ...]:
        """The indices of the melds that are not valid melds under the draft's rules."""
        return tuple(i for i, m in enumerate(self.table) if meld_problem(m, self.rules) is not None)


# -- the edits ------------------------------------------------------------------------------------


def put(draft: Draft, tiles: Sequence[Tile], meld: int, at: int | None = None) -> Draft:
    """Put rack ``tiles`` on meld ``meld``: at slot ``at`` (in the order given), else where they fit
    (see :func:`place`)."""
    target = _meld(draft, meld)
    rack = _remove(draft.rack, tiles, "your rack")
    table = list(draft.table)
    table[meld] = place(target, tiles, draft.rules, at, where=f"meld {meld + 1}")
    return Draft(tuple(table), rack, draft.origin, draft.rules)


def new_meld(draft: Draft, tiles: Sequence[Tile]) -> Draft:
    """A new meld of rack ``tiles`` at the end of the table (see :func:`arrange`)."""
    rack = _remove(draft.rack, tiles, "your rack")
    return Draft(draft.table + (arrange(tiles, draft.rules),), rack, draft.origin, draft.rules)


def move(draft: Draft, tiles: Sequence[Tile], source: int, target: int | None, at: int | None = None) -> Draft:
    """Move ``tiles`` from meld ``source`` to meld ``target`` (placed as by :func:`put`), or to a new
    meld at the end when ``target`` is ``None``. An emptied source meld is removed."""
    origin = _meld(draft, source)
    remaining = _remove(origin, tiles, _name(source, origin))
    table = list(draft.table)
    table[source] = remaining
    if target is None:
        if at is not None:
            raise TableEditError("a slot ('at') only applies when moving onto an existing meld")
        table.append(arrange(tiles, draft.rules))
    else:
        _meld(draft, target)
        table[target] = place(table[target], tiles, draft.rules, at, where=f"meld {target + 1}")
    return Draft(_drop_empty(table), draft.rack, draft.origin, draft.rules)


def take(draft: Draft, tiles: Sequence[Tile], meld: int) -> Draft:
    """Take ``tiles`` from meld ``meld`` back to the rack: only tiles put there from the rack this turn."""
    source = _meld(draft, meld)
    remaining = _remove(source, tiles, _name(meld, source))
    placed = Counter(draft.played)
    for tile, count in Counter(tiles).items():
        if count > placed[tile]:
            started = "" if placed[tile] == 0 else f" (only {placed[tile]} came from your rack this turn)"
            raise TableEditError(
                f"{tile} was on the table when your turn began{started}: table tiles stay on the table"
            )
    table = list(draft.table)
    table[meld] = remaining
    return Draft(_drop_empty(table), tuple(sorted(draft.rack + tuple(tiles))), draft.origin, draft.rules)


def split(draft: Draft, meld: int, cut: int) -> Draft:
    """Split meld ``meld`` after its first ``cut`` tiles; the rest becomes a new meld at the end."""
    source = _meld(draft, meld)
    if len(source) < 2:
        raise TableEditError(f"{_name(meld, source)} has only {len(source)} tile: nothing to split")
    if not 1 <= cut < len(source):
        raise TableEditError(
            f"{_name(meld, source)} has {len(source)} tiles: split it after 1 to {len(source) - 1} of them, not {cut}"
        )
    table = list(draft.table)
    table[meld] = source[:cut]
    table.append(source[cut:])
    return Draft(tuple(table), draft.rack, draft.origin, draft.rules)


def split_at(draft: Draft, meld: int, tile: Tile) -> Draft:
    """Split meld ``meld`` just before (the first copy of) ``tile``, which starts the new meld."""
    source = _meld(draft, meld)
    if tile not in source:
        raise TableEditError(f"{tile} is not in {_name(meld, source)}")
    cut = source.index(tile)
    if cut == 0:
        raise TableEditError(f"{tile} is the first tile of {_name(meld, source)}: nothing to split off before it")
    return split(draft, meld, cut)


def join(draft: Draft, melds: Sequence[int]) -> Draft:
    """Join melds into one at the place of the first-numbered: each next meld goes after (or, if
    only that makes a valid meld, before) the tiles gathered so far."""
    if len(melds) < 2:
        raise TableEditError("name at least two melds to join")
    for i in melds:
        _meld(draft, i)
    twice = next((i for i in melds if list(melds).count(i) > 1), None)
    if twice is not None:
        raise TableEditError(f"meld {twice + 1} is named twice: join different melds")
    joined = draft.table[melds[0]]
    for i in melds[1:]:
        after, before = joined + draft.table[i], draft.table[i] + joined
        joined = before if _valid(before, draft.rules) and not _valid(after, draft.rules) else after
    first = min(melds)
    table = [joined if i == first else m for i, m in enumerate(draft.table) if i == first or i not in melds]
    return Draft(tuple(table), draft.rack, draft.origin, draft.rules)


# -- where tiles go in a meld ---------------------------------------------------------------------


def place(
    meld: Sequence[Tile],
    tiles: Sequence[Tile],
    rules: RuleSet = STANDARD,
    at: int | None = None,
    where: str = "the meld",
) -> tuple[Tile, ...]:
    """``meld`` with ``tiles`` added: at slot ``at`` (in the order given) if set, else where they fit.

    Without a slot, numbered tiles are sorted and each goes after the last tile of the meld whose
    number is not higher (so a group is appended to and a run stays in order); if that gives no
    valid meld, appending or prepending them is tried (runs that wrap around). New jokers are tried
    in every slot. When exactly one valid meld results it is taken; when several differ only by
    where a joker goes, :class:`TableEditError` asks for the slot; when none is valid the tiles are
    added by number, jokers last (the draft may be invalid for now).
    """
    meld, tiles = tuple(meld), tuple(tiles)
    if not tiles:
        raise TableEditError("name at least one tile")
    if at is not None:
        if not 0 <= at <= len(meld):
            raise TableEditError(
                f"slot {at + 1}: {where} has {len(meld)} tiles, so new ones go at slot 1 to {len(meld) + 1}"
            )
        return meld[:at] + tiles + meld[at:]
    numbered = sorted((t for t in tiles if not t.is_any_joker), key=lambda t: (t.number, t.sort_key))
    joker_tiles = tuple(sorted(t for t in tiles if t.is_any_joker))
    jokers = len(joker_tiles)
    bases = list(dict.fromkeys((_by_number(meld, numbered, rules), meld + tuple(numbered), tuple(numbered) + meld)))
    found: dict[tuple, tuple[tuple[Tile, ...], tuple[int, ...]]] = {}
    for base in bases:
        for arrangement, slots in _with_jokers(base, joker_tiles):
            m = _as_meld(arrangement, rules)
            if m is not None:
                found.setdefault(_identity(m), (arrangement, slots))
        if found and jokers == 0:
            break  # numbered tiles only: the first way that works (by number) is the one
    if len(found) == 1 or (found and jokers == 0):
        return next(iter(found.values()))[0]
    if not found:
        return bases[0] + joker_tiles
    options = sorted(found.values(), key=lambda option: option[1])
    if numbered or jokers > 1:
        listed = " or ".join(format_tiles(a) for a, _ in options[:4]) + (" or ..." if len(options) > 4 else "")
        raise TableEditError(
            f"{format_tiles(tiles)} fit {where} in {len(found)} ways ({listed}): put one joker at a time "
            f"and give its slot (1 to {len(meld) + 1}) with 'at'"
        )
    listed = " or ".join(f"slot {slots[0] + 1} ({format_tiles(a)})" for a, slots in options)
    raise TableEditError(f"the joker fits {where} at {listed}: say which with 'at'")


def arrange(tiles: Sequence[Tile], rules: RuleSet = STANDARD) -> tuple[Tile, ...]:
    """``tiles`` as a new meld: in the order given if that is a valid meld, else the one valid way
    :func:`place` finds, else in the order given."""
    tiles = tuple(tiles)
    if _valid(tiles, rules):
        return tiles
    try:
        arranged = place((), tiles, rules)
    except TableEditError:  # a joker fits in several places: the player's order stands
        return tiles
    return arranged if _valid(arranged, rules) else tiles


def _by_number(meld: tuple[Tile, ...], numbered: list[Tile], rules: RuleSet) -> tuple[Tile, ...]:
    """Insert each numbered tile after the last tile of ``meld`` whose number is not higher (a
    valid meld's jokers count as what they stand for; other jokers are passed over)."""
    m = _as_meld(meld, rules)
    cells: list[tuple[Tile, int | None]] = [
        (t, _number(m.stands_for[i]) if m is not None else t.number) for i, t in enumerate(meld)
    ]
    for tile in numbered:
        spot = 0
        tile_number = tile.number
        assert tile_number is not None  # a numbered tile
        for i, (_, number) in enumerate(cells):
            if number is not None and number <= tile_number:
                spot = i + 1
        cells.insert(spot, (tile, tile_number))
    return tuple(t for t, _ in cells)


def _number(stands_for: StandsFor) -> int | None:
    """The (highest) number a tile of a valid meld stands for; ``None`` for a mirror joker."""
    if isinstance(stands_for, Tile):
        return stands_for.number
    if isinstance(stands_for, tuple):
        return stands_for[1].number
    return stands_for


def _with_jokers(
    base: tuple[Tile, ...], jokers: tuple[Tile, ...]
) -> Iterable[tuple[tuple[Tile, ...], tuple[int, ...]]]:
    """Every way to insert the joker tiles ``jokers`` (of any kinds) into ``base`` (with the jokers'
    slots), jokers at the end first."""
    count = len(jokers)
    size = len(base) + count
    orders = list(dict.fromkeys(permutations(jokers)))
    if count == 0 or comb(size, count) * len(orders) > _MAX_ARRANGEMENTS:  # none, or too many: at the end
        yield base + jokers, tuple(range(len(base), size))
        return
    for slots in reversed(list(combinations(range(size), count))):
        for order in orders:
            rest, kinds = iter(base), iter(order)
            chosen = set(slots)
            yield tuple(next(kinds) if i in chosen else next(rest) for i in range(size)), slots


def _as_meld(tiles: tuple[Tile, ...], rules: RuleSet) -> Meld | None:
    try:
        return Meld.of(tiles, rules)
    except InvalidMeldError:
        return None


def _valid(tiles: tuple[Tile, ...], rules: RuleSet) -> bool:
    return meld_problem(tiles, rules) is None


def _identity(meld: Meld) -> tuple:
    """A group is the same group in any order; a run is its sequence."""
    if meld.kind is MeldKind.GROUP:
        return ("group", tuple(sorted(meld.tiles)))
    return ("run", meld.tiles)


# -- checks ---------------------------------------------------------------------------------------


def _name(index: int, meld: Sequence[Tile]) -> str:
    return f"meld {index + 1} ({format_tiles(meld)})"


def _meld(draft: Draft, index: int) -> tuple[Tile, ...]:
    count = len(draft.table)
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"meld index must be an int, not {type(index).__name__}")
    if not 0 <= index < count:
        if count == 0:
            raise TableEditError(f"no meld {index + 1}: the table is empty")
        which = "meld 1" if count == 1 else f"melds 1 to {count}"
        raise TableEditError(f"no meld {index + 1}: the table has {which}")
    return draft.table[index]


def _remove(source: Sequence[Tile], tiles: Sequence[Tile], where: str) -> tuple[Tile, ...]:
    """``source`` without ``tiles`` (as a multiset; order kept), or an error naming the missing tile."""
    if not tiles:
        raise TableEditError("name at least one tile")
    have = Counter(source)
    for tile, count in Counter(parse_tiles(tiles)).items():
        if have[tile] == 0:
            raise TableEditError(f"{tile} is not on {where}" if where == "your rack" else f"{tile} is not in {where}")
        if have[tile] < count:
            raise TableEditError(f"{count} copies of {tile} named; {where} has {have[tile]}")
    left = Counter(tiles)
    kept = []
    for tile in source:
        if left[tile] > 0:
            left[tile] -= 1
        else:
            kept.append(tile)
    return tuple(kept)


def _drop_empty(table: list[tuple[Tile, ...]]) -> Melds:
    return tuple(m for m in table if m)
