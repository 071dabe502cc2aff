"""The tile game as a game kind (:class:`~rummisolve.game.kind.GameKind`): every rule set without
dice (standard, official, XP, Twist, the discard rule), its engine (:class:`~rummisolve.game.engine.Game`),
its AI levels, its tournament games and its terminal loop (:mod:`rummisolve.game.terminal.play`); and
:func:`play_match`, a match of it between players.

>>> TILE_GAME.name, TILE_GAME.plays(STANDARD), TILE_GAME.ai_levels
('tiles', True, ('easy', 'medium', 'hard', 'expert'))
>>> TILE_GAME.new_round(3, STANDARD, 5, first=None).current
0
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rummisolve.errors import OptionError
from rummisolve.game.kind import GameKind, TournamentGame
from rummisolve.game.match import Match
from rummisolve.game.players import AI_LEVELS
from rummisolve.game.transitions import Referee
from rummisolve.rules import STANDARD, RuleSet

if TYPE_CHECKING:
    from rummisolve.game.actions import Player
    from rummisolve.game.runner import MatchRecord, TurnInfo

__all__ = ["TileGame", "TILE_GAME", "play_match"]


class TileGame(GameKind):
    """The tile game, under any rule set without dice (standard, official, XP, Twist, the discard rule)."""

    name = "tiles"
    title = "the tile game"
    aliases = ("rummikub", "tile", "standard", "official", "xp", "twist")
    default_rules = STANDARD
    ai_levels = AI_LEVELS
    formats = ("rummisolve-game", "rummisolve-session", "rummisolve-match")
    match_format = "rummisolve-match"
    session = "rummisolve.server.session:Session"
    room_actions = ("play", "draw", "discard")
    room_view = "rummisolve.server.room_views:tile_room_view"

    def plays(self, rules: RuleSet) -> bool:
        return not rules.dice

    def new_round(
        self,
        players: int,
        rules: RuleSet,
        seed: int,
        *,
        first: int | None,
        names: Sequence[str] | None = None,
        referee: Referee | None = None,
    ) -> Any:
        from rummisolve.game.engine import Game

        return Game(players, rules, seed, first=0 if first is None else first, names=names, referee=referee)

    def load_round(self, obj: Any, referee: Referee | None = None) -> Any:
        from rummisolve.game.engine import Game

        return Game.from_json(obj, referee=referee)

    def make_player(self, level: str, seed: int | None = None, think: float | None = None) -> Any:
        from rummisolve.game.players import make_player

        return make_player(level, seed=seed, think=think)

    def play_turn(self, game: Any, player: Any, name: str) -> Any:
        from rummisolve.game.runner import play_turn

        return play_turn(game, player, name)

    def forfeit(self, view: Any) -> Any:
        from rummisolve.game.actions import Draw

        return Draw()  # after a draw under the discard rule it is refused: the turn is forfeit

    def timeout(self, game: Any) -> Any:
        return game.timeout()

    def tournament_game(self) -> TournamentGame:
        import functools

        from rummisolve.game.players import make_player
        from rummisolve.game.runner import play_game, turn_line

        return make_player, functools.partial(play_game, deck=None), turn_line

    def play_in_terminal(self, args: argparse.Namespace, rules: RuleSet, kinds: list[str] | None) -> int:
        from rummisolve.game.terminal.play import play_tiles

        return play_tiles(args, rules, kinds, self)


TILE_GAME = TileGame()
"""The tile game's kind."""


def play_match(
    players: Sequence[Player],
    rounds: int,
    *,
    rules: RuleSet = STANDARD,
    seed: int = 0,
    names: Sequence[str] | None = None,
    on_turn: Callable[[TurnInfo], None] | None = None,
    referee: Referee | None = None,
) -> MatchRecord:
    """Play ``rounds`` rounds of a :class:`~rummisolve.game.match.Match` of the tile game (the first
    player moves one seat on each round; round ``r`` is dealt from :func:`~rummisolve.game.match.round_seed`)
    and add up the round scores."""
    from rummisolve.game.runner import MatchRecord, play_out

    if rounds < 1:
        raise OptionError(f"a match needs at least one round, not {rounds}")
    if names is None:
        names = tuple(getattr(p, "name", f"player {i + 1}") for i, p in enumerate(players))
    match = Match(TILE_GAME, len(players), rules, seed, length=rounds, names=names, referee=referee)
    records = []
    while True:
        records.append(play_out(match.game, players, on_turn))
        if match.finished:
            return MatchRecord(tuple(records), match.totals())
        match.next_round()
