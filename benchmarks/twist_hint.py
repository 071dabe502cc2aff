"""How much a primal heuristic could give Twist at most: the search handed the optimum as its hint.

    python -m benchmarks.twist_hint [--objective tiles] [--sets twist,game]

A primal heuristic (the standard-rules optimum with special jokers read as plain jokers, then
repaired; a greedy placement of the rack's special jokers; ...) hands CP-SAT a first solution.
The best it can do is to guess the optimum itself, so this times, per stored position, the shipped
staged search with no hint and with a perfect one (every variable at its value in the search's own
answer: ``rummisolve.solver.probe.search``), CPU time, model building excluded. If the perfect hint
leaves Twist over its targets, no heuristic meets them and the time is the proof of optimality, not
the finding of a solution.
"""

from __future__ import annotations

import argparse
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


def timings(positions: Sequence[Position], objective: str) -> tuple[list[float], list[float]]:
    """CPU ms of the staged search per position that reaches CP-SAT: unhinted, then hinted with its answer."""
    plain, hinted = [], []
    for position in positions:
        model = probe.model_of(position, objective)
        if model is None:
            continue
        start = time.process_time()
        answer = probe.search(model)
        plain.append((time.process_time() - start) * 1e3)
        start = time.process_time()
        again = probe.search(model, hint=answer)
        hinted.append((time.process_time() - start) * 1e3)
        assert again.objective_value == answer.objective_value, "a hint changed the optimum"
    return plain, hinted


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
    game, _ = timings(_positions("game", args.limit), args.objective)
    plain, hinted = timings(_positions("twist", args.limit), args.objective)
    base = statistics.median(game)
    print(_line("game, no hint", game))
    print(_line("twist, no hint", plain) + f"; p50 {statistics.median(plain) / base:.1f}x game")
    print(_line("twist, the optimum as hint", hinted) + f"; p50 {statistics.median(hinted) / base:.1f}x game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
