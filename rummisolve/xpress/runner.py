"""Run Xpress games between players: ask each for its roll and its play, apply them through the engine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rummisolve.errors import GameStateError, RummisolveError
from rummisolve.game.actions import Play
from rummisolve.game.transitions import Referee
from rummisolve.jsonio import position_to_json, table_to_json
from rummisolve.position import Position
from rummisolve.rules import XPRESS, RuleSet
from rummisolve.tiles import Tile
from rummisolve.xpress.actions import Pass, Roll, XpressPlayer
from rummisolve.xpress.events import DicePlayEvent, PassEvent, RollEvent
from rummisolve.xpress.game import XpressGame

__all__ = [
    "XpressTurn",
    "XpressRecord",
    "XpressMatchRecord",
    "play_xpress_turn",
    "play_xpress_game",
    "play_out",
    "xpress_turn_line",
]


@dataclass(frozen=True)
class XpressTurn:
    """One whole turn: the mover's position before the roll (and its free ``dice`` with the
    ``faces`` they showed, in that order) and after it (the one the play was decided on), the roll
    (``None``: none asked), the play or pass that ended it, and the engine's reasons when the
    player's action was refused (the turn was then passed)."""

    turn: int
    seat: int
    before: Position
    dice: tuple[str, ...]
    faces: tuple[Tile, ...]
    position: Position
    roll: RollEvent | None
    event: DicePlayEvent | PassEvent
    illegal: str | None = None


@dataclass(frozen=True)
class XpressRecord:
    """The outcome of one game (``winner`` ``None``: a draw)."""

    seed: int
    names: tuple[str, ...]
    winner: int | None
    end_reason: str
    scores: tuple[int, ...]
    turns: int
    plays: int
    illegal_moves: int
    first: int


def play_xpress_turn(game: XpressGame, player: XpressPlayer, name: str = "player") -> XpressTurn:
    """Ask ``player`` (the one to move) for its whole turn and apply it. An action the engine
    refuses never changes the game: an interactive player (one with an ``illegal(message)``
    method) is told why and asked again; any other player's refusal counts as an illegal move and
    the turn is passed."""
    start = game.view()
    seat, roll = start.seat, None
    while True:
        view = game.view(seat)
        action = player.choose(view)
        try:
            if isinstance(action, Roll):
                roll = game.roll(action.dice)
                continue
            if isinstance(action, Play):
                if action.discard is not None:
                    raise GameStateError(f"{name} played with a discard: the Xpress game has none")
                event: DicePlayEvent | PassEvent = game.play(action.table)
            elif isinstance(action, Pass):
                event = game.pass_turn()
            else:
                raise TypeError(f"{name} returned {action!r}; expected Roll, Play or Pass")
        except RummisolveError as err:  # refused: an IllegalMoveError, a GameStateError, a DiceError
            if hasattr(player, "illegal"):  # an interactive player: explain, then ask again
                player.illegal(str(err))
                continue
            return XpressTurn(
                start.turn,
                seat,
                start.position,
                start.dice,
                start.rack,
                view.position,
                roll,
                game.pass_turn(),
                str(err),
            )
        return XpressTurn(start.turn, seat, start.position, start.dice, start.rack, view.position, roll, event)


def play_xpress_game(
    players: Sequence[XpressPlayer],
    *,
    rules: RuleSet = XPRESS,
    seed: int | None = None,
    first: int | None = None,
    names: Sequence[str] | None = None,
    on_turn: Callable[[XpressTurn], None] | None = None,
    referee: Referee | None = None,
) -> tuple[XpressGame, XpressRecord]:
    """Play one game to its end (each turn as :func:`play_xpress_turn`); the game and its record."""
    if len(players) != 2:
        raise GameStateError(f"the Xpress game has 2 players, not {len(players)}")
    labels = (
        tuple(names)
        if names is not None
        else tuple(getattr(p, "name", f"player {i + 1}") for i, p in enumerate(players))
    )
    game = XpressGame(seed, rules, first=first, names=labels, referee=referee)
    return game, play_out(game, players, labels, on_turn)


def play_out(
    game: XpressGame,
    players: Sequence[XpressPlayer],
    labels: Sequence[str],
    on_turn: Callable[[XpressTurn], None] | None = None,
) -> XpressRecord:
    """Play ``game`` to its end."""
    illegal = plays = 0
    while not game.finished:
        info = play_xpress_turn(game, players[game.current], labels[game.current])
        illegal += info.illegal is not None
        plays += isinstance(info.event, DicePlayEvent)
        if on_turn is not None:
            on_turn(info)
    final = game.state
    scores = game.scores()
    assert final.end_reason is not None and scores is not None  # the game is over
    return XpressRecord(
        game.seed, tuple(labels), final.winner, final.end_reason, scores, final.turn, plays, illegal, game.deal.first
    )


def xpress_turn_line(info: XpressTurn, game: int, player: str, discard_rule: bool = False) -> dict[str, Any]:
    """One turn's tournament log line: ``game``, ``turn``, ``player``, ``seat``, ``dice`` (the
    mover's free dice), ``faces`` (what they showed, in that order) and ``position`` before the roll, ``roll`` (the dice
    rolled and what they show now, or ``null``), ``action`` (``"play"`` or ``"pass"``), ``table``
    for a play with its ``played`` dice, ``illegal`` when the player's action was refused.
    (``discard_rule``: the tile game's signature; the dice game has no discard.)"""
    line: dict[str, Any] = {
        "game": game,
        "turn": info.turn,
        "player": player,
        "seat": info.seat,
        "dice": list(info.dice),
        "faces": [str(t) for t in info.faces],
        "position": position_to_json(info.before),
        "roll": None if info.roll is None else {k: v for k, v in info.roll.to_json().items() if k in ("dice", "faces")},
        "action": "play" if isinstance(info.event, DicePlayEvent) else "pass",
    }
    if isinstance(info.event, DicePlayEvent):
        line["table"] = table_to_json(info.event.table)
        line["played"] = list(info.event.dice or ())
    if info.illegal:
        line["illegal"] = info.illegal
    return line


@dataclass(frozen=True)
class XpressMatchRecord:
    """A match: each game's record and each seat's total (the highest total wins)."""

    games: tuple[XpressRecord, ...]
    totals: tuple[int, ...]
