"""The package is typed (issue 34): it ships ``py.typed`` and mypy, configured in pyproject.toml
(``[tool.mypy]``, which disallows untyped definitions), finds nothing. mypy is in the test extra,
so this runs wherever the suite does, ``.ci/run`` included."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_package_ships_py_typed():
    assert (ROOT / "rummisolve" / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["rummisolve"]


def test_mypy_disallows_untyped_definitions():
    config = PYPROJECT["tool"]["mypy"]
    assert config["disallow_untyped_defs"] and config["disallow_incomplete_defs"] and config["check_untyped_defs"]
    assert config["files"] == ["rummisolve"]


def test_mypy_finds_nothing():
    # The configuration comes from pyproject.toml; the cache (.mypy_cache, ignored by git) makes a
    # second run take about a second.
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"mypy found problems:\n{result.stdout}{result.stderr}"
