"""Many racks against one table: ``solve`` one position at a time vs :class:`rummisolve.TableSolver`.

    python -m benchmarks.reuse [--tables 60] [--racks 20] [--repeat 2] [--seed 1] [--out FILE]

Takes ``--tables`` tables spread evenly over ``benchmarks/game.jsonl`` and ``--racks`` racks for
each, as a searching AI makes them: every other one an opponent's rack of 1-8 tiles drawn from
the tiles that position has not seen (the guard's samples, opened), the others the position's own
rack plus one unseen tile (one solve per candidate tile, opened as recorded). Each rack is solved
(most tiles) both ways, ``Position`` construction included: ``solve(Position(table, rack, ...))``
and ``TableSolver(table, rules).solve(rack, ...)``, the solver made once per table and its cost
counted in the totals. The two ways alternate which goes first from table to table; each rack's
CPU time is the best of ``--repeat`` rounds. The answers must agree field by field (timings
aside). Reports CPU ms per rack (median, p90), the totals and racks per second; writes the rows to
``benchmarks/results/reuse.json``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.build import position_of

HERE = Path(__file__).resolve().parent

__all__ = ["racks_for", "measure", "summarise", "main"]


def racks_for(position, count: int, rng: random.Random) -> list[tuple[tuple, bool]]:
    """``count`` racks (with their ``opened`` flag) on ``position``'s table: sampled opponent racks
    and the position's rack plus one unseen tile, alternately."""
    unseen = sorted(position.unseen_counts().elements())
    out = []
    for i in range(count):
        if i % 2 == 0 or not unseen:
            size = min(len(unseen), rng.randint(1, 8))
            out.append((tuple(rng.sample(unseen, size)), True))
        else:
            out.append((position.rack + (rng.choice(unseen),), position.opened))
    return out


def _cpu(function, *args) -> tuple[float, Any]:
    start = time.process_time()
    result = function(*args)
    return time.process_time() - start, result


def measure(records: list[dict[str, Any]], racks: int, repeat: int, seed: int) -> list[dict[str, Any]]:
    """One row per table: per-rack CPU seconds both ways (best of ``repeat``), and the solver's cost."""
    from rummisolve import Position, TableSolver, solve

    rng = random.Random(seed)
    rows = []
    for index, record in enumerate(records):
        position = position_of(record)
        table, rules = position.table, position.rules
        jobs = racks_for(position, racks, rng)
        plain = [float("inf")] * len(jobs)
        reused = [float("inf")] * len(jobs)
        made = float("inf")
        for turn in range(repeat):
            ways = ("plain", "reused") if (index + turn) % 2 == 0 else ("reused", "plain")
            answers = {}
            for way in ways:
                if way == "plain":
                    got = []
                    for i, (rack, opened) in enumerate(jobs):
                        seconds, solution = _cpu(lambda r, o: solve(Position(table, r, o, rules)), rack, opened)
                        plain[i] = min(plain[i], seconds)
                        got.append(solution)
                else:
                    seconds, solver = _cpu(TableSolver, table, rules)
                    made = min(made, seconds)
                    got = []
                    for i, (rack, opened) in enumerate(jobs):
                        seconds, solution = _cpu(solver.solve, rack, opened)
                        reused[i] = min(reused[i], seconds)
                        got.append(solution)
                answers[way] = [dataclasses.replace(s, timings={}) for s in got]
            if answers["plain"] != answers["reused"]:
                raise AssertionError(f"{record['id']}: TableSolver's answers differ from solve's")
        statuses = [s.status.value for s in answers["plain"]]
        rows.append({"id": record["id"], "plain": plain, "reused": reused, "table": made, "statuses": statuses})
    return rows


def _quantiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-rack median and p90 (ms), totals (s, the solver's making included), racks per second."""
    plain = [t for row in rows for t in row["plain"]]
    reused = [t for row in rows for t in row["reused"]]
    total_plain = sum(plain)
    total_reused = sum(reused) + sum(row["table"] for row in rows)
    p50, p90 = _quantiles(plain)
    r50, r90 = _quantiles(reused)
    return {
        "tables": len(rows),
        "racks": len(plain),
        "plain_ms": {"p50": p50 * 1e3, "p90": p90 * 1e3},
        "reused_ms": {"p50": r50 * 1e3, "p90": r90 * 1e3},
        "table_ms": statistics.median(row["table"] for row in rows) * 1e3,
        "plain_s": total_plain,
        "reused_s": total_reused,
        "plain_per_s": len(plain) / total_plain if total_plain else 0.0,
        "reused_per_s": len(reused) / total_reused if total_reused else 0.0,
        "speed_up": total_plain / total_reused if total_reused else 0.0,
    }


def _text(summary: dict[str, Any]) -> str:
    s = summary
    return (
        f"{s['racks']} racks on {s['tables']} tables (CPU ms per rack, best of the rounds):\n"
        f"  solve(Position(...))  p50 {s['plain_ms']['p50']:.3f}  p90 {s['plain_ms']['p90']:.3f}  "
        f"total {s['plain_s']:.3f} s  {s['plain_per_s']:.0f} racks/s\n"
        f"  TableSolver.solve     p50 {s['reused_ms']['p50']:.3f}  p90 {s['reused_ms']['p90']:.3f}  "
        f"total {s['reused_s']:.3f} s  {s['reused_per_s']:.0f} racks/s "
        f"(making the solver: {s['table_ms']:.3f} ms per table)\n"
        f"  speed-up in total CPU time: {s['speed_up']:.3f}x\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reuse", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=60, help="tables from game.jsonl, spread evenly")
    parser.add_argument("--racks", type=int, default=20, help="racks per table")
    parser.add_argument("--repeat", type=int, default=2, help="rounds; each rack's best time counts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(HERE / "results" / "reuse.json"))
    args = parser.parse_args(argv)
    if min(args.tables, args.racks, args.repeat) < 1:
        parser.error("--tables, --racks and --repeat must be at least 1")
    records = [json.loads(line) for line in (HERE / "game.jsonl").read_text().splitlines() if line.strip()]
    step = max(1, len(records) // args.tables)
    chosen = records[::step][: args.tables]
    from rummisolve import Position, solve

    solve(Position.from_notation(["R1 R2 R3"], "R4"))  # load OR-Tools before timing
    rows = measure(chosen, args.racks, args.repeat, args.seed)
    summary = summarise(rows)
    sys.stdout.write(_text(summary))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
