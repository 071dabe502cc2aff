"""Xpress rooms (issue 48, point 4): a room of the dice edition made, joined and played over HTTP
and WebSocket, as players and as an attacker would. A turn is a roll (the dice named), then a play
(refereed on the faces shown) or a pass; a refused action (another kind's action, a second roll, a
die that is not the mover's, an illegal play, out of turn, a stale version) changes nothing; every
view shows every seat's dice (rolled in the open) and never the seed; the turn timer passes the
turn; AI seats play Xpress's own levels; a restarted server resumes the room; the next round is
dealt. Cross-process pushes and kill -9: tests/server/test_postgres_servers.py."""

from __future__ import annotations

import json
import random
import types
import warnings

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from rummisolve.game import match  # noqa: E402
from rummisolve.server.rooms import Room  # noqa: E402
from rummisolve.solver import solve  # noqa: E402

from .test_rooms import Clock, auth, create, join, make_app, true_room, turn  # noqa: E402

DEAL_SEED = 5_217_004_431
"""The deal of the room played by roll, play and pass."""


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def app(tmp_path, clock):
    return make_app(tmp_path / "rooms.sqlite3", clock)


def xpress_room(client, **body) -> tuple[str, dict[int, str], dict]:
    """An Xpress room of two people, both seats taken: its code, the seats' tokens, the last view."""
    made = create(client, rules="xpress", name="Ann", **body)
    bo = join(client, made["room"], "Bo")
    return made["room"], {0: made["token"], 1: bo["token"]}, bo["view"]


def best_play(room: Room) -> list[list[str]] | None:
    """The best play of the mover's faces (the solver's, on the position the dice show), or None."""
    best = solve(room.game.state.position())
    return [[str(t) for t in m.tiles] for m in best.table] if best and best.played else None


def secrets_in(view: dict, room: Room) -> list[str]:
    """What ``view`` holds that no view may: the seeds (the room's, its round's: they decide every
    roll to come), a token or its hash, a deck."""
    text = json.dumps(view)
    found = [word for word in ('"seed"', '"deck"', '"token"') if word in text]
    found += [f"seed {s}" for s in (room.seed, room.game.seed) if str(s) in text]
    found += ["a token's hash" for place in room.seats if place.token and place.token in text]
    return found


def open_dice(view: dict, room: Room) -> bool:
    """Whether ``view`` shows every seat's free dice and their faces as they are (rolled in the open)."""
    state = room.game.state
    shown = [[(d["die"], d["face"]) for d in p["dice"]] for p in view["players"]]
    truth = [[(f"D{d + 1}", str(state.shown(d))) for d in hand] for hand in state.hands]
    return shown == truth


class _FixedDeal(random.Random):
    """A room's "fresh random" round seed, fixed by a test (``randrange`` answers ``seed``)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seed_given = seed

    def randrange(self, *args, **kwargs) -> int:
        return self.seed_given


def test_an_xpress_room_is_made_joined_and_played_by_roll_play_and_pass(app, monkeypatch):
    # One fixed deal (and so fixed rolls) with a play in its first turns: dealt from a fresh random
    # seed, some deals pass 12 turns in a row (the test once failed so).
    fixed = types.SimpleNamespace(Random=random.Random, SystemRandom=lambda: _FixedDeal(DEAL_SEED))
    monkeypatch.setattr(match, "random", fixed)
    with TestClient(app) as client:
        made = create(client, rules="xpress", name="Ann", timer=60)
        view = made["view"]
        assert (
            view["status"] == "waiting" and view["rules"] == "xpress" and "pool" not in view
        )  # no pool: no dummy count
        assert len(view["rack"]) == 9 and len(view["dice"]) == 9 and view["passes_to_end"] == 6
        code = made["room"]
        tokens = {0: made["token"], 1: join(client, code, "Bo")["token"]}
        plays = passes = 0
        for _ in range(12):
            version, room = true_room(app, code)
            if room.game.finished:
                break
            mover = room.game.current
            mine = client.get(f"/rooms/{code}", headers=auth(tokens[mover])).json()
            assert mine["turn"] == mover and not mine["rolled"] and mine["version"] == version
            rolled = turn(client, code, tokens[mover], roll=mine["dice"][:3], version=version)
            assert rolled.status_code == 200, rolled.text
            rolled = rolled.json()
            assert rolled["rolled"] and rolled["turn"] == mover and rolled["version"] == version + 1
            assert rolled["last"]["type"] == "roll" and rolled["last"]["dice"] == mine["dice"][:3]
            assert rolled["timer"]["deadline"] == mine["timer"]["deadline"]  # a roll does not end the turn
            _, room = true_room(app, code)
            assert rolled["rack"] == [str(t) for t in room.game.state.racks[mover]] and open_dice(rolled, room)
            table = best_play(room)
            if table is not None:
                answer = turn(client, code, tokens[mover], table=table, version=rolled["version"])
                assert answer.status_code == 200, answer.text
                played = answer.json()["last"]
                assert played["type"] == "play" and len(played["played"]) == len(played["dice"]) >= 1
                assert len(answer.json()["rack"]) == 9 - sum(
                    len(e.get("dice", [])) for e in answer.json()["log"] if e["type"] == "play" and e["player"] == mover
                )
                plays += 1
            else:
                answer = turn(client, code, tokens[mover], **{"pass": True}, version=rolled["version"])
                assert answer.status_code == 200 and answer.json()["last"]["type"] == "pass"
                passes += 1
            after = answer.json()
            assert after["turn"] == 1 - mover or after["status"] == "over"
            _, room = true_room(app, code)
            assert open_dice(after, room) and after["table_dice"] == [
                [f"D{d + 1}" for d in meld] for meld in room.game.state.table_dice
            ]
        assert plays >= 1  # a play was made, not only passes


def test_a_refused_action_leaves_the_room_unchanged(app):
    with TestClient(app) as client:
        code, tokens, view = xpress_room(client)
        version, room = true_room(app, code)
        mover, other = room.game.current, 1 - room.game.current
        theirs = client.get(f"/rooms/{code}", headers=auth(tokens[other])).json()["dice"]

        def refused(token: str, status: int, words: str, **body) -> None:
            before = true_room(app, code)[1].to_json()
            answer = turn(client, code, token, **body)
            assert answer.status_code == status, (body, answer.text)
            assert words in answer.json()["error"], (body, answer.json())
            now_version, now = true_room(app, code)
            assert (now_version, now.to_json()) == (version, before), body

        refused(tokens[mover], 400, "has no 'draw'", draw=True, version=version)
        refused(tokens[mover], 400, "has no 'discard'", table=[], discard="R1", version=version)
        refused(tokens[mover], 400, "roll", roll="D1 D2", version=version)
        refused(tokens[mover], 400, "roll", roll=[1, 2], version=version)
        refused(tokens[mover], 400, "not both", roll=[], **{"pass": True}, version=version)
        refused(tokens[mover], 400, "pass", **{"pass": "yes"}, version=version)
        refused(tokens[mover], 400, "discard", roll=[], discard="R1", version=version)
        refused(tokens[mover], 400, "D99", roll=["D99"], version=version)
        refused(tokens[mover], 409, theirs[0], roll=[theirs[0]], version=version)  # not the mover's die
        refused(tokens[other], 409, "not yours", roll=[], version=version)
        refused(tokens[other], 409, "not yours", **{"pass": True}, version=version)
        refused(tokens[mover], 409, "version", roll=[], version=version - 1)
        refused("not-a-token", 403, "no seat's", roll=[], version=version)
        # The roll, then a second one, and an illegal play: refused with the referee's reasons.
        rolled = turn(client, code, tokens[mover], roll="all", version=version).json()
        version, room = true_room(app, code)
        assert rolled["version"] == version and len(rolled["log"][-1]["dice"]) == 9  # "all": every free die
        refused(tokens[mover], 409, "roll", roll=[], version=version)
        one = rolled["rack"][:1]
        illegal = turn(client, code, tokens[mover], table=[one], version=version)
        assert illegal.status_code == 400 and illegal.json()["reasons"] and illegal.json()["version"] == version
        assert true_room(app, code)[0] == version
        # The tile game's room has no roll.
        tiles = create(client)
        join(client, tiles["room"])
        answer = turn(client, tiles["room"], tiles["token"], roll=[], version=2)
        assert answer.status_code == 400 and "the tile game has no 'roll'" in answer.json()["error"]


def test_every_view_shows_the_open_dice_and_no_secret(app):
    with TestClient(app) as client:
        code, tokens, _ = xpress_room(client)
        for step in range(6):
            version, room = true_room(app, code)
            mover = room.game.current
            views = {seat: client.get(f"/rooms/{code}", headers=auth(tokens[seat])).json() for seat in (0, 1)}
            views[None] = client.get(f"/rooms/{code}").json()
            with client.websocket_connect(f"/rooms/{code}/ws") as ws:
                views["pushed"] = ws.receive_json()
            for seat, view in views.items():
                assert view["version"] == version
                assert secrets_in(view, room) == [], (seat, secrets_in(view, room))
                assert open_dice(view, room), seat
            for seat in (0, 1):
                assert views[seat]["rack"] == [str(t) for t in room.game.state.racks[seat]]
                assert views[seat]["dice"] == [f"D{d + 1}" for d in room.game.state.hands[seat]]
            for spectator in (views[None], views["pushed"]):
                assert not {"seat", "rack", "dice"} & set(spectator)
            body = {"roll": [], "version": version} if step % 2 == 0 else {"pass": True, "version": version}
            assert turn(client, code, tokens[mover], **body).status_code == 200
        # The checker can fail: a seed, a token's hash.
        _, room = true_room(app, code)
        view = client.get(f"/rooms/{code}").json()
        assert secrets_in({**view, "x": room.game.seed}, room) and secrets_in({**view, "x": room.seats[0].token}, room)


def test_the_turn_timer_passes_the_turn(app, clock):
    with TestClient(app) as client:
        code, tokens, view = xpress_room(client, timer=20)
        mover = view["turn"]
        assert view["timer"]["deadline"] == clock.now + 20
        rolled = turn(client, code, tokens[mover], roll=[], version=view["version"]).json()
        clock.now += 19
        assert client.get(f"/rooms/{code}").json()["version"] == rolled["version"]  # not yet
        clock.now += 2
        late = client.get(f"/rooms/{code}", headers=auth(tokens[mover])).json()
        assert late["version"] == rolled["version"] + 1 and late["turn"] == 1 - mover
        assert late["last"] == {**late["log"][-1], "before": []} and late["last"]["type"] == "pass"
        assert late["last"]["player"] == mover and late["passes"] == 1 and len(late["rack"]) == 9
        assert late["timer"]["deadline"] == clock.now + 20
        assert turn(client, code, tokens[mover], roll=[], version=late["version"]).status_code == 409


def after(ws, version: int, seat: int) -> dict:
    """The first push of ``ws`` past ``version`` with ``seat`` to move again (or the round over)."""
    while True:
        view = ws.receive_json()
        if view["version"] > version and (view["turn"] == seat or view["status"] != "playing"):
            return view


def test_ai_seats_play_xpress_and_a_seat_is_handed_to_an_ai(app):
    with TestClient(app) as client:
        refused = client.post("/rooms", json={"rules": "xpress", "seats": ["human", "expert"]})
        assert (
            refused.status_code == 400 and "expert" in refused.json()["error"] and "medium" in refused.json()["error"]
        )
        made = create(client, rules="xpress", seats=["human", "medium"], name="Ann")
        code, token = made["room"], made["token"]
        with client.websocket_connect(f"/rooms/{code}/ws?token={token}") as ws:
            view = ws.receive_json()
            while view["turn"] != 0:  # the AI may have the first turn
                view = ws.receive_json()
            rolled = turn(client, code, token, roll=[], version=view["version"]).json()
            passed = turn(client, code, token, **{"pass": True}, version=rolled["version"]).json()
            back = after(ws, passed["version"], 0)
        assert back["version"] == passed["version"] + 1  # the AI's whole turn: one version
        theirs = [e for e in back["log"] if e["player"] == 1]
        assert theirs[-2]["type"] == "roll" and theirs[-1]["type"] in ("play", "pass")
        assert theirs[-1]["name"] == "medium"
        # A person's seat handed to an Xpress AI (the creator's choice) plays itself from then on.
        code, tokens, view = xpress_room(client)
        wrong = client.post(
            f"/rooms/{code}/seats/1", headers=auth(tokens[0]), json={"kind": "expert", "version": view["version"]}
        )
        assert wrong.status_code == 400 and "easy, medium, hard" in wrong.json()["error"]
        handed = client.post(
            f"/rooms/{code}/seats/1", headers=auth(tokens[0]), json={"kind": "easy", "version": view["version"]}
        )
        assert handed.status_code == 200 and handed.json()["players"][1]["kind"] == "easy"
        with client.websocket_connect(f"/rooms/{code}/ws?token={tokens[0]}") as ws:
            view = ws.receive_json()
            while view["turn"] != 0:
                view = ws.receive_json()
            passed = turn(client, code, tokens[0], **{"pass": True}, version=view["version"])
            assert passed.status_code == 200
            back = after(ws, passed.json()["version"], 0)
        assert [e["player"] for e in back["log"][-2:]] == [1, 1]  # the AI's roll and its play or pass


def test_a_new_app_resumes_the_room_and_the_next_round_is_dealt(tmp_path, clock):
    db = tmp_path / "rooms.sqlite3"
    with TestClient(make_app(db, clock)) as client:
        code, tokens, view = xpress_room(client, timer=10)
        mover = view["turn"]
        mine = client.get(f"/rooms/{code}", headers=auth(tokens[mover])).json()
        rolled = turn(client, code, tokens[mover], roll=mine["dice"][:2], version=view["version"])
        assert rolled.status_code == 200, rolled.text
        seen = {s: client.get(f"/rooms/{code}", headers=auth(t)).json() for s, t in tokens.items()}
    with TestClient(make_app(db, clock)) as client:  # a new process on the same file: nothing lost
        assert {s: client.get(f"/rooms/{code}", headers=auth(t)).json() for s, t in tokens.items()} == seen
        view = seen[0]
        _, room = true_room(client.app, code)
        first = room.match.game.deal.first
        for _ in range(12):  # nobody moves: every turn times out to a pass; six in a row end the round
            clock.now += 11
            view = client.get(f"/rooms/{code}").json()
            if view["status"] == "over":
                break
        assert view["status"] == "over" and view["end_reason"] == "blocked" and view["passes"] == 6
        assert view["timer"]["deadline"] is None and view["results"]["count"] == 1
        dealt = client.post(f"/rooms/{code}/next-round", headers=auth(tokens[0]), json={"version": view["version"]})
        assert dealt.status_code == 200, dealt.text
        again = dealt.json()
        assert again["round"] == 1 and again["status"] == "playing" and again["log"] == []
        assert len(again["dice"]) == 9 and again["passes"] == 0 and again["results"]["count"] == 1
        assert again["turn"] == 1 - first  # the first seat moves on by one
        assert client.get(f"/rooms/{code}/results").json()["rounds"] == [view["results"]["last"]]
