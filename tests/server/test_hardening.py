"""The smaller findings of issue 47 (finding 7), each as an attacker on the same machine or a crash
would meet it: a big WebSocket message, a token spelt another way in the URL, a rule set that
cannot be dealt, an AI turn leased by a process killed with ``kill -9``, a damaged database under
the sweeper, two processes racing for one timer, and the database file replaced while running.
Tests wait on events (a push, a line from a process), never on a time budget; the bounds given
are bounds on a hang."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import time
import warnings

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

from rummisolve.rules import STANDARD  # noqa: E402
from rummisolve.server import room_hub  # noqa: E402
from rummisolve.server.room_hub import LOG_EVERY  # noqa: E402
from rummisolve.server.rooms import Room  # noqa: E402
from rummisolve.server.store import GameStore  # noqa: E402
from rummisolve.server.workers import WorkerFailed  # noqa: E402
from tests.support.net import ROOT, served  # noqa: E402

from .test_rooms import Clock, create, make_app, true_room  # noqa: E402


@pytest.fixture
def clock():
    return Clock()


def _ws_url(base: str, path: str) -> str:
    return base.replace("http://", "ws://") + path


def test_a_big_websocket_message_closes_the_connection_with_1009(tmp_path):
    with served(tmp_path) as base:
        made = httpx.post(base + "/rooms", json={"seats": ["human", "human"]}, timeout=30).json()
        code = made["room"]
        with connect(_ws_url(base, f"/rooms/{code}/ws")) as ws:
            assert "room" in json.loads(ws.recv(timeout=30))
            ws.send("x" * 64 * 1024)  # before: read, buffered (up to 16 MiB each) and ignored
            # A change is pushed to open connections: this one must be closed instead.
            assert httpx.post(base + f"/rooms/{code}/join", json={}, timeout=30).status_code == 200
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=30)  # a bound on a hang: the close comes as the message arrives
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_big_message_is_refused_by_the_app_too(tmp_path, clock):
    """Under an ASGI server that does not bound messages, the route closes the connection itself."""
    from starlette.websockets import WebSocketDisconnect

    app = make_app(tmp_path / "r.sqlite3", clock, max_ws_message_bytes=1024)
    with TestClient(app) as client:
        code = create(client)["room"]
        with client.websocket_connect(f"/rooms/{code}/ws") as ws:
            ws.receive_json()
            ws.send_text("x" * 2048)
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert closed.value.code == 1009


def test_every_spelling_of_a_token_is_hidden_in_the_log(tmp_path):
    with served(tmp_path) as base:
        made = httpx.post(base + "/rooms", json={"seats": ["human", "human"]}, timeout=30).json()
        code, token = made["room"], made["token"]
        # %74 is "t": the route reads it as ?token=, so the seat's own socket opens.
        with connect(_ws_url(base, f"/rooms/{code}/ws?%74oken={token}")) as ws:
            assert json.loads(ws.recv(timeout=30))["seat"] == 0
        for query in ("%74oken=SECRET-A", "room=ABCDEF&tok%65n=SECRET-B", "TOKEN=SECRET-C", "token=SECRET-D"):
            httpx.get(f"{base}/play?{query}", timeout=30)
    log = (tmp_path / "server.log").read_text()
    assert "/play?" in log and "(hidden)" in log, log  # the lines are there, the secrets are not
    for secret in (token, "SECRET-A", "SECRET-B", "SECRET-C", "SECRET-D"):
        assert secret not in log, log


def test_a_rule_set_that_cannot_be_dealt_is_a_bad_request(tmp_path, clock):
    app = make_app(tmp_path / "r.sqlite3", clock)
    with TestClient(app) as client:
        for path, body in (
            ("/games", {"rules": {"rack_size": 60}}),
            ("/rooms", {"rules": {"rack_size": 60}}),
            ("/rooms", {"rules": {"rack_size": 30}, "seats": ["human"] * 4}),
        ):
            answer = client.post(path, json=body)
            assert answer.status_code == 400, (path, answer.text)  # before: 409
            assert "need" in answer.json()["error"] and "the set has 106" in answer.json()["error"]
        assert app.state.server.store.owners() == 0


_LEASER = """
import sys, time
from rummisolve.server.leases import holder
from rummisolve.server.store import GameStore
store = GameStore(sys.argv[1], max_live=10, max_stored=10)
print(store.lease_room(sys.argv[2], 1, float(sys.argv[3]), holder()), flush=True)
time.sleep(3600)
"""


def _leaser(db, code: str, until: float) -> subprocess.Popen:
    """A process that takes room ``code``'s AI turn (leased until ``until``), as a server does, and
    then thinks for ever; once it says so."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen(
        [sys.executable, "-c", _LEASER, str(db), code, repr(until)], stdout=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "True"
    return proc


def test_an_ai_turn_leased_by_a_process_killed_is_taken_over_at_start_up(tmp_path, clock):
    db = tmp_path / "rooms.sqlite3"
    store = GameStore(str(db), max_live=10, max_stored=10)
    tokens = {}
    for code in ("KKKKKK", "LLLLLL"):  # two rooms, each with its AI seat to move
        room, _, tokens[code] = Room.new(code, STANDARD, ["easy", "human"], "Ann", clock(), seat=1)
        store.create_room(
            code, room.to_json(), room.status, room.due(clock()), max_live=10, max_stored=10, now=clock()
        )  # made at the rooms' clock's time (before: the day's, which the first chores took for 38 days idle)
    store.close()
    until = clock() + 3600  # an hour: the turn must not wait for the lease to run out
    dead = _leaser(db, "KKKKKK", until)
    alive = _leaser(db, "LLLLLL", until)
    try:
        dead.send_signal(signal.SIGKILL)  # kill -9 while it thinks
        dead.wait()
        app = make_app(db, clock)
        with TestClient(app) as client:
            with app.state.server.store._db() as conn:
                due = dict(conn.execute("SELECT code, due FROM rooms").fetchall())
            assert due["KKKKKK"] <= clock()  # taken over as the server started (before: an hour on)
            assert due["LLLLLL"] == until  # a living process's turn is left to it
            with client.websocket_connect(f"/rooms/KKKKKK/ws?token={tokens['KKKKKK']}") as ws:
                while (view := ws.receive_json())["turn"] != 1:  # the AI's move, pushed
                    pass
            assert view["last"]["player"] == 0
    finally:
        alive.kill()
        alive.wait()


def test_an_ai_turn_whose_worker_died_is_played_again(tmp_path, clock, monkeypatch, caplog):
    db = tmp_path / "rooms.sqlite3"
    store = GameStore(str(db), max_live=10, max_stored=10)
    room, _, _ = Room.new("WWWWWW", STANDARD, ["easy", "human"], "Ann", clock(), seat=1)
    store.create_room("WWWWWW", room.to_json(), room.status, room.due(clock()), max_live=10, max_stored=10, now=clock())
    store.close()
    app = make_app(db, clock)
    hub = app.state.server.rooms
    think = hub.lanes.choose_async
    tries = []

    async def dies_the_first_time(player, seen):
        tries.append(player)
        if len(tries) == 1:
            raise WorkerFailed("an AI's turn: its worker process died")
        return await think(player, seen)

    monkeypatch.setattr(hub.lanes, "choose_async", dies_the_first_time)
    with caplog.at_level(logging.INFO, logger="rummisolve.server"), TestClient(app):
        bound = time.monotonic() + 120  # bounds on a hang, not budgets: each waits for an event
        while "WWWWWW" not in hub._failed and time.monotonic() < bound:
            time.sleep(0.02)
        assert len(tries) == 1 and "WWWWWW" in hub._failed
        assert true_room(app, "WWWWWW")[1].ai_to_move() is not None  # nothing played: the game unchanged
        clock.now += room_hub.AI_LEASE + room_hub._RETRY_FAILED  # the lease and the wait after a failure run out
        while true_room(app, "WWWWWW")[1].ai_to_move() is not None and time.monotonic() < bound:
            time.sleep(0.05)
        version, played = true_room(app, "WWWWWW")
    assert played.status == "playing" and played.ai_to_move() is None and version == 2, (
        f"the AI's turn was not played again after {len(tries)} tries"
    )
    assert len(tries) == 2
    failures = [r for r in caplog.records if r.exc_info is not None and isinstance(r.exc_info[1], WorkerFailed)]
    assert len(failures) == 1 and "WWWWWW" in failures[0].getMessage()  # the failure was logged, once


def test_a_damaged_database_is_logged_once_a_minute_not_at_every_tick(tmp_path, clock, caplog):
    db = tmp_path / "rooms.sqlite3"
    app = make_app(db, clock)
    hub = app.state.server.rooms
    with TestClient(app) as client:
        create(client)
        while hub._busy:  # the new room served once (its task would meet the damage: one line of its own)
            client.portal.call(asyncio.sleep, 0.01)
        for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            if path.exists():
                with path.open("r+b") as f:
                    f.write(b"\0" * 16 + os.urandom(max(0, path.stat().st_size - 16)))
        caplog.clear()
        started = time.monotonic()
        with caplog.at_level(logging.INFO, logger="rummisolve.server"):
            for _ in range(40):  # ten seconds of the sweeper's ticks (before: a traceback each)
                client.portal.call(hub.sweep_once)
        elapsed = time.monotonic() - started
        lines = [r for r in caplog.records if r.name == "rummisolve.server" and r.levelno >= logging.WARNING]
        assert 1 <= len(lines) <= 1 + int(elapsed // LOG_EVERY), [r.getMessage() for r in lines]
        assert all(r.exc_info is None for r in lines)  # the store's refusal is no bug: one line
        assert "not a database" in lines[0].getMessage()


def test_two_processes_racing_for_one_timer_is_no_failure(tmp_path, clock, caplog):
    db = tmp_path / "rooms.sqlite3"
    here, there = make_app(db, clock), make_app(db, clock)  # two worker processes on one file
    room, _, _ = Room.new("TTTTTT", STANDARD, ["human", "human"], "Ann", clock(), timer=15)
    room.join("Bo", clock())
    here.state.server.store.create_room(
        "TTTTTT", room.to_json(), room.status, room.due(clock()), max_live=10, max_stored=10
    )
    clock.now += 16  # the timer has run out: both processes see it due
    hub = here.state.server.rooms
    hub.cache.get("TTTTTT")  # this one has the room in memory, as it was
    store = here.state.server.store
    save = store.save_room
    raced = []

    def save_after_the_other(*args, **kwargs):  # the other process applies the timeout first
        if not raced:
            raced.append(there.state.server.rooms.cache.expire("TTTTTT"))
        return save(*args, **kwargs)

    store.save_room = save_after_the_other
    with caplog.at_level(logging.INFO, logger="rummisolve.server"):
        asyncio.run(hub._serve("TTTTTT"))
    assert raced == [True]
    assert "TTTTTT" not in hub._failed  # before: left alone for 30 s, with a StaleGame traceback
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    version, served_room = true_room(here, "TTTTTT")
    state = served_room.game.state
    assert version == 2 and state.current == 1  # one timeout, applied once
    assert len(state.racks[0]) == 14 + STANDARD.timer_penalty


def test_a_database_file_replaced_while_running_refuses_writes(tmp_path, clock):
    db = tmp_path / "games.sqlite3"
    app = make_app(db, clock)
    with TestClient(app) as client:
        assert client.post("/games", json={"players": "human,easy"}).status_code == 201
        other = tmp_path / "other.sqlite3"
        GameStore(str(other), max_live=10, max_stored=10).close()
        os.replace(other, db)  # mv other.sqlite3 games.sqlite3 under the running server
        for path in ("/games", "/rooms"):
            refused = client.post(path, json={"players": "human,easy"} if path == "/games" else {})
            assert refused.status_code == 503, refused.text  # before: 201, written to the deleted file
            assert "replaced or removed" in refused.json()["error"] and "Retry-After" in refused.headers
        assert client.get("/health").status_code == 200  # the rest of the server answers
