"""Tests for ``rummisolve verify`` and the verdict JSON (jsonio.verify_json / verdict_to_json)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from rummisolve import cli
from rummisolve.jsonio import verdict_to_json
from rummisolve.position import Position
from rummisolve.referee import verify
from rummisolve.service import verify_json

LEGAL = {"position": {"table": [["R1", "R2", "R3"]], "rack": ["R4", "K9"]}, "table": [["R1", "R2", "R3", "R4"]]}
ILLEGAL = {"position": {"table": [["R1", "R2", "R3"]], "rack": ["R4"]}, "table": [["R1", "R2"], ["R3", "R4"]]}
OPENING = {
    "position": {"rules": {"initial_threshold": 50}, "table": [], "rack": ["K10", "B10", "O10"], "opened": False},
    "table": [["K10", "B10", "O10"]],
}


def run_cli(stdin: str, *args: str) -> tuple[int, list[dict], str]:
    """Run the real command in a subprocess; return (exit status, JSON lines, stderr)."""
    proc = subprocess.run(
        [sys.executable, "-m", "rummisolve", "verify", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr


def run_main(monkeypatch, capsys, stdin: str, *args: str) -> tuple[int, list[dict]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = cli.main(["verify", *args])
    out = capsys.readouterr().out
    return status, [json.loads(line) for line in out.splitlines()]


# -- verify_json / verdict_to_json ----------------------------------------------------------------


def test_verify_json_legal():
    assert verify_json(LEGAL) == {"legal": True, "reasons": [], "played": ["R4"]}


def test_verify_json_illegal_lists_reasons_with_meld_indexes():
    result = verify_json(ILLEGAL)
    assert result["legal"] is False and result["played"] == ["R4"]
    assert [(r["code"], r["meld"]) for r in result["reasons"]] == [("invalid_meld", 0), ("invalid_meld", 1)]
    assert all(isinstance(r["message"], str) and r["message"] for r in result["reasons"])


def test_verify_json_threshold_from_rules():
    result = verify_json(OPENING)
    assert [r["code"] for r in result["reasons"]] == ["opening_below_threshold"]
    assert "30" in result["reasons"][0]["message"] and "50" in result["reasons"][0]["message"]


def test_verdict_to_json_matches_verdict():
    p = Position.from_notation(["R1 R2 R3"], "R4")
    v = verify(p, ["R1 R2 R3 R5"])
    data = verdict_to_json(v)
    assert data["legal"] is False and data["played"] == []
    assert [r["code"] for r in data["reasons"]] == list(v.codes)
    assert json.loads(json.dumps(data)) == data


def test_out_of_range_tile_on_new_table_is_a_verdict_not_an_error():
    result = verify_json({"position": LEGAL["position"], "table": [["R1", "R2", "R3", "R4", "R14"]]})
    assert "error" not in result and "bad_tile" in [r["code"] for r in result["reasons"]]


@pytest.mark.parametrize(
    ("obj", "named"),
    [
        ([], "object"),
        ({"table": []}, "'position'"),
        ({"position": {}}, "'table'"),
        ({"position": {}, "table": [], "extra": 1}, "'extra'"),
        ({"position": [], "table": []}, "position"),
        ({"position": {"rack": ["X5"]}, "table": []}, "position.rack[0]"),
        ({"position": {"rack": ["R14"]}, "table": []}, "position.rack[0]"),
        ({"position": {"table": [["R1", "R2", "R4"]]}, "table": []}, "position.table[0]"),
        ({"position": {"rack": ["R1", "R1", "R1"]}, "table": []}, "R1"),
        ({"position": {"rules": "nope"}, "table": []}, "position.rules"),
        ({"position": {"rules": {"bogus": 1}}, "table": []}, "bogus"),
        ({"position": {"opened": "yes"}, "table": []}, "position.opened"),
        ({"position": {}, "table": {"a": 1}}, "table"),
        ({"position": {}, "table": [["R1", 5]]}, "table[0][1]"),
        ({"position": {}, "table": [["R1", "Q9"]]}, "table[0][1]"),
        ({"position": {}, "table": ["R1 R2 R3"]}, "table[0]"),
    ],
)
def test_verify_json_errors_name_the_bad_part(obj, named):
    result = verify_json(obj)
    assert set(result) == {"error"}, result
    assert named in result["error"]


# -- the command ----------------------------------------------------------------------------------------


def test_cli_subprocess_json_lines_in_order_and_exit_status():
    lines = [json.dumps(LEGAL), "this is not json", json.dumps(ILLEGAL), "", json.dumps({"position": {}})]
    status, out, err = run_cli("\n".join(lines) + "\n")
    assert status == 1 and err == ""
    assert len(out) == 4
    assert out[0] == {"legal": True, "reasons": [], "played": ["R4"]}
    assert set(out[1]) == {"error"} and "line 2" in out[1]["error"]
    assert out[2]["legal"] is False
    assert set(out[3]) == {"error"} and "'table'" in out[3]["error"]


def test_cli_subprocess_illegal_moves_exit_zero_and_compact_lines():
    proc = subprocess.run(
        [sys.executable, "-m", "rummisolve", "verify", "-"],
        input=json.dumps(ILLEGAL) + "\n" + json.dumps(LEGAL) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert len(lines) == 2 and all(": " not in line.split('"message"')[0] for line in lines)
    assert [json.loads(line)["legal"] for line in lines] == [False, True]


def test_cli_subprocess_single_multiline_object(tmp_path):
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(OPENING, indent=2))
    status, out, _ = run_cli("", str(path))
    assert status == 0 and len(out) == 1 and out[0]["legal"] is False


def test_cli_unreadable_file_is_an_error_line(tmp_path):
    status, out, err = run_cli("", str(tmp_path / "missing.json"))
    assert status == 1 and len(out) == 1 and "missing.json" in out[0]["error"]
    assert "Traceback" not in err


def test_cli_main_stdin(monkeypatch, capsys):
    status, out = run_main(monkeypatch, capsys, json.dumps(LEGAL))
    assert status == 0 and out == [{"legal": True, "reasons": [], "played": ["R4"]}]


def test_cli_main_file_and_errors(monkeypatch, capsys, tmp_path):
    path = tmp_path / "turns.jsonl"
    bad_rules = {"position": {"rules": {"joker_retrieval": "sometimes"}}, "table": []}
    path.write_text("\n".join(json.dumps(o) for o in (LEGAL, bad_rules, ILLEGAL, [1, 2])) + "\n")
    status, out = run_main(monkeypatch, capsys, "", str(path))
    assert status == 1 and len(out) == 4
    assert out[0]["legal"] is True and out[2]["legal"] is False
    assert "joker_retrieval" in out[1]["error"] and "object" in out[3]["error"]


def test_cli_main_empty_input(monkeypatch, capsys):
    status, out = run_main(monkeypatch, capsys, "  \n")
    assert status == 0 and out == []


def test_cli_non_utf8_file(monkeypatch, capsys, tmp_path):
    path = tmp_path / "bad.bin"
    path.write_bytes(b"\xff\xfe\x00garbage")
    status, out = run_main(monkeypatch, capsys, "", str(path))
    assert status == 1 and len(out) == 1
    assert out[0]["error"] == "line 1: not UTF-8 text (byte 0xff at column 1)"
