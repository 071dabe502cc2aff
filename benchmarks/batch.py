"""Batch throughput: ``solve_many`` on the stored game positions with one worker and with several.

    python -m benchmarks.batch [--positions 1000] [--workers 2] [--repeat 3]

Takes ``--positions`` positions from ``benchmarks/game.jsonl`` (cycling through its 240), solves
them all (most tiles) with ``workers=1`` and with ``--workers``, alternating which goes first over
``--repeat`` rounds, checks that the answers agree, and reports positions per second and the
speed-up. The pool's start-up is part of the time. Writes ``benchmarks/results/batch.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from itertools import cycle, islice
from pathlib import Path

from benchmarks.build import position_of
from rummisolve.batch import solve_many

HERE = Path(__file__).resolve().parent


def _run(positions, workers: int) -> tuple[float, list]:
    start = time.perf_counter()
    solutions = solve_many(positions, "tiles", workers=workers)
    return time.perf_counter() - start, [(s.status, s.played) for s in solutions]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.batch", description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", default=str(HERE / "results" / "batch.json"))
    args = parser.parse_args(argv)
    if min(args.positions, args.workers, args.repeat) < 1:
        parser.error("--positions, --workers and --repeat must be at least 1")
    records = [json.loads(line) for line in (HERE / "game.jsonl").read_text().splitlines() if line.strip()]
    positions = [position_of(r) for r in islice(cycle(records), args.positions)]
    solve_many(positions[:2], workers=1)  # warm up this process
    rounds = []
    for turn in range(args.repeat):
        order = (1, args.workers) if turn % 2 == 0 else (args.workers, 1)
        seconds = {}
        answers = {}
        for workers in order:
            seconds[workers], answers[workers] = _run(positions, workers)
        if answers[1] != answers[args.workers]:
            raise AssertionError("the answers with several workers differ from one worker's")
        rounds.append({"one": seconds[1], "many": seconds[args.workers]})
    one = statistics.median(r["one"] for r in rounds)
    many = statistics.median(r["many"] for r in rounds)
    n = len(positions)
    report = {
        "positions": n,
        "workers": args.workers,
        "rounds": rounds,
        "one_worker_per_second": n / one,
        "workers_per_second": n / many,
        "speed_up": one / many,
    }
    per_round = ", ".join(f"{r['one'] / r['many']:.2f}x" for r in rounds)
    sys.stdout.write(
        f"{n} game positions, median of {args.repeat} rounds: 1 worker {n / one:.0f}/s, "
        f"{args.workers} workers {n / many:.0f}/s, speed-up {one / many:.2f}x (per round: {per_round})\n"
    )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
