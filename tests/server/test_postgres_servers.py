"""Two ``rummisolve serve`` processes on one PostgreSQL database (a throwaway server the suite starts;
the first test on a shared SQLite file too),
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


@pytest.fixture(params=["postgres", "sqlite"])
def shared_db(request, tmp_path) -> str:
    """A database two servers share: PostgreSQL, or (processes of one machine) a SQLite file."""
    if request.param == "sqlite":
        return str(tmp_path / "shared.sqlite3")
    return request.getfixturevalue("postgres_url")


@pytest.mark.slow
def test_two_processes_serve_one_room_and_a_killed_ones_seat_moves_to_the_other(tmp_path, shared_db):
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    with ExitStack() as stack:
        one, one_proc = stack.enter_context(serving(tmp_path / "one", db=shared_db))
        two, _ = stack.enter_context(serving(tmp_path / "two", db=shared_db))
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


def act(base: str, code: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = httpx.post(
        f"{base}/rooms/{code}/turn", json=body, headers={"Authorization": f"Bearer {token}"}, timeout=WAIT
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


@pytest.mark.slow
def test_an_xpress_room_on_two_processes_pushes_every_roll_and_survives_kill_9(tmp_path, shared_db):
    # Issue 48, point 4: the Xpress room goes through the one hub, across processes as tile rooms do.
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    with ExitStack() as stack:
        one, one_proc = stack.enter_context(serving(tmp_path / "one", db=shared_db))
        two, _ = stack.enter_context(serving(tmp_path / "two", db=shared_db))
        made = httpx.post(f"{one}/rooms", json={"rules": "xpress", "name": "Ann"}, timeout=WAIT)
        assert made.status_code == 201, made.text
        code, ann = made.json()["room"], made.json()["token"]
        joined = httpx.post(f"{two}/rooms/{code}/join", json={"name": "Bob"}, timeout=WAIT)
        assert joined.status_code == 200, joined.text
        bob = joined.json()["token"]
        sockets = {
            "ann": Socket(ws_url(one, code, ann)),
            "bob": Socket(ws_url(two, code, bob)),
            "spectator": Socket(ws_url(two, code)),
        }
        for socket in sockets.values():
            stack.callback(socket.close)
        version = sockets["ann"].until(2)["version"]
        tokens = {0: (one, ann), 1: (two, bob)}
        for step in range(4):  # a roll, then a pass, each through the mover's own process
            view = sockets["spectator"].until(version)
            base, token = tokens[view["turn"]]
            body = {"roll": "all"} if step % 2 == 0 else {"pass": True}
            version = act(base, code, token, {**body, "version": version})["version"]
            for name, socket in sockets.items():
                seen = socket.until(version)
                assert seen["version"] == version and seen["log"][-1]["type"] == ("roll" if step % 2 == 0 else "pass")
                assert "seed" not in json.dumps(seen), name
        ann_before = sockets["ann"].until(version)
        one_proc.send_signal(signal.SIGKILL)  # kill -9: Ann's process is gone
        one_proc.wait()
        sockets["ann"].close()
        sockets["ann"] = Socket(ws_url(two, code, ann))
        resumed = sockets["ann"].until(version)
        assert resumed["version"] == version and resumed["seat"] == 0
        assert (resumed["log"], resumed["rack"], resumed["dice"], resumed["players"]) == (
            ann_before["log"],
            ann_before["rack"],
            ann_before["dice"],
            ann_before["players"],
        )  # nothing lost
        view = sockets["spectator"].until(version)
        version = act(two, code, ann if view["turn"] == 0 else bob, {"roll": [], "version": version})["version"]
        for name, socket in sockets.items():
            assert socket.until(version)["version"] == version, name


_LEASER = """
import sys, time
from rummisolve.rules import STANDARD
from rummisolve.server.leases import holder
from rummisolve.server.rooms import Room
from rummisolve.server.stores import open_store
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


def test_two_browsers_on_two_processes_play_a_room_a_third_watches_and_a_seat_moves_after_kill_9(
    browser, tmp_path, postgres_url
):
    """The pages of two servers sharing the database (as two machines behind a balancer): Ann's on
    one, Bo's and a spectator's (a phone) on the other; each draw shown on every page without a
    reload; one server killed, Ann's seat opened on the other by her link, her rack as it was."""
    import re

    from .test_browser import DESKTOP, PHONE
    from .test_browser_rooms import RoomPage, at_version, call, chips, counts, rack, turn_is

    shots = tmp_path / "shots"
    shots.mkdir()
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    with ExitStack() as stack:
        one, one_proc = stack.enter_context(serving(tmp_path / "one", db=postgres_url))
        two, _ = stack.enter_context(serving(tmp_path / "two", db=postgres_url))
        ann = RoomPage(browser, one, DESKTOP, shots)
        a = ann.page
        ann.open("/play")
        a.get_by_test_id("room-seat-name").fill("Ann")
        a.get_by_test_id("create-room").click()
        a.wait_for_url(re.compile(r"/play\?room=[A-Z]{6}&token=[\w-]+$"))
        a.wait_for_selector("body[data-ready=true]")
        code = a.get_by_test_id("room-code").inner_text()
        ann_link = a.url.removeprefix(one)

        bo = RoomPage(browser, two, DESKTOP, shots)  # the invite opened on the other server
        b = bo.page
        bo.open(f"/r/{code}")
        b.get_by_test_id("join-name").fill("Bo")
        b.get_by_test_id("join-button").click()
        b.wait_for_url(re.compile(rf"/play\?room={code}&token=[\w-]+$"))
        turn_is(a, "Your turn · turn 1")  # Ann's page, on the first server, follows Bo's join on the second
        turn_is(b, "Ann is playing · turn 1")
        watcher = RoomPage(browser, two, PHONE, shots)
        w = watcher.page
        watcher.open(f"/r/{code}")
        w.get_by_test_id("watching").wait_for()
        pages = {0: ann, 1: bo}
        names = ["Ann", "Bo"]
        for _ in range(4):  # each draws in turn on their own server's page
            start = call(two, f"/rooms/{code}")
            mover = pages[start["turn"]].page
            turn_is(mover, f"Your turn · turn {start['turn_number'] + 1}")
            mover.wait_for_selector("body:not([data-pending]) [data-testid=draw]:not([disabled])")
            mover.get_by_test_id("draw").click()
            for page in (a, b, w):
                at_version(page, start["version"] + 1)
            now = call(one, f"/rooms/{code}")
            nxt = now["turn"]
            turn_is(pages[nxt].page, f"Your turn · turn {now['turn_number'] + 1}")
            turn_is(w, f"{names[nxt]} is playing · turn {now['turn_number'] + 1}")
            assert chips(a) == counts(now, 0) and chips(b) == counts(now, 1) and chips(w) == counts(now, None)
        ann.shoot_step("01-ann-on-server-one")
        bo.shoot_step("01-bo-on-server-two")
        watcher.shoot_step("01-spectator-on-server-two")
        before = sorted(rack(a))
        seen = call(two, f"/rooms/{code}")

        one_proc.send_signal(signal.SIGKILL)  # kill -9 of Ann's server
        one_proc.wait()
        ann.context.close()  # her page lost its server (what it logs meanwhile is not judged)
        ann = RoomPage(browser, two, DESKTOP, shots)  # her link, now answered by the other server
        a = ann.page
        ann.open(ann_link)
        at_version(a, seen["version"])
        assert sorted(rack(a)) == before and chips(a) == counts(seen, 0)  # nothing lost
        pages[0] = ann
        mover = pages[seen["turn"]].page
        mover.wait_for_selector("body:not([data-pending]) [data-testid=draw]:not([disabled])")
        mover.get_by_test_id("draw").click()
        for page in (a, b, w):
            at_version(page, seen["version"] + 1)
        ann.shoot_step("02-ann-moved-to-server-two", key=True)
        watcher.shoot_step("02-spectator-after-the-kill", key=True)
        for page in (ann, bo, watcher):
            page.close()  # no page logged an error
