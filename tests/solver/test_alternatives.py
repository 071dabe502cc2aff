"""``solve(..., alternatives=N)``: further moves, each the best among the moves whose played tiles
differ from every earlier one's, checked against the benchmark oracle (an independent HiGHS MIP)
given the same exclusions, and against the referee."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from benchmarks.oracle import solve as oracle_solve
from benchmarks.positions import random_position, small_position
from rummisolve import STANDARD, XP, Position, RuleSet, solve, verify
from rummisolve.errors import OptionError
from rummisolve.jsonio import position_from_json

HERE = Path(__file__).resolve().parents[1]
GAME = HERE.parent / "benchmarks" / "game.jsonl"
CONTRACT = ("rules", "table", "rack", "opened")


def primary(solution, objective: str) -> int:
    return len(solution.played) if objective == "tiles" else solution.value


def check_alternatives(position: Position, objective: str, n: int = 3, oracle: bool = True) -> None:
    best = solve(position, objective, alternatives=n)
    moves = (best, *best.alternatives)
    assert len(best.alternatives) <= n
    if not best:
        assert best.alternatives == ()
        return
    seen = []
    for move in moves:
        assert move and move.status == "optimal"
        assert move is best or move.alternatives == ()
        verdict = verify(position, move.table)
        assert verdict.legal, verdict.reasons
        assert Counter(verdict.played) == Counter(move.played)
        assert all(Counter(move.played) != Counter(earlier) for earlier in seen), "a played multiset repeats"
        if oracle:
            # The oracle, forbidden every earlier played multiset, finds the same best value.
            assert oracle_solve(position, objective, exclude=seen).optimum == primary(move, objective)
        seen.append(move.played)
    keys = [(primary(m, objective), len(m.kept)) for m in moves]
    assert keys == sorted(keys, reverse=True), "ordered by the objective, then melds kept"
    if oracle and len(best.alternatives) < n:  # fewer listed: no other move exists
        assert oracle_solve(position, objective, exclude=seen).optimum is None


def _game_positions(count: int) -> list[Position]:
    lines = [json.loads(line) for line in GAME.read_text().splitlines() if line.strip()]
    rng = random.Random(5)
    chosen = rng.sample(lines, count)
    return [position_from_json({k: r[k] for k in CONTRACT if k in r}) for r in chosen]


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_alternatives_match_the_oracle_on_game_positions(objective):
    for position in _game_positions(24):
        check_alternatives(position, objective)


@pytest.mark.parametrize(
    "rules",
    [
        STANDARD,
        STANDARD.replace(wraparound=True),
        STANDARD.replace(open_then_manipulate=True),
        STANDARD.replace(joker_in_initial_meld=False),
        STANDARD.replace(initial_threshold=10),
        XP,
    ],
    ids=["standard", "wraparound", "open_then_manipulate", "no_joker_in_opening", "threshold_10", "xp"],
)
def test_alternatives_match_the_oracle_on_small_dense_positions(rules):
    rng = random.Random(hash(repr(rules)) % 1000)
    for _ in range(12):
        position = small_position(rng, rules)
        for objective in ("tiles", "value"):
            check_alternatives(position, objective, n=4)


def test_alternatives_on_large_tables_are_legal_distinct_and_ordered():
    rng = random.Random(11)
    for _ in range(4):
        position = random_position(rng, STANDARD, table_size=60, rack_size=14)
        check_alternatives(position, "tiles", n=3)


def test_strict_joker_retrieval_alternatives_are_legal_and_distinct():
    # The oracle does not model strict retrieval: the referee and distinctness are the checks.
    rules = RuleSet(joker_retrieval="strict")
    p = Position.from_notation(["R3 J R5", "K7 B7 O7"], "R4 R6 R7 O6 O8 K8 K9", rules=rules)
    check_alternatives(p, "tiles", n=5, oracle=False)


def test_fewer_alternatives_when_fewer_moves_exist():
    # Only R4 can be played: one move, no alternative.
    p = Position.from_notation(["R1 R2 R3"], "R4 K9")
    s = solve(p, alternatives=3)
    assert [str(t) for t in s.played] == ["R4"]
    assert s.alternatives == ()
    # R4 or R5 alone, or both: three distinct multisets, so two alternatives.
    p = Position.from_notation(["R1 R2 R3"], "R4 R5")
    s = solve(p, alternatives=5)
    assert [[str(t) for t in m.played] for m in (s, *s.alternatives)] == [["R4", "R5"], ["R4"]]


def test_an_opening_lists_other_openings():
    p = Position.from_notation(["R1 R2 R3"], "K13 B13 O13 O11 O12 J B2 K4 R9", opened=False)
    check_alternatives(p, "value", n=4)


def test_no_alternatives_by_default_and_bad_counts_refused():
    p = Position.from_notation(["R1 R2 R3"], "R4 R5")
    assert solve(p).alternatives == ()
    assert solve(Position.from_notation(["R1 R2 R3"], "K9"), alternatives=2).alternatives == ()  # no move
    for bad in (-1, 1.5, "three", True, None):
        with pytest.raises(OptionError, match="alternatives"):
            solve(p, alternatives=bad)


def test_the_json_contract_lists_alternatives_only_when_asked_and_refuses_bad_counts():
    from rummisolve.service import solve_json

    base = {"table": [["R1", "R2", "R3"]], "rack": ["R4", "R5", "J"]}
    assert "alternatives" not in solve_json(base)
    result = solve_json({**base, "alternatives": 3, "id": "a"})
    assert result["id"] == "a" and result["status"] == "optimal"
    listed = result["alternatives"]
    assert 1 <= len(listed) <= 3
    played = [tuple(result["played"])] + [tuple(m["played"]) for m in listed]
    assert len(set(played)) == len(played)  # played lists are sorted: equal multisets are equal tuples
    for move in listed:
        assert set(move) >= {"status", "played", "table", "value", "tiles_played", "proven", "kept"}
        assert "timings" not in move and move["status"] == "optimal"
    assert solve_json({**base, "alternatives": 0})["alternatives"] == []
    for bad in (-1, 11, "three", True, 1.5, None):
        answer = solve_json({**base, "alternatives": bad})
        assert answer["status"] == "error" and answer["error"].startswith("position.alternatives:"), answer


def test_the_cli_takes_alternatives(monkeypatch, capsys):
    import io
    import sys

    from rummisolve import cli

    monkeypatch.setattr(sys, "stdin", io.StringIO('{"table": [["R1","R2","R3"]], "rack": ["R4","R5"]}\n'))
    assert cli.main(["solve", "--alternatives", "2"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [m["played"] for m in result["alternatives"]] == [["R4"]]
    with pytest.raises(SystemExit):
        cli.main(["solve", "--alternatives", "-3"])
    assert "--alternatives" in capsys.readouterr().err


def test_explained_alternatives_carry_their_own_steps():
    from rummisolve.explain import explain
    from rummisolve.service import solve_json

    body = {"table": [["R3", "R4", "R5", "R6"], ["K9", "B9", "O9", "R9"]], "rack": ["R7", "O7", "O8"]}
    result = solve_json({**body, "alternatives": 2, "explain": True})
    position = position_from_json(body)
    assert result["alternatives"]
    for move in (result, *result["alternatives"]):
        expected = explain(position, move["table"])
        assert move["meld_map"] == list(expected.meld_map)
        assert [s["text"] for s in move["steps"]] == [s.text for s in expected.steps]
