"""The example scripts a frontend author copies must keep running."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.net import free_port, served

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
STANDALONE = ["best_move.py", "referee.py"]  # client.py and client.js run against a server in test_server.py
# (and below, against none)


@pytest.mark.parametrize("name", STANDALONE)
def test_example_runs(name):
    done = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() and "Traceback" not in done.stderr


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rummisolve", *args], capture_output=True, text=True, timeout=120, cwd=EXAMPLES.parent
    )


def test_the_readmes_sample_inputs_are_shipped_and_answered():
    # The README's command-line examples name these files; each must work as written.
    import json

    done = _cli("solve", "examples/positions.jsonl", "--objective", "value")
    assert done.returncode == 0, done.stdout + done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    inputs = [json.loads(line) for line in (EXAMPLES / "positions.jsonl").read_text().splitlines()]
    assert [r["id"] for r in results] == [p["id"] for p in inputs]  # each answer names its position
    assert {r["status"] for r in results} <= {"optimal", "no_move"} and "no_move" in {r["status"] for r in results}
    done = _cli("verify", "examples/turns.jsonl")
    assert done.returncode == 0, done.stdout + done.stderr
    verdicts = [json.loads(line) for line in done.stdout.splitlines()]
    assert [v["legal"] for v in verdicts] == [True, False, False, False]
    done = _cli("render", "examples/position.json")
    assert done.returncode == 0 and done.stdout.startswith("<svg"), done.stderr


@pytest.mark.parametrize("name", ["client.py", "client.js"])
def test_client_without_a_server_prints_one_line(name, tmp_path):
    runtime = sys.executable if name.endswith(".py") else shutil.which("node")
    if runtime is None:
        pytest.skip("node is not installed")
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    done = subprocess.run(
        [runtime, str(EXAMPLES / name), url], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        f"cannot reach the rummisolve service at {url}: connection refused (start it with: rummisolve serve)\n"
    )


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    with served(tmp_path_factory.mktemp("service")) as base:
        yield base


@pytest.mark.slow
@pytest.mark.parametrize("name", ["client.py", "client.js"])
def test_a_client_saves_its_picture_where_asked_never_in_the_current_folder(name, service, tmp_path):
    runtime = sys.executable if name.endswith(".py") else shutil.which("node")
    if runtime is None:
        pytest.skip("node is not installed")
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    env = {**os.environ, "TMPDIR": str(elsewhere)}  # where the default picture goes
    for args, picture in (([], elsewhere / "rummisolve-move.svg"), ([str(tmp_path / "m.svg")], tmp_path / "m.svg")):
        done = subprocess.run(
            [runtime, str(EXAMPLES / name), service, *args],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=here,
            env=env,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"picture saved to {picture}\n" in done.stdout
        assert picture.read_text().startswith("<svg")
        assert list(here.iterdir()) == []
