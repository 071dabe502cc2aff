"""The game engine: deal, turns, draws, refereed plays, the turn timer, undo/redo, replay, save/load,
and the discard rule's turns (docs/rules.md, "The discard rule"). What each turn does to the state
is :mod:`rummisolve.game.transitions`; writing the save file is :mod:`rummisolve.game.save_files`.

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

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from rummisolve.errors import ConservationError, GameStateError, IllegalMoveError, JsonInputError, RuleSetError
from rummisolve.game.events import (
    Deal,
    DiscardEvent,
    DrawEvent,
    Event,
    PlayEvent,
    TimeoutEvent,
    deal_from_json,
    event_from_json,
    public_event,
)
from rummisolve.game.history import History
from rummisolve.game.save_files import write_save
from rummisolve.game.saves import SAVE_FORMAT, read_save, round_of
from rummisolve.game.scoring import round_scores
from rummisolve.game.state import GameState, PlayerView
from rummisolve.game.transitions import Referee, after_event, check_conservation, default_referee, turn_start
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

_SAVE_VERSION = 1


def bounded_referee(max_steps: int | None) -> Referee | None:
    """The referee with its search bounded by ``max_steps`` (as on ``/verify``); ``None`` (the
    engine's own, unbounded) for ``None``."""
    if max_steps is None:
        return None
    from rummisolve.referee import verify

    return lambda position, table: verify(position, table, max_steps=max_steps)


def shuffled_deck(rules: RuleSet, seed: int | None) -> tuple[Tile, ...]:
    """The full set of ``rules`` shuffled by ``random.Random(seed)`` (deterministic for a seed)."""
    deck = list(rules.full_set())
    random.Random(seed).shuffle(deck)
    return tuple(deck)


class Game(History[GameState, Event, Deal]):
    """One round of Rummikub for 2..``rules.max_players`` players.

    Every play goes through the referee (``rummisolve.referee``); an illegal play raises
    :class:`IllegalMoveError` with the verdict's reasons and changes nothing. After every applied
    turn the engine checks that pool + racks + table (+ the discard pile) equal the full set.

    Under ``rules.discard`` the tile after the dealt racks starts the face-up discard pile, and a
    turn is :meth:`play` with a discard, or :meth:`draw` (from the pool or the pile) followed by
    :meth:`play` with a discard or by :meth:`discard`. A draw does not end the turn.

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
        if rules.dice:
            raise RuleSetError(
                "rule option 'dice': the Xpress dice game is rummisolve.xpress.XpressGame, not the tile "
                "game's engine (docs/rules.md#xpress)"
            )
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
        dealt = players * rules.rack_size
        if dealt + rules.discard > len(deck_tiles):
            pile = " and a tile for the discard pile" if rules.discard else ""
            raise GameStateError(
                f"{players} racks of {rules.rack_size}{pile} need {dealt + rules.discard} tiles; "
                f"the set has {len(deck_tiles)}"
            )
        self.deal = Deal(rules, players, deck_tiles, first, seed, None if names is None else tuple(names))
        self._clock = clock or time.monotonic
        self._referee = referee or default_referee
        self._full = Counter(rules.full_set())
        size = rules.rack_size
        racks = tuple(tuple(sorted(deck_tiles[s * size : (s + 1) * size])) for s in range(players))
        face_up = deck_tiles[dealt : dealt + 1] if rules.discard else ()
        initial = GameState(
            rules=rules,
            racks=racks,
            table=(),
            pool=deck_tiles[dealt + len(face_up) :],
            opened=(False,) * players,
            current=first,
            discards=face_up,
        )
        check_conservation(self._full, initial)
        self._start(initial)
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

    def scores(self) -> tuple[int, ...] | None:
        """Each seat's round score once the round is over, else ``None``."""
        state = self.state
        if not state.finished:
            return None
        assert state.winner is not None  # a finished round has its winner
        return round_scores(state.racks, state.winner, self.rules, blocked=state.end_reason == "blocked")

    def view(self, seat: int | None = None, at: int | None = None) -> PlayerView:
        """What ``seat`` (default: the player to move) may see; ``at``: in the state after that
        many turn events (default: now), e.g. ``at=0`` right after the deal."""
        if at is not None and (isinstance(at, bool) or not isinstance(at, int) or not 0 <= at < len(self._states)):
            raise GameStateError(f"no state {at!r}: the game has states 0 to {len(self._states) - 1}")
        index = len(self._states) - 1 if at is None else at
        state = self._states[index]
        seat = state.current if seat is None else seat
        if not 0 <= seat < self.players:
            raise GameStateError(f"no seat {seat!r} in a {self.players}-player game")
        mover = seat == state.current
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
            history=tuple(public_event(e) for e in self._events[:index]),
            discard_pile=state.discards,
            draw_from=state.draw_from if mover else None,
            drawn=state.drawn if mover else None,
        )

    # -- the turn timer --------------------------------------------------------------------------

    def time_left(self) -> float | None:
        """Seconds left on the turn timer (``None`` without a timer)."""
        limit = self.rules.turn_timer
        if limit is None:
            return None
        return limit - (self._clock() - self._turn_started)

    def restart_clock(self) -> None:
        """Start the mover's turn timer again from now, e.g. once a device is handed over in a
        hot-seat game (the handing over is not the player's thinking time)."""
        self._turn_started = self._clock()

    def check_timer(self) -> TimeoutEvent | None:
        """Apply the timeout penalty if the mover's time is up; return it (else ``None``)."""
        left = self.time_left()
        if left is not None and left < 0 and not self.finished:
            return self.timeout()
        return None

    # -- acting ----------------------------------------------------------------------------------

    def play(self, table: Iterable[Meld | Iterable[Tile | str]], discard: Tile | str | None = None) -> Event:
        """Play: ``table`` is the whole new table (melds in play order).

        Under the discard rule ``discard`` names the rack tile put on the discard pile after the
        play (it must be on the rack once the play is made; discarding the last tile goes out), and
        the play may come before or after the turn's draw. Under the normal rules ``discard`` must
        be ``None``.

        Raises :class:`IllegalMoveError` (state unchanged) when the referee rejects the play or the
        discard is missing or not on the rack. If the turn timer has run out the play is not made:
        the timeout penalty is applied and returned instead.
        """
        self._require_running()
        if discard is not None and not self.rules.discard:
            raise GameStateError("play: these rules have no discard (the 'discard' option is off)")
        expired = self.check_timer()
        if expired is not None:
            return expired
        if self.rules.discard and discard is None:
            raise IllegalMoveError(
                "illegal move: under the discard rule a play names the rack tile to discard after it"
            )
        tile = None if discard is None else _tile_of(discard)
        event = PlayEvent(self.state.current, tuple(_tiles_of(m) for m in _melds_in(table)), tile)
        self._push(event)
        return event

    def draw(self, source: str = "pool") -> DrawEvent | TimeoutEvent:
        """Draw one tile. Normal rules: from the pool, ending the turn (a pass when the pool is empty).

        Discard rule: from ``source``, ``"pool"`` or ``"discard"`` (the discard pile's top), once
        per turn and before any play; the turn goes on (play and discard, or discard). An empty
        pool leaves only the discard pile.
        """
        self._require_running()
        state = self.state
        if source not in ("pool", "discard"):
            raise GameStateError(f"draw: the source is 'pool' or 'discard', not {source!r}")
        if self.rules.discard:
            if state.draw_from is not None:
                raise GameStateError("draw: you have already drawn this turn (play and discard, or discard)")
            if source == "pool" and not state.pool:
                raise GameStateError("draw: the pool is empty; draw the discard pile's top tile instead")
            if source == "discard" and not state.discards:
                raise GameStateError("draw: the discard pile is empty")
        elif source != "pool":
            raise GameStateError("draw: these rules have no discard pile (the 'discard' option is off)")
        expired = self.check_timer()
        if expired is not None:
            return expired
        if source == "discard":
            event = DrawEvent(state.current, state.discards[-1], "discard")
        else:
            event = DrawEvent(state.current, state.pool[0] if state.pool else None)
        self._push(event)
        return event

    def discard(self, tile: Tile | str) -> Event:
        """Discard rule: end the turn without a play by putting ``tile`` from the rack on the
        discard pile (only after the turn's draw). Raises :class:`IllegalMoveError` if the tile is
        not on the rack."""
        self._require_running()
        if not self.rules.discard:
            raise GameStateError("discard: these rules have no discard (the 'discard' option is off)")
        if self.state.draw_from is None:
            raise GameStateError(
                "discard: a turn without a play starts with a draw (from the pool or the discard pile)"
            )
        expired = self.check_timer()
        if expired is not None:
            return expired
        event = DiscardEvent(self.state.current, _tile_of(tile))
        self._push(event)
        return event

    def timeout(self) -> TimeoutEvent:
        """The mover ran out of time: the table stays as it was, they draw ``rules.timer_penalty``
        tiles from the pool and the turn ends. Under the discard rule the turn is undone first (a
        tile drawn goes back where it came from) and nothing is discarded."""
        self._require_running()
        state = turn_start(self.state)
        event = TimeoutEvent(state.current, state.pool[: self.rules.timer_penalty])
        self._push(event)
        return event

    # -- undo / redo -----------------------------------------------------------------------------

    # -- the log, replay, save and load ----------------------------------------------------------

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
        return self._saved(SAVE_FORMAT, _SAVE_VERSION)

    @classmethod
    def from_json(cls, obj: Any, *, clock: Callable[[], float] | None = None, referee: Referee | None = None) -> Game:
        """Load a game saved by :meth:`to_json` (or a bare log array)."""
        if isinstance(obj, list):
            return cls.replay(obj, clock=clock, referee=referee)
        if not isinstance(obj, dict) or obj.get("format") != SAVE_FORMAT:
            raise JsonInputError(f'saved game: expected an object with "format": {SAVE_FORMAT!r}')
        log: Any = obj.get("log")  # replay() checks it
        game = cls.replay(log, clock=clock, referee=referee)
        game._restore_redo(obj, lambda e, path: event_from_json(e, game.rules, path), "saved game")
        return game

    def save(self, path: str | Path) -> None:
        """Write the game to ``path`` atomically: a crash mid-save leaves the previous file whole."""
        write_save(path, self.to_json())

    @classmethod
    def load(cls, path: str | Path, **kwargs: Any) -> Game:
        """The game saved in ``path``: a ``rummisolve play --save`` file, or the last round of a web
        app download (:mod:`rummisolve.game.saves`; a record of a web game cannot be resumed)."""
        return cls.from_json(round_of(read_save(path), resume=True), **kwargs)

    # -- internals -------------------------------------------------------------------------------

    nothing_to_undo = "nothing to undo: no turn has been played"

    def _undone(self) -> None:
        self._turn_started = self._clock()

    def _require_running(self) -> None:
        if self.finished:
            raise GameStateError("the round is over")

    def _push(self, event: Event) -> None:
        self._apply(event)
        self._redo.clear()

    def _apply(self, event: Event, where: str = "move") -> None:
        """Apply one turn (re-checking plays with the referee) and verify tile conservation."""
        state = self.state
        new = after_event(self.rules, state, event, first=self.deal.first, referee=self._referee, where=where)
        check_conservation(self._full, new)
        self._states.append(new)
        self._events.append(event)
        if new.turn != state.turn or new.finished:  # a draw under the discard rule: the same turn, the same timer
            self._turn_started = self._clock()


def _melds_in(table: Iterable[Meld | Iterable[Tile | str]]) -> tuple[Meld | tuple[Tile, ...], ...]:
    if isinstance(table, str):
        table = split_melds(table)
    return tuple(m if isinstance(m, Meld) else parse_tiles(m) for m in table)


def _tiles_of(meld: Meld | tuple[Tile, ...]) -> tuple[Tile, ...]:
    return meld.tiles if isinstance(meld, Meld) else tuple(meld)


def _tile_of(tile: Tile | str) -> Tile:
    if isinstance(tile, Tile):
        return tile
    if isinstance(tile, str):
        return Tile.parse(tile)
    raise TypeError(f"a discard is a Tile or a tile code, not {type(tile).__name__}")
