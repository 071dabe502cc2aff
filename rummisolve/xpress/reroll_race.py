"""The race behind :func:`~rummisolve.xpress.best_reroll` for the subsets too big to enumerate.

Successive halving with common random numbers: every subset in the race gets a few samples
(sample ``j`` rolls die ``i`` to the same face in every subset, so subsets are compared on the
same luck); then, round after round, the better half by mean (an exact subset by its exact
value) stays and the survivors' samples are doubled, while the solve budget lasts and more than
:data:`FINALISTS` are left. The finalists are then estimated again from fresh samples (an
independent stream, shared by the finalists), and ranked and reported by those: a mean that won
the race is biased upwards (the winner's curse), a fresh one is not. An option dropped in round
``r`` keeps the estimate of the samples it had then.

Every option's place in the ranking is how far it got (the finalists and every exact subset
first, by their fresh estimate or exact value; then those dropped last; ...), and within a round
by its estimate; so below the first group the expectations are not in order.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rummisolve.tiles import Tile
from rummisolve.xpress.dice import FACES, FreeDie

__all__ = [
    "FINALISTS",
    "FIRST_SAMPLES",
    "FRESH_SHARE",
    "MIN_FRESH",
    "MAX_FRESH",
    "Arm",
    "RaceResult",
    "race",
    "summary",
]

FIRST_SAMPLES = 4
"""Samples of every subset in the race's first round at the least; more when the budget spread
evenly over the rounds allows (few subsets: a surer first cut)."""
FINALISTS = 4
"""Subsets left when the halving stops; they are estimated again from fresh samples."""
FRESH_SHARE = 0.25
"""Share of the solve budget kept for the finalists' fresh samples."""
MIN_FRESH = 16
"""Fresh samples of each sampled finalist at the least, whatever the budget."""
MAX_FRESH = 1024
"""Fresh samples of each sampled finalist at the most."""

RackOutcome = tuple[int, int, bool]
Solve = Callable[[Sequence[Tile]], RackOutcome]


@dataclass
class Arm:
    """One subset in the race: its exact value (``None``: sampled) or its samples so far."""

    subset: tuple[int, ...]
    exact: float | None = None
    samples: list[RackOutcome] = field(default_factory=list)
    reached: int = 0
    """The last round it was in (the finalists: one past the last round)."""

    def score(self, column: int) -> float:
        if self.exact is not None:
            return self.exact
        return sum(float(s[column]) for s in self.samples) / max(1, len(self.samples))


@dataclass(frozen=True)
class RaceResult:
    """The arms in ranking order; per finalist its fresh samples; whether the clock cut it short."""

    arms: tuple[Arm, ...]
    fresh: dict[tuple[int, ...], list[RackOutcome]]
    timed_out: bool
    rounds: int


class _Rolls:
    """Roll vectors drawn lazily from one seeded stream: ``rolls[j][i]`` is die ``i``'s face index."""

    def __init__(self, seed: int | str, dice: int) -> None:
        self._rng = random.Random(seed)
        self._dice = dice
        self._rolls: list[list[int]] = []

    def __getitem__(self, j: int) -> list[int]:
        while len(self._rolls) <= j:
            self._rolls.append([self._rng.randrange(FACES) for _ in range(self._dice)])
        return self._rolls[j]


def race(
    rack: Sequence[Tile],
    dice: Sequence[FreeDie],
    column: int,
    solve: Solve,
    solved: Callable[[], int],
    arms: list[Arm],
    budget: int,
    seed: int,
    deadline: float | None = None,
) -> RaceResult:
    """Race ``arms`` (exact ones take part by their value) within ``budget`` new solves
    (``solved()`` counts the solves so far); ``column`` is the objective's index in a
    :data:`RackOutcome`. ``deadline`` (``time.perf_counter()``): stop there (after the first round,
    which always completes) and answer the ranking as it stands, without fresh samples."""
    start = solved()
    race_budget = budget - int(budget * FRESH_SHARE)
    rolls = _Rolls(seed, len(dice))
    faces = [free.die.faces for free in dice]

    def rack_of(subset: tuple[int, ...], roll: list[int]) -> list[Tile]:
        new = list(rack)
        for i in subset:
            new[i] = faces[i][roll[i]]
        return new

    def late() -> bool:
        return deadline is not None and time.perf_counter() > deadline

    alive = list(arms)
    raced = sum(arm.exact is None for arm in arms)
    halvings = max(1, math.ceil(math.log2(max(2, len(arms) / FINALISTS))))
    first = max(FIRST_SAMPLES, race_budget // max(1, raced * halvings))
    have, target, rounds, timed_out = 0, first, 0, False
    while True:
        before = solved()
        evals = 0
        for arm in alive:
            if arm.exact is not None:
                continue
            if rounds and late():  # the first round always completes: every estimate has samples
                timed_out = True
                break
            for j in range(have, target):
                arm.samples.append(solve(rack_of(arm.subset, rolls[j])))
                evals += 1
        for arm in alive:
            arm.reached = rounds
        have = target
        if timed_out or len(alive) <= FINALISTS:
            break
        alive.sort(key=lambda a: (-a.score(column), len(a.subset), a.subset))
        alive = alive[: max(FINALISTS, (len(alive) + 1) // 2)]
        rounds += 1
        miss = (solved() - before) / max(1, evals)
        sampled = sum(a.exact is None for a in alive)
        target = 2 * have
        if solved() - start + miss * sampled * (target - have) > race_budget:
            break
    alive.sort(key=lambda a: (-a.score(column), len(a.subset), a.subset))
    finalists = alive[:FINALISTS]
    fresh: dict[tuple[int, ...], list[RackOutcome]] = {}
    if not timed_out:
        for arm in finalists:
            arm.reached = rounds + 1
        fresh = _fresh(finalists, rack_of, solve, len(dice), budget - (solved() - start), seed, late)
        timed_out = any(len(v) < MIN_FRESH for v in fresh.values())

    top = max((arm.reached for arm in arms), default=0)

    def rank(arm: Arm) -> tuple[float, float, int, tuple[int, ...]]:
        samples = fresh.get(arm.subset)
        value = arm.score(column) if samples is None else _mean(samples, column)
        # an exact value is as sure as a fresh estimate: it ranks with the finalists, even when
        # the race dropped it against means that luck had lifted
        reached = top if arm.exact is not None else arm.reached
        return (-reached, -value, len(arm.subset), arm.subset)

    return RaceResult(tuple(sorted(arms, key=rank)), fresh, timed_out, rounds)


def _fresh(
    finalists: list[Arm],
    rack_of: Callable[[tuple[int, ...], list[int]], list[Tile]],
    solve: Solve,
    dice: int,
    left: int,
    seed: int,
    late: Callable[[], bool],
) -> dict[tuple[int, ...], list[RackOutcome]]:
    """Fresh samples of the sampled finalists (an independent stream, common to them), as many
    as the budget ``left`` allows and :data:`MIN_FRESH` at the least (fewer only when late)."""
    sampled = [arm for arm in finalists if arm.exact is None]
    fresh: dict[tuple[int, ...], list[RackOutcome]] = {arm.subset: [] for arm in sampled}
    if not sampled:
        return fresh
    rolls = _Rolls(f"rummisolve-reroll-fresh/{seed}", dice)
    count = min(MAX_FRESH, max(MIN_FRESH, left // len(sampled)))
    for j in range(count):
        if late():
            break
        for arm in sampled:
            fresh[arm.subset].append(solve(rack_of(arm.subset, rolls[j])))
    return fresh


def _mean(samples: Sequence[RackOutcome], column: int) -> float:
    return sum(float(s[column]) for s in samples) / max(1, len(samples))


def summary(samples: Sequence[RackOutcome], column: int) -> tuple[tuple[float, float, float], float]:
    """The means of the three columns and the standard error of ``column``'s."""
    n = len(samples)
    means = tuple(sum(float(s[k]) for s in samples) / max(1, n) for k in range(3))
    spread = sum((float(s[column]) - means[column]) ** 2 for s in samples) / max(1, n - 1)
    return (means[0], means[1], means[2]), math.sqrt(spread / max(1, n))
