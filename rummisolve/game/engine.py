"""The game engine: deal, turns, draws, refereed plays, the turn timer, undo/redo, replay, save/load.

>>> game = Game(players=2, seed=7)
>>> game.state.current, len(game.state.racks[0]), len(game.state.pool)
(0, 14, 78)
>>> event = game.draw()
>>> game.state.current, len(game.state.racks[0])
(1, 15)
>>> Game.from_json(game.to_json()).state == game.state
True
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from rummisolve.errors import ConservationError, GameStateError, IllegalMoveError, JsonInputError
from rummisolve.game.events import (
    Deal,
    DrawEvent,
    PlayEvent,
    TimeoutEvent,
    deal_from_json,
    event_from_json,
    public_event,
)
from rummisolve.game.scoring import blocked_winner, round_scores
from rummisolve.game.state import GameState, PlayerView
from rummisolve.melds import Meld
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import Tile, parse_tiles, split_melds

__all__ = [
    "Game",
    "IllegalMoveError",
    "GameStateError",
    "ConservationError",
    "shuffled_deck",
    "SAVE_FORMAT",
]

SAVE_FORMAT = "rummisolve-game"
_SAVE_VERSION = 1

Event = PlayEvent | DrawEvent | TimeoutEvent
Referee = Callable[..., Any]


def shuffled_deck(rules: RuleSet, seed: int | None) -> tuple[Tile, ...]:
    """The full set of ``rules`` shuffled by ``random.Random(seed)`` (deterministic for a seed)."""
    deck = list(rules.full_set())
    random.Random(seed).shuffle(deck)
    return tuple(deck)


def _default_referee(position, table):
    from rummisolve.referee import verify

    return verify(position, table)


class Game:
    """One round of Rummikub for 2..``rules.max_players`` players.

    Every play goes through the referee (``rummisolve.referee``); an illegal play raises
    :class:`IllegalMoveError` with the verdict's reasons and changes nothing. After every applied
    turn the engine checks that pool + racks + table equal the full set.

    ``clock`` (seconds, default :func:`time.monotonic`) measures the turn timer when
    ``rules.turn_timer`` is set; inject a fake clock for deterministic tests. ``deck`` fixes the
    shuffled deck (default: shuffled from ``seed``; a random seed is drawn and recorded when
    ``seed`` is ``None``).
    """

    def __init__(
        self,
        players: int = 2,
        rules: RuleSet = STANDARD,
        seed: int | None = None,
        *,
        first: int = 0,
        deck: Sequence[Tile | str] | None = None,
        names: Sequence[str] | None = None,
        clock: Callable[[], float] | None = None,
        referee: Referee | None = None,
    ) -> None:
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
        if isinstance(players, bool) or not isinstance(players, int):
            raise GameStateError(f"players must be a whole number, not {players!r}")
        if not rules.min_players <= players <= rules.max_players:
            raise GameStateError(f"{players} players: these rules allow {rules.min_players} to {rules.max_players}")
        if not isinstance(first, int) or not 0 <= first < players:
            raise GameStateError(f"first player must be a seat from 0 to {players - 1}, not {first!r}")
        if names is not None and len(names) != players:
            raise GameStateError(f"{len(names)} names given for {players} players")
        if deck is None:
            if seed is None:
                seed = random.SystemRandom().randrange(2**63)
            deck_tiles = shuffled_deck(rules, seed)
        else:
            deck_tiles = parse_tiles(deck)
            if Counter(deck_tiles) != Counter(rules.full_set()):
                raise GameStateError("deck: not exactly the full set of tiles of these rules")
        if players * rules.rack_size > len(deck_tiles):
            raise GameStateError(
                f"{players} racks of {rules.rack_size} need {players * rules.rack_size} tiles; the set has {len(deck_tiles)}"
            )
        self.deal = Deal(rules, players, deck_tiles, first, seed, None if names is None else tuple(names))
        self._clock = clock or time.monotonic
        self._referee = referee or _default_referee
        self._full = Counter(rules.full_set())
        size = rules.rack_size
        racks = tuple(tuple(sorted(deck_tiles[s * size : (s + 1) * size])) for s in range(players))
        initial = GameState(
            rules=rules,
            racks=racks,
            table=(),
            pool=deck_tiles[players * size :],
            opened=(False,) * players,
            current=first,
        )
        self._check(initial)
        self._states: list[GameState] = [initial]
        self._events: list[Event] = []
        self._redo: list[Event] = []
        self._turn_started = self._clock()

    # -- reading --------------------------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        return self.deal.rules

    @property
    def players(self) -> int:
        return self.deal.players

    @property
    def names(self) -> tuple[str, ...]:
        return self.deal.names or tuple(f"player {s + 1}" for s in range(self.players))

    @property
    def state(self) -> GameState:
        """The current state (an immutable snapshot)."""
        return self._states[-1]

    @property
    def states(self) -> tuple[GameState, ...]:
        """Every state since the deal, one per applied turn."""
        return tuple(self._states)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def current(self) -> int:
        return self.state.current

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def winner(self) -> int | None:
        return self.state.winner

    def scores(self) -> tuple[int, ...] | None:
        """Each seat's round score once the round is over, else ``None``."""
        state = self.state
        if not state.finished:
            return None
        return round_scores(state.racks, state.winner, self.rules, blocked=state.end_reason == "blocked")

    def view(self, seat: int | None = None) -> PlayerView:
        """What ``seat`` (default: the player to move) may see."""
        state = self.state
        seat = state.current if seat is None else seat
        if not 0 <= seat < self.players:
            raise GameStateError(f"no seat {seat!r} in a {self.players}-player game")
        return PlayerView(
            seat=seat,
            rules=self.rules,
            rack=state.racks[seat],
            table=state.table,
            opened=state.opened[seat],
            players_opened=state.opened,
            rack_sizes=tuple(len(r) for r in state.racks),
            pool_size=len(state.pool),
            turn=state.turn,
            history=tuple(public_event(e) for e in self._events),
        )

    # -- the turn timer --------------------------------------------------------------------------

    def time_left(self) -> float | None:
        """Seconds left on the turn timer (``None`` without a timer)."""
        limit = self.rules.turn_timer
        if limit is None:
            return None
        return limit - (self._clock() - self._turn_started)

    def check_timer(self) -> TimeoutEvent | None:
        """Apply the timeout penalty if the mover's time is up; return it (else ``None``)."""
        left = self.time_left()
        if left is not None and left < 0 and not self.finished:
            return self.timeout()
        return None

    # -- acting ----------------------------------------------------------------------------------

    def play(self, table: Iterable[Meld | Iterable[Tile | str]]) -> Event:
        """Play: ``table`` is the whole new table (melds in play order).

        Raises :class:`IllegalMoveError` (state unchanged) when the referee rejects it. If the turn
        timer has run out the play is not made: the timeout penalty is applied and returned instead.
        """
        self._require_running()
        expired = self.check_timer()
        if expired is not None:
            return expired
        event = PlayEvent(self.state.current, tuple(_tiles_of(m) for m in _melds_in(table)))
        self._push(event)
        return event

    def draw(self) -> Event:
        """Draw one tile and end the turn (a pass when the pool is empty)."""
        self._require_running()
        expired = self.check_timer()
        if expired is not None:
            return expired
        state = self.state
        event = DrawEvent(state.current, state.pool[0] if state.pool else None)
        self._push(event)
        return event

    def timeout(self) -> TimeoutEvent:
        """The mover ran out of time: the table stays as it was, they draw ``rules.timer_penalty`` tiles."""
        self._require_running()
        state = self.state
        event = TimeoutEvent(state.current, state.pool[: self.rules.timer_penalty])
        self._push(event)
        return event

    # -- undo / redo -----------------------------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        return bool(self._events)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> Event:
        """Take back the last turn; return it."""
        if not self._events:
            raise GameStateError("nothing to undo: no turn has been played")
        event = self._events.pop()
        self._states.pop()
        self._redo.append(event)
        self._turn_started = self._clock()
        return event

    def redo(self) -> Event:
        """Replay the last undone turn; return it."""
        if not self._redo:
            raise GameStateError("nothing to redo")
        event = self._redo.pop()
        self._apply(event)
        return event

    # -- the log, replay, save and load ----------------------------------------------------------

    def log(self) -> list[dict[str, Any]]:
        """The full event log as JSON objects: the deal, then one object per turn."""
        return [self.deal.to_json()] + [e.to_json() for e in self._events]

    @classmethod
    def replay(
        cls,
        log: Sequence[Any],
        *,
        clock: Callable[[], float] | None = None,
        referee: Referee | None = None,
    ) -> Game:
        """Rebuild a game from its log, re-checking every play with the referee."""
        if not isinstance(log, Sequence) or isinstance(log, str) or not log:
            raise JsonInputError("log: expected a non-empty array of events starting with the deal")
        deal = deal_from_json(log[0], "log[0]")
        game = cls(
            deal.players,
            deal.rules,
            deal.seed,
            first=deal.first,
            deck=deal.deck,
            names=deal.names,
            clock=clock,
            referee=referee,
        )
        for i, obj in enumerate(log[1:], start=1):
            game._apply(event_from_json(obj, deal.rules, f"log[{i}]"), where=f"log[{i}]")
        return game

    def to_json(self) -> dict[str, Any]:
        """A saved game: the log plus the undone turns that can still be redone."""
        return {
            "format": SAVE_FORMAT,
            "version": _SAVE_VERSION,
            "log": self.log(),
            "redo": [e.to_json() for e in reversed(self._redo)],
        }

    @classmethod
    def from_json(cls, obj: Any, *, clock: Callable[[], float] | None = None, referee: Referee | None = None) -> Game:
        """Load a game saved by :meth:`to_json` (or a bare log array)."""
        if isinstance(obj, list):
            return cls.replay(obj, clock=clock, referee=referee)
        if not isinstance(obj, dict) or obj.get("format") != SAVE_FORMAT:
            raise JsonInputError(f'saved game: expected an object with "format": {SAVE_FORMAT!r}')
        game = cls.replay(obj.get("log"), clock=clock, referee=referee)
        redo = obj.get("redo", [])
        if not isinstance(redo, list):
            raise JsonInputError("saved game.redo: expected an array of events")
        game._redo = [event_from_json(e, game.rules, f"redo[{i}]") for i, e in enumerate(redo)][::-1]
        return game

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json()) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, **kwargs: Any) -> Game:
        try:
            obj = json.loads(Path(path).read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise JsonInputError(f"{path}: not valid JSON ({err.msg} at line {err.lineno})") from None
        except UnicodeDecodeError as err:
            raise JsonInputError(f"{path}: not UTF-8 text ({err.reason} at byte {err.start})") from None
        except (ValueError, RecursionError) as err:  # a number too long for Python, absurd nesting
            raise JsonInputError(f"{path}: not acceptable JSON ({type(err).__name__})") from None
        return cls.from_json(obj, **kwargs)

    # -- internals -------------------------------------------------------------------------------

    def _require_running(self) -> None:
        if self.finished:
            raise GameStateError("the round is over")

    def _push(self, event: Event) -> None:
        self._apply(event)
        self._redo.clear()

    def _apply(self, event: Event, where: str = "move") -> None:
        """Apply one turn (re-checking plays with the referee) and verify tile conservation."""
        state = self.state
        if state.finished:
            raise GameStateError(f"{where}: the round is already over")
        if event.player != state.current:
            raise GameStateError(f"{where}: it is seat {state.current}'s turn, not seat {event.player}'s")
        if isinstance(event, PlayEvent):
            new = self._after_play(state, event.table)
        elif isinstance(event, DrawEvent):
            expected = state.pool[0] if state.pool else None
            if event.tile != expected:
                raise GameStateError(f"{where}: the drawn tile is {expected}, not {event.tile}")
            new = self._after_draw(state, 1)
        else:
            expected = state.pool[: self.rules.timer_penalty]
            if tuple(event.tiles) != expected:
                raise GameStateError(f"{where}: the penalty tiles are {list(map(str, expected))}")
            new = self._after_draw(state, self.rules.timer_penalty)
        self._check(new)
        self._states.append(new)
        self._events.append(event)
        self._turn_started = self._clock()

    def _after_play(self, state: GameState, table: tuple[tuple[Tile, ...], ...]) -> GameState:
        verdict = self._referee(state.position(), table)
        if not verdict.legal:
            reasons = "; ".join(r.message for r in verdict.reasons) or "rejected by the referee"
            raise IllegalMoveError(f"illegal move: {reasons}", verdict)
        rules = self.rules
        melds = tuple(Meld.of(tiles, rules) for tiles in table)
        seat = state.current
        rack = Counter(state.racks[seat])
        played = Counter(verdict.played)
        if played - rack:
            raise ConservationError(f"referee says {sorted(map(str, played.elements()))} were played; not on the rack")
        rack -= played
        racks = list(state.racks)
        racks[seat] = tuple(sorted(rack.elements()))
        opened = list(state.opened)
        opened[seat] = True
        out = not racks[seat]
        return GameState(
            rules=rules,
            racks=tuple(racks),
            table=melds,
            pool=state.pool,
            opened=tuple(opened),
            current=(seat + 1) % state.players,
            turn=state.turn + 1,
            passes=0,
            winner=seat if out else None,
            end_reason="out" if out else None,
        )

    def _after_draw(self, state: GameState, count: int) -> GameState:
        seat = state.current
        drawn = state.pool[:count]
        racks = list(state.racks)
        racks[seat] = tuple(sorted(racks[seat] + drawn))
        passes = state.passes + 1 if not drawn else 0
        blocked = passes >= state.players
        return GameState(
            rules=state.rules,
            racks=tuple(racks),
            table=state.table,
            pool=state.pool[count:],
            opened=state.opened,
            current=(seat + 1) % state.players,
            turn=state.turn + 1,
            passes=passes,
            winner=blocked_winner(racks, state.rules, self.deal.first) if blocked else None,
            end_reason="blocked" if blocked else None,
        )

    def _check(self, state: GameState) -> None:
        counts = state.tile_counts()
        if counts != self._full:
            lost = self._full - counts
            extra = counts - self._full
            raise ConservationError(
                f"tiles not conserved at turn {state.turn}: lost {sorted(map(str, lost.elements()))}, "
                f"duplicated {sorted(map(str, extra.elements()))}"
            )


def _melds_in(table: Iterable[Meld | Iterable[Tile | str]]) -> tuple[Meld | tuple[Tile, ...], ...]:
    if isinstance(table, str):
        table = split_melds(table)
    return tuple(m if isinstance(m, Meld) else parse_tiles(m) for m in table)


def _tiles_of(meld: Meld | tuple[Tile, ...]) -> tuple[Tile, ...]:
    return meld.tiles if isinstance(meld, Meld) else tuple(meld)
