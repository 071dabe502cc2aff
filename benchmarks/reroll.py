"""The best re-roll's speed with 9 free dice (issue 35): the whole ranking, and how exact it is.

    python -m benchmarks.reroll [--deals 20] [--seed 0] [--objective tiles] [--max-solves 600]

Each deal splits the 18 Xpress dice 9 and 9 and rolls them (seeded); the opponent's best play
of their dice on an empty table is the table, and the player's 9 dice are ranked by
``rummisolve.xpress.best_reroll``. Prints the wall time of the whole ranking (median, p95, max,
milliseconds), how many subsets of the 512 were exact, the distinct racks solved, and the median
standard error of the best option (0 where it is exact).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence

from rummisolve import Position, RuleSet, solve
from rummisolve.xpress import FreeDie, RerollAdvice, best_reroll, xpress_dice

__all__ = ["deal", "measure", "main"]


def deal(seed: int) -> tuple[Position, list[FreeDie]]:
    """One seeded deal: the position of the player's 9 rolled dice, and those dice."""
    rules = RuleSet.preset("xpress")
    rng = random.Random(seed)
    dice = list(xpress_dice())
    rng.shuffle(dice)
    rolled = [(die, rng.choice(die.faces)) for die in dice]
    theirs, mine = rolled[:9], rolled[9:]
    opening = solve(Position.from_notation("", [shown for _, shown in theirs], rules=rules))
    table = [list(meld) for meld in opening.table] if opening.table else []
    position = Position.from_notation(table, [shown for _, shown in mine], rules=rules)
    return position, [FreeDie(die, shown) for die, shown in mine]


def measure(deals: int, seed: int, objective: str, max_solves: int) -> dict[str, float]:
    """The figures over ``deals`` deals (see the module docstring)."""
    times, exact, solves, stderrs = [], [], [], []
    for index in range(deals):
        position, dice = deal(seed + index)
        start = time.perf_counter()
        advice: RerollAdvice = best_reroll(position, dice, objective, max_solves=max_solves)
        times.append((time.perf_counter() - start) * 1e3)
        exact.append(sum(option.exact for option in advice.options))
        solves.append(advice.solves)
        stderrs.append(advice.best.stderr or 0.0)
    ordered = sorted(times)
    return {
        "deals": deals,
        "median_ms": statistics.median(times),
        "p95_ms": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
        "max_ms": ordered[-1],
        "exact_subsets_median": statistics.median(exact),
        "subsets": 2**9,
        "solves_median": statistics.median(solves),
        "best_stderr_median": statistics.median(stderrs),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reroll", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--objective", choices=("tiles", "value", "out"), default="tiles")
    parser.add_argument("--max-solves", type=int, default=600)
    args = parser.parse_args(argv)
    figures = measure(args.deals, args.seed, args.objective, args.max_solves)
    print(
        f"{figures['deals']} deals, 9 free dice, objective {args.objective}: ranking of all {figures['subsets']} "
        f"subsets in {figures['median_ms']:.0f} ms median, {figures['p95_ms']:.0f} ms p95, {figures['max_ms']:.0f} ms max; "
        f"{figures['exact_subsets_median']:.0f} subsets exact (median), {figures['solves_median']:.0f} racks solved; "
        f"best option's stderr {figures['best_stderr_median']:.3f} (median)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
