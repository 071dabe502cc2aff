"""Headroom: how fast could rummisolve's CP-SAT solve be on stored positions, at best?

    python -m benchmarks.floor [--sets game] [--limit N] [--out FILE]   # writes benchmarks/results/floor.{json,md}

For each position and objective that reaches CP-SAT it times, in CPU milliseconds (best of two
runs, the three measures in alternating order so that none always runs first):

- ``search``: the shipped search (``rummisolve.solver._solve.staged_search``) on the built model;
- ``hinted``: the same search on the same model, given the optimal solution found by ``search``
  as a complete hint, so it only has to confirm and prove it (what a perfect heuristic could
  give);
- ``load``: CP-SAT stopped at once (deterministic-time limit ~0): loading the model, no search.

Beside them, the median Python phases of ``solve_json`` on the same positions (parse, build,
decode, verify, encode). ``load`` + Python is the end-to-end time no search strategy can go
below with this model; ``hinted`` + Python is what a perfect first guess would give.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.build import CONTRACT_KEYS, position_of, stored_records
from rummisolve import solve_json
from rummisolve.solver import probe

__all__ = ["measure", "summarise", "main"]

HERE = Path(__file__).resolve().parent
MEASURES = ("search", "hinted", "load")
PHASES = ("parse", "build", "decode", "verify", "encode")


def _cpu_ms(function, *args) -> tuple[float, Any]:
    start = time.process_time()
    result = function(*args)
    return (time.process_time() - start) * 1e3, result


def measure(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (position, objective) whose model reaches CP-SAT."""
    rows = []
    for record in records:
        position = position_of(record)
        for objective in ("tiles", "value"):
            model = probe.model_of(position, objective)
            if model is None:
                continue
            first = probe.search(model)
            calls = {
                "search": (probe.search, model),
                "hinted": (probe.search, model, first),
                "load": (probe.load, model),
            }
            best = dict.fromkeys(MEASURES, float("inf"))
            order = list(MEASURES) if len(rows) % 2 == 0 else list(reversed(MEASURES))
            for _ in range(2):
                for name in order:
                    ms, response = _cpu_ms(*calls[name])
                    best[name] = min(best[name], ms)
                    if name == "hinted" and round(response.objective_value) != round(first.objective_value):
                        raise AssertionError(f"{record['id']} {objective}: the hinted search found another optimum")
            contract = {k: record[k] for k in CONTRACT_KEYS if k in record}
            phases = dict.fromkeys(PHASES, float("inf"))
            for _ in range(2):
                timings = solve_json({**contract, "objective": objective})["timings"]
                for phase in PHASES:
                    phases[phase] = min(phases[phase], timings[phase] * 1e3)
            rows.append({"id": record["id"], "objective": objective, **best, "python": sum(phases.values()), **phases})
    return rows


def _quantiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    n = len(ordered)
    return statistics.median(ordered), ordered[int(0.9 * (n - 1))], ordered[int(0.99 * (n - 1))]


def summarise(rows: list[dict[str, Any]]) -> str:
    """A markdown table of p50 / p90 / p99 per measure, and the two end-to-end floors."""
    if not rows:
        return "No position reached CP-SAT.\n"
    lines = [
        f"{len(rows)} solves that reach CP-SAT; CPU ms, best of two runs each.",
        "",
        "| measure | p50 | p90 | p99 |",
        "|---|---|---|---|",
    ]
    for name in (*MEASURES, "python", *PHASES):
        p50, p90, p99 = _quantiles([row[name] for row in rows])
        lines.append(f"| {name} | {p50:.2f} | {p90:.2f} | {p99:.2f} |")
    python = statistics.median(row["python"] for row in rows)
    lines.append("")
    for name, what in (("load", "no search at all"), ("hinted", "a perfect first guess")):
        total = statistics.median(row[name] + row["python"] for row in rows)
        lines.append(f"- End-to-end median with {what} ({name} + Python): {total:.2f} ms (Python alone {python:.2f}).")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.floor", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="game", help="comma-separated stored sets (default: game)")
    parser.add_argument("--limit", type=int, default=None, help="positions per set (the first N)")
    parser.add_argument("--data", default=str(HERE), help="directory of the .jsonl sets")
    parser.add_argument(
        "--out",
        default=str(HERE / "results" / "floor.json"),
        help="where to write the rows as JSON (default: benchmarks/results/floor.json; beside it floor.md)",
    )
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        parser.error(f"--limit must be at least 1, not {args.limit}")
    records = stored_records(parser, args.data, args.sets, args.limit)
    rows = measure(records)
    table = summarise(rows)
    sys.stdout.write(table)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=1) + "\n")
    out.with_suffix(".md").write_text(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
