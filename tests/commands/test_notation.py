"""Positions in notation on the command line (``--table``, ``--rack``, ``--rules``, ``--opened``/
``--not-opened``) for ``solve``, ``verify`` and ``render``, and ``solve --text`` naming each answer's ``id``."""

from __future__ import annotations

import io
import json
import sys

import pytest

from rummisolve import cli
from rummisolve.service import render_json, solve_json, verify_json


def run(monkeypatch, capsys, *args: str, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = cli.main(list(args))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, captured.out, captured.err


def without_timings(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "timings"}


@pytest.mark.parametrize(
    ("options", "position"),
    [
        (
            ["--table", "R1 R2 R3 | K7 B7 O7", "--rack", "R4 J"],
            {"table": [["R1", "R2", "R3"], ["K7", "B7", "O7"]], "rack": ["R4", "J"]},
        ),
        (
            ["--rack", "k10, b10 J R2", "--not-opened", "--objective", "value"],
            {"rack": ["K10", "B10", "J", "R2"], "opened": False, "objective": "value"},
        ),
        (
            ["--table", "R12 R13 R1 |", "--rack", "R2", "--rules", '{"wraparound": true}'],
            {"table": [["R12", "R13", "R1"]], "rack": ["R2"], "rules": {"wraparound": True}},
        ),
        (
            ["--table", "K1 K2 JD", "--rack", "K5", "--rules", "twist"],
            {"table": [["K1", "K2", "JD"]], "rack": ["K5"], "rules": "twist"},
        ),
    ],
)
def test_solve_in_notation_answers_as_the_same_position_in_json(monkeypatch, capsys, options, position):
    status, out, err = run(monkeypatch, capsys, "solve", *options)
    assert (status, err) == (0, "")
    assert without_timings(json.loads(out)) == without_timings(solve_json(position))


def test_solve_in_notation_as_text(monkeypatch, capsys):
    status, out, _ = run(monkeypatch, capsys, "solve", "--table", "R1 R2 R3 | K7 B7 O7", "--rack", "R4 J", "--text")
    assert status == 0
    assert out == "optimal: play R4 J (34 points, a joker counting 30)\n  K7 B7 O7\n  R1 R2 R3 R4 J\n"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--rack", "R4 X3"], "--rack: unknown tile code 'X3'"),
        (["--rack", "R14"], "--rack: tile 'R14': numbers run from 1 to 13"),
        (["--rack", "JD"], "--rack: tile 'JD'"),
        (["--table", "R1 R2 R3 | K7 B7", "--rack", "R4"], "--table, meld 2: invalid meld 'K7 B7'"),
        (["--table", "R1 R2 R3", "--rack", "R3 R3"], "--table/--rack: 3 copies of R3"),
        (["--rack", "R4", "--rules", "nonsense"], "--rules: unknown rules preset 'nonsense'"),
        (["--rack", "R4", "--rules", "{"], "--rules: not valid JSON"),
    ],
)
def test_bad_notation_is_an_error_line_naming_the_option(monkeypatch, capsys, options, message):
    status, out, _ = run(monkeypatch, capsys, "solve", *options)
    result = json.loads(out)
    assert status == 1 and result["status"] == "error"
    assert result["error"].startswith(message), result["error"]


def test_a_file_and_notation_together_are_a_usage_error(monkeypatch, capsys):
    status, out, err = run(monkeypatch, capsys, "solve", "positions.jsonl", "--rack", "R4")
    assert (status, out) == (2, "")
    assert err == "rummisolve solve: give a FILE or --table/--rack, not both\n"


def test_rules_and_opened_override_every_json_position(monkeypatch, capsys):
    opening = {"rack": ["K10", "B10", "O10", "R2"], "opened": True}
    wrap = {"table": [["R12", "R13", "R1"]], "rack": ["R11"], "rules": "standard"}
    stdin = json.dumps(opening) + "\n" + json.dumps(wrap) + "\n"
    status, out, _ = run(monkeypatch, capsys, "solve", "--rules", '{"wraparound": true}', stdin=stdin)
    first, second = map(json.loads, out.splitlines())
    assert status == 0  # R12 R13 R1 is a run under the rules given, though the line says "standard"
    assert first["rules"] == second["rules"] == {"wraparound": True} and second["played"] == ["R11"]


def test_not_opened_overrides_every_json_position(monkeypatch, capsys):
    stdin = json.dumps({"table": [["R1", "R2", "R3"]], "rack": ["R4", "K5", "K6", "K7"], "opened": True})
    status, out, _ = run(monkeypatch, capsys, "solve", "--not-opened", stdin=stdin)
    result = json.loads(out)
    assert status == 0
    assert result["played"] == [] and result["status"] == "no_move"  # K5 K6 K7 is 18 points, R4 may not join


def test_text_answers_carry_their_id(monkeypatch, capsys):
    stdin = "".join(
        json.dumps(obj) + "\n"
        for obj in (
            {"id": "extend", "table": [["R1", "R2", "R3"]], "rack": ["R4"]},
            {"id": 2, "rack": ["R4"]},
            {"id": [3], "rack": ["X4"]},
            {"rack": ["R4", "R5", "R6"]},
        )
    )
    status, out, _ = run(monkeypatch, capsys, "solve", "--text", stdin=stdin)
    assert status == 1
    lines = out.splitlines()
    assert lines[0] == 'id "extend": optimal: play R4 (4 points)'
    assert lines[2] == "id 2: no move (proven): draw a tile"
    assert lines[3].startswith("id [3]: error: position.rack[0]: unknown tile code 'X4'")
    assert lines[4] == "optimal: play R4 R5 R6 (15 points)"


def test_verify_in_notation(monkeypatch, capsys):
    options = ["verify", "--table", "R1 R2 R3", "--rack", "R4 K9"]
    status, out, _ = run(monkeypatch, capsys, *options, "--new-table", "R1 R2 R3 R4")
    assert status == 0 and json.loads(out) == {"legal": True, "reasons": [], "played": ["R4"]}
    status, out, _ = run(monkeypatch, capsys, *options, "--new-table", "R1 R2 R3 | R4 K9")
    request = {
        "position": {"table": [["R1", "R2", "R3"]], "rack": ["R4", "K9"]},
        "table": [["R1", "R2", "R3"], ["R4", "K9"]],
    }
    assert status == 0 and json.loads(out) == verify_json(request)
    assert json.loads(out)["reasons"][0]["code"] == "invalid_meld"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--table", "R1 R2 R3", "--rack", "R4"], "--new-table goes with --table/--rack"),
        (["--new-table", "R1 R2 R3 R4"], "--new-table goes with --table/--rack"),
        (["--table", "R1 R2 R3", "--rack", "R4", "--new-table", "R1 R2 R3 R4 R55"], "--new-table: tile 'R55'"),
    ],
)
def test_verify_notation_errors(monkeypatch, capsys, options, message):
    status, out, _ = run(monkeypatch, capsys, "verify", *options)
    assert status == 1 and json.loads(out)["error"].startswith(message)


def test_verify_opened_overrides_json_requests(monkeypatch, capsys):
    request = {"position": {"table": [["R1", "R2", "R3"]], "rack": ["R4"]}, "table": [["R1", "R2", "R3", "R4"]]}
    status, out, _ = run(monkeypatch, capsys, "verify", "--not-opened", stdin=json.dumps(request))
    assert status == 0 and {r["code"] for r in json.loads(out)["reasons"]} >= {"opening_touched_table"}


def test_render_in_notation(monkeypatch, capsys):
    status, out, err = run(monkeypatch, capsys, "render", "--table", "K1 K2 JD", "--rack", "JC R5", "--rules", "twist")
    assert (status, err) == (0, "")
    assert out == render_json({"table": [["K1", "K2", "JD"]], "rack": ["JC", "R5"], "rules": "twist"})
    status, out, err = run(monkeypatch, capsys, "render", "--rack", "R5 O0")
    assert status == 1 and out == "" and err.startswith("rummisolve render: --rack: ")
