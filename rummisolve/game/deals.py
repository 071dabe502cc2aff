"""One deal of a tournament, played in every seat rotation: the unit of work a local process or
a Ray worker runs. Picklable in and out, so it crosses process boundaries.

With three or more players, who sits before whom matters (the hard AI's guard watches the player
after it; a weak player feeds the one after it). So each deal has its own order round the table
(:func:`seating`): over ``(n - 1)!`` deals every order is played, and each contestant sits right
after each other one equally often."""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummisolve.errors import OptionError
from rummisolve.game.kind import GameKind
from rummisolve.game.runner import turn_line
from rummisolve.game.tile_game import TILE_GAME
from rummisolve.jsonio import rules_from_json

if TYPE_CHECKING:
    from rummisolve.game.actions import Action, Player
    from rummisolve.game.state import PlayerView

__all__ = ["DealTask", "contestant_names", "deal_seed", "run_deal", "seating", "turn_line"]


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


def seating(players: int, deal: int, rotation: int) -> tuple[int, ...]:
    """Seat -> contestant in ``rotation`` of deal ``deal``: the deal's order round the table
    (contestant 0, then the others in the ``deal % (players - 1)!``-th of their orders), turned by
    ``rotation`` seats. With two players this is the plain rotation."""
    others = range(1, players)
    k = deal % math.factorial(max(0, players - 1))
    order = (0, *next(itertools.islice(itertools.permutations(others), k, None)))
    return tuple(order[(s + rotation) % players] for s in range(players))


@dataclass(frozen=True)
class DealTask:
    """One deal to play in every seat rotation (picklable, so it can go to a worker process or Ray)."""

    kinds: tuple[str, ...]
    index: int
    seed: int
    rules: Any  # JSON form of the RuleSet
    log: bool = False
    think: float | None = None
    """The expert's budget per move in seconds (``None``: its default)."""
    clock: bool | None = None
    """Whether the expert's moves are clocked (``None``: its default, clocked; ``False``: the
    budget is counted, the same moves on any machine whatever its load)."""
    kind: GameKind = TILE_GAME
    """The kind of game the deal is of."""


class _Timed:
    """Wraps a player to measure its thinking time per move (a turn: under the discard rule a turn
    that draws asks the player twice, as does an Xpress turn that rolls, and both count towards the
    one move)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = getattr(player, "name", "player")
        self.seconds = 0.0
        self.moves = 0
        self.times: list[float] = []
        """Seconds per move (a turn's asks added up), wall clock."""
        self.cpu: list[float] = []
        """The same in this process's CPU time (what the move cost, whatever else the machine ran)."""
        self.note: str | None = None
        """The last move's note (a player's ``note`` after its asks, e.g. the expert's budget cut)."""
        self.noted = 0
        """How many moves had a note."""

    def choose(self, view: PlayerView) -> Action:
        start, cpu = time.perf_counter(), time.process_time()
        try:
            return self.player.choose(view)
        finally:
            spent, used = time.perf_counter() - start, time.process_time() - cpu
            self.seconds += spent
            note = getattr(self.player, "note", None)
            if not view.continues_turn:
                self.moves += 1
                self.times.append(spent)
                self.cpu.append(used)
                self.note = note
                self.noted += note is not None
            else:
                if self.times:
                    self.times[-1] += spent
                    self.cpu[-1] += used
                if note is not None:
                    self.noted += self.note is None
                    self.note = note if self.note is None else f"{self.note}; {note}"


def run_deal(task: DealTask) -> list[dict[str, Any]]:
    """Play one deal in every rotation of its order round the table (:func:`seating`); one result
    dict per game (with its turn log if asked)."""
    rules = rules_from_json(task.rules)
    if not task.kind.plays(rules):
        raise OptionError(
            f"rules: {task.kind.title} does not play these rules (rummisolve.kinds.kind_of finds the kind that does)"
        )
    make_player, play_game, line_of = task.kind.tournament_game()
    kinds = task.kinds
    n = len(kinds)
    names = contestant_names(kinds)
    results = []
    for rotation in range(n):
        seats = list(seating(n, task.index, rotation))  # seat -> contestant
        extra = {} if task.clock is None else {"clock": task.clock}
        players = [
            _Timed(make_player(kinds[c], seed=task.seed + rotation + 7919 * c, think=task.think, **extra))
            for c in seats
        ]
        game_index = task.index * n + rotation
        turns: list[dict[str, Any]] = []

        def on_turn(
            info: Any,
            seats: list[int] = seats,
            game_index: int = game_index,
            turns: list[dict[str, Any]] = turns,
            players: list[_Timed] = players,
        ) -> None:
            if not task.log:
                return
            line = line_of(info, game_index, names[seats[info.seat]], rules.discard)
            if players[info.seat].note is not None:
                line["note"] = players[info.seat].note
            turns.append(line)

        start = time.perf_counter()
        _, record = play_game(players, rules=rules, seed=task.seed, names=[names[c] for c in seats], on_turn=on_turn)
        elapsed = time.perf_counter() - start
        scores = [0] * n
        think = [0.0] * n
        moves = [0] * n
        times: list[list[float]] = [[] for _ in range(n)]
        cpu: list[list[float]] = [[] for _ in range(n)]
        noted = [0] * n
        for seat, contestant in enumerate(seats):
            scores[contestant] = record.scores[seat]
            think[contestant] = players[seat].seconds
            moves[contestant] = players[seat].moves
            times[contestant] = [round(t, 5) for t in players[seat].times]
            cpu[contestant] = [round(t, 5) for t in players[seat].cpu]
            noted[contestant] = players[seat].noted
        results.append(
            {
                "game": game_index,
                "deal": task.index,
                "seed": task.seed,
                "seats": seats,
                "winner": None if record.winner is None else seats[record.winner],  # None: a draw (Xpress)
                "end_reason": record.end_reason,
                "scores": scores,
                "turns": record.turns,
                "illegal_moves": record.illegal_moves,
                "seconds": elapsed,
                "think_seconds": think,
                "moves": moves,
                "move_seconds": times,
                "move_cpu_seconds": cpu,
                "noted_moves": noted,
                "log": turns,
            }
        )
    return results
