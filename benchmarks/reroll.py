"""The best re-roll's speed with 9 free dice (issue 35): the whole ranking, and how exact it is.

    python -m benchmarks.reroll [--deals 20] [--seed 0] [--objective tiles] [--max-solves 1200]
                                [--verify 200] [--check 10] [--check-dice 5]

Each deal splits the 18 Xpress dice 9 and 9 and rolls them (seeded); the opponent's best play
of their dice on an empty table is the table, and the player's 9 dice are ranked by
``rummisolve.xpress.best_reroll``. Prints the wall time of the whole ranking (median, p95, max,
milliseconds; and its CPU time, steadier on a shared machine), how many subsets of the 512 were
exact, the distinct racks solved, and the median standard error of the best option (0 where it
is exact).

``--verify S``: the best subset of each deal estimated again from S independent samples: the
mean of those (how good the choice is) and the mean of the ranking's estimate less them (its
bias: the winner's curse when positive).

``--check N``: on N more deals keeping only the first ``--check-dice`` of the player's dice (so
every subset can also be enumerated exactly), how often the ranking's best is the exact best,
the mean shortfall of its exact expectation from the best one's (the regret), how often a
sampled best's estimate lies within two standard errors of its exact expectation, and the
ranking's CPU time (median, max). With 4 dice or fewer the default budget counts every subset
exactly: ``--check 30 --check-dice 4`` shows how many answers are still sampled (none).
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
from rummisolve.xpress.reroll import DEFAULT_MAX_SOLVES

__all__ = ["deal", "measure", "check", "main"]


def deal(seed: int, keep: int = 9) -> tuple[Position, list[FreeDie]]:
    """One seeded deal: the position of the player's first ``keep`` of 9 rolled dice, and those dice."""
    rules = RuleSet.preset("xpress")
    rng = random.Random(seed)
    dice = list(xpress_dice())
    rng.shuffle(dice)
    rolled = [(die, rng.choice(die.faces)) for die in dice]
    theirs, mine = rolled[:9], rolled[9 : 9 + keep]
    opening = solve(Position.from_notation("", [shown for _, shown in theirs], rules=rules))
    table = [list(meld) for meld in opening.table] if opening.table else []
    position = Position.from_notation(table, [shown for _, shown in mine], rules=rules)
    return position, [FreeDie(die, shown) for die, shown in mine]


def independent(
    position: Position, dice: Sequence[FreeDie], subset: tuple[int, ...], objective: str, samples: int
) -> float:
    """The expectation of rolling ``subset`` from ``samples`` rolls of a stream of its own (not the ranking's)."""
    from rummisolve.solution import Objective
    from rummisolve.solver import TableSolver

    rng = random.Random(f"benchmarks.reroll/verify/{samples}")
    tables = TableSolver(position.table, position.rules)
    play = Objective.VALUE if objective == "value" else Objective.TILES
    total = 0.0
    for _ in range(samples):
        rack = [rng.choice(free.die.faces) if i in subset else free.shown for i, free in enumerate(dice)]
        best = tables.solve(rack, position.opened, play)
        played = len(best.played)
        total += {"tiles": played, "value": best.value, "out": float(played == len(rack) and played > 0)}[objective]
    return total / samples


def measure(deals: int, seed: int, objective: str, max_solves: int, verify: int = 0) -> dict[str, float]:
    """The figures over ``deals`` deals (see the module docstring)."""
    times, cpus, exact, solves, stderrs, checked, bias = [], [], [], [], [], [], []
    for index in range(deals):
        position, dice = deal(seed + index)
        start, cpu = time.perf_counter(), time.process_time()
        advice: RerollAdvice = best_reroll(position, dice, objective, max_solves=max_solves)
        times.append((time.perf_counter() - start) * 1e3)
        cpus.append((time.process_time() - cpu) * 1e3)
        exact.append(sum(option.exact for option in advice.options))
        solves.append(advice.solves)
        stderrs.append(advice.best.stderr or 0.0)
        if verify and not advice.best.exact:
            again = independent(position, dice, advice.best.dice, objective, verify)
            checked.append(again)
            bias.append(advice.best.expected.of(objective) - again)
        elif verify:
            checked.append(advice.best.expected.of(objective))
            bias.append(0.0)
    ordered = sorted(times)
    return {
        "deals": deals,
        "median_ms": statistics.median(times),
        "p95_ms": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
        "max_ms": ordered[-1],
        "cpu_median_ms": statistics.median(cpus),
        "cpu_p95_ms": sorted(cpus)[min(len(cpus) - 1, round(0.95 * (len(cpus) - 1)))],
        "exact_subsets_median": statistics.median(exact),
        "subsets": 2**9,
        "solves_median": statistics.median(solves),
        "best_stderr_median": statistics.median(stderrs),
        "verified_mean": statistics.mean(checked) if checked else float("nan"),
        "bias_mean": statistics.mean(bias) if bias else float("nan"),
    }


def check(deals: int, seed: int, objective: str, max_solves: int, keep: int) -> dict[str, float]:
    """The ranking's best against the exact best on ``deals`` deals of ``keep`` free dice (see the docstring)."""
    hits, regrets, covered, sampled, cpus = 0, [], 0, 0, []
    for index in range(deals):
        position, dice = deal(10_000 + seed + index, keep)
        truth = best_reroll(position, dice, objective, max_solves=10**9)
        assert truth.exact
        exact = {o.dice: o.expected.of(objective) for o in truth.options}
        cpu = time.process_time()
        advice = best_reroll(position, dice, objective, max_solves=max_solves)
        cpus.append((time.process_time() - cpu) * 1e3)
        best = advice.best
        hits += exact[best.dice] == truth.best.expected.of(objective)  # a tie with the best is a hit
        regrets.append(truth.best.expected.of(objective) - exact[best.dice])
        if not best.exact:
            sampled += 1
            covered += abs(best.expected.of(objective) - exact[best.dice]) <= 2 * (best.stderr or 0.0)
    return {
        "deals": deals,
        "dice": keep,
        "hits": hits,
        "regret_mean": statistics.mean(regrets),
        "regret_max": max(regrets),
        "sampled_best": sampled,
        "within_2_stderr": covered,
        "cpu_median_ms": statistics.median(cpus),
        "cpu_max_ms": max(cpus),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reroll", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="9-dice deals timed (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--objective", choices=("tiles", "value", "out"), default="tiles")
    parser.add_argument("--max-solves", type=int, default=DEFAULT_MAX_SOLVES)
    parser.add_argument("--verify", type=int, default=0, metavar="S")
    parser.add_argument("--check", type=int, default=0, metavar="N")
    parser.add_argument("--check-dice", type=int, default=5, choices=range(1, 7), metavar="K")
    args = parser.parse_args(argv)
    if args.deals > 0:
        _report(args)
    if args.check:
        got = check(args.check, args.seed, args.objective, args.max_solves, args.check_dice)
        print(
            f"{got['deals']} deals of {got['dice']} free dice: the best is the exact best in {got['hits']}; "
            f"regret {got['regret_mean']:.3f} mean, {got['regret_max']:.3f} max; a sampled best in "
            f"{got['sampled_best']}, its estimate within 2 stderr of the exact in {got['within_2_stderr']}; "
            f"CPU {got['cpu_median_ms']:.0f} ms median, {got['cpu_max_ms']:.0f} ms max"
        )
    return 0


def _report(args: argparse.Namespace) -> None:
    """The 9-dice figures (see the module docstring)."""
    figures = measure(args.deals, args.seed, args.objective, args.max_solves, args.verify)
    print(
        f"{figures['deals']} deals, 9 free dice, objective {args.objective}: ranking of all {figures['subsets']} "
        f"subsets in {figures['median_ms']:.0f} ms median, {figures['p95_ms']:.0f} ms p95, {figures['max_ms']:.0f} ms max "
        f"(CPU {figures['cpu_median_ms']:.0f} ms median, {figures['cpu_p95_ms']:.0f} ms p95); "
        f"{figures['exact_subsets_median']:.0f} subsets exact (median), {figures['solves_median']:.0f} racks solved; "
        f"best option's stderr {figures['best_stderr_median']:.3f} (median)"
    )
    if args.verify:
        print(
            f"the best re-estimated from {args.verify} independent samples: {figures['verified_mean']:.3f} "
            f"{args.objective} (mean); the ranking's estimate less that: {figures['bias_mean']:+.3f} (mean)"
        )


if __name__ == "__main__":
    sys.exit(main())
