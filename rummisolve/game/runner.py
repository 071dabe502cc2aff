"""Run one round between players: ask each for its action, apply it through the engine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rummisolve.errors import GameStateError, IllegalMoveError
from rummisolve.game.actions import Discard, Draw, Play, Player
from rummisolve.game.engine import Game, Referee
from rummisolve.game.events import DrawEvent, Event, PlayEvent, TimeoutEvent
from rummisolve.jsonio import position_to_json, table_to_json
from rummisolve.position import Position
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import Tile

__all__ = ["GameRecord", "TurnInfo", "MatchRecord", "play_game", "play_out", "play_turn", "turn_line"]


@dataclass(frozen=True)
class TurnInfo:
    """One applied turn, for logging: the position the mover decided on and the event that ended the turn.

    Under the discard rule ``draw`` is the turn's draw (``None`` when the player played without
    drawing), ``position`` the one after it, and ``event`` the play (carrying its discard), the
    discard or a timeout."""

    turn: int
    seat: int
    position: Position
    event: Any
    illegal: str | None = None
    """The referee's reasons when the player's play was rejected (the player then drew)."""
    draw: DrawEvent | None = None
    pile: tuple[Tile, ...] = ()
    """Under the discard rule: the discard pile at the start of the turn (its top last)."""


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
    deck: Sequence[Tile | str] | None = None,
    names: Sequence[str] | None = None,
    on_turn: Callable[[TurnInfo], None] | None = None,
    clock: Callable[[], float] | None = None,
    referee: Referee | None = None,
) -> tuple[Game, GameRecord]:
    """Play one round to its end and return the game and its record (each turn as :func:`play_turn`).

    A play the referee rejects never reaches the table: an interactive player (one with an
    ``illegal(message)`` method) is told why and asked again; any other player's rejected play
    counts as an illegal move and the player draws instead. ``on_turn`` sees each whole turn.
    """
    names = (
        tuple(names)
        if names is not None
        else tuple(getattr(p, "name", f"player {i + 1}") for i, p in enumerate(players))
    )
    game = Game(len(players), rules, seed, first=first, deck=deck, names=names, clock=clock, referee=referee)
    return game, play_out(game, players, on_turn)


def play_out(game: Game, players: Sequence[Player], on_turn: Callable[[TurnInfo], None] | None = None) -> GameRecord:
    """Play ``game`` to its end; its record."""
    names = game.names
    illegal = 0
    plays = 0
    while not game.finished:
        info = play_turn(game, players[game.current], names[game.current])
        if info.illegal is not None:
            illegal += 1
        if isinstance(info.event, PlayEvent):
            plays += 1
        if on_turn is not None:
            on_turn(info)
    final = game.state
    scores = game.scores()
    assert final.winner is not None and final.end_reason is not None and scores is not None  # the round is over
    record = GameRecord(
        seed=game.deal.seed,
        names=names,
        winner=final.winner,
        end_reason=final.end_reason,
        scores=scores,
        turns=final.turn,
        plays=plays,
        illegal_moves=illegal,
        first=game.deal.first,
    )
    return record


def play_turn(game: Game, player: Player, name: str = "player") -> TurnInfo:
    """Ask ``player`` (the one to move) for one whole turn and apply it; return what happened.

    A play the referee rejects never reaches the table: an interactive player (one with an
    ``illegal(message)`` method) is told why and asked again; any other player's rejected action
    counts as an illegal move and forfeits the turn (normal rules: a draw; discard rule: a draw
    from the pool, or the discard pile when the pool is empty, unless already drawn, then that
    tile is discarded)."""
    if game.rules.discard:
        return _discard_turn(game, player, name)
    state = game.state
    seat = state.current
    while True:
        view = game.view(seat)
        action = player.choose(view)
        problem = None
        if isinstance(action, Play):
            if action.discard is not None:
                raise TypeError(f"{name} returned {action!r}: these rules have no discard")
            try:
                event = game.play(action.table)
            except IllegalMoveError as err:
                if hasattr(player, "illegal"):  # an interactive player: explain, then ask again
                    player.illegal(str(err))
                    continue
                problem = str(err)
                event = game.draw()
        elif isinstance(action, Draw) and action.source == "pool":
            event = game.draw()
        else:
            raise TypeError(f"{name} returned {action!r}; expected Play or Draw")
        return TurnInfo(state.turn, seat, view.position, event, problem)


def _discard_turn(game: Game, player: Player, name: str) -> TurnInfo:
    """One turn under the discard rule: [draw,] then play with a discard, or discard."""
    state = game.state
    seat = state.current
    drew: DrawEvent | None = None
    event: Event
    while True:
        view = game.view(seat)
        action = player.choose(view)
        try:
            if isinstance(action, Draw):
                event = game.draw(action.source)
                if isinstance(event, DrawEvent):
                    drew = event
                    continue  # the turn goes on: ask again
            elif isinstance(action, Play):
                event = game.play(action.table, discard=action.discard)
            elif isinstance(action, Discard):
                event = game.discard(action.tile)
            else:
                raise TypeError(f"{name} returned {action!r}; expected Play, Draw or Discard")
        except (IllegalMoveError, GameStateError) as err:
            if hasattr(player, "illegal"):  # an interactive player: explain, then ask again
                player.illegal(str(err))
                continue
            drew, event = _forfeit(game, drew)
            return TurnInfo(state.turn, seat, view.position, event, str(err), drew, state.discards)
        return TurnInfo(state.turn, seat, view.position, event, None, drew, state.discards)


def _forfeit(game: Game, drew: DrawEvent | None) -> tuple[DrawEvent | None, Any]:
    """End a discard-rule turn after a rejected action: draw if not yet drawn, discard that tile."""
    if drew is None:
        event = game.draw("pool" if game.state.pool else "discard")
        if isinstance(event, TimeoutEvent):
            return None, event
        drew = event
    drawn = game.state.drawn
    assert drawn is not None  # the turn's draw
    return drew, game.discard(drawn)


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


def turn_line(info: TurnInfo, game: int, player: str, discard_rule: bool = False) -> dict[str, Any]:
    """One turn's log line: ``game``, ``turn``, ``player``, ``seat``, ``position`` (the one the move
    was decided on), ``action`` (``"play"`` or ``"draw"``), ``table`` for a play, ``illegal`` when
    the player's move was rejected; under the discard rule also ``draw_from`` (``"pool"``,
    ``"discard"`` or ``null``), ``drawn`` (the tile taken from the discard pile; ``null`` for a
    hidden pool tile or no draw), ``discard`` (the tile discarded; ``null`` after a timeout),
    ``pool_tile`` (the tile drawn from the pool, which a player's view hides; ``null`` for none) and
    ``pile`` (the discard pile at the start of the turn, its top last): with these the lines
    replay as a game (``rummisolve analyse``). A player's ``note`` on the move (the expert's
    ``"budget cut: 2 of 5 worlds"``) is added by :func:`run_deal` as ``note``."""
    event = info.event
    played = hasattr(event, "table")
    line: dict[str, Any] = {
        "game": game,
        "turn": info.turn,
        "player": player,
        "seat": info.seat,
        "position": position_to_json(info.position),
        "action": "play" if played else "draw",
    }
    if played:
        line["table"] = table_to_json(event.table)
    if discard_rule:
        draw = info.draw
        line["draw_from"] = None if draw is None else draw.source
        line["drawn"] = str(draw.tile) if draw is not None and draw.source == "discard" else None
        tile = event.discard if played else getattr(event, "tile", None)  # a timeout discards nothing
        line["discard"] = None if tile is None else str(tile)
        line["pool_tile"] = str(draw.tile) if draw is not None and draw.source == "pool" and draw.tile else None
        line["pile"] = [str(x) for x in info.pile]
    if info.illegal:
        line["illegal"] = info.illegal
    return line
