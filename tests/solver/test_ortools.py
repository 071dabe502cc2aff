"""The solver refuses an OR-Tools older than the CP-SAT API it is written against, with a clear message."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import pytest

from rummisolve.solver._ortools import MINIMUM, require_ortools

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("version", ["9.15.6755", "9.16.0", "10.0.1"])
def test_new_enough_versions_pass(monkeypatch, version):
    monkeypatch.setitem(sys.modules, "ortools", types.SimpleNamespace(__version__=version))
    require_ortools()


@pytest.mark.parametrize("version", ["9.14.6206", "9.12.4544", "8.2.0", "unknown"])
def test_old_versions_are_refused_naming_both_versions(monkeypatch, version):
    monkeypatch.setitem(sys.modules, "ortools", types.SimpleNamespace(__version__=version))
    with pytest.raises(ImportError) as info:
        require_ortools()
    message = str(info.value)
    assert version in message
    assert f">= {MINIMUM[0]}.{MINIMUM[1]}" in message


@pytest.fixture
def old_ortools(tmp_path):
    """A directory that shadows OR-Tools with a package claiming version 9.14."""
    package = tmp_path / "ortools"
    package.mkdir()
    (package / "__init__.py").write_text('__version__ = "9.14.6206"\n')
    return {"PYTHONPATH": f"{tmp_path}:{ROOT}", "PATH": "/usr/bin:/bin"}


def test_library_import_names_the_version_problem(old_ortools):
    code = "from rummisolve import solve"
    done = subprocess.run([sys.executable, "-c", code], env=old_ortools, capture_output=True, text=True)
    assert done.returncode != 0
    assert "ImportError: rummisolve's solver needs OR-Tools >= 9.15, but 9.14.6206 is installed" in done.stderr


def test_cli_reports_the_version_problem_without_a_traceback(old_ortools):
    position = '{"table": [["R1", "R2", "R3"]], "rack": ["R4"], "opened": true}'
    done = subprocess.run(
        [sys.executable, "-m", "rummisolve", "solve", "-"],
        input=position,
        env=old_ortools,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        "rummisolve solve: rummisolve's solver needs OR-Tools >= 9.15, but 9.14.6206 is installed; "
        "upgrade with: pip install 'ortools>=9.15,<10'"
    )
