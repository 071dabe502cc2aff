"""The expert's playout rate under the discard rule: playout turns per CPU second, on fixed deals.

    python -m benchmarks.expert_rate [--games 3] [--moves 6] [--seed 52] [--rules discard|standard|twist]
    python -m benchmarks.expert_rate --trace moves.jsonl     # each searched move, to compare two commits
    python -m benchmarks.expert_rate --profile 30            # cProfile's top 30 functions, by own time

Plays 2-player games, expert (a counted budget: the same worlds on any machine) against hard, from
deal seeds ``seed``, ``seed + 1``, ...; each game stops after the expert's ``--moves`` searched
moves (the moves where it ran playouts). Reports the playout turns the searches played (each
:meth:`~rummisolve.game.ai.expert_discard.Sim.turn`; under the discard rule only), the CPU
seconds of the expert's searched moves (the whole move: its candidates, the hard AI's choice and
the playouts), their ratio, and the moves' CPU p50/p95 (under Twist each playout solve's work
capped at :data:`~rummisolve.game.ai.expert.COUNTED_WORK`).
The expert's calibration (``DISCARD_TURNS_PER_SECOND``) sets the worlds a move plays; this rate
is what a move's budget of CPU actually buys. ``--trace`` writes each searched move (its action
and every candidate's label, value and worlds): two commits whose traces are equal made the same
decisions on these deals.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from rummisolve.game.ai import expert_discard
from rummisolve.game.ai.expert import ExpertPlayer
from rummisolve.game.ai.hard import HardPlayer
from rummisolve.game.engine import Game
from rummisolve.game.runner import play_turn
from rummisolve.rules import STANDARD, TWIST

__all__ = ["play", "main"]


class _Counting:
    """Counts the playout turns of the running searches (wraps :meth:`Sim.turn` while in use)."""

    def __init__(self) -> None:
        self.turns = 0

    def __enter__(self) -> _Counting:
        self._turn = sim_turn = expert_discard.Sim.turn
        counter = self

        def turn(sim: Any, *args: Any, **kwargs: Any) -> bool:
            counter.turns += 1
            return sim_turn(sim, *args, **kwargs)

        expert_discard.Sim.turn = turn  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        expert_discard.Sim.turn = self._turn  # type: ignore[method-assign]


class _Recording:
    """The expert, timing each move and keeping the searched ones."""

    def __init__(self, expert: ExpertPlayer, counter: _Counting, game: int) -> None:
        self.expert = expert
        self.counter = counter
        self.game = game
        self.moves: list[dict[str, Any]] = []
        self.name = expert.name

    def choose(self, view: Any) -> Any:
        turns = self.counter.turns
        cpu = time.process_time()
        action = self.expert.choose(view)
        cpu = time.process_time() - cpu
        if self.expert.last:
            self.moves.append(
                {
                    "game": self.game,
                    "turn": view.turn,
                    "draw_from": view.draw_from,
                    "action": repr(action),
                    "candidates": [[c.label, repr(c.action), c.value, c.worlds] for c in self.expert.last],
                    "cpu": cpu,
                    "turns": self.counter.turns - turns,
                }
            )
        return action


def play(games: int, moves: int, seed: int, rules: Any) -> list[dict[str, Any]]:
    """The expert's searched moves over ``games`` games (see the module docstring)."""
    out: list[dict[str, Any]] = []
    with _Counting() as counter:
        for g in range(games):
            expert = _Recording(ExpertPlayer(seed=seed + g, clock=False), counter, g)
            players = [expert, HardPlayer(seed=seed + g + 7919)]
            game = Game(2, rules, seed + g)
            while not game.finished and len(expert.moves) < moves:
                play_turn(game, players[game.state.current], "p")
            out += expert.moves
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--moves", type=int, default=6, help="the expert's searched moves per game")
    parser.add_argument("--seed", type=int, default=52)
    parser.add_argument("--rules", choices=("discard", "standard", "twist"), default="discard")
    parser.add_argument("--trace", help="write each searched move (JSON lines) to this file")
    parser.add_argument("--profile", type=int, default=0, help="print cProfile's top N functions")
    args = parser.parse_args(argv)
    rules = {"discard": STANDARD.replace(discard=True), "standard": STANDARD, "twist": TWIST}[args.rules]
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    moves = play(args.games, args.moves, args.seed, rules)
    if profiler:
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(args.profile)
    if args.trace:
        with open(args.trace, "w") as f:
            for m in moves:
                f.write(json.dumps({k: v for k, v in m.items() if k != "cpu"}) + "\n")
    if not moves:
        print(f"{args.rules}: no searched move", file=sys.stderr)
        return 1
    cpu = [m["cpu"] for m in moves]
    turns = sum(m["turns"] for m in moves)
    p95 = statistics.quantiles(cpu, n=20)[-1] if len(cpu) > 1 else cpu[0]
    rate = f"{turns} playout turns in {sum(cpu):.2f} CPU s: {turns / sum(cpu):.0f} turns/s; " if turns else ""
    print(
        f"{args.rules}: {len(moves)} searched moves, {rate}move CPU p50 {1000 * statistics.median(cpu):.0f} ms, "
        f"p95 {1000 * p95:.0f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
