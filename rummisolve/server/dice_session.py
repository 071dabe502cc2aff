"""A web game of Xpress (the dice edition, docs/rules.md#xpress): one human against one Xpress AI,
game after game, driven one action at a time like the tile game's :class:`~rummisolve.server.session.Session`.

A turn of the human's is one :meth:`DiceSession.roll` (some free dice, all, or none), then
:meth:`DiceSession.play` (the whole new table, judged by the referee on the faces the dice show)
or :meth:`DiceSession.pass_turn`. The AI's whole turn (its roll, then its play or pass) is one
:meth:`DiceSession.advance`. Dice are rolled in the open, so the view shows both seats' dice; it
never holds the seed, which decides every roll to come. A session whose seed the player chose is
a *practice* game, as in the tile game: the seed is shown, game ``g`` is the ``g``-th game of the
:class:`~rummisolve.game.match.Match` from that seed, and the whole-turn take-back is allowed
(elsewhere taking back a roll would show what the dice roll next).

>>> s = DiceSession.new(["human", "easy"], seed=3)
>>> s.practice, s.human, len(s.view()["players"][0]["dice"])
(True, 0, 9)
>>> DiceSession.from_json(s.to_json()).game.state == s.game.state
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummisolve.errors import GameStateError, OptionError
from rummisolve.game.reasons import for_people
from rummisolve.jsonio import hint_to_json, table_to_json
from rummisolve.rules import XPRESS, RuleSet
from rummisolve.server.game_views import dice_event, xpress_view
from rummisolve.server.session_base import SessionBase, check_hint_level, kinds_list
from rummisolve.tiles import Tile
from rummisolve.xpress.actions import Pass, Roll, XpressPlayer
from rummisolve.xpress.events import XpressEvent
from rummisolve.xpress.game import XpressGame
from rummisolve.xpress.kind import XPRESS_GAME
from rummisolve.xpress.players import XPRESS_AI_LEVELS, make_xpress_player
from rummisolve.xpress.runner import play_xpress_turn
from rummisolve.xpress.seeding import SEATS
from rummisolve.xpress.state import die_name

__all__ = ["DiceSession", "DICE_SESSION_FORMAT", "check_dice_kinds", "reroll_text"]

DICE_SESSION_FORMAT = "rummisolve-xpress-session"
_VERSION = 1


def check_dice_kinds(kinds: Any) -> tuple[str, ...]:
    """The two seats of an Xpress web game: ``human`` and one Xpress AI level; :class:`OptionError` otherwise."""
    kinds = kinds_list(kinds)
    ais = [k for k in kinds if k != "human"]
    if len(kinds) != SEATS or kinds.count("human") != 1 or ais[0] not in XPRESS_AI_LEVELS:
        raise OptionError(
            f"players: Xpress is one human against one AI ({', '.join(XPRESS_AI_LEVELS)}), e.g. human,medium; "
            f"not {','.join(kinds) or 'nothing'}"
        )
    return kinds


class DiceSession(SessionBase[XpressGame, XpressPlayer]):
    """One human and one Xpress AI (``kinds``), game after game (``rounds``: each an :class:`XpressGame`)."""

    KIND = XPRESS_GAME
    FORMAT = DICE_SESSION_FORMAT
    VERSION = _VERSION
    _READS_VERSIONS = (_VERSION,)
    _SAVED = "saved Xpress session"
    _RECORD_REFUSED = "this is a player's record (without the seed): it cannot be resumed"
    _ROUND = "game"
    _THE_AI = "the AI"
    _TAKE_BACK_SHOWS = "a roll would show what the dice roll next"

    # -- making one -----------------------------------------------------------------------------

    @classmethod
    def new(
        cls, kinds: Sequence[str], rules: RuleSet = XPRESS, seed: int | None = None, *, max_steps: int | None = None
    ) -> DiceSession:
        """A new Xpress game; a ``seed`` makes it a practice game (see the module's docstring)."""
        return cls._new(kinds, rules, seed, max_steps)

    @classmethod
    def _check_kinds(cls, kinds: Any) -> tuple[str, ...]:
        return check_dice_kinds(kinds)

    def _make_player(self, kind: str, seed: int) -> XpressPlayer:
        return make_xpress_player(kind, seed=seed)

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
        return self._move(lambda: self.game.roll(dice))

    def play(self, table: Sequence[Sequence[Tile | str]], discard: Any = None) -> dict[str, Any]:
        """The human's new table. An illegal play changes nothing and answers ``{"legal": false,
        "reasons", "message"}`` as the tile game's does. Xpress has no ``discard``."""
        if discard is not None:
            raise OptionError("discard: the Xpress game has no discard")
        return self._judged(lambda: self.game.play(table))

    def pass_turn(self) -> dict[str, Any]:
        """The human ends the turn without a play."""
        return self._move(self.game.pass_turn)

    def hint(self, level: int) -> dict[str, Any]:
        """Before the roll: the best re-roll (:func:`~rummisolve.xpress.best_reroll`, by dice played),
        ``reroll`` its ranking. After it: the best play for the faces shown, at ``level`` 1 to 3."""
        from rummisolve.hints import HintWords, hint_of
        from rummisolve.xpress.reroll import best_reroll
        from rummisolve.xpress.reroll_json import advice_to_json

        check_hint_level(level)
        self._require_human()
        view = self.game.view(self.human)
        if not view.rolled:
            if self.workers is not None:
                advice = self.workers.reroll_hint(view.position, view.free_dice, view.turn)
            else:
                advice = best_reroll(view.position, view.free_dice, "tiles", seed=view.turn)
            names = [view.dice[i] for i in advice.best.dice]
            reroll = advice_to_json(advice)
            reroll["names"] = names
            for option, ranked in zip(reroll["options"], advice.options, strict=True):
                option["names"] = [view.dice[i] for i in option["dice"]]
                option["outcomes"] = ranked.outcomes
            reroll["outcomes"] = advice.best.outcomes
            return {"level": level, "kind": "reroll", "text": reroll_text(reroll), "dice": names, "reroll": reroll}
        solution = self._solve(view.position)
        out = hint_to_json(hint_of(solution, level, HintWords("die", "dice", "No play with these dice: pass.")))
        out["kind"] = "play"
        return out

    def _turn_began(self, undone: Any) -> bool:
        # The human's turn starts with the roll: back to before it.
        state = self.game.state
        return undone.player == self.human and state.current == self.human and not state.rolled

    def draw(self, source: str = "pool") -> dict[str, Any]:
        raise GameStateError("Xpress has no pool to draw from: pass instead (POST /games/{id}/pass)")

    def discard(self, tile: Tile | str) -> dict[str, Any]:
        raise GameStateError("Xpress has no discard")

    def timeout(self) -> dict[str, Any]:
        return {"event": None, "before": table_to_json(self.game.state.table)}

    # -- the AI's turns ---------------------------------------------------------------------------

    def _fallback(self, view: Any) -> Any:
        return Pass() if view.rolled else Roll(())

    def _ai_turn(self, seat: int, before: Any) -> dict[str, Any]:
        # Its roll, then its play or pass.
        turn = play_xpress_turn(self.game, self._player(seat), self.names[seat])
        answer = self._turn_answer(turn.event, before)
        answer["roll"] = None if turn.roll is None else self._public(turn.roll)
        if turn.illegal is not None:
            answer["illegal"] = for_people(turn.illegal)
        return answer

    # -- what the human sees ----------------------------------------------------------------------

    def _seat_view(self) -> dict[str, Any]:
        return xpress_view(self.game, self.human, self.names, self.kinds, self.match)

    def _frames(self, game: XpressGame) -> list[dict[str, Any]]:
        # Every seat's dice, all open.
        frames = []
        for i, state in enumerate(game.states):
            event = None if i == 0 else self._public(game.events[i - 1], game.states[i - 1].table)
            racks = state.racks
            frames.append(
                {
                    "turn": state.current,
                    "turn_number": state.turn,
                    "event": event,
                    "table": table_to_json(state.table),
                    "racks": [[str(t) for t in rack] for rack in racks],
                    "dice": [[die_name(d) for d in hand] for hand in state.hands],
                    "rack_sizes": [len(rack) for rack in racks],
                }
            )
        return frames

    # -- saving -----------------------------------------------------------------------------------

    @classmethod
    def from_json(cls, obj: Any, *, max_steps: int | None = None) -> DiceSession:
        """Load a session saved by :meth:`to_json`; every game replays (rolls against its seed, plays
        through the referee)."""
        return cls._from_json(obj, max_steps)

    # -- internals --------------------------------------------------------------------------------

    def _public(self, event: XpressEvent, before: Sequence[Any] = ()) -> dict[str, Any]:
        """An event with its mover's name; a play also lists the faces it put on the table."""
        return dice_event(event, self.human, self.names, before)


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
