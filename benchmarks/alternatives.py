"""What alternatives cost: ``solve`` with and without ``alternatives=N`` on the stored game positions.

    python -m benchmarks.alternatives [--count N] [--repeat R] [--out FILE]

For each position that has a move and each objective it times (CPU, best of ``--repeat``) a plain
solve and a solve asking for ``--count`` alternatives, alternating which runs first, and reports
the medians, the median and p90 of the per-solve ratio, and how many alternatives were found.
Writes ``benchmarks/results/alternatives.json`` (and prints a markdown table).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from benchmarks.build import position_of
from rummisolve.solver import solve

HERE = Path(__file__).resolve().parent


def _cpu_ms(function, *args, **kwargs):
    start = time.process_time()
    result = function(*args, **kwargs)
    return (time.process_time() - start) * 1e3, result


def measure(records: list[dict], count: int, repeat: int) -> list[dict]:
    rows = []
    for index, record in enumerate(records):
        position = position_of(record)
        for objective in ("tiles", "value"):
            plain = with_alternatives = float("inf")
            found = 0
            for turn in range(repeat):
                order = (0, 1) if (index + turn) % 2 == 0 else (1, 0)
                for which in order:
                    if which == 0:
                        ms, solution = _cpu_ms(solve, position, objective)
                        plain = min(plain, ms)
                    else:
                        ms, solution = _cpu_ms(solve, position, objective, alternatives=count)
                        with_alternatives = min(with_alternatives, ms)
                        found = len(solution.alternatives)
            if not solution:
                continue
            rows.append(
                {
                    "id": record["id"],
                    "objective": objective,
                    "plain_ms": plain,
                    "alternatives_ms": with_alternatives,
                    "ratio": with_alternatives / plain,
                    "found": found,
                }
            )
    return rows


def summarise(rows: list[dict], count: int) -> str:
    ratios = sorted(row["ratio"] for row in rows)
    p90 = ratios[int(0.9 * (len(ratios) - 1))]
    return "\n".join(
        [
            f"{len(rows)} solves with a move (game positions, both objectives); CPU ms, best of the repeats.",
            "",
            "| measure | median |",
            "|---|---|",
            f"| plain solve | {statistics.median(r['plain_ms'] for r in rows):.2f} ms |",
            f"| solve with alternatives={count} | {statistics.median(r['alternatives_ms'] for r in rows):.2f} ms |",
            f"| ratio per solve (p90 {p90:.2f}) | {statistics.median(ratios):.2f}x |",
            f"| alternatives found | {statistics.median(r['found'] for r in rows):.0f} of {count} |",
            "",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.alternatives", description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=3, help="alternatives asked for (default 3)")
    parser.add_argument("--repeat", type=int, default=2, help="timings per solve, best kept (default 2)")
    parser.add_argument("--limit", type=int, default=None, help="the first N game positions only")
    parser.add_argument("--out", default=str(HERE / "results" / "alternatives.json"), help="where to write the rows")
    args = parser.parse_args(argv)
    if args.count < 1 or args.repeat < 1:
        parser.error("--count and --repeat must be at least 1")
    lines = [line for line in (HERE / "game.jsonl").read_text().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines[: args.limit]]
    solve(position_of(records[0]))  # warm up: imports, the first model pieces
    rows = measure(records, args.count, args.repeat)
    sys.stdout.write(summarise(rows, args.count))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
