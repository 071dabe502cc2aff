"""Self-play tournaments: mirrored deals, a local process pool (or Ray), and a summary with 95% intervals.

Each deal is played once per rotation of the seats: with players ``A,B`` the same shuffled deck
is played with A in seat 0 and then with B in seat 0, so the luck of the deal cancels out.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rummisolve.jsonio import position_to_json, rules_from_json, rules_to_json, table_to_json
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


def contestant_names(kinds: Sequence[str]) -> tuple[str, ...]:
    """Labels for the contestants: the kind, numbered when a kind appears twice (``medium#1``)."""
    counts = Counter(kinds)
    seen: Counter[str] = Counter()
    names = []
    for kind in kinds:
        seen[kind] += 1
        names.append(kind if counts[kind] == 1 else f"{kind}#{seen[kind]}")
    return tuple(names)


def deal_seed(seed: int, index: int) -> int:
    """The deck seed of deal ``index`` in a tournament seeded ``seed`` (stable across runs and machines)."""
    return random.Random(f"rummisolve-tournament/{seed}/{index}").getrandbits(63)


@dataclass(frozen=True)
class DealTask:
    """One deal to play in every seat rotation (picklable, so it can go to a worker process or Ray)."""

    kinds: tuple[str, ...]
    index: int
    seed: int
    rules: Any  # JSON form of the RuleSet
    log: bool = False


def plan(kinds: Sequence[str], games: int, seed: int, rules: RuleSet = STANDARD, log: bool = False) -> list[DealTask]:
    """The deals for ``games`` games (rounded up to a whole number of rotations)."""
    n = len(kinds)
    deals = max(1, math.ceil(games / n))
    rules_json = rules_to_json(rules)
    return [DealTask(tuple(kinds), i, deal_seed(seed, i), rules_json, log) for i in range(deals)]


class _Timed:
    """Wraps a player to measure its thinking time."""

    def __init__(self, player) -> None:
        self.player = player
        self.name = getattr(player, "name", "player")
        self.seconds = 0.0
        self.moves = 0

    def choose(self, view):
        start = time.perf_counter()
        try:
            return self.player.choose(view)
        finally:
            self.seconds += time.perf_counter() - start
            self.moves += 1


def run_deal(task: DealTask) -> list[dict[str, Any]]:
    """Play one deal in every rotation; one result dict per game (with its turn log if asked)."""
    from rummisolve.game.players import make_player
    from rummisolve.game.runner import play_game

    rules = rules_from_json(task.rules)
    kinds = task.kinds
    n = len(kinds)
    names = contestant_names(kinds)
    results = []
    for rotation in range(n):
        seats = [(s + rotation) % n for s in range(n)]  # seat -> contestant
        players = [_Timed(make_player(kinds[c], seed=task.seed + rotation + 7919 * c)) for c in seats]
        game_index = task.index * n + rotation
        turns: list[dict[str, Any]] = []

        def on_turn(info, seats=seats, game_index=game_index, turns=turns) -> None:
            if not task.log:
                return
            line = {
                "game": game_index,
                "turn": info.turn,
                "player": names[seats[info.seat]],
                "seat": info.seat,
                "position": position_to_json(info.position),
                "action": "play" if hasattr(info.event, "table") else "draw",
            }
            if hasattr(info.event, "table"):
                line["table"] = table_to_json(info.event.table)
            if info.illegal:
                line["illegal"] = info.illegal
            turns.append(line)

        start = time.perf_counter()
        _, record = play_game(
            players, rules=rules, deck=None, seed=task.seed, names=[names[c] for c in seats], on_turn=on_turn
        )
        elapsed = time.perf_counter() - start
        scores = [0] * n
        think = [0.0] * n
        moves = [0] * n
        for seat, contestant in enumerate(seats):
            scores[contestant] = record.scores[seat]
            think[contestant] = players[seat].seconds
            moves[contestant] = players[seat].moves
        results.append(
            {
                "game": game_index,
                "deal": task.index,
                "seed": task.seed,
                "seats": seats,
                "winner": seats[record.winner],
                "end_reason": record.end_reason,
                "scores": scores,
                "turns": record.turns,
                "illegal_moves": record.illegal_moves,
                "seconds": elapsed,
                "think_seconds": think,
                "moves": moves,
                "log": turns,
            }
        )
    return results


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
    """Aggregate game results: wins with 95% intervals, mean scores, turns, illegal moves, timing."""
    names = contestant_names(kinds)
    n = len(kinds)
    games = 0
    wins = [0] * n
    score_sum = [0] * n
    turns = 0
    illegal = 0
    ends: Counter[str] = Counter()
    think = [0.0] * n
    moves = [0] * n
    play_seconds = 0.0
    for r in results:
        games += 1
        wins[r["winner"]] += 1
        for c in range(n):
            score_sum[c] += r["scores"][c]
            think[c] += r["think_seconds"][c]
            moves[c] += r["moves"][c]
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
        "mean_score": {names[c]: (score_sum[c] / games if games else 0.0) for c in range(n)},
        "turns_per_game": turns / games if games else 0.0,
        "illegal_moves": illegal,
        "end_reasons": dict(ends),
        "ms_per_move": {names[c]: (1000 * think[c] / moves[c] if moves[c] else 0.0) for c in range(n)},
        "cpu_seconds": play_seconds,
        "games_per_cpu_second": games / play_seconds if play_seconds else 0.0,
    }
    if seconds is not None:
        summary["seconds"] = seconds
        summary["games_per_second"] = games / seconds if seconds else 0.0
    return summary


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
        )
    ends = ", ".join(f"{k} {v}" for k, v in sorted(summary["end_reasons"].items()))
    lines.append(f"  round endings: {ends}")
    if "seconds" in summary:
        lines.append(f"  {summary['seconds']:.1f} s wall, {summary['games_per_second']:.2f} games/s")
    return "\n".join(lines)


def _local(tasks: list[DealTask], workers: int) -> Iterator[list[dict[str, Any]]]:
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield run_deal(task)
        return
    import multiprocessing

    context = multiprocessing.get_context("forkserver" if os.name != "nt" else "spawn")
    with context.Pool(processes=workers) as pool:
        yield from pool.imap_unordered(run_deal, tasks)


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
) -> dict[str, Any]:
    """Play the tournament and return :func:`summarize`'s summary; ``on_game`` sees each game's result."""
    tasks = plan(kinds, games, seed, rules, log)
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
