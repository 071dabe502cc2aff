"""The expert AI: a determinised Monte Carlo search over this turn's candidate moves.

Each turn the expert:

1. goes out whenever the solver finds a way (checked first), and draws when there is no play;
2. while every rack holds more than ``close`` tiles (the round is far from its end), plays the
   hard AI's move: the search below only tells moves apart by rounds won and lost within a few
   turns, and early on nobody goes out that soon;
3. otherwise collects candidates: the hard AI's move (banking, lean opening, guard), the solver's
   best move and up to ``alternatives`` next-best moves with other tiles played (``solve(...,
   alternatives=N, alternatives_mode="distinct")``: the best move less a tile is a candidate
   too), hold-back plays (the best move without the rack's own melds, one banked
   meld alone) and drawing;
4. samples ``worlds`` guesses at the hidden tiles from its own view only: every opponent's rack
   (weighted by the public history as the hard AI's guard does,
   :func:`rummisolve.game.ai.montecarlo.opponent_groups`; a rack with which the last mover could have
   gone out on this table is drawn again) and the pool's order, from the tiles it has not seen;
   the real hidden tiles are never looked at;
5. plays every candidate out in every world for ``depth`` turns (default: the number of players
   plus one) with a cheap policy for everybody: the solver's most-tiles move (the medium AI),
   except that a player draws instead when, in that world, the move would let the next player
   out and drawing would not; a playout scores 1 for a round this player wins, 0 for one another
   player wins, else 0.5 less :data:`LOOSE_WEIGHT` per tile of its rack in no meld of its own;
6. picks the candidate with the best mean (common random numbers: every candidate meets the same
   worlds), the hard AI's move unless another beats it by more than ``margin``.

Budget and determinism: ``think`` (seconds, default 0.5) sets ``worlds`` through a fixed
calibration (:data:`SOLVES_PER_SECOND` playout turns per second of budget), so where the machine
keeps up a seed fixes every decision. Given in seconds (``worlds`` unset) the budget is also
*clocked* (:class:`~rummisolve.game.ai.common.MoveClock`): the move is held to ``cap`` times
``think`` seconds of wall time from the moment it is asked (0.8 s by default). The solver's
best and next-best moves get :data:`BEST_SHARE` of it (cut sooner, the hard AI's move is played);
the hard AI's move is never cut (it is the floor: the expert plays no worse than hard, whose own
guard and solves take what they take, up to seconds on a dense Twist table); a solve in a playout gets the time left, at most :data:`SOLVE_SHARE` times ``think``
(then answering its best move found); and the search stops sampling at the deadline, dropping a
world cut short (every candidate still meets the same worlds). With fewer than
:data:`THIN_SHARE` of the planned worlds finished, the hard AI's move is played. So on a busy
machine, or under Twist where solves are slower, a move samples fewer worlds rather than run
late, and says so in :attr:`ExpertPlayer.note` (``"budget cut: 2 of 5 worlds"``), which the
tournament's turn log keeps; only a move cut so can depend on the machine. With ``worlds`` given (or
``clock=False``) the budget is *counted*: no clock, the same moves on any machine (the tests).

Under Twist nothing else changes: the candidates, the sampled worlds (the unseen tiles include
the special jokers, which no history constraint rules out) and the playouts all go through the
solver, which plays special jokers like any tile; the simple-move helpers of the hard AI's guard
leave melds with special jokers alone (:mod:`rummisolve.game.ai.montecarlo`).

Under the discard rule the same search runs over whole-turn plans (draw source, play, discard):
:mod:`rummisolve.game.ai.expert_discard`. Every move still goes through the referee (the engine
checks it). Once the pool is empty the expert plays as the hard AI does.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummisolve.errors import OptionError
from rummisolve.game.actions import Action, Draw, Play
from rummisolve.game.ai.common import (
    UNTIMED,
    MoveClock,
    OutOfTime,
    greedy_move,
    loose_tiles,
    melds_of,
    rack_after,
)
from rummisolve.game.ai.expert_discard import (
    AFTER_DRAW_SHARE,
    Plan,
    discard_plans,
    plan_of,
    search_plans,
)
from rummisolve.game.ai.hard import HardPlayer
from rummisolve.game.ai.montecarlo import FitSets, World, fitting_tiles_of_json_tables, opponent_groups
from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.solution import Status
from rummisolve.tiles import Tile

if TYPE_CHECKING:
    from rummisolve.solution import Solution

__all__ = ["ExpertPlayer", "Candidate", "SOLVES_PER_SECOND", "DEFAULT_THINK", "DEFAULT_CAP", "sample_world"]

DEFAULT_THINK = 0.5
"""The default budget per move, in seconds of one core."""
DEFAULT_CAP = 1.6
"""A clocked move's wall-time limit, in multiples of ``think`` (0.8 s at the default budget, so
that with the work left after the deadline a move stays within 1 s)."""
BEST_SHARE = 0.5
"""The share of a clocked move's time the solver's best move and next-best moves may take (cut
before the best move is proven, the hard AI's move is played)."""
SOLVE_SHARE = 0.2
"""The longest one playout solve of a clocked move may take, in multiples of ``think`` (0.1 s at
the default budget): cut there, it answers the best move found (Twist's dense tables)."""
SOLVES_PER_SECOND = 160
"""Calibration: playout turns per second of budget (measured on the 2-core reference machine, see
benchmarks/RESULTS.md). Fixed, so the playout count, and the decision, do not depend on the machine."""
DISCARD_TURNS_PER_SECOND = 220
"""The same under the discard rule, where a playout turn asks the solver more (the pile's top, the
guard on the discard)."""


LOOSE_WEIGHT = 0.02
"""A playout that ends with nobody out is worth 0.5 less this much per loose tile left on the
player's rack (a tile in no meld of the rack's own): melds the rack holds are plays for later."""


@dataclass(frozen=True)
class Candidate:
    """A move the expert considered: ``label`` (where it came from), the action, and its mean
    playout value (``None`` until searched) over ``worlds`` sampled worlds."""

    label: str
    action: Action
    value: float | None = None
    worlds: int = 0
    plan: Plan | None = None
    """Under the discard rule: the whole turn (``action`` is its first step)."""


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
    unseen = view.unseen()
    racks: dict[int, tuple[Tile, ...]] = {}
    last = (view.seat - 1) % view.players
    for seat in view.opponents():
        size = view.rack_sizes[seat]
        groups = opponent_groups(view, seat, fitsets)
        if sum(c for c, _ in groups) != size:  # keep the sizes exact whatever the history says
            groups = [(size, [])]
        for _ in range(tries if seat == last and goes_out is not None and view.players_opened[seat] else 1):
            rack = tuple(sorted(World(rng, unseen, groups, 1).opponent_racks()[0]))
            if seat != last or goes_out is None or not view.players_opened[seat] or not goes_out(rack):
                break
        racks[seat] = rack
        unseen = unseen - Counter(rack)
    pool = sorted(unseen.elements())
    rng.shuffle(pool)
    return racks, pool


class ExpertPlayer:
    """Searches this turn's candidate moves by playouts over sampled worlds (see the module
    docstring). ``think``: the budget per move in seconds (sets the number of worlds through a
    fixed calibration); ``worlds`` overrides it. ``depth``: turns played out after the move
    (default: one more than the number of players). ``alternatives``: the solver's next-best moves
    considered. ``margin``: how much better than the hard AI's move another must be. ``cap``: a
    clocked move's wall-time limit in multiples of ``think``. ``clock``: whether moves are clocked
    (default: when the budget is in seconds, ``worlds`` unset). ``close``: the search runs once some
    rack holds this many tiles or fewer (before that the hard AI's move is played).

    :attr:`last` keeps the candidates of the last searched turn with their values, :attr:`note`
    what the clock cut from the last move (``None`` when nothing)."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        think: float = DEFAULT_THINK,
        *,
        worlds: int | None = None,
        depth: int | None = None,
        alternatives: int = 2,
        margin: float = 0.02,
        cap: float = DEFAULT_CAP,
        close: int = 8,
        clock: bool | None = None,
    ) -> None:
        if isinstance(think, bool) or not isinstance(think, int | float) or not 0 < think <= 60:
            raise OptionError(f"think must be a number of seconds above 0 and at most 60, not {think!r}")
        if worlds is not None and (isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1):
            raise OptionError(f"worlds must be a whole number of at least 1, not {worlds!r}")
        if isinstance(cap, bool) or not isinstance(cap, int | float) or not cap > 0:
            raise OptionError(f"cap must be a number above 0, not {cap!r}")
        self.seed = seed
        self.think = float(think)
        self.worlds = worlds
        self.depth = depth
        self.alternatives = alternatives
        self.margin = margin
        self.cap = cap
        self.close = close
        self.clocked = worlds is None if clock is None else bool(clock)
        self.hard = HardPlayer(seed=seed)
        self.note: str | None = None
        """What the clock cut from the last move (``"budget cut: 2 of 5 worlds"``), else ``None``."""
        self._notes: list[str] = []
        self.last: tuple[Candidate, ...] = ()
        """The candidates of the last searched turn, with their values (for analysis and tests)."""
        self.plan: Plan | None = None
        """Under the discard rule, the whole turn the last ask chose (a draw from the pool: its
        play and discard unknown until the tile is seen)."""
        self._planned: tuple[int, int, Tile, Plan] | None = None
        """Under the discard rule, after choosing to take the pile's top: (seat, turn, tile, plan)."""

    # -- the turn -----------------------------------------------------------------------------------

    def choose(self, view: PlayerView) -> Action:
        return self.assess(view)[0]

    def assess(self, view: PlayerView, other: Action | Plan | None = None) -> tuple[Action, Candidate | None]:
        """This turn's choice, and ``other`` (another move for this view, e.g. the one a player
        made; under the discard rule a :class:`~rummisolve.game.ai.expert_discard.Plan` of the
        whole turn) judged over the same worlds: ``(action, other's candidate)``, the latter
        ``None`` when the turn is not searched. Adding ``other`` never changes the choice."""
        self.last = ()
        self._notes = []
        try:
            if view.rules.discard:
                return self._assess_discard(
                    view, other if isinstance(other, Plan) or other is None else plan_of(other, view.rules)
                )
            if isinstance(other, Plan):
                raise TypeError("assess: a Plan is a turn under the discard rule only")
            return self._assess(view, other)
        finally:
            self.note = "; ".join(self._notes) or None

    def _clock(self, share: float = 1.0) -> MoveClock:
        """This move's clock (:data:`UNTIMED` for a counted budget)."""
        if not self.clocked:
            return UNTIMED
        return MoveClock.starting(self.cap * self.think * share, SOLVE_SHARE * self.think)

    def _hard_choice(self, view: PlayerView) -> Action:
        """The hard AI's move, never cut by the expert's clock (when the clock also cut hard's guard
        and solves, the expert under Twist won only 37.1% of 232 games against hard)."""
        return self.hard.choose(view)

    def _assess(self, view: PlayerView, other: Action | None) -> tuple[Action, Candidate | None]:
        """:meth:`assess` under the normal rules."""
        clock = self._clock()
        if view.pool_size == 0 or min(view.rack_sizes) > self.close:
            return self._hard_choice(view), None
        from rummisolve.solver import solve

        limit = None if clock.deadline is None else BEST_SHARE * max(0.001, clock.deadline - time.perf_counter())
        full = solve(
            view.position,
            objective="tiles",
            time_limit=limit,
            alternatives=self.alternatives,
            alternatives_mode="distinct",
        )
        if limit is not None and (full.status not in (Status.OPTIMAL, Status.NO_MOVE) or clock.expired()):
            # the clock cut the search, or it took the whole move's time: no world could be played
            self._notes.append("budget cut: the best move's search (hard's move)")
            return self._hard_choice(view), None
        if not full:
            return Draw(), None
        if len(full.played) >= len(view.rack):
            return Play(tuple(full.table)), None  # out
        candidates = self.candidates(view, full, clock)
        if len(candidates) == 1 and other is None:
            return candidates[0].action, None
        worlds = self.world_count(view, len(candidates))
        keys = [action_key(c.action) for c in candidates]
        extra = other is not None and action_key(other) not in keys
        searched = self.search(
            view, candidates + [Candidate("other", other)] if extra and other is not None else candidates, worlds, clock
        )
        self.last = searched[: len(candidates)]
        judged = searched[-1] if extra else searched[keys.index(action_key(other))] if other is not None else None
        return self.pick(self.last, worlds).action, judged

    def _assess_discard(self, view: PlayerView, other: Plan | None) -> tuple[Action, Candidate | None]:
        """:meth:`assess` under the discard rule (see :mod:`rummisolve.game.ai.expert_discard`)."""
        from rummisolve.solver import solve

        planned, self._planned = self._planned, None
        if (
            planned is not None
            and view.draw_from == "discard"
            and planned[:3] == (view.seat, view.turn, view.drawn)
            and other is None
        ):
            self.plan = Plan(None, planned[3].table, planned[3].discard)
            return planned[3].final_action(), None  # the plan chosen before taking the top
        if view.pool_size == 0 or min(view.rack_sizes) > self.close:
            action = self._hard_choice(view)
            self.plan = plan_of(action, view.rules)  # a draw: the rest is decided after it
            return action, None
        best = solve(view.position, objective="tiles")
        if best and len(best.rack_after) == 1:  # out: play all but one, discard it
            return self._commit(view, Plan(None, tuple(best.table), best.rack_after[0])), None
        top = view.discard_top
        if view.draw_from is None and top is not None:
            held = Position(view.table, view.rack + (top,), view.opened, view.rules)
            with_top = solve(held, objective="tiles")
            if with_top and len(with_top.rack_after) == 1:  # out after taking the top
                return self._commit(view, Plan("discard", tuple(with_top.table), with_top.rack_after[0])), None
        labelled = discard_plans(view, self.hard)
        plans = [p for _, p in labelled]
        keys = [p.key() for p in plans]
        if len(plans) == 1 and other is None:
            return self._commit(view, plans[0]), None
        extra = other is not None and other.key() not in keys
        searched_plans = plans + [other] if extra and other is not None else plans
        if view.draw_from == "pool":
            share = AFTER_DRAW_SHARE
        elif any(p.source == "pool" for p in plans):
            share = 1.0 - AFTER_DRAW_SHARE
        else:
            share = 1.0
        depth = self._depth(view)
        worlds = self.worlds
        if worlds is None:
            # the plans' count, not with ``other``: judging a move never changes the choice
            worlds = max(2, round(self.think * share * DISCARD_TURNS_PER_SECOND / (len(plans) * depth)))
        values, done = search_plans(view, searched_plans, worlds, depth, self.seed, self._clock(share), LOOSE_WEIGHT)
        if done < worlds:
            self._notes.append(_cut_note(done, worlds))
        searched = tuple(
            Candidate(label, plan.first_action(), values[i], done, plan)
            for i, (label, plan) in enumerate([*labelled, *([("other", other)] if extra and other else [])])
        )
        self.last = searched[: len(plans)]
        judged = None
        if other is not None:
            judged = searched[-1] if extra else searched[keys.index(other.key())]
        chosen = self.pick(self.last, worlds)
        assert chosen.plan is not None
        return self._commit(view, chosen.plan), judged

    def _commit(self, view: PlayerView, plan: Plan) -> Action:
        """``plan``'s first action, remembering the rest when it takes the pile's top."""
        self.plan = plan
        if plan.source == "discard" and view.draw_from is None:
            top = view.discard_top
            assert top is not None  # a plan takes the top only when there is one
            self._planned = (view.seat, view.turn, top, plan)
        return plan.first_action()

    def candidates(self, view: PlayerView, full: Solution | None = None, clock: MoveClock = UNTIMED) -> list[Candidate]:
        """This turn's distinct candidate moves, the hard AI's first and drawing last (``clock``:
        the move's, which the hard AI's guard shares)."""
        from rummisolve.solver import solve

        rules = view.rules
        if full is None:
            full = solve(view.position, objective="tiles", alternatives=self.alternatives, alternatives_mode="distinct")
        hard = self._hard_choice(view)
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
        out: list[Candidate] = []
        seen: set = set()
        for label, action in raw:
            key = action_key(action)
            if key not in seen:
                seen.add(key)
                out.append(Candidate(label, action))
        return out

    def world_count(self, view: PlayerView, candidates: int) -> int:
        """The playout worlds for this turn: the budget's solver calls shared by the candidates."""
        if self.worlds is not None:
            return self.worlds
        calls = self.think * SOLVES_PER_SECOND
        return max(2, round(calls / (max(1, candidates) * self._depth(view))))

    def search(
        self, view: PlayerView, candidates: list[Candidate], worlds: int | None = None, clock: MoveClock = UNTIMED
    ) -> tuple[Candidate, ...]:
        """Each candidate's mean playout value over the same sampled worlds (``worlds`` of them,
        default :meth:`world_count`; fewer once ``clock`` runs out, a world cut short dropped: then
        :attr:`note` says so, and with none finished every value is ``None``)."""
        rng = random.Random(f"expert/{self.seed}/{view.seat}/{view.turn}")
        fitsets = fitting_tiles_of_json_tables(view.rules)
        if worlds is None:
            worlds = self.world_count(view, len(candidates))
        depth = self._depth(view)
        starts = [self._after(view, c.action) for c in candidates]
        totals = [0.0] * len(candidates)
        done = 0
        cache: dict[Any, Any] = {}
        table0 = tuple(view.table)

        def goes_out(rack: tuple[Tile, ...]) -> bool:
            return _out(table0, rack, view.rules, cache, clock)

        for _ in range(worlds):
            try:
                racks, pool = sample_world(view, rng, fitsets, goes_out)
                values = []
                for table, rack, opened, drew in starts:
                    clock.check()
                    all_racks = dict(racks)
                    all_racks[view.seat] = rack
                    seq = list(pool)
                    if drew:
                        all_racks[view.seat] = tuple(sorted(rack + (seq.pop(0),)))
                    values.append(_playout(view, table, all_racks, opened, seq, depth, cache, clock))
            except OutOfTime:
                break
            for i, value in enumerate(values):
                totals[i] += value
            done += 1
        if done < worlds:
            self._notes.append(_cut_note(done, worlds))
        if clock.capped:
            self._notes.append(f"{clock.capped} playout solves capped")
        return tuple(
            Candidate(c.label, c.action, totals[i] / done if done else None, done) for i, c in enumerate(candidates)
        )

    def pick(self, searched: tuple[Candidate, ...], planned: int | None = None) -> Candidate:
        """The best mean; the hard AI's move (the first) unless another beats it by ``margin``, or
        when the clock cut the search to too few of the ``planned`` worlds (:func:`too_thin`)."""

        def value(candidate: Candidate) -> float:
            assert candidate.value is not None  # searched
            return candidate.value

        first = searched[0]
        if first.value is None or (planned is not None and too_thin(first.worlds, planned)):
            return first
        best = max(searched, key=value)
        return best if value(best) > value(first) + self.margin else first

    # -- internals ----------------------------------------------------------------------------------

    def _depth(self, view: PlayerView) -> int:
        return self.depth if self.depth is not None else view.players + 1

    @staticmethod
    def _after(view: PlayerView, action: Action) -> _Start:
        """(table, rack, opened flags, drew) right after this player's ``action``."""
        opened = list(view.players_opened)
        if isinstance(action, Draw):
            return tuple(view.table), tuple(view.rack), tuple(opened), True
        assert isinstance(action, Play)  # the expert never sees a discard here (no discard rule)
        table = melds_of(action.table, view.rules)
        opened[view.seat] = True
        return table, rack_after(view.rack, view.table, table), tuple(opened), False


THIN_SHARE = 0.5
"""A search the clock cut to fewer than this share of its planned worlds is too noisy to overrule
the hard AI's move (measured: with the cut searches deciding, the expert won 6 of 20 standard
games against hard at load 8, where the unclocked one won 13 of the same 20)."""


def too_thin(done: int, planned: int) -> bool:
    """Whether ``done`` of ``planned`` worlds are too few to decide on (:data:`THIN_SHARE`)."""
    return done < planned and done < THIN_SHARE * planned


def _cut_note(done: int, planned: int) -> str:
    return f"budget cut: {done} of {planned} worlds" + (" (hard's move)" if too_thin(done, planned) else "")


def action_key(action: Action) -> tuple:
    """What makes two actions the same move: a draw, or the melds of the new table in any order."""
    if isinstance(action, Draw):
        return ("draw",)
    assert isinstance(action, Play)  # the expert never sees a discard (it plays no discard rule here)
    return ("play",) + tuple(sorted(tuple(m.tiles if isinstance(m, Meld) else m) for m in action.table))


_Start = tuple[tuple[Meld, ...], tuple[Tile, ...], tuple[bool, ...], bool]
"""(table, rack, opened flags, drew) after a candidate move."""
_Move = tuple[tuple[Meld, ...], tuple[Tile, ...]]
"""(new table, rack left)."""


def _playout(
    view: PlayerView,
    table: tuple[Meld, ...],
    racks: dict[int, tuple[Tile, ...]],
    opened_before: tuple[bool, ...],
    pool: list[Tile],
    depth: int,
    cache: dict[Any, Any],
    clock: MoveClock = UNTIMED,
) -> float:
    """Play ``depth`` turns from the seat after this player; 1 if this player wins, 0 if another
    does, else 0.5 less :data:`LOOSE_WEIGHT` per loose tile of this player's. Every seat plays the
    solver's most-tiles move unless, in this world, that lets the next player out and drawing
    does not (then it draws). Raises :class:`~rummisolve.game.ai.common.OutOfTime` when ``clock``
    runs out."""
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
