"""A match for a frontend: one human against AIs over several rounds, driven one action at a time.

The web app (:mod:`rummisolve.server.routes.games`) keeps one :class:`Session` per game. The human's
turns arrive as whole tables (every play judged by the engine's referee, which gives its reasons
meld by meld), draws and, under the discard rule, discards; the AIs' turns are taken one at a
time by :meth:`Session.advance`, so a frontend can show each before asking for the next. The rounds
are a :class:`~rummisolve.game.match.Match`: the first seat moves on by one each round.
A session saves to and loads from JSON (:meth:`Session.to_json`), each round as the engine's
saved game, so every play is re-checked on load.

Hidden information stays hidden: nothing the human can get (:meth:`Session.view`,
:meth:`Session.replay`, :meth:`Session.summary`, :meth:`Session.record`, the answers to actions)
holds the pool, another seat's rack or the seed while a round is on. A session whose seed the
player chose is a *practice* game: round ``r`` is dealt from the match's seed
(:func:`~rummisolve.game.match.round_seed`: the same deals again from the same seed), the seed is shown, and the whole-turn take-back is allowed. Any other session
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

from collections.abc import Sequence
from typing import Any

from rummisolve.errors import OptionError
from rummisolve.game.actions import Draw, Player
from rummisolve.game.engine import Game
from rummisolve.game.events import DrawEvent, public_event
from rummisolve.game.players import AI_LEVELS, PLAYER_KINDS, make_player
from rummisolve.game.reasons import for_people
from rummisolve.game.runner import play_turn
from rummisolve.game.saves import SESSION_FORMAT
from rummisolve.game.tile_game import TILE_GAME
from rummisolve.jsonio import hint_to_json, json_type_name, table_to_json
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.server.game_views import seat_event, tile_view, timer_view
from rummisolve.server.replays import round_frames
from rummisolve.server.session_base import (
    SessionBase,
    check_hint_level,
    illegal_answer,
    kinds_list,
    seat_names,
)
from rummisolve.solver_limits import unsupported_rules
from rummisolve.tiles import Tile

__all__ = ["Session", "SESSION_FORMAT", "seat_names", "illegal_answer", "check_kinds"]

_SESSION_VERSION = 2
"""2: ``practice`` (absent in version 1: such a session loads as a game that is not practice)."""


class Session(SessionBase[Game, Player]):
    """One human and 1 or more AIs (``kinds``: ``human`` once, AI levels otherwise), round after round."""

    KIND = TILE_GAME
    FORMAT = SESSION_FORMAT
    VERSION = _SESSION_VERSION
    _SAVED = "saved session"
    _RECORD_REFUSED = (
        "this is a player's record of a game (what one seat saw, without the seed): it can be replayed but not resumed"
    )
    _ROUND = "round"
    _THE_AI = "an AI"
    _TAKE_BACK_SHOWS = "a draw would show the next tile of the pool"

    # -- making one -----------------------------------------------------------------------------

    @classmethod
    def new(
        cls, kinds: Sequence[str], rules: RuleSet = STANDARD, seed: int | None = None, *, max_steps: int | None = None
    ) -> Session:
        """A new match; :class:`OptionError` or :class:`GameStateError` names a bad choice.
        A ``seed`` makes it a practice game (see the module's docstring); without one the seed is
        secret. ``max_steps`` bounds the referee's search on each play (see
        :func:`rummisolve.referee.verify`; past it, a :class:`~rummisolve.errors.RefereeLimitError`)."""
        return cls._new(kinds, rules, seed, max_steps)

    @classmethod
    def _check_kinds(cls, kinds: Any) -> tuple[str, ...]:
        return check_kinds(kinds)

    @classmethod
    def _check_rules(cls, rules: RuleSet) -> None:
        if (problem := unsupported_rules(rules)) is not None:  # the AIs and hints solve
            raise OptionError(f"rules: {problem}")

    def _make_player(self, kind: str, seed: int) -> Player:
        return make_player(kind, seed=seed)

    # -- the human's actions ----------------------------------------------------------------------

    def play(self, table: Sequence[Sequence[Tile | str]], discard: Tile | str | None = None) -> dict[str, Any]:
        """The human's new table (and discard, under the discard rule). An illegal play changes
        nothing and answers ``{"legal": false, "reasons": [...], "message"}``, each reason with the
        index of the new meld it concerns (``null``: the turn as a whole)."""
        if discard is not None and not isinstance(discard, Tile | str):
            raise OptionError(f"discard: expected a tile code, got {json_type_name(discard)}")
        return self._judged(lambda: self.game.play(table, discard=discard))

    def draw(self, source: str = "pool") -> dict[str, Any]:
        """The human draws (normal rules: ending the turn; discard rule: from ``source``, the turn goes on)."""
        return self._move(lambda: self.game.draw(source))

    def discard(self, tile: Tile | str) -> dict[str, Any]:
        """Discard rule: after a draw, end the turn by discarding ``tile``."""
        return self._judged(lambda: self.game.discard(tile))

    def timeout(self) -> dict[str, Any]:
        """Apply the turn timer's penalty if the mover's time is up (``event`` ``null`` if not yet)."""
        before = self.game.state.table
        event = None if self.game.finished else self.game.check_timer()
        return {"event": None if event is None else self._public(event), "before": table_to_json(before)}

    def hint(self, level: int) -> dict[str, Any]:
        """A hint of ``level`` (1 the tiles, 2 also the melds touched, 3 the whole move) for the human."""
        from rummisolve.hints import hint_of

        check_hint_level(level)
        self._require_human()
        solution = self._solve(self.game.view(self.human).position)
        return hint_to_json(hint_of(solution, level))

    def _turn_began(self, undone: Any) -> bool:
        # Under the discard rule a turn without a play is a draw, then a discard: both go back.
        return undone.player == self.human and not (self.rules.discard and isinstance(undone, DrawEvent))

    # -- the AIs' turns ---------------------------------------------------------------------------

    def _ai_turn(self, seat: int, before: Any) -> dict[str, Any]:
        info = play_turn(self.game, self._player(seat), self.names[seat])
        answer = self._turn_answer(info.event, before)
        if info.draw is not None:
            answer["draw"] = public_event(info.draw)
        if info.illegal is not None:
            answer["illegal"] = for_people(info.illegal)
        return answer

    def _fallback(self, view: Any) -> Any:
        return Draw()  # after a draw under the discard rule: refused, so the turn is forfeit

    # -- what the human sees ----------------------------------------------------------------------

    def _seat_view(self) -> dict[str, Any]:
        game = self.game
        rules = self.rules
        left = None if game.finished else game.time_left()
        timer = timer_view(rules.turn_timer, rules.timer_penalty, None, left)
        return tile_view(game, self.human, self.names, self.kinds, self.match, timer)

    def _frames(self, game: Game) -> list[dict[str, Any]]:
        # A round still running shows the human's rack alone.
        return round_frames(game, seat=self.human, public=self._public)

    # -- saving -----------------------------------------------------------------------------------

    @classmethod
    def from_json(cls, obj: Any, *, max_steps: int | None = None) -> Session:
        """Load a session saved by :meth:`to_json`; every round replays through the referee."""
        return cls._from_json(obj, max_steps)

    # -- internals --------------------------------------------------------------------------------

    def _public(self, event: Any, before: Sequence[Any] = ()) -> dict[str, Any]:
        """An event as the human may see it: their own draws shown, the others' hidden; a play
        also lists the rack tiles it put on the table (``before``: the table it started from)."""
        return seat_event(event, self.human, self.names, before)


def check_kinds(kinds: Any) -> tuple[str, ...]:
    """The seats of a match: exactly one ``human`` and 1 or more AI levels; :class:`OptionError` otherwise."""
    kinds = kinds_list(kinds)
    bad = [k for k in kinds if k not in PLAYER_KINDS]
    if bad:
        raise OptionError(f"players: unknown player {bad[0]!r} (known: {', '.join(PLAYER_KINDS)})")
    if kinds.count("human") != 1:
        raise OptionError(f"players: exactly one 'human' seat, not {kinds.count('human')} (in {','.join(kinds)})")
    if len(kinds) < 2:
        raise OptionError(f"players: at least one AI ({', '.join(AI_LEVELS)}) besides the human")
    return kinds
