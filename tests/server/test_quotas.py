"""Each client's share of the server (issue 47, findings 3 and 4), tried as one greedy client on
the same machine would: rooms and games made in a loop, spectator sockets opened in a loop, room
codes guessed, heavy jobs queued; and retention (what is over is deleted, owners with it). Every
loop is bounded; the defaults are the server's own unless a test names a setting."""

from __future__ import annotations

import contextlib
import warnings

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
uvicorn = pytest.importorskip("uvicorn")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from rummisolve.server.quotas import RateLimit  # noqa: E402
from rummisolve.server.settings import Settings  # noqa: E402

from .test_app import Pending, Server, _serve_checked, hard_position, wait_for  # noqa: E402
from .test_lanes import SMALL  # noqa: E402
from .test_rooms import Clock, auth, create, join, make_app  # noqa: E402


@pytest.fixture
def clock():
    return Clock()


def elsewhere(app, host: str = "10.0.0.2") -> TestClient:
    """Another client of the app: a request from another address (no lifespan of its own)."""
    return TestClient(app, client=(host, 1234))


def refused(client, path: str) -> tuple[dict, int]:
    """The error a socket is sent before it is closed, and the close code."""
    with client.websocket_connect(path) as ws:
        message = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    return message, closed.value.code


def count(app, table: str) -> int:
    store = app.state.server.store
    with store._db() as db:
        return db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


class Ticks:
    """A monotonic clock the test moves (the rate limits' windows)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def ticking(app) -> Ticks:
    ticks = Ticks()
    quotas = app.state.server.quotas
    for limit in (quotas.rooms, quotas.games, quotas.guesses):
        limit.clock = ticks
    return ticks


# -- finding 3: rooms and games ----------------------------------------------------------------------


def test_one_client_making_rooms_in_a_loop_is_stopped_at_its_share_and_others_still_get_theirs(tmp_path, clock):
    app = make_app(tmp_path / "r.sqlite3", clock)  # the defaults: 8 live rooms a client, 200 in all
    with TestClient(app) as greedy:
        made, answer = 0, None
        for _ in range(50):  # before: 50 rooms, and on to 200, after which everyone got 429
            answer = greedy.post("/rooms", json={"seats": ["human", "human"]})
            if answer.status_code != 201:
                break
            made += 1
        assert answer is not None and answer.status_code == 429, answer.text
        assert "max_client_live_rooms" in answer.json()["error"] and made == Settings().max_client_live_rooms
        assert count(app, "rooms") == made  # nothing written for the refusals
        other = create(elsewhere(app))  # another client gets its own share
        assert other["room"]
        # An owner token (from the web app's games) is a client of its own, from the same address.
        token = greedy.post("/games", json={"players": "human,easy"}).json()["token"]
        greedy.cookies.clear()
        assert greedy.post("/rooms", json={}, headers=auth(token)).status_code == 201


def test_room_creation_is_rate_limited_with_retry_after_naming_the_setting(tmp_path, clock):
    app = make_app(tmp_path / "r.sqlite3", clock, rooms_per_window=3, rate_window_seconds=600)
    ticks = ticking(app)
    with TestClient(app) as client:
        for _ in range(3):
            create(client)
        limited = client.post("/rooms", json={})
        assert limited.status_code == 429
        assert "rooms_per_window" in limited.json()["error"] and "rate_window_seconds" in limited.json()["error"]
        assert 1 <= int(limited.headers["retry-after"]) <= 600
        assert count(app, "rooms") == 3
        assert create(elsewhere(app))["room"]  # per address
        ticks.now += 600
        assert create(client)["room"]  # the window moved on


def test_finished_and_archived_rooms_count_against_no_cap_and_are_deleted_after_retention(tmp_path, clock):
    app = make_app(
        tmp_path / "r.sqlite3", clock, max_stored_rooms=2, room_idle_seconds=3600, room_retention_seconds=7200
    )
    hub = app.state.server.rooms
    with TestClient(app) as client:
        first, second = create(client), create(client)
        full = client.post("/rooms", json={})
        assert full.status_code == 429 and "max_stored_rooms" in full.json()["error"]
        clock.now += 3601
        hub.chores(clock.now)  # both archived: nobody played or watched them
        assert client.get(f"/rooms/{first['room']}").json()["status"] == "archived"
        third = create(client)  # before: 429 for good, archived rooms still counted
        assert count(app, "rooms") == 3
        clock.now += 7201
        hub.chores(clock.now)  # the archived ones, left alone past retention, are gone
        assert count(app, "rooms") == 1
        assert client.get(f"/rooms/{second['room']}").status_code == 404
        assert client.get(f"/rooms/{third['room']}").status_code == 200


def test_one_client_making_games_in_a_loop_writes_no_owner_for_a_refused_game(tmp_path, clock):
    app = make_app(tmp_path / "g.sqlite3", clock)
    with TestClient(app) as greedy:
        made, answer = 0, None
        for _ in range(40):  # no token kept: a new owner every time (before: 40 games and 40 owners)
            greedy.cookies.clear()
            answer = greedy.post("/games", json={"players": "human,easy"})
            if answer.status_code != 201:
                break
            made += 1
        assert answer is not None and answer.status_code == 429
        assert "max_client_live_games" in answer.json()["error"] and made == Settings().max_client_live_games
        for _ in range(20):
            greedy.cookies.clear()
            assert greedy.post("/games", json={"players": "human,easy"}).status_code == 429
        assert count(app, "owners") == made == count(app, "games")  # the refused wrote no owner
        assert elsewhere(app).post("/games", json={"players": "human,easy"}).status_code == 201


def test_a_refused_game_past_the_servers_cap_writes_no_owner(tmp_path, clock):
    app = make_app(tmp_path / "g.sqlite3", clock, max_live_games=1)
    with TestClient(app) as client:
        assert client.post("/games", json={"players": "human,easy"}).status_code == 201
        for host in ("10.0.0.3", "10.0.0.4", "10.0.0.5"):
            assert elsewhere(app, host).post("/games", json={"players": "human,easy"}).status_code == 429
        assert count(app, "owners") == 1


def test_game_creation_is_rate_limited(tmp_path, clock):
    app = make_app(tmp_path / "g.sqlite3", clock, games_per_window=2)
    ticking(app)
    with TestClient(app) as client:
        for _ in range(2):
            assert client.post("/games", json={"players": "human,easy"}).status_code == 201
        limited = client.post("/games", json={"players": "human,easy"})
        assert limited.status_code == 429 and "games_per_window" in limited.json()["error"]
        assert int(limited.headers["retry-after"]) >= 1
        assert count(app, "games") == 2


def test_games_nobody_played_past_retention_are_deleted_with_their_owners(tmp_path, clock):
    app = make_app(tmp_path / "g.sqlite3", clock)
    hub, store = app.state.server.rooms, app.state.server.store
    with TestClient(app) as client:
        old = client.post("/games", json={"players": "human,easy"}).json()
        client.cookies.clear()
        recent = client.post("/games", json={"players": "human,easy"}).json()
        month = Settings().game_retention_seconds + 60
        with store._db() as db:  # the first game and its owner, a month older
            db.execute(
                "UPDATE games SET updated = updated - ?, created = created - ? WHERE id = ?", (month, month, old["id"])
            )
            db.execute(
                "UPDATE owners SET created = created - ? WHERE hash IN (SELECT owner FROM games WHERE id = ?)",
                (month, old["id"]),
            )
        hub.chores(clock.now)
        assert count(app, "games") == 1 and count(app, "owners") == 1
        assert client.get(f"/games/{old['id']}", headers=auth(old["token"])).status_code == 404
        assert store.owner_of(old["token"]) is None
        assert client.get(f"/games/{recent['id']}", headers=auth(recent["token"])).status_code == 200


def test_room_codes_cannot_be_guessed_by_trying_them(tmp_path, clock):
    app = make_app(tmp_path / "r.sqlite3", clock, code_guesses_per_window=5)
    ticks = ticking(app)
    with TestClient(app) as guesser:
        real = create(elsewhere(app))["room"]
        answers = [
            guesser.get(f"/rooms/{code}").status_code for code in ("AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE")
        ]
        assert answers == [404] * 5
        stopped = guesser.get(f"/rooms/{real}")  # before: 43 guesses a second, never a 429
        assert stopped.status_code == 429 and "code_guesses_per_window" in stopped.json()["error"]
        assert int(stopped.headers["retry-after"]) >= 1
        assert guesser.post(f"/rooms/{real}/join", json={}).status_code == 429
        message, closed = refused(guesser, f"/rooms/{real}/ws")
        assert closed == 4429 and "code_guesses_per_window" in message["error"]
        assert elsewhere(app).get(f"/rooms/{real}").status_code == 200  # another address is not held up
        ticks.now += Settings().rate_window_seconds
        assert guesser.get(f"/rooms/{real}").status_code == 200


def test_the_rate_limit_keeps_no_more_than_it_needs():
    ticks = Ticks()
    limit = RateLimit(3, 10.0, "things", "things_per_window", ticks)
    for i in range(1000):
        limit.note(f"addr:{i % 7}")
    assert limit.clients() == 7 and all(len(e) <= 3 for e in limit._events.values())
    ticks.now += 10
    limit.take("addr:0")
    assert len(limit._events["addr:0"]) == 1


# -- finding 4: spectators and sockets ---------------------------------------------------------------


def test_spectators_cannot_keep_the_seats_out_and_one_client_holds_a_bounded_number(tmp_path, clock):
    app = make_app(tmp_path / "r.sqlite3", clock)  # the defaults: 8 spectators a room, 32 sockets a client
    settings = Settings()
    with TestClient(app) as client:
        with contextlib.ExitStack() as stack:
            made = create(client)
            code = made["room"]
            bo = join(elsewhere(app), code)
            watcher = elsewhere(app, "10.0.0.9")
            opened = 0
            for _ in range(40):  # before: 32 spectators filled the room, and both seats got 4429
                ws = stack.enter_context(watcher.websocket_connect(f"/rooms/{code}/ws"))
                first = ws.receive_json()
                if "error" in first:
                    with pytest.raises(WebSocketDisconnect) as closed:
                        ws.receive_json()
                    assert closed.value.code == 4429 and "max_room_spectators" in first["error"]
                    break
                opened += 1
            assert opened == settings.max_room_spectators
            for seat, token in ((0, made["token"]), (1, bo["token"])):
                with client.websocket_connect(f"/rooms/{code}/ws?token={token}") as ws:
                    assert ws.receive_json()["seat"] == seat
        # One client spreading spectators over rooms is stopped at max_client_connections.
        with contextlib.ExitStack() as stack:
            rooms = [create(elsewhere(app, f"10.0.1.{i}"))["room"] for i in range(6)]
            opened, error = 0, None
            for i in range(48):  # before: 400 sockets without a refusal
                ws = stack.enter_context(client.websocket_connect(f"/rooms/{rooms[i % 6]}/ws"))
                first = ws.receive_json()
                if "error" in first:
                    error = first["error"]
                    break
                opened += 1
            assert opened == settings.max_client_connections and "max_client_connections" in error


def test_a_seats_new_connection_replaces_its_oldest_and_takes_a_spectators_place(tmp_path, clock):
    app = make_app(tmp_path / "r.sqlite3", clock, max_seat_connections=1, max_client_connections=2, max_connections=3)
    with TestClient(app) as client:
        made = create(client)
        code, seat = made["room"], f"/rooms/{made['room']}/ws?token={made['token']}"
        with client.websocket_connect(seat) as old:
            old.receive_json()
            with client.websocket_connect(seat) as new:
                assert new.receive_json()["seat"] == 0
                gone = old.receive_json()
                assert "max_seat_connections" in gone["error"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    old.receive_json()
                assert closed.value.code == 4409
        # The client's own spectator gives way to its seat.
        with client.websocket_connect(f"/rooms/{code}/ws") as one, client.websocket_connect(f"/rooms/{code}/ws") as two:
            one.receive_json(), two.receive_json()
            with client.websocket_connect(seat) as mine:
                assert mine.receive_json()["seat"] == 0
                assert "max_client_connections" in one.receive_json()["error"]
        # The server full of spectators (of other clients): the seat gets in, the oldest gives way.
        others = [elsewhere(app, f"10.0.2.{i}") for i in range(3)]
        with contextlib.ExitStack() as stack:
            spectators = [stack.enter_context(o.websocket_connect(f"/rooms/{code}/ws")) for o in others]
            for ws in spectators:
                ws.receive_json()
            with client.websocket_connect(seat) as mine:
                assert mine.receive_json()["seat"] == 0
                bumped = spectators[0].receive_json()
                assert "max_connections" in bumped["error"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    spectators[0].receive_json()
                assert closed.value.code == 4503


# -- heavy jobs: a client's share of the heavy lane --------------------------------------------------


HEAVY = {**SMALL, "alternatives": 10, "rules": {"joker_retrieval": "strict"}}
"""A small position whose expected work is heavy (strict retrieval, 10 alternatives)."""


@pytest.fixture
def live(tmp_path):
    """``rummisolve serve``: two heavy workers, one heavy job a client, a cap long enough that a slow
    solve runs until its client leaves."""
    args = ["--heavy-workers", "2", "--max-client-jobs", "1", "--max-time-limit", "60", "--job-grace-seconds", "120"]
    srv = Server(tmp_path, *args)
    yield from _serve_checked(srv)


def test_one_client_holds_at_most_max_client_jobs_heavy_jobs(live):
    first = Pending(live, dict(hard_position(), time_limit=60))  # held until its client leaves
    try:
        wait_for(live, lambda c: c["heavy"]["busy"] == 1, "the first job runs")
        again = live.client.post("/solve", json=HEAVY)
        assert again.status_code == 429 and "max_client_jobs" in again.json()["error"]
        assert again.headers["retry-after"] == "1"
        # Another address (127.0.0.2 is this machine too) has its own share: the other heavy worker.
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=120) as other:
            assert other.post(live.url + "/solve", json=HEAVY).status_code == 200
    finally:
        first.close()
    wait_for(live, lambda c: c["heavy"]["busy"] == 0, "the first job is stopped")
    assert live.client.post("/solve", json=HEAVY).status_code == 200  # released


def test_a_forged_forwarded_for_header_gives_no_new_share(tmp_path):
    """``rummisolve serve`` takes the connection's own address (a proxy's header only with --trust-proxy)."""
    from tests.support.net import served

    with served(tmp_path) as base:
        answers = [
            httpx.post(base + "/rooms", json={}, headers={"x-forwarded-for": f"10.9.0.{i}"}, timeout=30).status_code
            for i in range(Settings().max_client_live_rooms + 2)
        ]
    assert answers.count(201) == Settings().max_client_live_rooms and answers[-1] == 429
