"""Many positions at once: solve_many and ``rummisolve solve --workers`` answer as one by one, in order."""

from __future__ import annotations

import io
import json
import random
import sys

import pytest

from benchmarks.positions import random_position
from rummisolve import STANDARD, Position, solve
from rummisolve.batch import ordered_map, solve_many
from rummisolve.errors import OptionError
from rummisolve.jsonio import position_to_json

VOLATILE = ("timings",)


def _positions(count: int, seed: int = 3):
    rng = random.Random(seed)
    return [
        random_position(rng, STANDARD, table_size=rng.randint(0, 40), rack_size=rng.randint(1, 14))
        for _ in range(count)
    ]


def test_solve_many_gives_the_one_by_one_answers_in_input_order():
    positions = _positions(24)
    for objective in ("tiles", "value"):
        many = solve_many(positions, objective, workers=2)
        alone = [solve(p, objective) for p in positions]
        assert [s.position for s in many] == positions
        assert [(s.status, s.played, s.table, s.kept) for s in many] == [
            (s.status, s.played, s.table, s.kept) for s in alone
        ]


def test_solve_many_takes_the_alternatives_mode():
    positions = [Position.from_notation(["R1 R2 R3"], "R4 R5 K9")]
    for mode in ("not_contained", "distinct"):
        (many,) = solve_many(positions, alternatives=2, alternatives_mode=mode, workers=1)
        alone = solve(positions[0], alternatives=2, alternatives_mode=mode)
        assert [a.played for a in many.alternatives] == [a.played for a in alone.alternatives]
    (distinct,) = solve_many(positions, alternatives=2, alternatives_mode="distinct", workers=1)
    assert len(distinct.alternatives) > 0  # R4 alone: no tile the best move does not play, but other tiles
    with pytest.raises(OptionError, match="alternatives_mode must be one of"):
        solve_many(positions, alternatives=1, alternatives_mode="other", workers=1)


def test_solve_many_with_one_worker_and_bad_options():
    positions = _positions(3)
    assert [s.played for s in solve_many(positions, workers=1)] == [solve(p).played for p in positions]
    assert solve_many([], workers=2) == []
    for bad in (0, -1, 1.5, True):
        with pytest.raises(OptionError, match="workers"):
            solve_many(positions, workers=bad)
    with pytest.raises(OptionError, match="objective"):
        solve_many(positions, "points")


def test_ordered_map_keeps_order_across_chunks():
    assert list(ordered_map(abs, range(-50, 0), workers=2, chunk=3)) == list(range(50, 0, -1))


def test_cli_workers_answer_every_line_in_order_like_one_worker(monkeypatch, capsys):
    from rummisolve import cli

    lines = [json.dumps({"id": i, **position_to_json(p)}) for i, p in enumerate(_positions(20, seed=8))]
    lines.insert(7, "not json")
    text = "\n".join(lines) + "\n"

    def run(*args):
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))
        status = cli.main(["solve", *args])
        out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        return status, [{k: v for k, v in r.items() if k not in VOLATILE} for r in out]

    one = run()
    two = run("--workers", "2")
    assert one == two and one[0] == 1  # the bad line is an error (exit 1) in both, in its place
    assert [r.get("id") for r in two[1]] == [*range(7), None, *range(7, 20)]
    with pytest.raises(SystemExit):
        cli.main(["solve", "--workers", "0"])
    assert "--workers" in capsys.readouterr().err
