"""``solve``: build the model, search, decode, referee."""

from __future__ import annotations

import dataclasses
import functools
import math
import time
from collections.abc import Sequence

from ortools.sat.python import cp_model_helper as cmh

from rummisolve.errors import OptionError, RefereeRejectedError, RuleSetError
from rummisolve.position import Position
from rummisolve.referee import NewTable, verify
from rummisolve.solution import AlternativesMode, Objective, Solution, Status
from rummisolve.solver._budgets import QUICK_EFFORT, TARGET_EFFORT, TARGET_STEPS
from rummisolve.solver._candidates import Catalogue, catalogue, model_catalogue
from rummisolve.solver._cpsat import (
    CP_FEASIBLE,
    CP_INFEASIBLE,
    CP_OPTIMAL,
    PROVEN,
    run_cpsat,
    sat_parameters,
    solution_values,
)
from rummisolve.solver._decode import NeedAnchors, decode, primary_value
from rummisolve.solver._exclude import exclude_played
from rummisolve.solver._layout import PositionModel, TableCounts
from rummisolve.solver._model import build_model
from rummisolve.solver._protos import INF
from rummisolve.solver._shortcut import lay_down_all
from rummisolve.solver._stop import StopSignal
from rummisolve.solver._variant import SHIPPED, ModelVariant
from rummisolve.solver._work import Run, WorkCap, within
from rummisolve.solver_limits import check_alternatives_mode, check_objective, check_time_limit, unsupported_position
from rummisolve.tiles import Tile

__all__ = ["solve"]


def solve(
    position: Position,
    objective: Objective | str = Objective.TILES,
    time_limit: float | None = None,
    *,
    seed: int = 0,
    alternatives: int = 0,
    alternatives_mode: AlternativesMode | str = AlternativesMode.NOT_CONTAINED,
    stop: StopSignal | None = None,
) -> Solution:
    """The best turn for ``position``, proven optimal unless ``time_limit`` (seconds) cuts the search.

    (Under strict joker retrieval on rare tables the model may miss a legal play: the answer is
    then ``feasible`` or ``unknown`` even without a time limit, never an unproven ``optimal`` or
    ``no_move``; see :class:`_RelaxedFirst` and docs/rules.md, "Jokers on the table".)

    ``objective``: ``"tiles"`` (most rack tiles played) or ``"value"`` (most points shed, a joker
    counting its rack penalty). Among equally good turns the one that keeps the most table melds
    unchanged wins; one CP-SAT worker and a fixed ``seed`` make the answer deterministic. The
    returned arrangement has passed the referee; if it ever did not, :class:`RefereeRejectedError`
    is raised instead. ``stop``: a :class:`StopSignal` that, once set from another thread, ends
    the search as if ``time_limit`` had run out (unset, it changes nothing).

    When every rack tile that could be played at all splits into melds of its own, that move
    (the table untouched) is answered without CP-SAT: proven optimal, with the status, tiles
    played, value and melds kept the model gives; only how the played tiles split into new
    melds may differ (see :mod:`rummisolve.solver._shortcut`).

    ``alternatives``: up to this many further moves in ``Solution.alternatives``, each the best
    (by the objective, then melds kept) among the moves that, for every move listed before it
    (the best move, then the earlier alternatives), play some tile or a further copy of one that
    move does not: its played multiset is contained in none of theirs (``alternatives_mode``
    ``"not_contained"``, the default; with ``"distinct"``, among the moves whose played multiset
    differs from theirs, which may be an earlier move less a tile). Each is proven so
    (``optimal``) unless the time cut the proof short (``feasible``). The time is the
    ``time_limit``, all of it shared by the best move and its alternatives; without one, the
    alternatives together get :data:`ALTERNATIVES_TIME_LIMIT` seconds after the best move. Fewer
    when fewer exist or the time runs out (none under ``"not_contained"`` when the best move
    plays the whole rack, or everything the rack could play: answered at once). The same model
    is searched again with the earlier played multisets forbidden.

    >>> from rummisolve import Position
    >>> s = solve(Position.from_notation(["R1 R2 R3"], "R4 K9 J", opened=True))
    >>> s.status, [str(t) for t in s.played], [str(m) for m in s.table]
    (Status.OPTIMAL, ['R4', 'J'], ['R1 R2 R3 R4 J'])
    """
    if not isinstance(position, Position):
        raise TypeError(f"position must be a Position, not {type(position).__name__}")
    objective, limit = check_options(objective, time_limit, seed, alternatives, stop)
    mode = check_alternatives_mode(alternatives_mode)
    return solve_checked(position, catalogue(position.rules), objective, limit, seed, (alternatives, mode), stop)


ALTERNATIVES_TIME_LIMIT = 10.0
"""Seconds the alternatives of a solve without a time limit may take in all, after the best move
(which stays unbounded): with it a search for an alternative that is hard to prove (on dense
tables a second-best ``distinct`` move can take minutes) ends, its move ``feasible``. The
server's cap on ``time_limit`` is as long."""


FINISH_RESERVE = 0.05
"""The alternatives' searches stop this many seconds (at most this share of the time) before the
deadline, so that decoding and refereeing the move found last still end within it."""


def check_options(
    objective: Objective | str, time_limit: float | None, seed: int, alternatives: int, stop: StopSignal | None
) -> tuple[Objective, float | None]:
    """The objective and the time limit of :func:`solve`'s options, each option checked (the
    alternatives' mode: :func:`~rummisolve.solver_limits.check_alternatives_mode`)."""
    objective = check_objective(objective)
    limit = check_time_limit(time_limit)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**31:
        raise OptionError(f"seed must be a whole number from 0 to 2**31 - 1, not {seed!r}")
    if isinstance(alternatives, bool) or not isinstance(alternatives, int) or alternatives < 0:
        raise OptionError(f"alternatives must be a whole number of at least 0, not {alternatives!r}")
    if stop is not None and not isinstance(stop, StopSignal):
        raise TypeError(f"stop must be a StopSignal or None, not {type(stop).__name__}")
    return objective, limit


def solve_checked(
    position: Position,
    cat: Catalogue,
    objective: Objective,
    limit: float | None,
    seed: int,
    alternatives: tuple[int, AlternativesMode],
    stop: StopSignal | None,
    table: TableCounts | None = None,
    variant: ModelVariant = SHIPPED,
    work: float | None = None,
) -> Solution:
    """:func:`solve` once its options are checked. ``cat``: the rule set's enumerated catalogue
    (the shortcut's); the model's is :func:`~rummisolve.solver._candidates.model_catalogue`.
    ``alternatives``: how many, and what they are.
    ``table``: the counts of ``position.table`` under the model's catalogue
    (:func:`~rummisolve.solver._layout.count_table`), if already made. ``variant``: how the model
    is built and searched (:class:`~rummisolve.solver._variant.ModelVariant`); ``work``: :func:`staged_search`'s."""
    unsupported = unsupported_position(position)
    if unsupported is not None:
        raise RuleSetError(unsupported)
    started = time.perf_counter()
    deadline = None if limit is None else started + limit
    search = _RelaxedFirst(
        position, model_catalogue(position.rules), objective, seed, deadline, stop, table, variant=variant, work=work
    )
    best = _shortcut(position, cat, objective, table) if variant.shortcut and not _expired(deadline, stop) else None
    everything = best is not None  # the shortcut's move plays every rack tile any move could
    if best is None:
        best = search.next()
    count, mode = alternatives
    if not count or not best:
        return best
    contained = mode == AlternativesMode.NOT_CONTAINED
    if contained and everything:
        return dataclasses.replace(best, alternatives=())  # every other move plays a part of it
    if deadline is None:
        deadline = time.perf_counter() + ALTERNATIVES_TIME_LIMIT
    deadline -= min(FINISH_RESERVE, (deadline - started) * FINISH_RESERVE)
    search.limit(deadline)
    found: list[Solution] = []
    move = best
    while len(found) < count:
        if contained and len(move.played) == len(position.rack):
            break  # it plays the whole rack: every later move would be a part of it
        search.exclude(move.played, contained)
        if _expired(deadline, stop):
            break
        move = search.next()
        if not move:
            break
        found.append(move)
    return dataclasses.replace(best, alternatives=tuple(found))


def _shortcut(
    position: Position, cat: Catalogue, objective: Objective, counts: TableCounts | None = None
) -> Solution | None:
    """The proven answer of :func:`~rummisolve.solver._shortcut.lay_down_all` (refereed), or ``None``.

    Same status (``optimal``), tiles played (sorted, as the model gives them), value and melds kept (every one) as the
    model's answer; only the split of the played tiles into new melds may differ."""
    start = time.perf_counter()
    found = lay_down_all(position, cat, counts)
    if found is None:
        return None
    played, table = found
    timings = {"build": time.perf_counter() - start, "solve": 0.0, "decode": 0.0, "verify": 0.0}
    start = time.perf_counter()
    referee_accepts(position, table)
    timings["verify"] = time.perf_counter() - start
    return Solution(
        status=Status.OPTIMAL,
        played=played,
        table=table,
        value=position.rules.rack_value(played),
        objective=objective,
        position=position,
        kept=tuple(range(len(position.table))),
        timings=timings,
    )


class _Search:
    """One position's model, searched for the best move, then again for the best move that plays
    none of the multisets excluded so far (rebuilt only when decoding needs anchors)."""

    def __init__(
        self,
        position: Position,
        cat: Catalogue,
        objective: Objective,
        seed: int,
        deadline: float | None,
        stop: StopSignal | None = None,
        table: TableCounts | None = None,
        relaxed: bool = False,
        *,
        variant: ModelVariant = SHIPPED,
        work: float | None = None,
    ) -> None:
        self.position = position
        self.work = work
        self.table = table
        self.relaxed = relaxed
        self.variant = variant
        self.found: tuple[int, bool] = (0, False)
        """The last move's objective value (CP-SAT's, minimised) and whether the search proved it."""
        self.timings = {"build": 0.0, "solve": 0.0, "decode": 0.0, "verify": 0.0}
        self.stop = stop
        self.cat = cat
        self.objective = objective
        self.seed = seed
        self.deadline = deadline
        self.anchored: dict[int, int] = {}
        self.excluded: list[tuple[tuple[Tile, ...], bool]] = []
        self.blocked = False
        """Whether an exclusion left no way to differ (so no move is left: no search)."""
        self.built: PositionModel | None = None
        self.stale = True

    def exclude(self, played: tuple[Tile, ...], contained: bool = False) -> None:
        """Forbid the next searches to play exactly ``played`` (with ``contained``, any part of it too)."""
        self.excluded.append((played, contained))
        if not self.stale and self.built is not None:
            self.blocked |= not exclude_played(self.built, self.cat, played, contained)

    def limit(self, deadline: float | None) -> None:
        """Stop the next searches at ``deadline`` (``time.perf_counter()`` seconds)."""
        self.deadline = deadline

    def next(self) -> Solution:
        """The best move not excluded (refereed), or a :class:`Solution` without a move."""
        found = self.attempt(lenient=False)
        assert found is not None, "only a lenient attempt answers None"
        return found

    def attempt(self, lenient: bool) -> Solution | None:
        """:meth:`next`; with ``lenient``, a move of a relaxed model (``built.relaxed``) that
        the referee rejects is answered ``None`` (its timings stay in :attr:`timings`), not raised."""
        position, cat, objective = self.position, self.cat, self.objective
        timings = self.timings = {"build": 0.0, "solve": 0.0, "decode": 0.0, "verify": 0.0}
        while True:
            if self.stale:
                start = time.perf_counter()
                self.built = build_model(
                    position,
                    cat,
                    objective,
                    self.anchored,
                    self.table,
                    self.relaxed,
                    substitute_kept=self.variant.substitute_kept,
                )
                if self.built is not None:
                    ways = [exclude_played(self.built, cat, played, contained) for played, contained in self.excluded]
                    self.blocked = not all(ways)
                self.stale = False
                timings["build"] += time.perf_counter() - start
            built = self.built
            if built is None or self.blocked:
                return _no_move(position, objective, timings, Status.NO_MOVE)

            start = time.perf_counter()
            eager = len(cat.sets) <= EAGER_FALLBACK_SETS
            efforts = search_efforts(cat, built)
            response = staged_search(
                built.proto, self.seed, self.deadline, eager, self.stop, efforts, widening=built.widens, work=self.work
            )
            status = response.status
            timings["solve"] += time.perf_counter() - start

            start = time.perf_counter()
            if status not in (CP_OPTIMAL, CP_FEASIBLE):
                missing = Status.NO_MOVE if status == CP_INFEASIBLE else Status.UNKNOWN
                return _no_move(position, objective, timings, missing)
            sol = solution_values(response)
            if primary_value(built, cat, sol, objective) <= 0 and not _plays_anything(built, cat, sol):
                timings["decode"] += time.perf_counter() - start
                return _no_move(
                    position, objective, timings, Status.NO_MOVE if status == CP_OPTIMAL else Status.UNKNOWN
                )
            try:
                played, table, kept = decode(position, cat, built, sol, self.anchored)
            except NeedAnchors as need:
                # The relaxed model used a meld it cannot lay out (jokers only, or a run that reads
                # as a group): demand real tiles in those sets and solve again.
                self.anchored = {s: max(self.anchored.get(s, 0), n) for s, n in {**self.anchored, **need.sets}.items()}
                self.stale = True
                timings["decode"] += time.perf_counter() - start
                continue
            value = position.rules.rack_value(played)
            timings["decode"] += time.perf_counter() - start
            break

        start = time.perf_counter()
        self.found = (round(response.objective_value), status == CP_OPTIMAL)
        accepted = referee_accepts(position, table, rejected_ok=lenient and built.relaxed)
        timings["verify"] = time.perf_counter() - start
        if not accepted:
            return None
        return Solution(
            status=Status.OPTIMAL if status == CP_OPTIMAL else Status.FEASIBLE,
            played=played,
            table=table,
            value=value,
            objective=objective,
            position=position,
            kept=kept,
            timings=timings,
        )


class _RelaxedFirst:
    """:class:`_Search` of the model with its rule extensions' relaxations first (``relaxed``).

    A rule extension may write its rule two ways: a restriction that can miss a legal play, and a
    relaxation (``built.relaxed``) whose moves the referee must confirm. Strict joker retrieval
    with jokers on a table that may be rearranged is the one (docs/rules.md, "Jokers on the
    table"): its kept hosts (:mod:`~rummisolve.solver._strict`) restrict the rule, and without
    them the model relaxes it (a kept joker need only stand for the same tile). So the relaxed
    model is searched first; a move of it that the referee accepts is as good as any legal move:
    it is the answer, proven if that search proved it. Else the restricted model's move is the
    answer: proven as the search proved it where the restriction misses no play
    (``built.may_miss``), else ``optimal`` only if it meets the relaxed model's proven optimum,
    ``feasible`` if not, and ``unknown`` if it found no move: never a proof the rule does not
    give. (Searching the relaxed model again with its rejected layouts forbidden found no better
    move on the benchmark and test positions: not done.) Where no extension relaxes anything
    (every other rule; strict retrieval without table jokers or in an official opening), the
    first model is the rule's own and its answer stands."""

    def __init__(
        self,
        position: Position,
        cat: Catalogue,
        objective: Objective,
        seed: int,
        deadline: float | None,
        stop: StopSignal | None = None,
        table: TableCounts | None = None,
        *,
        variant: ModelVariant = SHIPPED,
        work: float | None = None,
    ) -> None:
        self.position = position
        self.make = functools.partial(
            _Search, position, cat, objective, seed, stop=stop, table=table, variant=variant, work=work
        )
        self.deadline = deadline
        self.relaxed = self.make(deadline, relaxed=True)
        self.restricted: _Search | None = None
        self.excluded: list[tuple[tuple[Tile, ...], bool]] = []

    def exclude(self, played: tuple[Tile, ...], contained: bool = False) -> None:
        """Forbid the next searches to play exactly ``played`` (with ``contained``, any part of it too)."""
        self.excluded.append((played, contained))
        for search in (self.relaxed, self.restricted):
            if search is not None:
                search.exclude(played, contained)

    def limit(self, deadline: float | None) -> None:
        """Stop the next searches at ``deadline``."""
        for search in (self.relaxed, self.restricted):
            if search is not None:
                search.limit(deadline)
        self.deadline = deadline

    def next(self) -> Solution:
        """The best move not excluded, its status honest (see the class docstring)."""
        first = self.relaxed.attempt(lenient=True)
        if first is not None:
            return first
        spent = [self.relaxed.timings]
        bound, proven = self.relaxed.found
        if self.restricted is None:
            self.restricted = self.make(self.deadline)
            for played, contained in self.excluded:
                self.restricted.exclude(played, contained)
        best = self.restricted.next()
        spent.append(self.restricted.timings)
        if not self._may_miss():
            status = best.status  # the restricted model is the rule's own here
        else:
            exact = proven and bool(best) and self.restricted.found[0] == bound
            status = best.status if not best else Status.OPTIMAL if exact else Status.FEASIBLE
            if best.status == Status.NO_MOVE:
                status = Status.UNKNOWN  # the relaxed model's move shows none was proven impossible
        timings = {key: sum(t[key] for t in spent) for key in best.timings}
        return dataclasses.replace(best, status=status, timings=timings)

    def _may_miss(self) -> bool:
        """Whether the restricted model may have missed a legal play (``built.may_miss``)."""
        built = None if self.restricted is None else self.restricted.built
        return built is None or built.may_miss


GROUPED_EFFORTS = (0.05, 0.05, 2)
"""Quick-stage budget, target-stage budget and target steps for grouped catalogues (6-8 colours):
their large tables need more than :data:`QUICK_EFFORT` to find a first solution, and the default
budgets sent most of their slowest positions to the full stage (``benchmarks/RESULTS.md``)."""


def search_efforts(cat: Catalogue, built: PositionModel) -> tuple[float, float, int] | None:
    """The staged search's budgets for a built model, when not the defaults: a grouped
    catalogue's, else those its rule extensions ask for (``STRICT_EFFORTS`` in
    :mod:`~rummisolve.solver._strict_rule`, ``TWIST_EFFORTS`` in :mod:`~rummisolve.solver._twist_model`)."""
    if cat.grouped:
        return GROUPED_EFFORTS
    return built.efforts


EAGER_FALLBACK_SETS = 800
"""Up to this many candidate sets (the standard and ``xp`` sets: 185; 5 colours: 358; the grouped
catalogues of 6-8 colours, runs only: 180-240; enumerated, 8 colours would have 2,606) the fallback
search puts the whole linear relaxation into the LP at once."""


def staged_search(
    proto: cmh.CpModelProto,
    seed: int,
    deadline: float | None,
    eager: bool,
    stop: StopSignal | None = None,
    efforts: tuple[float, float, int] | None = None,
    *,
    widening: bool = False,
    upper: int | None = None,
    work: float | None = None,
) -> cmh.CpSolverResponse:
    """Solve ``proto`` in up to three deterministic stages (without a time limit, every answer
    returned is proven).

    1. A quick search without cutting planes, its work capped by :data:`QUICK_EFFORT`: on game
       positions it proves most answers (its nodes are several times cheaper than with cuts).
    2. If it has not, up to :data:`TARGET_STEPS` *target* searches, each as cheap: the objective
       is pinned to the best value not yet ruled out (the quick stage's proven bound first). A
       solution there is optimal; "infeasible" raises the bound by one. When the relaxation is
       tight this settles in one short search what the default search can take several times
       longer to prove.
    3. Else CP-SAT's default search (with cuts) starts afresh, with the whole relaxation in the LP
       from the start when ``eager``. It is told what the earlier stages proved: the objective
       lies between the bound not yet ruled out and one better than the best solution found.
       So it may stop as soon as it finds a solution at that bound, and "infeasible" proves the
       best solution found optimal.

    Work caps, not wall-clock time, stop stages 1 and 2, so the answer is deterministic. A set
    ``stop`` acts like the deadline passing: the running stage stops and no other starts.
    ``efforts``: (quick budget, target budget, target steps) in place of the defaults.
    ``widening`` (Twist, :data:`TWIST_EFFORTS`): the target searches keep CP-SAT's cuts, and each
    one after an infeasible one pins a range twice as wide (1, 2, 4, ... values, below the best
    solution found); a solution in a range is optimal once the search proves it the range's best,
    else it is the incumbent the full stage has to beat.
    ``upper``: an objective value some solution is known to reach (a primal heuristic's, for the
    benchmarks: :func:`~rummisolve.solver.probe.search`; :func:`solve` passes none): every stage
    searches at or below it. ``work``: a cap on all its work (:class:`~rummisolve.solver._work.WorkCap`)."""
    left = None if work is None else WorkCap(work)
    run: Run = run_cpsat if stop is None else functools.partial(run_cpsat, stop=stop)
    run = run if left is None else left.counting(run)
    quick_effort, target_effort, target_steps = efforts or (QUICK_EFFORT, TARGET_EFFORT, TARGET_STEPS)
    objective = proto.objective
    cap = INF if upper is None else upper
    if upper is not None:
        objective.domain.extend([-INF, cap])
    try:
        response = run(proto, sat_parameters(seed, _remaining(deadline), effort=within(quick_effort, left)))
    finally:
        if upper is not None:
            objective.domain.clear()
    if response.status in PROVEN or _expired(deadline, stop, left):
        return response
    incumbent = response if response.status == CP_FEASIBLE else None
    lower = response.best_objective_bound
    bounded = math.isfinite(lower)
    bound = math.ceil(lower - 1e-6) if bounded else 0
    try:
        if bounded:
            budget = (target_effort, target_steps, widening, cap)
            answer, bound, incumbent = _targets(run, proto, seed, deadline, stop, bound, incumbent, budget, left)
            if answer is not None:
                return answer
        if _expired(deadline, stop, left):
            # The caller's time limit, stop or work cap, not the stages' work caps, stopped the search.
            return response if incumbent is None else incumbent
        if bounded or incumbent is not None or upper is not None:
            top = cap if incumbent is None else min(cap, round(incumbent.objective_value) - 1)
            objective.domain.extend([bound if bounded else -INF, top])
        second = run(proto, sat_parameters(seed, _remaining(deadline), eager=eager, work=left.left if left else None))
    finally:
        objective.domain.clear()
    if second.status == CP_INFEASIBLE and incumbent is not None:
        incumbent.status = CP_OPTIMAL  # nothing better than it exists
        return incumbent
    if second.status not in (CP_OPTIMAL, CP_FEASIBLE) and incumbent is not None:
        return incumbent
    if second.status == CP_FEASIBLE and incumbent is not None:
        return min(second, incumbent, key=lambda r: r.objective_value)
    return second


def _targets(
    run: Run,
    proto: cmh.CpModelProto,
    seed: int,
    deadline: float | None,
    stop: StopSignal | None,
    bound: int,
    incumbent: cmh.CpSolverResponse | None,
    budget: tuple[float, int, bool, int],
    left: WorkCap | None = None,
) -> tuple[cmh.CpSolverResponse | None, int, cmh.CpSolverResponse | None]:
    """:func:`staged_search`'s target stage from ``bound``, ``budget`` its (effort, steps,
    widening, cap: no range reaches past it): the answer if proven, else the bound not yet ruled
    out and the best solution found."""
    effort, steps, widening, cap = budget
    objective = proto.objective
    width = 1
    for step in range(steps + 1):
        if incumbent is not None and incumbent.objective_value <= bound:
            incumbent.status = CP_OPTIMAL  # nothing better than the bound exists
            return incumbent, bound, incumbent
        if step == steps:
            break
        top = min(bound + width - 1, cap)
        if incumbent is not None:
            top = min(top, round(incumbent.objective_value) - 1)
        objective.domain.extend([bound, top])
        try:
            target = run(proto, sat_parameters(seed, _remaining(deadline), effort=within(effort, left), cuts=widening))
        finally:
            objective.domain.clear()
        if target.status == CP_OPTIMAL:
            return target, bound, incumbent  # the best of the range, and nothing below it exists
        if target.status == CP_FEASIBLE:
            return None, bound, target  # a range's solution, not proven its best
        if target.status != CP_INFEASIBLE or _expired(deadline, stop, left):
            break
        bound = top + 1
        if widening:
            width *= 2
    return None, bound, incumbent


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(deadline - time.perf_counter(), 1e-3)


def _expired(deadline: float | None, stop: StopSignal | None = None, left: WorkCap | None = None) -> bool:
    """Whether the caller's time is up: the deadline has passed, ``stop`` is set, or the work cap is spent."""
    late = deadline is not None and time.perf_counter() >= deadline
    return late or (stop is not None and stop.is_set()) or (left is not None and left.spent())


def _plays_anything(built: PositionModel, cat: Catalogue, sol: Sequence[int]) -> bool:
    """Whether a solution with a zero primary objective still plays a tile (a zero-point joker)."""
    played_tiles = primary_value(built, cat, sol, "tiles")
    return played_tiles > 0


def _no_move(position: Position, objective: Objective, timings: dict[str, float], status: Status) -> Solution:
    """No move to play: ``no_move`` (proven none exists) or ``unknown`` (none found in time)."""
    kept = tuple(range(len(position.table)))
    return Solution(status, (), position.table, 0, objective, position, kept, timings)


def referee_accepts(position: Position, table: NewTable, rejected_ok: bool = False) -> bool:
    """Whether the referee accepts ``table``; if it does not, ``False`` when ``rejected_ok``, else
    :class:`RefereeRejectedError`."""
    verdict = verify(position, table)
    if verdict.legal:
        return True
    if rejected_ok:
        return False
    reasons = "; ".join(r.message for r in verdict.reasons)
    raise RefereeRejectedError(
        f"the referee rejected the solver's answer ({reasons}) for position {position!r}: please report this bug"
    )
