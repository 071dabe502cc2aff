"""Shared by the browser tests (test_browser.py, test_browser_rooms.py): headless Chromium (the
system's, never a downloaded one) and ``rummisolve serve`` started on a free port, one of each per
test module.

The browser is ``$RUMMISOLVE_CHROMIUM``, else ``/usr/bin/chromium``, else ``chromium`` on the PATH.
Without one (or without Playwright) the browser tests skip, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.net import free_port


def _unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run under CI: {reason}", pytrace=False)
    pytest.skip(reason)


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
        _unavailable("Playwright is not installed (pip install '.[test]')")
    path = chromium_path()
    if path is None:
        _unavailable("no Chromium found: set RUMMISOLVE_CHROMIUM or install chromium (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory, browser):
    port = free_port()
    folder = tmp_path_factory.mktemp("webapp")
    log = (folder / "server.log").open("w")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    command = [sys.executable, "-m", "rummisolve", "serve", "--port", str(port), "--db", str(folder / "games.sqlite3")]
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=root)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{base}/health", timeout=2):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"the server did not start:\n{(folder / 'server.log').read_text()}")
            time.sleep(0.2)
    yield base
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()
    text = (folder / "server.log").read_text()
    assert "Traceback" not in text, text
