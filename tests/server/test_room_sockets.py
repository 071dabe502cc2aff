"""Game rooms over WebSocket (issue 39): the view at once and after every change (the other seat's
move, an AI's, a join, a timeout the server applies by itself), reconnecting with the same token,
spectators, refusals with their close codes, caps, and rooms resumed by a new process."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from rummisolve.rules import STANDARD  # noqa: E402
from rummisolve.server.rooms import Room  # noqa: E402

from .test_rooms import Clock, auth, create, hidden_leaks, join, make_app, true_room, turn  # noqa: E402


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def app(tmp_path, clock):
    return make_app(tmp_path / "rooms.sqlite3", clock)


def until(ws, done) -> dict:
    """The pushes of ``ws`` until one satisfies ``done``; that one."""
    while True:
        view = ws.receive_json()
        if done(view):
            return view


def refused(client, path: str) -> tuple[dict, int]:
    """The error a socket is sent before it is closed, and the close code."""
    with client.websocket_connect(path) as ws:
        message = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    return message, closed.value.code


def test_a_seat_sees_the_others_move_and_a_join_and_reconnects_with_its_token(app):
    with TestClient(app) as client:
        made = create(client, name="Ann")
        code, token = made["room"], made["token"]
        with client.websocket_connect(f"/rooms/{code}/ws?token={token}") as ws:
            first = ws.receive_json()
            assert first == made["view"]  # at once: the view as it is
            bo = join(client, code, "Bo")
            joined = ws.receive_json()  # the join is pushed
            assert joined["status"] == "playing" and joined["players"][1]["name"] == "Bo"
            assert joined["version"] == first["version"] + 1
            drew = turn(client, code, token, draw=True, version=joined["version"]).json()
            assert ws.receive_json() == drew
            moved = turn(client, code, bo["token"], draw=True, version=drew["version"]).json()
            pushed = ws.receive_json()  # the other seat's move
            assert pushed["version"] == moved["version"] and pushed["turn"] == 0
            assert pushed["last"] == {**moved["last"], "tile": None, "drew": 1}  # Bo's tile stays Bo's
            assert pushed["rack"] == drew["rack"]
            version, room = true_room(app, code)
            assert hidden_leaks(pushed, room, 0) == [] and hidden_leaks(moved, room, 1) == []
        # Reconnecting with the same token: the same seat, as it is now.
        with client.websocket_connect(f"/rooms/{code}/ws?token={token}") as ws:
            again = ws.receive_json()
            assert again["seat"] == 0 and again["version"] == version and again["rack"] == drew["rack"]
            assert again == client.get(f"/rooms/{code}", headers=auth(token)).json()


def test_a_spectator_sees_no_rack_and_every_seat_gets_its_own(app):
    with TestClient(app) as client:
        made = create(client, seats=["human", "human", "human"])
        code = made["room"]
        tokens = [made["token"], join(client, code)["token"], join(client, code)["token"]]
        with (
            client.websocket_connect(f"/rooms/{code}/ws") as watcher,
            client.websocket_connect(f"/rooms/{code}/ws?token={tokens[1]}") as bo,
            client.websocket_connect(f"/rooms/{code}/ws?token={tokens[2]}") as cy,
        ):
            start = [s.receive_json() for s in (watcher, bo, cy)]
            assert "rack" not in start[0] and start[1]["seat"] == 1 and start[2]["seat"] == 2
            drew = turn(client, code, tokens[0], draw=True, version=start[0]["version"]).json()
            after = [s.receive_json() for s in (watcher, bo, cy)]
            _, room = true_room(app, code)
            for view, seat in zip(after, (None, 1, 2), strict=True):
                assert view["version"] == drew["version"] and hidden_leaks(view, room, seat) == []
            assert "rack" not in after[0] and after[1]["rack"] == start[1]["rack"]


def test_an_ai_seats_move_arrives(app):
    with TestClient(app) as client:
        made = create(client, seats=["human", "medium"])
        code, token = made["room"], made["token"]
        with client.websocket_connect(f"/rooms/{code}/ws?token={token}") as ws:
            start = ws.receive_json()
            drew = turn(client, code, token, draw=True, version=start["version"]).json()
            assert drew["turn"] == 1  # the answer comes before the AI has moved
            back = until(ws, lambda v: v["turn"] == 0)
        assert back["version"] == drew["version"] + 1  # the AI's move: a version of its own
        assert back["last"]["player"] == 1 and back["last"]["name"] == "medium"
        assert back["log"][-1]["player"] == 1 and back["log"][-2]["player"] == 0


def test_the_server_applies_a_timeout_by_itself_and_pushes_it(app, clock):
    with TestClient(app) as client:
        made = create(client, timer=30)
        code = made["room"]
        bo = join(client, code)
        with client.websocket_connect(f"/rooms/{code}/ws?token={bo['token']}") as ws:
            start = ws.receive_json()
            clock.now += 31  # nobody asks: the sweeper finds the deadline passed
            late = ws.receive_json()
        assert late["version"] == start["version"] + 1 and late["turn"] == 1
        assert late["last"]["type"] == "timeout" and late["last"]["player"] == 0 and late["last"]["tiles"] is None
        assert late["players"][0]["tiles"] == 17 and late["timer"]["deadline"] == clock.now + 30


def test_refusals_close_with_the_status_in_the_code(app):
    with TestClient(app) as client:
        made = create(client)
        code = made["room"]
        message, closed = refused(client, f"/rooms/{code}/ws?token=forged")
        assert closed == 4403 and "no seat" in message["error"]
        message, closed = refused(client, "/rooms/ZZZZZZ/ws")
        assert closed == 4404 and "ZZZZZZ" in message["error"]
        message, closed = refused(client, f"/rooms/{code}/ws?token={made['token']}&seat=1")
        assert closed == 4400 and "seat" in message["error"]
        # Another site's page may not open one.
        with pytest.raises(WebSocketDisconnect) as foreign:
            with client.websocket_connect(f"/rooms/{code}/ws", headers={"origin": "http://evil.example"}) as ws:
                ws.receive_json()
        assert foreign.value.code == 1008


def test_caps_on_connections(tmp_path, clock):
    app = make_app(tmp_path / "r.sqlite3", clock, max_room_spectators=1, max_connections=2)
    with TestClient(app) as client:
        one, two = create(client), create(client)
        with client.websocket_connect(f"/rooms/{one['room']}/ws") as ws:
            ws.receive_json()
            message, closed = refused(client, f"/rooms/{one['room']}/ws")  # a second spectator
            assert closed == 4429 and "max_room_spectators" in message["error"]
            with client.websocket_connect(f"/rooms/{two['room']}/ws") as other:
                other.receive_json()
                message, closed = refused(client, f"/rooms/{create(client)['room']}/ws")
                assert closed == 4503 and "max_connections" in message["error"]
        # Closed connections count no more.
        with client.websocket_connect(f"/rooms/{one['room']}/ws") as ws:
            assert ws.receive_json()["room"] == one["room"]
        assert app.state.server.rooms.connections() == 0


def test_an_ai_turn_due_when_the_server_stopped_is_played_by_the_next(tmp_path, clock):
    db = tmp_path / "rooms.sqlite3"
    app = make_app(db, clock)
    store = app.state.server.store
    # A room saved with its AI seat to move and no server running it (as a kill -9 would leave it).
    room, seat, token = Room.new("KKKKKK", STANDARD, ["easy", "human"], "Ann", clock(), seat=1)
    assert room.ai_to_move() is not None
    # Made at the rooms' clock's time: made at the day's, the first chores would archive it as idle.
    store.create_room("KKKKKK", room.to_json(), room.status, room.due(clock()), max_live=10, max_stored=10, now=clock())
    with TestClient(app) as client:
        with client.websocket_connect(f"/rooms/KKKKKK/ws?token={token}") as ws:
            moved = until(ws, lambda v: v["turn"] == 1)
        assert moved["last"]["player"] == 0 and moved["version"] == 2


def test_a_change_made_by_another_worker_process_is_pushed(tmp_path, clock):
    db = tmp_path / "rooms.sqlite3"
    here, there = make_app(db, clock), make_app(db, clock)  # two workers on one database
    with TestClient(here) as near, TestClient(there) as far:
        made = create(near)
        code = made["room"]
        with near.websocket_connect(f"/rooms/{code}/ws?token={made['token']}") as ws:
            start = ws.receive_json()
            bo = join(far, code)
            assert ws.receive_json()["version"] == bo["view"]["version"]
            drew = turn(far, code, made["token"], draw=True, version=bo["view"]["version"]).json()
            assert ws.receive_json() == drew
        assert start["version"] == 1


def test_pushes_only_go_forward_and_two_tabs_cannot_both_act(app):
    from concurrent.futures import ThreadPoolExecutor

    with TestClient(app) as client:
        made = create(client)
        code = made["room"]
        bo = join(client, code)
        tokens = [made["token"], bo["token"]]
        version = bo["view"]["version"]
        # Eight tabs of seat 0 send a draw on the same version at once: one is applied.
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda _: turn(client, code, tokens[0], draw=True, version=version), range(8)))
        assert sorted(a.status_code for a in answers) == [200] + [409] * 7
        assert len(client.get(f"/rooms/{code}").json()["log"]) == 1
        version += 1
        with client.websocket_connect(f"/rooms/{code}/ws?token={tokens[0]}") as ws:
            versions = [ws.receive_json()["version"]]
            for mover in (1, 0, 1, 0, 1, 0):
                version = turn(client, code, tokens[mover], draw=True, version=version).json()["version"]
            while versions[-1] != version:
                versions.append(ws.receive_json()["version"])
        assert versions == sorted(set(versions))  # each newer than the last; never one twice


def test_an_open_socket_of_a_seat_handed_to_an_ai_is_closed_and_sees_nothing_more(app):
    """The creator gives Bo's seat to an AI while Bo's page is still connected: Bo's socket must
    not go on receiving that seat's view (the AI's rack, the tiles it draws)."""
    with TestClient(app) as client:
        made = create(client, seats=["human", "human"], name="Ann")
        code = made["room"]
        bo = join(client, code, "Bo")
        with client.websocket_connect(f"/rooms/{code}/ws?token={bo['token']}") as ws:
            assert ws.receive_json()["version"] == bo["view"]["version"]
            path = f"/rooms/{code}/seats/1"
            body = {"kind": "easy", "version": bo["view"]["version"]}
            handed = client.post(path, headers=auth(made["token"]), json=body)
            assert handed.status_code == 200
            message = ws.receive_json()
            assert "rack" not in message and "handed to an AI" in message["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403
        # Ann's socket goes on as before.
        with client.websocket_connect(f"/rooms/{code}/ws?token={made['token']}") as ws:
            assert ws.receive_json()["players"][1]["kind"] == "easy"
