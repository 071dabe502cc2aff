"""An Xpress match: several games between the same two players, the scores added up.

Game 0 is played from the match's seed itself (so a one-game match is ``XpressGame(seed)``), game
``g`` from :func:`match_game_seed`; game 0's first player is drawn by its seed, and the first
player alternates from game to game after it.

>>> match = XpressMatch(games=2, seed=3)
>>> match.game.seed, match.finished, match.totals()
(3, False, (0, 0))
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from rummisolve.errors import GameStateError, JsonInputError
from rummisolve.game.save_files import write_save
from rummisolve.game.saves import read_save
from rummisolve.game.transitions import Referee
from rummisolve.rules import XPRESS, RuleSet
from rummisolve.xpress.game import XpressGame
from rummisolve.xpress.seeding import SEATS

__all__ = ["XpressMatch", "match_game_seed", "XPRESS_MATCH_FORMAT"]

XPRESS_MATCH_FORMAT = "rummisolve-xpress-match"
_MATCH_VERSION = 1


def match_game_seed(seed: int, game: int) -> int:
    """The seed of game ``game`` of a match seeded ``seed``: the seed itself for game 0."""
    if game == 0:
        return seed
    return random.Random(f"rummisolve-xpress-match/{seed}/{game}").getrandbits(63)


class XpressMatch:
    """``games`` games (default 1; printed editions play 5 or 6); the highest total wins."""

    def __init__(
        self,
        games: int = 1,
        seed: int | None = None,
        rules: RuleSet = XPRESS,
        *,
        names: tuple[str, ...] | None = None,
        referee: Referee | None = None,
    ) -> None:
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise GameStateError(f"a match has at least one game, not {games!r}")
        self.length = games
        self._names = names
        self._referee = referee
        first = XpressGame(seed, rules, names=names, referee=referee)
        self.seed = first.seed
        self.rules = rules
        self._games = [first]

    @property
    def game(self) -> XpressGame:
        """The game being played (or the last one)."""
        return self._games[-1]

    @property
    def games(self) -> tuple[XpressGame, ...]:
        """The games so far, the current one last."""
        return tuple(self._games)

    @property
    def finished(self) -> bool:
        return len(self._games) == self.length and self.game.finished

    def next_game(self) -> XpressGame:
        """Start the next game; :class:`GameStateError` while the current one runs or when none is left."""
        if not self.game.finished:
            raise GameStateError(f"game {len(self._games)} of the match is still being played")
        if len(self._games) == self.length:
            raise GameStateError(f"the match is over: it had {self.length} games")
        index = len(self._games)
        first = (self._games[0].deal.first + index) % SEATS
        game = XpressGame(
            match_game_seed(self.seed, index), self.rules, first=first, names=self._names, referee=self._referee
        )
        self._games.append(game)
        return game

    def totals(self) -> tuple[int, ...]:
        """Each seat's total over the finished games."""
        totals = [0] * SEATS
        for game in self._games:
            for seat, score in enumerate(game.scores() or (0,) * SEATS):
                totals[seat] += score
        return tuple(totals)

    def leaders(self) -> tuple[int, ...]:
        """The seats with the highest total (both on a tie)."""
        totals = self.totals()
        return tuple(s for s, t in enumerate(totals) if t == max(totals))

    def to_json(self) -> dict[str, Any]:
        """A saved match: its length, its seed, and each game's save."""
        return {
            "format": XPRESS_MATCH_FORMAT,
            "version": _MATCH_VERSION,
            "games": self.length,
            "seed": self.seed,
            "rounds": [game.to_json() for game in self._games],
        }

    @classmethod
    def from_json(cls, obj: Any, *, referee: Referee | None = None) -> XpressMatch:
        """Load a match saved by :meth:`to_json`, each game checked to be the one the match seed gives."""
        if not isinstance(obj, dict) or obj.get("format") != XPRESS_MATCH_FORMAT:
            raise JsonInputError(f'saved Xpress match: expected an object with "format": {XPRESS_MATCH_FORMAT!r}')
        rounds = obj.get("rounds")
        if not isinstance(rounds, list) or not rounds:
            raise JsonInputError("saved Xpress match.rounds: expected a non-empty array of saved games")
        seed = obj.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise JsonInputError(f"saved Xpress match.seed: expected a whole number, got {seed!r}")
        games = [XpressGame.from_json(r, referee=referee) for r in rounds]
        match = cls(obj.get("games"), seed, games[0].rules, names=games[0].deal.names, referee=referee)  # type: ignore[arg-type]  # checked there
        for index, game in enumerate(games):
            first = (match.game.deal.first + index) % SEATS
            if index >= match.length or game.seed != match_game_seed(seed, index) or game.deal.first != first:
                raise JsonInputError(f"saved Xpress match.rounds[{index}]: not game {index + 1} of this match")
            if index and not games[index - 1].finished:
                raise JsonInputError(f"saved Xpress match.rounds[{index}]: the game before it is not over")
        match._games = games
        return match

    def save(self, path: str | Path) -> None:
        """Write the match to ``path`` atomically."""
        write_save(path, self.to_json())

    @classmethod
    def load(cls, path: str | Path, *, referee: Referee | None = None) -> XpressMatch:
        return cls.from_json(read_save(path), referee=referee)
