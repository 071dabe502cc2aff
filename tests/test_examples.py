"""The example scripts a frontend author copies must keep running."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
STANDALONE = ["best_move.py", "referee.py"]  # client.py and client.js run against a server in test_server.py


@pytest.mark.parametrize("name", STANDALONE)
def test_example_runs(name):
    done = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() and "Traceback" not in done.stderr
