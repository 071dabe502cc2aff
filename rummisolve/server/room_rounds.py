"""A game room's rounds as it stores them: the finished ones compacted to their results, the
current one restored from its save without judging its plays again.

A finished round the room has moved past is kept only as its :class:`~rummisolve.game.match.RoundResult`
(the winner, the ending, every seat's score and the turns: the room's
:class:`~rummisolve.game.match.Match` keeps the current round only), so a room's size and the work of loading it do not
grow with the moves of its earlier rounds. The current round is kept whole (the engine's save:
its deal and its events), since its views show every event and the table before it; loading it
(:func:`restore_round`) rebuilds its states without the referee, as every play in it was judged
before it was saved: a play's tiles are those the new table holds beyond the old one (what the
referee says of a legal play), and the engine still checks that every tile is where it should be
after each event (pool, racks, table and discard pile are the full set).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rummisolve.game.kind import GameKind
from rummisolve.game.transitions import Referee, default_referee
from rummisolve.position import Position
from rummisolve.referee import Verdict
from rummisolve.tiles import Tile

__all__ = ["restore_round"]


def restore_round(kind: GameKind, saved: Any, referee: Referee | None) -> Any:
    """The round of ``kind`` saved by its ``to_json``, rebuilt without judging its plays again (see
    the module's docstring); its plays from now on are judged by ``referee`` (``None``: the engine's own)."""
    judge = _Restoring(referee or default_referee)
    game = kind.load_round(saved, referee=judge)
    judge.restored = True
    return game


class _Restoring:
    """The referee of a round being restored: while :attr:`restored` is false it accepts every play
    (each was judged before it was saved), with the tiles the new table holds beyond the old one as
    those played; then it is ``referee``."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.restored = False
        self.accepted = 0
        """Plays accepted without judging (while restoring)."""

    def __call__(self, position: Position, table: Sequence[Sequence[Tile]]) -> Verdict:
        if self.restored:
            return self.referee(position, table)
        self.accepted += 1
        before = Counter(t for meld in position.table for t in meld.tiles)
        after = Counter(t for meld in table for t in meld)
        return Verdict(True, played=tuple((after - before).elements()))
