"""Shared pytest configuration: Hypothesis profiles with fixed seeds (derandomized) and no deadlines."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.register_profile("thorough", deadline=None, max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True, scope="session")
def _games_database(tmp_path_factory):
    """Servers started by the tests (in process or as ``rummisolve serve``) save their games in a
    temporary file, never in the user's default database."""
    if os.environ.get("RUMMISOLVE_DB"):
        yield
        return
    os.environ["RUMMISOLVE_DB"] = str(tmp_path_factory.mktemp("games") / "games.sqlite3")
    yield
    os.environ.pop("RUMMISOLVE_DB", None)


def _segv_handler() -> int | None:
    """The address of the process's SIGSEGV handler (Linux), or None where it cannot be read."""
    import ctypes
    import signal
    import sys

    if not sys.platform.startswith("linux"):
        return None
    action = ctypes.create_string_buffer(256)  # a struct sigaction; its first field is the handler
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.sigaction(signal.SIGSEGV, None, action) != 0:
        return None
    return int.from_bytes(action.raw[: ctypes.sizeof(ctypes.c_void_p)], sys.byteorder)


@pytest.fixture(autouse=True, scope="module")
def _crash_handler_kept():
    """No test module may replace the SIGSEGV handler that pytest's faulthandler installed (Ray's
    ``ray.init`` in the pytest process did: a later segfault then printed no Python stack)."""
    before = _segv_handler()
    yield
    assert _segv_handler() == before, "a test replaced the SIGSEGV handler: run what did it in a subprocess"


SLOW_LIST = Path(__file__).with_name("slow.txt")


def slow_tests() -> frozenset[str]:
    """The test functions listed in tests/slow.txt, as ``path::name``."""
    lines = SLOW_LIST.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def pytest_collection_modifyitems(config, items):
    """Mark ``slow`` the tests of tests/slow.txt and every browser test: ``-m "not slow"`` is the quick subset."""
    slow = slow_tests()
    for item in items:
        if item.nodeid.split("[")[0] in slow or "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
