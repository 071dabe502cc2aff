"""The expert's one Monte Carlo search: sampled worlds, playouts, one rule for stopping on time.

A *variant* (:class:`Variant`) says how the rules of the round shape the search: how a world (the
hidden racks and the pool's order) is drawn from the player's view, and how one candidate is
played out in it. :mod:`rummisolve.game.ai.expert_plain` is the variant of the normal rules
(candidates are actions), :mod:`rummisolve.game.ai.expert_discard` that of the discard rule
(candidates are whole-turn plans). :func:`run_search` is the rest, written once:

- every candidate meets the same worlds (common random numbers), drawn from a seeded generator
  (:func:`draw_world`: the variant says which tiles a rack is known to hold, and which racks
  the last mover cannot hold);
- the move's :class:`~rummisolve.game.ai.common.MoveClock` is checked before every playout and
  inside its solves; when it runs out the world in progress is dropped whole;
- when the worlds played so far say the planned ones will not fit in the time left (slow solves,
  a busy machine), the search keeps fewer candidates rather than playing fewer worlds: the first
  (the hard AI's move) and the best so far stay;
- a search that finished fewer than :data:`MIN_WORLDS` worlds (or, cut by the clock, fewer than
  :data:`THIN_SHARE` of those planned) does not decide: the first candidate is played
  (:func:`too_thin`).

Solves repeat within a move (the same rack on the same table in several worlds and candidates)
and from one move to the next; :class:`SolveCache` keeps them under their exact key (table,
rack, opened), bounded, for as long as the player plays under the same rules.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from rummisolve.game.ai.common import MoveClock, OutOfTime
from rummisolve.game.ai.montecarlo import FitSets, fitting_tiles_of_json_tables, opponent_groups, shrink_groups
from rummisolve.game.ai.montecarlo import World as WeightedRacks
from rummisolve.game.state import PlayerView
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile

__all__ = [
    "MIN_WORLDS",
    "THIN_SHARE",
    "Variant",
    "SearchResult",
    "SolveCache",
    "run_search",
    "draw_world",
    "too_thin",
    "cut_note",
]

MIN_WORLDS = 3
"""No decision on fewer worlds than this: with fewer, the hard AI's move is played."""
THIN_SHARE = 0.5
"""A search the clock cut to fewer than this share of its planned worlds is too noisy to overrule
the hard AI's move (measured: with the cut searches deciding, the expert won 6 of 20 standard
games against hard at load 8, where the unclocked one won 13 of the same 20)."""
KEEP_AT_LEAST = 2
"""Candidates a search never drops below (the first and the best so far)."""

S = TypeVar("S")
"""What a variant plays out: a start state (normal rules) or a plan (discard rule)."""
S_in = TypeVar("S_in", contravariant=True)
"""The same, where a variant only takes it in."""
World = tuple[dict[int, tuple[Tile, ...]], list[Tile]]
"""The opponents' racks by seat and the pool in draw order."""


class Variant(Protocol[S_in]):
    """How the round's rules shape the search (see the module docstring)."""

    def rng_key(self, view: PlayerView, seed: int | None) -> str:
        """The seed of this turn's worlds."""
        ...

    def sample(
        self, view: PlayerView, rng: random.Random, fitsets: FitSets, cache: dict[Any, Any], clock: MoveClock
    ) -> World:
        """One world drawn from ``view`` alone."""
        ...

    def playout(
        self, view: PlayerView, start: S_in, world: World, depth: int, cache: dict[Any, Any], clock: MoveClock
    ) -> float:
        """``start`` played out in ``world`` for ``depth`` turns: 1 for a won round, 0 for a lost
        one, else about 0.5 (raises :class:`~rummisolve.game.ai.common.OutOfTime`)."""
        ...


@dataclass(frozen=True)
class SearchResult(Generic[S]):
    """Each candidate's mean playout value (``None`` without a world) and its worlds; ``done``:
    the worlds every candidate still searched met; ``dropped``: candidates set aside for time."""

    values: tuple[float | None, ...]
    worlds: tuple[int, ...]
    done: int
    dropped: int


class SolveCache(OrderedDict):
    """The playouts' solves under their exact key, the oldest forgotten past ``size`` entries."""

    def __init__(self, size: int = 10_000) -> None:
        super().__init__()
        self.size = size
        self.rules: RuleSet | None = None

    def for_rules(self, rules: RuleSet) -> SolveCache:
        """This cache, emptied first if it held another rule set's solves."""
        if rules != self.rules:
            self.clear()
            self.rules = rules
        return self

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        if len(self) > self.size:
            self.popitem(last=False)


def draw_world(
    view: PlayerView,
    rng: random.Random,
    fitsets: FitSets,
    known: Callable[[int], Counter[Tile]] | None = None,
    redraw: Callable[[int], Callable[[tuple[Tile, ...]], bool] | None] | None = None,
    tries: int = 4,
) -> World:
    """One guess at the hidden tiles from ``view`` alone: a rack for each opponent and the pool in
    draw order, together exactly :meth:`PlayerView.unseen`. ``known(seat)``: tiles the seat is known
    to hold (under the discard rule, those it took from the pile); the rest of its rack is drawn
    weighted by the public history (:func:`~rummisolve.game.ai.montecarlo.opponent_groups`).
    ``redraw(seat)``: ``None``, or a test a rack of that seat must fail (a rack with which it would
    have gone out when it did not), drawn again up to ``tries`` times."""
    unseen = view.unseen()
    racks: dict[int, tuple[Tile, ...]] = {}
    for seat in view.opponents():
        size = view.rack_sizes[seat]
        held = (known(seat) & unseen) if known is not None else Counter()
        while sum(held.values()) > size:  # never more than the rack holds
            held[max(held)] -= 1
            held = +held
        fixed = tuple(held.elements())
        hidden = size - len(fixed)
        groups = shrink_groups(opponent_groups(view, seat, fitsets), hidden)
        if sum(c for c, _ in groups) != hidden:
            groups = [(hidden, [])] if hidden else []
        pool = unseen - held
        again = redraw(seat) if redraw is not None else None
        rack: tuple[Tile, ...] = fixed
        for _ in range(tries if again is not None else 1):
            drawn = WeightedRacks(rng, pool, groups, 1).opponent_racks()[0] if groups else ()
            rack = tuple(sorted(drawn + fixed))
            if again is None or not again(rack):
                break
        racks[seat] = rack
        unseen = unseen - Counter(rack)
    pool_tiles = sorted(unseen.elements())
    rng.shuffle(pool_tiles)
    return racks, pool_tiles


def too_thin(done: int, planned: int) -> bool:
    """Whether ``done`` of ``planned`` worlds are too few to decide on: fewer than
    :data:`MIN_WORLDS` (or than ``planned`` when fewer were asked), or, cut short, fewer than
    :data:`THIN_SHARE` of ``planned``."""
    return done < min(planned, MIN_WORLDS) or (done < planned and done < THIN_SHARE * planned)


def cut_note(done: int, planned: int, dropped: int = 0) -> str:
    """What the clock cut, for the tournament's turn log."""
    note = f"budget cut: {done} of {planned} worlds" if done < planned else ""
    if dropped:
        note += ("; " if note else "budget cut: ") + f"{dropped} candidates dropped"
    return note + (" (hard's move)" if too_thin(done, planned) else "")


def world_floor(planned: int) -> int:
    """The worlds a clocked search tries to keep by dropping candidates."""
    return min(planned, max(MIN_WORLDS, math.ceil(THIN_SHARE * planned)))


def run_search(
    view: PlayerView,
    variant: Variant[S],
    starts: Sequence[S],
    worlds: int,
    depth: int,
    *,
    seed: int | None,
    cache: dict[Any, Any],
    clock: MoveClock,
    protect: int = 1,
    now: Callable[[], float] = time.perf_counter,
) -> SearchResult[S]:
    """Each of ``starts`` played out over the same ``worlds`` sampled worlds (see the module
    docstring). The first ``protect`` starts are never dropped."""
    rng = random.Random(variant.rng_key(view, seed))
    fitsets = fitting_tiles_of_json_tables(view.rules)
    n = len(starts)
    active = list(range(n))
    totals = [0.0] * n
    counts = [0] * n
    done = 0
    playouts = 0
    began = now()
    for _ in range(worlds):
        values: dict[int, float] = {}
        try:
            clock.check()
            world = variant.sample(view, rng, fitsets, cache, clock)
            for i in active:
                clock.check()
                racks, pool = world
                values[i] = variant.playout(view, starts[i], (dict(racks), list(pool)), depth, cache, clock)
        except OutOfTime:
            break
        for i, value in values.items():
            totals[i] += value
            counts[i] += 1
        done += 1
        playouts += len(values)
        if clock.deadline is not None and done < worlds and len(active) > max(KEEP_AT_LEAST, protect):
            active = _fewer(
                active, totals, counts, protect, worlds, done, (now() - began) / playouts, clock.deadline - now()
            )
    return SearchResult(
        tuple(totals[i] / counts[i] if counts[i] else None for i in range(n)),
        tuple(counts),
        done,
        n - len(active),
    )


def _fewer(
    active: list[int],
    totals: list[float],
    counts: list[int],
    protect: int,
    planned: int,
    done: int,
    per_playout: float,
    left: float,
) -> list[int]:
    """``active`` cut to the candidates whose playouts fit :func:`world_floor` worlds in ``left``
    seconds: the protected ones and the best so far."""
    need = world_floor(planned) - done
    if need <= 0:
        return active
    fit = int(left / (per_playout * need)) if per_playout > 0 else len(active)
    if fit >= len(active):
        return active
    keep = max(KEEP_AT_LEAST, protect, fit)
    fixed = [i for i in active if i < protect]
    rest = sorted((i for i in active if i >= protect), key=lambda i: -totals[i] / max(1, counts[i]))
    return sorted(fixed + rest[: keep - len(fixed)])
