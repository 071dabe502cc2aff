"""A match for a frontend: one human against AIs over several rounds, driven one action at a time.

The web app (:mod:`rummisolve.server.routes.games`) keeps one :class:`Session` per game. The human's
turns arrive as whole tables (every play judged by the engine's referee, which gives its reasons
meld by meld), draws and, under the discard rule, discards; the AIs' turns are taken one at a
time by :meth:`Session.advance`, so a frontend can show each before asking for the next. Rounds
follow :func:`rummisolve.game.runner.play_match`: the first seat moves on by one each round.
A session saves to and loads from JSON (:meth:`Session.to_json`), each round as the engine's
saved game, so every play is re-checked on load.

Hidden information stays hidden: nothing the human can get (:meth:`Session.view`,
:meth:`Session.replay`, :meth:`Session.summary`, :meth:`Session.record`, the answers to actions)
holds the pool, another seat's rack or the seed while a round is on. A session whose seed the
player chose is a *practice* game: round ``r`` is dealt from ``seed + r`` (the same deals again
from the same seed), the seed is shown, and the whole-turn take-back is allowed. Any other session
has a secret seed and deals each round from a fresh random seed, so a finished round's deal
(shown once it is over) tells nothing of the next; it has no take-back, since taking back a draw
would show the next tile of the pool.

>>> s = Session.new(["human", "easy"], seed=3)
>>> s.practice, s.human, s.game.current, len(s.view()["rack"])
(True, 0, 0, 14)
>>> s.draw()["event"]["type"], s.game.current
('draw', 1)
>>> s.advance()["event"]["player"], s.game.current
(1, 0)
>>> Session.from_json(s.to_json()).game.state == s.game.state
True
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rummisolve.errors import GameStateError, IllegalMoveError, JsonInputError, OptionError
from rummisolve.game.engine import Game, bounded_referee
from rummisolve.game.events import DrawEvent, PlayEvent, TimeoutEvent, public_event
from rummisolve.game.players import AI_LEVELS, PLAYER_KINDS, make_player
from rummisolve.game.reasons import for_people
from rummisolve.game.runner import play_turn
from rummisolve.game.saves import SESSION_FORMAT
from rummisolve.game.scoring import match_totals
from rummisolve.jsonio import hint_to_json, rules_from_json, rules_to_json, table_to_json
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.server.replays import round_frames
from rummisolve.solver_limits import unsupported_rules
from rummisolve.tiles import Tile

__all__ = ["Session", "SESSION_FORMAT", "seat_names", "seat_event", "match_results", "illegal_answer", "check_kinds"]

_SESSION_VERSION = 2
"""2: ``practice`` (absent in version 1: such a session loads as a game that is not practice)."""
_HINT_TIME_LIMIT = 5.0
"""Seconds a hint's solve may take (the AIs have no such cap: their moves are the engine's)."""


def seat_names(kinds: Sequence[str]) -> tuple[str, ...]:
    """``you`` for the human, the level for an AI, numbered when a kind appears twice (``medium#2``)."""
    names = []
    for seat, kind in enumerate(kinds):
        name = "you" if kind == "human" else kind
        if list(kinds).count(kind) > 1:
            name = f"{name}#{list(kinds[: seat + 1]).count(kind)}"
        names.append(name)
    return tuple(names)


class Session:
    """One human and 1 or more AIs (``kinds``: ``human`` once, AI levels otherwise), round after round."""

    def __init__(
        self,
        kinds: Sequence[str],
        rules: RuleSet,
        seed: int,
        rounds: list[Game],
        *,
        practice: bool = False,
        max_steps: int | None = None,
    ) -> None:
        self.max_steps = max_steps
        self.kinds = tuple(kinds)
        self.rules = rules
        self.seed = seed
        self.practice = practice
        """Whether the player chose the seed (shown, rounds dealt from ``seed + r``, take-back allowed)."""
        self.rounds = rounds
        self.names = seat_names(self.kinds)
        self.human = self.kinds.index("human")
        self._players = {
            seat: make_player(kind, seed=seed + seat) for seat, kind in enumerate(self.kinds) if kind != "human"
        }

    # -- making one -----------------------------------------------------------------------------

    @classmethod
    def new(
        cls, kinds: Sequence[str], rules: RuleSet = STANDARD, seed: int | None = None, *, max_steps: int | None = None
    ) -> Session:
        """A new match; :class:`OptionError` or :class:`GameStateError` names a bad choice.
        A ``seed`` makes it a practice game (see the module's docstring); without one the seed is
        secret. ``max_steps`` bounds the referee's search on each play (see
        :func:`rummisolve.referee.verify`; past it, a :class:`~rummisolve.errors.RefereeLimitError`)."""
        kinds = check_kinds(kinds)
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
        if (problem := unsupported_rules(rules)) is not None:  # the AIs and hints solve
            raise OptionError(f"rules: {problem}")
        practice = seed is not None
        if seed is None:
            seed = secrets.randbits(62)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**53:
            raise OptionError(f"seed must be a whole number from 0 to 2**53 - 1, not {seed!r}")
        session = cls(kinds, rules, seed, [], practice=practice, max_steps=max_steps)
        session.rounds.append(session._deal(0))
        return session

    def _deal(self, r: int) -> Game:
        # A practice game replays from its seed; any other round gets a seed nobody can derive.
        seed = self.seed + r if self.practice else random.SystemRandom().randrange(2**63)
        return Game(
            len(self.kinds),
            self.rules,
            seed,
            first=r % len(self.kinds),
            names=self.names,
            referee=bounded_referee(self.max_steps),
        )

    @property
    def game(self) -> Game:
        """The round being played (or the last one, once it is over)."""
        return self.rounds[-1]

    # -- the human's actions ----------------------------------------------------------------------

    def play(self, table: Sequence[Sequence[Tile | str]], discard: Tile | str | None = None) -> dict[str, Any]:
        """The human's new table (and discard, under the discard rule). An illegal play changes
        nothing and answers ``{"legal": false, "reasons": [...], "message"}``, each reason with the
        index of the new meld it concerns (``null``: the turn as a whole)."""
        self._require_human()
        before = self.game.state.table
        try:
            event = self.game.play(table, discard=discard)
        except IllegalMoveError as err:
            return {"legal": False, **illegal_answer(err)}
        return {"legal": True, "reasons": [], **self._turn_answer(event, before)}

    def draw(self, source: str = "pool") -> dict[str, Any]:
        """The human draws (normal rules: ending the turn; discard rule: from ``source``, the turn goes on)."""
        self._require_human()
        before = self.game.state.table
        return self._turn_answer(self.game.draw(source), before)

    def discard(self, tile: Tile | str) -> dict[str, Any]:
        """Discard rule: after a draw, end the turn by discarding ``tile``."""
        self._require_human()
        before = self.game.state.table
        try:
            event = self.game.discard(tile)
        except IllegalMoveError as err:
            return {"legal": False, "reasons": [], "message": for_people(str(err))}
        return {"legal": True, "reasons": [], **self._turn_answer(event, before)}

    def timeout(self) -> dict[str, Any]:
        """Apply the turn timer's penalty if the mover's time is up (``event`` ``null`` if not yet)."""
        before = self.game.state.table
        event = None if self.game.finished else self.game.check_timer()
        return {"event": None if event is None else self._public(event), "before": table_to_json(before)}

    def hint(self, level: int) -> dict[str, Any]:
        """A hint of ``level`` (1 the tiles, 2 also the melds touched, 3 the whole move) for the human."""
        from rummisolve.hints import HINT_LEVELS, hint_of
        from rummisolve.solver import solve

        if isinstance(level, bool) or level not in HINT_LEVELS:
            raise OptionError(f"hint level must be 1, 2 or 3, not {level!r}")
        self._require_human()
        solution = solve(self.game.view(self.human).position, time_limit=_HINT_TIME_LIMIT)
        return hint_to_json(hint_of(solution, level))

    def undo_turn(self) -> dict[str, Any]:
        """Take back the human's last whole turn of this round (and the AI turns after it): practice
        games only (elsewhere a draw taken back would show the next tile of the pool)."""
        game = self.game
        if not self.practice:
            raise GameStateError(
                "no take-back in this game: it is for practice games (started with a seed you chose), "
                "since taking back a draw would show the next tile of the pool"
            )
        if not self.can_undo_turn:
            raise GameStateError("nothing to undo: you have not played a turn this round")
        while game.can_undo:
            undone = game.undo()
            if undone.player == self.human and not (self.rules.discard and isinstance(undone, DrawEvent)):
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
            raise GameStateError("the round is over: start the next round")
        seat = game.current
        if seat == self.human:
            raise GameStateError("it is your turn, not an AI's")
        before = game.state.table
        info = play_turn(game, self._players[seat], self.names[seat])
        answer = self._turn_answer(info.event, before)
        if info.draw is not None:
            answer["draw"] = public_event(info.draw)
        if info.illegal is not None:
            answer["illegal"] = for_people(info.illegal)
        return answer

    def next_round(self) -> None:
        """Deal the next round (once the current one is over)."""
        if not self.game.finished:
            raise GameStateError("the round is not over yet")
        self.rounds.append(self._deal(len(self.rounds)))

    # -- what the human sees ----------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The game as the human sees it (every rack shown once the round is over)."""
        game = self.game
        state = game.state
        view = game.view(self.human)
        finished = state.finished
        out: dict[str, Any] = {
            "players": [
                {
                    "name": self.names[s],
                    "kind": self.kinds[s],
                    "rack_size": len(state.racks[s]),
                    "opened": state.opened[s],
                }
                for s in range(len(self.kinds))
            ],
            "human": self.human,
            "current": state.current,
            "turn": state.turn,
            "round": len(self.rounds) - 1,
            "practice": self.practice,
            **({"seed": self.seed} if self.practice else {}),
            "rules": rules_to_json(self.rules),
            "discard_rule": self.rules.discard,
            "table": table_to_json(state.table),
            "rack": [str(t) for t in view.rack],
            "opened": view.opened,
            "pool_size": view.pool_size,
            "discard_pile": [str(t) for t in view.discard_pile],
            "draw_from": view.draw_from,
            "drawn": None if view.drawn is None else str(view.drawn),
            "turn_timer": self.rules.turn_timer,
            "timer_penalty": self.rules.timer_penalty,
            "time_left": None if finished else game.time_left(),
            "can_undo_turn": self.can_undo_turn,
            "finished": finished,
            "winner": state.winner,
            "end_reason": state.end_reason,
            "history": [self._public(e, game.states[i].table) for i, e in enumerate(game.events)],
            "results": self.results(),
        }
        if finished:
            for seat, player in enumerate(out["players"]):
                player["rack"] = [str(t) for t in state.racks[seat]]
        return out

    def results(self) -> dict[str, Any]:
        """Each finished round's winner, ending and scores, and each seat's total."""
        return match_results(self.rounds, len(self.kinds))

    def replay(self, r: int) -> dict[str, Any]:
        """Round ``r`` state by state: each table, the event that led to it, and (a finished round
        only) every rack; a round still running shows the human's rack alone."""
        if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < len(self.rounds):
            raise OptionError(f"no round {r!r}: this game has rounds 0 to {len(self.rounds) - 1}")
        game = self.rounds[r]
        frames = round_frames(game, seat=self.human, public=self._public)
        return {"round": r, "names": list(self.names), "finished": game.finished, "frames": frames}

    def summary(self) -> dict[str, Any]:
        """One line of the saved games list."""
        return {
            "players": list(self.names),
            "kinds": list(self.kinds),
            "rules": rules_to_json(self.rules),
            "practice": self.practice,
            **({"seed": self.seed} if self.practice else {}),
            "round": len(self.rounds) - 1,
            "turn": self.game.state.turn,
            "finished": self.game.finished,
            "totals": self.results()["totals"],
        }

    # -- saving -----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole session, to save and resume: every deal and the seed (never a player's to see
        while a round is on, unless the game is practice: see :meth:`record`)."""
        return {
            "format": SESSION_FORMAT,
            "version": _SESSION_VERSION,
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
        finished = [g for g in self.rounds if g.finished]
        out: dict[str, Any] = {
            "format": SESSION_FORMAT,
            "version": _SESSION_VERSION,
            "record": True,
            "practice": False,
            "kinds": list(self.kinds),
            "names": list(self.names),
            "rules": rules_to_json(self.rules),
            "rounds": [g.to_json() for g in finished],
        }
        if not self.game.finished:
            out["current"] = self.replay(len(self.rounds) - 1)
        return out

    @classmethod
    def from_json(cls, obj: Any, *, max_steps: int | None = None) -> Session:
        """Load a session saved by :meth:`to_json`; every round replays through the referee."""
        if not isinstance(obj, dict) or obj.get("format") != SESSION_FORMAT:
            raise JsonInputError(f'saved session: expected an object with "format": {SESSION_FORMAT!r}')
        if obj.get("record") is True:
            raise JsonInputError(
                "saved session: this is a player's record of a game (what one seat saw, without the seed): "
                "it can be replayed but not resumed"
            )
        practice = obj.get("practice", False)
        if not isinstance(practice, bool):
            raise JsonInputError(f"saved session.practice: expected true or false, got {practice!r}")
        kinds = check_kinds(obj.get("kinds"))
        rules = rules_from_json(obj.get("rules"), "saved session.rules")
        seed = obj.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise JsonInputError(f"saved session.seed: expected a whole number, got {seed!r}")
        rounds = obj.get("rounds")
        if not isinstance(rounds, list) or not rounds:
            raise JsonInputError("saved session.rounds: expected a non-empty array of saved games")
        referee = bounded_referee(max_steps)
        games = [Game.from_json(g, referee=referee) for g in rounds]
        return cls(kinds, rules, seed, games, practice=practice, max_steps=max_steps)

    # -- internals --------------------------------------------------------------------------------

    def _require_human(self) -> None:
        if self.game.finished:
            raise GameStateError("the round is over: start the next round")
        if self.game.current != self.human:
            raise GameStateError(f"it is {self.names[self.game.current]}'s turn, not yours")

    def _public(self, event: Any, before: Sequence[Any] = ()) -> dict[str, Any]:
        """An event as the human may see it: their own draws shown, the others' hidden; a play
        also lists the rack tiles it put on the table (``before``: the table it started from)."""
        return seat_event(event, self.human, self.names, before)

    def _turn_answer(self, event: Any, before: Any) -> dict[str, Any]:
        return {"event": self._public(event, before), "before": table_to_json(before)}


def illegal_answer(err: IllegalMoveError) -> dict[str, Any]:
    """The referee's reasons for an illegal play, for people: ``{"reasons": [...], "message"}``,
    each reason with its code and the index of the new meld it concerns (``null``: the turn)."""
    reasons = [{"code": r.code, "message": for_people(r.message), "meld": r.meld} for r in err.reasons]
    return {"reasons": reasons, "message": "; ".join(r["message"] for r in reasons) or for_people(str(err))}


def seat_event(event: Any, seat: int | None, names: Sequence[str], before: Sequence[Any] = ()) -> dict[str, Any]:
    """An event as ``seat`` may see it (``None``: a spectator): that seat's own draws shown, the
    others' hidden; with the mover's name, and for a play the rack tiles it put on the table
    (``before``: the table it started from)."""
    obj = event.to_json() if seat is not None and event.player == seat else public_event(event)
    obj["name"] = names[event.player]
    if isinstance(event, PlayEvent):
        placed = Counter(t for m in event.table for t in m) - Counter(t for m in before for t in m)
        obj["played"] = sorted(map(str, placed.elements()))
    if isinstance(event, TimeoutEvent):
        obj["drew"] = len(event.tiles)
    return obj


def match_results(rounds: Sequence[Game], players: int) -> dict[str, Any]:
    """Each finished round's winner, ending, scores and turns, and each seat's total."""
    done: list[dict[str, Any]] = [
        {"winner": g.winner, "end_reason": g.state.end_reason, "scores": list(_scores(g)), "turns": g.state.turn}
        for g in rounds
        if g.finished
    ]
    totals = match_totals([r["scores"] for r in done], players) if done else (0,) * players
    return {"rounds": done, "totals": list(totals)}


def _scores(game: Game) -> tuple[int, ...]:
    """A finished round's scores."""
    scores = game.scores()
    assert scores is not None  # finished
    return scores


def check_kinds(kinds: Any) -> tuple[str, ...]:
    """The seats of a match: exactly one ``human`` and 1 or more AI levels; :class:`OptionError` otherwise."""
    if isinstance(kinds, str):
        kinds = kinds.split(",")
    if not isinstance(kinds, list | tuple) or not all(isinstance(k, str) for k in kinds):
        raise OptionError("players: expected a list of player kinds, e.g. human,medium")
    kinds = tuple(k.strip().lower() for k in kinds if k.strip())
    bad = [k for k in kinds if k not in PLAYER_KINDS]
    if bad:
        raise OptionError(f"players: unknown player {bad[0]!r} (known: {', '.join(PLAYER_KINDS)})")
    if kinds.count("human") != 1:
        raise OptionError(f"players: exactly one 'human' seat, not {kinds.count('human')} (in {','.join(kinds)})")
    if len(kinds) < 2:
        raise OptionError(f"players: at least one AI ({', '.join(AI_LEVELS)}) besides the human")
    return kinds
