"""A match: rounds of one kind of game between the same seats, the scores added up.

Every app plays its rounds through one :class:`Match` (the terminal, the web's single-player games,
game rooms, :func:`~rummisolve.game.runner.play_match` and the Xpress matches), so they deal alike:

- **Seeding.** A match has a seed. Round 0 is dealt from the seed itself, round ``r`` from
  :func:`round_seed` (a hash of the seed and ``r``), so the same seed deals the same rounds again and
  two seeds share no round. A match with ``fresh_seeds`` (a game whose seed is secret: rooms, web
  games not chosen for practice) deals each round from a fresh random seed instead, so a finished
  round's deal tells nothing of the next.
- **First seat.** Round 0's first seat is the kind's choice (the tile game: seat 0; Xpress: drawn by
  the seed); it moves on by one seat each round after it.
- **Totals.** Each finished round's scores added up per seat; the highest total leads.
- **Rematch.** :meth:`Match.rematch`: a new match of the same kind, seats, rules and length.

Saved rounds keep their own deals, so a match saved before this seeding (the tile game's practice
rounds were dealt from ``seed + r``) still loads; only rounds dealt after loading use :func:`round_seed`.

>>> from rummisolve.game.kind import TILE_GAME
>>> match = Match(TILE_GAME, 2, seed=3, length=2)
>>> match.game.deal.seed, match.finished, match.totals()
(3, False, (0, 0))
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rummisolve.errors import GameStateError, JsonInputError
from rummisolve.game.kind import GameKind
from rummisolve.game.save_files import write_save
from rummisolve.game.saves import read_save
from rummisolve.game.scoring import match_totals
from rummisolve.game.transitions import Referee
from rummisolve.rules import RuleSet

__all__ = ["Match", "round_seed", "match_results"]

_MATCH_VERSION = 1


def round_seed(seed: int, r: int) -> int:
    """The seed of round ``r`` of a match seeded ``seed``: the seed itself for round 0.

    >>> round_seed(3, 0), round_seed(3, 1) == round_seed(4, 0)
    (3, False)
    """
    if r == 0:
        return seed
    return random.Random(f"rummisolve-xpress-match/{seed}/{r}").getrandbits(63)


class Match:
    """Rounds of ``kind`` between ``players`` seats (see the module's docstring).

    ``length``: the rounds the match has (``None``: as many as are dealt); ``seed``: the match's seed
    (``None``: a random one); ``fresh_seeds``: deal every round from a fresh random seed; ``rounds``:
    the rounds played so far (a loaded match), else round 0 is dealt."""

    def __init__(
        self,
        kind: GameKind,
        players: int,
        rules: RuleSet | None = None,
        seed: int | None = None,
        *,
        length: int | None = None,
        fresh_seeds: bool = False,
        names: Sequence[str] | None = None,
        referee: Referee | None = None,
        rounds: Sequence[Any] = (),
    ) -> None:
        if length is not None and (isinstance(length, bool) or not isinstance(length, int) or length < 1):
            raise GameStateError(f"a match has at least one round, not {length!r}")
        self.kind = kind
        self.players = players
        self.rules = kind.default_rules if rules is None else rules
        self.seed = secrets.randbits(62) if seed is None else seed
        self.length = length
        self.fresh_seeds = fresh_seeds
        self.names = None if names is None else tuple(names)
        self.referee = referee
        self.rounds: list[Any] = list(rounds)
        if not self.rounds:
            self.rounds.append(self._deal(0))

    def _deal(self, r: int) -> Any:
        seed = random.SystemRandom().randrange(2**63) if self.fresh_seeds else round_seed(self.seed, r)
        first = None if r == 0 else (self.rounds[0].deal.first + r) % self.players
        return self.kind.new_round(self.players, self.rules, seed, first=first, names=self.names, referee=self.referee)

    # -- reading --------------------------------------------------------------------------------

    @property
    def game(self) -> Any:
        """The round being played (or the last one, once it is over)."""
        return self.rounds[-1]

    @property
    def finished(self) -> bool:
        """Whether the last round of a match of known length is over."""
        return self.length is not None and len(self.rounds) == self.length and self.game.finished

    def first_of(self, r: int) -> int:
        """The seat that moves first in round ``r`` (dealt or not)."""
        return (self.rounds[0].deal.first + r) % self.players

    def totals(self) -> tuple[int, ...]:
        """Each seat's total over the finished rounds."""
        return match_totals([s for g in self.rounds if (s := g.scores()) is not None], self.players)

    def leaders(self) -> tuple[int, ...]:
        """The seats with the highest total (several on a tie)."""
        totals = self.totals()
        return tuple(s for s, t in enumerate(totals) if t == max(totals))

    def results(self) -> dict[str, Any]:
        """Each finished round's winner (``null``: a draw), ending, scores and turns, and each seat's total."""
        return match_results(self.rounds, self.players)

    # -- playing on -----------------------------------------------------------------------------

    def next_round(self) -> Any:
        """Deal the next round; :class:`GameStateError` while the current one runs or when none is left."""
        if not self.game.finished:
            raise GameStateError(f"round {len(self.rounds)} of the match is still being played")
        if self.length is not None and len(self.rounds) == self.length:
            raise GameStateError(f"the match is over: it had {self.length} rounds")
        self.rounds.append(self._deal(len(self.rounds)))
        return self.game

    def rematch(self, seed: int | None = None) -> Match:
        """A new match of the same kind, seats, rules, length and seeding (``seed``: its seed, else a random one)."""
        return Match(
            self.kind,
            self.players,
            self.rules,
            seed,
            length=self.length,
            fresh_seeds=self.fresh_seeds,
            names=self.names,
            referee=self.referee,
        )

    # -- saving ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A saved match: its length, its seed and each round's save (which holds the rules)."""
        return {
            "format": self.kind.match_format,
            "version": _MATCH_VERSION,
            "games": self.length,
            "seed": self.seed,
            "rounds": [game.to_json() for game in self.rounds],
        }

    @classmethod
    def from_json(cls, kind: GameKind, obj: Any, *, referee: Referee | None = None) -> Match:
        """Load a match of ``kind`` saved by :meth:`to_json`, each round checked to be the one the
        match's seed deals (seeds and first seats) and replayed through the referee."""
        saved = f"saved match of {kind.title}"
        if not isinstance(obj, dict) or obj.get("format") != kind.match_format:
            raise JsonInputError(f'{saved}: expected an object with "format": {kind.match_format!r}')
        rounds = obj.get("rounds")
        if not isinstance(rounds, list) or not rounds:
            raise JsonInputError(f"{saved}.rounds: expected a non-empty array of saved games")
        seed = obj.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise JsonInputError(f"{saved}.seed: expected a whole number, got {seed!r}")
        length = obj.get("games")
        if length is not None and (isinstance(length, bool) or not isinstance(length, int) or length < 1):
            raise JsonInputError(f"{saved}.games: expected a whole number from 1 or null, got {length!r}")
        games = [kind.load_round(r, referee=referee) for r in rounds]
        first = games[0]
        dealt = kind.new_round(first.players, first.rules, seed, first=None).deal.first  # round 0's, by the kind
        for index, game in enumerate(games):
            if (
                (length is not None and index >= length)
                or game.deal.seed != round_seed(seed, index)
                or game.deal.first != (dealt + index) % first.players
            ):
                raise JsonInputError(f"{saved}.rounds[{index}]: not round {index + 1} of this match")
            if index and not games[index - 1].finished:
                raise JsonInputError(f"{saved}.rounds[{index}]: the round before it is not over")
        return cls(
            kind,
            first.players,
            first.rules,
            seed,
            length=length,
            names=first.deal.names,
            referee=referee,
            rounds=games,
        )

    def save(self, path: str | Path) -> None:
        """Write the match to ``path`` atomically."""
        write_save(path, self.to_json())

    @classmethod
    def load(cls, kind: GameKind, path: str | Path, *, referee: Referee | None = None) -> Match:
        return cls.from_json(kind, read_save(path), referee=referee)


def match_results(rounds: Sequence[Any], players: int) -> dict[str, Any]:
    """Each finished round's winner, ending, scores and turns, and each seat's total."""
    done: list[dict[str, Any]] = []
    for g in rounds:
        scores = g.scores()  # None until the round is over
        if scores is not None:
            done.append(
                {"winner": g.winner, "end_reason": g.state.end_reason, "scores": list(scores), "turns": g.state.turn}
            )
    totals = match_totals([r["scores"] for r in done], players) if done else (0,) * players
    return {"rounds": done, "totals": list(totals)}
