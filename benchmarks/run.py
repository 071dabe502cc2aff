"""The benchmark runner: rummisolve and rummikub-solver on the same stored positions, in one run.

    python -m benchmarks.run [--quick] [--sets game,random,traps] [--no-peer] [--repeat N] [--out DIR]

For every position and both objectives it times ``rummisolve.solve_json`` end to end (wall clock
around the call; the parse/build/solve/decode/verify/encode split comes from the result's
``timings``), judges the answer with the referee (``rummisolve.referee``) and against the stored
optimum (proved by the independent oracle), and does the same for rummikub-solver (if installed)
with its default backend. The two solvers take turns by blocks of :data:`BLOCK` solves (ours, then
the peer's on the same positions), the peer in a child process of its own: the machine's speed
drifts over minutes, and alternating at a scale of seconds makes both solvers meet the same drift,
while the peer's libraries never load into the process that times ours. ``--repeat N`` goes
through all the blocks N times and keeps each solve's median time (the answers of the first
round are judged; ours must not change between repeats). Writes ``report.json``, ``report.md``
and ``latency.png`` to ``--out`` (default ``benchmarks/results``). Exit status 1 if any
rummisolve answer is not optimal and legal.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import platform
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.build import CONTRACT_KEYS, position_of
from benchmarks.judge import judge
from benchmarks.peer_process import PeerProcess

__all__ = ["load", "judge", "run", "summarise", "markdown", "plot", "main", "BUCKETS"]

HERE = Path(__file__).resolve().parent
SET_NAMES = ("game", "random", "traps")
"""The default sets; `twist` (Twist self-play positions, no stored optima) runs when named in --sets."""
OBJECTIVES = ("tiles", "value")
BUCKETS = ((0, 19), (20, 39), (40, 59), (60, 79), (80, 106), (107, 10_000))
QUICK_PER_SET = 12
BLOCK = 40
"""Solves per turn when the two solvers alternate (about 0.2 s of ours, 1.5 s of the peer's)."""


def bucket_of(tiles: int) -> str:
    for low, high in BUCKETS:
        if low <= tiles <= high:
            return f"{low}-{high}" if high < 10_000 else f"{low}+"
    raise ValueError(tiles)


def load(names: Iterable[str], directory: Path = HERE, quick: bool = False, limit: int | None = None) -> list[dict]:
    """The stored records of the named sets (``quick``: about a dozen per set, spread over sizes)."""
    records = []
    for name in names:
        path = directory / f"{name}.jsonl"
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        for row in rows:
            row["set"] = name
        per_set = limit if limit is not None else (QUICK_PER_SET if quick else None)
        if per_set is not None and len(rows) > per_set:
            rows = sorted(rows, key=lambda r: r["tiles_in_play"])
            step = len(rows) / per_set
            rows = [rows[int(i * step)] for i in range(per_set)]
        records.extend(rows)
    return records


def _ours(record: dict, objective: str) -> dict[str, Any]:
    from rummisolve import solve_json

    obj = {k: record[k] for k in CONTRACT_KEYS if k in record}
    obj["objective"] = objective
    start, cpu_start = time.perf_counter(), time.process_time()
    result = solve_json(obj)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    row: dict[str, Any] = {"ms": wall * 1000, "cpu_ms": cpu * 1000, "status": result["status"]}
    row["timings_ms"] = {k: v * 1000 for k, v in result.get("timings", {}).items()}
    answer = json.dumps([result.get("played"), result.get("table")], sort_keys=True)
    row["answer"] = hashlib.sha1(answer.encode()).hexdigest()[:12]
    if result["status"] == "error":
        row.update(outcome="error", detail=result.get("error", ""))
        return row
    position = position_of(record)
    moved = result["status"] in ("optimal", "feasible")
    if record.get("unproven"):  # no stored optimum (Twist): the referee alone
        from rummisolve import verify

        legal = not moved or verify(position, result["table"]).legal
        row["outcome"], row["detail"] = ("legal", "") if legal else ("illegal", "rejected by the referee")
        return row
    row["outcome"], row["detail"] = judge(
        position, objective, record["optimum"][objective], moved, result["played"], result["table"]
    )
    return row


def _merge_repeats(runs: list[dict[str, Any]], deterministic: bool) -> dict[str, Any]:
    """One row from the repeats of a solve: the first one's answer, the median of the times."""
    row = dict(runs[0])
    if len(runs) == 1 or row.get("ms") is None:
        return row
    row["ms_runs"] = [r["ms"] for r in runs]
    row["ms"] = statistics.median(row["ms_runs"])
    row["cpu_ms"] = statistics.median(r["cpu_ms"] for r in runs)
    if "timings_ms" in row:
        row["timings_ms"] = {k: statistics.median(r["timings_ms"].get(k, 0.0) for r in runs) for k in row["timings_ms"]}
    if deterministic and len({r.get("answer") for r in runs}) > 1:
        row.update(outcome="error", detail="the answer changed between repeats (not deterministic)")
    return row


def _start_peer() -> PeerProcess | None:
    """The peer's process, or ``None`` (with a warning) if rummikub-solver is installed but fails to load."""
    try:
        return PeerProcess()
    except RuntimeError as err:
        reason = str(err).strip().splitlines()[-1]
        print(f"rummikub-solver could not be loaded ({reason}); timing rummisolve alone", file=sys.stderr)
        return None


def run(records: list[dict], peer: bool = True, progress: bool = True, repeat: int = 1) -> dict[str, Any]:
    """Solve every record for both objectives with both solvers; return per-position rows and setup costs.

    The solvers alternate by blocks of :data:`BLOCK` solves, the peer in a :class:`PeerProcess`.
    ``repeat``: how many times to go through all the blocks; each solve keeps its median time."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, not {repeat}")
    from rummisolve import solve_json

    start = time.perf_counter()
    solve_json({"table": [], "rack": ["R1", "R2", "R3"]})  # imports OR-Tools, first model
    warmup_ours = time.perf_counter() - start
    use_peer = peer
    if peer:
        from benchmarks import peer as peer_mod

        use_peer = peer_mod.available()
    peers = _start_peer() if use_peer else None
    use_peer = peers is not None
    rows = []
    jobs = [(r, o) for r in records for o in OBJECTIVES]
    bar = None
    if progress:
        from tqdm import tqdm

        total = repeat * len(jobs) * (2 if use_peer else 1)
        bar = tqdm(total=total, desc="benchmark", unit="solve", file=sys.stderr)
    ours_runs: list[list[dict]] = [[] for _ in jobs]
    peer_runs: list[list[dict]] = [[] for _ in jobs]
    setup: dict[str, Any] = {"ours_first_call_s": warmup_ours}
    # Why blocks, and why two processes: a pass of either solver takes minutes, over which the
    # machine's own speed drifts by 15% or more, so one solver's pass after the other's compared
    # two different machines (speed-ups of 6.5x-9.8x from the same code). Solve by solve in one
    # process, the peer's libraries (threads that sometimes keep spinning, a far larger working
    # set) slowed ours by about 20%; fed solve by solve over a pipe, by about 35%. In turns of 40
    # solves with the peer in its own process, our median stayed within the spread of our
    # passes alone (see benchmarks/RESULTS.md, "Why the solvers take turns").
    try:
        for _ in range(repeat):
            for first in range(0, len(jobs), BLOCK):
                block = range(first, min(first + BLOCK, len(jobs)))
                for i in block:
                    ours_runs[i].append(_ours(*jobs[i]))
                    if bar is not None:
                        bar.update()
                if peers is not None:
                    for i, row in zip(block, peers.solve([jobs[i] for i in block]), strict=True):
                        peer_runs[i].append(row)
                    if bar is not None:
                        bar.update(len(block))
        if peers is not None:
            setup.update(peers.setup())
    finally:
        if peers is not None:
            peers.close()
        if bar is not None:
            bar.close()
    for (record, objective), ours, theirs in zip(jobs, ours_runs, peer_runs):
        row = {
            "id": record["id"],
            "set": record.get("set", "?"),
            "source": record.get("source", ""),
            "tiles_in_play": record["tiles_in_play"],
            "opened": record.get("opened", True),
            "objective": objective,
            "optimum": record["optimum"][objective],
            "ours": _merge_repeats(ours, deterministic=True),
        }
        if use_peer:
            row["peer"] = _merge_repeats(theirs, deterministic=False)
        rows.append(row)
    return {"rows": rows, "setup": setup, "peer": use_peer, "repeat": repeat}


# -- summaries ------------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def latency_stats(values: Sequence[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "p50": percentile(values, 50),
        "p95": percentile(values, 95),
        "p99": percentile(values, 99),
        "max": max(values) if values else math.nan,
    }


def summarise(result: dict[str, Any]) -> dict[str, Any]:
    """Latency percentiles overall / by set / by size bucket, outcome counts and speed-ups."""
    rows = result["rows"]
    solvers = ["ours"] + (["peer"] if result["peer"] else [])
    summary: dict[str, Any] = {}
    for solver in solvers:
        timed = [r for r in rows if r[solver].get("ms") is not None]
        by_set = defaultdict(list)
        by_bucket = defaultdict(list)
        for r in timed:
            by_set[r["set"]].append(r[solver]["ms"])
            by_bucket[bucket_of(r["tiles_in_play"])].append(r[solver]["ms"])
        outcomes = defaultdict(Counter)
        for r in rows:
            outcomes[r["set"]][r[solver]["outcome"]] += 1
            outcomes["all"][r[solver]["outcome"]] += 1
        cpu_by_set = defaultdict(list)
        for r in timed:
            cpu_by_set[r["set"]].append(r[solver].get("cpu_ms", math.nan))
        entry = {
            "latency_ms": latency_stats([r[solver]["ms"] for r in timed]),
            "cpu_ms": latency_stats([r[solver].get("cpu_ms", math.nan) for r in timed]),
            "cpu_ms_by_set": {k: latency_stats(v) for k, v in sorted(cpu_by_set.items())},
            "latency_ms_by_set": {k: latency_stats(v) for k, v in sorted(by_set.items())},
            "latency_ms_by_size": {k: latency_stats(by_bucket[k]) for k in _bucket_order(by_bucket)},
            "outcomes": {k: dict(v) for k, v in outcomes.items()},
        }
        if solver == "ours":
            entry["statuses"] = dict(Counter(r["ours"]["status"] for r in rows))
            parts = defaultdict(list)
            for r in timed:
                for k, v in r["ours"]["timings_ms"].items():
                    parts[k].append(v)
            entry["phases_ms"] = {k: latency_stats(v) for k, v in parts.items()}
        summary[solver] = entry
    if result["peer"]:
        speed = {}
        for name in sorted({r["set"] for r in rows}) + ["all"]:
            both = [
                r
                for r in rows
                if (name == "all" or r["set"] == name)
                and r["peer"].get("ms") is not None
                and r["ours"].get("ms") is not None
            ]
            if not both:
                continue
            ratios = [r["peer"]["ms"] / r["ours"]["ms"] for r in both]
            cpu_both = [r for r in both if r["ours"].get("cpu_ms") and r["peer"].get("cpu_ms") is not None]
            speed[name] = {
                "n": len(both),
                "cpu_ratio_of_medians": statistics.median(r["peer"]["cpu_ms"] for r in cpu_both)
                / statistics.median(r["ours"]["cpu_ms"] for r in cpu_both)
                if cpu_both
                else math.nan,
                "ratio_of_medians": statistics.median(r["peer"]["ms"] for r in both)
                / statistics.median(r["ours"]["ms"] for r in both),
                "median_ratio": statistics.median(ratios),
                "min_ratio": min(ratios),
            }
        summary["speedup"] = speed
    return summary


def _bucket_order(buckets: dict) -> list[str]:
    labels = [bucket_of(low) for low, _ in BUCKETS]
    return [b for b in labels if b in buckets]


def _fmt(value: float) -> str:
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.2f}"


def markdown(summary: dict[str, Any], meta: dict[str, Any]) -> str:
    """The markdown tables the README and RESULTS.md quote."""
    lines = [
        f"Machine: {meta['machine']}; Python {meta['python']}; {meta['date']}; "
        f"code: {meta.get('code') or 'unknown'}, OR-Tools {meta.get('ortools', '?')}; command: `{meta['command']}`; "
        f"1-min load average before/after: {meta.get('load_average_before_after')}",
        "",
        "Latency per solve in ms (wall clock, end to end; both objectives; one core"
        + (f"; median of {meta['repeat']} repeats per solve" if meta.get("repeat", 1) > 1 else "")
        + "):",
        "",
        "| solver | positions | set | n | p50 | p95 | p99 | max |",
        "|---|---|---|---|---|---|---|---|",
    ]
    names = {"ours": "rummisolve", "peer": f"rummikub-solver {meta.get('peer_version') or ''}".strip()}
    for solver in ("ours", "peer"):
        if solver not in summary:
            continue
        entry = summary[solver]
        for label, stats in [("all", entry["latency_ms"]), *entry["latency_ms_by_set"].items()]:
            lines.append(
                f"| {names[solver]} | {label} | | {stats['n']} | {_fmt(stats['p50'])} | {_fmt(stats['p95'])} "
                f"| {_fmt(stats['p99'])} | {_fmt(stats['max'])} |"
            )
        for label, stats in entry["latency_ms_by_size"].items():
            lines.append(
                f"| {names[solver]} | | {label} tiles | {stats['n']} | {_fmt(stats['p50'])} | {_fmt(stats['p95'])} "
                f"| {_fmt(stats['p99'])} | {_fmt(stats['max'])} |"
            )
    lines += [
        "",
        "Process CPU time per solve in ms (less sensitive to other load on the machine than wall time):",
        "",
        "| solver | set | n | p50 | p95 | p99 | max |",
        "|---|---|---|---|---|---|---|",
    ]
    for solver in ("ours", "peer"):
        if solver not in summary:
            continue
        entry = summary[solver]
        for label, stats in [("all", entry["cpu_ms"]), *entry["cpu_ms_by_set"].items()]:
            lines.append(
                f"| {names[solver]} | {label} | {stats['n']} | {_fmt(stats['p50'])} | {_fmt(stats['p95'])} "
                f"| {_fmt(stats['p99'])} | {_fmt(stats['max'])} |"
            )
    lines += ["", "rummisolve phases (ms, from the result's timings):", "", "| phase | p50 | p95 | p99 | max |"]
    lines.append("|---|---|---|---|---|")
    for phase, stats in summary["ours"].get("phases_ms", {}).items():
        lines.append(
            f"| {phase} | {_fmt(stats['p50'])} | {_fmt(stats['p95'])} | {_fmt(stats['p99'])} | {_fmt(stats['max'])} |"
        )
    statuses = summary["ours"].get("statuses", {})
    lines += [
        "",
        "rummisolve statuses: "
        + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))
        + " (`feasible` would mean a time limit stopped the proof)",
    ]
    kinds = ["optimal", "legal", "suboptimal", "illegal", "beats_oracle", "unsupported", "error"]
    lines += ["", "Answers judged by the referee and the stored optima (oracle):", ""]
    lines.append("| solver | set | " + " | ".join(kinds) + " |")
    lines.append("|---|---|" + "---|" * len(kinds))
    for solver in ("ours", "peer"):
        if solver not in summary:
            continue
        for label, counts in summary[solver]["outcomes"].items():
            lines.append(f"| {names[solver]} | {label} | " + " | ".join(str(counts.get(k, 0)) for k in kinds) + " |")
    if "speedup" in summary:
        lines += ["", "Speed-up of rummisolve over rummikub-solver (same positions, both supported):", ""]
        lines.append(
            "| set | n | median(peer) / median(ours), wall | median per-solve ratio, wall | min ratio, wall "
            "| median(peer) / median(ours), CPU |"
        )
        lines.append("|---|---|---|---|---|---|")
        for label, s in summary["speedup"].items():
            lines.append(
                f"| {label} | {s['n']} | {s['ratio_of_medians']:.1f}x | {s['median_ratio']:.1f}x | {s['min_ratio']:.1f}x "
                f"| {s['cpu_ratio_of_medians']:.1f}x |"
            )
    return "\n".join(lines) + "\n"


def plot(result: dict[str, Any], path: Path) -> None:
    """Scatter of latency against tiles in play, both solvers, log scale."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    styles = {"ours": ("rummisolve", "tab:blue", "o"), "peer": ("rummikub-solver", "tab:orange", "x")}
    for solver, (label, colour, marker) in styles.items():
        pts = [(r["tiles_in_play"], r[solver]["ms"]) for r in result["rows"] if r.get(solver, {}).get("ms") is not None]
        if pts:
            xs, ys = zip(*pts)
            ax.scatter(xs, ys, s=10, alpha=0.5, c=colour, marker=marker, label=f"{label} ({len(pts)} solves)")
    ax.set_yscale("log")
    ax.set_xlabel("tiles in play (table + rack)")
    ax.set_ylabel("latency per solve (ms, log scale)")
    ax.set_title("Latency vs position size (both objectives)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os

    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def code_version(directory: Path = HERE) -> str | None:
    """The checkout's commit (``abc1234``, ``+changes`` if files differ from it); ``None`` outside git."""
    import subprocess

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=directory, capture_output=True, text=True, check=True, timeout=10
        ).stdout.strip()

    try:
        commit = git("rev-parse", "--short", "HEAD")
        changed = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + (" +changes" if changed else "")


def load_average() -> float | None:
    """The 1-minute load average (other work on the machine inflates latencies)."""
    import os

    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def _ortools_version() -> str:
    from importlib.metadata import version

    return version("ortools")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"about {QUICK_PER_SET} positions per set")
    parser.add_argument("--limit", type=int, default=None, help="positions per set (spread over sizes)")
    parser.add_argument("--sets", default=",".join(SET_NAMES))
    parser.add_argument("--data", type=Path, default=HERE, help="directory of the .jsonl sets")
    parser.add_argument("--no-peer", action="store_true", help="skip rummikub-solver")
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument(
        "--repeat",
        type=_positive,
        default=1,
        help="go through all the positions N times (the solvers taking turns); keep each solve's median time",
    )
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    names = [n for n in args.sets.split(",") if n]
    records = load(names, args.data, args.quick, args.limit)
    load_before = load_average()
    try:
        result = run(records, peer=not args.no_peer, progress=not args.no_progress, repeat=args.repeat)
    except KeyboardInterrupt:
        print("interrupted: no report written", file=sys.stderr)
        return 130
    summary = summarise(result)
    meta = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "python": platform.python_version(),
        "code": code_version(),
        "ortools": _ortools_version(),
        "command": "python -m benchmarks.run " + " ".join(argv if argv is not None else sys.argv[1:]),
        "positions": len(records),
        "load_average_before_after": [load_before, load_average()],
        "repeat": args.repeat,
        **result["setup"],
    }
    args.out.mkdir(parents=True, exist_ok=True)
    report = {"meta": meta, "summary": summary, "rows": result["rows"]}
    (args.out / "report.json").write_text(json.dumps(report, indent=1, default=str) + "\n")
    table = markdown(summary, meta)
    (args.out / "report.md").write_text(table)
    if not args.no_plot:
        plot(result, args.out / "latency.png")
    print(table)
    bad = {k: v for k, v in summary["ours"]["outcomes"]["all"].items() if k not in ("optimal", "legal")}
    if bad:
        print(f"rummisolve: NOT all optimal and legal: {bad}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
