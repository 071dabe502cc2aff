"""The expert's one search: common worlds, fewer candidates rather than fewer worlds, the solve cache."""

from __future__ import annotations

from rummisolve.game.ai.common import UNTIMED, MoveClock
from rummisolve.game.ai.expert_search import SolveCache, cut_note, run_search, world_floor
from rummisolve.rules import STANDARD, TWIST
from tests.support.ai_views import view_for


class Scripted:
    """A variant whose playouts take one tick of a fake clock each and score by their start."""

    def __init__(self) -> None:
        self.ticks = 0.0
        self.worlds: list[int] = []

    def rng_key(self, view, seed):
        return f"scripted/{seed}"

    def sample(self, view, rng, fitsets, cache, clock):
        self.worlds.append(rng.randrange(1000))
        return {}, []

    def playout(self, view, start, world, depth, cache, clock):
        self.ticks += 1.0
        return start


VIEW = view_for(["R1 R2 R3"], "K5 K6 B9", sizes=(3, 4), pool=20)


def test_every_start_meets_the_same_worlds_when_there_is_time():
    variant = Scripted()
    result = run_search(VIEW, variant, [0.1, 0.9, 0.5], 4, 3, seed=1, cache={}, clock=UNTIMED)
    assert result.values == (0.1, 0.9, 0.5) and result.worlds == (4, 4, 4) and result.done == 4
    assert result.dropped == 0 and len(variant.worlds) == 4


def test_slow_playouts_drop_candidates_not_worlds():
    variant = Scripted()
    clock = MoveClock.starting(3600.0)  # the real clock never runs out here; the fake one does
    assert clock.deadline is not None
    start = clock.deadline - 10.0

    def now() -> float:
        return start + variant.ticks

    starts = [0.3, 0.1, 0.9, 0.2, 0.5]
    result = run_search(VIEW, variant, starts, 6, 3, seed=1, cache={}, clock=clock, now=now)
    # one world of five playouts leaves 5 ticks, 2 more worlds needed (world_floor(6) = 3): two fit
    assert world_floor(6) == 3
    assert result.done == 6 and result.dropped == 3
    assert result.worlds == (6, 1, 6, 1, 1)  # the first (protected) and the best so far stay
    assert result.values[0] == 0.3 and result.values[2] == 0.9
    assert cut_note(result.done, 6, result.dropped) == "budget cut: 3 candidates dropped"


def test_the_solve_cache_is_bounded_and_forgets_another_rule_set():
    cache = SolveCache(size=2).for_rules(STANDARD)
    cache["a"], cache["b"], cache["c"] = 1, 2, 3
    assert list(cache) == ["b", "c"]
    assert cache.for_rules(STANDARD) is cache and len(cache) == 2
    assert len(cache.for_rules(TWIST)) == 0


def test_the_expert_keeps_its_solves_from_move_to_move():
    from rummisolve.game.ai.expert import ExpertPlayer

    view = view_for(["R1 R2 R3", "K7 B7 O7"], "R4 R5 K8 K9 B1", sizes=(5, 3), pool=40)
    expert = ExpertPlayer(seed=3, worlds=3, close=99)
    first = expert.choose(view)
    kept = len(expert.solves)
    assert kept > 0
    again = expert.choose(view)  # the same worlds: every playout solve is a cache hit
    assert again == first and len(expert.solves) == kept
