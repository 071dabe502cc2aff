"""What explaining a move costs: :func:`rummisolve.explain_solution` on the solver's answers to stored positions.

    python -m benchmarks.explain [--sets game] [--limit N] [--repeat 5] [--out FILE]   # writes benchmarks/results/explain.json

Each position is solved once (``rummisolve.solver.solve``, objective ``tiles``); for each answer
with a move, ``explain_solution`` is timed ``--repeat`` times (wall clock) and its median kept.
Beside it, the referee's share (``verify`` on the same turn, which ``explain`` runs first) and the
solve's own time. Prints p50 / p90 / max in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.build import position_of, stored_records
from benchmarks.run import code_version, load_average, machine
from rummisolve.commands._io import number_option
from rummisolve.explain import explain_solution
from rummisolve.referee import verify
from rummisolve.solver import solve

__all__ = ["measure", "summarise", "main"]

HERE = Path(__file__).resolve().parent


def _median_ms(function, *args, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function(*args)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def measure(records: list[dict[str, Any]], repeat: int = 5, objective: str = "tiles") -> list[dict[str, Any]]:
    """One row per position whose answer is a move: the explain, verify and solve times (ms) and the steps."""
    rows = []
    for record in records:
        position = position_of(record)
        solution = solve(position, objective)
        if not solution:
            continue
        explanation = explain_solution(solution)  # warm: the first call of a meld fills the meld caches
        rows.append(
            {
                "id": record.get("id"),
                "melds_before": len(position.table),
                "melds_after": len(solution.table),
                "moves": explanation.moves,
                "played": len(solution.played),
                "explain_ms": _median_ms(explain_solution, solution, repeat=repeat),
                "verify_ms": _median_ms(verify, position, solution.table, repeat=repeat),
                "solve_ms": sum(solution.timings.values()) * 1e3,
            }
        )
    return rows


def _stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "p50": round(statistics.median(ordered), 4),
        "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 4),
        "max": round(ordered[-1], 4),
    }


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """p50 / p90 / max of each time, and how many tiles move beyond those played."""
    if not rows:
        return {"moves": 0}
    return {
        "moves": len(rows),
        "explain_ms": _stats([r["explain_ms"] for r in rows]),
        "verify_ms": _stats([r["verify_ms"] for r in rows]),
        "explain_without_verify_ms": _stats([r["explain_ms"] - r["verify_ms"] for r in rows]),
        "solve_ms": _stats([r["solve_ms"] for r in rows]),
        "steps": _stats([float(r["moves"]) for r in rows]),
        "table_tiles_moved": sum(r["moves"] - r["played"] for r in rows),
    }


def _report(summary: dict[str, Any]) -> str:
    if not summary["moves"]:
        return "No position had a move.\n"
    lines = [
        f"{summary['moves']} answers with a move; wall ms, median of the repeats per answer.",
        "",
        "| measure | p50 | p90 | max |",
        "|---|---|---|---|",
    ]
    for name in ("explain_ms", "verify_ms", "explain_without_verify_ms", "solve_ms", "steps"):
        s = summary[name]
        lines.append(f"| {name} | {s['p50']:.3f} | {s['p90']:.3f} | {s['max']:.3f} |")
    lines.append("")
    lines.append(f"Table tiles moved (steps beyond the rack tiles played), in all: {summary['table_tiles_moved']}.")
    return "\n".join(lines) + "\n"


_POSITIVE = number_option(int, "a whole number", 1, float("inf"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.explain", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="game", help="comma-separated stored sets (default: game)")
    parser.add_argument("--limit", type=_POSITIVE, default=None, help="positions per set (the first N)")
    parser.add_argument("--repeat", type=_POSITIVE, default=5, help="timed calls per answer (the median is kept)")
    parser.add_argument("--data", default=str(HERE), help="directory of the .jsonl sets")
    parser.add_argument(
        "--out", default=str(HERE / "results" / "explain.json"), help="default: benchmarks/results/explain.json"
    )
    args = parser.parse_args(argv)
    records = stored_records(parser, args.data, args.sets, args.limit)
    load_before = load_average()
    rows = measure(records, args.repeat)
    summary = summarise(rows)
    meta = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "python": platform.python_version(),
        "code": code_version(),
        "command": "python -m benchmarks.explain " + " ".join(argv if argv is not None else sys.argv[1:]),
        "positions": len(records),
        "repeat": args.repeat,
        "load_average_before_after": [load_before, load_average()],
    }
    sys.stdout.write(_report(summary))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"meta": meta, "summary": summary, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
