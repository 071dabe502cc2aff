"""What a primal heuristic gives Twist, and could give at most: the search handed the optimum as its hint.

    python -m benchmarks.twist_hint [--objective tiles] [--limit N]

A primal heuristic (the standard-rules optimum with special jokers read as plain jokers, then
repaired; a greedy placement of the rack's special jokers; ...) hands CP-SAT a first solution.
The best it can do is to guess the optimum itself, so this times, per stored position, the shipped
staged search with no hint and with a perfect one (every variable at its value in the search's own
answer: ``rummisolve.solver.probe.search``), CPU time, model building excluded. If the perfect hint
leaves Twist over its targets, no heuristic meets them and the time is the proof of optimality, not
the finding of a solution. Beside them: the optimum's value alone as a bound (``upper``), and the
heuristic of :mod:`rummisolve.solver._twist_heuristic` (``probe.heuristic``: the best move that
moves no special joker) handed over as hint and bound, its own time counted.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from rummisolve import Position, RuleSet
from rummisolve.solver import probe

HERE = Path(__file__).resolve().parent

__all__ = ["timings", "main"]


def _positions(name: str, limit: int | None) -> list[Position]:
    out = []
    for line in (HERE / f"{name}.jsonl").read_text().splitlines()[:limit]:
        row = json.loads(line)
        rules = RuleSet.preset(row["rules"])
        out.append(Position.from_notation(row["table"], row["rack"], opened=row["opened"], rules=rules))
    return out


COLUMNS = ("no hint", "the optimum as hint", "the optimum as bound", "heuristic: hint and bound")


def timings(positions: Sequence[Position], objective: str) -> list[list[float]]:
    """CPU ms of the staged search per position that reaches CP-SAT, one list per :data:`COLUMNS`
    (the heuristic's own search counted in its column); each answer's value checked against the first."""
    rows: list[list[float]] = [[] for _ in COLUMNS]
    for position in positions:
        model = probe.model_of(position, objective)
        if model is None:
            continue
        start = time.process_time()
        answer = probe.search(model)
        rows[0].append((time.process_time() - start) * 1e3)
        best = round(answer.objective_value)
        runs = (
            functools.partial(probe.search, model, hint=answer),
            functools.partial(probe.search, model, upper=best),
            functools.partial(_heuristic, model),
        )
        for column, run in enumerate(runs, start=1):
            start = time.process_time()
            again = run()
            rows[column].append((time.process_time() - start) * 1e3)
            assert round(again.objective_value) == best, f"{COLUMNS[column]} changed the optimum"
    return rows


def _heuristic(model: probe.Model) -> probe.SearchResult:
    found = probe.heuristic(model)
    if found is None:
        return probe.search(model)
    return probe.search(model, hint=found, upper=round(found.objective_value))


def _line(label: str, ms: list[float]) -> str:
    return (
        f"{label}: {len(ms)} searches, p50 {statistics.median(ms):.1f} ms, "
        f"{sum(m > 200 for m in ms)} over 200 ms, max {max(ms):.0f} ms"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.twist_hint", description=__doc__.splitlines()[0])
    parser.add_argument("--objective", choices=("tiles", "value"), default="tiles")
    parser.add_argument("--limit", type=int, default=None, help="positions per set (default: all)")
    args = parser.parse_args(argv)
    game = timings(_positions("game", args.limit), args.objective)[0]
    twist = timings(_positions("twist", args.limit), args.objective)
    base = statistics.median(game)
    print(_line("game, no hint", game))
    for label, ms in zip(COLUMNS, twist):
        print(_line(f"twist, {label}", ms) + f"; p50 {statistics.median(ms) / base:.1f}x game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
