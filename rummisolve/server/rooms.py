"""A game room: people and AIs in seats around one match, with the server as the only authority.

A :class:`Room` has a short code (its invite), seats (``human`` ones taken by joining, each with a
random secret token the room keeps only as its hash, and AI levels that play themselves), the
rule set, a turn timer, and the match of rounds (:class:`~rummisolve.game.match.Match`: the engine's :class:`~rummisolve.game.Game`, every
play refereed). Its status is ``waiting`` until every human seat is taken, then ``playing``,
``over`` once the round ends (:meth:`Room.next_round` deals the next).

The turn timer is a deadline kept with the room (wall-clock seconds, so it survives a restart):
once it has passed, :meth:`Room.expire` applies the engine's timeout (the seat draws the rule
set's ``timer_penalty`` tiles, the table stays as it was). The rounds' games get the rules without
``turn_timer``, so the engine's own clock never times a turn out besides the room's deadline.

An AI seat's turn is taken in two steps, so the thinking needs no lock on the room:
:meth:`Room.ai_to_move` gives the seat, its player and what it sees; the player chooses (in the
server's heavy lane); :meth:`Room.ai_move` applies the choice (``play_turn``: an illegal choice
makes the AI draw). Rooms save to JSON (:meth:`Room.to_json`) as they are now: the finished rounds
compacted to their results, the current round as the engine's save, restored on load without
judging its plays again (:mod:`rummisolve.server.room_rounds`), so loading a room costs the same
after 1 round or 500. A room saved in the first form (every round's whole game) is read by
replaying every round through the referee once, then saved in the new form. The views
(:mod:`rummisolve.server.room_views`) never hold what the JSON keeps secret (the deck, the seeds,
the token hashes).
"""

from __future__ import annotations

import hmac
import math
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rummisolve.errors import GameStateError, JsonInputError, OptionError
from rummisolve.game import Game, Player, PlayerView
from rummisolve.game.kind import GameKind
from rummisolve.game.match import Match, RoundResult, round_result
from rummisolve.jsonio import json_type_name, rules_from_json, rules_to_json
from rummisolve.kinds import kind_of
from rummisolve.rules import MAX_TURN_TIMER, RuleSet
from rummisolve.server.requests import BadRequest
from rummisolve.server.room_ai import Chosen, Think
from rummisolve.server.room_rounds import restore_round
from rummisolve.server.store import hash_token
from rummisolve.solver_limits import unsupported_rules
from rummisolve.tiles import Tile

__all__ = [
    "Room",
    "Seat",
    "ROOM_FORMAT",
    "ROOM_VERSION",
    "CODE_LETTERS",
    "CODE_LENGTH",
    "MAX_NAME",
    "new_code",
    "check_name",
    "check_timer",
]

ROOM_FORMAT = "rummisolve-room"
ROOM_VERSION = 2
"""2: the room as it is now (``results`` of the finished rounds, ``round``: the current one);
1: every round's whole game (``rounds``), read by replaying them (see the module's docstring)."""

CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ"
"""The letters of room codes: no I, L or O, which read like 1 and 0."""
CODE_LENGTH = 6
"""Letters in a room code (23**6, about 148 million codes)."""
MAX_NAME = 24
"""The longest player name, in characters."""


def new_code() -> str:
    """A random room code, e.g. ``KTRWMB``."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def check_name(name: Any, default: str, path: str = "name") -> str:
    """A player's name: text of 1 to :data:`MAX_NAME` printable characters (``None``: ``default``)."""
    if name is None:
        return default
    if not isinstance(name, str):
        raise OptionError(f"{path}: expected a player's name (a string), got {json_type_name(name)}")
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise OptionError(f"{path}: a name is 1 to {MAX_NAME} printable characters, not {name[:40]!r}")
    return name


def check_timer(timer: Any, path: str = "timer") -> float | None:
    """A room's turn timer: ``None`` (the rule set's ``turn_timer``) or 1 to 86,400 seconds."""
    if timer is None:
        return None
    if isinstance(timer, bool) or not isinstance(timer, int | float) or not math.isfinite(timer):
        raise OptionError(f"{path}: expected seconds per turn (a number) or null, got {json_type_name(timer)}")
    if not 1 <= timer <= MAX_TURN_TIMER:
        raise OptionError(f"{path}: a turn timer is 1 to {MAX_TURN_TIMER:,} seconds, not {timer!r}")
    return float(timer)


@dataclass
class Seat:
    """One seat: ``human`` or an AI level; a human seat is taken once it has a token (its hash)."""

    kind: str
    name: str
    token: str | None = None
    """The SHA-256 of the seat's token (:func:`~rummisolve.server.store.hash_token`); ``None``: free."""

    @property
    def taken(self) -> bool:
        return self.kind != "human" or self.token is not None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "token": self.token}


def _check_seats(seats: Any, rules: RuleSet, kind: GameKind) -> tuple[str, ...]:
    if kind.rooms_refused is not None:
        raise OptionError(f"rules: {kind.rooms_refused}")
    if not isinstance(seats, list) or not all(isinstance(k, str) for k in seats):
        raise OptionError('seats: expected an array of seat kinds, e.g. ["human", "human", "hard"]')
    kinds = tuple(k.strip().lower() for k in seats)
    known = (*kind.ai_levels, "human")
    bad = [k for k in kinds if k not in known]
    if bad:
        raise OptionError(f"seats: unknown seat kind {bad[0]!r} (known: {', '.join(known)})")
    if not rules.min_players <= len(kinds) <= rules.max_players:
        raise OptionError(
            f"seats: {len(kinds)} seats; these rules allow {rules.min_players} to {rules.max_players} players"
        )
    if "human" not in kinds:
        raise OptionError("seats: a room needs at least one 'human' seat (the one who creates it)")
    if any(k in kind.ai_levels for k in kinds) and (problem := unsupported_rules(rules)) is not None:
        raise OptionError(f"rules: {problem} (the AI seats could not play)")
    return kinds


def _ai_names(kinds: Sequence[str]) -> list[str]:
    """An AI seat is named after its level, numbered when a level sits twice (``hard#2``)."""
    return [
        f"{kind}#{list(kinds[: seat + 1]).count(kind)}" if list(kinds).count(kind) > 1 else kind
        for seat, kind in enumerate(kinds)
    ]


class Room:
    """A game room (see the module's docstring); built by :meth:`new` or :meth:`from_json`."""

    def __init__(
        self,
        code: str,
        rules: RuleSet,
        seats: list[Seat],
        *,
        creator: int,
        timer: float | None,
        seed: int,
        game: Game | None = None,
        results: Sequence[RoundResult] = (),
        deadline: float | None = None,
        max_steps: int | None = None,
    ) -> None:
        self.code = code
        self.rules = rules
        """The rule set as chosen (the rounds' games play it without ``turn_timer``: see the module)."""
        self.seats = seats
        self.creator = creator
        self.timer = timer if timer is not None else rules.turn_timer
        """Seconds per human turn (the room's ``timer``, else the rule set's ``turn_timer``), or ``None``."""
        self.seed = seed
        """Secret: seeds the AI players' randomness."""
        self.kind = kind_of(rules)
        self.match = Match(
            self.kind,
            len(seats),
            rules.replace(turn_timer=None),  # the room keeps the time (see the module's docstring)
            seed,
            fresh_seeds=True,  # nobody can derive a round's deal
            keep_rounds=False,  # the earlier rounds as their results (see the module's docstring)
            referee=_referee(max_steps),
            rounds=() if game is None else (game,),
            results=results,
        )
        """The rounds: the current one (:attr:`game`) and the earlier ones' results (:attr:`past`)."""
        self.deadline = deadline
        """When the mover's time runs out (wall-clock seconds), or ``None``."""
        self.max_steps = max_steps
        self.archived = False
        """Archived (nobody played or watched it for ``room_idle_seconds``): it can be seen, not played."""
        self._players: dict[int, Player] = {}

    # -- making one -----------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        code: str,
        rules: RuleSet,
        seats: Any,
        name: Any,
        now: float,
        *,
        timer: Any = None,
        seat: Any = None,
        max_steps: int | None = None,
    ) -> tuple[Room, int, str]:
        """A new room, its creator's seat and token; :class:`OptionError` names a bad choice.
        ``seat``: the creator's seat (a human one; default the first); ``now``: the time (the
        timer starts if every seat is taken)."""
        kinds = _check_seats(seats, rules, kind_of(rules))
        if seat is None:
            seat = kinds.index("human")
        elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(kinds):
            raise OptionError(f"seat: expected a seat number from 0 to {len(kinds) - 1}, got {seat!r}")
        elif kinds[seat] != "human":
            raise OptionError(f"seat: seat {seat} is an AI ({kinds[seat]}); the creator takes a 'human' seat")
        ai = _ai_names(kinds)
        places = [Seat(k, ai[s] if k != "human" else f"player {s + 1}") for s, k in enumerate(kinds)]
        room = cls(
            code,
            rules,
            places,
            creator=seat,
            timer=check_timer(timer),
            seed=secrets.randbits(62),
            max_steps=max_steps,
        )
        token = room._take(seat, check_name(name, f"player {seat + 1}"))
        room._turn_started(now)
        return room, seat, token

    def _take(self, seat: int, name: str) -> str:
        token = secrets.token_urlsafe(32)
        self.seats[seat].token = hash_token(token)
        self.seats[seat].name = name
        return token

    # -- reading --------------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The round being played (or the last one, once it is over)."""
        return self.match.game

    @property
    def past(self) -> list[RoundResult]:
        """The results of the rounds before :attr:`game` (the earlier rounds themselves are not kept)."""
        return self.match.past

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total over :attr:`past`."""
        return self.match.past_totals

    @property
    def round(self) -> int:
        """The number of the current round (from 0)."""
        return self.match.round

    def results(self) -> list[RoundResult]:
        """Every finished round's result, the current round's too once it is over."""
        return self.match.results()

    def match_totals(self) -> tuple[int, ...]:
        """Each seat's total over every finished round (the current one's too once it is over)."""
        return self.match.totals()

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def status(self) -> str:
        """``waiting`` (a human seat is free), ``playing``, ``over`` (the round has ended) or ``archived``."""
        if self.archived:
            return "archived"
        if self.game.finished:
            return "over"
        return "playing" if all(s.taken for s in self.seats) else "waiting"

    def seat_of(self, token: str) -> int | None:
        """The seat whose token ``token`` is, or ``None``."""
        digest = hash_token(token)
        for seat, place in enumerate(self.seats):
            if place.token is not None and hmac.compare_digest(place.token, digest):
                return seat
        return None

    def due(self, now: float) -> float | None:
        """When the server must act on the room unasked: now for an AI seat's turn, the deadline for
        a human's, ``None`` when nothing will happen without a player."""
        if self.ai_to_move() is not None:
            return now
        return self.deadline if self.status == "playing" else None

    # -- the seats' actions ---------------------------------------------------------------------

    def join(self, name: Any, now: float, seat: Any = None) -> tuple[int, str]:
        """Take the next free human seat (or human seat ``seat``, e.g. a second player on the same
        screen): its number and token; :class:`GameStateError` if none is free (or ``seat`` is taken)."""
        self._require_open()
        free = [s for s, place in enumerate(self.seats) if not place.taken]
        if seat is not None:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
                raise OptionError(f"seat: expected a seat number from 0 to {len(self.seats) - 1}, got {seat!r}")
            if self.seats[seat].kind != "human":
                raise OptionError(
                    f"seat: seat {seat} is an AI ({self.seats[seat].kind}); a player joins a 'human' seat"
                )
            if seat not in free:
                raise GameStateError(f"seat {seat} of room {self.code} is taken (join another, or watch)")
            free = [seat]
        if not free:
            raise GameStateError(f"room {self.code} is full: every seat is taken (watch it without joining)")
        token = self._take(free[0], check_name(name, f"player {free[0] + 1}"))
        self._turn_started(now)
        return free[0], token

    def _require_open(self) -> None:
        if self.archived:
            raise GameStateError(f"room {self.code} was archived: nobody played or watched it for a long time")

    def _require_turn(self, seat: int) -> None:
        self._require_open()
        status = self.status
        if status == "waiting":
            raise GameStateError("the game has not started: a seat is still free (waiting for players)")
        if status == "over":
            raise GameStateError("the round is over: start the next round")
        if self.game.current != seat:
            raise GameStateError(
                f"it is {self.seats[self.game.current].name}'s turn (seat {self.game.current}), not yours"
            )

    def play(self, seat: int, table: Sequence[Sequence[Tile]], discard: str | None, now: float) -> None:
        """``seat`` plays the whole new table; :class:`~rummisolve.errors.IllegalMoveError` (nothing
        changed) with the referee's reasons for an illegal one."""
        self._require_action("play", seat)
        if discard is not None:
            self._require_action("discard", seat)
        turn = self.game.state.turn
        if discard is None:
            self.game.play(table)
        else:
            self.game.play(table, discard=discard)
        self._ended(turn, now)

    def draw(self, seat: int, source: str, now: float) -> None:
        """``seat`` draws (the discard rule: from ``source``, and the turn goes on)."""
        self._require_action("draw", seat)
        turn = self.game.state.turn
        self.game.draw(source)
        self._ended(turn, now)

    def discard(self, seat: int, tile: str, now: float) -> None:
        """The discard rule: ``seat`` ends a turn without a play by discarding ``tile``."""
        self._require_action("discard", seat)
        turn = self.game.state.turn
        self.game.discard(tile)
        self._ended(turn, now)

    def roll(self, seat: int, dice: Any, now: float) -> None:
        """Xpress: ``seat`` re-rolls its free dice named in ``dice`` (``[]``: keeps them all;
        ``"all"``: every one), once a turn before its play or pass; the turn goes on."""
        self._require_action("roll", seat)
        game: Any = self.game  # the kind's engine: one with a roll (the kind's room_actions say so)
        if dice == "all":
            dice = list(game.view(seat).dice)
        if not isinstance(dice, list) or not all(isinstance(d, str) for d in dice):
            raise OptionError(
                f'roll: expected the names of the dice to roll (e.g. ["D3", "D7"]; [] keeps them all) or "all", got {json_type_name(dice)}'
            )
        turn = game.state.turn
        game.roll(dice)
        self._ended(turn, now)

    def pass_turn(self, seat: int, now: float) -> None:
        """Xpress: ``seat`` ends its turn without a play."""
        self._require_action("pass", seat)
        game: Any = self.game  # the kind's engine: one with a pass
        turn = game.state.turn
        game.pass_turn()
        self._ended(turn, now)

    def _require_action(self, action: str, seat: int) -> None:
        """``seat`` may act now, and ``action`` is one of the kind's (else :class:`OptionError` naming them)."""
        if action not in self.kind.room_actions:
            raise OptionError(
                f"{action}: {self.kind.title} has no {action!r} (a turn is {', '.join(self.kind.room_actions)})"
            )
        self._require_turn(seat)

    def hand_to_ai(self, by: int, seat: Any, kind: Any, now: float) -> None:
        """The creator (seat ``by``) hands human seat ``seat`` to the AI level ``kind`` (its
        player left, or nobody came): the seat's token no longer acts, and the AI plays from now on."""
        self._require_open()
        if by != self.creator:
            raise BadRequest(403, f"only the room's creator ({self.seats[self.creator].name}) hands a seat to an AI")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise OptionError(f"seat: expected a seat number from 0 to {len(self.seats) - 1}, got {seat!r}")
        if kind not in self.kind.ai_levels:
            raise OptionError(f"kind: expected an AI level ({', '.join(self.kind.ai_levels)}), got {kind!r}")
        place = self.seats[seat]
        if place.kind != "human":
            raise GameStateError(f"seat {seat} is an AI already ({place.kind})")
        if seat == self.creator:
            raise GameStateError("the creator's own seat stays the creator's")
        if (problem := unsupported_rules(self.rules)) is not None:
            raise OptionError(f"rules: {problem} (an AI could not play)")
        if self.status == "over":
            raise GameStateError("the round is over: hand the seat over once the next one is dealt")
        name = place.name if place.token is not None else f"player {seat + 1}"
        self.seats[seat] = Seat(kind, f"{kind} (for {name})"[: MAX_NAME + 16])
        self._turn_started(now)

    def next_round(self, now: float) -> None:
        """Deal the next round (the first seat moves on by one)."""
        self._require_open()
        if not self.game.finished:
            raise GameStateError("the round is not over yet")
        self.match.next_round()
        self._turn_started(now)

    # -- the server's actions -------------------------------------------------------------------

    def archive(self) -> None:
        """Nobody played or watched the room for long: it can be seen, no longer played."""
        self.archived = True
        self.deadline = None

    def expire(self, now: float) -> bool:
        """Apply the timeout if the mover's time has run out (they draw the penalty); whether it did."""
        if self.deadline is None or now < self.deadline or self.status != "playing":
            return False
        if self.seats[self.game.current].kind != "human":
            return False
        self.kind.timeout(self.game)
        self._turn_started(now)
        return True

    def ai_to_move(self) -> tuple[int, Player, PlayerView] | None:
        """The AI seat to move, its player and its view; ``None`` unless an AI's turn is due."""
        if self.status != "playing":
            return None
        seat = self.game.current
        kind = self.seats[seat].kind
        if kind == "human":
            return None
        player = self._players.get(seat)
        if player is None:
            player = self._players[seat] = self.kind.make_player(kind, seed=self.seed + seat)
        return seat, player, self.game.view(seat)

    def ai_move(
        self,
        seat: int,
        choice: Any,
        seen: PlayerView,
        now: float,
        *,
        player: Player | None = None,
        think: Think | None = None,
    ) -> None:
        """Apply the AI's whole turn, starting with ``choice``, what it chose seeing ``seen``
        (``player``: the AI as it was after choosing it). ``think(player, view)`` answers ``(choice,
        player after)`` for the rest of the turn (the discard rule's second step, Xpress's play after
        its roll); else it chooses here. A choice of ``None`` (it could not choose in time) is the
        kind's forfeit."""
        due = self.ai_to_move()
        if due is None or due[0] != seat:
            raise GameStateError(f"it is not seat {seat}'s turn")
        chosen = Chosen(due[1] if player is None else player, seen, choice, think, self.kind.forfeit)
        self.kind.play_turn(self.game, chosen, self.seats[seat].name)
        self._players[seat] = chosen.player
        self._turn_started(now)

    def _ended(self, turn: int, now: float) -> None:
        """After an action begun on turn ``turn``: a new turn's clock if the turn ended (a draw under
        the discard rule does not end it: the same turn, the same deadline)."""
        if self.game.state.turn != turn or self.game.finished:
            self._turn_started(now)

    def _turn_started(self, now: float) -> None:
        """A new turn (or a change of status): the mover's clock starts, if the mover is a human."""
        human = self.seats[self.game.current].kind == "human"
        running = self.status == "playing"
        self.deadline = now + self.timer if self.timer is not None and human and running else None

    # -- saving ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The room as it is now, secrets included (for the store only: never a player's to see)."""
        return {
            "format": ROOM_FORMAT,
            "version": ROOM_VERSION,
            "code": self.code,
            "rules": rules_to_json(self.rules),
            "seats": [s.to_json() for s in self.seats],
            "creator": self.creator,
            "timer": self.timer,
            "seed": self.seed,
            "deadline": self.deadline,
            "archived": self.archived,
            "results": [r.to_json() for r in self.past],
            "round": self.game.to_json(),
        }

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything :meth:`to_json` saves, in short, to tell whether an action changed the room:
        the parts that change (the seats, the deadline, archived, the rounds: the current one is
        the same game until the next is dealt, and a game changes only by adding events), beside
        the state they led to."""
        game = self.game
        seats = tuple((s.kind, s.name, s.token) for s in self.seats)
        return (seats, self.deadline, self.archived, len(self.past), game, len(game.events), game.can_redo, game.state)

    @classmethod
    def from_json(cls, obj: Any, *, max_steps: int | None = None) -> Room:
        """A room saved by :meth:`to_json`: its current round restored without judging its plays
        again; a room saved in the first form (version 1) has every round replayed through the
        referee (see the module's docstring)."""
        if not isinstance(obj, dict) or obj.get("format") != ROOM_FORMAT:
            raise JsonInputError(f'saved room: expected an object with "format": {ROOM_FORMAT!r}')
        version = obj.get("version")
        if version not in (1, ROOM_VERSION):
            raise JsonInputError(f"saved room.version: expected 1 or {ROOM_VERSION}, got {version!r}")
        rules = rules_from_json(obj.get("rules"), "saved room.rules")
        seats = obj.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
            raise JsonInputError("saved room.seats: expected an array of seats")
        places = [Seat(str(s["kind"]), str(s["name"]), s.get("token")) for s in seats]
        referee = _referee(max_steps)
        kind = kind_of(rules)
        if version == 1:
            game, results = _first_form(kind, obj, referee)
        else:
            past = obj.get("results")
            if not isinstance(past, list):
                raise JsonInputError("saved room.results: expected an array of the finished rounds' results")
            results = [RoundResult.from_json(r, len(places), f"saved room.results[{i}]") for i, r in enumerate(past)]
            game = restore_round(kind, obj.get("round"), referee)
        if game.players != len(places):
            raise JsonInputError(f"saved room.round: {game.players} players for {len(places)} seats")
        room = cls(
            str(obj.get("code")),
            rules,
            places,
            creator=int(obj["creator"]),
            timer=obj.get("timer"),
            seed=int(obj["seed"]),
            game=game,
            results=results,
            deadline=obj.get("deadline"),
            max_steps=max_steps,
        )
        room.archived = obj.get("archived") is True
        return room


def _first_form(
    kind: GameKind, obj: dict[str, Any], referee: Callable[..., Any] | None
) -> tuple[Game, list[RoundResult]]:
    """The current round and the earlier rounds' results of a room saved in the first form (every
    round's whole game), each round replayed through the referee."""
    rounds = obj.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise JsonInputError("saved room.rounds: expected a non-empty array of saved games")
    games = [kind.load_round(g, referee=referee) for g in rounds]
    results = [round_result(g) for g in games[:-1]]
    if any(r is None for r in results):
        raise JsonInputError("saved room.rounds: a round before the last is not over")
    return games[-1], [r for r in results if r is not None]


def _referee(max_steps: int | None) -> Callable[..., Any] | None:
    """The referee with its search bounded by ``max_steps`` (as on ``/verify``); ``None``: the engine's own."""
    if max_steps is None:
        return None
    from rummisolve.referee import verify

    return lambda position, table: verify(position, table, max_steps=max_steps)
