"""Game rooms over HTTP (issue 39), tried as players and as an attacker would: create, join, a full
room, each view's content (no other seat's rack, by tile multiset), turns out of turn, bad tokens,
stale versions, illegal plays, AI seats, the turn timer (an injected clock), restart and resume,
caps, and every error a JSON body. WebSocket pushes: tests/server/test_room_sockets.py."""

from __future__ import annotations

import dataclasses
import json
import re
import sqlite3
import warnings
from collections import Counter

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from rummisolve.server.app import create_app  # noqa: E402
from rummisolve.server.rooms import CODE_LENGTH, CODE_LETTERS, Room  # noqa: E402
from rummisolve.server.settings import Settings  # noqa: E402
from rummisolve.server.store import hash_token  # noqa: E402
from rummisolve.solver import solve  # noqa: E402

HOST = "testserver"
TILE = re.compile(r"^(J|[KBOR]\d{1,2})$")


class Clock:
    """Wall-clock seconds the test sets."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def make_app(db, clock: Clock | None = None, **settings):
    settings.setdefault("allowed_hosts", HOST)
    app = create_app(dataclasses.replace(Settings(), **settings), db=str(db))
    app.state.server.rooms.cache.clock = clock or Clock()
    return app


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def app(tmp_path, clock):
    return make_app(tmp_path / "rooms.sqlite3", clock)


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def create(client, **body) -> dict:
    body.setdefault("seats", ["human", "human"])
    made = client.post("/rooms", json=body)
    assert made.status_code == 201, made.text
    return made.json()


def join(client, code: str, name: str = "Bo") -> dict:
    joined = client.post(f"/rooms/{code}/join", json={"name": name})
    assert joined.status_code == 200, joined.text
    return joined.json()


def true_room(app, code: str) -> tuple[int, Room]:
    version, data = app.state.server.store.load_room(code)
    return version, Room.from_json(data)


def turn(client, code: str, token: str, **body):
    return client.post(f"/rooms/{code}/turn", headers=auth(token), json=body)


def best_table(room: Room, seat: int) -> list[list[str]] | None:
    best = solve(room.game.view(seat).position)
    return [[str(t) for t in m.tiles] for m in best.table] if best else None


# -- what a view may hold --------------------------------------------------------------------------


def _codes(obj) -> Counter:
    """Every tile code anywhere in ``obj`` (a multiset)."""
    found: Counter = Counter()
    if isinstance(obj, str):
        if TILE.match(obj):
            found[obj] += 1
    elif isinstance(obj, list):
        for item in obj:
            found += _codes(item)
    elif isinstance(obj, dict):
        for value in obj.values():
            found += _codes(value)
    return found


PUBLIC_TILES = ("table", "before", "played")
"""The keys whose tiles are on the table (checked against it, and against what the seat has seen)."""


def _arrays(obj, skip: tuple[str, ...] = ()):
    """Every array in ``obj``, nested ones too, but none under the keys ``skip``."""
    if isinstance(obj, list):
        yield obj
        for item in obj:
            yield from _arrays(item, skip)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            if key not in skip:
                yield from _arrays(value, skip)


def hidden_leaks(view: dict, room: Room, seat: int | None) -> list[str]:
    """What ``view`` (of ``seat``; ``None``: a spectator) shows that it may not: another seat's
    rack (as a multiset), tiles the seat never saw, the pool's order, a seed, a deck, a token."""
    text = json.dumps(view)
    leaks = [f"{word} named" for word in ('"seed"', '"deck"', '"token"') if word in text]
    leaks += [f"seed {s}" for s in (room.seed, room.game.deal.seed) if str(s) in text]
    leaks += ["a token's hash" for place in room.seats if place.token and place.token in text]
    game = room.game
    state = game.state
    if state.finished:
        return leaks  # every rack is laid down at the end of a round
    own = Counter(map(str, state.racks[seat])) if seat is not None else Counter()
    # Now (outside the log and the last move): exactly the table and the seat's own rack.
    current = {k: v for k, v in view.items() if k not in ("log", "last")}
    expected = Counter(str(t) for m in state.table for t in m.tiles) + own + Counter(map(str, state.discards))
    if seat is not None and seat == state.current and state.drawn is not None:
        expected[str(state.drawn)] += 1  # the discard rule: the mover's view names the tile it drew
    if _codes(current) != expected:
        leaks.append(f"tiles now: {sorted((_codes(current) - expected).elements())} beyond the table and rack")
    # The past: only tiles the seat has seen (on the table, or on its own rack) this round.
    seen = {str(t) for s in game.states for m in s.table for t in m.tiles}
    seen |= {str(t) for s in game.states for t in s.discards}
    if seat is not None:
        seen |= {str(t) for s in game.states for t in s.racks[seat]}
    unseen = set(_codes({"log": view["log"], "last": view["last"]})) - seen
    if unseen:
        leaks.append(f"tiles never seen by seat {seat}: {sorted(unseen)}")
    if view["table"] != [[str(t) for t in m.tiles] for m in state.table]:
        leaks.append("not the table")
    # Another seat's rack as any array (a table meld may hold the same tiles by chance: the
    # counts above and the tiles seen check those).
    strings = [a for a in _arrays(view, PUBLIC_TILES) if all(isinstance(x, str) for x in a)]
    for other, rack in enumerate(state.racks):
        same = [a for a in strings if Counter(a) == Counter(map(str, rack))]
        if other != seat and same:
            leaks.append(f"seat {other}'s rack {same[0]}")
    pool = [str(t) for t in state.pool]
    for codes in (a for a in _arrays(view) if all(isinstance(x, str) for x in a)):
        windows = {tuple(pool[i : i + 4]) for i in range(len(pool) - 3)}
        if any(tuple(codes[j : j + 4]) in windows for j in range(len(codes) - 3)):
            leaks.append(f"the pool's order in {codes}")
    return leaks


# -- create, join, a full room ---------------------------------------------------------------------


def test_create_join_and_a_full_room(app):
    with TestClient(app) as client:
        made = create(client, seats=["human", "human", "easy"], name="Ann", timer=30)
        code = made["room"]
        assert len(code) == CODE_LENGTH and set(code) <= set(CODE_LETTERS)
        assert made["seat"] == 0 and made["invite"] == f"/r/{code}" and len(made["token"]) >= 40
        view = made["view"]
        assert view["status"] == "waiting" and view["seat"] == 0 and len(view["rack"]) == 14
        assert [p["name"] for p in view["players"]] == ["Ann", "player 2", "easy"]
        assert [p["joined"] for p in view["players"]] == [True, False, True]
        assert view["timer"]["deadline"] is None  # no clock runs while the room waits
        # Waiting: nobody plays yet.
        early = turn(client, code, made["token"], draw=True, version=view["version"])
        assert early.status_code == 409 and "waiting" in early.json()["error"]
        joined = join(client, code.lower(), "Bo")  # codes are read in any case
        assert joined["seat"] == 1 and joined["token"] != made["token"]
        assert joined["view"]["status"] == "playing" and joined["view"]["players"][1]["name"] == "Bo"
        assert joined["view"]["timer"] == {
            "seconds": 30.0,
            "penalty": 3,
            "deadline": app.state.server.rooms.cache.clock() + 30,
            "left": 30.0,
        }
        full = client.post(f"/rooms/{code}/join", json={"name": "Cy"})
        assert full.status_code == 409 and "full" in full.json()["error"]
        assert client.post("/rooms/ZZZZZZ/join", json={}).status_code == 404
        assert client.post("/rooms/not-a-code/join", json={}).status_code == 404
        # The spectator needs no join.
        watched = client.get(f"/rooms/{code}").json()
        assert "rack" not in watched and "seat" not in watched and watched["status"] == "playing"


def test_a_join_may_name_a_free_human_seat(app):
    # Players on one screen (the page's hot-seat) take the seats they were given, not the next free one.
    with TestClient(app) as client:
        made = create(client, seats=["human", "human", "human"], name="Ann")
        code = made["room"]
        cy = client.post(f"/rooms/{code}/join", json={"name": "Cy", "seat": 2})
        assert cy.status_code == 200 and cy.json()["seat"] == 2
        assert [p["joined"] for p in cy.json()["view"]["players"]] == [True, False, True]
        taken = client.post(f"/rooms/{code}/join", json={"name": "Di", "seat": 2})
        assert taken.status_code == 409 and "seat 2" in taken.json()["error"]
        for bad in (5, -1, "1", True):
            refused = client.post(f"/rooms/{code}/join", json={"name": "Di", "seat": bad})
            assert refused.status_code == 400 and "seat" in refused.json()["error"], bad
        bo = join(client, code, "Bo")  # without a seat: the next free one
        assert bo["seat"] == 1 and bo["view"]["status"] == "playing"
        version, room = true_room(app, code)
        assert [place.name for place in room.seats] == ["Ann", "Bo", "Cy"]
        made = create(client, seats=["human", "easy", "human"], name="Ann")
        ai = client.post(f"/rooms/{made['room']}/join", json={"seat": 1})
        assert ai.status_code == 400 and "AI" in ai.json()["error"]


def test_the_creator_may_take_another_seat_and_an_ai_seat_moves_first(app):
    with TestClient(app) as client:
        made = create(client, seats=["easy", "human"], seat=1, name="Ann")
        assert made["seat"] == 1
        # Seat 0 (the AI) starts the round; its move is its own version, after the room's first.
        code, token = made["room"], made["token"]
        with client.websocket_connect(f"/rooms/{code}/ws?token={token}") as ws:
            view = ws.receive_json()
            while view["turn"] != 1:
                view = ws.receive_json()
        assert view["last"]["player"] == 0 and view["last"]["name"] == "easy" and view["version"] >= 2
        assert view["log"][0]["player"] == 0


# -- the views ---------------------------------------------------------------------------------


def settle(client, code: str, humans: set[int]) -> list[dict]:
    """The spectator's pushes until a human seat is to move (the AI seats' turns played)."""
    pushed = []
    with client.websocket_connect(f"/rooms/{code}/ws") as ws:
        while True:
            pushed.append(ws.receive_json())
            if pushed[-1]["turn"] in humans or pushed[-1]["status"] != "playing":
                return pushed


def test_no_view_shows_another_seats_rack_the_pool_or_a_secret(app):
    with TestClient(app) as client:
        made = create(client, seats=["human", "human", "easy"], name="Ann")
        code = made["room"]
        tokens = {0: made["token"], 1: join(client, code)["token"]}
        plays = 0
        for _ in range(30):
            version, room = true_room(app, code)
            if room.game.finished:
                break
            mover = room.game.current
            table = best_table(room, mover)
            if table is not None:
                answer = turn(client, code, tokens[mover], table=table, version=version)
                plays += 1
            else:
                answer = turn(client, code, tokens[mover], draw=True, version=version)
            assert answer.status_code == 200, answer.text
            version, room = true_room(app, code)
            if answer.json()["version"] == version:  # no AI turn yet
                assert hidden_leaks(answer.json(), room, mover) == []
            pushed = settle(client, code, set(tokens))
            version, room = true_room(app, code)
            assert pushed[-1]["version"] == version and hidden_leaks(pushed[-1], room, None) == []
            for seat in (0, 1, None):
                headers = auth(tokens[seat]) if seat is not None else {}
                view = client.get(f"/rooms/{code}", headers=headers).json()
                assert view["version"] == version
                assert hidden_leaks(view, room, seat) == [], (seat, view)
        assert plays >= 1  # the check saw plays, not only draws


def test_the_checker_finds_a_leak(app):
    # The leak check must be able to fail: another seat's rack, or a tile the seat never saw.
    with TestClient(app) as client:
        made = create(client)
        join(client, made["room"])
        _, room = true_room(app, made["room"])
        view = client.get(f"/rooms/{made['room']}", headers=auth(made["token"])).json()
        other = [str(t) for t in room.game.state.racks[1]]
        assert hidden_leaks(view, room, 0) == []
        assert any(leak.startswith("seat 1's rack") for leak in hidden_leaks({**view, "extra": other[::-1]}, room, 0))
        assert any(
            "never seen" in leak for leak in hidden_leaks({**view, "log": [{"tile": t} for t in other]}, room, 0)
        )
        assert hidden_leaks({**view, "seed": 1}, room, 0)


# -- turns and refusals ----------------------------------------------------------------------------


def test_out_of_turn_bad_tokens_and_a_stale_version_change_nothing(app, tmp_path):
    with TestClient(app) as client:
        made = create(client)
        code = made["room"]
        bo = join(client, code)
        version = bo["view"]["version"]
        before = true_room(app, code)[1].to_json()
        out_of_turn = turn(client, code, bo["token"], draw=True, version=version)
        assert out_of_turn.status_code == 409 and "Ann" not in out_of_turn.json()["error"]
        assert "turn" in out_of_turn.json()["error"]
        missing = client.post(f"/rooms/{code}/turn", json={"draw": True, "version": version})
        assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
        cache = app.state.server.rooms.cache
        with cache.locks.hold(code):
            kept = cache.get(code).room
        forged = turn(client, code, made["token"] + "x", draw=True, version=version)
        assert forged.status_code == 403 and set(forged.json()) == {"error"}
        with cache.locks.hold(code):  # a refusal that changed nothing keeps the room in memory (no replay)
            assert cache.get(code).room is kept
        basic = client.post(
            f"/rooms/{code}/turn", headers={"authorization": "Basic abc"}, json={"draw": True, "version": 1}
        )
        assert basic.status_code == 401
        stale = turn(client, code, made["token"], draw=True, version=version - 1)
        assert stale.status_code == 409 and "version" in stale.json()["error"]
        assert client.get(f"/rooms/{code}", headers={"authorization": "Bearer forged"}).status_code == 403
        # Another room's token is no seat here.
        elsewhere = create(client)
        assert turn(client, code, elsewhere["token"], draw=True, version=version).status_code == 403
        now_version, now_room = true_room(app, code)
        assert now_version == version and now_room.to_json() == before
        # The right seat, the right version: one new version.
        drew = turn(client, code, made["token"], draw=True, version=version)
        assert drew.status_code == 200 and drew.json()["version"] == version + 1 and drew.json()["turn"] == 1
        assert len(drew.json()["rack"]) == 15 and drew.json()["last"]["tile"] in drew.json()["rack"]
        # A second tab of the same seat, acting on the old version: refused, nothing changed.
        again = turn(client, code, made["token"], draw=True, version=version)
        assert again.status_code == 409
        assert true_room(app, code)[0] == version + 1
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("rooms.sqlite3*"))
    assert made["token"].encode() not in raw and hash_token(made["token"]).encode() in raw  # stored hashed


def test_an_illegal_play_is_400_with_the_referees_reasons(app):
    with TestClient(app) as client:
        made = create(client)
        code = made["room"]
        version = join(client, code)["view"]["version"]
        rack = made["view"]["rack"]
        answer = turn(client, code, made["token"], table=[rack[:2]], version=version)
        assert answer.status_code == 400
        body = answer.json()
        assert body["error"].startswith("illegal play: ") and body["reasons"] and body["version"] == version
        assert {"code", "message", "meld"} <= set(body["reasons"][0])
        assert true_room(app, code)[0] == version  # unchanged
        foreign = turn(client, code, made["token"], table=[["R1", "R2", "Q9"]], version=version)
        assert foreign.status_code == 400 and "table[0][2]" in foreign.json()["error"]


def test_a_legal_play_is_applied_and_pushed_to_the_log(app):
    with TestClient(app) as client:
        made = create(client)
        code = made["room"]
        tokens = [made["token"], join(client, code)["token"]]
        for _ in range(40):
            version, room = true_room(app, code)
            mover = room.game.current
            table = best_table(room, mover)
            if table is None:
                assert turn(client, code, tokens[mover], draw=True, version=version).status_code == 200
                continue
            played = turn(client, code, tokens[mover], table=table, version=version).json()
            assert played["version"] == version + 1 and played["table"] == table
            assert played["last"]["type"] == "play" and played["last"]["played"]
            assert played["players"][mover]["opened"] is True
            assert played["log"][-1]["played"] == played["last"]["played"] and "table" not in played["log"][-1]
            break
        else:
            pytest.fail("nobody had a play in 40 turns")


def test_bad_bodies_are_400_naming_the_part(app):
    with TestClient(app) as client:
        cases = [
            ({"seats": ["human", "robot"]}, "robot"),
            ({"seats": ["easy", "hard"]}, "human"),
            ({"seats": ["human"]}, "2 to 4"),
            ({"seats": ["human"] * 5}, "2 to 4"),
            ({"seats": "human,human"}, "seats"),
            ({"timer": 0}, "timer"),
            ({"timer": "fast"}, "timer"),
            ({"name": "x" * 40}, "name"),
            ({"name": "\u0007bell"}, "name"),
            ({"rules": "chess"}, "chess"),
            ({"seat": 5}, "seat"),
            ({"seats": ["easy", "human"], "seat": 0}, "AI"),
            ({"colour": "red"}, "colour"),
        ]
        for body, named in cases:
            answer = client.post("/rooms", json=body)
            assert answer.status_code == 400 and named in answer.json()["error"], (body, answer.text)
            assert set(answer.json()) == {"error"}
        made = create(client)
        code = made["room"]
        version = join(client, code)["view"]["version"]
        for body, named in [
            ({"draw": True}, "version"),
            ({"draw": True, "version": "2"}, "version"),
            ({"version": version}, "a turn is"),
            ({"draw": True, "table": [], "version": version}, "not both"),
            ({"draw": 1, "version": version}, "draw"),
            ({"draw": True, "discard": "R5", "version": version}, "two actions"),
            ({"table": "R1 R2", "version": version}, "table"),
            ({"pass": True, "version": version}, "pass"),
        ]:
            answer = turn(client, code, made["token"], **body)
            assert answer.status_code == 400 and named in answer.json()["error"], (body, answer.text)
        text = client.post(f"/rooms/{code}/join", content='{"name": "x"}', headers={"content-type": "text/plain"})
        assert text.status_code == 415
        assert true_room(app, code)[0] == version


def test_other_sites_pages_are_refused(app):
    with TestClient(app) as client:
        foreign = client.post("/rooms", json={"seats": ["human", "human"]}, headers={"origin": "http://evil.example"})
        assert foreign.status_code == 403
        assert app.state.server.store.room_counts()["stored"] == 0


def test_a_forged_host_gets_no_room_and_no_view(app):
    """DNS rebinding: a page on another name that resolves to this machine must not make a room,
    read a seat's view or open its WebSocket."""
    with TestClient(app) as client:
        made = create(client, name="Ann")
        code, token = made["room"], made["token"]
        evil = {"host": "evil.example"}
        assert client.post("/rooms", json={"seats": ["human", "human"]}, headers=evil).status_code == 400
        seen = client.get(f"/rooms/{code}", headers={**auth(token), **evil})
        assert seen.status_code == 400 and "rack" not in seen.text
        assert app.state.server.store.room_counts()["stored"] == 1
        with pytest.raises(WebSocketDisconnect) as closed:  # refused before any view is sent
            with client.websocket_connect(f"/rooms/{code}/ws?token={token}", headers=evil) as ws:
                ws.receive_json()
        assert closed.value.code == 1008 and "evil.example" in closed.value.reason


# -- the turn timer --------------------------------------------------------------------------------


def test_a_turn_timer_that_runs_out_draws_the_penalty(app, clock):
    with TestClient(app) as client:
        made = create(client, timer=15)
        code = made["room"]
        bo = join(client, code)
        view = bo["view"]
        assert view["timer"]["deadline"] == clock.now + 15 and view["turn"] == 0
        clock.now += 14.5
        assert client.get(f"/rooms/{code}").json()["version"] == view["version"]  # not yet
        clock.now += 1
        late = client.get(f"/rooms/{code}", headers=auth(made["token"])).json()
        assert late["version"] == view["version"] + 1 and late["turn"] == 1
        assert late["last"]["type"] == "timeout" and late["last"]["drew"] == 3 and late["last"]["player"] == 0
        assert len(late["rack"]) == 17 and late["players"][0]["tiles"] == 17
        assert late["timer"]["deadline"] == clock.now + 15  # Bo's clock starts
        # The seat that ran out is told its tiles; the others only how many.
        other = client.get(f"/rooms/{code}", headers=auth(bo["token"])).json()
        assert other["last"]["tiles"] is None and other["last"]["drew"] == 3
        assert set(late["last"]["tiles"]) <= set(late["rack"])
        # Its turn is gone: an action on it is out of turn (and on the old version, stale).
        assert turn(client, code, made["token"], draw=True, version=late["version"]).status_code == 409
        # A timeout that happens as a move arrives: the move is refused, the penalty stands.
        clock.now += 20
        refused = turn(client, code, bo["token"], draw=True, version=late["version"])
        assert refused.status_code == 409
        assert client.get(f"/rooms/{code}").json()["players"][1]["tiles"] == 17


def test_the_rule_sets_turn_timer_is_the_rooms_by_default(app, clock):
    with TestClient(app) as client:
        made = create(client, rules={"turn_timer": 40, "timer_penalty": 2})
        view = join(client, made["room"])["view"]
        assert view["timer"]["seconds"] == 40 and view["timer"]["penalty"] == 2
        clock.now += 41
        late = client.get(f"/rooms/{made['room']}").json()
        assert late["last"]["type"] == "timeout" and late["last"]["drew"] == 2


# -- restart and resume ----------------------------------------------------------------------------


def test_a_new_app_on_the_same_file_resumes_rooms_and_their_deadlines(tmp_path, clock):
    db = tmp_path / "rooms.sqlite3"
    first = make_app(db, clock)
    with TestClient(first) as client:
        made = create(client, timer=60, name="Ann")
        code = made["room"]
        bo = join(client, code, "Bo")
        drew = turn(client, code, made["token"], draw=True, version=bo["view"]["version"]).json()
        seen = client.get(f"/rooms/{code}", headers=auth(bo["token"])).json()
    second = make_app(db, clock)
    with TestClient(second) as client:
        assert client.get(f"/rooms/{code}", headers=auth(bo["token"])).json() == seen
        assert client.get(f"/rooms/{code}", headers=auth(made["token"])).json()["rack"] == drew["rack"]
        # Bo's deadline was kept: it runs out now, in the new process.
        clock.now += 61
        late = client.get(f"/rooms/{code}", headers=auth(bo["token"])).json()
        assert late["last"]["type"] == "timeout" and late["turn"] == 0 and len(late["rack"]) == 17
        assert turn(client, code, made["token"], draw=True, version=late["version"]).status_code == 200


# -- caps --------------------------------------------------------------------------------------------


def test_caps_on_rooms_are_429_naming_the_limit(tmp_path, clock):
    app = make_app(tmp_path / "r.sqlite3", clock, max_live_rooms=2, max_stored_rooms=3)
    with TestClient(app) as client:
        create(client)
        create(client)
        full = client.post("/rooms", json={"seats": ["human", "human"]})
        assert full.status_code == 429 and "max_live_rooms" in full.json()["error"]


# -- rounds, and seats handed to an AI ---------------------------------------------------------------


def test_a_round_played_out_shows_every_rack_and_the_next_round_is_dealt(app, clock):
    with TestClient(app) as client:
        made = create(client, timer=10)
        code = made["room"]
        bo = join(client, code)
        tokens = [made["token"], bo["token"]]
        early = client.post(f"/rooms/{code}/next-round", headers=auth(tokens[0]), json={"version": 2})
        assert early.status_code == 409 and "not over" in early.json()["error"]
        view = bo["view"]
        for _ in range(40):  # nobody moves: the pool runs out in penalties, then the round is blocked
            clock.now += 11
            view = client.get(f"/rooms/{code}").json()
            if view["status"] == "over":
                break
        assert view["status"] == "over" and view["end_reason"] == "blocked" and view["pool"] == 0
        assert view["timer"]["deadline"] is None
        _, room = true_room(app, code)
        assert [p["rack"] for p in view["players"]] == [[str(t) for t in r] for r in room.game.state.racks]
        assert view["results"]["count"] == 1 and view["results"]["last"]["end_reason"] == "blocked"
        scores = view["results"]["last"]["scores"]
        assert view["results"]["totals"] == scores and sum(scores) == 0
        assert turn(client, code, tokens[0], draw=True, version=view["version"]).status_code == 409
        stale = client.post(f"/rooms/{code}/next-round", headers=auth(tokens[1]), json={"version": 1})
        assert stale.status_code == 409
        dealt = client.post(f"/rooms/{code}/next-round", headers=auth(tokens[1]), json={"version": view["version"]})
        assert dealt.status_code == 200, dealt.text
        again = dealt.json()
        assert again["round"] == 1 and again["turn"] == 1 and again["status"] == "playing"  # the next seat starts
        assert again["version"] == view["version"] + 1 and again["log"] == [] and len(again["rack"]) == 14
        assert again["results"] == view["results"] and "rack" not in again["players"][0]
        assert again["timer"]["deadline"] == clock.now + 10
        results = client.get(f"/rooms/{code}/results").json()
        assert results == {"rounds": [view["results"]["last"]], "totals": scores}


def test_the_creator_hands_a_seat_to_an_ai(app):
    with TestClient(app) as client:
        made = create(client, seats=["human", "human", "human"], name="Ann")
        code = made["room"]
        bo = join(client, code, "Bo")
        version = bo["view"]["version"]
        path = f"/rooms/{code}/seats/1"
        body = {"kind": "easy", "version": version}
        assert client.post(path, json=body).status_code == 401
        not_creator = client.post(path, headers=auth(bo["token"]), json=body)
        assert not_creator.status_code == 403 and "creator" in not_creator.json()["error"]
        for bad, named in [({"kind": "robot"}, "kind"), ({"kind": "human"}, "kind")]:
            answer = client.post(path, headers=auth(made["token"]), json={**bad, "version": version})
            assert answer.status_code == 400 and named in answer.json()["error"]
        own = client.post(f"/rooms/{code}/seats/0", headers=auth(made["token"]), json=body)
        assert own.status_code == 409
        assert client.post(f"/rooms/{code}/seats/x", headers=auth(made["token"]), json=body).status_code == 400
        # Seat 2 was never taken: an AI fills it, and the game starts.
        filled = client.post(f"/rooms/{code}/seats/2", headers=auth(made["token"]), json=body).json()
        assert filled["status"] == "playing" and filled["players"][2]["kind"] == "easy"
        assert filled["players"][2]["name"] == "easy (for player 3)"
        assert client.post(f"/rooms/{code}/join", json={"name": "Cy"}).status_code == 409  # full now
        # Bo's seat goes to an AI: Bo's token no longer acts there.
        handed = client.post(path, headers=auth(made["token"]), json={"kind": "easy", "version": filled["version"]})
        assert handed.status_code == 200 and handed.json()["players"][1]["name"] == "easy (for Bo)"
        assert client.get(f"/rooms/{code}", headers=auth(bo["token"])).status_code == 403
        # Ann draws; both AI seats then play themselves.
        drew = turn(client, code, made["token"], draw=True, version=handed.json()["version"]).json()
        with client.websocket_connect(f"/rooms/{code}/ws?token={made['token']}") as ws:
            back = ws.receive_json()
            while back["turn"] != 0:
                back = ws.receive_json()
        assert back["version"] == drew["version"] + 2 and [e["player"] for e in back["log"][-2:]] == [1, 2]


def test_a_room_nobody_plays_or_watches_is_archived(tmp_path, clock):
    app = make_app(tmp_path / "r.sqlite3", clock, room_idle_seconds=3600, max_live_rooms=2)
    hub = app.state.server.rooms
    with TestClient(app) as client:
        idle = create(client)
        bo = join(client, idle["room"])
        watched = create(client)
        refused = client.post("/rooms", json={})
        assert refused.status_code == 429
        with client.websocket_connect(f"/rooms/{watched['room']}/ws") as ws:
            ws.receive_json()
            clock.now += 3601
            hub.chores(clock.now)  # as the sweeper does once a minute
            assert client.get(f"/rooms/{watched['room']}").json()["status"] == "waiting"  # watched: kept
        view = client.get(f"/rooms/{idle['room']}", headers=auth(idle["token"])).json()
        assert view["status"] == "archived" and view["timer"]["deadline"] is None and len(view["rack"]) == 14
        played = turn(client, idle["room"], bo["token"], draw=True, version=view["version"])
        assert played.status_code == 409 and "archived" in played.json()["error"]
        assert client.post(f"/rooms/{idle['room']}/join", json={}).status_code == 409
        assert app.state.server.store.room_counts() == {"stored": 1, "live": 1}  # archived: counted against no cap
        assert client.post("/rooms", json={}).status_code == 201  # an archived room is not live


# -- the store refusing, a damaged row ---------------------------------------------------------------


def test_a_refused_write_changes_nothing_and_a_damaged_room_is_its_own_error(app, monkeypatch):
    from rummisolve.server.store import StoreUnavailable

    store = app.state.server.store
    with TestClient(app) as client:
        made = create(client)
        code = made["room"]
        version = join(client, code)["view"]["version"]
        before = client.get(f"/rooms/{code}", headers=auth(made["token"])).json()

        def refuse(*args, **kwargs):
            raise StoreUnavailable("the game database refused the request: database is locked")

        monkeypatch.setattr(store, "save_room", refuse)
        refused = turn(client, code, made["token"], draw=True, version=version)
        assert refused.status_code == 503 and "nothing was changed" in refused.json()["error"]
        assert refused.headers["retry-after"]
        monkeypatch.undo()
        assert client.get(f"/rooms/{code}", headers=auth(made["token"])).json() == before
        assert turn(client, code, made["token"], draw=True, version=version).status_code == 200
        # A row that cannot be read is that room's error only.
        other = create(client)
        with sqlite3.connect(store.path) as db:  # as another program might leave it
            db.execute("UPDATE rooms SET data = '{not json', version = version + 1 WHERE code = ?", (code,))
        damaged = client.get(f"/rooms/{code}")
        assert damaged.status_code == 500 and code in damaged.json()["error"] and set(damaged.json()) == {"error"}
        with client.websocket_connect(f"/rooms/{code}/ws") as ws:
            assert code in ws.receive_json()["error"]
        assert client.get(f"/rooms/{other['room']}").status_code == 200


def test_the_discard_rule_a_draw_then_a_discard(app, clock):
    with TestClient(app) as client:
        made = create(client, rules={"discard": True}, timer=20)
        code = made["room"]
        bo = join(client, code)
        view = bo["view"]
        assert len(view["discard_pile"]) == 1 and view["drawn"] is None and view["draw_from"] is None
        deadline = client.get(f"/rooms/{code}", headers=auth(made["token"])).json()["timer"]["deadline"]
        clock.now += 5
        drew = turn(client, code, made["token"], draw=True, source="discard", version=view["version"]).json()
        assert drew["turn"] == 0 and drew["draw_from"] == "discard" and drew["drawn"] == view["discard_pile"][0]
        assert drew["timer"]["deadline"] == deadline  # the same turn, the same clock
        assert drew["discard_pile"] == [] and len(drew["rack"]) == 15
        other = client.get(f"/rooms/{code}", headers=auth(bo["token"])).json()
        assert other["drawn"] is None and other["draw_from"] is None
        _, room = true_room(app, code)
        assert hidden_leaks(drew, room, 0) == [] and hidden_leaks(other, room, 1) == []
        tile = drew["rack"][0]
        done = turn(client, code, made["token"], discard=tile, version=drew["version"]).json()
        assert done["turn"] == 1 and done["discard_pile"] == [tile] and len(done["rack"]) == 14
        assert done["timer"]["deadline"] == clock.now + 20
        _, room = true_room(app, code)
        assert hidden_leaks(done, room, 0) == [] and hidden_leaks(client.get(f"/rooms/{code}").json(), room, None) == []
