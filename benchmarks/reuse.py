"""Many racks against one table: ``solve`` one position at a time vs :class:`rummisolve.TableSolver`.

    python -m benchmarks.reuse [--tables 60] [--racks 20] [--repeat 2] [--seed 1] [--colours N] [--out FILE]

Takes ``--tables`` tables spread evenly over ``benchmarks/game.jsonl`` and ``--racks`` racks for
each, as a searching AI makes them: every other one an opponent's rack of 1-8 tiles drawn from
the tiles that position has not seen (the guard's samples, opened), the others the position's own
rack plus one unseen tile (one solve per candidate tile, opened as recorded). Each rack goes
three ways, ``Position`` construction included: ``solve(Position(table, rack, ...))`` (most
tiles), ``TableSolver(table, rules).solve(rack, ...)`` and ``TableSolver.goes_out(rack, ...)``
(the question the AIs' guards ask of ``solve``'s answer), each solver made once per table and its
cost counted in the totals. The ways rotate which goes first from table to table; each rack's
CPU time is the best of ``--repeat`` rounds. ``TableSolver.solve`` must agree with ``solve``
field by field (timings aside), ``goes_out`` with what ``solve``'s answer says. Reports CPU ms
per rack (median, p90), the totals and racks per second; writes the rows to
``benchmarks/results/reuse.json``. ``--colours N`` plays the same tables under the standard rules
with ``N`` colours (6-8: the grouped catalogue), the racks drawn from that larger set.
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

WAYS = ("plain", "reused", "out")


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


def _plain(table, rules):
    from rummisolve import Position, solve

    return lambda rack, opened: solve(Position(table, rack, opened, rules))


def measure(
    records: list[dict[str, Any]], racks: int, repeat: int, seed: int, colours: int | None = None
) -> list[dict[str, Any]]:
    """One row per table: per-rack CPU seconds of each way (best of ``repeat``), and the solver's cost."""
    from rummisolve import Position, TableSolver

    rng = random.Random(seed)
    rows = []
    for index, record in enumerate(records):
        position = position_of(record)
        if colours is not None:
            rules = position.rules.replace(colours=colours, max_players=max(colours, position.rules.max_players))
            position = Position(position.table, position.rack, position.opened, rules)
        table, rules = position.table, position.rules
        jobs = racks_for(position, racks, rng)
        times = {way: [float("inf")] * len(jobs) for way in WAYS}
        made = float("inf")
        for turn in range(repeat):
            order = WAYS if (index + turn) % 2 == 0 else WAYS[::-1]
            answers: dict[str, list] = {}
            for way in order:
                if way == "plain":
                    call = _plain(table, rules)
                else:
                    seconds, solver = _cpu(TableSolver, table, rules)
                    made = min(made, seconds)
                    call = solver.solve if way == "reused" else solver.goes_out
                got = []
                for i, (rack, opened) in enumerate(jobs):
                    seconds, answer = _cpu(call, rack, opened)
                    times[way][i] = min(times[way][i], seconds)
                    got.append(answer)
                answers[way] = got
            plain = [dataclasses.replace(s, timings={}) for s in answers["plain"]]
            if plain != [dataclasses.replace(s, timings={}) for s in answers["reused"]]:
                raise AssertionError(f"{record['id']}: TableSolver.solve's answers differ from solve's")
            outs = [bool(s) and len(s.played) >= len(s.position.rack) - rules.discard for s in plain]
            if outs != answers["out"]:
                raise AssertionError(f"{record['id']}: TableSolver.goes_out differs from solve's answer")
        statuses = [s.status.value for s in plain]
        rows.append({"id": record["id"], **times, "table": made, "statuses": statuses, "goes_out": outs})
    return rows


def _quantiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per way: per-rack median and p90 (ms), total (s; the solvers' making counted for the
    reused ways) and racks per second; the speed-ups in total CPU time over ``plain``."""
    made = sum(row["table"] for row in rows)
    out: dict[str, Any] = {"tables": len(rows), "racks": sum(len(row["plain"]) for row in rows)}
    out["table_ms"] = statistics.median(row["table"] for row in rows) * 1e3
    for way in WAYS:
        values = [t for row in rows for t in row[way]]
        p50, p90 = _quantiles(values)
        total = sum(values) + (made if way != "plain" else 0.0)
        out[way] = {"p50_ms": p50 * 1e3, "p90_ms": p90 * 1e3, "total_s": total, "per_s": len(values) / total}
    for way in WAYS[1:]:
        out[way]["speed_up"] = out["plain"]["total_s"] / out[way]["total_s"]
    out["goes_out"] = sum(sum(row["goes_out"]) for row in rows)
    return out


LABELS = {
    "plain": "solve(Position(...))",
    "reused": "TableSolver.solve",
    "out": "TableSolver.goes_out",
}


def _text(summary: dict[str, Any]) -> str:
    s = summary
    lines = [
        f"{s['racks']} racks on {s['tables']} tables, {s['goes_out']} go out (CPU ms per rack, best of the rounds):"
    ]
    for way in WAYS:
        w = s[way]
        line = f"  {LABELS[way]:22s} p50 {w['p50_ms']:.3f}  p90 {w['p90_ms']:.3f}  total {w['total_s']:.3f} s  {w['per_s']:.0f} racks/s"
        if "speed_up" in w:
            line += f"  {w['speed_up']:.3f}x"
        lines.append(line)
    lines.append(f"  making a TableSolver: {s['table_ms']:.3f} ms per table (in the reused totals)")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reuse", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=60, help="tables from game.jsonl, spread evenly")
    parser.add_argument("--racks", type=int, default=20, help="racks per table")
    parser.add_argument("--repeat", type=int, default=2, help="rounds; each rack's best time counts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--colours", type=int, default=None, help="play the tables with this many colours (4-8)")
    parser.add_argument("--out", default=str(HERE / "results" / "reuse.json"))
    args = parser.parse_args(argv)
    if min(args.tables, args.racks, args.repeat) < 1:
        parser.error("--tables, --racks and --repeat must be at least 1")
    if args.colours is not None and not 4 <= args.colours <= 8:
        parser.error("--colours must be 4 to 8")
    records = [json.loads(line) for line in (HERE / "game.jsonl").read_text().splitlines() if line.strip()]
    step = max(1, len(records) // args.tables)
    chosen = records[::step][: args.tables]
    from rummisolve import Position, solve

    solve(Position.from_notation(["R1 R2 R3"], "R4"))  # load OR-Tools before timing
    rows = measure(chosen, args.racks, args.repeat, args.seed, args.colours)
    summary = summarise(rows)
    sys.stdout.write(_text(summary))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
