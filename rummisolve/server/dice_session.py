"""A web game of Xpress (the dice edition, docs/rules.md#xpress): one human against one Xpress AI,
game after game, driven one action at a time like the tile game's :class:`~rummisolve.server.session.Session`.

A turn of the human's is one :meth:`DiceSession.roll` (some free dice, all, or none), then
:meth:`DiceSession.play` (the whole new table, judged by the referee on the faces the dice show)
or :meth:`DiceSession.pass_turn`. The AI's whole turn (its roll, then its play or pass) is one
:meth:`DiceSession.advance`. Dice are rolled in the open, so the view shows both seats' dice; it
never holds the seed, which decides every roll to come. A session whose seed the player chose is
a *practice* game, as in the tile game: the seed is shown, game ``g`` is the ``g``-th game of
:class:`~rummisolve.xpress.XpressMatch` from that seed, and the whole-turn take-back is allowed
(elsewhere taking back a roll would show what the dice roll next).

>>> s = DiceSession.new(["human", "easy"], seed=3)
>>> s.practice, s.human, len(s.view()["players"][0]["dice"])
(True, 0, 9)
>>> DiceSession.from_json(s.to_json()).game.state == s.game.state
True
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rummisolve.errors import GameStateError, IllegalMoveError, JsonInputError, OptionError
from rummisolve.game.engine import bounded_referee
from rummisolve.game.reasons import for_people
from rummisolve.jsonio import hint_to_json, rules_from_json, rules_to_json, table_to_json
from rummisolve.rules import XPRESS, RuleSet
from rummisolve.tiles import Tile
from rummisolve.xpress.events import DicePlayEvent, XpressEvent
from rummisolve.xpress.game import XpressGame
from rummisolve.xpress.match import match_game_seed
from rummisolve.xpress.players import XPRESS_AI_LEVELS, make_xpress_player
from rummisolve.xpress.runner import play_xpress_turn
from rummisolve.xpress.seeding import SEATS
from rummisolve.xpress.state import die_name
from rummisolve.xpress.transitions import ROUNDS_WITHOUT_PLAY

__all__ = ["DiceSession", "DICE_SESSION_FORMAT", "check_dice_kinds", "reroll_text"]

DICE_SESSION_FORMAT = "rummisolve-xpress-session"
_VERSION = 1
_HINT_TIME_LIMIT = 5.0


def check_dice_kinds(kinds: Any) -> tuple[str, ...]:
    """The two seats of an Xpress web game: ``human`` and one Xpress AI level; :class:`OptionError` otherwise."""
    if isinstance(kinds, str):
        kinds = kinds.split(",")
    if not isinstance(kinds, list | tuple) or not all(isinstance(k, str) for k in kinds):
        raise OptionError("players: expected a list of player kinds, e.g. human,medium")
    kinds = tuple(k.strip().lower() for k in kinds if k.strip())
    ais = [k for k in kinds if k != "human"]
    if len(kinds) != SEATS or kinds.count("human") != 1 or ais[0] not in XPRESS_AI_LEVELS:
        raise OptionError(
            f"players: Xpress is one human against one AI ({', '.join(XPRESS_AI_LEVELS)}), e.g. human,medium; "
            f"not {','.join(kinds) or 'nothing'}"
        )
    return kinds


def _names(kinds: Sequence[str]) -> tuple[str, ...]:
    return tuple("you" if k == "human" else k for k in kinds)


class DiceSession:
    """One human and one Xpress AI (``kinds``), game after game (``rounds``: each an :class:`XpressGame`)."""

    dice_game = True

    def __init__(
        self,
        kinds: Sequence[str],
        rules: RuleSet,
        seed: int,
        rounds: list[XpressGame],
        *,
        practice: bool = False,
        max_steps: int | None = None,
    ) -> None:
        self.kinds = tuple(kinds)
        self.rules = rules
        self.seed = seed
        self.practice = practice
        self.rounds = rounds
        self.max_steps = max_steps
        self.names = _names(self.kinds)
        self.human = self.kinds.index("human")
        self._players = {s: make_xpress_player(k, seed=seed + s) for s, k in enumerate(self.kinds) if k != "human"}

    # -- making one -----------------------------------------------------------------------------

    @classmethod
    def new(
        cls, kinds: Sequence[str], rules: RuleSet = XPRESS, seed: int | None = None, *, max_steps: int | None = None
    ) -> DiceSession:
        """A new Xpress game; a ``seed`` makes it a practice game (see the module's docstring)."""
        kinds = check_dice_kinds(kinds)
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
        practice = seed is not None
        if seed is None:
            seed = secrets.randbits(62)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**53:
            raise OptionError(f"seed must be a whole number from 0 to 2**53 - 1, not {seed!r}")
        session = cls(kinds, rules, seed, [], practice=practice, max_steps=max_steps)
        session.rounds.append(session._deal(0))
        return session

    def _deal(self, r: int) -> XpressGame:
        referee = bounded_referee(self.max_steps)
        # A practice game replays from its seed; any other game gets a seed nobody can derive.
        seed = match_game_seed(self.seed, r) if self.practice else random.SystemRandom().randrange(2**63)
        first = None if r == 0 else (self.rounds[0].deal.first + r) % SEATS  # alternating, as in a match
        return XpressGame(seed, self.rules, first=first, names=self.names, referee=referee)

    @property
    def game(self) -> XpressGame:
        """The game being played (or the last one, once it is over)."""
        return self.rounds[-1]

    # -- the human's actions ----------------------------------------------------------------------

    def roll(self, dice: Sequence[str] | str) -> dict[str, Any]:
        """Re-roll the human's free dice named in ``dice`` (``"all"``: every one; none: keep them),
        once a turn before the play."""
        self._require_human()
        view = self.game.view(self.human)
        if dice == "all":
            dice = list(view.dice)
        elif isinstance(dice, str):
            dice = dice.replace(",", " ").split()
        before = self.game.state.table
        return self._turn_answer(self.game.roll(dice), before)

    def play(self, table: Sequence[Sequence[Tile | str]]) -> dict[str, Any]:
        """The human's new table. An illegal play changes nothing and answers ``{"legal": false,
        "reasons", "message"}`` as the tile game's does."""
        from rummisolve.server.session import illegal_answer

        self._require_human()
        before = self.game.state.table
        try:
            event = self.game.play(table)
        except IllegalMoveError as err:
            return {"legal": False, **illegal_answer(err)}
        return {"legal": True, "reasons": [], **self._turn_answer(event, before)}

    def pass_turn(self) -> dict[str, Any]:
        """The human ends the turn without a play."""
        self._require_human()
        before = self.game.state.table
        return self._turn_answer(self.game.pass_turn(), before)

    def hint(self, level: int) -> dict[str, Any]:
        """Before the roll: the best re-roll (:func:`~rummisolve.xpress.best_reroll`, by dice played),
        ``reroll`` its ranking. After it: the best play for the faces shown, at ``level`` 1 to 3."""
        from rummisolve.hints import HINT_LEVELS, hint_of
        from rummisolve.solver import solve
        from rummisolve.xpress.reroll import best_reroll
        from rummisolve.xpress.reroll_json import advice_to_json

        if isinstance(level, bool) or level not in HINT_LEVELS:
            raise OptionError(f"hint level must be 1, 2 or 3, not {level!r}")
        self._require_human()
        view = self.game.view(self.human)
        if not view.rolled:
            advice = best_reroll(view.position, view.free_dice, "tiles", seed=view.turn)
            names = [view.dice[i] for i in advice.best.dice]
            reroll = advice_to_json(advice)
            reroll["names"] = names
            for option, ranked in zip(reroll["options"], advice.options, strict=True):
                option["names"] = [view.dice[i] for i in option["dice"]]
                option["outcomes"] = ranked.outcomes
            reroll["outcomes"] = advice.best.outcomes
            return {"level": level, "kind": "reroll", "text": reroll_text(reroll), "dice": names, "reroll": reroll}
        solution = solve(view.position, time_limit=_HINT_TIME_LIMIT)
        out = hint_to_json(hint_of(solution, level))
        count = len(solution.played) if solution else 0
        if not solution:
            out["text"] = "No play with these dice: pass."
        else:
            out["text"] = out["text"].replace(
                f"You can play {count} tile{'' if count == 1 else 's'}:",
                f"You can play {count} {'die' if count == 1 else 'dice'}:",
                1,
            )
        out["kind"] = "play"
        return out

    def undo_turn(self) -> dict[str, Any]:
        """Practice games: take back the human's last whole turn (its roll too) and the AI's turn after it."""
        game = self.game
        if not self.practice:
            raise GameStateError(
                "no take-back in this game: it is for practice games (started with a seed you chose), "
                "since taking back a roll would show what the dice roll next"
            )
        if not self.can_undo_turn:
            raise GameStateError("nothing to undo: you have not played a turn this game")
        while game.can_undo:
            undone = game.undo()
            state = game.state
            if undone.player == self.human and state.current == self.human and not state.rolled:
                break
        return {"event": None, "before": None}

    @property
    def can_undo_turn(self) -> bool:
        return self.practice and any(e.player == self.human for e in self.game.events)

    def draw(self, source: str = "pool") -> dict[str, Any]:
        raise GameStateError("Xpress has no pool to draw from: pass instead (POST /games/{id}/pass)")

    def discard(self, tile: Tile | str) -> dict[str, Any]:
        raise GameStateError("Xpress has no discard")

    def timeout(self) -> dict[str, Any]:
        return {"event": None, "before": table_to_json(self.game.state.table)}

    # -- the AI's turns ---------------------------------------------------------------------------

    def advance(self) -> dict[str, Any]:
        """The AI's whole turn (its roll, then its play or pass); the table before it."""
        game = self.game
        if game.finished:
            raise GameStateError("the game is over: start the next game")
        seat = game.current
        if seat == self.human:
            raise GameStateError("it is your turn, not the AI's")
        before = game.state.table
        turn = play_xpress_turn(game, self._players[seat], self.names[seat])
        answer = self._turn_answer(turn.event, before)
        answer["roll"] = None if turn.roll is None else self._public(turn.roll)
        if turn.illegal is not None:
            answer["illegal"] = for_people(turn.illegal)
        return answer

    def next_round(self) -> None:
        """Start the next game (once the current one is over)."""
        if not self.game.finished:
            raise GameStateError("the game is not over yet")
        self.rounds.append(self._deal(len(self.rounds)))

    # -- what the human sees ----------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The game as the human sees it: both seats' dice (rolled in the open), never the seed
        (unless practice)."""
        game = self.game
        state = game.state
        view = game.view(self.human)
        totals = state.totals()
        players = []
        for s in range(SEATS):
            seat_view = game.view(s)
            players.append(
                {
                    "name": self.names[s],
                    "kind": self.kinds[s],
                    "rack_size": len(seat_view.dice),
                    "opened": state.opened[s],
                    "dice": [{"die": d, "face": str(f)} for d, f in zip(seat_view.dice, seat_view.rack, strict=True)],
                    "rack": [str(t) for t in seat_view.rack],
                    "total": totals[s],
                }
            )
        return {
            "dice_game": True,
            "players": players,
            "human": self.human,
            "current": state.current,
            "turn": state.turn,
            "round": len(self.rounds) - 1,
            "practice": self.practice,
            **({"seed": self.seed} if self.practice else {}),
            "rules": rules_to_json(self.rules),
            "discard_rule": False,
            "table": table_to_json(state.table),
            "table_dice": [list(m) for m in view.table_dice],
            "rack": [str(t) for t in view.rack],
            "dice": list(view.dice),
            "rolled": state.rolled,
            "passes": state.passes,
            "passes_to_end": ROUNDS_WITHOUT_PLAY * SEATS,
            "opened": view.opened,
            "pool_size": 0,
            "discard_pile": [],
            "draw_from": None,
            "drawn": None,
            "turn_timer": None,
            "timer_penalty": self.rules.timer_penalty,
            "time_left": None,
            "can_undo_turn": self.can_undo_turn,
            "finished": state.finished,
            "winner": state.winner,
            "end_reason": state.end_reason,
            "history": [self._public(e, game.states[i].table) for i, e in enumerate(game.events)],
            "results": self.results(),
        }

    def results(self) -> dict[str, Any]:
        """Each finished game's winner (``null``: a draw), ending and scores, and each seat's total."""
        from rummisolve.game.scoring import match_totals

        done: list[dict[str, Any]] = []
        for g in self.rounds:
            scores = g.scores()
            if scores is not None:
                done.append(
                    {
                        "winner": g.winner,
                        "end_reason": g.state.end_reason,
                        "scores": list(scores),
                        "turns": g.state.turn,
                    }
                )
        totals = match_totals([r["scores"] for r in done], SEATS) if done else (0,) * SEATS
        return {"rounds": done, "totals": list(totals)}

    def replay(self, r: int) -> dict[str, Any]:
        """Game ``r`` state by state: each table, the event that led to it and every seat's dice (all open)."""
        if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < len(self.rounds):
            raise OptionError(f"no round {r!r}: this game has rounds 0 to {len(self.rounds) - 1}")
        game = self.rounds[r]
        frames = []
        for i, state in enumerate(game.states):
            event = None if i == 0 else self._public(game.events[i - 1], game.states[i - 1].table)
            racks = state.racks
            frames.append(
                {
                    "turn": state.turn,
                    "current": state.current,
                    "event": event,
                    "table": table_to_json(state.table),
                    "racks": [[str(t) for t in rack] for rack in racks],
                    "dice": [[die_name(d) for d in hand] for hand in state.hands],
                    "rack_sizes": [len(rack) for rack in racks],
                    "pool_size": 0,
                }
            )
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
        """The whole session to save and resume, seeds included (never shown while a game is on)."""
        return {
            "format": DICE_SESSION_FORMAT,
            "version": _VERSION,
            "kinds": list(self.kinds),
            "rules": rules_to_json(self.rules),
            "seed": self.seed,
            "practice": self.practice,
            "rounds": [g.to_json() for g in self.rounds],
        }

    def record(self) -> dict[str, Any]:
        """What the human may keep: a practice game whole; any other, its finished games and the
        running one as the human saw it (no seed, so it cannot be resumed)."""
        if self.practice:
            return self.to_json()
        out: dict[str, Any] = {
            "format": DICE_SESSION_FORMAT,
            "version": _VERSION,
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
    def from_json(cls, obj: Any, *, max_steps: int | None = None) -> DiceSession:
        """Load a session saved by :meth:`to_json`; every game replays (rolls against its seed, plays
        through the referee)."""
        if not isinstance(obj, dict) or obj.get("format") != DICE_SESSION_FORMAT:
            raise JsonInputError(f'saved Xpress session: expected an object with "format": {DICE_SESSION_FORMAT!r}')
        if obj.get("record") is True:
            raise JsonInputError(
                "saved Xpress session: this is a player's record (without the seed): it cannot be resumed"
            )
        if obj.get("version") != _VERSION:
            raise JsonInputError(f"saved Xpress session.version: expected {_VERSION}, got {obj.get('version')!r}")
        practice = obj.get("practice", False)
        if not isinstance(practice, bool):
            raise JsonInputError(f"saved Xpress session.practice: expected true or false, got {practice!r}")
        kinds = check_dice_kinds(obj.get("kinds"))
        rules = rules_from_json(obj.get("rules"), "saved Xpress session.rules")
        seed = obj.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise JsonInputError(f"saved Xpress session.seed: expected a whole number, got {seed!r}")
        rounds = obj.get("rounds")
        if not isinstance(rounds, list) or not rounds:
            raise JsonInputError("saved Xpress session.rounds: expected a non-empty array of saved games")
        referee = bounded_referee(max_steps)
        games = [XpressGame.from_json(g, referee=referee) for g in rounds]
        return cls(kinds, rules, seed, games, practice=practice, max_steps=max_steps)

    # -- internals --------------------------------------------------------------------------------

    def _require_human(self) -> None:
        if self.game.finished:
            raise GameStateError("the game is over: start the next game")
        if self.game.current != self.human:
            raise GameStateError(f"it is {self.names[self.game.current]}'s turn, not yours")

    def _public(self, event: XpressEvent, before: Sequence[Any] = ()) -> dict[str, Any]:
        """An event with its mover's name; a play also lists the faces it put on the table."""
        obj = event.to_json()
        obj["name"] = self.names[event.player]
        if isinstance(event, DicePlayEvent):
            placed = Counter(t for m in event.table for t in m) - Counter(t for m in before for t in m)
            obj["played"] = sorted(map(str, placed.elements()))
        return obj

    def _turn_answer(self, event: XpressEvent, before: Any) -> dict[str, Any]:
        return {"event": self._public(event, before), "before": table_to_json(before)}


def reroll_text(reroll: dict[str, Any]) -> str:
    """The re-roll advice in words: ``roll D3 and D7: 2.40 dice expected, against 1.90 keeping all``
    (``± stderr`` and "sampled" where an expectation is sampled)."""

    def figure(option: dict[str, Any]) -> str:
        value = f"{option['expected']['tiles']:.2f}"
        if option["exact"]:
            return value
        return f"{value} (± {option['stderr']:.2f}, sampled from {option['outcomes']} rolls)"

    keep = next(o for o in reroll["options"] if not o["dice"])
    names = reroll["names"]
    if not names:
        runner_up = next((o for o in reroll["options"] if o["dice"]), None)
        tail = (
            "" if runner_up is None else f"; the best roll ({_listed(runner_up['names'])}) expects {figure(runner_up)}"
        )
        return f"keep all your dice: {figure(keep)} dice expected to play{tail}"
    return f"roll {_listed(names)}: {figure(reroll)} dice expected to play, against {figure(keep)} keeping all"


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
