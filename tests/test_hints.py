"""The hint ladder: each level reveals what it promises and no more, from the proven-best move."""

from __future__ import annotations

import random

import pytest

from benchmarks.positions import random_position
from rummisolve import STANDARD, Position, solve
from rummisolve.errors import OptionError
from rummisolve.explain import explain
from rummisolve.hints import hint
from rummisolve.service import solve_json

MOVE = Position.from_notation(["R3 R4 R5 R6", "K9 B9 O9 R9", "B1 B2 B3"], "R7 O7 O8 K1")


def test_each_level_reveals_more_of_the_same_best_move():
    best = solve(MOVE)
    one, two, three = (hint(MOVE, level) for level in (1, 2, 3))
    for h in (one, two, three):
        assert h.status == "optimal" and h.tiles == best.played
    assert one.touched is None and one.table is None and one.explanation is None
    assert one.text == "You can play 3 tiles: O7 O8 R7."
    assert two.touched == (0, 1) and two.table is None  # B1 B2 B3 stays as it is
    assert "R3 R4 R5 R6 and K9 B9 O9 R9" in two.text and "B1 B2 B3" not in two.text
    assert three.table == best.table and three.explanation == explain(MOVE, best.table)
    assert three.text.startswith(two.text) and "Make a new run O7 O8 O9" in three.text


def test_hints_without_a_move_and_for_untouched_tables():
    none = hint(Position.from_notation(["R1 R2 R3"], "K9"), 2)
    assert none.status == "no_move" and none.tiles == () and none.text == "No move: draw a tile."
    fresh = hint(Position.from_notation(["R1 R2 R3"], "K10 B10 O10"), 2)
    assert fresh.touched == () and "leaves every meld on the table as it is" in fresh.text


def test_level_two_names_exactly_the_melds_the_move_changes():
    rng = random.Random(4)
    for _ in range(30):
        position = random_position(rng, STANDARD, table_size=30, rack_size=8)
        best = solve(position)
        h = hint(position, 2)
        if not best:
            continue
        changed = {i for i in range(len(position.table)) if i not in best.kept}
        assert set(h.touched) == changed


def test_bad_levels_are_refused():
    for bad in (0, 4, "2", True, None):
        with pytest.raises(OptionError, match="hint level"):
            hint(MOVE, bad)


def test_the_json_answer_holds_only_what_the_level_reveals():
    body = {"table": [["R3", "R4", "R5", "R6"], ["K9", "B9", "O9", "R9"]], "rack": ["R7", "O7", "O8"]}
    one = solve_json({**body, "hint": 1, "id": 9})
    assert one["id"] == 9 and one["status"] == "optimal" and one["proven"] is True
    assert "table" not in one and "played" not in one  # the answer holds the hint alone
    assert one["hint"] == {
        "level": 1,
        "text": "You can play 3 tiles: O7 O8 R7.",
        "played": ["O7", "O8", "R7"],
        "tiles_played": 3,
    }
    two = solve_json({**body, "hint": 2})["hint"]
    assert two["touched"] == [0, 1] and "table" not in two and "steps" not in two
    three = solve_json({**body, "hint": 3})["hint"]
    full = solve_json({**body, "explain": True})
    assert three["table"] == full["table"] and three["steps"] == full["steps"] and three["meld_map"] == full["meld_map"]
    for bad, message in ((0, "position.hint: expected 1, 2 or 3"), ("x", "position.hint"), (True, "position.hint")):
        answer = solve_json({**body, "hint": bad})
        assert answer["status"] == "error" and answer["error"].startswith(message), answer
    clash = solve_json({**body, "hint": 2, "alternatives": 1})
    assert clash["status"] == "error" and "'alternatives'" in clash["error"]
    assert solve_json({**body, "hint": 1, "rack": ["X9"]})["error"].startswith("position.rack[0]")


def test_the_cli_gives_hints(monkeypatch, capsys):
    import io
    import json
    import sys

    from rummisolve import cli

    monkeypatch.setattr(sys, "stdin", io.StringIO('{"table": [["R1","R2","R3"]], "rack": ["R4","K9"]}\n'))
    assert cli.main(["solve", "--hint", "2", "--text"]) == 0
    assert (
        capsys.readouterr().out.strip()
        == "hint: You can play 1 tile: R4. The move changes 1 meld on the table: R1 R2 R3."
    )
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"table": [["R1","R2","R3"]], "rack": ["R4","K9"]}\n'))
    assert cli.main(["solve", "--hint", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["hint"]["played"] == ["R4"]
