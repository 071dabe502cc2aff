"""The best re-roll (RULES 5.3): which of the player's free dice to roll before the turn's play.

Every subset of the free dice (none included) is ranked by the expectation, under the objective,
of the best play after the roll. A subset is exact when its outcomes are enumerated: the rolled
dice are grouped by their faces (identical dice give the same multiset of faces), so each
distinct multiset of faces is one outcome with its multinomial probability; the rack after the
roll is a multiset, and one solve per distinct rack is shared across all subsets. Subsets whose
outcomes do not fit the solve budget are sampled instead, with a fixed seed and common random
numbers (sample ``j`` rolls die ``i`` to the same face in every subset), and carry a standard error.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, product

from rummisolve.errors import RummisolveError
from rummisolve.position import Position
from rummisolve.solution import Objective
from rummisolve.tiles import Tile
from rummisolve.xpress.dice import FACES, DiceError, FreeDie

__all__ = [
    "Expectation",
    "RerollOption",
    "RerollAdvice",
    "best_reroll",
    "check_free_dice",
    "DEFAULT_MAX_SOLVES",
    "MIN_SAMPLES",
    "RackOutcome",
]

DEFAULT_MAX_SOLVES = 600
"""Solves the exact subsets may take before the larger subsets are sampled (about a second here)."""
MIN_SAMPLES = 4
"""Samples of a sampled subset at the least, whatever the budget."""
MAX_DICE = 18

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
    """Distinct outcomes enumerated (exact) or samples drawn."""


@dataclass(frozen=True)
class RerollAdvice:
    """Every subset of the free dice, best first by ``objective``; ``solves``: distinct racks solved."""

    objective: str
    options: tuple[RerollOption, ...]
    solves: int

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
) -> RerollAdvice:
    """Rank every subset of the free ``dice`` to re-roll (an option's ``dice`` index into ``dice``).

    ``dice``: the player's dice not on the table, showing the faces of ``position.rack``.

    ``objective``: ``"tiles"``, ``"value"`` or ``"out"``; the play after each roll is the solver's
    best by tiles (for ``tiles`` and ``out``) or by value, and all three expectations are of that play.
    Subsets are exact smallest first while their outcomes fit ``max_solves``; the rest are sampled
    (the leftover budget shared, at least :data:`MIN_SAMPLES` each, seeded by ``seed``)."""
    from rummisolve.solver import TableSolver

    goal = _objective(objective)
    check_free_dice(position, dice)
    tables = TableSolver(position.table, position.rules)
    play = Objective.VALUE if goal == "value" else Objective.TILES
    return rank_rerolls([free.shown for free in dice], dice, goal, _cached(lambda rack: _outcome(tables, rack, position, play)),
                        max_solves, seed)


def rank_rerolls(
    rack: Sequence[Tile],
    dice: Sequence[FreeDie],
    goal: str,
    solve: _CachedSolve,
    max_solves: int,
    seed: int,
) -> RerollAdvice:
    """:func:`best_reroll` over any rack solver (the tests pass an independent one)."""
    subsets = [s for size in range(len(dice) + 1) for s in combinations(range(len(dice)), size)]
    exact_costs, budget, chosen = [], max_solves, set()
    for subset in subsets:
        cost = _outcome_count(dice, subset)
        if cost <= budget:
            budget -= cost
            chosen.add(subset)
        exact_costs.append(cost)
    sampled = [s for s in subsets if s not in chosen]
    samples = max(MIN_SAMPLES, budget // max(1, len(sampled)))
    rng = random.Random(seed)
    rolls = [[rng.randrange(FACES) for _ in dice] for _ in range(samples)]
    options = []
    for subset in subsets:
        if subset in chosen:
            options.append(_exact_option(rack, dice, subset, solve))
        else:
            options.append(_sampled_option(rack, dice, subset, solve, rolls, goal))
    options.sort(key=lambda o: (-o.expected.of(goal), len(o.dice), o.dice))
    return RerollAdvice(goal, tuple(options), solve.solves)


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
        raise DiceError(f"dice: a roll gives the rack {' '.join(map(str, rack))}, which is not a position: {err}") from None
    played = len(solution.played)
    return played, solution.value, played == len(rack) and played > 0


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


def _exact_option(rack: Sequence[Tile], dice: Sequence[FreeDie], subset: tuple[int, ...], solve: _CachedSolve) -> RerollOption:
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


def _sampled_option(
    rack: Sequence[Tile],
    dice: Sequence[FreeDie],
    subset: tuple[int, ...],
    solve: _CachedSolve,
    rolls: list[list[int]],
    goal: str,
) -> RerollOption:
    results = []
    for roll in rolls:
        new = [dice[i].die.faces[roll[i]] if i in subset else tile for i, tile in enumerate(rack)]
        results.append(solve(new))
    n = len(results)
    means = [sum(float(r[k]) for r in results) / n for k in range(3)]
    expected = Expectation(means[0], means[1], means[2])
    column = {"tiles": 0, "value": 1, "out": 2}[goal]
    spread = sum((float(r[column]) - means[column]) ** 2 for r in results) / max(1, n - 1)
    return RerollOption(subset, expected, False, math.sqrt(spread / n), n)
