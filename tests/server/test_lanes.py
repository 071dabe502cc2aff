"""Which lane a solve takes (issue 33, finding 7: a starved light lane).

A solve is light when its position has at most ``light_max_tiles`` tiles in play and it asks for
no alternatives: ``alternatives: N`` searches the model up to N + 1 times, each proven, so two
such requests on small positions could hold both light threads while a 4-tile solve waited
behind them. The functional test runs the app in this process under uvicorn with the solve job
patched, so the long requests block on an event (never on the clock) until the test releases them.
"""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest

httpx = pytest.importorskip("httpx")
uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("fastapi")

from rummisolve import solve_json  # noqa: E402
from rummisolve.server.app import create_app  # noqa: E402
from rummisolve.server.lanes import Lanes  # noqa: E402
from rummisolve.server.settings import Settings  # noqa: E402
from rummisolve.server.state import solve_job  # noqa: E402
from tests.support.net import free_port  # noqa: E402

SMALL = {"table": [["R1", "R2", "R3"], ["K7", "O7", "B7"]], "rack": ["R4", "R5", "K9", "K7"], "opened": True}
"""10 tiles in play: light by its size."""
TINY = {"table": [], "rack": ["R1", "R2", "R3", "K9"], "opened": True}
"""The 4-tile solve of the finding."""


# -- the rule ------------------------------------------------------------------------------------------


def test_a_small_position_asking_for_alternatives_takes_the_heavy_lane():
    lanes = Lanes(Settings(light_max_tiles=20))
    try:
        assert lanes.lane_for(4, {**TINY, "alternatives": 10, "time_limit": 10.0}) is lanes.heavy
        assert lanes.lane_for(4, {**TINY, "alternatives": 1}) is lanes.heavy
        # However the alternatives come: with an explanation, an id.
        assert lanes.lane_for(4, {**TINY, "alternatives": 3, "explain": True, "id": 7}) is lanes.heavy
    finally:
        lanes.shutdown()


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"alternatives": 0},
        {"time_limit": 10.0},  # the cap: what every request without a time_limit gets
        {"explain": True},
        {"hint": 2},
        {"id": "game-7/turn-12"},
        # Refused at once by solve_json whichever lane runs it (400): kept out of the busy one.
        {"alternatives": "ten"},
        {"alternatives": True},
        {"alternatives": None},
    ],
)
def test_a_small_solve_without_alternatives_takes_the_light_lane(extra):
    lanes = Lanes(Settings(light_max_tiles=20))
    try:
        assert lanes.lane_for(4, {**TINY, **extra}) is lanes.light
        assert lanes.lane_for(20, {**TINY, **extra}) is lanes.light
        assert lanes.lane_for(21, {**TINY, **extra}) is lanes.heavy
    finally:
        lanes.shutdown()


def test_without_a_light_lane_every_solve_takes_the_heavy_lane():
    lanes = Lanes(Settings(light_solver_threads=0))
    try:
        assert lanes.lane_for(4, TINY) is lanes.heavy
        assert lanes.lane_for(4, {**TINY, "alternatives": 10}) is lanes.heavy
    finally:
        lanes.shutdown()


# -- the app, in this process, with the solve job patched -------------------------------------------------


class Blocking:
    """The app's solve job, except that a solve asking for alternatives waits for :attr:`release`
    (or its stop signal) first. Records the thread (so the lane) each request's ``id`` ran in."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.ran_in: dict[object, str] = {}

    def __call__(self, body, stop):
        if isinstance(body, dict) and "id" in body:
            self.ran_in[body["id"]] = threading.current_thread().name
        if isinstance(body, dict) and body.get("alternatives"):
            while not self.release.wait(0.01):
                if stop is not None and stop.is_set():
                    break
        return solve_job(body, stop)


@pytest.fixture
def blocking():
    job = Blocking()
    yield job
    job.release.set()


@pytest.fixture
def live(blocking, tmp_path):
    """The app (2 light threads, 2 heavy ones) under uvicorn on a free loopback port, in a thread."""
    settings = dataclasses.replace(Settings(), light_solver_threads=2, solver_threads=2, max_time_limit=10.0)
    app = create_app(settings, db=str(tmp_path / "games.sqlite3"))
    app.state.server.solve = blocking  # every /solve (and the warm-up) runs the blocking job
    config = uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    url = f"http://127.0.0.1:{config.port}"
    try:
        yield url
    finally:
        blocking.release.set()
        server.should_exit = True
        thread.join(30)


def _lanes(url: str) -> dict:
    return httpx.get(url + "/health", timeout=10).json()["solves"]


def test_a_tiny_solve_answers_while_long_alternatives_requests_run(live, blocking):
    long_answers: list = []

    def long_request(i: int) -> None:
        body = {**SMALL, "alternatives": 10, "time_limit": 10, "id": f"long-{i}"}
        long_answers.append(httpx.post(live + "/solve", json=body, timeout=120))

    longs = [threading.Thread(target=long_request, args=(i,)) for i in range(2)]
    for thread in longs:
        thread.start()
    try:
        deadline = time.monotonic() + 30
        while _lanes(live)["running"] < 2:  # both hold a solver thread, blocked on the event
            assert time.monotonic() < deadline, f"the long requests did not start: {_lanes(live)}"
            time.sleep(0.01)
        # The 4-tile solve: before the fix it queued behind them in the light lane until they ended.
        # The bound is generous: the long ones would never end by themselves.
        tiny = httpx.post(live + "/solve", json={**TINY, "id": "tiny"}, timeout=10)
        assert tiny.status_code == 200
        assert {**tiny.json(), "timings": None} == {**solve_json({**TINY, "id": "tiny"}), "timings": None}
        counts = _lanes(live)
        assert (counts["heavy"]["running"], counts["light"]["running"]) == (2, 0), counts
    finally:
        blocking.release.set()
        for thread in longs:
            thread.join(60)
    assert blocking.ran_in["tiny"].startswith("rummisolve-light")
    assert blocking.ran_in["long-0"].startswith("rummisolve-heavy")
    assert blocking.ran_in["long-1"].startswith("rummisolve-heavy")
    assert [r.status_code for r in long_answers] == [200, 200]
    assert all(r.json()["status"] == "optimal" and "alternatives" in r.json() for r in long_answers)
    counts = _lanes(live)
    assert (counts["light"]["started"], counts["heavy"]["started"]) == (1, 2), counts
