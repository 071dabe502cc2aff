"""A game room's rounds as it stores them: the finished ones compacted to their results, the
current one restored from its save without judging its plays again.

A finished round the room has moved past is kept only as its :class:`RoundResult` (the winner,
the ending, every seat's score and the turns), so a room's size and the work of loading it do not
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
from dataclasses import dataclass
from typing import Any

from rummisolve.errors import JsonInputError
from rummisolve.game import Game
from rummisolve.game.scoring import match_totals
from rummisolve.game.transitions import Referee, default_referee
from rummisolve.position import Position
from rummisolve.referee import Verdict
from rummisolve.tiles import Tile

__all__ = ["RoundResult", "round_result", "restore_round", "totals_of"]


@dataclass(frozen=True)
class RoundResult:
    """A finished round: its winner (``None``: nobody), how it ended, each seat's score, its turns."""

    winner: int | None
    end_reason: str
    scores: tuple[int, ...]
    turns: int

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "end_reason": self.end_reason, "scores": list(self.scores), "turns": self.turns}

    @classmethod
    def from_json(cls, obj: Any, players: int, path: str) -> RoundResult:
        """A result saved by :meth:`to_json` for ``players`` seats; :class:`JsonInputError` naming ``path``."""
        if not isinstance(obj, dict):
            raise JsonInputError(f"{path}: expected a round's result (an object)")
        winner, reason, scores, turns = (obj.get(k) for k in ("winner", "end_reason", "scores", "turns"))
        if winner is not None and not (_whole(winner) and 0 <= winner < players):
            raise JsonInputError(f"{path}.winner: expected a seat from 0 to {players - 1} or null")
        if reason not in ("out", "blocked"):
            raise JsonInputError(f"{path}.end_reason: expected 'out' or 'blocked'")
        if not isinstance(scores, list) or len(scores) != players or not all(_whole(s) for s in scores):
            raise JsonInputError(f"{path}.scores: expected {players} whole numbers")
        if not isinstance(turns, int) or isinstance(turns, bool) or turns < 0:
            raise JsonInputError(f"{path}.turns: expected a whole number of turns")
        return cls(winner, reason, tuple(scores), turns)


def _whole(n: Any) -> bool:
    return isinstance(n, int) and not isinstance(n, bool)


def round_result(game: Game) -> RoundResult | None:
    """The result of ``game``, once it is over (else ``None``)."""
    scores = game.scores()
    if scores is None:
        return None
    state = game.state
    assert state.end_reason is not None  # a round with scores is over
    return RoundResult(state.winner, state.end_reason, tuple(scores), state.turn)


def totals_of(results: Sequence[RoundResult], players: int) -> tuple[int, ...]:
    """Each seat's total over ``results``."""
    return match_totals([r.scores for r in results], players)


def restore_round(saved: Any, referee: Referee | None) -> Game:
    """The round saved by :meth:`Game.to_json <rummisolve.game.Game.to_json>`, rebuilt without
    judging its plays again (see the module's docstring); its plays from now on are judged by
    ``referee`` (``None``: the engine's own)."""
    judge = _Restoring(referee or default_referee)
    game = Game.from_json(saved, referee=judge)
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
