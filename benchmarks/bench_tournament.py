"""Tournament benchmark: win rates, a long legality run, and games per second per AI level.

Every game of every stage is logged per turn and each logged play is re-checked here by the
referee from the logged position alone (independent of the engine, which also checks every move
and the conservation of tiles after every turn and would raise on a lost or duplicated tile).

    python -m benchmarks.bench_tournament --stage hard-medium --games 500 --seed 1
    python -m benchmarks.bench_tournament --stage medium-easy --games 200 --seed 2
    python -m benchmarks.bench_tournament --stage long --games 1000 --seed 3
    python -m benchmarks.bench_tournament --stage speed --games 20 --seed 4

Results (one JSON object per stage) are appended to benchmarks/results/results_game.jsonl.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rummisolve import verify
from rummisolve.game.tournament import format_summary, run_tournament
from rummisolve.jsonio import position_from_json

STAGES = {
    "hard-medium": ["hard,medium"],
    "medium-easy": ["medium,easy"],
    "long": ["hard,medium", "medium,easy", "hard,easy", "hard,medium,easy", "medium,medium,medium,medium"],
    "speed": ["easy,easy", "medium,medium", "hard,hard"],
}


class Checker:
    """Re-checks every logged play with the referee and counts what it saw."""

    def __init__(self) -> None:
        self.plays = 0
        self.draws = 0
        self.illegal = 0
        self.games = 0

    def __call__(self, result: dict) -> None:
        self.games += 1
        for line in result["log"]:
            if line["action"] == "draw":
                self.draws += 1
                continue
            self.plays += 1
            position = position_from_json(line["position"])
            if not verify(position, line["table"]).legal:
                self.illegal += 1


def run_stage(stage: str, games: int, seed: int, workers: int) -> list[dict]:
    out = []
    for players in STAGES[stage]:
        kinds = players.split(",")
        checker = Checker()
        summary = run_tournament(
            kinds, games, seed, workers=1 if stage == "speed" else workers, on_game=checker, log=True
        )
        summary.update(
            stage=stage,
            seed=seed,
            workers=1 if stage == "speed" else workers,
            rechecked_plays=checker.plays,
            rechecked_draws=checker.draws,
            illegal_on_recheck=checker.illegal,
        )
        print(f"[{stage}] {players}  seed {seed}")
        print(format_summary(summary))
        print(f"  re-checked {checker.plays} plays: {checker.illegal} illegal; {checker.draws} draws", flush=True)
        out.append(summary)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_tournament", description=__doc__.splitlines()[0])
    parser.add_argument("--stage", choices=sorted(STAGES), required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default=str(Path(__file__).with_name("results") / "results_game.jsonl"))
    args = parser.parse_args()
    start = time.perf_counter()
    summaries = run_stage(args.stage, args.games, args.seed, args.workers)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "a", encoding="utf-8") as f:
        for s in summaries:
            s["stage_wall_seconds"] = time.perf_counter() - start
            f.write(json.dumps(s) + "\n")


if __name__ == "__main__":
    main()
