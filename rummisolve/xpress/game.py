"""The Xpress game engine (docs/rules.md#xpress): the seeded split and rolls, a turn's one roll
then a refereed play or a pass, the end, scoring, undo/redo, replay, save/load and the event log.
What each event does to the state is :mod:`rummisolve.xpress.transitions`; what the seed decides is
:mod:`rummisolve.xpress.seeding`.

>>> game = XpressGame(seed=7)
>>> [len(hand) for hand in game.state.hands], game.view().rolled
([9, 9], False)
>>> roll = game.roll(game.view().dice[:2])
>>> game.view().rolled, len(roll.faces)
(True, 2)
>>> event = game.pass_turn()
>>> XpressGame.from_json(game.to_json()).state == game.state
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rummisolve.errors import GameLogError, GameStateError, JsonInputError, RuleSetError
from rummisolve.game.history import History
from rummisolve.game.save_files import write_save
from rummisolve.game.saves import read_save
from rummisolve.game.transitions import Referee, default_referee
from rummisolve.melds import Meld
from rummisolve.rules import XPRESS, RuleSet
from rummisolve.tiles import Tile, parse_tiles, split_melds
from rummisolve.xpress.conservation import check_dice, check_step
from rummisolve.xpress.dice import xpress_dice
from rummisolve.xpress.events import (
    DiceDeal,
    DicePlayEvent,
    PassEvent,
    RollEvent,
    XpressEvent,
    dice_deal_from_json,
    xpress_event_from_json,
)
from rummisolve.xpress.seeding import DICE, SEATS, Seeding
from rummisolve.xpress.state import XpressState, XpressView, die_name, die_number, face_of
from rummisolve.xpress.transitions import after_xpress_event, opening_state, roll_of, xpress_scores

__all__ = ["XpressGame", "XPRESS_SAVE_FORMAT", "check_dice_rules"]

XPRESS_SAVE_FORMAT = "rummisolve-xpress-game"
_SAVE_VERSION = 1


def check_dice_rules(rules: RuleSet) -> None:
    """:class:`RuleSetError` unless ``rules`` can play the 18 dice: the dice edition, two players of
    9 dice, every face a tile of the set as often as the dice show it, no discard, no turn timer."""
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
    if not rules.dice:
        raise RuleSetError("the Xpress game needs the dice edition's rules (rule option 'dice', preset 'xpress')")
    if not rules.min_players <= SEATS <= rules.max_players or rules.rack_size * SEATS != DICE:
        raise RuleSetError(f"the Xpress game splits {DICE} dice between {SEATS} players: rack_size 9, 2 players")
    for option in ("discard", "turn_timer"):
        if getattr(rules, option):
            raise RuleSetError(f"rule option {option!r}: the Xpress game has none")
    faces = Counter(face for die in xpress_dice() for face in die.faces)
    for tile, count in sorted(faces.items()):
        if not rules.has_tile(tile) or rules.copies_of(tile) < count:
            raise RuleSetError(f"the dice show {tile} {count} times; these rules have {rules.copies_of(tile)}")


class XpressGame(History[XpressState, XpressEvent, DiceDeal]):
    """One game of Xpress for two players.

    A turn is at most one :meth:`roll` of some of the mover's free dice (none is a roll too), then
    :meth:`play` (the whole new table, judged by the referee on what the dice show; at least one
    die of the mover's played) or :meth:`pass_turn`. An action that does not fit raises an error
    naming the bad part and changes nothing. After every event the engine checks the dice are
    conserved. ``seed`` decides the split, the first player (unless ``first`` is given, as a match
    does) and every roll; a random one is drawn and recorded when it is ``None``.
    """

    def __init__(
        self,
        seed: int | None = None,
        rules: RuleSet = XPRESS,
        *,
        first: int | None = None,
        names: Sequence[str] | None = None,
        referee: Referee | None = None,
    ) -> None:
        check_dice_rules(rules)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise GameStateError(f"seed must be a whole number from 0, not {seed!r}")
        seeding = Seeding.of(seed)
        first = seeding.first if first is None else first
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < SEATS:
            raise GameStateError(f"first player must be a seat from 0 to {SEATS - 1}, not {first!r}")
        if names is not None and len(names) != SEATS:
            raise GameStateError(f"{len(names)} names given for {SEATS} players")
        self._seeding = seeding
        self._referee = referee or default_referee
        initial = opening_state(rules, seeding, first)
        faces = tuple(face_of(d, f) for d, f in enumerate(initial.faces))
        self.deal = DiceDeal(rules, seed, first, seeding.hands, faces, None if names is None else tuple(names))
        check_dice(initial)
        self._start(initial)

    # -- reading --------------------------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        return self.deal.rules

    @property
    def seed(self) -> int:
        return self.deal.seed

    @property
    def players(self) -> int:
        return SEATS

    @property
    def names(self) -> tuple[str, ...]:
        return self.deal.names or tuple(f"player {s + 1}" for s in range(SEATS))

    def scores(self) -> tuple[int, ...] | None:
        """Each seat's score once the game is over, else ``None``."""
        return xpress_scores(self.state)

    def view(self, seat: int | None = None, at: int | None = None) -> XpressView:
        """What ``seat`` (default: the player to move) sees; ``at``: in the state after that many
        events (default: now), e.g. ``at=0`` right after the opening roll."""
        if at is not None and (isinstance(at, bool) or not isinstance(at, int) or not 0 <= at < len(self._states)):
            raise GameStateError(f"no state {at!r}: the game has states 0 to {len(self._states) - 1}")
        index = len(self._states) - 1 if at is None else at
        state = self._states[index]
        seat = state.current if seat is None else seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
            raise GameStateError(f"no seat {seat!r} in a {SEATS}-player game")
        racks = state.racks
        hands = tuple(tuple(die_name(d) for d in hand) for hand in state.hands)
        return XpressView(
            seat=seat,
            rules=self.rules,
            rack=racks[seat],
            table=state.table,
            opened=state.opened[seat],
            players_opened=state.opened,
            rack_sizes=tuple(len(r) for r in racks),
            pool_size=0,
            turn=state.turn,
            history=tuple(e.to_json() for e in self._events[:index]),
            dice=hands[seat],
            hands=hands,
            racks=racks,
            table_dice=tuple(tuple(die_name(d) for d in meld) for meld in state.table_dice),
            rolled=state.rolled and seat == state.current,
            passes=state.passes,
            mover=state.current,
        )

    # -- acting ----------------------------------------------------------------------------------

    def roll(self, dice: Iterable[str]) -> RollEvent:
        """Re-roll the mover's free dice named in ``dice`` (``"D3"``; none: keep them all), once a
        turn and before the play. :class:`GameStateError` naming a die that is not the mover's
        free die, or a second roll; :class:`~rummisolve.xpress.DiceError` for a name that is no die."""
        if isinstance(dice, str):
            dice = dice.replace(",", " ").split()
        event = roll_of(self.state, list(dice), self._seeding)
        self._push(event)
        return event

    def play(
        self, table: Iterable[Meld | Iterable[Tile | str]] | str, dice: Iterable[str] | None = None
    ) -> DicePlayEvent:
        """Play: ``table`` is the whole new table (melds in play order, or notation ``"R1 R2 R3 | K5 B5 O5"``).

        ``dice``: which of the mover's free dice the play puts down (only needed to choose between
        dice showing the same face; by default the first in die order). :class:`IllegalMoveError`
        with the referee's reasons (state unchanged) when the table is not a legal turn or plays
        none of the mover's dice."""
        if isinstance(dice, str):
            dice = dice.replace(",", " ").split()
        event = DicePlayEvent(self.state.current, _melds_in(table), None if dice is None else tuple(dice))
        applied = self._push(event)
        assert isinstance(applied, DicePlayEvent)  # a play is recorded as a play
        return applied

    def pass_turn(self) -> PassEvent:
        """End the turn without a play (always allowed)."""
        event = PassEvent(self.state.current)
        self._push(event)
        return event

    # -- undo / redo -----------------------------------------------------------------------------

    # -- the log, replay, save and load ----------------------------------------------------------

    @classmethod
    def replay(cls, log: Sequence[Any], *, referee: Referee | None = None) -> XpressGame:
        """Rebuild a game from its log: the deal checked against its seed, every roll against the
        seed, every play by the referee."""
        if not isinstance(log, Sequence) or isinstance(log, str) or not log:
            raise JsonInputError("log: expected a non-empty array of events starting with the deal")
        deal = dice_deal_from_json(log[0], "log[0]")
        game = cls(deal.seed, deal.rules, first=deal.first, names=deal.names, referee=referee)
        if (deal.hands, deal.faces) != (game.deal.hands, game.deal.faces):
            raise GameLogError(f"log[0]: seed {deal.seed} does not split and roll the dice as this deal says")
        for i, obj in enumerate(log[1:], start=1):
            game._apply(xpress_event_from_json(obj, deal.rules, f"log[{i}]"), where=f"log[{i}]")
        return game

    def to_json(self) -> dict[str, Any]:
        """A saved game: the log plus the undone events that can still be redone."""
        return self._saved(XPRESS_SAVE_FORMAT, _SAVE_VERSION)

    @classmethod
    def from_json(cls, obj: Any, *, referee: Referee | None = None) -> XpressGame:
        """Load a game saved by :meth:`to_json` (or a bare log array)."""
        if isinstance(obj, list):
            return cls.replay(obj, referee=referee)
        if not isinstance(obj, dict) or obj.get("format") != XPRESS_SAVE_FORMAT:
            raise JsonInputError(f'saved Xpress game: expected an object with "format": {XPRESS_SAVE_FORMAT!r}')
        if obj.get("version") != _SAVE_VERSION:
            raise JsonInputError(f"saved Xpress game.version: expected {_SAVE_VERSION}, got {obj.get('version')!r}")
        game = cls.replay(obj.get("log"), referee=referee)  # type: ignore[arg-type]  # replay() checks it
        game._restore_redo(obj, lambda e, path: xpress_event_from_json(e, game.rules, path), "saved Xpress game")
        return game

    def save(self, path: str | Path) -> None:
        """Write the game to ``path`` atomically: a crash mid-save leaves the previous file whole."""
        write_save(path, self.to_json())

    @classmethod
    def load(cls, path: str | Path, *, referee: Referee | None = None) -> XpressGame:
        """The game saved in ``path`` by :meth:`save`."""
        return cls.from_json(read_save(path), referee=referee)

    # -- internals -------------------------------------------------------------------------------

    nothing_to_undo = "nothing to undo: nothing has happened since the opening roll"

    def _push(self, event: XpressEvent) -> XpressEvent:
        applied = self._apply(event)
        self._redo.clear()
        return applied

    def _apply(self, event: XpressEvent, where: str = "move") -> XpressEvent:
        """Apply one event, check the dice are conserved, record it (a play with its dice resolved)."""
        state = self.state
        new = after_xpress_event(state, event, seeding=self._seeding, referee=self._referee, where=where)
        rolled = [die_number(n) for n in event.dice] if isinstance(event, RollEvent) else []
        check_dice(new)
        check_step(state, new, rolled)
        if isinstance(event, DicePlayEvent) and event.dice is None:
            gone = [d for d in state.hands[state.current] if d not in new.hands[state.current]]
            event = replace(event, dice=tuple(die_name(d) for d in gone))
        self._states.append(new)
        self._events.append(event)
        return event


def _melds_in(table: Iterable[Meld | Iterable[Tile | str]] | str) -> tuple[tuple[Tile, ...], ...]:
    if isinstance(table, str):
        table = split_melds(table)
    return tuple(m.tiles if isinstance(m, Meld) else parse_tiles(m) for m in table)
