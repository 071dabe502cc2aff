"""The reading of a proposed new table: melds, tile iterables or strings, normalised to tiles and
their keys, with every tile that does not exist reported as ``bad_tile``. Part of the referee
(:mod:`rummisolve.referee`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

from rummisolve.errors import TileNotationError
from rummisolve.melds import Meld
from rummisolve.referee._keys import Key
from rummisolve.referee._verdict import Reason
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile, split_melds

NewTable = Iterable[Meld | str | Iterable[Tile | str]] | str
"""A new table as :func:`~rummisolve.referee.verify` takes it: melds, tile iterables, strings, or one string."""


class NewMeld:
    """One meld of the new table as given: its good tiles, their keys, why it is broken (bad tiles),
    and, once classified, the valid :class:`~rummisolve.melds.Meld` it is."""

    __slots__ = ("tiles", "keys", "broken", "meld")

    def __init__(self, tiles: tuple[Tile, ...], keys: tuple[Key, ...], broken: str | None) -> None:
        self.tiles = tiles
        self.keys = keys
        self.broken = broken
        self.meld: Meld | None = None


def read_table(new_table: NewTable, rules: RuleSet, valid: frozenset[Key], reasons: list[Reason]) -> list[NewMeld]:
    """Normalise ``new_table``, reporting tiles that do not exist as ``bad_tile``."""
    out = []
    for i, meld in enumerate(_items(new_table)):
        parts = _parts(i, meld)
        tiles = cast("Sequence[Tile]", parts)  # fast path: every item a Tile (else AttributeError)
        keys: tuple[Key, ...] | None
        try:
            keys = tuple([t.sort_key for t in tiles])
        except AttributeError:
            keys = None
        if keys is not None and valid.issuperset(keys):
            out.append(NewMeld(tuple(tiles), keys, None))
        else:
            out.append(_read_meld(i, parts, rules, valid, reasons))
    return out


def _items(new_table: NewTable) -> list[Meld | str | Iterable[Tile | str]]:
    """The melds of ``new_table`` (a string is split at ``|``)."""
    if isinstance(new_table, str):
        new_table = split_melds(new_table)
    elif isinstance(new_table, Meld | Tile):
        raise TypeError(f"new_table must be an iterable of melds, not a single {type(new_table).__name__}")
    try:
        return list(new_table)
    except TypeError:
        raise TypeError(f"new_table must be an iterable of melds, not {type(new_table).__name__}") from None


def _parts(i: int, meld: object) -> Sequence[object]:
    """The items of meld ``i`` as the caller gave them: tiles, codes, or anything else (a
    ``TypeError`` in :func:`_read_meld`)."""
    if isinstance(meld, Meld):
        return meld.tiles
    if isinstance(meld, str):
        return meld.replace(",", " ").split()
    if isinstance(meld, Tile):
        raise TypeError(f"table[{i}] must be a meld (an iterable of tiles), not a single Tile")
    try:
        return tuple(cast("Iterable[object]", meld))
    except TypeError:
        raise TypeError(f"table[{i}] must be a meld, not {type(meld).__name__}") from None


def _read_meld(
    i: int, parts: Sequence[object], rules: RuleSet, valid: frozenset[Key], reasons: list[Reason]
) -> NewMeld:
    """Meld ``i`` item by item: codes parsed, tiles that do not exist left out (``bad_tile``)."""
    seq = []
    broken = None
    for j, item in enumerate(parts):
        if isinstance(item, Tile):
            tile = item
        elif isinstance(item, str):
            try:
                tile = Tile.parse(item)
            except TileNotationError as err:
                reasons.append(Reason("bad_tile", f"table[{i}][{j}]: {err}", i))
                broken = broken or f"{item!r} is not a tile"
                continue
        else:
            raise TypeError(f"table[{i}][{j}] must be a Tile or a tile code, not {type(item).__name__}")
        if tile.sort_key not in valid:
            try:
                rules.check_tile(tile)
                message = f"tile {str(tile)!r} does not exist under these rules"
            except ValueError as err:
                message = str(err)
            reasons.append(Reason("bad_tile", f"table[{i}][{j}]: {message}", i))
            broken = broken or f"tile {str(tile)!r} does not exist under these rules"
            continue
        seq.append(tile)
    return NewMeld(tuple(seq), tuple(t.sort_key for t in seq), broken)
