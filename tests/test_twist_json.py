"""Twist through the JSON contract, the CLI and the schemas (docs/json-contract.md, "Twist")."""

from __future__ import annotations

import io
import json
import re
import sys

from rummisolve import cli
from rummisolve.jsonio import position_from_json, position_to_json, rules_to_json, solution_to_json
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import TWIST
from rummisolve.server.schemas import PositionIn, RuleOptions
from rummisolve.service import render_json, verify_json
from rummisolve.solution import Solution
from rummisolve.tiles import parse_tiles

TURN = {
    "position": {"rules": "twist", "table": [["R2", "JD", "R5"]], "rack": ["jc", "B8", "B9", "R6", "K1"]},
    "table": [["R2", "JD", "R5", "R6", "JC", "B8", "B9"]],
}


def test_the_twist_preset_and_codes_decode():
    position = position_from_json(TURN["position"])
    assert position.rules is TWIST and rules_to_json(position.rules) == "twist"
    assert [str(t) for t in position.rack] == ["K1", "B8", "B9", "R6", "JC"]
    again = position_from_json(json.loads(json.dumps(position_to_json(position))))
    assert again == position and position_to_json(position)["table"] == [["R2", "JD", "R5"]]


def test_verify_json_takes_twist_turns():
    assert verify_json(TURN) == {"legal": True, "reasons": [], "played": ["B8", "B9", "R6", "JC"]}
    bad = {**TURN, "table": [["R2", "JD", "R5", "R6", "JC"], ["B8", "B9"]]}
    result = verify_json(bad)
    assert not result["legal"]
    assert any("jc_at_end" in r["message"] for r in result["reasons"])


def test_a_special_joker_under_the_standard_rules_names_the_option():
    result = verify_json({**TURN, "position": {**TURN["position"], "rules": "standard"}})
    assert "error" in result and "'JD'" in result["error"] and "double_jokers" in result["error"]


def test_joker_assignments_for_every_kind():
    position = Position.from_notation("", "R2 R5 JD J K7 R7 JM R7 K7 B1 B2 K4 JC", rules=TWIST)
    table = tuple(Meld.parse(m, TWIST) for m in ("R2 JD R5 J", "K7 R7 JM R7 K7", "B1 B2 JC K4"))
    played = tuple(sorted(t for m in table for t in m.tiles))
    solution = Solution("optimal", played, table, len(played), "tiles", position)
    entries = solution_to_json(solution, timings=False)["jokers"]
    assert entries == [
        {"meld": 0, "slot": 1, "joker": "JD", "stands_for": ["R3", "R4"]},
        {"meld": 0, "slot": 3, "stands_for": "R6"},
        {"meld": 1, "slot": 2, "joker": "JM", "stands_for": None},
        {"meld": 2, "slot": 2, "joker": "JC", "stands_for": 3},
    ]
    # A regular joker's entry is byte-for-byte what it always was.
    assert json.dumps(entries[1]) == '{"meld": 0, "slot": 3, "stands_for": "R6"}'


def test_the_schemas_take_twist_options_and_codes():
    assert RuleOptions(preset="twist", double_jokers=1, mirror_jokers=0).double_jokers == 1
    pattern = PositionIn.model_json_schema()["properties"]["rack"]["items"]["pattern"]
    assert all(re.match(pattern, code) for code in ("JD", "jc", "Jm", "J", "R7"))
    assert not re.match(pattern, "JX")
    PositionIn(rules="twist", table=[["R2", "JD", "R5"]], rack=["JM"])


def test_the_render_draws_a_twist_position():
    svg = render_json(TURN["position"])
    for code in ("JD",):
        assert f">{code}<" in svg or code in svg


def test_the_cli_verifies_twist_turns(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(TURN) + "\n"))
    status = cli.main(["verify"])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 0 and out[0]["legal"] is True and out[0]["played"] == ["B8", "B9", "R6", "JC"]
    assert parse_tiles(out[0]["played"]) == parse_tiles("B8 B9 R6 JC")


def test_explain_json_takes_a_special_joker_moving():
    from rummisolve.service import explain_json

    turn = {
        "position": {"rules": "twist", "table": [["K1", "K2", "K3", "JD"]], "rack": ["B7", "B8"]},
        "table": [["K1", "K2", "K3"], ["B7", "B8", "JD"]],
    }
    result = explain_json(turn)
    moved = [s for s in result["steps"] if s["tile"] == "JD"]
    assert len(moved) == 1 and moved[0]["from"] == 0 and moved[0]["to"] == 1
