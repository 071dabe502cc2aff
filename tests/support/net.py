"""Loopback networking shared by the tests that start servers."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on at the moment of asking."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def served(folder: Path, *options: str, db: str | None = None) -> Iterator[str]:
    """``rummisolve serve`` on a free port (its games in ``folder``, or in database ``db``), once it
    answers ``/health``: its address. Stopped at the end; its log (``folder/server.log``) may hold no
    traceback."""
    with serving(folder, *options, db=db) as (base, _):
        yield base


@contextlib.contextmanager
def serving(folder: Path, *options: str, db: str | None = None) -> Iterator[tuple[str, subprocess.Popen]]:
    """:func:`served`, with the server's process (a test may kill it)."""
    port = free_port()
    log = (folder / "server.log").open("w")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    database = str(folder / "games.sqlite3") if db is None else db
    command = [sys.executable, "-m", "rummisolve", "serve", "--port", str(port), "--db", database]
    proc = subprocess.Popen([*command, *options], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60  # a bound on a hang: it waits for the server's answer, not a time
    while True:
        try:
            with urllib.request.urlopen(f"{base}/health", timeout=2):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"the server did not start:\n{(folder / 'server.log').read_text()}")
            time.sleep(0.2)
    try:
        yield base, proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
    text = (folder / "server.log").read_text()
    assert "Traceback" not in text, text
