"""Shared pytest configuration: Hypothesis profiles with fixed seeds (derandomized) and no deadlines."""

from __future__ import annotations

import os

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
