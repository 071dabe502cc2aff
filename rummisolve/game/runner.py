"""Run one round between players: ask each for its action, apply it through the engine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rummisolve.errors import IllegalMoveError, OptionError
from rummisolve.game.actions import Draw, Play, Player
from rummisolve.game.engine import Game
from rummisolve.game.events import PlayEvent
from rummisolve.position import Position
from rummisolve.rules import STANDARD, RuleSet

__all__ = ["GameRecord", "TurnInfo", "MatchRecord", "play_game", "play_match"]


@dataclass(frozen=True)
class TurnInfo:
    """One applied turn, for logging: the mover's position before it and the event applied."""

    turn: int
    seat: int
    position: Position
    event: Any
    illegal: str | None = None
    """The referee's reasons when the player's play was rejected (the player then drew)."""


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one round."""

    seed: int | None
    names: tuple[str, ...]
    winner: int
    end_reason: str
    scores: tuple[int, ...]
    turns: int
    plays: int
    illegal_moves: int
    first: int = 0


def play_game(
    players: Sequence[Player],
    *,
    rules: RuleSet = STANDARD,
    seed: int | None = None,
    first: int = 0,
    deck=None,
    names: Sequence[str] | None = None,
    on_turn: Callable[[TurnInfo], None] | None = None,
    clock: Callable[[], float] | None = None,
    referee=None,
) -> tuple[Game, GameRecord]:
    """Play one round to its end and return the game and its record.

    A play the referee rejects never reaches the table: an interactive player (one with an
    ``illegal(message)`` method) is told why and asked again; any other player's rejected play
    counts as an illegal move and the player draws instead.
    """
    names = (
        tuple(names)
        if names is not None
        else tuple(getattr(p, "name", f"player {i + 1}") for i, p in enumerate(players))
    )
    game = Game(len(players), rules, seed, first=first, deck=deck, names=names, clock=clock, referee=referee)
    illegal = 0
    plays = 0
    while not game.finished:
        state = game.state
        seat = state.current
        view = game.view(seat)
        player = players[seat]
        action = player.choose(view)
        problem = None
        if isinstance(action, Play):
            try:
                event = game.play(action.table)
            except IllegalMoveError as err:
                if hasattr(player, "illegal"):  # an interactive player: explain, then ask again
                    player.illegal(str(err))
                    continue
                illegal += 1
                problem = str(err)
                event = game.draw()
        elif isinstance(action, Draw):
            event = game.draw()
        else:
            raise TypeError(f"{names[seat]} returned {action!r}; expected Play or Draw")
        if isinstance(event, PlayEvent):
            plays += 1
        if on_turn is not None:
            on_turn(TurnInfo(state.turn, seat, view.position, event, problem))
    final = game.state
    record = GameRecord(
        seed=game.deal.seed,
        names=names,
        winner=final.winner,
        end_reason=final.end_reason,
        scores=game.scores(),
        turns=final.turn,
        plays=plays,
        illegal_moves=illegal,
        first=first,
    )
    return game, record


@dataclass(frozen=True)
class MatchRecord:
    """A match of several rounds: each round's record and each seat's total (highest total wins)."""

    rounds: tuple[GameRecord, ...]
    totals: tuple[int, ...]

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats with the highest total (several on a tie)."""
        best = max(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == best)


def play_match(
    players: Sequence[Player], rounds: int, *, rules: RuleSet = STANDARD, seed: int = 0, **kwargs: Any
) -> MatchRecord:
    """Play ``rounds`` rounds (the first player moves one seat on each round; round ``r`` is dealt
    from seed ``seed + r``) and add up the round scores."""
    from rummisolve.game.scoring import match_totals

    if rounds < 1:
        raise OptionError(f"a match needs at least one round, not {rounds}")
    records = tuple(
        play_game(players, rules=rules, seed=seed + r, first=r % len(players), **kwargs)[1] for r in range(rounds)
    )
    return MatchRecord(records, match_totals([rec.scores for rec in records], len(players)))
