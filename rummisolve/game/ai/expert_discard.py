"""The discard rule's variant of the expert's search: whole-turn plans, sampled worlds, playouts.

Under the discard rule a turn is *draw (from the pool or the pile's top, or not at all), play (or
not), discard*. The expert searches whole-turn **plans**:

- at the start of a turn: the hard AI's plan (its draw source, and when it takes the pile's top,
  the play and discard it would then make); the solver's best play now with each of the
  :data:`DISCARDS` best discards (:func:`~rummisolve.game.ai.discarding.discard_options`); the
  same holding the pile's top (take it, then play and discard); and drawing from the pool, whose
  play and discard are decided, in each world, by the playout policy below with the world's pool
  tile (the real choice is searched again once the tile is seen);
- after a draw from the pool: the hard AI's play and discard, the solver's best with the best
  discards, and discarding without a play.

Worlds (:func:`sample_discard_world`) are drawn from the player's own view only: each opponent's
rack holds the tiles it took from the discard pile and has neither played nor discarded since
(:func:`~rummisolve.game.ai.discarding.taken_tiles`); the rest of it is drawn from the other
unseen tiles, weighted by the public history as under the normal rules; the pool is what is left,
shuffled. A rack with which the last mover, who discarded without playing, could have gone out
on this table (holding what it discarded) is drawn again.

Playouts follow the variant for ``depth`` turns with a cheap policy for every seat (:class:`Sim`):
go out when the solver's most-tiles move leaves one tile (or would, holding the pile's top);
otherwise play that move without drawing, or, with none, take the top when it makes a play, else
draw from the pool and play if then possible; skip a play that lets the next player (as this world
has them) go out when the table before did not; discard the tile with the fewest partners on the
rack (same number, or same colour within two), highest first once opened, never one with which the
next player goes out when they would not without it. Scores as under the normal rules: 1 for a
round this player wins, 0 for one another wins, else 0.5 less
:data:`~rummisolve.game.ai.expert_plain.LOOSE_WEIGHT` per loose tile of its rack.

:class:`DiscardVariant` plugs these into the expert's one search,
:func:`rummisolve.game.ai.expert_search.run_search` (the clock, the worlds' count and the
decision are the same as under the normal rules).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummisolve.game.actions import Action, Discard, Draw, Play
from rummisolve.game.ai.common import (
    UNTIMED,
    MoveClock,
    cannot_go_out,
    greedy_move,
    loose_tiles,
    melds_of,
    rack_after,
    table_key,
)
from rummisolve.game.ai.discarding import discard_options, taken_tiles
from rummisolve.game.ai.expert_plain import LOOSE_WEIGHT
from rummisolve.game.ai.expert_search import draw_world
from rummisolve.game.ai.montecarlo import FitSets
from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.solution import Solution
from rummisolve.tiles import Tile

if TYPE_CHECKING:
    from rummisolve.game.ai.hard import HardPlayer

__all__ = [
    "Plan",
    "plan_of",
    "holding",
    "DISCARDS",
    "AFTER_DRAW_SHARE",
    "discard_plans",
    "best_move",
    "sample_discard_world",
    "Sim",
    "DiscardVariant",
    "run_plan",
]

DISCARDS = 2
"""Discards tried with each candidate play (the best of :func:`discard_options`)."""
AFTER_DRAW_SHARE = 0.4
"""The share of the turn's budget kept for the search after a draw from the pool (the search before
the draw gets the rest), so a turn that draws and searches twice stays within the budget."""
GUARD_SIZE = 6
"""Playouts guard (play and discard) against a next player holding this many tiles or fewer."""


@dataclass(frozen=True)
class Plan:
    """A whole turn under the discard rule: where it draws from (``None``: no draw, or the draw is
    already made), the new table (``None``: no play) and the tile discarded (``None`` for a draw
    from the pool, decided once the tile is seen)."""

    source: str | None
    table: tuple[Meld, ...] | None
    discard: Tile | None

    def first_action(self) -> Action:
        """The action this plan starts with."""
        if self.source is not None:
            return Draw(self.source)
        return self.final_action()

    def final_action(self) -> Action:
        """The action that ends the turn (after any draw): play and discard, or discard."""
        assert self.discard is not None  # a plan that draws from the pool ends after the search again
        if self.table is None:
            return Discard(self.discard)
        return Play(self.table, discard=self.discard)

    def key(self) -> tuple:
        table = None if self.table is None else tuple(sorted(m.tiles for m in self.table))
        return (self.source, table, self.discard)


def plan_of(action: Action, rules: RuleSet) -> Plan:
    """The plan a single action stands for: a draw (the rest unknown), a play and its discard, or
    a discard."""
    if isinstance(action, Draw):
        return Plan(action.source, None, None)
    if isinstance(action, Discard):
        return Plan(None, None, action.tile)
    return Plan(None, melds_of(action.table, rules), action.discard)


# -- candidates --------------------------------------------------------------------------------------


def holding(view: PlayerView) -> PlayerView:
    """``view`` after taking the discard pile's top (there must be one)."""
    top = view.discard_top
    assert top is not None
    return dataclasses.replace(
        view,
        rack=tuple(sorted(view.rack + (top,))),
        discard_pile=view.discard_pile[:-1],
        draw_from="discard",
        drawn=top,
    )


def best_move(position: Position, solved: dict[Any, Solution] | None = None) -> Solution:
    """The solver's most-tiles move for ``position``, remembered in ``solved`` (one move's solves:
    the same position is asked for by several of its candidates)."""
    key = (tuple(m.tiles for m in position.table), position.rack, position.opened)
    found = None if solved is None else solved.get(key)
    if found is None:
        from rummisolve.solver import solve

        found = solve(position, objective="tiles")
        if solved is not None:
            solved[key] = found
    return found


def _end_plans(
    label: str, view: PlayerView, source: str | None, hard_action: Action | None, solved: dict[Any, Solution]
) -> list[tuple[str, Plan]]:
    """Plays and discards from ``view`` (the rack in hand: after the draw, or without one):
    ``hard_action`` (the hard AI's), the solver's best with the best discards, and (after a
    draw) discarding alone."""
    rules = view.rules
    out: list[tuple[str, Plan]] = []
    if isinstance(hard_action, Play):
        out.append((f"hard{label}", Plan(source, melds_of(hard_action.table, rules), hard_action.discard)))
    elif isinstance(hard_action, Discard):
        out.append((f"hard{label}", Plan(source, None, hard_action.tile)))
    best = best_move(view.position, solved)
    if best:
        table = tuple(best.table)
        left = rack_after(view.rack, tuple(view.table), table)
        for option in discard_options(left, rules, True)[:DISCARDS]:
            out.append((f"best{label}", Plan(source, table, option.tile)))
    if view.draw_from is not None or source is not None:
        for option in discard_options(view.rack, rules, view.opened)[:DISCARDS]:
            out.append((f"discard only{label}", Plan(source, None, option.tile)))
    return out


def discard_plans(
    view: PlayerView, hard: HardPlayer, solved: dict[Any, Solution] | None = None
) -> list[tuple[str, Plan]]:
    """This turn's distinct candidate plans, the hard AI's first (see the module docstring).
    ``solved``: the solver's moves this turn already has (:func:`best_move`), added to."""
    solved = {} if solved is None else solved
    raw: list[tuple[str, Plan]] = []
    hard_action = hard.choose(view)
    top = view.discard_top
    if view.draw_from is not None:  # after the draw: the rack in hand
        raw += _end_plans("", view, None, hard_action, solved)
    else:
        if isinstance(hard_action, Draw) and hard_action.source == "discard" and top is not None:
            hold = holding(view)
            raw += _end_plans(" (pile)", hold, "discard", hard.choose(hold), solved)[:1]
        elif isinstance(hard_action, Draw):
            raw.append(("hard (pool)", Plan("pool", None, None)))
        raw += _end_plans("", view, None, hard_action if isinstance(hard_action, Play) else None, solved)
        if top is not None:
            hold = holding(view)
            pile = _end_plans(" (pile)", hold, "discard", None, solved)
            raw += [p for p in pile if not p[0].startswith("discard only")]
        if view.pool_size:
            raw.append(("pool", Plan("pool", None, None)))
    out: list[tuple[str, Plan]] = []
    seen: set = set()
    for label, plan in raw:
        if plan.key() not in seen:
            seen.add(plan.key())
            out.append((label, plan))
    return out


# -- worlds ------------------------------------------------------------------------------------------


def _last_discard(view: PlayerView, seat: int) -> Tile | None:
    """The tile ``seat`` discarded on its last turn if that turn had no play (else ``None``)."""
    for event in reversed(view.history):
        if event.get("player") != seat:
            continue
        if event.get("type") == "discard" and event.get("tile"):
            return Tile.parse(event["tile"])
        if event.get("type") in ("play", "timeout"):
            return None
    return None


def sample_discard_world(
    view: PlayerView,
    rng: random.Random,
    fitsets: FitSets,
    goes_out: Callable[[tuple[Tile, ...]], bool] | None = None,
    tries: int = 4,
) -> tuple[dict[int, tuple[Tile, ...]], list[Tile]]:
    """One guess at the hidden tiles under the discard rule, from ``view`` alone: a rack for each
    opponent and the pool in draw order, together exactly :meth:`PlayerView.unseen`. Each rack holds
    the tiles its player took from the pile and still holds (:func:`taken_tiles`); the rest is drawn
    weighted by the public history. ``goes_out(rack)``: whether a rack goes out on this table; the
    last mover, if it discarded without playing, held its rack and that discard on this table and
    did not go out, so a rack with which it would is drawn again (up to ``tries`` times)."""
    last = (view.seat - 1) % view.players

    def redraw(seat: int) -> Callable[[tuple[Tile, ...]], bool] | None:
        discarded = _last_discard(view, seat) if seat == last and goes_out is not None else None
        if discarded is None or goes_out is None:
            return None
        return lambda rack: goes_out(rack + (discarded,))

    return draw_world(view, rng, fitsets, known=lambda seat: taken_tiles(view, seat), redraw=redraw, tries=tries)


# -- playouts ----------------------------------------------------------------------------------------

_Move = tuple[tuple[Meld, ...], tuple[Tile, ...]]


class Sim:
    """One world played forward under the discard rule with the cheap policy of the module
    docstring. ``cache`` is shared by the candidates and worlds of one search."""

    def __init__(
        self,
        rules: RuleSet,
        table: tuple[Meld, ...],
        racks: dict[int, tuple[Tile, ...]],
        opened: list[bool],
        pile: list[Tile],
        pool: list[Tile],
        cache: dict[Any, Any],
        clock: MoveClock = UNTIMED,
    ) -> None:
        self.rules = rules
        self.clock = clock
        self.table = table
        self.racks = racks
        self.opened = opened
        self.pile = pile
        self.pool = pool
        self.cache = cache
        self.players = len(racks)
        self.passes = 0

    # -- solver calls, remembered --

    def greedy(self, table: tuple[Meld, ...], rack: tuple[Tile, ...], opened: bool) -> _Move | None:
        """The solver's most-tiles move under the discard rule (it keeps a tile): (table, rack left)."""
        return greedy_move(table, rack, opened, self.rules, self.cache, self.clock)

    def out(self, table: tuple[Meld, ...], rack: tuple[Tile, ...], opened: bool = True) -> bool:
        """Whether ``rack`` goes out on ``table``: a move leaves one tile, to discard."""
        if len(rack) < 2:
            return False
        rack = tuple(sorted(rack))
        if (table_key(table), rack, opened) not in self.cache and cannot_go_out(
            table, rack, opened, self.rules, self.cache
        ):
            return False  # counting proves it: the solve (often not asked again) is skipped
        move = self.greedy(table, rack, opened)
        return move is not None and len(move[1]) == 1

    def loose(self, rack: tuple[Tile, ...]) -> int:
        """Tiles of ``rack`` in no meld of the rack's own."""
        return loose_tiles(rack, self.rules, self.cache)

    # -- a turn --

    def _threat(self, seat: int) -> tuple[int, tuple[Tile, ...]] | None:
        """The next seat and its rack when the guard watches it (opened, few tiles)."""
        nxt = (seat + 1) % self.players
        rack = self.racks[nxt]
        if self.opened[nxt] and 0 < len(rack) <= GUARD_SIZE:
            return nxt, rack
        return None

    def turn(self, seat: int, source: str | None = None) -> bool:
        """Play ``seat``'s turn by the policy (``source``: a draw already decided, e.g. a plan
        that draws from the pool); ``True`` when it went out."""
        rack = self.racks[seat]
        opened = self.opened[seat]
        table = self.table
        top = self.pile[-1] if self.pile else None
        drew_pool = False
        move = None
        if source is None:
            move = self.greedy(table, rack, opened)
            if move is not None and len(move[1]) == 1:
                return self._end(seat, move, None, True)
            if top is not None and (move is None or (opened and len(rack) <= GUARD_SIZE)):
                held = tuple(sorted(rack + (top,)))
                with_top = self.greedy(table, held, opened)
                if with_top is not None and (move is None or len(with_top[1]) == 1):
                    self.pile.pop()
                    rack = held
                    move = with_top
                    if len(move[1]) == 1:
                        return self._end(seat, move, None, True)
                    source = "taken"
            if move is None and source is None:
                source = "pool" if self.pool else "discard" if top is not None else "none"
        if source == "pool" and self.pool:
            rack = tuple(sorted(rack + (self.pool.pop(0),)))
            drew_pool = True
            move = self.greedy(table, rack, opened)
        elif source == "discard" and self.pile:
            rack = tuple(sorted(rack + (self.pile.pop(),)))
            move = self.greedy(table, rack, opened)
        if move is not None and len(move[1]) == 1:
            return self._end(seat, move, None, True)
        threat = self._threat(seat)
        if move is not None and threat is not None:
            if self.out(move[0], threat[1]) and not self.out(table, threat[1]):
                move = None
        self.racks[seat] = rack
        return self._end(seat, move, threat, drew_pool or move is not None)

    def _end(self, seat: int, move: _Move | None, threat: tuple[int, tuple[Tile, ...]] | None, progress: bool) -> bool:
        """Make ``move`` (if any) and discard; ``True`` when the rack is then empty."""
        if move is not None:
            self.table, rack = move
            self.opened[seat] = True
        else:
            rack = self.racks[seat]
        tile = self.pick_discard(rack, self.opened[seat], threat)
        left = list(rack)
        left.remove(tile)
        self.racks[seat] = tuple(left)
        self.pile.append(tile)
        self.passes = 0 if progress or self.pool else self.passes + 1
        return not left

    def pick_discard(self, rack: tuple[Tile, ...], opened: bool, threat: tuple[int, tuple[Tile, ...]] | None) -> Tile:
        """The tile with the fewest partners on ``rack`` (highest first once opened, lowest before),
        never one with which ``threat`` (the next seat and its rack) goes out when it would not
        without it."""
        order = sorted(
            set(rack), key=lambda t: (t.is_any_joker, _partners(t, rack), -(t.number or 0) * (1 if opened else -1))
        )
        if threat is not None and len(order) > 1 and not self.out(self.table, threat[1]):
            for tile in order[:3]:
                if not self.out(self.table, threat[1] + (tile,)):
                    return tile
        return order[0]

    def blocked_winner(self) -> int | None:
        """The blocked round's winner once every seat has passed in a row (else ``None``)."""
        if self.passes < self.players:
            return None
        return min(self.racks, key=lambda s: (self.rules.rack_value(self.racks[s]), len(self.racks[s])))


def _partners(tile: Tile, rack: tuple[Tile, ...]) -> int:
    """Rack tiles that could share a meld with ``tile``: a joker, the same number in another colour,
    or the same colour within two numbers."""
    if tile.is_any_joker:
        return len(rack)
    n = 0
    for other in rack:
        if other.is_any_joker:
            n += 1
        elif other.number == tile.number and other.colour is not tile.colour:
            n += 1
        elif other.colour is tile.colour and other.number is not None and tile.number is not None:
            if 0 < abs(other.number - tile.number) <= 2:
                n += 1
    return n


def _value(sim: Sim, me: int, seat: int, depth: int, loose_weight: float) -> float:
    """Play ``depth`` turns from ``seat``; 1 if ``me`` wins, 0 if another does, else 0.5 less
    ``loose_weight`` per loose tile of ``me``'s rack."""
    for _ in range(depth):
        if sim.turn(seat):
            return 1.0 if seat == me else 0.0
        winner = sim.blocked_winner()
        if winner is not None:
            return 1.0 if winner == me else 0.0
        seat = (seat + 1) % sim.players
    return 0.5 - loose_weight * sim.loose(sim.racks[me])


def run_plan(
    view: PlayerView,
    plan: Plan,
    racks: dict[int, tuple[Tile, ...]],
    pool: list[Tile],
    depth: int,
    cache: dict[Any, Any],
    loose_weight: float,
    clock: MoveClock = UNTIMED,
) -> float:
    """``plan``'s playout value in one world (``racks``: the opponents'; ``pool`` in draw order)."""
    me = view.seat
    all_racks = dict(racks)
    all_racks[me] = tuple(view.rack)
    sim = Sim(
        view.rules,
        tuple(view.table),
        all_racks,
        list(view.players_opened),
        list(view.discard_pile),
        list(pool),
        cache,
        clock,
    )
    if plan.discard is None:  # a draw from the pool: the policy plays the rest of the turn
        out = sim.turn(me, source=plan.source)
    else:
        rack = all_racks[me]
        if plan.source == "discard":
            rack = tuple(sorted(rack + (sim.pile.pop(),)))
        elif plan.source == "pool":
            rack = tuple(sorted(rack + (sim.pool.pop(0),)))
        if plan.table is not None:
            rack = rack_after(rack, sim.table, plan.table)
            sim.table = plan.table
            sim.opened[me] = True
        left = list(rack)
        left.remove(plan.discard)
        sim.racks[me] = tuple(left)
        sim.pile.append(plan.discard)
        sim.passes = 0 if plan.table is not None or plan.source == "pool" or sim.pool else 1
        out = not left
    if out:
        return 1.0
    return _value(sim, me, (me + 1) % view.players, depth, loose_weight)


class DiscardVariant:
    """The discard rule's variant of the search (:func:`rummisolve.game.ai.expert_search.run_search`):
    starts are :class:`Plan` s."""

    def rng_key(self, view: PlayerView, seed: int | None) -> str:
        return f"expert-discard/{seed}/{view.seat}/{view.turn}/{view.draw_from}"

    def sample(
        self, view: PlayerView, rng: random.Random, fitsets: FitSets, cache: dict[Any, Any], clock: MoveClock
    ) -> tuple[dict[int, tuple[Tile, ...]], list[Tile]]:
        table = tuple(view.table)
        probe = Sim(view.rules, table, {}, [], [], [], cache, clock)
        return sample_discard_world(view, rng, fitsets, lambda rack: probe.out(table, rack))

    def playout(
        self,
        view: PlayerView,
        start: Plan,
        world: tuple[dict[int, tuple[Tile, ...]], list[Tile]],
        depth: int,
        cache: dict[Any, Any],
        clock: MoveClock,
    ) -> float:
        racks, pool = world
        return run_plan(view, start, racks, pool, depth, cache, LOOSE_WEIGHT, clock)
