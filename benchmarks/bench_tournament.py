"""Tournament benchmark: win rates, a long legality run, and games per second per AI level.

Every game of every stage is logged per turn and each logged play is re-checked here by the
referee from the logged position alone (independent of the engine, which also checks every move
and the conservation of tiles after every turn and would raise on a lost or duplicated tile).

    python -m benchmarks.bench_tournament --stage hard-medium --games 500 --seed 1
    python -m benchmarks.bench_tournament --stage medium-easy --games 200 --seed 2
    python -m benchmarks.bench_tournament --stage long --games 1000 --seed 3
    python -m benchmarks.bench_tournament --stage speed --games 20 --seed 4
    python -m benchmarks.bench_tournament --stage hard-medium --games 500 --seed 1 --rules '{"discard": true}'
    python -m benchmarks.bench_tournament --recheck turns.jsonl     # a `rummisolve tournament --log` file
    python -m benchmarks.bench_tournament --stage expert-hard --games 600 --seed 11 --games-file eh.jsonl
    python -m benchmarks.bench_tournament --summarize eh.jsonl --players expert,hard   # a run so far

``--games-file FILE`` appends each game's result as it finishes (a long run can be summarised, or
its count reported, before it ends); ``--think SECONDS`` sets the expert's budget per move.

Results (one JSON object per stage) are appended to benchmarks/results/results_game.jsonl.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from rummisolve import verify
from rummisolve.game.tournament import format_summary, run_tournament, summarize
from rummisolve.jsonio import position_from_json, rules_from_json, rules_to_json
from rummisolve.kinds import kind_of
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import Tile

STAGES = {
    "hard-medium": ["hard,medium"],
    "medium-easy": ["medium,easy"],
    "long": ["hard,medium", "medium,easy", "hard,easy", "hard,medium,easy", "medium,medium,medium,medium"],
    "speed": ["easy,easy", "medium,medium", "hard,hard"],
    "expert-hard": ["expert,hard"],
    "expert-medium": ["expert,medium"],
    "expert-four": ["expert,hard,medium,easy"],
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
            self.line(line)

    def line(self, line: dict) -> None:
        """One logged turn. A play must pass the referee; under the discard rule its discard (and a
        turn's discard without a play) must be on the rack the play left."""
        position = position_from_json(line["position"])
        rack = Counter(position.rack)
        if line["action"] == "draw":
            self.draws += 1
        else:
            self.plays += 1
            verdict = verify(position, line["table"])
            if not verdict.legal:
                self.illegal += 1
                return
            rack -= Counter(verdict.played)
        if position.rules.discard and line.get("discard") is not None and not rack[Tile.parse(line["discard"])]:
            self.illegal += 1


def run_stage(
    stage: str,
    games: int,
    seed: int,
    workers: int,
    rules: RuleSet = STANDARD,
    think: float | None = None,
    games_file: str | None = None,
) -> list[dict]:
    out = []
    for players in STAGES[stage]:
        kinds = players.split(",")
        checker = Checker()

        def on_game(result: dict, checker=checker, kinds=kinds) -> None:
            checker(result)
            if games_file:
                with open(games_file, "a", encoding="utf-8") as f:
                    line = {k: v for k, v in result.items() if k != "log"}
                    f.write(json.dumps({"players": kinds, "illegal_on_recheck": checker.illegal, **line}) + "\n")

        summary = run_tournament(
            kinds,
            games,
            seed,
            rules,
            workers=1 if stage == "speed" else workers,
            on_game=on_game,
            log=True,
            think=think,
            kind=kind_of(rules),  # the tile game's, or Xpress's under --rules xpress
        )
        summary.update(
            stage=stage,
            seed=seed,
            rules=rules_to_json(rules),
            workers=1 if stage == "speed" else workers,
            think=think,
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
    parser.add_argument("--stage", choices=sorted(STAGES))
    parser.add_argument("--rules", default="standard", help="a preset or a JSON object of rule options")
    parser.add_argument(
        "--recheck", metavar="FILE", help="only re-check the plays of a `rummisolve tournament --log` file"
    )
    parser.add_argument("--summarize", metavar="FILE", help="only summarise a --games-file FILE (with --players)")
    parser.add_argument("--players", help="with --summarize: the contestants, e.g. expert,hard")
    parser.add_argument("--games-file", metavar="FILE", help="append each game's result to FILE as it finishes")
    parser.add_argument("--think", type=float, default=None, help="the expert's budget per move (seconds)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default=str(Path(__file__).with_name("results") / "results_game.jsonl"))
    args = parser.parse_args()
    if args.recheck:
        checker = Checker()
        with open(args.recheck, encoding="utf-8") as lines:
            for text in lines:
                checker.line(json.loads(text))
        print(f"re-checked {checker.plays} plays: {checker.illegal} illegal; {checker.draws} draws")
        raise SystemExit(1 if checker.illegal else 0)
    if args.summarize:
        kinds = (args.players or "").split(",")
        with open(args.summarize, encoding="utf-8") as lines:
            results = [r for r in map(json.loads, lines) if r.get("players") == kinds]
        print(format_summary(summarize(results, kinds)))
        print(
            f"  re-checked plays of these games: {max((r['illegal_on_recheck'] for r in results), default=0)} illegal"
        )
        return
    if args.stage is None:
        parser.error("--stage is required (or --recheck FILE)")
    rules = rules_from_json(json.loads(args.rules) if args.rules.strip().startswith("{") else args.rules, "--rules")
    start = time.perf_counter()
    summaries = run_stage(args.stage, args.games, args.seed, args.workers, rules, args.think, args.games_file)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "a", encoding="utf-8") as f:
        for s in summaries:
            s["stage_wall_seconds"] = time.perf_counter() - start
            f.write(json.dumps(s) + "\n")


if __name__ == "__main__":
    main()
