"""Immutable game state snapshots and the per-player view of them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile

__all__ = ["GameState", "PlayerView"]


@dataclass(frozen=True)
class GameState:
    """One moment of a round: every rack, the table, the pool (next draw first) and whose turn it is.

    States are values: the engine never mutates one, it builds the next. ``passes`` counts
    consecutive turns without a play while the pool is empty (the blocked ending). Under the
    discard rule ``discards`` is the face-up pile (its top last), and ``draw_from``/``drawn`` say
    where the player to move drew from this turn and which tile (``None`` before a draw).
    """

    rules: RuleSet
    racks: tuple[tuple[Tile, ...], ...]
    table: tuple[Meld, ...]
    pool: tuple[Tile, ...]
    opened: tuple[bool, ...]
    current: int
    turn: int = 0
    passes: int = 0
    winner: int | None = None
    end_reason: str | None = None
    """``None`` while the round runs; ``"out"`` (a rack emptied) or ``"blocked"`` (pool empty, nobody plays)."""
    discards: tuple[Tile, ...] = ()
    draw_from: str | None = None
    drawn: Tile | None = None

    @property
    def players(self) -> int:
        return len(self.racks)

    @property
    def finished(self) -> bool:
        return self.end_reason is not None

    @property
    def table_tiles(self) -> tuple[Tile, ...]:
        return tuple(t for meld in self.table for t in meld.tiles)

    @property
    def discard_top(self) -> Tile | None:
        """The discard pile's top tile (``None``: no pile, or it is empty)."""
        return self.discards[-1] if self.discards else None

    def tile_counts(self) -> Counter[Tile]:
        """Every tile the state holds: pool, racks, table and discard pile together (must equal the full set)."""
        counts = Counter(self.pool)
        counts.update(self.discards)
        for rack in self.racks:
            counts.update(rack)
        counts.update(self.table_tiles)
        return counts

    def position(self, seat: int | None = None) -> Position:
        """The position of ``seat`` (default: the player to move) in the solver's terms."""
        seat = self.current if seat is None else seat
        return Position(self.table, self.racks[seat], self.opened[seat], self.rules)


@dataclass(frozen=True)
class PlayerView:
    """What one player may see: its own rack, the table, counts of the others' racks and of the pool,
    and the public history (plays with their tables; draws without the tile drawn).

    Under the discard rule also the face-up ``discard_pile`` (its top last; every tile on it was
    discarded in public), and for the player to move ``draw_from`` (``"pool"``, ``"discard"``, or
    ``None`` before drawing this turn) and ``drawn`` (the tile drawn this turn)."""

    seat: int
    rules: RuleSet
    rack: tuple[Tile, ...]
    table: tuple[Meld, ...]
    opened: bool
    players_opened: tuple[bool, ...]
    rack_sizes: tuple[int, ...]
    pool_size: int
    turn: int
    history: tuple[dict, ...] = ()
    """Public events as JSON objects (see :mod:`rummisolve.game.events`)."""
    discard_pile: tuple[Tile, ...] = ()
    draw_from: str | None = None
    drawn: Tile | None = None

    @property
    def pieces(self) -> tuple[str, str]:
        """What a rack holds, one and several (``tile``, ``tiles``), in words for players."""
        return ("tile", "tiles")

    @property
    def has_pool(self) -> bool:
        """Whether the game has a pool to draw from."""
        return True

    @property
    def rack_heading(self) -> str:
        """The own rack's heading for players: ``your rack (14, not opened yet)``."""
        return f"your rack ({len(self.rack)}, {'opened' if self.opened else 'not opened yet'})"

    @property
    def discard_top(self) -> Tile | None:
        """The tile a draw from the discard pile would take (``None``: there is none)."""
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def continues_turn(self) -> bool:
        """Whether this ask goes on with a turn begun already (under the discard rule: after the draw)."""
        return self.draw_from is not None

    @cached_property
    def position(self) -> Position:
        """This player's position (table, own rack, opened) for the solver and the referee."""
        return Position(self.table, self.rack, self.opened, self.rules)

    @property
    def players(self) -> int:
        return len(self.rack_sizes)

    def opponents(self) -> tuple[int, ...]:
        """The other seats, in turn order after this one."""
        n = self.players
        return tuple((self.seat + k) % n for k in range(1, n))

    def unseen(self) -> Counter[Tile]:
        """Tiles this player cannot see: in the pool or on another rack (not on the discard pile)."""
        return self.position.unseen_counts() - Counter(self.discard_pile)
