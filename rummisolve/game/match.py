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
- **Totals.** Each finished round's :class:`RoundResult` (winner, ending, scores, turns), the
  scores added up per seat; the highest total leads.
- **Rematch.** :meth:`Match.rematch`: a new match of the same kind, seats, rules and length.

A match keeps every round's game (``keep_rounds``, the default: a web game replays any round), or
only the current one beside the earlier rounds' results (game rooms, whose size must not grow with
the moves of rounds long over).

Saved rounds keep their own deals, so a match saved before this seeding (the tile game's practice
rounds were dealt from ``seed + r``) still loads; only rounds dealt after loading use :func:`round_seed`.

>>> from rummisolve.game.tile_game import TILE_GAME
>>> match = Match(TILE_GAME, 2, seed=3, length=2)
>>> match.game.deal.seed, match.finished, match.totals()
(3, False, (0, 0))
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rummisolve.errors import GameStateError, JsonInputError
from rummisolve.game.kind import GameKind
from rummisolve.game.save_files import write_save
from rummisolve.game.saves import read_save
from rummisolve.game.scoring import match_totals
from rummisolve.game.transitions import Referee
from rummisolve.rules import RuleSet

__all__ = ["Match", "RoundResult", "round_result", "round_seed"]

_MATCH_VERSION = 1


def round_seed(seed: int, r: int) -> int:
    """The seed of round ``r`` of a match seeded ``seed``: the seed itself for round 0.

    >>> round_seed(3, 0), round_seed(3, 1) == round_seed(4, 0)
    (3, False)
    """
    if r == 0:
        return seed
    # The Xpress matches' string from before there was one Match: their saved games keep loading.
    return random.Random(f"rummisolve-xpress-match/{seed}/{r}").getrandbits(63)


@dataclass(frozen=True)
class RoundResult:
    """A finished round: its winner (``None``: nobody, a draw), how it ended, each seat's score, its turns."""

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


def round_result(game: Any) -> RoundResult | None:
    """The result of the round ``game``, once it is over (else ``None``)."""
    scores = game.scores()
    if scores is None:
        return None
    state = game.state
    assert state.end_reason is not None  # a round with scores is over
    return RoundResult(state.winner, state.end_reason, tuple(scores), state.turn)


class Match:
    """Rounds of ``kind`` between ``players`` seats (see the module's docstring).

    ``length``: the rounds the match has (``None``: as many as are dealt); ``seed``: the match's seed
    (``None``: a random one); ``fresh_seeds``: deal every round from a fresh random seed; ``rounds``:
    the rounds played so far (a loaded match; the current one alone without ``keep_rounds``, the
    earlier ones then given as their ``results``), else round 0 is dealt."""

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
        results: Sequence[RoundResult] = (),
        keep_rounds: bool = True,
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
        self.keep_rounds = keep_rounds
        self.rounds: list[Any] = list(rounds)
        """The rounds' games, the current one last (without ``keep_rounds``: the current one only)."""
        self.past: list[RoundResult] = list(results)
        """The results of the rounds before the current one."""
        if keep_rounds and results:
            raise GameStateError("a match that keeps its rounds takes their games, not their results")
        if not keep_rounds and len(self.rounds) > 1:
            raise GameStateError("a match that keeps the current round only takes that one round")
        if keep_rounds:
            for r, game in enumerate(self.rounds[:-1]):
                result = round_result(game)
                if result is None:
                    raise GameStateError(f"round {r + 1} of the match is not over, yet a round follows it")
                self.past.append(result)
        if not self.rounds:
            self.rounds.append(self._deal(0))
        self._past_totals = match_totals([r.scores for r in self.past], players)

    def _deal(self, r: int) -> Any:
        seed = random.SystemRandom().randrange(2**63) if self.fresh_seeds else round_seed(self.seed, r)
        first = None if r == 0 else self.first_of(r)
        return self.kind.new_round(self.players, self.rules, seed, first=first, names=self.names, referee=self.referee)

    # -- reading --------------------------------------------------------------------------------

    @property
    def game(self) -> Any:
        """The round being played (or the last one, once it is over)."""
        return self.rounds[-1]

    @property
    def round(self) -> int:
        """The number of the current round (from 0)."""
        return len(self.past)

    @property
    def finished(self) -> bool:
        """Whether the last round of a match of known length is over."""
        return self.length is not None and self.round + 1 == self.length and self.game.finished

    def first_of(self, r: int) -> int:
        """The seat that moves first in round ``r`` (dealt or not)."""
        return (self.game.deal.first + r - self.round) % self.players

    @property
    def past_totals(self) -> tuple[int, ...]:
        """Each seat's total over the rounds before the current one."""
        return self._past_totals

    def results(self) -> list[RoundResult]:
        """Every finished round's result, the current round's too once it is over."""
        last = round_result(self.game)
        return self.past if last is None else [*self.past, last]

    def totals(self) -> tuple[int, ...]:
        """Each seat's total over every finished round (the current one's too once it is over)."""
        last = round_result(self.game)
        if last is None:
            return self._past_totals
        return tuple(t + s for t, s in zip(self._past_totals, last.scores, strict=True))

    def leaders(self) -> tuple[int, ...]:
        """The seats with the highest total (several on a tie)."""
        totals = self.totals()
        return tuple(s for s, t in enumerate(totals) if t == max(totals))

    def results_json(self) -> dict[str, Any]:
        """``{"rounds": [each finished round's result], "totals": [each seat's total]}``."""
        return {"rounds": [r.to_json() for r in self.results()], "totals": list(self.totals())}

    # -- playing on -----------------------------------------------------------------------------

    def next_round(self) -> Any:
        """Deal the next round; :class:`GameStateError` while the current one runs or when none is left."""
        result = round_result(self.game)
        if result is None:
            raise GameStateError(f"round {self.round + 1} of the match is still being played")
        if self.length is not None and self.round + 1 == self.length:
            raise GameStateError(f"the match is over: it had {self.length} rounds")
        game = self._deal(self.round + 1)
        self.past.append(result)
        self._past_totals = tuple(t + s for t, s in zip(self._past_totals, result.scores, strict=True))
        self.rounds = [*self.rounds, game] if self.keep_rounds else [game]
        return game

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
            keep_rounds=self.keep_rounds,
        )

    # -- saving ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A saved match: its length, its seed and each round's save (which holds the rules); a match
        that keeps its rounds only (the apps that keep the current round alone save it their way)."""
        if not self.keep_rounds:
            raise GameStateError("a match that keeps the current round only is saved by its app (the room)")
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

    def save_or_why(self, path: str) -> str | None:
        """Save to ``path`` as a player's save: a match of one round as that round's game (as before
        matches); ``None`` if saved, else why not (naming the path)."""
        try:
            if self.length == 1:
                self.game.save(path)
            else:
                self.save(path)
        except OSError as err:
            return f"cannot write {path!r}: {err.strerror or err}"
        return None

    @classmethod
    def load(cls, kind: GameKind, path: str | Path, *, referee: Referee | None = None) -> Match:
        return cls.from_json(kind, read_save(path), referee=referee)
