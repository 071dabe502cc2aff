"""Tests of optional tools: they skip, saying why and how to install what is missing, except under CI.

The ``[test]`` extra leaves out the heavy optional tools (Ray, the peer rummikub-solver, matplotlib:
the ``ray`` and ``bench`` extras) and a system Chromium. Without them their tests skip with the
reason (``pytest -rs`` prints it; the project's ``addopts`` include it). CI (``CI`` set) installs them
all (``.ci/run``), so there a missing one fails the test instead of skipping it: what CI checks cannot
shrink without notice.
"""

from __future__ import annotations

import importlib.util
import os

import pytest

EXTRAS = {
    "ray": ("Ray", "ray"),
    "rummikub_solver": ("the peer solver rummikub-solver", "bench"),
    "matplotlib": ("matplotlib", "bench"),
}
"""For each optional module: what it is, and the extra that installs it."""


def unavailable(reason: str) -> None:
    """Skip the test for ``reason``; under CI fail it instead."""
    if os.environ.get("CI"):
        pytest.fail(f"cannot run under CI: {reason}", pytrace=False)
    pytest.skip(reason)


def installed(module: str) -> bool:
    """Whether ``module`` can be imported (found without importing it)."""
    return importlib.util.find_spec(module) is not None


def optional(module: str) -> bool:
    """Whether the optional ``module`` is installed, for a test that runs either way but checks more
    with it; under CI it must be (the test fails otherwise)."""
    if not installed(module) and os.environ.get("CI"):
        require(module)
    return installed(module)


def require(module: str) -> None:
    """Skip (under CI: fail) the test unless the optional ``module`` is installed; the reason names its extra."""
    if not installed(module):
        what, extra = EXTRAS[module]
        unavailable(f"{what} is not installed (pip install '.[{extra}]'; CI installs it)")
