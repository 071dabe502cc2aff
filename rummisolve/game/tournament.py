"""Self-play tournaments: mirrored deals, a local process pool (or Ray), and a summary with 95% intervals.

Each deal is played once per rotation of the seats: with players ``A,B`` the same shuffled deck
is played with A in seat 0 and then with B in seat 0, so the luck of the deal cancels out. With
three or more players each deal also has its own order round the table
(:func:`~rummisolve.game.deals.seating`), so each contestant sits right after each other equally
often. A tournament plays one game kind (:class:`~rummisolve.game.kind.GameKind`, the tile game
unless told: :func:`rummisolve.kinds.kind_of` finds the kind of a rule set); under Xpress a deal is a
game seed: the same split of the dice, the same first seat and the same faces for each die's ``k``-th
roll in every rotation.
"""

from __future__ import annotations

import math
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing
from typing import Any

from rummisolve.batch import ordered_map
from rummisolve.errors import OptionError
from rummisolve.game.deals import DealTask, contestant_names, deal_seed, run_deal
from rummisolve.game.kind import GameKind
from rummisolve.game.tile_game import TILE_GAME
from rummisolve.jsonio import rules_to_json
from rummisolve.rules import STANDARD, RuleSet

__all__ = [
    "DealTask",
    "contestant_names",
    "deal_seed",
    "plan",
    "run_deal",
    "run_tournament",
    "summarize",
    "wilson_interval",
    "format_summary",
]


def plan(
    kinds: Sequence[str],
    games: int,
    seed: int,
    rules: RuleSet = STANDARD,
    log: bool = False,
    think: float | None = None,
    clock: bool | None = None,
    kind: GameKind = TILE_GAME,
) -> list[DealTask]:
    """The deals for ``games`` games of ``kind`` (rounded up to a whole number of rotations);
    ``think``: the expert's budget per move (``None``: its default); ``clock``: whether its moves
    are clocked (``None``: its default; ``False``: a counted budget, independent of the machine's load)."""
    if not kind.plays(rules):
        raise OptionError(
            f"rules: {kind.title} does not play these rules (rummisolve.kinds.kind_of finds the kind that does)"
        )
    n = len(kinds)
    deals = max(1, math.ceil(games / n))
    rules_json = rules_to_json(rules)
    return [DealTask(tuple(kinds), i, deal_seed(seed, i), rules_json, log, think, clock, kind) for i in range(deals)]


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarize(results: Iterable[dict[str, Any]], kinds: Sequence[str], seconds: float | None = None) -> dict[str, Any]:
    """Aggregate game results: wins with 95% intervals, draws (a result's ``winner`` ``None``: only
    Xpress has them), mean scores, turns, illegal moves, timing, moves with a note (the expert's
    budget cuts)."""
    names = contestant_names(kinds)
    n = len(kinds)
    games = draws = 0
    wins = [0] * n
    score_sum = [0] * n
    turns = 0
    illegal = 0
    ends: Counter[str] = Counter()
    think = [0.0] * n
    moves = [0] * n
    times: list[list[float]] = [[] for _ in range(n)]
    cpu: list[list[float]] = [[] for _ in range(n)]
    noted = [0] * n
    play_seconds = 0.0
    for r in results:
        games += 1
        if r["winner"] is None:  # a draw (Xpress: equal totals)
            draws += 1
        else:
            wins[r["winner"]] += 1
        for c in range(n):
            score_sum[c] += r["scores"][c]
            think[c] += r["think_seconds"][c]
            moves[c] += r["moves"][c]
            times[c].extend(r.get("move_seconds", [[]] * n)[c])
            cpu[c].extend(r.get("move_cpu_seconds", [[]] * n)[c])
            noted[c] += r.get("noted_moves", [0] * n)[c]
        turns += r["turns"]
        illegal += r["illegal_moves"]
        ends[r["end_reason"]] += 1
        play_seconds += r["seconds"]
    summary: dict[str, Any] = {
        "games": games,
        "players": list(names),
        "wins": {names[c]: wins[c] for c in range(n)},
        "win_rate": {names[c]: (wins[c] / games if games else 0.0) for c in range(n)},
        "win_rate_ci95": {names[c]: list(wilson_interval(wins[c], games)) for c in range(n)},
        "draws": draws,
        "mean_score": {names[c]: (score_sum[c] / games if games else 0.0) for c in range(n)},
        "turns_per_game": turns / games if games else 0.0,
        "illegal_moves": illegal,
        "end_reasons": dict(ends),
        "ms_per_move": {names[c]: (1000 * think[c] / moves[c] if moves[c] else 0.0) for c in range(n)},
        "ms_per_move_p50": {names[c]: 1000 * _percentile(times[c], 0.50) for c in range(n)},
        "ms_per_move_p95": {names[c]: 1000 * _percentile(times[c], 0.95) for c in range(n)},
        "cpu_ms_per_move_p50": {names[c]: 1000 * _percentile(cpu[c], 0.50) for c in range(n)},
        "cpu_ms_per_move_p95": {names[c]: 1000 * _percentile(cpu[c], 0.95) for c in range(n)},
        "noted_moves": {names[c]: noted[c] for c in range(n)},
        "cpu_seconds": play_seconds,
        "games_per_cpu_second": games / play_seconds if play_seconds else 0.0,
    }
    if seconds is not None:
        summary["seconds"] = seconds
        summary["games_per_second"] = games / seconds if seconds else 0.0
    return summary


def _percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank; 0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def format_summary(summary: dict[str, Any]) -> str:
    """The human-readable summary table."""
    lines = [
        f"{summary['games']} games, {summary['turns_per_game']:.1f} turns per game, "
        f"{summary['illegal_moves']} illegal moves"
    ]
    width = max(len(name) for name in summary["players"])
    for name in summary["players"]:
        lo, hi = summary["win_rate_ci95"][name]
        lines.append(
            f"  {name:<{width}}  wins {summary['wins'][name]:>6}  {100 * summary['win_rate'][name]:5.1f}% "
            f"(95% CI {100 * lo:4.1f}-{100 * hi:4.1f}%)  mean score {summary['mean_score'][name]:+7.1f}  "
            f"{summary['ms_per_move'][name]:6.1f} ms/move"
            + (
                f" (p50 {summary['ms_per_move_p50'][name]:.0f}, p95 {summary['ms_per_move_p95'][name]:.0f};"
                f" CPU p95 {summary['cpu_ms_per_move_p95'][name]:.0f})"
                if "ms_per_move_p95" in summary
                else ""
            )
        )
    noted = {name: count for name, count in summary.get("noted_moves", {}).items() if count}
    if noted:
        lines.append("  moves with a budget note: " + ", ".join(f"{name} {count}" for name, count in noted.items()))
    ends = ", ".join(f"{k} {v}" for k, v in sorted(summary["end_reasons"].items()))
    lines.append(f"  round endings: {ends}" + (f"; {summary['draws']} drawn" if summary.get("draws") else ""))
    if "seconds" in summary:
        lines.append(f"  {summary['seconds']:.1f} s wall, {summary['games_per_second']:.2f} games/s")
    return "\n".join(lines)


def _local(tasks: list[DealTask], workers: int) -> Iterator[list[dict[str, Any]]]:
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield run_deal(task)
        return
    # one deal at a time per worker: deals are long, and a chunk of several would leave the
    # other workers idle at the end
    with closing(ordered_map(run_deal, tasks, workers, chunk=1)) as results:
        yield from results


def run_tournament(
    kinds: Sequence[str],
    games: int,
    seed: int = 0,
    rules: RuleSet = STANDARD,
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    on_game: Callable[[dict[str, Any]], None] | None = None,
    log: bool = False,
    think: float | None = None,
    kind: GameKind = TILE_GAME,
) -> dict[str, Any]:
    """Play the tournament of ``kind`` and return :func:`summarize`'s summary; ``on_game`` sees each
    game's result; ``think``: the expert's budget per move in seconds."""
    tasks = plan(kinds, games, seed, rules, log, think, kind=kind)
    start = time.perf_counter()
    if ray_address is not None:
        from rummisolve.game.ray_runner import run_deals_ray

        batches = run_deals_ray(tasks, ray_address)
    else:
        batches = _local(tasks, workers if workers is not None else (os.cpu_count() or 1))
    results = []
    for batch in batches:
        for result in batch:
            if on_game is not None:
                on_game(result)
            result = dict(result)
            result.pop("log", None)
            results.append(result)
    return summarize(results, kinds, time.perf_counter() - start)
