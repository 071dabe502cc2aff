"""Shared by the browser tests (test_browser.py, test_browser_rooms.py): headless Chromium (the
system's, never a downloaded one) and ``rummisolve serve`` started on a free port, one of each per
test module.

The browser is ``$RUMMISOLVE_CHROMIUM``, else ``/usr/bin/chromium``, else ``chromium`` on the PATH.
Without one (or without Playwright) the browser tests skip, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.support.net import served
from tests.support.optional import unavailable


def chromium_path() -> str | None:
    for candidate in (os.environ.get("RUMMISOLVE_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("browser test: Playwright is not installed (pip install '.[test]')")
    path = chromium_path()
    if path is None:
        unavailable(
            "browser test: no Chromium found (install Debian's: apt-get install chromium; or set RUMMISOLVE_CHROMIUM)"
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory, browser):
    with served(tmp_path_factory.mktemp("webapp")) as base:
        yield base


@pytest.fixture(scope="session")
def postgres_cluster():
    """A throwaway PostgreSQL server for this test process (tests/support/postgres.py)."""
    from tests.support.postgres import throwaway_cluster

    with throwaway_cluster() as cluster:
        yield cluster


@pytest.fixture
def postgres_url(postgres_cluster) -> str:
    """The URL of a new empty database on the throwaway server."""
    return postgres_cluster.new_database()
