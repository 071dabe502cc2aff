"""The result of a solve: :class:`Solution`, with the closed sets :class:`Objective` and :class:`Status`."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from rummisolve.melds import Meld, StandsFor
from rummisolve.position import Position
from rummisolve.tiles import Tile, format_tiles

__all__ = ["Solution", "Objective", "Status", "AlternativesMode", "OBJECTIVES", "STATUSES", "ALTERNATIVES_MODES"]


class Objective(enum.StrEnum):
    """What a move maximises. String-valued: ``Objective.TILES == "tiles"``, and JSON carries the string."""

    TILES = "tiles"
    """The most rack tiles played."""
    VALUE = "value"
    """The most points shed (a joker counts its rack penalty)."""

    def __repr__(self) -> str:
        return f"Objective.{self.name}"


class Status(enum.StrEnum):
    """How a solve ended. String-valued: ``Status.OPTIMAL == "optimal"``, and JSON carries the string."""

    OPTIMAL = "optimal"
    """The move is proven best."""
    FEASIBLE = "feasible"
    """The time limit cut the proof short (or, under strict joker retrieval on rare tables, no
    proof exists: docs/rules.md): the move is legal and the best found."""
    NO_MOVE = "no_move"
    """Proven: no legal move exists (the player must draw)."""
    UNKNOWN = "unknown"
    """The time limit ran out before any move was found (or, under strict joker retrieval on rare
    tables, none was found: docs/rules.md): *not* a proof that none exists."""

    def __repr__(self) -> str:
        return f"Status.{self.name}"


class AlternativesMode(enum.StrEnum):
    """What an alternative is (``solve(..., alternatives=N, alternatives_mode=...)``). String-valued,
    like :class:`Objective`."""

    NOT_CONTAINED = "not_contained"
    """The default. Each alternative plays some tile (or a further copy of one) that each move listed
    before it does not: its played multiset is contained in none of theirs. So no alternative is
    an earlier move less some tiles."""
    DISTINCT = "distinct"
    """Each alternative's played multiset differs from every earlier move's (it may be an earlier
    move less a tile)."""

    def __repr__(self) -> str:
        return f"AlternativesMode.{self.name}"


OBJECTIVES: tuple[str, ...] = tuple(o.value for o in Objective)
STATUSES: tuple[str, ...] = tuple(s.value for s in Status)
ALTERNATIVES_MODES: tuple[str, ...] = tuple(m.value for m in AlternativesMode)
"""The names, as plain strings (messages list them: ``'tiles'``, not ``Objective.TILES``)."""
_MOVES = frozenset((Status.OPTIMAL, Status.FEASIBLE))
_PROVEN = frozenset((Status.OPTIMAL, Status.NO_MOVE))


@dataclass(frozen=True)
class Solution:
    """The best turn found for a position; every Solution has passed the referee.

    ``status`` is a :class:`Status`: ``optimal`` (proven best), ``feasible`` (the best move found,
    not proven best), ``no_move`` (proven: nothing legal to play, draw) or ``unknown`` (no move
    found, which proves nothing); :class:`Status` says when the last two occur. ``bool(solution)`` says
    whether there is a move to play; ``proven`` whether the answer is proven (``optimal`` or
    ``no_move``). Without a move, ``table`` is the old table and ``played`` is empty.
    """

    status: Status
    played: tuple[Tile, ...]
    """Rack tiles played, sorted."""
    table: tuple[Meld, ...]
    """The new table (the old one without a move): melds kept unchanged first, in their old order."""
    value: int
    """Points shed: the numbers of the tiles played, a joker counting its rack penalty."""
    objective: Objective
    position: Position = field(repr=False)
    kept: tuple[int, ...] = ()
    """Indices of the position's table melds left exactly as they were."""
    timings: dict[str, float] = field(default_factory=dict, compare=False, repr=False)
    """Seconds spent: ``build``, ``solve``, ``decode``, ``verify`` (and ``parse`` from JSON)."""
    alternatives: tuple[Solution, ...] = field(default=(), compare=False, repr=False)
    """Further moves, when asked for (see :func:`rummisolve.solve`): each the best among the moves
    that play a tile (or a further copy) the best move and every earlier alternative do not play
    (:attr:`AlternativesMode.NOT_CONTAINED`, the default), or whose played tiles differ from
    theirs (:attr:`AlternativesMode.DISTINCT`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Status(self.status))
        object.__setattr__(self, "objective", Objective(self.objective))

    @property
    def proven(self) -> bool:
        """Whether the answer is proven: the best move (``optimal``), or that there is none (``no_move``)."""
        return self.status in _PROVEN

    @property
    def tiles_played(self) -> int:
        return len(self.played)

    @property
    def rack_after(self) -> tuple[Tile, ...]:
        """The rack once the played tiles are gone."""
        return self.position.rack_after(self.played)

    @property
    def new_melds(self) -> tuple[Meld, ...]:
        """Melds of the new table that were not on the old one as they are."""
        return self.table[len(self.kept) :] if self else ()

    @property
    def initial_meld_value(self) -> int | None:
        """What this move's initial meld counts towards the opening threshold, for a player who has
        not opened (the official opening: ``open_then_manipulate`` off): the new melds' numbers, each
        joker counting the number it stands for. ``value`` counts a joker its rack penalty instead
        (``K10 B10 J`` sheds 50 points and opens with 30). ``None`` for an opened player, without a
        move, and under ``open_then_manipulate`` (where the opening is some of the new melds)."""
        if not self or self.position.opened or self.position.rules.open_then_manipulate:
            return None
        return sum(meld.value for meld in self.new_melds)

    @property
    def jokers(self) -> tuple[tuple[int, int, StandsFor], ...]:
        """``(meld index, slot, what it stands for)`` for every joker on the new table: for ``J`` a
        tile; for the Twist jokers as :attr:`~rummisolve.melds.Meld.stands_for` (``JD`` two tiles,
        ``JC`` its slot's number, ``JM`` ``None``)."""
        return tuple((i, slot, tile) for i, meld in enumerate(self.table) for slot, tile in meld.jokers)

    def __bool__(self) -> bool:
        """Whether there is a move to play (``optimal`` or ``feasible``)."""
        return self.status in _MOVES

    def _repr_svg_(self) -> str:
        """Jupyter shows a solution as the new table with the played tiles highlighted."""
        from rummisolve.render import render_svg

        return render_svg(self)

    def __str__(self) -> str:
        if self.status is Status.NO_MOVE:
            return "no move (proven): draw a tile"
        if self.status is Status.UNKNOWN:
            return "unknown: the time limit ran out before any move was found (not a proof that there is none)"
        penalty = self.position.rules.joker_penalty
        jokers = f" (a joker counts {penalty})" if any(t.is_any_joker for t in self.played) else ""
        lines = [
            f"{self.status}: play {len(self.played)} tile(s) worth {self.value}{jokers}: {format_tiles(self.played)}"
        ]
        if self.initial_meld_value is not None:
            lines.append(f"initial meld: worth {self.initial_meld_value} (a joker counts the number it stands for)")
        lines.append("table:")
        for i, meld in enumerate(self.table):
            mark = " " if i < len(self.kept) else "*"
            lines.append(f" {mark} {meld}")
        left = self.rack_after
        lines.append(f"rack left: {' '.join(map(str, left)) if left else '(empty)'}")
        return "\n".join(lines)
