"""Game rooms stored as they are now (issue 47, finding 6): a room of many rounds loads at the cost
of its current round (no earlier round replayed, no play judged again: counted, not timed), a
room in the first form (every round whole) is read once by replaying it and stored anew, a
restored room shows every seat the same view as before and keeps judging new plays, every
acknowledged action survives a restart, and pushes carry the current round, not every round's
result."""

from __future__ import annotations

import contextlib
import json
import warnings

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import rummisolve.game.engine as engine  # noqa: E402
import rummisolve.referee as referee  # noqa: E402
from rummisolve.errors import IllegalMoveError  # noqa: E402
from rummisolve.game import Game  # noqa: E402
from rummisolve.rules import STANDARD  # noqa: E402
from rummisolve.server.requests import BadRequest  # noqa: E402
from rummisolve.server.room_cache import RoomCache  # noqa: E402
from rummisolve.server.room_views import room_view  # noqa: E402
from rummisolve.server.rooms import ROOM_FORMAT, Room  # noqa: E402
from rummisolve.server.settings import Settings  # noqa: E402
from rummisolve.server.store import DamagedGame, GameStore  # noqa: E402

from .test_rooms import Clock, auth, best_table, create, hidden_leaks, join, make_app, turn  # noqa: E402

MAX_STEPS = Settings().max_verify_steps
PLAYING_TURNS = 4
"""Turns of each round played by the solver's best play (or a draw); the rest run out the timer."""


class Counted:
    """Counts the calls of the referee and of the engine's transitions (patched in by :meth:`patch`)."""

    def __init__(self, monkeypatch) -> None:
        self.judged = 0
        self.applied = 0
        verify, after_event = referee.verify, engine.after_event

        def judging(*args, **kwargs):
            self.judged += 1
            return verify(*args, **kwargs)

        def applying(*args, **kwargs):
            self.applied += 1
            return after_event(*args, **kwargs)

        monkeypatch.setattr(referee, "verify", judging)
        monkeypatch.setattr(engine, "after_event", applying)

    def reset(self) -> None:
        self.judged = self.applied = 0


def new_room(now: float) -> Room:
    room, _, _ = Room.new("ABCDEF", STANDARD, ["human", "human"], "Ann", now, timer=1, max_steps=MAX_STEPS)
    room.join("Bo", now)
    return room


def move(room: Room, now: float, turns: int = PLAYING_TURNS) -> float:
    """One move of the room: the solver's best play or a draw in the round's first ``turns`` turns,
    else the mover's time runs out (a penalty); the time after it."""
    if room.game.state.turn < turns:
        seat = room.game.current
        table = best_table(room, seat)
        if table is not None:
            room.play(seat, table, None, now)
        else:
            room.draw(seat, "pool", now)
        return now
    now += 2
    assert room.expire(now)
    return now


def play_rounds(room: Room, rounds: int, now: float) -> tuple[list[Game], float]:
    """Play ``rounds`` rounds to their end, dealing the next after each; the rounds played."""
    games = []
    for _ in range(rounds):
        while room.status != "over":
            now = move(room, now)
        games.append(room.game)
        room.next_round(now)
    return games, now


def played_room(rounds: int) -> tuple[Room, list[Game]]:
    """A room of ``rounds`` finished rounds, then played into the next until it has a play, and
    two moves more."""
    room = new_room(1_000.0)
    games, now = play_rounds(room, rounds, 1_000.0)
    while not any(e.to_json()["type"] == "play" for e in room.game.events):
        assert room.game.state.turn < 40, "nobody could open in 40 turns"
        now = move(room, now, turns=40)
    for _ in range(2):
        now = move(room, now, turns=40)
    return room, games


def reloaded(room: Room) -> Room:
    return Room.from_json(json.loads(json.dumps(room.to_json())), max_steps=MAX_STEPS)


def views(room: Room) -> list[dict]:
    return [room_view(room, seat, 7, 2_000.0) for seat in (0, 1, None)]


@pytest.fixture(scope="module")
def rooms() -> dict[int, tuple[Room, list[Game]]]:
    """Rooms of 1 and 6 finished rounds, each played into the next (a play among its moves)."""
    return {rounds: played_room(rounds) for rounds in (1, 6)}


# -- loading ---------------------------------------------------------------------------------------


def test_a_room_loads_at_the_cost_of_its_current_round_whatever_rounds_it_played(rooms, monkeypatch):
    counted = Counted(monkeypatch)
    for rounds, (room, games) in rooms.items():
        saved = room.to_json()
        assert "rounds" not in saved and len(saved["results"]) == rounds
        text = json.dumps(saved)
        assert not [g.deal.seed for g in games if str(g.deal.seed) in text]  # earlier deals are not kept
        counted.reset()
        again = reloaded(room)
        assert counted.judged == 0  # no play judged again
        assert counted.applied == len(room.game.events) == len(again.game.events)  # the current round only
        assert again.game.state == room.game.state and again.past == room.past and again.totals == room.totals


def test_a_restored_room_shows_every_seat_what_it_showed_and_judges_new_plays(rooms, monkeypatch):
    room, _ = rooms[6]
    counted = Counted(monkeypatch)
    again = reloaded(room)
    assert views(again) == views(room)
    for seat, view in zip((0, 1, None), views(again), strict=True):
        assert hidden_leaks(view, again, seat) == []
        assert (seat is None) == ("rack" not in view)
    assert counted.judged == 0
    mover = again.game.current
    with pytest.raises(IllegalMoveError):
        again.play(mover, [[str(t) for t in again.game.state.racks[mover][:2]]], None, 2_000.0)
    assert counted.judged == 1 and again.game.state == room.game.state


def test_the_results_are_each_finished_rounds(rooms):
    room, games = rooms[6]
    results = [r.to_json() for r in room.results()]
    assert results == [
        {"winner": g.winner, "end_reason": g.state.end_reason, "scores": list(g.scores()), "turns": g.state.turn}
        for g in games
    ]
    assert list(room.match_totals()) == [sum(g.scores()[s] for g in games) for s in range(2)]


# -- the first form ----------------------------------------------------------------------------------


def first_form(room: Room, games: list[Game]) -> dict:
    """Room ``room`` as version 1 stored it: every round's whole game."""
    saved = room.to_json()
    del saved["results"], saved["round"]
    return {**saved, "format": ROOM_FORMAT, "version": 1, "rounds": [g.to_json() for g in [*games, room.game]]}


def test_a_room_in_the_first_form_is_replayed_once_and_stored_anew(rooms, tmp_path, monkeypatch):
    room, games = rooms[6]
    store = GameStore(str(tmp_path / "r.sqlite3"), max_live=10, max_stored=10)
    assert store.create_room("ABCDEF", first_form(room, games), room.status, None, max_live=10, max_stored=10)
    store.save_room("ABCDEF", first_form(room, games), room.status, None, expected=1)  # version 2 of the row
    cache = RoomCache(store, Settings(), clock=Clock(2_000.0))
    counted = Counted(monkeypatch)
    loaded = cache.get("ABCDEF")
    assert counted.judged > 0  # every round's plays judged again, once
    assert loaded.version == 2 and views(loaded.room) == views(room)
    assert loaded.room.past == room.past and loaded.room.totals == room.totals
    version, data = store.load_room("ABCDEF")
    assert version == 2 and data["version"] == 2 and "rounds" not in data and len(data["results"]) == 6
    counted.reset()
    cache.forget("ABCDEF")
    assert views(cache.get("ABCDEF").room) == views(room)
    assert counted.judged == 0 and counted.applied == len(room.game.events)


def test_a_first_form_room_with_a_forged_play_is_damaged(rooms, tmp_path):
    room, games = rooms[1]
    old = first_form(room, games)
    log = old["rounds"][-1]["log"]
    play = next(i for i, e in enumerate(log) if e.get("type") == "play")
    log[play]["table"] = [*log[play]["table"], ["R1", "R2"]]  # a meld of two: never legal
    store = GameStore(str(tmp_path / "r.sqlite3"), max_live=10, max_stored=10)
    store.create_room("ABCDEF", old, room.status, None, max_live=10, max_stored=10)
    with pytest.raises(DamagedGame, match="ABCDEF"):
        RoomCache(store, Settings()).get("ABCDEF")
    assert store.load_room("ABCDEF")[1]["version"] == 1  # left as it was


def test_a_damaged_snapshot_names_the_part(rooms):
    room, _ = rooms[1]
    saved = room.to_json()
    saved["results"][0]["scores"] = [1]
    with pytest.raises(ValueError, match=r"results\[0\]\.scores"):
        Room.from_json(saved)
    saved = {**room.to_json(), "version": 9}
    with pytest.raises(ValueError, match="version"):
        Room.from_json(saved)


# -- over HTTP and WebSocket -------------------------------------------------------------------------


def finish_round(client, code: str, clock: Clock, token: str) -> dict:
    """Run the round out by timeouts (each one a change, acknowledged by the GET that applies it)."""
    for _ in range(60):
        clock.now += 2
        view = client.get(f"/rooms/{code}", headers=auth(token)).json()
        if view["status"] == "over":
            return view
    raise AssertionError("the round did not end")


def test_every_acknowledged_action_survives_a_restart(tmp_path):
    clock = Clock()
    db = tmp_path / "rooms.sqlite3"
    with TestClient(make_app(db, clock)) as client:
        made = create(client, timer=1, name="Ann")
        code = made["room"]
        bo = join(client, code, "Bo")
        tokens = [made["token"], bo["token"]]
        acknowledged = bo["view"]
        for _ in range(3):
            view = finish_round(client, code, clock, tokens[0])
            dealt = client.post(f"/rooms/{code}/next-round", headers=auth(tokens[1]), json={"version": view["version"]})
            assert dealt.status_code == 200
            acknowledged = dealt.json()
        app = client.app
        while not any(e["type"] == "play" for e in acknowledged["log"]):  # plays and draws into the round
            assert acknowledged["turn_number"] < 40, "nobody could open in 40 turns"
            room = app.state.server.rooms.cache.get(code).room
            mover = room.game.current
            table = best_table(room, mover)
            body = {"table": table} if table is not None else {"draw": True}
            answer = turn(client, code, tokens[mover], version=acknowledged["version"], **body)
            assert answer.status_code == 200, answer.text
            acknowledged = answer.json()
        seen = [client.get(f"/rooms/{code}", headers=auth(t)).json() for t in tokens]
        results = client.get(f"/rooms/{code}/results").json()
    assert seen[acknowledged["seat"]] == acknowledged  # the last action acknowledged is the room now
    with TestClient(make_app(db, clock)) as client:
        assert [client.get(f"/rooms/{code}", headers=auth(t)).json() for t in tokens] == seen
        assert client.get(f"/rooms/{code}/results").json() == results
        assert len(results["rounds"]) == 3 and results["totals"] == [
            sum(r["scores"][s] for r in results["rounds"]) for s in range(2)
        ]


def test_pushes_carry_the_current_round_not_every_rounds_result(tmp_path):
    clock = Clock()
    with TestClient(make_app(tmp_path / "rooms.sqlite3", clock)) as client:
        made = create(client, timer=1, name="Ann")
        code = made["room"]
        bo = join(client, code, "Bo")
        sizes = []
        with client.websocket_connect(f"/rooms/{code}/ws?token={made['token']}") as ws:
            version = ws.receive_json()["version"]
            for rounds in range(1, 6):
                view = finish_round(client, code, clock, bo["token"])
                dealt = client.post(
                    f"/rooms/{code}/next-round", headers=auth(bo["token"]), json={"version": view["version"]}
                )
                version = dealt.json()["version"]
                while (pushed := ws.receive_json())["version"] < version:
                    pass
                assert pushed["round"] == rounds and pushed["log"] == []
                assert set(pushed["results"]) == {"count", "last", "totals"} and pushed["results"]["count"] == rounds
                assert pushed["results"]["last"] == view["results"]["last"]
                sizes.append(len(json.dumps(pushed)))
        full = client.get(f"/rooms/{code}/results").json()
    assert len(full["rounds"]) == 5 and full["rounds"][-1] == pushed["results"]["last"]
    # A push at the start of round 6 is as big as one at the start of round 2 (racks of 14 tiles,
    # totals of a few digits): before, each finished round added its result to every push.
    assert max(sizes) - min(sizes) < 100, sizes


def test_the_fingerprint_changes_exactly_when_the_saved_room_does():
    """Every action (refused ones too) changes :meth:`Room.fingerprint` exactly when it changes
    what is saved: a change it missed would not be saved, nor acknowledged honestly."""
    now = 1_000.0
    room, _, _ = Room.new("ABCDEF", STANDARD, ["human", "human", "human"], "Ann", now, timer=5, max_steps=MAX_STEPS)
    steps = [
        lambda: room.draw(0, "pool", now),  # waiting: refused
        lambda: room.join("Bo", now),
        lambda: room.join("Cy", now),
        lambda: room.join("Di", now),  # full: refused
        lambda: room.draw(1, "pool", now),  # out of turn: refused
        lambda: room.play(0, [["R1", "R2"]], None, now),  # illegal: refused
        lambda: room.draw(0, "pool", now),
        lambda: room.expire(now + 1),  # not due: nothing
        lambda: room.expire(now + 10),  # seat 1's time is up
        lambda: room.hand_to_ai(1, 2, "easy", now),  # not the creator: refused
        lambda: room.hand_to_ai(0, 2, "easy", now),
        lambda: room.next_round(now),  # the round is on: refused
        lambda: room.play(2, table, None, now) if (table := best_table(room, 2)) else room.draw(2, "pool", now),
        room.archive,
        room.archive,  # archived already: nothing
    ]
    changed = []
    for step in steps:
        fingerprint, saved = room.fingerprint(), json.dumps(room.to_json())
        with contextlib.suppress(ValueError, BadRequest):  # refusals: the game's errors, a 403
            step()
        assert (room.fingerprint() != fingerprint) == (json.dumps(room.to_json()) != saved)
        changed.append(json.dumps(room.to_json()) != saved)
    assert changed == [False, True, True, False, False, False, True, False, True, False, True, False, True, True, False]
