"""What the web app's two kinds of game share: :class:`SessionBase`, one human against AIs, game
after game, driven one action at a time; the tile game's :class:`~rummisolve.server.session.Session`
and Xpress's :class:`~rummisolve.server.dice_session.DiceSession` set what differs (the deal, the
AI's turn, the view, the words).

A session is practice when the player chose its seed: the seed is shown and the whole-turn
take-back is allowed; any other session's seed is secret. Every action either changes the game
and answers the event, or raises (or answers ``"legal": false``) with the game unchanged; the
web app saves the game after each action (:mod:`rummisolve.server.routes.games`).
"""

from __future__ import annotations

import logging
import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from rummisolve.errors import GameStateError, IllegalMoveError, JsonInputError, OptionError
from rummisolve.game.engine import Game, bounded_referee
from rummisolve.game.kind import GameKind
from rummisolve.game.match import Match
from rummisolve.game.reasons import for_people
from rummisolve.jsonio import rules_from_json, rules_to_json, table_to_json
from rummisolve.rules import RuleSet
from rummisolve.xpress.game import XpressGame

__all__ = [
    "SessionBase",
    "seat_names",
    "kinds_list",
    "placed_tiles",
    "illegal_answer",
    "check_hint_level",
    "HINT_TIME_LIMIT",
]

log = logging.getLogger("rummisolve.server")

HINT_TIME_LIMIT = 5.0
"""Seconds a hint's solve may take (the AIs have no such cap: their moves are the engine's)."""

G = TypeVar("G", Game, XpressGame)
"""The game one round is."""
P = TypeVar("P")
"""An AI player of that game."""


class SessionBase(Generic[G, P]):
    """One human (``kinds``: ``human`` once) and AIs, round after round (``rounds``, the last the one on)."""

    KIND: ClassVar[GameKind]
    """The kind of game the session plays (its rounds are a :class:`~rummisolve.game.match.Match` of it)."""
    FORMAT: ClassVar[str]
    """The saved session's ``format``."""
    VERSION: ClassVar[int]
    """The saved session's ``version``."""
    _READS_VERSIONS: ClassVar[tuple[int, ...] | None] = None
    """The saved versions :meth:`from_json` reads (``None``: any)."""
    _SAVED: ClassVar[str]
    """How load errors name a saved session."""
    _RECORD_REFUSED: ClassVar[str]
    """Why a player's record cannot be loaded."""
    _ROUND: ClassVar[str]
    """What one of ``rounds`` is called: ``round`` or ``game``."""
    _THE_AI: ClassVar[str]
    """The AI to move, in words (``an AI``)."""
    _TAKE_BACK_SHOWS: ClassVar[str]
    """What a take-back outside practice would show."""

    def __init__(
        self,
        kinds: Sequence[str],
        rules: RuleSet,
        seed: int,
        rounds: Sequence[G] = (),
        *,
        practice: bool = False,
        max_steps: int | None = None,
    ) -> None:
        self.max_steps = max_steps
        self.kinds = tuple(kinds)
        self.rules = rules
        self.seed = seed
        self.practice = practice
        """Whether the player chose the seed (shown, take-back allowed)."""
        self.names = seat_names(self.kinds)
        self.match = Match(
            self.KIND,
            len(self.kinds),
            rules,
            seed,
            fresh_seeds=not practice,  # a secret seed: each round from a seed nobody can derive
            names=self.names,
            referee=bounded_referee(max_steps),
            rounds=rounds,
        )
        """The rounds (a practice game's deal from its seed: :func:`~rummisolve.game.match.round_seed`)."""
        self.human = self.kinds.index("human")
        self._players = {
            seat: self._make_player(kind, seed + seat) for seat, kind in enumerate(self.kinds) if kind != "human"
        }
        self.workers: Workers | None = None
        """Where the AIs choose and hints solve (the server's game lane); ``None``: here."""

    # -- what a kind of game sets ---------------------------------------------------------------

    @classmethod
    def _check_kinds(cls, kinds: Any) -> tuple[str, ...]:
        raise NotImplementedError

    @classmethod
    def _check_rules(cls, rules: RuleSet) -> None:
        """Refuse rules the game's AIs cannot play (:class:`OptionError`)."""

    def _make_player(self, kind: str, seed: int) -> P:
        raise NotImplementedError

    def _turn_began(self, undone: Any) -> bool:
        """Whether ``undone`` (just taken back) was the first action of a turn of the human's."""
        raise NotImplementedError

    def _ai_turn(self, seat: int, before: Any) -> dict[str, Any]:
        """``seat``'s whole turn (``before``: the table it starts from), answered."""
        raise NotImplementedError

    def _frames(self, game: G) -> list[dict[str, Any]]:
        """A round's states as the human may see them."""
        raise NotImplementedError

    def _public(self, event: Any, before: Sequence[Any] = ()) -> dict[str, Any]:
        """An event as the human may see it (``before``: the table it started from)."""
        raise NotImplementedError

    def play(self, table: Sequence[Sequence[Any]], discard: Any = None) -> dict[str, Any]:
        """The human's new table (and, where the game has one, the discard)."""
        raise NotImplementedError

    def draw(self, source: str = "pool") -> dict[str, Any]:
        """The human draws (from ``source`` under the discard rule)."""
        raise NotImplementedError

    def discard(self, tile: Any) -> dict[str, Any]:
        """The discard rule: the human ends the turn by discarding ``tile``."""
        raise NotImplementedError

    def hint(self, level: int) -> dict[str, Any]:
        """A hint of ``level`` (1 to 3) for the human."""
        raise NotImplementedError

    def timeout(self) -> dict[str, Any]:
        """Apply the turn timer's penalty if the mover's time is up."""
        raise NotImplementedError

    def roll(self, dice: Sequence[str] | str) -> dict[str, Any]:
        """Re-roll the human's free dice (a game with dice); :class:`OptionError` elsewhere."""
        raise OptionError('roll: this game has no dice (it is for the Xpress rules, "rules": "xpress")')

    def pass_turn(self) -> dict[str, Any]:
        """The human ends the turn without a play (a game with dice); :class:`OptionError` elsewhere."""
        raise OptionError('pass: this game has no dice (it is for the Xpress rules, "rules": "xpress")')

    def _fallback(self, view: Any) -> Any:
        """What an AI does whose choice passed its deadline (draw, or pass)."""
        raise NotImplementedError

    # -- heavy work, in the server's worker processes when it has them ------------------------------

    def _solve(self, position: Any) -> Any:
        """A hint's solve (:data:`HINT_TIME_LIMIT`), in a worker process if the session has :attr:`workers`."""
        if self.workers is not None:
            return self.workers.solve_position(position, HINT_TIME_LIMIT)[0]
        from rummisolve.solver import solve

        return solve(position, time_limit=HINT_TIME_LIMIT)

    def _player(self, seat: int) -> Any:
        """``seat``'s AI, choosing in a worker process if the session has :attr:`workers`."""
        if self.workers is None:
            return self._players[seat]
        return _InWorker(self, seat, self.workers)

    # -- making one -----------------------------------------------------------------------------

    @classmethod
    def _new(cls, kinds: Sequence[str], rules: RuleSet, seed: int | None, max_steps: int | None) -> Self:
        kinds = cls._check_kinds(kinds)
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
        cls._check_rules(rules)
        practice = seed is not None
        if seed is None:
            seed = secrets.randbits(62)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**53:
            raise OptionError(f"seed must be a whole number from 0 to 2**53 - 1, not {seed!r}")
        return cls(kinds, rules, seed, practice=practice, max_steps=max_steps)

    @property
    def rounds(self) -> list[G]:
        """The rounds' games, the one being played last."""
        return self.match.rounds

    @property
    def game(self) -> G:
        """The round being played (or the last one, once it is over)."""
        return self.match.game

    # -- the human's actions ----------------------------------------------------------------------

    def _move(self, act: Callable[[], Any]) -> dict[str, Any]:
        """The human's action ``act()`` (answering its event), once it is their turn."""
        self._require_human()
        before = self.game.state.table
        return self._turn_answer(act(), before)

    def _judged(self, act: Callable[[], Any]) -> dict[str, Any]:
        """The human's play ``act()``: an illegal one changes nothing and answers ``{"legal": false,
        "reasons", "message"}`` (:func:`illegal_answer`)."""
        try:
            answer = self._move(act)
        except IllegalMoveError as err:
            return {"legal": False, **illegal_answer(err)}
        return {"legal": True, "reasons": [], **answer}

    def undo_turn(self) -> dict[str, Any]:
        """Take back the human's last whole turn of this round (and the AI turns after it):
        practice games only."""
        game = self.game
        if not self.practice:
            raise GameStateError(
                "no take-back in this game: it is for practice games (started with a seed you chose), "
                f"since taking back {self._TAKE_BACK_SHOWS}"
            )
        if not self.can_undo_turn:
            raise GameStateError(f"nothing to undo: you have not played a turn this {self._ROUND}")
        while game.can_undo:
            if self._turn_began(game.undo()):
                break
        return {"event": None, "before": None}

    @property
    def can_undo_turn(self) -> bool:
        return self.practice and any(e.player == self.human for e in self.game.events)

    # -- the AIs' turns ---------------------------------------------------------------------------

    def advance(self) -> dict[str, Any]:
        """Take the next AI's whole turn; answer its public event and the table before it."""
        game = self.game
        if game.finished:
            raise GameStateError(self._over)
        seat = game.current
        if seat == self.human:
            raise GameStateError(f"it is your turn, not {self._THE_AI}'s")
        return self._ai_turn(seat, game.state.table)

    def next_round(self) -> None:
        """Start the next round (once the current one is over)."""
        if not self.game.finished:
            raise GameStateError(f"the {self._ROUND} is not over yet")
        self.match.next_round()

    # -- what the human sees ----------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The game as the human sees it: the game view every game shares
        (:mod:`rummisolve.server.game_views`) and a single-player game's own fields: ``practice``,
        the seed (practice games only) and whether the whole-turn take-back is open."""
        view = self._seat_view()
        view["practice"] = self.practice
        view.update(self._seed_shown())
        view["can_undo_turn"] = self.can_undo_turn
        return view

    def _seat_view(self) -> dict[str, Any]:
        """The current round as the human's seat sees it."""
        raise NotImplementedError

    def results(self) -> dict[str, Any]:
        """Each finished round's winner (``null``: a draw), ending and scores, and each seat's total."""
        return self.match.results_json()

    def replay(self, r: int) -> dict[str, Any]:
        """Round ``r`` state by state: each table, the event that led to it, and the racks the human may see."""
        if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < len(self.rounds):
            raise OptionError(f"no round {r!r}: this game has rounds 0 to {len(self.rounds) - 1}")
        game = self.rounds[r]
        return {"round": r, "names": list(self.names), "finished": game.finished, "frames": self._frames(game)}

    def summary(self) -> dict[str, Any]:
        """One line of the saved games list."""
        return {
            "players": list(self.names),
            "kinds": list(self.kinds),
            "rules": rules_to_json(self.rules),
            "practice": self.practice,
            **self._seed_shown(),
            "round": len(self.rounds) - 1,
            "turn_number": self.game.state.turn,
            "finished": self.game.finished,
            "totals": self.results()["totals"],
        }

    # -- saving -----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole session, to save and resume: every deal and the seed (never a player's to see
        while a round is on, unless the game is practice: see :meth:`record`)."""
        return {
            "format": self.FORMAT,
            "version": self.VERSION,
            "kinds": list(self.kinds),
            "rules": rules_to_json(self.rules),
            "seed": self.seed,
            "practice": self.practice,
            "rounds": [g.to_json() for g in self.rounds],
        }

    def record(self) -> dict[str, Any]:
        """What the human may keep of the game (the web app's download). A practice game: the whole
        session (:meth:`to_json`; the seed is the player's own). Any other game: every finished
        round's saved game, the round still running as the human saw it (:meth:`replay`), and no
        seed; it replays, but cannot be resumed."""
        if self.practice:
            return self.to_json()
        out: dict[str, Any] = {
            "format": self.FORMAT,
            "version": self.VERSION,
            "record": True,
            "practice": False,
            "kinds": list(self.kinds),
            "names": list(self.names),
            "rules": rules_to_json(self.rules),
            "rounds": [g.to_json() for g in self.rounds if g.finished],
        }
        if not self.game.finished:
            out["current"] = self.replay(len(self.rounds) - 1)
        return out

    @classmethod
    def _from_json(cls, obj: Any, max_steps: int | None) -> Self:
        """Load a session saved by :meth:`to_json`; every round replays through the referee."""
        saved = cls._SAVED
        if not isinstance(obj, dict) or obj.get("format") != cls.FORMAT:
            raise JsonInputError(f'{saved}: expected an object with "format": {cls.FORMAT!r}')
        if obj.get("record") is True:
            raise JsonInputError(f"{saved}: {cls._RECORD_REFUSED}")
        if cls._READS_VERSIONS is not None and obj.get("version") not in cls._READS_VERSIONS:
            raise JsonInputError(f"{saved}.version: expected {cls.VERSION}, got {obj.get('version')!r}")
        practice = obj.get("practice", False)
        if not isinstance(practice, bool):
            raise JsonInputError(f"{saved}.practice: expected true or false, got {practice!r}")
        kinds = cls._check_kinds(obj.get("kinds"))
        rules = rules_from_json(obj.get("rules"), f"{saved}.rules")
        seed = obj.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise JsonInputError(f"{saved}.seed: expected a whole number, got {seed!r}")
        rounds = obj.get("rounds")
        if not isinstance(rounds, list) or not rounds:
            raise JsonInputError(f"{saved}.rounds: expected a non-empty array of saved games")
        referee = bounded_referee(max_steps)
        games = [cls.KIND.load_round(g, referee) for g in rounds]
        if any(not g.finished for g in games[:-1]):
            raise JsonInputError(f"{saved}.rounds: a {cls._ROUND} before the last is not over")
        return cls(kinds, rules, seed, games, practice=practice, max_steps=max_steps)

    # -- internals --------------------------------------------------------------------------------

    @property
    def _over(self) -> str:
        return f"the {self._ROUND} is over: start the next {self._ROUND}"

    def _seed_shown(self) -> dict[str, Any]:
        return {"seed": self.seed} if self.practice else {}

    def _require_human(self) -> None:
        if self.game.finished:
            raise GameStateError(self._over)
        if self.game.current != self.human:
            raise GameStateError(f"it is {self.names[self.game.current]}'s turn, not yours")

    def _turn_answer(self, event: Any, before: Any) -> dict[str, Any]:
        return {"event": self._public(event, before), "before": table_to_json(before)}


class Workers(Protocol):
    """The server's game lane, as a session uses it (:class:`~rummisolve.server.lanes.Lanes`)."""

    def choose(self, player: Any, view: Any) -> tuple[Any, Any, int]: ...

    def solve_position(self, position: Any, time_limit: float) -> tuple[Any, int]: ...

    def reroll_hint(self, position: Any, free_dice: Any, seed: int) -> Any: ...


class _InWorker:
    """A session's AI that chooses in a worker process: the player goes there with the view and
    comes back as it is after choosing (a plan kept for the rest of the turn). A choice past its
    deadline is the session's fallback (a draw or a pass); the referee judges whatever it is."""

    def __init__(self, session: SessionBase[Any, Any], seat: int, workers: Workers) -> None:
        self.session = session
        self.seat = seat
        self.workers = workers
        self.name = getattr(session._players[seat], "name", "AI")

    def choose(self, view: Any) -> Any:
        from rummisolve.server.workers import JobDeadline

        try:
            action, player, _ = self.workers.choose(self.session._players[self.seat], view)
        except JobDeadline as late:
            log.warning("%s: %s", self.name, late.message)
            return self.session._fallback(view)
        self.session._players[self.seat] = player
        return action


def seat_names(kinds: Sequence[str]) -> tuple[str, ...]:
    """``you`` for the human, the level for an AI, numbered when a kind appears twice (``medium#2``)."""
    names = []
    for seat, kind in enumerate(kinds):
        name = "you" if kind == "human" else kind
        if list(kinds).count(kind) > 1:
            name = f"{name}#{list(kinds[: seat + 1]).count(kind)}"
        names.append(name)
    return tuple(names)


def kinds_list(kinds: Any) -> tuple[str, ...]:
    """The seats' kinds, lower case, from a list or a comma-separated string; :class:`OptionError`
    for anything else (the kinds themselves are the caller's to check)."""
    if isinstance(kinds, str):
        kinds = kinds.split(",")
    if not isinstance(kinds, list | tuple) or not all(isinstance(k, str) for k in kinds):
        raise OptionError("players: expected a list of player kinds, e.g. human,medium")
    return tuple(k.strip().lower() for k in kinds if k.strip())


def check_hint_level(level: Any) -> None:
    """:class:`OptionError` unless ``level`` is a hint level (1, 2 or 3)."""
    from rummisolve.hints import HINT_LEVELS

    if isinstance(level, bool) or level not in HINT_LEVELS:
        raise OptionError(f"hint level must be 1, 2 or 3, not {level!r}")


def placed_tiles(table: Sequence[Sequence[Any]], before: Sequence[Sequence[Any]]) -> list[str]:
    """The tiles (or faces) on ``table`` that were not on ``before``: what a play put down, sorted."""
    placed = Counter(t for m in table for t in m) - Counter(t for m in before for t in m)
    return sorted(map(str, placed.elements()))


def illegal_answer(err: IllegalMoveError) -> dict[str, Any]:
    """The referee's reasons for an illegal play, for people: ``{"reasons": [...], "message"}``,
    each reason with its code and the index of the new meld it concerns (``null``: the turn)."""
    reasons = [{"code": r.code, "message": for_people(r.message), "meld": r.meld} for r in err.reasons]
    return {"reasons": reasons, "message": "; ".join(r["message"] for r in reasons) or for_people(str(err))}
