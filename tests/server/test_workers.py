"""Heavy work in worker processes, each job under a hard deadline (issue 47, findings 1 and 5).

Finding 1: four crafted uploads to ``POST /replays`` whose clients left kept every heavy thread
busy (the analysis heard no stop signal), and a ``/solve`` was cut only inside CP-SAT, so a slow
model build ran past any cap. Finding 5: hints and AI turns ran on the server's own threads,
holding the GIL while rooms waited for their pushes. Now each runs in a worker process that is
killed and replaced at the job's deadline or when its client leaves.

Every test waits on events (a job's answer, a count in /health), never on the clock: a job that
would not be stopped makes a wait time out, which fails the test.
"""

from __future__ import annotations

import http.client
import json
import os
import time
import warnings

import pytest

from rummisolve.errors import JsonInputError
from rummisolve.game import Game
from rummisolve.rules import RuleSet
from rummisolve.server import worker_jobs
from rummisolve.server.workers import JobCancelled, JobDeadline, PoolFull, WorkerPool

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")

from tests.server.test_app import MIDGAME, Server, _serve_checked  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

WAIT = 90.0
"""Seconds any wait below may take before the test fails: long, since the machine may be busy."""


def until(condition, what: str):
    """``condition()``'s value once true (polled)."""
    deadline = time.monotonic() + WAIT
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


# -- the pool ------------------------------------------------------------------------------------------


@pytest.fixture
def pool():
    made = WorkerPool("test", 1, 1, retry_after=3, workers_setting="test_workers", queue_setting="test_queue")
    yield made
    made.shutdown()


def test_a_full_pool_refuses_naming_its_settings(pool):
    running = pool.submit(time.sleep, (3600,), 3600, "a long job", "x")
    until(lambda: pool.snapshot()["busy"] == 1, "the first job runs")
    queued = pool.submit(time.sleep, (3600,), 3600, "a long job", "x")
    with pytest.raises(PoolFull) as info:
        pool.submit(time.sleep, (3600,), 3600, "a long job", "x")
    assert info.value.retry_after == 3
    assert "(1, test_workers)" in info.value.message and "(test_queue = 1)" in info.value.message
    assert pool.snapshot()["refused"] == 1
    queued.cancel()
    running.cancel()
    assert queued.future.cancelled()


def test_a_cancelled_queued_job_never_starts_and_a_running_one_is_killed(pool):
    running = pool.submit(time.sleep, (3600,), 3600, "a long job", "x")
    first_pid = until(lambda: running.pid, "the first job runs")
    queued = pool.submit(os.getpid, (), 60, "a queued job", "x")
    queued.cancel()
    assert queued.future.cancelled()
    running.cancel()  # its client has gone: the worker is killed
    with pytest.raises(JobCancelled):
        running.future.result(WAIT)
    assert pool.snapshot()["killed_cancelled"] == 1
    counts = pool.snapshot()
    assert (counts["started"], counts["cancelled"]) == (1, 1)  # the queued one never started
    # A fresh worker takes the next job: another process, not this one.
    pid = pool.call(os.getpid, (), 60, "a job", "x")
    assert pid not in (first_pid, os.getpid())


def test_a_job_past_its_deadline_is_killed_and_its_worker_replaced(pool):
    job = pool.submit(time.sleep, (3600,), 0.5, "the sleeper", "sleep_deadline_seconds")
    with pytest.raises(JobDeadline) as info:
        job.future.result(WAIT)
    assert info.value.message.startswith("the sleeper passed its deadline of 0.5 s (sleep_deadline_seconds)")
    assert pool.snapshot()["killed_deadline"] == 1
    assert pool.call(os.getpid, (), 60, "a job", "x") not in (job.pid, os.getpid())


def test_a_jobs_own_error_comes_back_as_it_is(pool):
    with pytest.raises(JsonInputError, match="saved game: expected a download of the web app"):
        pool.call(worker_jobs.replay, (b'{"format": "nothing"}', 100), 60, "a replay", "x")
    assert pool.call(os.getpid, (), 60, "a job", "x") != os.getpid()  # the same worker goes on


def test_heavy_workers_run_at_a_lower_priority():
    nicer = WorkerPool("nice", 1, 0, retry_after=1, workers_setting="w", queue_setting="q", nice=5)
    try:
        assert nicer.call(os.nice, (0,), 60, "a job", "x") == min(19, os.nice(0) + 5)
    finally:
        nicer.shutdown()


# -- a crafted replay whose client leaves (finding 1) ------------------------------------------------------


def crafted_replay() -> dict:
    """A saved game nobody would play: an 8-colour, 30-number set, 200-tile racks, every turn a
    draw. Its analysis takes far longer than any test waits (over 20 s on an idle machine)."""
    game = Game(2, RuleSet(colours=8, numbers=30, copies=2, jokers=4, rack_size=200), 1)
    while not game.finished:
        game.draw()
    return game.to_json()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("workers"), "--heavy-workers", "1", "--max-time-limit", "5")
    yield from _serve_checked(srv)


def health(server: Server) -> dict:
    return server.client.get("/health").json()["solves"]


class Upload:
    """A request sent on its own connection, not yet read: close it to play a client that left."""

    def __init__(self, server: Server, path: str, body: dict) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=300)
        self.conn.request("POST", path, body=json.dumps(body), headers={"content-type": "application/json"})

    def response(self) -> tuple[int, dict[str, str], dict]:
        response = self.conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, json.loads(response.read())

    def close(self) -> None:
        self.conn.close()


def test_a_replay_whose_client_left_is_stopped_and_its_worker_freed(server):
    before = until(lambda: (h := health(server))["heavy"]["busy"] == 0 and h, "an idle server")
    upload = Upload(server, "/replays", crafted_replay())
    until(lambda: health(server)["heavy"]["busy"] == 1, "the analysis runs")
    # The server answers meanwhile, a solve too (the light lane).
    assert server.client.post("/solve", json=MIDGAME).json()["status"] == "optimal"
    upload.close()  # the client leaves
    # Before: the analysis heard no stop signal and ran on ("stopped: 4, running: 4").
    after = until(lambda: (h := health(server))["heavy"]["busy"] == 0 and h, "the analysis is stopped")
    assert after["heavy"]["killed_cancelled"] == before["heavy"]["killed_cancelled"] + 1
    assert after["stopped"] == before["stopped"] + 1
    # Its worker was replaced: the next heavy job is answered.
    solved = server.client.post("/solve", json={**MIDGAME, "alternatives": 10, "rules": {"joker_retrieval": "strict"}})
    assert solved.status_code == 200 and solved.json()["status"] == "optimal", solved.text
    assert health(server)["heavy"]["started"] == after["heavy"]["started"] + 1
    assert server.alive()


def test_a_replay_past_its_deadline_is_504_naming_the_setting(tmp_path):
    srv = Server(tmp_path, "--heavy-workers", "1", "--replay-deadline-seconds", "1")
    try:
        upload = Upload(srv, "/replays", crafted_replay())
        status, headers, body = upload.response()
        upload.close()
        assert status == 504, body
        assert body["error"].startswith("the replay's analysis passed its deadline of 1 s (replay_deadline_seconds)")
        assert headers["retry-after"] == "1"
        counts = health(srv)
        assert counts["heavy"]["killed_deadline"] == 1 and counts["killed_deadline"] == 1
        assert srv.alive()
    finally:
        srv.client.close()
        srv.stop()
    assert "Traceback" not in srv.log_path.read_text()


# -- a slow model build: the whole job is under its deadline (finding 1) ------------------------------------


@pytest.fixture(scope="module")
def sleepy(tmp_path_factory):
    """A server whose every worker job first sleeps an hour, as a model whose building never ends."""
    args = ["--max-time-limit", "1.5", "--job-grace-seconds", "1", "--ai-turn-deadline-seconds", "1"]
    env = {"RUMMISOLVE_TEST_JOB_DELAY_SECONDS": "3600"}
    srv = Server(tmp_path_factory.mktemp("sleepy"), *args, env=env)
    yield from _serve_checked(srv)


def test_a_solve_whose_build_is_slow_is_answered_504_at_its_deadline(sleepy):
    before = health(sleepy)
    response = sleepy.client.post("/solve", json={**MIDGAME, "time_limit": 1})
    assert response.status_code == 504
    assert response.json() == {
        "status": "error",
        "error": "the solve passed its deadline of 2 s (its time_limit 1 s + job_grace_seconds 1 s) and was "
        "stopped; retry after 2 s, or ask for less",
    }
    assert response.headers["x-rummisolve-deadline"] == "2" and response.headers["retry-after"] == "2"
    after = until(lambda: (h := health(sleepy))["light"]["busy"] == 0 and h, "its worker is killed")
    assert after["light"]["killed_deadline"] == before["light"]["killed_deadline"] + 1
    assert after["killed_deadline"] == before["killed_deadline"] + 1


def test_a_slow_hint_is_504_and_a_slow_ai_draws_instead(sleepy):
    made = sleepy.client.post("/games", json={"players": ["human", "hard"], "seed": 5})
    assert made.status_code == 201, made.text
    game = made.json()
    auth = {"authorization": f"Bearer {game['token']}"}
    hint = sleepy.client.post(f"/games/{game['id']}/hint", json={"level": 1}, headers=auth)
    assert hint.status_code == 504, hint.text
    assert "the hint passed its deadline of 6 s (its time limit 5 s + job_grace_seconds 1 s)" in hint.json()["error"]
    drew = sleepy.client.post(f"/games/{game['id']}/draw", json={}, headers=auth)
    assert drew.status_code == 200, drew.text
    ai = sleepy.client.post(f"/games/{game['id']}/advance", json={}, headers=auth)
    assert ai.status_code == 200, ai.text
    assert ai.json()["event"]["type"] == "draw" and ai.json()["event"]["player"] == 1
    assert health(sleepy)["game"]["killed_deadline"] >= 2


# -- hints and AI turns run in worker processes (finding 5) -----------------------------------------------


def test_a_games_hint_and_ai_turn_run_in_a_worker_process(tmp_path):
    from rummisolve.server.app import create_app
    from rummisolve.server.settings import Settings

    app = create_app(Settings(allowed_hosts="testserver"), db=str(tmp_path / "games.sqlite3"))
    with TestClient(app) as client:
        game = client.post("/games", json={"players": ["human", "hard"], "seed": 3}).json()
        auth = {"authorization": f"Bearer {game['token']}"}
        before = client.get("/health").json()["solves"]["game"]
        assert client.post(f"/games/{game['id']}/hint", json={"level": 3}, headers=auth).status_code == 200
        hinted = client.get("/health").json()["solves"]["game"]
        assert hinted["started"] == before["started"] + 1
        assert hinted["last_pid"] not in (None, os.getpid())
        assert client.post(f"/games/{game['id']}/draw", json={}, headers=auth).status_code == 200
        assert client.post(f"/games/{game['id']}/advance", json={}, headers=auth).status_code == 200
        moved = client.get("/health").json()["solves"]["game"]
        assert moved["started"] >= hinted["started"] + 1
        assert moved["last_pid"] in moved["pids"] and os.getpid() not in moved["pids"]


def test_a_rooms_ai_turn_runs_in_a_worker_process(tmp_path):
    from rummisolve.server.app import create_app
    from rummisolve.server.settings import Settings

    app = create_app(Settings(allowed_hosts="testserver"), db=str(tmp_path / "rooms.sqlite3"))
    with TestClient(app) as client:
        before = client.get("/health").json()["solves"]["game"]
        made = client.post("/rooms", json={"seats": ["medium", "human"], "seat": 1, "name": "Ann"})
        assert made.status_code == 201, made.text
        code, token = made.json()["room"], made.json()["token"]
        with client.websocket_connect(f"/rooms/{code}/ws?token={token}") as ws:
            view = ws.receive_json()
            while view["turn"] != 1:  # the AI (seat 0) moves first
                view = ws.receive_json()
        assert view["last"]["player"] == 0
        after = client.get("/health").json()["solves"]["game"]
        assert after["started"] >= before["started"] + 1
        assert after["last_pid"] in after["pids"] and os.getpid() not in after["pids"]
