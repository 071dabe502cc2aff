"""The example scripts a frontend author copies must keep running."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
STANDALONE = ["best_move.py", "referee.py"]  # client.py and client.js run against a server in test_server.py
# (and below, against none)


@pytest.mark.parametrize("name", STANDALONE)
def test_example_runs(name):
    done = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() and "Traceback" not in done.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("name", ["client.py", "client.js"])
def test_client_without_a_server_prints_one_line(name, tmp_path):
    runtime = sys.executable if name.endswith(".py") else shutil.which("node")
    if runtime is None:
        pytest.skip("node is not installed")
    url = f"http://127.0.0.1:{_free_port()}"  # nothing listens there
    done = subprocess.run(
        [runtime, str(EXAMPLES / name), url], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        f"cannot reach the rummisolve service at {url}: connection refused (start it with: rummisolve serve)\n"
    )
