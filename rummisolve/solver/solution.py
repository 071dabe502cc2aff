"""The public result of a solve."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.tiles import Tile

__all__ = ["Solution", "STATUSES"]

STATUSES = ("optimal", "feasible", "no_move")


@dataclass(frozen=True)
class Solution:
    """The best turn found for a position; every Solution has passed the referee.

    ``status`` is ``"optimal"`` (proven best), ``"feasible"`` (time limit hit: best found so far)
    or ``"no_move"`` (nothing legal to play: draw). ``proven`` is False only for a ``no_move``
    that the time limit cut short.
    """

    status: str
    played: tuple[Tile, ...]
    """Rack tiles played, sorted."""
    table: tuple[Meld, ...]
    """The new table (the old one on ``no_move``): melds kept unchanged first, in their old order."""
    value: int
    """Points shed: the numbers of the tiles played, a joker counting its rack penalty."""
    objective: str
    position: Position = field(repr=False)
    kept: tuple[int, ...] = ()
    """Indices of the position's table melds left exactly as they were."""
    timings: dict[str, float] = field(default_factory=dict, compare=False, repr=False)
    """Seconds spent: ``build``, ``solve``, ``decode``, ``verify`` (and ``parse`` from JSON)."""
    proven: bool = True

    @property
    def tiles_played(self) -> int:
        return len(self.played)

    @property
    def rack_after(self) -> tuple[Tile, ...]:
        """The rack once the played tiles are gone."""
        left = Counter(self.position.rack) - Counter(self.played)
        return tuple(sorted(left.elements()))

    @property
    def new_melds(self) -> tuple[Meld, ...]:
        """Melds of the new table that were not on the old one as they are."""
        return self.table[len(self.kept) :] if self.status != "no_move" else ()

    @property
    def jokers(self) -> tuple[tuple[int, int, Tile], ...]:
        """``(meld index, slot, tile it stands for)`` for every joker on the new table."""
        return tuple((i, slot, tile) for i, meld in enumerate(self.table) for slot, tile in meld.jokers)

    def __bool__(self) -> bool:
        return self.status != "no_move"

    def _repr_svg_(self) -> str:
        """Jupyter shows a solution as the new table with the played tiles highlighted."""
        from rummisolve.render import render_svg

        return render_svg(self)

    def __str__(self) -> str:
        if self.status == "no_move":
            return f"no move ({'proven' if self.proven else 'none found in time'}): draw a tile"
        lines = [
            f"{self.status}: play {len(self.played)} tile(s) worth {self.value}: {' '.join(map(str, self.played))}",
            "table:",
        ]
        for i, meld in enumerate(self.table):
            mark = " " if i < len(self.kept) else "*"
            lines.append(f" {mark} {meld}")
        left = self.rack_after
        lines.append(f"rack left: {' '.join(map(str, left)) if left else '(empty)'}")
        return "\n".join(lines)
