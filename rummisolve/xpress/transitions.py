"""The Xpress engine's state transitions: pure functions from a state and one event to the next state.

Each raises :class:`GameStateError` (an action that does not fit the state: a second roll, a die
that is not the mover's to roll) or :class:`IllegalMoveError` (a play the referee rejects, or one
that plays none of the mover's dice) and builds nothing then. ``where`` names the event in messages.
:class:`~rummisolve.xpress.game.XpressGame` keeps the history and checks every new state with
:func:`~rummisolve.xpress.conservation.check_dice`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummisolve.errors import GameStateError, IllegalMoveError
from rummisolve.game.scoring import round_scores
from rummisolve.game.transitions import Referee
from rummisolve.melds import Meld
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile, format_tiles
from rummisolve.xpress.events import DicePlayEvent, PassEvent, RollEvent, XpressEvent
from rummisolve.xpress.seeding import Seeding
from rummisolve.xpress.state import XpressState, die_name, die_number, face_of

__all__ = [
    "ROUNDS_WITHOUT_PLAY",
    "opening_state",
    "after_xpress_event",
    "after_roll",
    "after_dice_play",
    "after_pass",
    "roll_of",
    "played_dice",
    "xpress_scores",
]

ROUNDS_WITHOUT_PLAY = 3
"""Rounds in a row without a die played that end the game (a round: every seat's turn once)."""


def opening_state(rules: RuleSet, seeding: Seeding, first: int) -> XpressState:
    """The state after the split and the opening roll. With no opening threshold (the preset) every
    seat plays as after the initial meld from the start; with one, each opens as in the tile game."""
    players = len(seeding.hands)
    return XpressState(
        rules=rules,
        hands=seeding.hands,
        faces=seeding.opening_faces(),
        table=(),
        table_dice=(),
        rolls=(1,) * len(seeding.rolls),
        opened=(rules.initial_threshold == 0,) * players,
        current=first,
    )


def after_xpress_event(
    state: XpressState, event: XpressEvent, *, seeding: Seeding, referee: Referee, where: str = "move"
) -> XpressState:
    """The state after one event by the player to move."""
    if state.finished:
        raise GameStateError(f"{where}: the game is over")
    if event.player != state.current:
        raise GameStateError(f"{where}: it is seat {state.current}'s turn, not seat {event.player}'s")
    if isinstance(event, RollEvent):
        return after_roll(state, event, seeding, where)
    if isinstance(event, DicePlayEvent):
        return after_dice_play(state, event, referee, where)
    return after_pass(state, event, where)


def _free_dice(state: XpressState, names: Sequence[str], where: str, what: str) -> tuple[int, ...]:
    """The die numbers of ``names``, each a free die of the mover's, none twice."""
    seat = state.current
    dice: list[int] = []
    for name in names:
        die = die_number(name)
        if die in dice:
            raise GameStateError(f"{where}: {what} names {die_name(die)} twice")
        holder = state.holder(die)
        if holder != seat:
            where_it_is = "it is on the table" if holder is None else f"seat {holder} holds it"
            raise GameStateError(f"{where}: {die_name(die)} is not one of seat {seat}'s free dice ({where_it_is})")
        dice.append(die)
    return tuple(sorted(dice))


def roll_of(state: XpressState, names: Sequence[str], seeding: Seeding, where: str = "roll") -> RollEvent:
    """The roll of the mover's free dice ``names`` (the turn's only roll), with the faces the seed gives them."""
    if state.finished:
        raise GameStateError(f"{where}: the game is over")
    if state.rolled:
        raise GameStateError(f"{where}: seat {state.current} has rolled this turn already (one roll a turn)")
    dice = _free_dice(state, names, where, "the roll")
    faces = tuple(face_of(d, seeding.face(d, state.rolls[d])) for d in dice)
    return RollEvent(state.current, tuple(die_name(d) for d in dice), faces)


def after_roll(state: XpressState, event: RollEvent, seeding: Seeding, where: str = "move") -> XpressState:
    """The roll: the dice rolled show their next faces; the turn goes on (to a play or a pass)."""
    expected = roll_of(state, event.dice, seeding, where)
    given = dict(zip(event.dice, event.faces, strict=False))
    if len(event.faces) != len(event.dice) or any(given[n] != f for n, f in zip(expected.dice, expected.faces)):
        shown = ", ".join(f"{n} {f}" for n, f in zip(expected.dice, expected.faces))
        raise GameStateError(f"{where}: by the seed this roll shows {shown or 'nothing'}, not what the event says")
    faces, rolls = list(state.faces), list(state.rolls)
    for name in expected.dice:
        die = die_number(name)
        faces[die] = seeding.face(die, rolls[die])
        rolls[die] += 1
    return XpressState(
        rules=state.rules,
        hands=state.hands,
        faces=tuple(faces),
        table=state.table,
        table_dice=state.table_dice,
        rolls=tuple(rolls),
        opened=state.opened,
        current=state.current,
        turn=state.turn,
        rolled=True,
        passes=state.passes,
    )


def played_dice(state: XpressState, played: Sequence[Tile], names: Sequence[str] | None, where: str) -> tuple[int, ...]:
    """The mover's dice that show ``played``: the ones named, checked, or else the first free dice
    (in die order) showing each face played."""
    seat = state.current
    if names is not None:
        dice = _free_dice(state, names, where, "the play")
        shown = [state.shown(d) for d in dice]
        if Counter(shown) != Counter(played):
            raise IllegalMoveError(
                f"{where}: the dice named show {format_tiles(shown) or 'nothing'}, but the play puts "
                f"{format_tiles(played) or 'nothing'} of seat {seat}'s on the table"
            )
        return dice
    left = list(state.hands[seat])
    chosen = []
    for tile in played:
        die = next(d for d in left if state.shown(d) == tile)  # the referee found each on the rack
        left.remove(die)
        chosen.append(die)
    return tuple(sorted(chosen))


def _table_dice(
    state: XpressState, table: Sequence[Sequence[Tile]], played: Sequence[int]
) -> tuple[tuple[int, ...], ...]:
    """The die of each tile of the new table: per face, the dice of the old table first (in table
    order), then the dice played (in die order). Dice showing one face are interchangeable."""
    queues: dict[Tile, list[int]] = {}
    for die in [d for meld in state.table_dice for d in meld] + list(played):
        queues.setdefault(state.shown(die), []).append(die)
    return tuple(tuple(queues[tile].pop(0) for tile in meld) for meld in table)


def after_dice_play(state: XpressState, event: DicePlayEvent, referee: Referee, where: str = "move") -> XpressState:
    """A play, judged by the referee on the position the mover's dice show; it must play a die of
    theirs. A hand emptied wins."""
    seat = state.current
    verdict = referee(state.position(), event.table)
    if not verdict.legal:
        reasons = "; ".join(
            f"the play puts none of seat {seat}'s dice on the table" if r.code == "no_tile_played" else r.message
            for r in verdict.reasons
        )
        raise IllegalMoveError(f"illegal move: {reasons or 'rejected by the referee'}", verdict)
    dice = played_dice(state, verdict.played, event.dice, where)
    hands = list(state.hands)
    hands[seat] = tuple(d for d in hands[seat] if d not in dice)
    opened = list(state.opened)
    opened[seat] = True
    out = not hands[seat]
    return XpressState(
        rules=state.rules,
        hands=tuple(hands),
        faces=state.faces,
        table=tuple(Meld.of(tiles, state.rules) for tiles in event.table),
        table_dice=_table_dice(state, event.table, dice),
        rolls=state.rolls,
        opened=tuple(opened),
        current=(seat + 1) % state.players,
        turn=state.turn + 1,
        winner=seat if out else None,
        end_reason="out" if out else None,
    )


def after_pass(state: XpressState, event: PassEvent, where: str = "move") -> XpressState:
    """A turn without a play; the ``3 * players``-th such turn in a row ends the game: the lower total wins."""
    passes = state.passes + 1
    blocked = passes >= ROUNDS_WITHOUT_PLAY * state.players
    winner = None
    if blocked:
        totals = state.totals()
        lowest = min(totals)
        winner = totals.index(lowest) if totals.count(lowest) == 1 else None
    return XpressState(
        rules=state.rules,
        hands=state.hands,
        faces=state.faces,
        table=state.table,
        table_dice=state.table_dice,
        rolls=state.rolls,
        opened=state.opened,
        current=(state.current + 1) % state.players,
        turn=state.turn + 1,
        passes=passes,
        winner=winner,
        end_reason="blocked" if blocked else None,
    )


def xpress_scores(state: XpressState) -> tuple[int, ...] | None:
    """Each seat's score once the game is over (``None`` before): the loser's total to the winner,
    minus it to the loser; a draw scores nothing."""
    if not state.finished:
        return None
    if state.winner is None:
        return (0,) * state.players
    return round_scores(state.racks, state.winner, state.rules)
