"""The exact shortcut before CP-SAT (issue 28, part 2): how often it fires and what it saves.

    python -m benchmarks.shortcut [--sets game,random] [--limit N] [--rounds 15]

Per set: how many solves (positions x objectives) the shortcut answers; on those, the median
wall time of ``rummisolve.solve`` with the shortcut and without it (the model), the two
alternating solve by solve for ``--rounds`` rounds; on all the others, the median time the
shortcut takes to decline (what it costs where it does not fire). Beside them, the ``no_move``
solves answered before any model is built (no rack tile in a fillable base set) and those CP-SAT
proves, with the median time of each. Milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from benchmarks.build import position_of
from benchmarks.run import load
from rummisolve import solve
from rummisolve.solver import probe

__all__ = ["measure", "main"]


NO_SHORTCUT = probe.ModelVariant(shortcut=False)


def _ms(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return (time.perf_counter() - start) * 1e3


def measure(records: list[dict], rounds: int) -> dict:
    """The figures of one set (see the module docstring)."""
    positions = [position_of(r) for r in records]
    fires = [p for p in positions if probe.shortcut_fires(p)]
    others = [p for p in positions if p not in fires]
    declines = [_ms(probe.shortcut_fires, p) for p in others]
    fast, model = [], []
    for _ in range(rounds):
        for position in fires:
            for objective in ("tiles", "value"):
                fast.append(_ms(solve, position, objective))
                model.append(_ms(probe.solve_variant, position, objective, NO_SHORTCUT))
    early, proved = [], []
    for position in others:
        for objective in ("tiles", "value"):
            took = _ms(solve, position, objective)
            if solve(position, objective).status == "no_move":
                (early if probe.model_of(position, objective) is None else proved).append(took)
    median = lambda xs: round(statistics.median(xs), 3) if xs else None  # noqa: E731
    return {
        "solves": 2 * len(positions),
        "fires": 2 * len(fires),
        "shortcut_ms": median(fast),
        "model_ms": median(model),
        "decline_ms": median(declines),
        "no_move_before_model": len(early),
        "before_model_ms": median(early),
        "no_move_by_cp_sat": len(proved),
        "cp_sat_ms": median(proved),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.shortcut", description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="game,random")
    parser.add_argument("--limit", type=int, default=None, help="positions per set (spread over sizes)")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args(argv)
    for name in args.sets.split(","):
        figures = measure(load([name], limit=args.limit), args.rounds)
        print(name, " ".join(f"{k}={v}" for k, v in figures.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
