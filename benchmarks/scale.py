"""Scale series: how rummisolve's cost grows with position size and with the rule set.

    python -m benchmarks.scale [--quick] [--per-size N] [--check] [--out DIR]

For each rule set (standard, xp, 6/7/8 colours, 3 copies, 4 jokers, and all of those at once)
it generates seeded random positions from a few tiles up to the whole set (dense tables plus a
14..30 tile rack), times ``rummisolve.solve_json`` end to end for both objectives, judges every
answer with the referee and (``--check``) against the oracle's optimum, and reports median /
p95 / max by size bucket with the worst case of each rule set. Writes ``scale.json``,
``scale.md`` and ``scale.png`` to ``--out`` (default ``benchmarks/results``); with ``--check``,
``scale_check.json``, ``scale_check.md`` and ``scale_check.png``, so that a check does not
overwrite the series.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from benchmarks.positions import random_position
from benchmarks.run import judge, latency_stats, load_average, machine
from rummisolve.jsonio import position_to_json
from rummisolve.rules import STANDARD, XP, RuleSet

__all__ = ["RULE_SETS", "series", "main"]

HERE = Path(__file__).resolve().parent

RULE_SETS: dict[str, RuleSet] = {
    "standard": STANDARD,
    "xp": XP,
    "6 colours": STANDARD.replace(colours=6, max_players=6),
    "7 colours": STANDARD.replace(colours=7, max_players=7),
    "8 colours": STANDARD.replace(colours=8, max_players=8),
    "3 copies": STANDARD.replace(copies=3),
    "4 jokers": STANDARD.replace(jokers=4),
    "8 colours, 3 copies, 4 jokers": RuleSet(colours=8, copies=3, jokers=4, max_players=8),
}
FRACTIONS = (0.05, 0.15, 0.3, 0.5, 0.7, 1.0)
"""Table + rack as a fraction of the whole set (1.0: a dense table holding nearly everything)."""


def _positions(name: str, rules: RuleSet, per_size: int, seed: int):
    rng = random.Random(f"{seed}:{name}")
    total = rules.total_tiles
    for fraction in FRACTIONS:
        for i in range(per_size):
            rack = rng.randint(14, 30) if fraction >= 0.5 else rng.randint(3, 20)
            table = max(0, int(fraction * total) - rack)
            dense = fraction >= 0.7
            opened = i % 4 != 3
            yield fraction, random_position(rng, rules, table, rack, opened, True, dense)


def series(per_size: int, seed: int = 11, check: bool = False, names=None, progress: bool = True) -> list[dict]:
    """One row per (position, objective): rule set, tiles in play, latency, phases, outcome."""
    from rummisolve import solve_json

    solve_json({"table": [], "rack": ["R1", "R2", "R3"]})  # warm up: imports, first model
    jobs = []
    for name, rules in RULE_SETS.items():
        if names and name not in names:
            continue
        for fraction, position in _positions(name, rules, per_size, seed):
            for objective in ("tiles", "value"):
                jobs.append((name, fraction, position, objective))
    iterator = jobs
    if progress:
        from tqdm import tqdm

        iterator = tqdm(jobs, desc="scale", unit="solve", file=sys.stderr)
    rows = []
    for name, fraction, position, objective in iterator:
        obj = position_to_json(position)
        obj["objective"] = objective
        start = time.perf_counter()
        result = solve_json(obj)
        ms = (time.perf_counter() - start) * 1000
        optimum = None
        if check:
            from benchmarks.oracle import optimum as oracle_optimum

            optimum = oracle_optimum(position, objective)
        moved = result["status"] in ("optimal", "feasible")
        if result["status"] == "error":
            outcome, detail = "error", result["error"]
        elif check:
            outcome, detail = judge(position, objective, optimum, moved, result["played"], result["table"])
        else:  # legality only: judge against the solver's own score
            claimed = None
            if moved:
                claimed = len(result["played"]) if objective == "tiles" else result["value"]
            outcome, detail = judge(position, objective, claimed, moved, result["played"], result["table"])
            outcome = "legal" if outcome == "optimal" else outcome
        rows.append(
            {
                "rules": name,
                "fraction": fraction,
                "tiles_in_play": position.tiles_in_play,
                "table_tiles": position.tiles_in_play - len(position.rack),
                "rack": len(position.rack),
                "opened": position.opened,
                "objective": objective,
                "status": result["status"],
                "ms": ms,
                "timings_ms": {k: v * 1000 for k, v in result.get("timings", {}).items()},
                "outcome": outcome,
                "detail": detail,
                "position": obj,
            }
        )
    return rows


def summarise(rows: list[dict]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    by_rules = defaultdict(list)
    for r in rows:
        by_rules[r["rules"]].append(r)
    for name, group in by_rules.items():
        sizes = defaultdict(list)
        for r in group:
            sizes[r["fraction"]].append(r)
        worst = max(group, key=lambda r: r["ms"])
        out[name] = {
            "full_set_tiles": RULE_SETS[name].total_tiles,
            "all": latency_stats([r["ms"] for r in group]),
            "by_fraction": {
                str(f): {
                    **latency_stats([r["ms"] for r in rs]),
                    "tiles_in_play": [min(r["tiles_in_play"] for r in rs), max(r["tiles_in_play"] for r in rs)],
                    "build_p50": latency_stats([r["timings_ms"].get("build", 0) for r in rs])["p50"],
                    "solve_p50": latency_stats([r["timings_ms"].get("solve", 0) for r in rs])["p50"],
                }
                for f, rs in sorted(sizes.items())
            },
            "outcomes": dict(__import__("collections").Counter(r["outcome"] for r in group)),
            "worst": {
                k: worst[k] for k in ("ms", "tiles_in_play", "rack", "opened", "objective", "status", "position")
            },
        }
    return out


def markdown(summary: dict[str, Any], meta: dict[str, Any]) -> str:
    lines = [
        f"Machine: {meta['machine']}; {meta['date']}; command: `{meta['command']}`; "
        f"1-min load average before/after: {meta['load_average_before_after']}",
        "",
        "rummisolve `solve_json` latency (ms, wall clock, both objectives) by rule set and size "
        "(table + rack as a share of the whole set):",
        "",
        "| rule set | tiles in set | share | tiles in play | n | p50 | p95 | max | build p50 | solve p50 |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, s in summary.items():
        for f, b in s["by_fraction"].items():
            lo, hi = b["tiles_in_play"]
            lines.append(
                f"| {name} | {s['full_set_tiles']} | {float(f):.0%} | {lo}-{hi} | {b['n']} | {b['p50']:.2f} "
                f"| {b['p95']:.2f} | {b['max']:.2f} | {b['build_p50']:.2f} | {b['solve_p50']:.2f} |"
            )
    lines += ["", "Worst case per rule set, and answers judged by the referee (and oracle with --check):", ""]
    lines += [
        "| rule set | worst ms | its tiles in play | rack | opened | objective | outcomes |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, s in summary.items():
        w = s["worst"]
        outcomes = ", ".join(f"{k} {v}" for k, v in sorted(s["outcomes"].items()))
        lines.append(
            f"| {name} | {w['ms']:.2f} | {w['tiles_in_play']} | {w['rack']} | {w['opened']} | {w['objective']} | {outcomes} |"
        )
    return "\n".join(lines) + "\n"


def plot(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5.5))
    for name in RULE_SETS:
        pts = [(r["tiles_in_play"], r["ms"]) for r in rows if r["rules"] == name]
        if pts:
            xs, ys = zip(*pts)
            ax.scatter(xs, ys, s=10, alpha=0.6, label=name)
    ax.set_yscale("log")
    ax.set_xlabel("tiles in play (table + rack)")
    ax.set_ylabel("rummisolve latency per solve (ms, log scale)")
    ax.set_title("Scale: latency vs position size, by rule set")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scale", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one position per size and rule set")
    parser.add_argument("--per-size", type=int, default=6)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--check", action="store_true", help="also check optimality against the oracle (slow)")
    parser.add_argument("--rules", default="", help="comma-separated subset of: " + ", ".join(RULE_SETS))
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.rules.split(",") if n.strip()] or None
    for n in names or ():
        if n not in RULE_SETS:
            parser.error(f"unknown rule set {n!r}")
    load_before = load_average()
    rows = series(1 if args.quick else args.per_size, args.seed, args.check, names, not args.no_progress)
    summary = summarise(rows)
    from datetime import UTC, datetime

    meta = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "command": "python -m benchmarks.scale " + " ".join(argv if argv is not None else sys.argv[1:]),
        "load_average_before_after": [load_before, load_average()],
    }
    args.out.mkdir(parents=True, exist_ok=True)
    stem = "scale_check" if args.check else "scale"
    (args.out / f"{stem}.json").write_text(
        json.dumps({"meta": meta, "summary": summary, "rows": rows}, indent=1) + "\n"
    )
    table = markdown(summary, meta)
    (args.out / f"{stem}.md").write_text(table)
    if not args.no_plot:
        plot(rows, args.out / f"{stem}.png")
    print(table)
    bad = sum(1 for r in rows if r["outcome"] not in ("optimal", "legal"))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
