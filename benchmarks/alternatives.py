"""What alternatives cost: ``solve`` with and without ``alternatives=N`` on the stored game positions.

    python -m benchmarks.alternatives [--count N] [--repeat R] [--mode MODE] [--out FILE]
                                      [--dense N] [--time-limit SECONDS]

For each position that has a move and each objective it times (CPU, best of ``--repeat``) a plain
solve and a solve asking for ``--count`` alternatives, alternating which runs first, and reports
the medians, the median and p90 of the per-solve ratio, and how many alternatives were found.
Writes ``benchmarks/results/alternatives.json`` (and prints a markdown table). ``--mode``: the
``alternatives_mode`` (default: the solver's own default; a solver without the option has only
the one meaning, ``distinct``).

``--dense N`` also times, in wall-clock seconds, ``N`` dense positions whose whole rack goes
down (:func:`benchmarks.positions.dense_playable_position`: 90 tiles on the table, 16 on the
rack) asking for ``--count`` alternatives within ``--time-limit`` (default 2 s), both objectives
and every mode the solver has: how long each request took against its limit, how many
alternatives it found and with what status. Rows in ``benchmarks/results/alternatives_dense.json``.
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import statistics
import sys
import time
from pathlib import Path

from benchmarks.build import position_of
from benchmarks.positions import dense_playable_position
from rummisolve.solver import solve

MODES = ("not_contained", "distinct") if "alternatives_mode" in inspect.signature(solve).parameters else ("distinct",)
"""The solver's alternatives modes (before issue 38 it had one, without the option)."""

HERE = Path(__file__).resolve().parent


def _cpu_ms(function, *args, **kwargs):
    start = time.process_time()
    result = function(*args, **kwargs)
    return (time.process_time() - start) * 1e3, result


def _options(mode: str | None) -> dict:
    return {} if mode is None or len(MODES) == 1 else {"alternatives_mode": mode}


def measure(records: list[dict], count: int, repeat: int, mode: str | None = None) -> list[dict]:
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
                        ms, solution = _cpu_ms(solve, position, objective, alternatives=count, **_options(mode))
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
    if not rows:
        return "No game position with a move among those chosen.\n"
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


def measure_dense(positions: int, count: int, time_limit: float) -> list[dict]:
    """Wall-clock seconds of each request for ``count`` alternatives on the dense positions."""
    rows = []
    for seed in range(positions):
        position = dense_playable_position(random.Random(seed))
        for objective in ("tiles", "value"):
            for mode in MODES:
                start = time.perf_counter()
                best = solve(position, objective, time_limit, alternatives=count, **_options(mode))
                seconds = time.perf_counter() - start
                rows.append(
                    {
                        "seed": seed,
                        "objective": objective,
                        "mode": mode,
                        "seconds": seconds,
                        "time_limit": time_limit,
                        "over": seconds > time_limit,
                        "status": str(best.status),
                        "played": len(best.played),
                        "found": [str(a.status) for a in best.alternatives],
                    }
                )
    return rows


def summarise_dense(rows: list[dict], count: int, time_limit: float) -> str:
    lines = [
        f"{len({r['seed'] for r in rows})} dense positions (90 tiles on the table, a rack of 16 that all go down), "
        f"both objectives, alternatives={count}, time_limit={time_limit:g} s; wall-clock seconds.",
        "",
        "| mode | requests | median | max | past the limit | alternatives found (optimal / feasible) |",
        "|---|---|---|---|---|---|",
    ]
    for mode in MODES:
        mine = [r for r in rows if r["mode"] == mode]
        seconds = [r["seconds"] for r in mine]
        optimal = sum(s == "optimal" for r in mine for s in r["found"])
        feasible = sum(s == "feasible" for r in mine for s in r["found"])
        over = sum(r["over"] for r in mine)
        lines.append(
            f"| {mode} | {len(mine)} | {statistics.median(seconds):.3f} | {max(seconds):.3f} | {over} | "
            f"{optimal} / {feasible} |"
        )
    return "\n".join([*lines, ""])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.alternatives", description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=3, help="alternatives asked for (default 3)")
    parser.add_argument("--repeat", type=int, default=2, help="timings per solve, best kept (default 2)")
    parser.add_argument("--limit", type=int, default=None, help="the first N game positions only")
    parser.add_argument("--out", default=str(HERE / "results" / "alternatives.json"), help="where to write the rows")
    parser.add_argument("--mode", choices=MODES, default=None, help="alternatives_mode (default: the solver's)")
    parser.add_argument("--dense", type=int, default=0, metavar="N", help="also N dense positions (default 0)")
    parser.add_argument("--time-limit", type=float, default=2.0, help="the dense requests' time limit (default 2)")
    parser.add_argument(
        "--dense-out", default=str(HERE / "results" / "alternatives_dense.json"), help="where to write the dense rows"
    )
    args = parser.parse_args(argv)
    if args.count < 1 or args.repeat < 1:
        parser.error("--count and --repeat must be at least 1")
    if args.dense < 0 or args.time_limit <= 0:
        parser.error("--dense must be at least 0 and --time-limit positive")
    lines = [line for line in (HERE / "game.jsonl").read_text().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines[: args.limit]]
    solve(position_of(records[0]))  # warm up: imports, the first model pieces
    rows = measure(records, args.count, args.repeat, args.mode)
    sys.stdout.write(summarise(rows, args.count))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=1) + "\n")
    if args.dense:
        dense = measure_dense(args.dense, args.count, args.time_limit)
        sys.stdout.write("\n" + summarise_dense(dense, args.count, args.time_limit))
        Path(args.dense_out).write_text(json.dumps(dense, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
