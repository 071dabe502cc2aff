"""A position: the melds on the table, the mover's rack, whether the mover has opened, the rules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from rummisolve.errors import InvalidMeldError, TileCountError
from rummisolve.melds import Meld, is_checked
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import Tile, format_tiles, parse_tiles, split_melds

__all__ = ["Position"]


@dataclass(frozen=True)
class Position:
    """An immutable, validated position from the mover's point of view.

    ``table`` holds valid melds; ``rack`` is kept sorted. Construction checks that every tile
    exists under ``rules``, that no tile has more copies across table and rack than the set
    holds, and that every table meld is valid.

    >>> p = Position.from_notation(["R1 R2 R3", "K7 B7 O7"], "R4 J", opened=True)
    >>> print(p)
    table: R1 R2 R3 | K7 B7 O7
    rack:  R4 J
    opened: yes
    """

    table: tuple[Meld, ...]
    rack: tuple[Tile, ...]
    opened: bool = True
    rules: RuleSet = STANDARD

    def __post_init__(self) -> None:
        rules = self.rules
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
        melds = []
        for i, meld in enumerate(self.table):
            if isinstance(meld, Meld) and is_checked(meld, rules):
                melds.append(meld)  # made by Meld.of, so already checked (a Meld built by hand is not)
                continue
            tiles = meld.tiles if isinstance(meld, Meld) else parse_tiles(meld)
            try:
                melds.append(Meld.of(tiles, rules))
            except InvalidMeldError as err:
                raise InvalidMeldError(f"table[{i}]: {err}", err.reason, err.tiles) from None
        rack = parse_tiles(self.rack)
        for tile in rack:
            rules.check_tile(tile)
        object.__setattr__(self, "table", tuple(melds))
        object.__setattr__(self, "rack", tuple(sorted(rack)))
        if not isinstance(self.opened, bool | int) or self.opened not in (0, 1):
            raise TypeError(f"opened must be True or False, not {self.opened!r}")
        object.__setattr__(self, "opened", bool(self.opened))
        counts = Counter(rack)
        for meld in melds:
            counts.update(meld.tiles)
        too_many = sorted(tile for tile, count in counts.items() if count > rules.copies_of(tile))
        if too_many:
            tile = too_many[0]
            what = f"jokers {tile}" if tile.is_any_joker else f"copies of {tile}"
            raise TileCountError(
                f"{counts[tile]} {what} across table and rack, but the set has only {rules.copies_of(tile)}"
            )

    @classmethod
    def from_notation(
        cls,
        table: Iterable[str | Iterable[Tile | str]] | str = (),
        rack: str | Iterable[Tile | str] = (),
        opened: bool = True,
        rules: RuleSet = STANDARD,
    ) -> Position:
        """Build from notation: ``table`` as ``"R1 R2 R3 | K7 B7 O7"`` or a list of melds."""
        if isinstance(table, str):
            table = split_melds(table)
        melds = tuple(parse_tiles(m) for m in table)
        return cls(cast("tuple[Meld, ...]", melds), parse_tiles(rack), opened, rules)  # __post_init__ makes them melds

    @property
    def table_tiles(self) -> tuple[Tile, ...]:
        """Every tile on the table, sorted."""
        return tuple(sorted(t for meld in self.table for t in meld.tiles))

    def table_counts(self) -> Counter[Tile]:
        return Counter(t for meld in self.table for t in meld.tiles)

    def rack_counts(self) -> Counter[Tile]:
        return Counter(self.rack)

    def rack_after(self, played: Iterable[Tile]) -> tuple[Tile, ...]:
        """The rack once ``played`` (tiles from it) are gone, sorted; tiles not on the rack are ignored."""
        return tuple(sorted((Counter(self.rack) - Counter(played)).elements()))

    def unseen_counts(self) -> Counter[Tile]:
        """Tiles of the full set on neither the table nor this rack (the pool and other racks)."""
        seen = self.table_counts() + self.rack_counts()
        full = Counter({kind: self.rules.copies for kind in self.rules.tile_kinds})
        full.update(self.rules.joker_counts)
        return full - seen

    @property
    def tiles_in_play(self) -> int:
        """Table tiles plus rack tiles."""
        return sum(len(m) for m in self.table) + len(self.rack)

    def __str__(self) -> str:
        table = " | ".join(str(m) for m in self.table) or "(empty)"
        return (
            f"table: {table}\nrack:  {format_tiles(self.rack) or '(empty)'}\nopened: {'yes' if self.opened else 'no'}"
        )

    def _repr_svg_(self) -> str:
        """Jupyter shows a position as a picture of its table and rack."""
        from rummisolve.render import render_svg

        return render_svg(self)

    def __repr__(self) -> str:
        args = [repr([str(m) for m in self.table]), repr(format_tiles(self.rack)), f"opened={self.opened}"]
        if self.rules != STANDARD:
            args.append(f"rules={self.rules!r}")
        return f"Position.from_notation({', '.join(args)})"
