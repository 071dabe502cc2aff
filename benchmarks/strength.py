"""The strength table: every AI level against every other, under each rule set, in one command.

    python -m benchmarks.strength                       # the whole table (many hours on 2 cores)
    python -m benchmarks.strength --rules standard --levels medium,hard --max-games 100
    python -m benchmarks.strength --rules standard --max-games 0   # only the table of all four levels
    python -m benchmarks.strength --report              # rewrite the table from the games played so far

Every pair of levels plays mirrored deals (each deal once per seat rotation, so the luck of the
deal cancels out) in steps of ``--step`` deals. A pair stops at ``--max-games`` games (600), or
earlier once it has played ``--decisive-after`` games (100) and one side wins more than
``--decisive`` (90%) of them: a lopsided pair needs fewer games to be told apart. The four
levels also sit at one table (``--four-games``, each deal in all four rotations of one of the six
orders round the table, so each level sits right after each other equally often). The anchor
section replays the published comparison (a trained player against a greedy ILP player, no
jokers): each level against ``medium``, which is that greedy player (the solver's most-tiles move
every turn), with ``jokers: 0``.

Each game's result is appended to ``<--games-dir>/<rules>-<players>.jsonl`` as it finishes, so an
interrupted run resumes where it stopped (whole deals only) and ``--report`` rewrites the table
from what is there. The table goes to ``--out`` (``benchmarks/results/strength.md``), with the
notes in ``<--games-dir>/NOTES.md`` (how the games were played) under its heading.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import platform
import subprocess
import sys
from collections.abc import Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rummisolve.batch import ordered_map
from rummisolve.game.deals import run_deal
from rummisolve.game.tournament import plan, summarize, wilson_interval
from rummisolve.rules import STANDARD, RuleSet

HERE = Path(__file__).resolve().parent
LEVELS = ("easy", "medium", "hard", "expert")
RULE_SETS: dict[str, RuleSet] = {
    "standard": STANDARD,
    "discard": STANDARD.replace(discard=True),
    "twist": RuleSet.preset("twist"),
    "anchor": STANDARD.replace(jokers=0),
}
"""The rule sets the table is made under; ``anchor`` is the published comparison's (no jokers)."""
GREEDY = "medium"
"""The level that is the anchor's greedy ILP player."""


@dataclass(frozen=True)
class Match:
    """One line of the table: these levels, in this order, under these rules."""

    rules: str
    kinds: tuple[str, ...]

    @property
    def file_name(self) -> str:
        return f"{self.rules}-{'-'.join(self.kinds)}.jsonl"


@dataclass(frozen=True)
class Budget:
    """When a pair has played enough."""

    max_games: int = 600
    decisive: float = 0.9
    decisive_after: int = 100
    four_games: int = 200

    def enough(self, match: Match, results: Sequence[dict[str, Any]]) -> str | None:
        """Why ``match`` needs no more games (``"games"``, ``"decisive"``), or ``None``."""
        games = len(results)
        if len(match.kinds) > 2:
            return "games" if games >= self.four_games else None
        if games >= self.max_games:
            return "games"
        if games >= self.decisive_after:
            wins = [sum(1 for r in results if r["winner"] == c) for c in range(2)]
            if max(wins) > self.decisive * games:
                return "decisive"
        return None


def matches(rule_names: Sequence[str], levels: Sequence[str], four: bool, anchor: bool) -> list[Match]:
    """Every pair of ``levels`` under each rule set, the four levels at one table, and the anchor's
    pairs (each other level against the greedy player, no jokers)."""
    found = []
    for rules in rule_names:
        if rules == "anchor":
            continue
        found += [Match(rules, pair) for pair in itertools.combinations(reversed(levels), 2)]  # stronger first
        if four and len(levels) >= 3:
            found.append(Match(rules, tuple(levels)))
    if anchor and GREEDY in levels:
        found += [Match("anchor", (level, GREEDY)) for level in levels if level != GREEDY]
    return found


def read_results(path: Path, players: int) -> list[dict[str, Any]]:
    """The games of whole deals in ``path`` (a deal cut off by an interrupted run is left out, and
    played again)."""
    if not path.exists():
        return []
    results = [_expanded(json.loads(line)) for line in path.read_text().splitlines() if line.strip()]
    per_deal: dict[int, int] = {}
    for r in results:
        per_deal[r["deal"]] = per_deal.get(r["deal"], 0) + 1
    whole = {deal for deal, count in per_deal.items() if count == players}
    return [r for r in results if r["deal"] in whole]


_TIMES = {"move_seconds": "move_ms", "move_cpu_seconds": "move_cpu_ms"}


def _compact(result: dict[str, Any]) -> dict[str, Any]:
    """A game's result as stored: move times in whole milliseconds (the files stay small)."""
    out = {k: v for k, v in result.items() if k not in _TIMES}
    for seconds, ms in _TIMES.items():
        if seconds in result:
            out[ms] = [[round(1000 * t) for t in seat] for seat in result[seconds]]
    for key in ("seconds", "think_seconds"):
        if key in out:
            value = out[key]
            out[key] = [round(v, 3) for v in value] if isinstance(value, list) else round(value, 3)
    return out


def _expanded(stored: dict[str, Any]) -> dict[str, Any]:
    """A stored result as :func:`~rummisolve.game.tournament.summarize` reads it."""
    out = {k: v for k, v in stored.items() if k not in _TIMES.values()}
    for seconds, ms in _TIMES.items():
        if ms in stored:
            out[seconds] = [[t / 1000 for t in seat] for seat in stored[ms]]
    return out


def play_match(
    match: Match,
    budget: Budget,
    *,
    directory: Path,
    seed: int,
    step: int,
    workers: int,
    think: float | None,
    clock: bool | None = None,
    progress: bool = True,
) -> tuple[list[dict[str, Any]], str | None]:
    """Play ``match`` until ``budget`` says enough, appending each game to its file; the games
    and why it stopped."""
    path = directory / match.file_name
    n = len(match.kinds)
    results = read_results(path, n)
    if results and len(results) != sum(1 for line in path.read_text().splitlines() if line.strip()):
        path.write_text("".join(json.dumps(_compact(r)) + "\n" for r in results))  # drop a cut-off deal
    rules = RULE_SETS[match.rules]
    limit = budget.four_games if n > 2 else budget.max_games
    while (reason := budget.enough(match, results)) is None:
        done = {r["deal"] for r in results}
        start = max(done) + 1 if done else 0
        tasks = plan(match.kinds, limit, seed, rules, think=think, clock=clock)[start : start + step]
        if not tasks:
            return results, "games"
        with path.open("a") as out, closing(ordered_map(run_deal, tasks, workers, chunk=1)) as batches:
            for batch in batches:
                for result in batch:
                    result = {k: v for k, v in result.items() if k != "log"}
                    out.write(json.dumps(_compact(result)) + "\n")
                    out.flush()
                    results.append(result)
        if progress:
            print(f"  {match.rules} {','.join(match.kinds)}: {len(results)} games", file=sys.stderr)
    return results, reason


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(wins: int, games: int) -> str:
    lo, hi = wilson_interval(wins, games)
    return f"{100 * lo:.1f}-{100 * hi:.1f}%"


def pair_line(match: Match, results: Sequence[dict[str, Any]], reason: str | None) -> str:
    """One table row: the first level's wins against the second, its interval, draws, games, why
    it stopped, and both sides' move times (wall p50/p95, CPU p95)."""
    summary = summarize(results, match.kinds)
    first, second = summary["players"]
    games = summary["games"]
    wins = summary["wins"][first]

    def times(name: str) -> str:
        return (
            f"{summary['ms_per_move_p50'][name]:.0f} / {summary['ms_per_move_p95'][name]:.0f}; "
            f"{summary['cpu_ms_per_move_p95'][name]:.0f}"
        )

    return (
        f"| {first} vs {second} | {games} | **{_pct(wins / games)}** | {_interval(wins, games)} | "
        f"{summary['draws']} | {summary['illegal_moves']} | {reason or 'unfinished'} | {times(first)} | {times(second)} |"
    )


def shares_after(match: Match, results: Sequence[dict[str, Any]]) -> dict[int, dict[int, tuple[int, int]]]:
    """For each contestant, by the contestant sitting right before it: (wins, games)."""
    n = len(match.kinds)
    counts = {c: {b: [0, 0] for b in range(n) if b != c} for c in range(n)}
    for r in results:
        seats = r["seats"]
        for seat, contestant in enumerate(seats):
            cell = counts[contestant][seats[(seat - 1) % n]]
            cell[0] += r["winner"] == contestant
            cell[1] += 1
    return {c: {b: (w, g) for b, (w, g) in row.items()} for c, row in counts.items()}


def four_lines(match: Match, results: Sequence[dict[str, Any]]) -> list[str]:
    """The four-level table's rows: each level's wins, with its interval, move times, and its
    share by the level sitting right before it."""
    summary = summarize(results, match.kinds)
    games = summary["games"]
    after = shares_after(match, results)
    rows = []
    for c, name in enumerate(summary["players"]):
        wins = summary["wins"][name]
        by_before = ", ".join(f"{summary['players'][b]} {_pct(w / g) if g else '-'}" for b, (w, g) in after[c].items())
        rows.append(
            f"| {name} | {wins} | **{_pct(wins / games)}** | {_interval(wins, games)} | "
            f"{summary['ms_per_move_p50'][name]:.0f} / {summary['ms_per_move_p95'][name]:.0f}; "
            f"{summary['cpu_ms_per_move_p95'][name]:.0f} | {by_before} |"
        )
    return rows


PAIR_HEADER = [
    "| match | games | first's wins | 95% interval | draws | illegal | stopped by | "
    "first's ms per move (p50 / p95 wall; p95 CPU) | second's |",
    "|---|---|---|---|---|---|---|---|---|",
]


NOTES_FILE = "NOTES.md"
"""In ``--games-dir``: how and where the games were played (load, interruptions, the commits),
written by hand and put under the table's heading, so a rewritten table keeps it."""


def report(played: Iterable[tuple[Match, list[dict[str, Any]], str | None]], command: str, notes: str = "") -> str:
    """The table as Markdown, a section per rule set, ``notes`` under its heading."""
    by_rules: dict[str, list[tuple[Match, list[dict[str, Any]], str | None]]] = {}
    for item in played:
        by_rules.setdefault(item[0].rules, []).append(item)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        "# How strong each AI level is",
        "",
        f"Made by `{command}` on {datetime.date.today().isoformat()}, commit {_commit()}, "
        f"{os.cpu_count()} cores ({platform.machine()}), load {load:.1f} when written. Mirrored deals "
        "(each deal once per seat rotation); every move refereed by the engine. A pair stops at its "
        'game budget, or early ("decisive") once one side wins more than the decisive share after '
        "the minimum games. Move times are per turn, wall clock (inflated by the machine's load) and "
        "CPU time (what a move costs on a free core).",
    ]
    if notes.strip():
        lines += ["", notes.strip()]
    for rules, items in by_rules.items():
        lines += ["", f"## {_TITLES.get(rules, rules)}", ""]
        if rules == "anchor":
            lines += [ANCHOR_NOTE, ""]
        pairs = [item for item in items if len(item[0].kinds) == 2 and item[1]]
        if pairs:
            lines += PAIR_HEADER + [pair_line(*item) for item in pairs]
        for match, results, reason in items:
            if len(match.kinds) > 2 and results:
                lines += [""] if lines[-1] else []  # after the pairs' table; right under the heading when none
                lines += [
                    f"{len(match.kinds)} players at one table ({', '.join(match.kinds)}; every deal in "
                    f"all {len(match.kinds)} rotations of its order round the table, each level after each "
                    f"other equally often), {len(results)} games{'' if reason else ' (unfinished)'}:",
                    "",
                    "| level | wins | share | 95% interval | ms per move (p50 / p95 wall; p95 CPU) "
                    "| share when right after |",
                    "|---|---|---|---|---|---|",
                    *four_lines(match, results),
                ]
    return "\n".join(lines) + "\n"


ANCHOR_NOTE = (
    "The published figure this compares with: a trained player won 67.8% of 1,000 mirror-paired games "
    f"against a greedy ILP player that plays the most tiles every turn, without jokers; `{GREEDY}` is that "
    "greedy player here."
)

_TITLES = {
    "standard": "Standard rules",
    "discard": "The discard rule",
    "twist": "Twist",
    "anchor": f"The published anchor: each level against the greedy ILP player ({GREEDY}), no jokers",
}


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True)
    except OSError:
        return "unknown"
    return out.stdout.strip() or "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.strength", description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="standard,discard,twist,anchor", help="rule sets, comma-separated")
    parser.add_argument("--levels", default=",".join(LEVELS), help="AI levels, comma-separated, weakest first")
    parser.add_argument(
        "--max-games", type=int, default=600, help="games per pair (600; 0: only the table of all levels)"
    )
    parser.add_argument("--decisive", type=float, default=0.9, help="stop a pair when one side wins more (0.9)")
    parser.add_argument("--decisive-after", type=int, default=100, help="... after this many games (100)")
    parser.add_argument("--four-games", type=int, default=200, help="games at the table of all levels (200)")
    parser.add_argument("--no-four", action="store_true", help="no table with every level")
    parser.add_argument("--step", type=int, default=10, help="deals played between checks (10)")
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--think", type=float, default=None, help="the expert's budget per move (its default)")
    parser.add_argument(
        "--counted",
        action="store_true",
        help="the expert's budget counted, not clocked: the same moves whatever the machine's load",
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--games-dir", type=Path, default=HERE / "results" / "strength")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "strength.md")
    parser.add_argument("--report", action="store_true", help="only rewrite the table from the games played")
    args = parser.parse_args(argv)
    rule_names = [r.strip() for r in args.rules.split(",") if r.strip()]
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    unknown = [r for r in rule_names if r not in RULE_SETS] + [level for level in levels if level not in LEVELS]
    if unknown:
        parser.error(
            f"unknown rule set or level: {', '.join(unknown)} (rule sets: {', '.join(RULE_SETS)}; levels: {', '.join(LEVELS)})"
        )
    if len(set(levels)) < 2:
        parser.error("--levels needs two different levels")
    command = " ".join(["python -m benchmarks.strength", *(sys.argv[1:] if argv is None else argv)])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    budget = Budget(args.max_games, args.decisive, args.decisive_after, args.four_games)
    args.games_dir.mkdir(parents=True, exist_ok=True)
    notes_path = args.games_dir / NOTES_FILE
    notes = notes_path.read_text() if notes_path.exists() else ""
    played = []
    for match in matches(rule_names, levels, not args.no_four, "anchor" in rule_names):
        path = args.games_dir / match.file_name
        if args.report:
            results = read_results(path, len(match.kinds))
            played.append((match, results, budget.enough(match, results)))
            continue
        results, reason = play_match(
            match,
            budget,
            directory=args.games_dir,
            seed=args.seed,
            step=args.step,
            workers=args.workers,
            think=args.think,
            clock=False if args.counted else None,
        )
        played.append((match, results, reason))
        args.out.write_text(report(played, command, notes))  # the table so far, after every match
    args.out.write_text(report(played, command, notes))
    print(args.out.read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
