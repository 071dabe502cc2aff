"""The best re-roll (RULES 5.3): which of the player's free dice to roll before the turn's play.

Every subset of the free dice (none included) is ranked by the expectation, under the objective,
of the best play after the roll. A subset is exact when its outcomes are enumerated: the rolled
dice are grouped by their faces (identical dice give the same multiset of faces), so each
distinct multiset of faces is one outcome with its multinomial probability; the rack after the
roll is a multiset, and one solve per distinct rack is shared across all subsets (a rack none of
whose tiles fits any meld of the rack and table together is answered without a solve:
:func:`cannot_play`). With at most :data:`EXACT_DICE` free dice and the default budget (or more)
every subset is exact (their distinct racks are those of rolling them all, at most 6^4 = 1,296:
about the budget), unless ``time_limit`` runs out first; otherwise, when every subset's outcomes fit the solve budget, all are exact; otherwise the smallest subsets are exact
within a quarter of it and the rest are raced (:mod:`rummisolve.xpress.reroll_race`): a few
samples each with a fixed seed and common random numbers, the better half kept and sampled
more, round after round, and the last few estimated again from fresh samples, each sampled
option with its standard error.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, product

from rummisolve.errors import RummisolveError
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.solution import Objective
from rummisolve.tiles import Tile
from rummisolve.xpress.dice import FACES, DiceError, FreeDie
from rummisolve.xpress.reroll_race import Arm, race, summary

__all__ = [
    "Expectation",
    "RerollOption",
    "RerollAdvice",
    "best_reroll",
    "check_free_dice",
    "DEFAULT_MAX_SOLVES",
    "EXACT_SHARE",
    "RackOutcome",
    "EXACT_DICE",
    "cannot_play",
]

DEFAULT_MAX_SOLVES = 1200
"""Distinct racks solved for one ranking (about a millisecond each here), unless every subset is
exact within it; the race's first round and the finalists' fresh samples have minimums, so a
small budget can be overrun."""
EXACT_SHARE = 0.25
"""Share of the budget (in outcomes) for the smallest subsets' exact enumeration when not all fit."""
MAX_DICE = 18
EXACT_DICE = 4
"""With at most this many free dice every subset is enumerated exactly when the solve budget is at
least :data:`DEFAULT_MAX_SOLVES` (measured: 4 free dice take 0.04-0.9 s CPU; the race sampled 4 of 59 such late-game answers)."""

RackOutcome = tuple[int, int, bool]
"""What the best play of one rack reaches: dice played, points shed, every die played."""


@dataclass(frozen=True)
class Expectation:
    """Expected dice played (``tiles``), points shed (``value``), chance of playing every die (``out``)."""

    tiles: float
    value: float
    out: float

    def of(self, objective: Objective | str) -> float:
        """The expectation the objective ranks by."""
        return float(getattr(self, Objective(objective).value if objective != "out" else "out"))


@dataclass(frozen=True)
class RerollOption:
    """Rolling the free dice at rack indices ``dice`` (empty: roll none) and what it is worth."""

    dice: tuple[int, ...]
    expected: Expectation
    exact: bool
    stderr: float | None
    """Standard error of the objective's expectation when sampled; ``None`` when exact."""
    outcomes: int
    """Distinct outcomes enumerated (exact) or the samples behind the estimate (a finalist's fresh ones)."""


@dataclass(frozen=True)
class RerollAdvice:
    """Every subset of the free dice, best first by ``objective``; ``solves``: distinct racks solved.

    When some are sampled, the ranking is the race's (the finalists first, by fresh estimates: see
    :mod:`rummisolve.xpress.reroll_race`), so below the finalists the expectations are not in order.
    ``timed_out``: the time limit stopped the race, and the ranking is the one it had then (the
    finalists' estimates are then the race's, biased upwards)."""

    objective: str
    options: tuple[RerollOption, ...]
    solves: int
    timed_out: bool = False

    @property
    def best(self) -> RerollOption:
        return self.options[0]

    @property
    def exact(self) -> bool:
        """Whether every option is exact."""
        return all(option.exact for option in self.options)


def check_free_dice(position: Position, dice: Sequence[FreeDie]) -> None:
    """:class:`DiceError` unless ``dice`` shows the rack (one die per entry), no die twice, at most 18."""
    if len(dice) > MAX_DICE:
        raise DiceError(f"dice: {len(dice)} dice, but the edition has {MAX_DICE}")
    if len(dice) != len(position.rack):
        raise DiceError(f"dice: {len(dice)} dice for a rack of {len(position.rack)} entries (one die per entry)")
    seen: dict[str, int] = {}
    for index, free in enumerate(dice):
        name = free.die.name
        if name is not None and name in seen:
            raise DiceError(f"dice[{index}]: die {name} is already claimed by dice[{seen[name]}]")
        if name is not None:
            seen[name] = index
    _check_table_dice(position, dice)
    if Counter(free.shown for free in dice) != Counter(position.rack):
        shown = " ".join(str(free.shown) for free in dice)
        raise DiceError(f"dice: the faces shown ({shown}) are not the rack ({' '.join(map(str, position.rack))})")


def _check_table_dice(position: Position, dice: Sequence[FreeDie]) -> None:
    """A face on the table as often as the set has it cannot be on a free die too (that die is on the table)."""
    table = position.table_counts()
    can_show = Counter(tile for free in dice for tile in set(free.die.faces))
    for tile, free in sorted(can_show.items()):
        if table[tile] + free > position.rules.copies_of(tile):
            raise DiceError(
                f"dice: {free} free dice can show {tile} and the table has {table[tile]}, but the set has only "
                f"{position.rules.copies_of(tile)}: a die on the table is claimed as free"
            )


def best_reroll(
    position: Position,
    dice: Sequence[FreeDie],
    objective: Objective | str = "tiles",
    *,
    max_solves: int = DEFAULT_MAX_SOLVES,
    seed: int = 0,
    time_limit: float | None = None,
) -> RerollAdvice:
    """Rank every subset of the free ``dice`` to re-roll (an option's ``dice`` index into ``dice``).

    ``dice``: the player's dice not on the table, showing the faces of ``position.rack``.

    ``objective``: ``"tiles"``, ``"value"`` or ``"out"``; the play after each roll is the solver's
    best by tiles (for ``tiles`` and ``out``) or by value, and all three expectations are of that play.
    Every subset is exact when all their outcomes fit ``max_solves``; otherwise the smallest are exact
    within :data:`EXACT_SHARE` of it and the rest raced within the budget, seeded by ``seed`` (the
    same seed, the same answer). ``time_limit`` (seconds): stop the race then and answer the
    ranking as it stands, flagged ``timed_out`` (the answer then depends on the machine's speed)."""
    from rummisolve.solver import TableSolver

    goal = _objective(objective)
    check_free_dice(position, dice)
    tables = TableSolver(position.table, position.rules)
    play = Objective.VALUE if goal == "value" else Objective.TILES
    table = position.table_counts()

    def outcome(rack: tuple[Tile, ...]) -> RackOutcome:
        if cannot_play(rack, table, position.rules):
            return 0, 0, False
        return _outcome(tables, rack, position, play)

    return rank_rerolls([free.shown for free in dice], dice, goal, _cached(outcome), max_solves, seed, time_limit)


def rank_rerolls(
    rack: Sequence[Tile],
    dice: Sequence[FreeDie],
    goal: str,
    solve: _CachedSolve,
    max_solves: int,
    seed: int,
    time_limit: float | None = None,
) -> RerollAdvice:
    """:func:`best_reroll` over any rack solver (the tests pass an independent one)."""
    started = time.perf_counter()
    subsets = [s for size in range(len(dice) + 1) for s in combinations(range(len(dice)), size)]
    costs = {subset: _outcome_count(dice, subset) for subset in subsets}
    everything = (len(dice) <= EXACT_DICE and max_solves >= DEFAULT_MAX_SOLVES) or sum(costs.values()) <= max_solves
    budget = max_solves if everything else int(max_solves * EXACT_SHARE)
    chosen = []
    for subset in subsets:
        if not everything and costs[subset] > budget:
            break  # smallest first, and no larger subset skips the queue
        budget -= costs[subset]
        chosen.append(subset)
    deadline = None if time_limit is None else started + time_limit
    exact: dict[tuple[int, ...], RerollOption] = {}
    for subset in chosen:
        if deadline is not None and exact and time.perf_counter() > deadline:
            break  # the rest is raced (and says it is sampled)
        exact[subset] = _exact_option(rack, dice, subset, solve)
    column = _COLUMNS[goal]
    if len(exact) == len(subsets):
        options = sorted(exact.values(), key=lambda o: (-o.expected.of(goal), len(o.dice), o.dice))
        return RerollAdvice(goal, tuple(options), solve.solves)
    arms = [Arm(s, exact=exact[s].expected.of(goal)) if s in exact else Arm(s) for s in subsets]
    result = race(rack, dice, column, solve, lambda: solve.solves, arms, max_solves - solve.solves, seed, deadline)
    ranked = []
    for arm in result.arms:
        if arm.exact is not None:
            ranked.append(exact[arm.subset])
            continue
        samples = result.fresh.get(arm.subset) or arm.samples
        means, stderr = summary(samples, column)
        ranked.append(RerollOption(arm.subset, Expectation(*means), False, stderr, len(samples)))
    return RerollAdvice(goal, tuple(ranked), solve.solves, result.timed_out)


_COLUMNS = {"tiles": 0, "value": 1, "out": 2}


class _CachedSolve:
    """One solve per distinct rack multiset."""

    def __init__(self, solve: Callable[[tuple[Tile, ...]], RackOutcome]) -> None:
        self._solve = solve
        self._cache: dict[tuple[Tile, ...], RackOutcome] = {}

    def __call__(self, rack: Sequence[Tile]) -> RackOutcome:
        key = tuple(sorted(rack))
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._solve(key)
        return found

    @property
    def solves(self) -> int:
        return len(self._cache)


def _cached(solve: Callable[[tuple[Tile, ...]], RackOutcome]) -> _CachedSolve:
    return _CachedSolve(solve)


def cached_solve(solve: Callable[[tuple[Tile, ...]], RackOutcome]) -> _CachedSolve:
    """A rack solver caching by rack multiset (for :func:`rank_rerolls`)."""
    return _CachedSolve(solve)


def _objective(objective: Objective | str) -> str:
    value = objective.value if isinstance(objective, Objective) else objective
    if value not in ("tiles", "value", "out"):
        raise DiceError(f"reroll objective: expected 'tiles', 'value' or 'out', got {objective!r}")
    return str(value)


def _outcome(tables: object, rack: tuple[Tile, ...], position: Position, play: Objective) -> RackOutcome:
    try:
        solution = tables.solve(rack, position.opened, play)  # type: ignore[attr-defined]
    except RummisolveError as err:
        raise DiceError(
            f"dice: a roll gives the rack {' '.join(map(str, rack))}, which is not a position: {err}"
        ) from None
    played = len(solution.played)
    return played, solution.value, played == len(rack) and played > 0


def cannot_play(rack: Sequence[Tile], table: Counter[Tile], rules: RuleSet) -> bool:
    """Whether no tile of ``rack`` fits any meld made of the rack's and the table's tiles together
    (``table``: the table's tile counts), so that no move exists; ``False`` when unsure (a joker
    on the rack, special jokers or wrapping runs in the rules). A bound, never a guess: a rack it
    settles has no legal move whatever the table's rearrangement."""
    if rules.wraparound or rules.double_jokers or rules.colour_change_jokers or rules.mirror_jokers:
        return False
    if any(tile.is_any_joker for tile in rack):
        return False
    pool = table + Counter(rack)
    jokers = sum(n for tile, n in pool.items() if tile.is_any_joker)
    size = rules.min_meld_length
    colours = rules.colour_list
    for tile in rack:
        assert tile.colour is not None and tile.number is not None  # not a joker
        others = sum(1 for colour in colours if colour is not tile.colour and pool[Tile(colour, tile.number)])
        if min(others + jokers, len(colours) - 1) >= size - 1:
            return False  # a group
        for start in range(tile.number - size + 1, tile.number + 1):
            if start < 1 or start + size - 1 > rules.numbers:
                continue
            window = range(start, start + size)
            if sum(1 for k in window if k != tile.number and not pool[Tile(tile.colour, k)]) <= jokers:
                return False  # a run
    return True


def _groups(dice: Sequence[FreeDie], subset: tuple[int, ...]) -> list[tuple[tuple[Tile, ...], int]]:
    """The rolled dice grouped by their faces: (faces, how many dice)."""
    counts = Counter(dice[i].die.faces for i in subset)
    return list(counts.items())


def _outcome_count(dice: Sequence[FreeDie], subset: tuple[int, ...]) -> int:
    return math.prod(math.comb(k + FACES - 1, k) for _, k in _groups(dice, subset))


def _multisets(faces: tuple[Tile, ...], k: int) -> Iterator[tuple[tuple[Tile, ...], Fraction]]:
    """Every multiset of faces ``k`` such dice can show, with its probability."""
    for picks in combinations_with_replacement(range(FACES), k):
        ways = math.factorial(k)
        for n in Counter(picks).values():
            ways //= math.factorial(n)
        yield tuple(faces[p] for p in picks), Fraction(ways, FACES**k)


def _exact_option(
    rack: Sequence[Tile], dice: Sequence[FreeDie], subset: tuple[int, ...], solve: _CachedSolve
) -> RerollOption:
    kept = [tile for i, tile in enumerate(rack) if i not in subset]
    tiles = value = out = Fraction(0)
    outcomes = 0
    for parts in product(*(list(_multisets(faces, k)) for faces, k in _groups(dice, subset))):
        chance = math.prod((p for _, p in parts), start=Fraction(1))
        rolled = [t for faces, _ in parts for t in faces]
        played, shed, gone = solve(kept + rolled)
        tiles += chance * played
        value += chance * shed
        out += chance * gone
        outcomes += 1
    return RerollOption(subset, Expectation(float(tiles), float(value), float(out)), True, None, outcomes)
