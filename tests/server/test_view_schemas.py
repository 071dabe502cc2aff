"""The one game view (issue 48): every /games and /rooms endpoint documents its answer in the
OpenAPI document, and real answers (both kinds of game; a seat and a spectator; a round on and a
round over; the discard rule) validate against those models, which forbid fields they lack, so a
view and its model cannot drift apart. The same vocabulary in both: ``turn`` is the seat to move."""

from __future__ import annotations

import dataclasses
import json
import warnings
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from pydantic import TypeAdapter  # noqa: E402

from rummisolve.rules import RuleSet  # noqa: E402
from rummisolve.server import view_schemas as vs  # noqa: E402
from rummisolve.server.app import create_app  # noqa: E402
from rummisolve.server.dice_session import DiceSession  # noqa: E402
from rummisolve.server.session import Session  # noqa: E402
from rummisolve.server.settings import Settings  # noqa: E402

GAME_VIEW = TypeAdapter(vs.GameView)
ROOM_VIEW = TypeAdapter(vs.RoomView)


@pytest.fixture
def api(tmp_path):
    app = create_app(dataclasses.replace(Settings(), allowed_hosts="testserver"), db=str(tmp_path / "views.sqlite3"))
    with TestClient(app) as client:
        yield client


def _schema_of(operation: dict) -> dict | None:
    for status, response in operation["responses"].items():
        if status.startswith("2"):
            return response.get("content", {}).get("application/json", {}).get("schema")
    return None


def test_every_games_and_rooms_endpoint_documents_its_answer_and_its_errors(api):
    doc = api.get("/openapi.json").json()
    checked = 0
    for path, operations in doc["paths"].items():
        if not path.startswith(("/games", "/rooms")):
            continue
        for method, operation in operations.items():
            schema = _schema_of(operation)
            assert schema and (schema.get("$ref") or schema.get("oneOf") or schema.get("anyOf")), (method, path)
            assert operation["responses"]["400"]["content"]["application/json"]["schema"], (method, path)
            if method == "post":  # every body is documented, and its model is in the document
                ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
                assert ref.rsplit("/", 1)[1] in doc["components"]["schemas"], (method, path)
            checked += 1
    assert checked >= 19  # the game's actions, its reads, the rooms' endpoints
    views = doc["components"]["schemas"]
    for model in ("TileSessionView", "XpressSessionView", "TileRoomView", "XpressRoomView", "ActionAnswer"):
        assert model in views
    assert views["TileSessionView"]["properties"]["turn"]["description"] == "The seat to move."


def test_the_documented_bodies_are_what_the_routes_read():
    """Each action's body model names exactly the fields its route takes (and version)."""
    from rummisolve.server.routes.games import ACTIONS

    for name, (_, fields, _) in ACTIONS.items():
        model = vs.ACTION_BODIES.get(name, vs.VersionBody)
        assert set(model.model_fields) == {*fields, "version"}, name
    from rummisolve.server.routes.rooms import _TURN_FIELDS

    assert {f.alias or name for name, f in vs.TurnBody.model_fields.items()} == set(_TURN_FIELDS)
    vs.TurnBody.model_validate({"draw": True, "version": 3})
    vs.NewGameBody.model_validate({"players": "human,easy", "rules": {"preset": "standard", "jokers": 0}, "seed": 7})


def _check(adapter: TypeAdapter, view: dict) -> dict:
    adapter.validate_python(view)
    assert set(view) >= {"turn", "turn_number", "players", "table", "log", "last", "results", "status", "finished"}
    return view


def test_a_tile_games_answers_validate(api):
    made = api.post("/games", json={"players": "human,easy", "seed": 5})
    assert made.status_code == 201
    vs.NewGameAnswer.model_validate(made.json())
    ident = made.json()["id"]
    state = _check(GAME_VIEW, made.json()["state"])
    assert state["seat"] == state["turn"] == 0 and state["pool"] == 106 - 28 and len(state["rack"]) == 14
    illegal = api.post(f"/games/{ident}/play", json={"table": [[state["rack"][0]]]}).json()
    assert illegal["legal"] is False
    vs.ActionAnswer.model_validate(illegal)
    hint = api.post(f"/games/{ident}/hint", json={"level": 3}).json()
    vs.ActionAnswer.model_validate(hint)
    drew = api.post(f"/games/{ident}/draw").json()
    vs.ActionAnswer.model_validate(drew)
    assert drew["state"]["turn"] == 1 and drew["state"]["turn_number"] == 1 and drew["event"]["type"] == "draw"
    moved = api.post(f"/games/{ident}/advance").json()
    vs.ActionAnswer.model_validate(moved)
    assert moved["state"]["last"]["player"] == 1 and moved["state"]["log"][0]["tile"]  # the human's own draw
    vs.ActionAnswer.model_validate(api.post(f"/games/{ident}/undo").json())
    vs.ActionAnswer.model_validate(api.post(f"/games/{ident}/timeout").json())
    vs.GameAnswer.model_validate(api.get(f"/games/{ident}").json())
    listed = api.get("/games").json()
    vs.GamesList.model_validate(listed)
    assert listed["games"][0]["turn_number"] == 0  # taken back
    vs.RoundReplay.model_validate(api.get(f"/games/{ident}/replay").json())
    vs.RoomResults.model_validate(api.get(f"/games/{ident}/results").json())
    vs.SavedGame.model_validate(api.get(f"/games/{ident}/saved").json())
    vs.DeletedGame.model_validate(api.delete(f"/games/{ident}").json())


def test_an_xpress_games_answers_validate_without_the_tile_games_fields(api):
    made = api.post("/games", json={"players": "human,easy", "rules": "xpress", "seed": 3}).json()
    ident, state = made["id"], _check(GAME_VIEW, made["state"])
    assert state["kind"] == "xpress" and not {"pool", "discard_pile", "draw_from", "drawn", "timer"} & set(state)
    advice = api.post(f"/games/{ident}/hint", json={"level": 1}).json()
    vs.ActionAnswer.model_validate(advice)
    assert advice["hint"]["kind"] == "reroll"
    rolled = api.post(f"/games/{ident}/roll", json={"dice": []}).json()
    vs.ActionAnswer.model_validate(rolled)
    hint = api.post(f"/games/{ident}/hint", json={"level": 1}).json()["hint"]
    words = "No play with these dice: pass." if not hint["played"] else f"You can play {len(hint['played'])} di"
    assert hint["text"].startswith(words) and "tile" not in hint["text"]
    vs.ActionAnswer.model_validate(api.post(f"/games/{ident}/pass").json())
    vs.ActionAnswer.model_validate(api.post(f"/games/{ident}/advance").json())


def test_a_finished_round_validates_with_every_rack_shown():
    tiles = Session.new(["human", "easy"], seed=4)
    dice = DiceSession.new(["human", "easy"], seed=4)
    for session, act in ((tiles, tiles.draw), (dice, lambda: (dice.roll([]), dice.pass_turn()))):
        while not session.game.finished:
            act() if session.game.current == session.human else session.advance()
        view = _check(GAME_VIEW, session.view())
        assert view["status"] == "over" and view["results"]["count"] == 1
        assert all("rack" in p for p in view["players"]) and view["results"]["last"]["winner"] == view["winner"]


def test_the_discard_rules_view_validates():
    session = Session.new(["human", "easy"], seed=2, rules=RuleSet(discard=True))
    session.draw("discard")
    view = _check(GAME_VIEW, session.view())
    assert view["draw_from"] == "discard" and view["drawn"] and view["discard_pile"] is not None


def test_a_rooms_answers_validate_for_a_seat_and_a_spectator(api):
    made = api.post("/rooms", json={"seats": ["human", "human"]}).json()
    vs.RoomMade.model_validate(made)
    code, token = made["room"], made["token"]
    assert "rack" not in ROOM_VIEW.validate_python(api.get(f"/rooms/{code}").json()).model_dump(exclude_none=True)
    joined = api.post(f"/rooms/{code}/join", json={"name": "Bo"}).json()
    vs.RoomMade.model_validate(joined)
    seat = _check(ROOM_VIEW, api.get(f"/rooms/{code}", headers={"authorization": f"Bearer {token}"}).json())
    watcher = _check(ROOM_VIEW, api.get(f"/rooms/{code}").json())
    assert seat["seat"] == 0 and seat["rack"] and "seat" not in watcher and "rack" not in watcher
    assert seat["turn"] == 0 and seat["turn_number"] == 0 and seat["status"] == "playing"
    refused = api.post(
        f"/rooms/{code}/turn",
        json={"table": [[seat["rack"][0]]], "version": seat["version"]},
        headers={"authorization": f"Bearer {token}"},
    )
    assert refused.status_code == 400
    vs.IllegalTurn.model_validate(refused.json())
    drew = api.post(
        f"/rooms/{code}/turn",
        json={"draw": True, "version": seat["version"]},
        headers={"authorization": f"Bearer {token}"},
    ).json()
    _check(ROOM_VIEW, drew)
    assert drew["turn"] == 1 and drew["last"]["tile"] and drew["log"][0]["tile"]  # its own draw, shown to it
    watched = _check(ROOM_VIEW, api.get(f"/rooms/{code}").json())
    assert watched["last"]["tile"] is None and watched["log"][0]["tile"] is None
    vs.RoomResults.model_validate(api.get(f"/rooms/{code}/results").json())


def test_a_session_and_a_room_name_the_same_fields_alike(api):
    """The shared part of a view has the same keys in both (the extras aside)."""
    game = api.post("/games", json={"players": "human,easy", "seed": 5}).json()["state"]
    room = api.post("/rooms", json={"seats": ["human", "easy"]}).json()["view"]
    extras_game = {"practice", "seed", "can_undo_turn"}
    extras_room = {"room", "invite", "version", "creator"}
    assert set(game) - extras_game == set(room) - extras_room
    assert set(game["players"][0]) | {"joined"} == set(room["players"][0])


def test_saves_from_before_the_one_view_load_and_show_in_it():
    """Saves are not views: a session and a room saved before issue 48 load and answer the new view."""
    from rummisolve.server.room_views import room_view
    from rummisolve.server.rooms import Room
    from rummisolve.server.sessions import session_from_json

    before = Path(__file__).resolve().parent.parent / "data" / "before_issue48"
    for name, kind in (("session_practice.json", "tiles"), ("xpress_session_practice.json", "xpress")):
        session = session_from_json(json.loads((before / name).read_text()))
        view = _check(GAME_VIEW, session.view())
        assert view["kind"] == kind and view["round"] == len(session.rounds) - 1 and view["practice"]
    room = Room.from_json(json.loads((before / "room.json").read_text()))
    for seat in (0, None):
        assert _check(ROOM_VIEW, room_view(room, seat, 3, 0.0))["round"] == 1


def test_an_xpress_rooms_views_validate_for_a_seat_and_a_spectator(api):
    made = api.post("/rooms", json={"seats": ["human", "human"], "rules": "xpress"}).json()
    vs.RoomMade.model_validate(made)
    code, token = made["room"], made["token"]
    joined = api.post(f"/rooms/{code}/join", json={"name": "Bo"}).json()
    seat = _check(ROOM_VIEW, api.get(f"/rooms/{code}", headers={"authorization": f"Bearer {token}"}).json())
    watcher = _check(ROOM_VIEW, api.get(f"/rooms/{code}").json())
    assert seat["kind"] == "xpress" and len(seat["dice"]) == len(seat["rack"]) == 9 and "pool" not in seat
    assert not {"seat", "rack", "dice"} & set(watcher) and watcher["timer"]["seconds"] is None
    mover = seat["turn"]
    tokens = {0: token, joined["seat"]: joined["token"]}
    rolled = api.post(
        f"/rooms/{code}/turn",
        json={"roll": [], "version": seat["version"]},
        headers={"authorization": f"Bearer {tokens[mover]}"},
    ).json()
    assert _check(ROOM_VIEW, rolled)["rolled"] is True and rolled["last"]["type"] == "roll"
    # the game view of a room and of a single-player game of the same kind name the same fields
    game = api.post("/games", json={"players": "human,easy", "rules": "xpress", "seed": 3}).json()["state"]
    assert set(game) - {"practice", "seed", "can_undo_turn"} == set(seat) - {
        "room",
        "invite",
        "version",
        "creator",
        "timer",
    }
