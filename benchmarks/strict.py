"""Solve times under strict joker retrieval (docs/rules.md, "Jokers on the table").

    python -m benchmarks.strict [--count 40] [--seed 7] [--repeat 3] [--default-efforts]

Three sets, every position with a joker on the table: ``small``, the 24 small positions
``tests/solver/test_solve.py`` checks against a brute force over the referee; ``std`` and ``xp``, the
first ``--count`` opened positions with table jokers that :func:`benchmarks.positions.random_positions`
(seeds ``--seed`` and ``--seed + 1``) makes under the standard and xp rules with strict retrieval.
Each position is solved for both objectives; a solve's time is the best of ``--repeat`` (wall
clock, one process). Prints, per set, the solves, the total and mean time in ms, the slowest
solve and the tiles and points played in all (so two runs can be seen to answer alike).
``--default-efforts`` searches strict models with the default stage budgets instead of
:data:`rummisolve.solver._strict_rule.STRICT_EFFORTS`.
"""

from __future__ import annotations

import argparse
import random
import time

from benchmarks.positions import random_positions, small_position
from rummisolve import STANDARD, XP, Position, solve
from rummisolve.jsonio import position_from_json

__all__ = ["positions", "measure", "main"]

_NOT_POSITION = ("id", "source", "tiles_in_play")


def positions(count: int = 40, seed: int = 7) -> list[tuple[str, Position]]:
    """The benchmark's positions, as (set name, position)."""
    strict = STANDARD.replace(joker_retrieval="strict")
    out: list[tuple[str, Position]] = []
    rng = random.Random("strict")  # as tests/solver/test_solve.py::_strict_positions
    small = 0
    while small < 24:
        p = small_position(rng, strict, max_tiles=7)
        if any(t.is_joker for t in p.table_tiles) and len(p.table_tiles) + len(p.rack) <= 7:
            out.append(("small", p))
            small += 1
    for name, rules, s in (("std", strict, seed), ("xp", XP.replace(joker_retrieval="strict"), seed + 1)):
        n = 0
        for record in random_positions(s, 50 * count, rules):
            p = position_from_json({k: v for k, v in record.items() if k not in _NOT_POSITION})
            if p.opened and any(t.is_joker for t in p.table_tiles):
                out.append((name, p))
                n += 1
                if n == count:
                    break
    return out


def measure(items: list[tuple[str, Position]], repeat: int = 3) -> dict[str, dict[str, float]]:
    """Per set: solves, total and mean ms, slowest ms, tiles and points played in all."""
    rows: dict[str, dict[str, float]] = {}
    for name, p in items:
        for objective in ("tiles", "value"):
            best = None
            for _ in range(repeat):
                start = time.perf_counter()
                s = solve(p, objective)
                took = time.perf_counter() - start
                best = took if best is None else min(best, took)
            row = rows.setdefault(name, {"solves": 0, "total_ms": 0.0, "slowest_ms": 0.0, "tiles": 0, "points": 0})
            row["solves"] += 1
            row["total_ms"] += best * 1000
            row["slowest_ms"] = max(row["slowest_ms"], best * 1000)
            row["tiles"] += s.tiles_played
            row["points"] += s.value
    for row in rows.values():
        row["mean_ms"] = row["total_ms"] / row["solves"]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.strict", description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40, help="random positions per rule set (default 40)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="solves per position and objective; the best counts")
    parser.add_argument("--default-efforts", action="store_true", help="the default stage budgets for strict models")
    args = parser.parse_args(argv)
    from rummisolve.solver import _solve, _strict_rule

    shipped = getattr(_strict_rule, "STRICT_EFFORTS", None)
    if args.default_efforts:
        _strict_rule.STRICT_EFFORTS = (_solve.QUICK_EFFORT, _solve.TARGET_EFFORT, _solve.TARGET_STEPS)
    try:
        rows = measure(positions(args.count, args.seed), args.repeat)
    finally:
        if shipped is not None:
            _strict_rule.STRICT_EFFORTS = shipped
    for name, row in rows.items():
        print(
            f"{name}: {row['solves']} solves, total {row['total_ms']:.0f} ms, mean {row['mean_ms']:.1f} ms, "
            f"slowest {row['slowest_ms']:.0f} ms, played {row['tiles']} tiles / {row['points']} points"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
