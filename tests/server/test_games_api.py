"""The web app's API in process: /meta and /tiles read from the library, the game API (every human
turn refereed, AI turns from the engine, undo, hints, rounds), saving in SQLite across restarts, the
limits on games, and the pages and static files shipped in the package."""

from __future__ import annotations

import dataclasses
import warnings
from collections import Counter

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from rummisolve.game import AI_LEVELS, PLAYER_KINDS, Game  # noqa: E402
from rummisolve.referee import verify  # noqa: E402
from rummisolve.rules import PRESETS, RuleSet  # noqa: E402
from rummisolve.server.app import STATIC, create_app  # noqa: E402
from rummisolve.server.session import Session  # noqa: E402
from rummisolve.server.settings import Settings  # noqa: E402
from rummisolve.solver import solve  # noqa: E402
from rummisolve.tiles import Tile  # noqa: E402


def client(db, **settings) -> TestClient:
    settings.setdefault("allowed_hosts", "testserver")
    return TestClient(create_app(dataclasses.replace(Settings(), **settings), db=str(db)))


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    with client(tmp_path_factory.mktemp("web") / "games.sqlite3") as c:
        yield c


def new_game(api, **body) -> tuple[str, dict]:
    response = api.post("/games", json={"players": "human,medium", "seed": 11, **body})
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["state"]


def test_meta_comes_from_the_library(api):
    meta = api.get("/meta").json()
    assert meta["presets"] == {name: preset.to_dict() for name, preset in PRESETS.items()}
    assert [o["name"] for o in meta["options"]] == [f.name for f in dataclasses.fields(RuleSet)]
    assert meta["ai_levels"] == list(AI_LEVELS) and meta["player_kinds"] == list(PLAYER_KINDS)
    assert all(len(o["help"]) > 20 and isinstance(o["affects_position"], bool) for o in meta["options"])
    dealing = {o["name"] for o in meta["options"] if not o["affects_position"]}
    assert dealing == {
        "rack_size",
        "min_players",
        "max_players",
        "turn_timer",
        "timer_penalty",
        "empty_pool_scoring",
        "dice",
    }
    tiles = api.post("/tiles", json={"rules": {"preset": "xp", "numbers": 9}}).json()
    rules = RuleSet.preset("xp").replace(numbers=9)
    assert Counter({t["code"]: t["copies"] for t in tiles["tiles"]}) == Counter(map(str, rules.full_set()))
    assert tiles["total"] == rules.total_tiles
    bad = api.post("/tiles", json={"rules": "deluxe"})
    assert bad.status_code == 400 and "deluxe" in bad.json()["error"]


def test_pages_and_static_files_are_served(api):
    for page in ("/", "/play", "/help", "/r/KTRWMB"):  # /r/<code>: a room's invite, the play page
        response = api.get(page)
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    for path in STATIC.rglob("*"):  # the catalogs too (static/i18n/)
        if path.is_file():
            name = path.relative_to(STATIC).as_posix()
            assert api.get(f"/static/{name}").status_code == 200, name


def test_a_human_turn_is_refereed_with_reasons_per_meld(api):
    ident, state = new_game(api)
    assert state["turn"] == state["seat"] == 0 and len(state["rack"]) == 14
    rack = state["rack"]
    answer = api.post(f"/games/{ident}/play", json={"table": [rack[:2], rack[2:5]]}).json()
    assert answer["legal"] is False
    melds = {r["meld"] for r in answer["reasons"]}
    assert 0 in melds and "meld 1" in answer["message"]  # named as the page numbers them
    assert answer["state"]["rack"] == rack and answer["state"]["turn_number"] == 0  # nothing changed
    # The best move (or a draw) is accepted, and the referee agrees with it.
    game = Game(2, seed=11, names=("you", "medium"))
    best = solve(game.view(0).position)
    if best:
        played = api.post(f"/games/{ident}/play", json={"table": [list(map(str, m.tiles)) for m in best.table]})
        assert played.json()["legal"] is True
        assert verify(game.view(0).position, best.table).legal
    else:
        api.post(f"/games/{ident}/draw")
    state = api.post(f"/games/{ident}/advance").json()["state"]
    assert state["turn"] == 0 and state["turn_number"] == 2
    assert [e["player"] for e in state["log"]] == [0, 1]


def test_draw_advance_undo_hint_and_errors(api):
    ident, state = new_game(api, players="human,easy,hard", seed=5)
    drawn = api.post(f"/games/{ident}/draw").json()
    assert drawn["event"]["type"] == "draw" and drawn["event"]["tile"] in drawn["state"]["rack"]
    assert api.post(f"/games/{ident}/draw").status_code == 409  # not the human's turn
    for _ in range(2):
        assert api.post(f"/games/{ident}/advance").status_code == 200
    assert api.post(f"/games/{ident}/advance").status_code == 409  # the human's turn again
    hint = api.post(f"/games/{ident}/hint", json={"level": 1}).json()["hint"]
    assert hint["level"] == 1 and "text" in hint
    assert api.post(f"/games/{ident}/hint", json={"level": 7}).status_code == 400
    undone = api.post(f"/games/{ident}/undo").json()["state"]
    assert undone["turn_number"] == 0 and undone["rack"] == state["rack"] and not undone["can_undo_turn"]
    assert api.post(f"/games/{ident}/undo").status_code == 409
    assert api.get("/games/nope").status_code == 404
    assert api.post(f"/games/{ident}/play", json={"table": [["X1"]]}).status_code == 400
    assert api.post("/games", json={"players": "medium,hard"}).status_code == 400  # no human
    assert "unknown player" in api.post("/games", json={"players": "human,genius"}).json()["error"]


def test_a_whole_round_then_the_next_and_the_replay():
    session = Session.new(["human", "easy"], seed=2)
    while not session.game.finished:
        if session.game.current == session.human:
            best = solve(session.game.view(session.human).position)
            if best:
                assert session.play(best.table)["legal"]
            else:
                session.draw()
        else:
            session.advance()
    results = session.results()
    assert len(results["rounds"]) == 1 and sum(results["totals"]) == 0
    frames = session.replay(0)["frames"]
    assert len(frames) == session.game.state.turn + 1 and all(None not in f["racks"] for f in frames)
    session.next_round()
    assert session.game.state.turn == 0 and session.game.deal.first == 1
    assert Session.from_json(session.to_json()).results() == results


def test_games_are_saved_and_resumed_after_a_restart(tmp_path):
    db = tmp_path / "games.sqlite3"
    with client(db) as first:
        created = first.post("/games", json={"players": "human,medium", "seed": 21}).json()
        ident, token = created["id"], created["token"]
        first.post(f"/games/{ident}/draw")
        before = first.post(f"/games/{ident}/advance").json()["state"]
    with client(db) as second:
        assert second.get(f"/games/{ident}").status_code == 404  # without its owner's token: not there
        assert second.get("/games").json()["games"] == []
        second.headers["authorization"] = f"Bearer {token}"
        assert second.get(f"/games/{ident}").json()["state"] == before
        listed = second.get("/games").json()
        assert [g["id"] for g in listed["games"]] == [ident] and listed["counts"] == {"stored": 1, "live": 1}
        assert second.delete(f"/games/{ident}").status_code == 200
        assert second.get(f"/games/{ident}").status_code == 404


def test_limits_on_live_and_stored_games(tmp_path):
    with client(tmp_path / "a.sqlite3", max_live_games=2) as api:
        new_game(api)
        new_game(api)
        full = api.post("/games", json={"players": "human,easy"})
        assert full.status_code == 429 and "max_live_games" in full.json()["error"]
    with client(tmp_path / "b.sqlite3", max_stored_games=1) as api:
        ident, _ = new_game(api)
        full = api.post("/games", json={"players": "human,easy"})
        assert full.status_code == 429 and "max_stored_games" in full.json()["error"]
        api.delete(f"/games/{ident}")
        new_game(api)


def test_a_timed_out_turn_draws_the_penalty():
    session = Session.new(["human", "easy"], RuleSet(turn_timer=5, timer_penalty=3), seed=4)
    game = session.game
    game._turn_started -= 10  # the human has been thinking for 10 s (no sleeping in tests)
    rack = session.view()["rack"]
    answer = session.timeout()
    assert answer["event"]["type"] == "timeout" and len(session.view()["rack"]) == len(rack) + 3
    assert session.game.current == 1


def test_the_discard_rule_is_played_through_the_api(api):
    ident, state = new_game(api, rules={"discard": True}, players="human,easy")
    top = state["discard_pile"][-1]
    picked = api.post(f"/games/{ident}/draw", json={"source": "discard"}).json()
    assert picked["state"]["drawn"] == top and picked["state"]["turn"] == 0
    tile = picked["state"]["rack"][0]
    done = api.post(f"/games/{ident}/discard", json={"tile": tile}).json()
    assert done["state"]["discard_pile"][-1] == tile and done["state"]["turn"] == 1
    assert Tile.parse(tile)


def test_the_pages_ship_as_package_data_and_load_nothing_from_other_hosts():
    import re
    import tomllib
    from fnmatch import fnmatch
    from pathlib import Path

    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["rummisolve.server"]
    files = sorted(p.relative_to(STATIC.parent).as_posix() for p in STATIC.rglob("*") if p.is_file())
    assert {"static/index.html", "static/play.html"} <= set(files)
    for name in files:  # a non-editable install carries every page, script and style
        assert any(fnmatch(name, pattern) for pattern in patterns), name
    for path in (p for p in STATIC.rglob("*") if p.is_file()):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text, re.I), path.name  # no CDN, no other host


# -- saved games: one format family for the CLI and the web (issue 38 point 3) -------------------


def _played_round(seed: int = 4) -> Session:
    """A practice session whose first round is over and whose second is under way."""
    session = Session.new(["human", "easy"], seed=seed)
    while not session.game.finished:
        if session.game.current == session.human:
            session.draw()
        else:
            session.advance()
    session.next_round()
    while session.game.current != session.human:
        session.advance()
    session.draw()
    return session


def test_a_cli_save_opens_as_a_replay_with_its_analysis(api):
    from rummisolve.game.players import make_player
    from rummisolve.game.runner import play_game

    game, _ = play_game([make_player("medium", seed=1), make_player("easy", seed=2)], seed=3, names=["medium", "you"])
    response = api.post("/replays", json=game.to_json())
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["names"] == ["medium", "you"] and body["seat"] == 1 and body["current"] is None
    (only,) = body["rounds"]
    assert only["finished"] and len(only["frames"]) == len(game.states)
    assert only["frames"][-1]["table"] == [[str(t) for t in m] for m in game.state.table]
    analysis = only["analysis"]
    assert analysis["seat"] == 1 and len(analysis["turns"]) == sum(1 for e in game.events if e.player == 1)
    assert all(t["expert"] is None for t in analysis["turns"])  # quick: no expert on the server


def test_a_web_download_opens_as_a_replay_and_a_record_keeps_its_running_round_as_seen(api):
    session = _played_round()
    whole = api.post("/replays", json=session.to_json()).json()
    assert [r["finished"] for r in whole["rounds"]] == [True, False] and whole["current"] is None
    session.practice = False  # the same game's record: finished rounds whole, the running one as seen
    record = session.record()
    assert record["record"] is True and len(record["rounds"]) == 1
    seen = api.post("/replays", json=record).json()
    assert len(seen["rounds"]) == 1 and seen["current"]["frames"] == record["current"]["frames"]


def test_a_bad_saved_game_is_named(api):
    for body, words in (
        ({"format": "other"}, "expected a download of the web app"),
        ({"format": "rummisolve-session", "rounds": "x"}, "saved game.rounds"),
        ({"format": "rummisolve-game", "log": [{"type": "deal"}]}, "log[0].players"),
    ):
        response = api.post("/replays", json=body)
        assert response.status_code == 400 and words in response.json()["error"], response.text
    assert api.post("/replays", content=b"{}", headers={"content-type": "text/plain"}).status_code == 415
    # Decoded in a worker process (not on the server's event loop): the same 400s as any body.
    for raw, words in ((b'{"format": ', "malformed JSON"), (b"\xff{}", "not UTF-8"), (b" ", "empty request body")):
        response = api.post("/replays", content=raw, headers={"content-type": "application/json"})
        assert response.status_code == 400 and words in response.json()["error"], response.text
