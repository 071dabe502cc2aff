"""Tests for ``rummisolve solve`` and ``rummisolve demo`` (real subprocesses and ``cli.main``),
and for the cheap ``import rummisolve``."""

from __future__ import annotations

import io
import json
import queue
import subprocess
import sys
import threading

import pytest

from rummisolve import Position, cli, verify
from rummisolve.jsonio import position_from_json

OPENING = {"rack": ["K10", "B10", "O10", "R2"], "opened": False}
EXTEND = {"table": [["R1", "R2", "R3"]], "rack": ["R4", "K9"]}
NO_MOVE = {"table": [["K1", "K2", "K3"]], "rack": ["B7", "O9"]}
# tiles: B1 B2 J B4 B5 (4 tiles, 12 points); value: B13 O13 J (2 tiles, 26 points)
OBJECTIVES = {"table": [["K1", "K2", "K3", "J"]], "rack": ["B1", "B2", "B4", "B5", "B13", "O13"]}


def lines(*objs) -> str:
    return "".join(json.dumps(o) + "\n" for o in objs)


def run_cli(stdin: str | None, *args: str, command: str = "solve") -> tuple[int, list[dict], str]:
    """Run the real command in a subprocess; return (exit status, JSON lines, stderr)."""
    proc = subprocess.run(
        [sys.executable, "-m", "rummisolve", command, *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr


def run_main(monkeypatch, capsys, stdin: str, *args: str) -> tuple[int, list[dict]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = cli.main(["solve", *args])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, [json.loads(line) for line in captured.out.splitlines()]


def assert_answers(obj: dict, result: dict) -> None:
    """A non-error result is a legal turn for ``obj`` (referee called again)."""
    position = position_from_json({k: v for k, v in obj.items() if k != "objective"})
    assert {"status", "played", "table", "value"} <= set(result)
    if result["status"] in ("no_move", "unknown"):
        assert result["played"] == [] and result["table"] == [[str(t) for t in m] for m in position.table]
    else:
        assert verify(position, result["table"]).legal


# -- subprocess -----------------------------------------------------------------------------------


def test_json_lines_answered_in_order():
    inputs = [OPENING, EXTEND, NO_MOVE, OBJECTIVES]
    status, out, err = run_cli(lines(*inputs))
    assert status == 0 and err == ""
    assert len(out) == len(inputs)
    assert out[0]["played"] == ["K10", "B10", "O10"] and out[0]["value"] == 30
    assert out[1]["played"] == ["R4"] and out[1]["table"] == [["R1", "R2", "R3", "R4"]]
    assert out[2]["status"] == "no_move"
    assert sorted(out[3]["played"]) == ["B1", "B2", "B4", "B5"]
    for obj, result in zip(inputs, out):
        assert_answers(obj, result)


def test_single_document_spanning_lines_from_a_file(tmp_path):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(EXTEND, indent=2))
    status, out, _ = run_cli(None, str(path))
    assert status == 0 and len(out) == 1 and out[0]["played"] == ["R4"]


def test_objective_override():
    value_first = {**OBJECTIVES, "objective": "value"}
    status, out, _ = run_cli(lines(OBJECTIVES, value_first), "--objective", "value")
    assert status == 0 and [r["value"] for r in out] == [26, 26]
    assert all(r["objective"] == "value" for r in out)


def test_alternatives_mode_option(monkeypatch, capsys):
    position = {"table": [["R1", "R2", "R3"]], "rack": ["R4", "R5", "R6", "K7"]}
    status, (default,) = run_main(monkeypatch, capsys, lines(position), "--alternatives", "2")
    assert status == 0 and default["alternatives"] == []  # every other move plays less of the same
    status, (distinct,) = run_main(
        monkeypatch, capsys, lines(position), "--alternatives", "2", "--alternatives-mode", "distinct"
    )
    assert status == 0 and [a["played"] for a in distinct["alternatives"]] == [["R4", "R5"], ["R4"]]
    assert distinct["alternatives_mode"] == "distinct"
    for move in distinct["alternatives"]:
        assert_answers(position, move)


def test_bad_lines_get_error_lines_and_the_rest_are_answered():
    text = (
        json.dumps(EXTEND)
        + "\nthis is not json\n"
        + json.dumps({"rack": ["X5"]})
        + "\n"
        + json.dumps({"table": [["R1", "R2"]], "rack": ["R3"]})
        + "\n[1, 2]\n"
        + json.dumps(NO_MOVE)
        + "\n"
    )
    status, out, err = run_cli(text)
    assert status == 1
    assert [r["status"] for r in out] == ["optimal", "error", "error", "error", "error", "no_move"]
    assert "line 2" in out[1]["error"]
    assert "position.rack[0]" in out[2]["error"] and "X5" in out[2]["error"]
    assert "position.table[0]" in out[3]["error"]
    assert "expected an object" in out[4]["error"]
    assert_answers(EXTEND, out[0])


def test_unreadable_file(tmp_path):
    missing = tmp_path / "nope.jsonl"
    status, out, err = run_cli(None, str(missing))
    assert status == 1 and len(out) == 1
    assert out[0]["status"] == "error" and "nope.jsonl" in out[0]["error"]


def test_bad_objective_option_is_a_usage_error():
    proc = subprocess.run(
        [sys.executable, "-m", "rummisolve", "solve", "--objective", "points"],
        input=lines(EXTEND),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "objective" in proc.stderr


def test_demo_runs_and_is_refereed():
    proc = subprocess.run([sys.executable, "-m", "rummisolve", "demo"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert proc.stdout.count("referee: legal") == 2 and "ILLEGAL" not in proc.stdout


def test_import_is_cheap():
    code = (
        "import sys, rummisolve\n"
        "rummisolve.Position.from_notation(['R1 R2 R3'], 'R4')\n"
        "print('ortools' in sys.modules, any(m.startswith('ortools') for m in sys.modules))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "False"]
    # ...and the solver, once asked for, does load it
    code = "import sys, rummisolve\nrummisolve.solve\nprint('ortools' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.split() == ["True"]


# -- cli.main in process ---------------------------------------------------------------------------


def test_main_answers_in_order(monkeypatch, capsys):
    status, out = run_main(monkeypatch, capsys, lines(EXTEND, {"rack": ["R99"]}, OPENING))
    assert status == 1
    assert [r["status"] for r in out] == ["optimal", "error", "optimal"]
    assert "position.rack[0]" in out[1]["error"]
    assert out[2]["played"] == ["K10", "B10", "O10"]


def test_main_not_json_at_all(monkeypatch, capsys):
    status, out = run_main(monkeypatch, capsys, "{rack: R1 R2 R3}\n")
    assert status == 1 and out[0]["status"] == "error" and "not valid JSON" in out[0]["error"]


def test_main_not_utf8_file(tmp_path, monkeypatch, capsys):
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    status, out = run_main(monkeypatch, capsys, "", str(path))
    assert status == 1 and len(out) == 1 and out[0]["status"] == "error"
    assert out[0]["error"] == "line 1: not UTF-8 text (byte 0xff at column 1)"


def test_main_bytes_that_are_not_utf8_spoil_only_their_line(tmp_path, monkeypatch, capsys):
    """The line with the bad bytes gets an error naming it and the byte; every other line is answered."""
    path = tmp_path / "half.jsonl"
    path.write_bytes(lines(EXTEND, NO_MOVE).encode() + b'{"rack": ["R\xff4"]}\n' + lines(EXTEND).encode())
    status, out = run_main(monkeypatch, capsys, "", str(path))
    assert status == 1
    assert [r["status"] for r in out] == ["optimal", "no_move", "error", "optimal"]
    assert out[2]["error"] == "line 3: not UTF-8 text (byte 0xff at column 13)"


def test_subprocess_stdin_is_utf8_whatever_the_locale():
    """Standard input is decoded as UTF-8 line by line (JSON's encoding), not by the locale."""
    data = (lines(EXTEND) + '{"rack": ["R\xff4"]}\n'.replace("\xff", "\udcff") + lines(NO_MOVE)).encode(
        "utf-8", "surrogateescape"
    )
    for env in ({"LC_ALL": "C", "PYTHONIOENCODING": "ascii"}, {"PYTHONIOENCODING": "utf-8"}):
        proc = subprocess.run(
            [sys.executable, "-m", "rummisolve", "solve", "-"],
            input=data,
            capture_output=True,
            timeout=120,
            env={**__import__("os").environ, **env},
        )
        out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
        assert [r["status"] for r in out] == ["optimal", "error", "no_move"], (env, out)
        assert out[1]["error"] == "line 2: not UTF-8 text (byte 0xff at column 13)"


def test_main_byte_order_mark_is_ignored(tmp_path, monkeypatch, capsys):
    path = tmp_path / "windows.json"
    path.write_bytes(b"\xef\xbb\xbf" + lines(EXTEND).encode())
    status, out = run_main(monkeypatch, capsys, "", str(path))
    assert status == 0 and [r["status"] for r in out] == ["optimal"]


def test_main_one_broken_document_over_lines_gets_one_error(monkeypatch, capsys):
    text = '{\n  "table": [["R1", "R2", "R3"]],\n  "rack": ["R4", "J"],\n}\n'
    status, out = run_main(monkeypatch, capsys, text)
    assert status == 1 and len(out) == 1
    assert out[0]["error"].startswith("line 4: not valid JSON (")


def test_main_empty_input_prints_nothing(monkeypatch, capsys):
    status, out = run_main(monkeypatch, capsys, "\n\n")
    assert status == 0 and out == []


def test_main_own_objectives_without_override(monkeypatch, capsys):
    value_first = {**OBJECTIVES, "objective": "value"}
    status, out = run_main(monkeypatch, capsys, lines(OBJECTIVES, value_first))
    assert status == 0 and [r["value"] for r in out] == [12, 26]
    status, out = run_main(monkeypatch, capsys, lines(value_first), "--objective", "tiles")
    assert out[0]["value"] == 12 and out[0]["objective"] == "tiles"


def test_main_all_good_exits_0(monkeypatch, capsys):
    status, out = run_main(monkeypatch, capsys, lines(OPENING, NO_MOVE))
    assert status == 0 and [r["status"] for r in out] == ["optimal", "no_move"]


def test_main_objective_override(monkeypatch, capsys):
    status, out = run_main(monkeypatch, capsys, lines(OBJECTIVES), "--objective", "value")
    assert status == 0 and out[0]["value"] == 26 and sorted(out[0]["played"]) == ["B13", "O13"]


def test_main_time_limit_option(monkeypatch, capsys):
    status, out = run_main(monkeypatch, capsys, lines(EXTEND), "--time-limit", "60")
    assert status == 0 and out[0]["played"] == ["R4"]
    status, out = run_main(monkeypatch, capsys, lines(EXTEND), "--time-limit", "inf")
    assert status == 0 and out[0]["status"] == "optimal"


def test_main_text_output(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines(EXTEND, NO_MOVE, {"rack": 5})))
    status = cli.main(["solve", "--text"])
    out = capsys.readouterr().out
    assert status == 1
    assert "play R4" in out and "R1 R2 R3 R4" in out and "no move" in out and "error: position.rack" in out


def test_main_file_argument(tmp_path, monkeypatch, capsys):
    path = tmp_path / "many.jsonl"
    path.write_text(lines(EXTEND, NO_MOVE))
    assert cli.main(["solve", str(path)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in out] == ["optimal", "no_move"]


@pytest.mark.parametrize("example", ["manipulate", "opening"])
def test_main_demo_examples(capsys, example):
    assert cli.main(["demo", example]) == 0
    out = capsys.readouterr().out
    assert "referee: legal" in out and example in out


def test_demo_position_answer_is_legal():
    # The demo's opening example: the referee agrees with the printed verdict.
    from rummisolve import solve
    from rummisolve.commands.demo import EXAMPLES

    for table, rack, opened, _ in EXAMPLES.values():
        p = Position.from_notation(table, rack, opened=opened)
        s = solve(p)
        assert s.status == "optimal" and verify(p, s.table).legal


def converse(command: str, documents: list, status: int = 0) -> list[dict]:
    """Write one JSON line at a time to the real command and wait for its answer before the next
    (as a frontend driving it over a pipe does); fails instead of hanging if no answer comes."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummisolve", command, "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    answers: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [answers.put(line) for line in iter(proc.stdout.readline, "")], daemon=True).start()
    try:
        got = []
        for document in documents:
            proc.stdin.write((document if isinstance(document, str) else json.dumps(document)) + "\n")
            proc.stdin.flush()
            try:
                got.append(json.loads(answers.get(timeout=60)))
            except queue.Empty:
                pytest.fail(f"no answer to {document} while the input stayed open")
        proc.stdin.close()
        assert proc.wait(timeout=60) == status
        return got
    finally:
        if proc.poll() is None:
            proc.kill()


def test_each_json_line_is_answered_while_the_input_stays_open():
    got = converse("solve", [EXTEND, NO_MOVE, OPENING])
    assert [r["status"] for r in got] == ["optimal", "no_move", "optimal"]
    assert got[0]["played"] == ["R4"]


def test_a_bad_first_line_is_answered_at_once_and_streaming_goes_on():
    got = converse("solve", ["not json", EXTEND, '{"rack": ["R4"] x', NO_MOVE], status=1)
    assert [r["status"] for r in got] == ["error", "optimal", "error", "no_move"]
    assert got[0]["error"].startswith("line 1: not valid JSON")
    assert got[2]["error"].startswith("line 3: not valid JSON")


def test_verify_answers_each_json_line_while_the_input_stays_open():
    move = {"position": EXTEND, "table": [["R1", "R2", "R3", "R4"]]}
    wrong = {"position": EXTEND, "table": [["R1", "R2", "R3"], ["R4"]]}
    assert [r["legal"] for r in converse("verify", [move, wrong, move])] == [True, False, True]


@pytest.mark.parametrize("value", ["0", "-1", "nan", "soon"])
def test_time_limit_option_is_checked_once(value, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines(EXTEND)))
    with pytest.raises(SystemExit) as done:
        cli.main(["solve", "--time-limit", value])
    assert done.value.code == 2
    assert "argument --time-limit" in capsys.readouterr().err


def test_an_integer_time_limit_beyond_any_float_means_no_limit():
    from rummisolve import solve_json

    result = solve_json({**EXTEND, "time_limit": 10**400})
    assert result["status"] == "optimal", result


def test_a_search_cut_before_any_move_is_reported_as_unknown_everywhere(monkeypatch, capsys):
    # The time limit ran out before CP-SAT found any move: the JSON, the text and the picture say
    # "unknown", never "no move: draw a tile".
    from ortools.sat.python import cp_model_helper as cmh

    from rummisolve.service import render_json
    from rummisolve.solver import _solve

    def out_of_time(proto, seed, deadline, eager, stop=None, efforts=None, **options):
        response = cmh.CpSolverResponse()
        response.status = cmh.CpSolverStatus.UNKNOWN
        return response

    monkeypatch.setattr(_solve, "staged_search", out_of_time)
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines(EXTEND)))
    assert cli.main(["solve", "--time-limit", "0.001"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "unknown" and result["proven"] is False and result["played"] == []
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines(EXTEND)))
    cli.main(["solve", "--text", "--time-limit", "0.001"])
    text = capsys.readouterr().out
    assert text.startswith("unknown:") and "draw" not in text
    svg = render_json({**result, "position": EXTEND})
    assert "Unknown: no move found before the time limit" in svg and "draw a tile" not in svg
