"""The engine's state transitions: pure functions from a state and one turn event to the next state.

Each takes the round's rules, the state and the event (plus ``first``, the seat that started, for
the blocked ending's tie-break, a play's ``referee``, and ``where``, the event's place in error
messages) and returns a new :class:`GameState` or raises :class:`IllegalMoveError` or
:class:`GameStateError`; :func:`after_event` dispatches on the event's type. The engine
(:class:`rummisolve.game.engine.Game`) keeps the history, the redo list and the timer, and checks
every new state with :func:`check_conservation`.

>>> from rummisolve.game.engine import shuffled_deck
>>> from rummisolve.rules import STANDARD
>>> deck = shuffled_deck(STANDARD, 7)
>>> racks = (tuple(sorted(deck[:14])), tuple(sorted(deck[14:28])))
>>> state = GameState(STANDARD, racks, (), deck[28:], (False, False), 0)
>>> after = after_event(STANDARD, state, DrawEvent(0, deck[28]), first=0, referee=default_referee)
>>> after.current, len(after.racks[0]), len(after.pool)
(1, 15, 77)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rummisolve.errors import ConservationError, GameStateError, IllegalMoveError
from rummisolve.game.events import DiscardEvent, DrawEvent, Event, PlayEvent, TimeoutEvent
from rummisolve.game.scoring import blocked_winner
from rummisolve.game.state import GameState
from rummisolve.melds import Meld
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile

if TYPE_CHECKING:
    from rummisolve.position import Position
    from rummisolve.referee import NewTable, Verdict

__all__ = [
    "Referee",
    "default_referee",
    "after_event",
    "after_play",
    "after_draw",
    "after_discard",
    "after_timeout",
    "turn_start",
    "check_conservation",
]

Referee = Callable[..., Any]
"""Judges a play: ``referee(position, table)`` returns a :class:`rummisolve.referee.Verdict`."""


def default_referee(position: Position, table: NewTable) -> Verdict:
    """The engine's own referee: :func:`rummisolve.referee.verify`, unbounded (imported when first used)."""
    from rummisolve.referee import verify

    return verify(position, table)


def after_event(
    rules: RuleSet, state: GameState, event: Event, *, first: int, referee: Referee, where: str = "move"
) -> GameState:
    """The state after one turn event by the player to move (a play re-checked by ``referee``)."""
    if state.finished:
        raise GameStateError(f"{where}: the round is already over")
    if event.player != state.current:
        raise GameStateError(f"{where}: it is seat {state.current}'s turn, not seat {event.player}'s")
    if isinstance(event, PlayEvent):
        return after_play(rules, state, event, first=first, referee=referee, where=where)
    if isinstance(event, DrawEvent):
        return after_draw(rules, state, event, first=first, where=where)
    if isinstance(event, DiscardEvent):
        return after_discard(rules, state, event, first=first, where=where)
    return after_timeout(rules, state, event, first=first, where=where)


def after_play(
    rules: RuleSet, state: GameState, event: PlayEvent, *, first: int, referee: Referee, where: str = "move"
) -> GameState:
    """A play: the referee's verdict on the new table, then (under the discard rule) the discard."""
    if rules.discard and event.discard is None:
        raise IllegalMoveError(f"{where}: under the discard rule a play names the rack tile to discard")
    if not rules.discard and event.discard is not None:
        raise GameStateError(f"{where}: these rules have no discard")
    verdict = referee(state.position(), event.table)
    if not verdict.legal:
        reasons = "; ".join(r.message for r in verdict.reasons) or "rejected by the referee"
        raise IllegalMoveError(f"illegal move: {reasons}", verdict)
    melds = tuple(Meld.of(tiles, rules) for tiles in event.table)
    seat = state.current
    rack = Counter(state.racks[seat])
    played = Counter(verdict.played)
    if played - rack:
        raise ConservationError(f"referee says {sorted(map(str, played.elements()))} were played; not on the rack")
    rack -= played
    opened = list(state.opened)
    opened[seat] = True
    left = tuple(sorted(rack.elements()))
    if event.discard is not None:
        after = GameState(
            rules=rules,
            racks=state.racks,
            table=melds,
            pool=state.pool,
            opened=tuple(opened),
            current=seat,
            turn=state.turn,
            passes=state.passes,
            discards=state.discards,
            draw_from=state.draw_from,
            drawn=state.drawn,
        )
        return _discarded(after, left, event.discard, first=first, played=True)
    racks = list(state.racks)
    racks[seat] = left
    out = not left
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


def after_draw(rules: RuleSet, state: GameState, event: DrawEvent, *, first: int, where: str = "move") -> GameState:
    """A draw: under the normal rules from the pool, ending the turn; under the discard rule from
    the pool or the discard pile, the turn going on."""
    if rules.discard:
        return _variant_drawn(state, event, where)
    expected = state.pool[0] if state.pool else None
    if event.tile != expected or event.source != "pool":
        raise GameStateError(f"{where}: the drawn tile is {expected} from the pool, not {event.tile}")
    return _drawn(state, 1, first)


def after_discard(
    rules: RuleSet, state: GameState, event: DiscardEvent, *, first: int, where: str = "move"
) -> GameState:
    """The discard rule: a turn without a play ends with a discard, after the turn's draw."""
    if not rules.discard:
        raise GameStateError(f"{where}: these rules have no discard")
    if state.draw_from is None:
        raise GameStateError(f"{where}: a turn without a play starts with a draw")
    return _discarded(state, state.racks[state.current], event.tile, first=first, played=False)


def after_timeout(
    rules: RuleSet, state: GameState, event: TimeoutEvent, *, first: int, where: str = "move"
) -> GameState:
    """The turn timer ran out: the turn undone (:func:`turn_start`), then the penalty tiles drawn."""
    start = turn_start(state)
    penalty = start.pool[: rules.timer_penalty]
    if tuple(event.tiles) != penalty:
        raise GameStateError(f"{where}: the penalty tiles are {list(map(str, penalty))}")
    return _drawn(start, rules.timer_penalty, first)


def turn_start(state: GameState) -> GameState:
    """The discard rule: the state before the mover's draw this turn (the tile back where it came from)."""
    drawn = state.drawn
    if state.draw_from is None:
        return state
    assert drawn is not None  # a draw this turn
    rack = list(state.racks[state.current])
    rack.remove(drawn)
    racks = list(state.racks)
    racks[state.current] = tuple(rack)
    from_pool = state.draw_from == "pool"
    return GameState(
        rules=state.rules,
        racks=tuple(racks),
        table=state.table,
        pool=(drawn,) + state.pool if from_pool else state.pool,
        opened=state.opened,
        current=state.current,
        turn=state.turn,
        passes=state.passes,
        discards=state.discards if from_pool else state.discards + (drawn,),
    )


def check_conservation(full: Counter[Tile], state: GameState) -> None:
    """Raise :class:`ConservationError` unless pool + racks + table (+ the discard pile) of
    ``state`` are exactly ``full``, the rules' full set."""
    counts = state.tile_counts()
    if counts != full:
        lost = full - counts
        extra = counts - full
        raise ConservationError(
            f"tiles not conserved at turn {state.turn}: lost {sorted(map(str, lost.elements()))}, "
            f"duplicated {sorted(map(str, extra.elements()))}"
        )


def _variant_drawn(state: GameState, event: DrawEvent, where: str) -> GameState:
    """The discard rule's draw: the tile joins the rack and the turn goes on."""
    if state.draw_from is not None:
        raise GameStateError(f"{where}: seat {state.current} has already drawn this turn")
    pool, discards = state.pool, state.discards
    if event.source == "discard":
        expected, discards = (discards[-1], discards[:-1]) if discards else (None, discards)
    else:
        expected, pool = (pool[0], pool[1:]) if pool else (None, pool)
    if expected is None or event.tile != expected:
        raise GameStateError(f"{where}: the tile on top of the {event.source} is {expected}, not {event.tile}")
    racks = list(state.racks)
    racks[state.current] = tuple(sorted(racks[state.current] + (expected,)))
    return GameState(
        rules=state.rules,
        racks=tuple(racks),
        table=state.table,
        pool=pool,
        opened=state.opened,
        current=state.current,
        turn=state.turn,
        passes=state.passes,
        discards=discards,
        draw_from=event.source,
        drawn=expected,
    )


def _discarded(state: GameState, rack: tuple[Tile, ...], tile: Tile, *, first: int, played: bool) -> GameState:
    """End a discard-rule turn: ``tile`` leaves ``rack`` (the mover's rack after any play) for
    the discard pile. Discarding the last tile goes out; a turn without a play or a pool draw
    while the pool is empty counts towards the blocked ending."""
    seat = state.current
    left = Counter(rack)
    if not left[tile]:
        raise IllegalMoveError(
            f"illegal move: the discard {tile} is not on the rack{' after the play' if played else ''} "
            f"({' '.join(map(str, rack)) or 'empty'})"
        )
    left[tile] -= 1
    racks = list(state.racks)
    racks[seat] = tuple(sorted(left.elements()))
    out = not racks[seat]
    passes = _passes(state, played or state.draw_from == "pool")
    blocked = not out and passes >= state.players
    winner = seat if out else blocked_winner(racks, state.rules, first) if blocked else None
    return GameState(
        rules=state.rules,
        racks=tuple(racks),
        table=state.table,
        pool=state.pool,
        opened=state.opened,
        current=(seat + 1) % state.players,
        turn=state.turn + 1,
        passes=passes,
        winner=winner,
        end_reason="out" if out else "blocked" if blocked else None,
        discards=state.discards + (tile,),
    )


def _passes(state: GameState, progress: bool) -> int:
    """Consecutive turns without a play while the pool is empty, after this one (``progress``:
    it played or drew from the pool)."""
    return 0 if progress or state.pool else state.passes + 1


def _drawn(state: GameState, count: int, first: int) -> GameState:
    """A draw ending the turn: the normal rules' draw, or a timeout's penalty tiles."""
    seat = state.current
    drawn = state.pool[:count]
    racks = list(state.racks)
    racks[seat] = tuple(sorted(racks[seat] + drawn))
    if state.rules.discard:
        passes = _passes(state, bool(drawn))
    else:
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
        winner=blocked_winner(racks, state.rules, first) if blocked else None,
        end_reason="blocked" if blocked else None,
        discards=state.discards,
    )
