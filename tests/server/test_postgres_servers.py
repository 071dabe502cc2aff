"""Two ``rummisolve serve`` processes on one PostgreSQL database (a throwaway server the suite starts),
as two machines behind a load balancer would be: players on different processes play one room, a
spectator watches from a third connection, every move reaches every socket whichever process holds
it; one process killed with ``kill -9``, its seat reconnects to the other and nothing is lost. An
AI turn leased by a process that dies is played by the process still running."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from contextlib import ExitStack
from typing import Any

import pytest

pytest.importorskip("websockets")
pytest.importorskip("httpx")

import httpx  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from tests.support.net import ROOT, serving  # noqa: E402

WAIT = 60.0
"""A bound on a hang (a push that never comes fails the test after it); no test waits for it to pass."""


class Socket:
    """A room's WebSocket read by a thread of its own: every view, in order of receipt."""

    def __init__(self, url: str) -> None:
        self.views: list[dict[str, Any]] = []
        self.closed: str | None = None
        self._seen = threading.Condition()
        self._opened = connect(url, open_timeout=WAIT)
        self._ws = self._opened.__enter__()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            while True:
                message = self._ws.recv()
                with self._seen:
                    self.views.append(json.loads(message))
                    self._seen.notify_all()
        except Exception as err:  # closed, or the server went away: noted, the test looks at it
            with self._seen:
                self.closed = f"{type(err).__name__}: {err}"
                self._seen.notify_all()

    def until(self, version: int) -> dict[str, Any]:
        """The first view of ``version`` or later (waits for it)."""
        with self._seen:
            assert self._seen.wait_for(lambda: any(v.get("version", 0) >= version for v in self.views), WAIT), (
                f"no view of version {version}: got {[v.get('version') for v in self.views]} ({self.closed})"
            )
            return next(v for v in self.views if v.get("version", 0) >= version)

    def close(self) -> None:
        self._opened.__exit__(None, None, None)
        self._reader.join(WAIT)


def ws_url(base: str, code: str, token: str | None = None) -> str:
    query = "" if token is None else f"?token={token}"
    return f"{base.replace('http://', 'ws://')}/rooms/{code}/ws{query}"


def draw(base: str, code: str, token: str, version: int) -> dict[str, Any]:
    answer = httpx.post(
        f"{base}/rooms/{code}/turn",
        json={"draw": True, "version": version},
        headers={"Authorization": f"Bearer {token}"},
        timeout=WAIT,
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


@pytest.mark.slow
def test_two_processes_serve_one_room_and_a_killed_ones_seat_moves_to_the_other(tmp_path, postgres_url):
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    with ExitStack() as stack:
        one, one_proc = stack.enter_context(serving(tmp_path / "one", db=postgres_url))
        two, _ = stack.enter_context(serving(tmp_path / "two", db=postgres_url))
        made = httpx.post(f"{one}/rooms", json={"seats": ["human", "human"], "name": "Ann"}, timeout=WAIT)
        assert made.status_code == 201, made.text
        code, ann = made.json()["room"], made.json()["token"]
        joined = httpx.post(f"{two}/rooms/{code}/join", json={"name": "Bob"}, timeout=WAIT)  # the other process
        assert joined.status_code == 200, joined.text
        bob = joined.json()["token"]
        sockets = {
            "ann": Socket(ws_url(one, code, ann)),
            "bob": Socket(ws_url(two, code, bob)),
            "spectator": Socket(ws_url(two, code)),
        }
        for socket in sockets.values():
            stack.callback(socket.close)
        version = sockets["ann"].until(2)["version"]  # made, joined: playing
        tokens = {0: (one, ann), 1: (two, bob)}
        for _ in range(6):  # each draws in turn, through the process its socket is on
            view = sockets["spectator"].until(version)
            base, token = tokens[view["turn"]]
            version = draw(base, code, token, version)["version"]
            for name, socket in sockets.items():
                seen = socket.until(version)
                assert seen["version"] == version, name  # every socket, on either process, has the move
        before_kill = sockets["bob"].until(version)
        assert len(before_kill["log"]) >= 6

        ann_before = sockets["ann"].until(version)
        one_proc.send_signal(signal.SIGKILL)  # kill -9: Ann's process is gone
        one_proc.wait()
        sockets["ann"].close()
        sockets["ann"] = Socket(ws_url(two, code, ann))  # her seat reconnects to the other process
        resumed = sockets["ann"].until(version)
        assert resumed["version"] == version and resumed["seat"] == 0
        assert (resumed["log"], resumed["rack"]) == (ann_before["log"], ann_before["rack"])  # nothing lost
        view = sockets["spectator"].until(version)
        base, token = (two, ann) if view["turn"] == 0 else (two, bob)
        version = draw(base, code, token, version)["version"]
        for name, socket in sockets.items():
            assert socket.until(version)["version"] == version, name


_LEASER = """
import sys, time
from rummisolve.rules import STANDARD
from rummisolve.server.leases import holder
from rummisolve.server.rooms import Room
from rummisolve.server.store import open_store
store = open_store(sys.argv[1], max_live=10, max_stored=10)
store.beat(holder())
now = time.time()
room, _, token = Room.new("KKKKKK", STANDARD, ["easy", "human"], "Ann", now, seat=1)
until = now + 3600  # an hour: the turn must not wait for the lease to run out
store.create_room("KKKKKK", room.to_json(), room.status, until, max_live=10, max_stored=10)  # due in an hour
print(store.lease_room("KKKKKK", 1, until, holder()), token, flush=True)  # its AI thinking here
time.sleep(3600)
"""


@pytest.mark.slow
def test_an_ai_turn_leased_by_a_process_killed_is_played_by_the_one_still_running(tmp_path, postgres_url):
    with serving(tmp_path, db=postgres_url) as (base, _):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        # Another process makes a room whose AI seat is to move and takes the AI's turn, then dies: kill -9.
        leaser = subprocess.Popen(
            [sys.executable, "-c", _LEASER, postgres_url], stdout=subprocess.PIPE, text=True, env=env
        )
        try:
            assert leaser.stdout is not None
            taken, token = leaser.stdout.readline().split()
            assert taken == "True"
            socket = Socket(ws_url(base, "KKKKKK", token))
            assert socket.until(1)["turn"] == 0  # the AI's turn, leased for an hour
        finally:
            leaser.send_signal(signal.SIGKILL)
            leaser.wait()
        try:
            view = socket.until(2)  # the running server takes the turn over (within seconds, not an hour)
            assert view["turn"] == 1 and view["last"]["player"] == 0
        finally:
            socket.close()
