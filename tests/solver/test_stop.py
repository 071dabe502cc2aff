"""``solve(..., stop=StopSignal())``: stopping a solve from another thread, and nothing else changing."""

from __future__ import annotations

import random
import threading

import pytest

from benchmarks.positions import random_position, small_position
from rummisolve import STANDARD, XP, Position, RuleSet, solve, solve_json, verify
from rummisolve.jsonio import position_to_json
from rummisolve.solution import Status
from rummisolve.solver import StopSignal

BIG = RuleSet(colours=8, numbers=99, copies=4, jokers=4)


def hard_position() -> Position:
    """900 tiles under an 8-colour, 99-number, 4-copy set: unproven after 10 s on the development machine."""
    return random_position(random.Random(1), BIG, table_size=600, rack_size=300)


def test_stop_signal_calls_its_callbacks_while_registered():
    signal = StopSignal()
    calls = []
    with signal.calling(lambda: calls.append("a")):
        assert not signal.is_set()
        signal.set()
        signal.set()  # a second set calls nothing again
    assert signal.is_set() and calls == ["a"]
    with signal.calling(lambda: calls.append("b")):  # already set: called at once
        pass
    assert calls == ["a", "b"]
    other = StopSignal()
    with other.calling(lambda: calls.append("c")):
        pass
    other.set()  # no longer registered
    assert calls == ["a", "b"] and repr(other) == "StopSignal(set)"


def test_a_stop_set_before_the_solve_ends_it_unproven():
    position = Position.from_notation(["R1 R2 R3", "K7 B7 O7"], "R4 R7 J K12", opened=True)
    assert solve(position).status is Status.OPTIMAL
    stop = StopSignal()
    stop.set()
    stopped = solve(position, stop=stop)
    # As if the time limit had run out before any move was found: 'unknown', never 'no_move'.
    assert stopped.status is Status.UNKNOWN and not stopped.proven and stopped.played == ()


def test_a_stop_set_during_the_search_ends_it():
    position = hard_position()
    stop = StopSignal()
    result: list = []
    worker = threading.Thread(target=lambda: result.append(solve(position, stop=stop)))  # no time limit
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    worker.start()
    worker.join(120)
    timer.cancel()
    assert result, "the solve did not stop"
    (solution,) = result
    # Without the stop this search runs on until it proves the optimum (it has not after 10 s).
    assert solution.status in (Status.FEASIBLE, Status.UNKNOWN) and not solution.proven
    if solution.played:
        assert verify(position, solution.table).legal


def test_an_unset_stop_changes_no_answer():
    rng = random.Random("stop")
    sample = [
        random_position(rng, rules, table_size=t, rack_size=r)
        for rules in (STANDARD, XP)
        for t, r in ((30, 8), (60, 14))
    ]
    sample += [small_position(rng, STANDARD) for _ in range(4)]
    for position in sample:
        for objective in ("tiles", "value"):
            plain = solve(position, objective)
            with_stop = solve(position, objective, stop=StopSignal())
            assert (with_stop.status, with_stop.played, with_stop.table, with_stop.value) == (
                plain.status,
                plain.played,
                plain.table,
                plain.value,
            )


def test_solve_json_passes_the_stop_on():
    body = position_to_json(Position.from_notation(["R1 R2 R3"], "R4 J", opened=True))
    stop = StopSignal()
    stop.set()
    assert solve_json(body)["status"] == "optimal"
    assert solve_json(body, stop=stop)["status"] == "unknown"


def test_stop_must_be_a_stop_signal():
    with pytest.raises(TypeError, match="stop must be a StopSignal"):
        solve(Position.from_notation([], "R1"), stop=threading.Event())
