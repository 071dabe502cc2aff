"""The Xpress fields of the JSON contract: dice, reroll, and every bad input named."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from rummisolve import solve_json
from rummisolve.jsonio import position_from_json
from rummisolve.xpress.reroll import best_reroll
from rummisolve.xpress.reroll_json import advice_to_json, free_dice_from_json

BASE = {"rules": "xpress", "table": [["R1", "R2", "R3"]], "rack": ["B1", "O1", "R1"], "dice": ["D1", "D3", "D5"]}


def test_reroll_answers_beside_the_usual_result():
    answer = solve_json({**BASE, "reroll": True})
    assert answer["status"] == "optimal" and answer["tiles_played"] == 3
    reroll = answer["reroll"]
    assert set(reroll) >= {"dice", "expected", "exact", "stderr", "options"}
    assert reroll["dice"] == [] and reroll["expected"] == {"tiles": 3.0, "value": 3.0, "out": 1.0}
    assert reroll["exact"] is True and reroll["stderr"] is None
    assert len(reroll["options"]) == 8 and reroll["options"][0]["dice"] == reroll["dice"]
    json.dumps(answer)


def test_dice_without_reroll_answer_as_usual_and_custom_dice_work():
    assert "reroll" not in solve_json(BASE)
    custom = {**BASE, "dice": ["D1", "D3", {"faces": ["R1", "K2", "K3", "K4", "K5", "K6"]}], "reroll": "out"}
    answer = solve_json(custom)
    assert answer["reroll"]["objective"] == "out"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"dice": ["D1", "D3", "D99"]}, "position.dice[2]: unknown die 'D99'"),
        ({"dice": ["D1", "D3", "D7"]}, "position.dice[2]: die D7 has no face R1"),
        ({"dice": ["D1", "D1", "D5"], "rack": ["B1", "B1", "R1"]}, "die D1 is already claimed by dice[0]"),
        ({"dice": ["D1", "D3"]}, "2 dice for a rack of 3 entries"),
        ({"dice": "D1"}, "position.dice: expected an array"),
        ({"dice": ["D1", "D3", 5]}, "position.dice[2]: expected a die name"),
        ({"dice": ["D1", "D3", {"faces": ["R1"]}]}, "position.dice[2]: expected 6 faces"),
        ({"dice": ["D17", "D18"], "rack": ["O5", "B7"], "table": [["R1", "R2", "R3"]]}, "claimed as free"),
        ({"rack": ["R1"] * 0 + ["B1"] * 1, "dice": None}, "expected an array"),
        ({"reroll": "maybe"}, "position.reroll: expected true, false"),
    ],
)
def test_bad_dice_are_named(change, message):
    answer = solve_json({**BASE, **change, "reroll": change.get("reroll", True)})
    assert answer["status"] == "error" and message in answer["error"], answer


def test_the_reroll_budget_reaches_best_reroll():
    # 343 outcomes over the 8 subsets: a budget of 60 solves races the larger ones
    request = json.loads(json.dumps({**BASE, "reroll": True, "reroll_max_solves": 60}))
    reroll = solve_json(request)["reroll"]
    position = position_from_json({k: BASE[k] for k in ("rules", "table", "rack")})
    dice = free_dice_from_json(BASE, position)
    assert reroll == advice_to_json(best_reroll(position, dice, "tiles", max_solves=60))
    assert reroll["solves"] <= 60 and not all(o["exact"] for o in reroll["options"])
    assert reroll != solve_json({**BASE, "reroll": True})["reroll"]


def test_the_reroll_time_limit_stops_the_race():
    answer = solve_json({**BASE, "reroll": True, "reroll_max_solves": 60, "reroll_time_limit": 1e-9})
    assert answer["reroll"]["timed_out"] is True
    assert solve_json({**BASE, "reroll": True, "reroll_max_solves": 60})["reroll"]["timed_out"] is False


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("reroll_max_solves", "60", "position.reroll_max_solves: expected a whole number of solves, got string"),
        ("reroll_max_solves", 60.0, "position.reroll_max_solves: expected a whole number of solves, got 60.0"),
        ("reroll_max_solves", True, "position.reroll_max_solves: expected a whole number of solves, got boolean"),
        ("reroll_max_solves", None, "position.reroll_max_solves: expected a whole number of solves, got null"),
        ("reroll_max_solves", 0, "position.reroll_max_solves: expected 1 to 1000000 solves, got 0"),
        ("reroll_max_solves", -5, "position.reroll_max_solves: expected 1 to 1000000 solves, got -5"),
        ("reroll_max_solves", 10**7, "position.reroll_max_solves: expected 1 to 1000000 solves, got 10000000"),
        ("reroll_time_limit", "1", "position.reroll_time_limit: time_limit must be a number of seconds"),
        ("reroll_time_limit", True, "position.reroll_time_limit: time_limit must be a number of seconds"),
        ("reroll_time_limit", 0, "position.reroll_time_limit: time_limit must be a positive number"),
        ("reroll_time_limit", -1.5, "position.reroll_time_limit: time_limit must be a positive number"),
    ],
)
def test_a_bad_reroll_budget_is_named(field, value, message):
    answer = solve_json({**BASE, "reroll": True, field: value})
    assert answer["status"] == "error" and message in answer["error"], answer


@pytest.mark.parametrize("reroll", [None, False])
def test_a_reroll_budget_needs_reroll(reroll):
    request = {**BASE, "reroll_time_limit": 2} if reroll is None else {**BASE, "reroll": False, "reroll_max_solves": 9}
    answer = solve_json(request)
    assert answer["status"] == "error" and "needs 'reroll'" in answer["error"], answer


def test_reroll_without_dice_is_an_error():
    request = {k: v for k, v in BASE.items() if k != "dice"}
    answer = solve_json({**request, "reroll": True})
    assert answer["status"] == "error" and "position.reroll: needs 'dice'" in answer["error"]


def test_more_dice_than_the_edition_has():
    rack = [f"{colour}{number}" for colour in "KB" for number in range(1, 11)][:19]
    dice = [{"faces": [code, "R1", "R2", "R3", "R4", "R5"]} for code in rack]
    answer = solve_json({"rules": "xpress", "rack": rack, "dice": dice, "reroll": True})
    assert answer["status"] == "error" and "19 dice, but the edition has 18" in answer["error"]


def test_the_cli_option_allows_what_the_request_allows():
    from rummisolve.commands.solve import _solves
    from rummisolve.xpress.reroll_json import MAX_REROLL_SOLVES

    assert _solves(str(MAX_REROLL_SOLVES)) == MAX_REROLL_SOLVES
    for bad in ("0", "-3", str(MAX_REROLL_SOLVES + 1), "1.5"):
        with pytest.raises(argparse.ArgumentTypeError):
            _solves(bad)


def test_the_cli_reads_a_reroll_request_and_its_budget():
    # the fields in the request, or the options for each line asking for the re-roll
    lines = [{**BASE, "reroll": True, "reroll_max_solves": 60}, BASE, {**BASE, "reroll": True}]
    done = subprocess.run(
        [sys.executable, "-m", "rummisolve", "solve", "-", "--reroll-max-solves", "60", "--reroll-time-limit", "30"],
        input="\n".join(map(json.dumps, lines)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    expected = solve_json({**BASE, "reroll": True, "reroll_max_solves": 60})["reroll"]
    assert answers[0]["reroll"] == answers[2]["reroll"] == expected
    assert answers[1]["status"] == "optimal" and "reroll" not in answers[1]


def test_a_reroll_of_more_free_dice_than_a_player_has_is_refused():
    # a player has 9 dice; ranking 2**15 subsets would take a server's solver thread for a minute
    from rummisolve.xpress.dice import die_names, xpress_dice

    dice = xpress_dice()[:15]
    position = {"rules": "xpress", "table": [], "rack": [str(d.faces[0]) for d in dice], "dice": list(die_names()[:15])}
    answer = solve_json({**position, "reroll": True})
    assert answer["status"] == "error"
    assert "position.dice: the best re-roll ranks at most 9 free dice" in answer["error"], answer
    assert "got 15" in answer["error"]
    assert solve_json(position)["status"] == "optimal"  # the dice alone still solve


def test_dice_under_rules_without_dice_are_refused():
    for rules in ("standard", "twist", {"preset": "xpress", "dice": False}):
        answer = solve_json({"rules": rules, "table": [], "rack": ["R1"], "dice": ["D1"], "reroll": True})
        assert answer["status"] == "error", rules
        assert answer["error"].startswith("position.dice: dice belong to the Xpress edition"), answer
