"""Groups counted per number against groups listed (issue 28, part 5): where it pays and why.

    python -m benchmarks.groups [--rules "8 colours|6 colours"] [--per-size 4] [--seed 12] [--rounds 1]

On the scale series' positions (``benchmarks.scale``, a seed of its own, shares 30% to 100% of
the set in play, both objectives), ``rummisolve.solve`` end to end in CPU milliseconds, four
variants in turn on the same positions:

- ``grouped`` (shipped from 6 colours on): the aggregated group block, with the grouped budgets
  (``rummisolve.solver._solve.GROUPED_EFFORTS``);
- ``grouped, default budgets``: the block with the quick/target budgets of the other rule sets;
- ``enumerated``: every group a base set (the private switch ``_candidates.GROUPED_COLOURS``), its
  default budgets;
- ``enumerated, grouped budgets``.

Every answer must agree across the variants (status, the objective's value, melds kept): a
disagreement is printed and the exit status is 1. Rule sets: those of ``benchmarks.scale`` and
``5 colours``, ``5 colours, 3 copies, 4 jokers`` (separated by ``|``, as some names hold commas).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from benchmarks.run import load_average
from benchmarks.scale import RULE_SETS, _positions
from rummisolve import RuleSet, solve
from rummisolve.solver import _candidates, _solve

__all__ = ["VARIANTS", "RULES", "measure", "main"]

RULES = dict(
    RULE_SETS,
    **{
        "5 colours": RuleSet(colours=5, max_players=5),
        "5 colours, 3 copies, 4 jokers": RuleSet(colours=5, copies=3, jokers=4, max_players=5),
    },
)
VARIANTS = ("grouped", "grouped, default budgets", "enumerated", "enumerated, grouped budgets")


def _switches() -> tuple:
    return (
        _candidates.GROUPED_COLOURS,
        _solve.GROUPED_EFFORTS,
        (_solve.QUICK_EFFORT, _solve.TARGET_EFFORT, _solve.TARGET_STEPS),
    )


def _set(switches: tuple) -> None:
    _candidates.GROUPED_COLOURS, _solve.GROUPED_EFFORTS, default = switches
    _solve.QUICK_EFFORT, _solve.TARGET_EFFORT, _solve.TARGET_STEPS = default


def _configure(variant: str, shipped: tuple) -> None:
    """Set the private switches for ``variant``, starting from the ``shipped`` ones."""
    _, grouped_budgets, default = shipped
    _set(shipped)
    _candidates.GROUPED_COLOURS = 1 if variant.startswith("grouped") else 99
    if variant == "grouped, default budgets":
        _solve.GROUPED_EFFORTS = default
    if variant == "enumerated, grouped budgets":
        _solve.QUICK_EFFORT, _solve.TARGET_EFFORT, _solve.TARGET_STEPS = grouped_budgets


def measure(name: str, per_size: int, seed: int) -> tuple[dict[str, list[float]], list[str]]:
    """CPU ms per solve for each variant, and the disagreements found."""
    positions = [
        (p, objective)
        for share, p in _positions(name, RULES[name], per_size, seed)
        if share >= 0.3
        for objective in ("tiles", "value")
    ]
    shipped = _switches()
    times: dict[str, list[float]] = {}
    answers: dict[str, list[tuple]] = {}
    try:
        for variant in VARIANTS:
            _configure(variant, shipped)
            mine = times[variant] = []
            said = answers[variant] = []
            for position, objective in positions:
                start = time.process_time()
                s = solve(position, objective)
                mine.append((time.process_time() - start) * 1000)
                said.append((s.status, len(s.played) if objective == "tiles" else s.value, len(s.kept)))
    finally:
        _set(shipped)
    first = answers[VARIANTS[0]]
    bad = [
        f"{name} #{i} {variant}: {said[i]} against {first[i]}"
        for variant, said in answers.items()
        for i in range(len(first))
        if said[i] != first[i]
    ]
    return times, bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.groups", description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="8 colours, 3 copies, 4 jokers|8 colours|6 colours|5 colours")
    parser.add_argument("--per-size", type=int, default=4)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.rules.split("|") if n.strip()]
    for n in names:
        if n not in RULES:
            parser.error(f"unknown rule set {n!r}; one of: {', '.join(RULES)}")
    print(f"load average before: {load_average()}; CPU ms per solve, shares 30-100%, both objectives")
    bad = []
    for _ in range(args.rounds):
        for name in names:
            times, wrong = measure(name, args.per_size, args.seed)
            bad += wrong
            for variant, ms in times.items():
                ms = sorted(ms)
                print(
                    f"{name} | {variant} | n {len(ms)} | total {sum(ms):.0f} | p50 {statistics.median(ms):.1f} "
                    f"| p90 {ms[int(0.9 * len(ms))]:.0f} | max {ms[-1]:.0f}",
                    flush=True,
                )
    for line in bad:
        print("DISAGREE", line, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
