"""The Xpress dice edition as a game kind (:class:`~rummisolve.game.kind.GameKind`): its engine
(:class:`~rummisolve.xpress.game.XpressGame`), its AI levels, its tournament games, its terminal
loop (:mod:`rummisolve.xpress.terminal`) and its web session; and :func:`play_xpress_match`, a
match of it between players.

>>> XPRESS_GAME.plays(XPRESS), XPRESS_GAME.ai_levels
(True, ('easy', 'medium', 'hard'))
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rummisolve.game.kind import GameKind, TournamentGame
from rummisolve.game.match import Match
from rummisolve.game.transitions import Referee
from rummisolve.rules import XPRESS, RuleSet
from rummisolve.xpress.players import XPRESS_AI_LEVELS

if TYPE_CHECKING:
    from rummisolve.xpress.actions import XpressPlayer
    from rummisolve.xpress.runner import XpressMatchRecord

__all__ = ["XpressKind", "XPRESS_GAME", "play_xpress_match"]


class XpressKind(GameKind):
    """Xpress: two players, nine dice each, a roll then a play or a pass (docs/rules.md#xpress)."""

    name = "xpress"
    title = "the Xpress game"
    aliases = ("dice",)
    default_rules = XPRESS
    ai_levels = XPRESS_AI_LEVELS
    formats = ("rummisolve-xpress-game", "rummisolve-xpress-session", "rummisolve-xpress-match")
    match_format = "rummisolve-xpress-match"
    session = "rummisolve.server.dice_session:DiceSession"
    room_actions = ("roll", "play", "pass")
    room_view = "rummisolve.server.room_views_xpress:xpress_room_view"

    def plays(self, rules: RuleSet) -> bool:
        return rules.dice

    def check_rules(self, rules: RuleSet) -> None:
        from rummisolve.xpress.game import check_dice_rules

        check_dice_rules(rules)

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
        from rummisolve.xpress.game import XpressGame

        return XpressGame(seed, rules, first=first, names=names, referee=referee)

    def load_round(self, obj: Any, referee: Referee | None = None) -> Any:
        from rummisolve.xpress.game import XpressGame

        return XpressGame.from_json(obj, referee=referee)

    def make_player(self, level: str, seed: int | None = None, think: float | None = None) -> Any:
        from rummisolve.xpress.players import make_xpress_player

        return make_xpress_player(level, seed=seed, think=think)

    def play_turn(self, game: Any, player: Any, name: str) -> Any:
        from rummisolve.xpress.runner import play_xpress_turn

        return play_xpress_turn(game, player, name)

    def forfeit(self, view: Any) -> Any:
        from rummisolve.xpress.actions import Pass

        return Pass()  # allowed before the roll as after it

    def timeout(self, game: Any) -> Any:
        return game.pass_turn()  # out of time: the turn passes (no tiles to draw in Xpress)

    def tournament_game(self) -> TournamentGame:
        from rummisolve.xpress.players import make_xpress_player
        from rummisolve.xpress.runner import play_xpress_game, xpress_turn_line

        return make_xpress_player, play_xpress_game, xpress_turn_line

    def play_in_terminal(self, args: argparse.Namespace, rules: RuleSet, kinds: list[str] | None) -> int:
        from rummisolve.xpress.terminal import play_xpress

        return play_xpress(args, rules, kinds, self)


XPRESS_GAME = XpressKind()
"""The Xpress dice edition's kind."""


def play_xpress_match(
    players: Sequence[XpressPlayer], games: int, *, seed: int | None = None, rules: RuleSet = XPRESS
) -> tuple[Match, XpressMatchRecord]:
    """Play a match of ``games`` games (:class:`~rummisolve.game.match.Match`: the first player
    alternates, each game from its own seed) and add up the scores."""
    from rummisolve.xpress.runner import XpressMatchRecord, play_out
    from rummisolve.xpress.seeding import SEATS

    labels = tuple(getattr(p, "name", f"player {i + 1}") for i, p in enumerate(players))
    match = Match(XPRESS_GAME, SEATS, rules, seed, length=games, names=labels)
    records = []
    while True:
        records.append(play_out(match.game, players, labels))
        if match.finished:
            return match, XpressMatchRecord(tuple(records), match.totals())
        match.next_round()
