"""The expert's search under the normal rules: candidate moves, worlds and playouts.

The variant :class:`PlainVariant` plugs into :func:`rummisolve.game.ai.expert_search.run_search`:

- **candidates** (:func:`candidates`): the hard AI's move (banking, lean opening, guard), the
  solver's best move and its next-best moves with other tiles played, hold-back plays (the best
  move without the rack's own melds, one banked meld alone) and drawing;
- **worlds** (:func:`sample_world`): every opponent's rack weighted by the public history as the
  hard AI's guard does (:func:`rummisolve.game.ai.montecarlo.opponent_groups`; a rack with which
  the last mover could have gone out on this table is drawn again) and the pool's order, from the
  tiles the player has not seen; the real hidden tiles are never looked at;
- **playouts** (:func:`playout`): every seat plays the solver's most-tiles move (the medium AI),
  except that a player draws instead when, in that world, the move would let the next player out
  and drawing would not; a playout scores 1 for a round this player wins, 0 for one another
  player wins, else 0.5 less :data:`LOOSE_WEIGHT` per tile of its rack in no meld of its own.

Under Twist nothing changes: the unseen tiles include the special jokers, which no history
constraint rules out, and the solver plays them like any tile.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from rummisolve.game.actions import Action, Draw, Play
from rummisolve.game.ai.common import UNTIMED, MoveClock, greedy_move, loose_tiles, melds_of, rack_after
from rummisolve.game.ai.expert_search import draw_world
from rummisolve.game.ai.montecarlo import FitSets
from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile

__all__ = ["LOOSE_WEIGHT", "PlainVariant", "Start", "action_key", "candidate_moves", "sample_world", "start_of"]

LOOSE_WEIGHT = 0.02
"""A playout that ends with nobody out is worth 0.5 less this much per loose tile left on the
player's rack (a tile in no meld of the rack's own): melds the rack holds are plays for later."""

Start = tuple[tuple[Meld, ...], tuple[Tile, ...], tuple[bool, ...], bool]
"""(table, rack, opened flags, drew) right after a candidate move."""
_Move = tuple[tuple[Meld, ...], tuple[Tile, ...]]


def action_key(action: Action) -> tuple:
    """What makes two actions the same move: a draw, or the melds of the new table in any order."""
    if isinstance(action, Draw):
        return ("draw",)
    assert isinstance(action, Play)  # the expert never sees a discard here (no discard rule)
    return ("play",) + tuple(sorted(tuple(m.tiles if isinstance(m, Meld) else m) for m in action.table))


def candidate_moves(view: PlayerView, hard: Action, full: Any) -> list[tuple[str, Action]]:
    """This turn's distinct candidate moves, labelled, ``hard`` (the hard AI's) first and drawing
    last; ``full``: the solver's answer with its alternatives."""
    from rummisolve.solver import solve

    rules = view.rules
    raw: list[tuple[str, Action]] = [("hard", hard), ("best", Play(tuple(full.table)))]
    raw += [(f"alternative {i + 1}", Play(tuple(a.table))) for i, a in enumerate(full.alternatives)]
    if view.opened:
        bank = solve(Position((), view.rack, True, rules), objective="tiles")
        if bank:
            banked = Counter(t for m in bank.table for t in m.tiles)
            loose = tuple(sorted((Counter(view.rack) - banked).elements()))
            if loose:
                move = solve(Position(view.table, loose, True, rules), objective="tiles")
                if move:
                    raw.append(("hold back", Play(tuple(move.table))))
            smallest = min(bank.table, key=lambda m: (len(m), m.value))
            raw.append(("one banked meld", Play(tuple(view.table) + (smallest,))))
    raw.append(("draw", Draw()))
    out: list[tuple[str, Action]] = []
    seen: set = set()
    for label, action in raw:
        key = action_key(action)
        if key not in seen:
            seen.add(key)
            out.append((label, action))
    return out


def start_of(view: PlayerView, action: Action) -> Start:
    """(table, rack, opened flags, drew) right after this player's ``action``."""
    opened = list(view.players_opened)
    if isinstance(action, Draw):
        return tuple(view.table), tuple(view.rack), tuple(opened), True
    assert isinstance(action, Play)  # no discard rule here
    table = melds_of(action.table, view.rules)
    opened[view.seat] = True
    return table, rack_after(view.rack, view.table, table), tuple(opened), False


def sample_world(
    view: PlayerView,
    rng: random.Random,
    fitsets: FitSets,
    goes_out: Callable[[tuple[Tile, ...]], bool] | None = None,
    tries: int = 4,
) -> tuple[dict[int, tuple[Tile, ...]], list[Tile]]:
    """One guess at the hidden tiles from ``view`` alone: a rack for each opponent (weighted by
    the public history) and the pool in draw order, all drawn from :meth:`PlayerView.unseen`.

    ``goes_out(rack)``: whether a rack goes out on the current table; the player who moved last
    faced this table and did not go out, so a rack of theirs that would is drawn again (up to
    ``tries`` times)."""
    last = (view.seat - 1) % view.players

    def redraw(seat: int) -> Callable[[tuple[Tile, ...]], bool] | None:
        return goes_out if seat == last and view.players_opened[seat] else None

    return draw_world(view, rng, fitsets, redraw=redraw, tries=tries)


class PlainVariant:
    """The normal rules' variant of the search: starts are :data:`Start` states."""

    def rng_key(self, view: PlayerView, seed: int | None) -> str:
        return f"expert/{seed}/{view.seat}/{view.turn}"

    def sample(
        self, view: PlayerView, rng: random.Random, fitsets: FitSets, cache: dict[Any, Any], clock: MoveClock
    ) -> tuple[dict[int, tuple[Tile, ...]], list[Tile]]:
        table = tuple(view.table)
        return sample_world(view, rng, fitsets, lambda rack: _out(table, rack, view.rules, cache, clock))

    def playout(
        self,
        view: PlayerView,
        start: Start,
        world: tuple[dict[int, tuple[Tile, ...]], list[Tile]],
        depth: int,
        cache: dict[Any, Any],
        clock: MoveClock,
    ) -> float:
        table, rack, opened, drew = start
        racks, pool = world
        racks[view.seat] = rack
        if drew:
            racks[view.seat] = tuple(sorted(rack + (pool.pop(0),)))
        return playout(view, table, racks, opened, pool, depth, cache, clock)


def playout(
    view: PlayerView,
    table: tuple[Meld, ...],
    racks: dict[int, tuple[Tile, ...]],
    opened_before: tuple[bool, ...],
    pool: list[Tile],
    depth: int,
    cache: dict[Any, Any],
    clock: MoveClock = UNTIMED,
) -> float:
    """Play ``depth`` turns from the seat after this player (see the module docstring). Raises
    :class:`~rummisolve.game.ai.common.OutOfTime` when ``clock`` runs out."""
    rules = view.rules
    me = view.seat
    n = view.players
    opened = list(opened_before)
    seat = (me + 1) % n
    passes = 0
    move: _Move | None
    for _ in range(depth):
        move = greedy_move(table, racks[seat], opened[seat], rules, cache, clock)
        if move is not None and move[1] and pool:
            nxt = (seat + 1) % n  # the guard, knowing this world: no play that lets the next player out
            if (
                opened[nxt]
                and _out(move[0], racks[nxt], rules, cache, clock)
                and not _out(table, racks[nxt], rules, cache, clock)
            ):
                move = None
        if move is not None:
            table, racks[seat] = move
            opened[seat] = True
            passes = 0
            if not racks[seat]:
                return 1.0 if seat == me else 0.0
        elif pool:
            racks[seat] = tuple(sorted(racks[seat] + (pool.pop(0),)))
        else:
            passes += 1
            if passes >= n:
                winner = min(range(n), key=lambda s: (rules.rack_value(racks[s]), len(racks[s])))
                return 1.0 if winner == me else 0.0
        seat = (seat + 1) % n
    return 0.5 - LOOSE_WEIGHT * loose_tiles(racks[me], rules, cache)


def _out(
    table: tuple[Meld, ...], rack: tuple[Tile, ...], rules: RuleSet, cache: dict[Any, Any], clock: MoveClock = UNTIMED
) -> bool:
    """Whether ``rack`` (of an opened player) goes out on ``table``."""
    move = greedy_move(table, rack, True, rules, cache, clock)
    return move is not None and not move[1]
