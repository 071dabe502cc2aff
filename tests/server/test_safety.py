"""The web games as an attacker on the same machine would try them (issue 33): hidden tiles stay
hidden, each game has an owner, other sites' pages are refused, every acknowledged action is
saved (a forced eviction, a failed or locked write, a killed server), damaged data is one game's
error, and every error is a JSON body in the contract's shape."""

from __future__ import annotations

import dataclasses
import http.client
import json
import sqlite3
import subprocess
import sys
import threading
import time
import types
import warnings

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from rummisolve.server import session_base  # noqa: E402
from rummisolve.server.app import create_app  # noqa: E402
from rummisolve.server.game_cache import GameCache  # noqa: E402
from rummisolve.server.session import Session  # noqa: E402
from rummisolve.server.settings import Settings  # noqa: E402
from rummisolve.server.store import GameStore, StaleGame, hash_token  # noqa: E402
from rummisolve.solver import solve  # noqa: E402
from tests.support.net import free_port  # noqa: E402

HOST = "testserver"


def make_app(db, cache_size: int | None = None, **settings):
    settings.setdefault("allowed_hosts", HOST)
    return create_app(dataclasses.replace(Settings(), **settings), db=str(db), game_cache_size=cache_size)


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path / "games.sqlite3")


def new_game(client, **body) -> dict:
    response = client.post("/games", json={"players": "human,easy", **body})
    assert response.status_code == 201, response.text
    return response.json()


def store_of(app) -> GameStore:
    return app.state.server.store


def true_session(app, ident: str, token: str) -> Session:
    _, data = store_of(app).load(ident, hash_token(token))
    return Session.from_json(data)


# -- 1. hidden information ----------------------------------------------------------------------


def _lists(obj):
    """Every JSON array in ``obj``, nested ones too."""
    if isinstance(obj, list):
        yield obj
        for item in obj:
            yield from _lists(item)
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from _lists(value)


def _hidden_leaks(body, session: Session) -> list[str]:
    """What of the hidden information (the pool's order, the other racks, the seeds) ``body`` shows.
    Once the round is over its racks are no longer hidden (every rack is shown, as players lay
    their tiles down to count them): an AI that goes out ends the round in the answer itself."""
    text = json.dumps(body)
    game = session.game
    leaks = []
    seeds = {session.seed, game.deal.seed}
    leaks += [f"seed {s}" for s in seeds if str(s) in text]
    if '"deck"' in text:
        leaks.append("a deck")
    pool = [str(t) for t in game.state.pool]
    over = game.state.finished
    racks = [] if over else [sorted(map(str, r)) for s, r in enumerate(game.state.racks) if s != session.human]
    for array in _lists(body):
        codes = [x for x in array if isinstance(x, str)]
        if len(codes) != len(array) or len(codes) < 4:
            continue
        for i in range(len(pool) - 3):
            window = pool[i : i + 4]
            if any(codes[j : j + 4] == window for j in range(len(codes) - 3)):
                leaks.append(f"the pool's order ({window})")
                break
        leaks += [f"another rack {codes}" for rack in racks if sorted(codes) == rack]
    return leaks


def _everything_a_player_can_read(client, ident: str) -> list:
    return [
        client.get("/games").json(),
        client.get(f"/games/{ident}").json(),
        client.get(f"/games/{ident}/replay").json(),
        client.get(f"/games/{ident}/replay?round=0").json(),
        client.get(f"/games/{ident}/saved").json(),
    ]


@pytest.mark.parametrize("deal_seed", [3141592653589793238, 2718281828459045235])
def test_no_response_a_player_can_reach_shows_a_hidden_tile_or_the_seed(app, monkeypatch, deal_seed):
    # The game's secret seed fixed, so the test plays the same deals every time (a new game's seed is
    # otherwise random, and a rare deal once ended the round on an AI's move); long seeds, so that
    # one cannot turn up in a body by chance.
    monkeypatch.setattr(session_base, "secrets", types.SimpleNamespace(randbits=lambda bits: deal_seed))
    with TestClient(app) as client:
        created = new_game(client, players="human,easy,medium")
        ident, token = created["id"], created["token"]
        seen = [created]
        assert created["state"]["practice"] is False and "seed" not in created["state"]
        assert true_session(app, ident, token).seed == deal_seed
        for _ in range(12):  # a few rounds of turns: plays when the human has one, draws, AI turns
            state = client.get(f"/games/{ident}").json()["state"]
            if state["finished"]:
                break
            if state["turn"] == state["seat"]:
                seen.append(client.post(f"/games/{ident}/hint", json={"level": 3}).json())
                session = true_session(app, ident, token)
                best = solve(session.game.view(session.human).position)
                if best:
                    table = [[str(t) for t in m.tiles] for m in best.table]
                    seen.append(client.post(f"/games/{ident}/play", json={"table": table}).json())
                else:
                    seen.append(client.post(f"/games/{ident}/draw").json())
            else:
                seen.append(client.post(f"/games/{ident}/advance").json())
            session = true_session(app, ident, token)
            for body in seen[-1:] + _everything_a_player_can_read(client, ident):
                assert _hidden_leaks(body, session) == [], body
        # Taking back a turn would show the next pool tile: only practice games have it.
        refused = client.post(f"/games/{ident}/undo")
        assert refused.status_code == 409 and "practice" in refused.json()["error"]
        saved = client.get(f"/games/{ident}/saved").json()
        assert saved["record"] is True and "seed" not in saved and saved["current"]["frames"]


def test_a_practice_game_is_the_players_own_seed_and_can_be_taken_back(app):
    with TestClient(app) as client:
        created = new_game(client, seed=5)
        state = created["state"]
        assert state["practice"] is True and state["seed"] == 5
        ident = created["id"]
        client.post(f"/games/{ident}/draw")
        client.post(f"/games/{ident}/advance")
        assert client.get(f"/games/{ident}").json()["state"]["can_undo_turn"] is True
        assert client.post(f"/games/{ident}/undo").json()["state"]["turn_number"] == 0
        whole = client.get(f"/games/{ident}/saved").json()
        assert whole["seed"] == 5 and Session.from_json(whole).practice  # the whole game, resumable
        listed = client.get("/games").json()["games"]
        assert listed[0]["practice"] is True and listed[0]["seed"] == 5


def test_a_finished_round_tells_nothing_of_the_next():
    session = Session.new(["human", "easy"])
    while not session.game.finished:
        if session.game.current == session.human:
            best = solve(session.game.view(session.human).position)
            session.play(best.table) if best else session.draw()
        else:
            session.advance()
    shown = session.record()
    assert "seed" not in shown and "current" not in shown and len(shown["rounds"]) == 1
    first_seed = session.game.deal.seed
    session.next_round()
    assert session.game.deal.seed not in (first_seed + 1, session.seed + 1)
    with pytest.raises(ValueError, match="not resumed"):
        Session.from_json(shown)


# -- 2. owners ----------------------------------------------------------------------------------


def test_another_client_gets_nothing_of_a_game(app, tmp_path):
    with TestClient(app) as owner:
        created = new_game(owner)
        ident, token = created["id"], created["token"]
        assert owner.cookies.get("rummisolve_token") == token
        cookie = owner.post("/games", json={"players": "human,easy"}).headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        assert len(owner.get("/games").json()["games"]) == 2  # the cookie's owner made both
        stranger = TestClient(app)
        nothing = stranger.get("/games/no-such-game")
        assert nothing.status_code == 404
        for headers in ({}, {"authorization": "Bearer forged-token"}, {"authorization": f"Bearer {token}x"}):
            assert stranger.get("/games", headers=headers).json()["games"] == []
            for method, path in [
                ("GET", f"/games/{ident}"),
                ("GET", f"/games/{ident}/saved"),
                ("GET", f"/games/{ident}/replay"),
                ("POST", f"/games/{ident}/draw"),
                ("POST", f"/games/{ident}/hint"),
                ("DELETE", f"/games/{ident}"),
            ]:
                answer = stranger.request(method, path, headers=headers)
                assert answer.status_code == 404, (method, path, answer.text)
                assert answer.json() == {"error": nothing.json()["error"].replace("no-such-game", ident)}
        assert owner.get(f"/games/{ident}").json()["state"]["turn_number"] == 0  # untouched
        # The token works from any client, as a header.
        assert stranger.get(f"/games/{ident}", headers={"authorization": f"Bearer {token}"}).status_code == 200
        # A forged token is not adopted: the new game gets a fresh one.
        made = stranger.post("/games", json={"players": "human,easy"}, headers={"authorization": "Bearer mine"})
        assert made.json()["token"] != "mine"
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("games.sqlite3*"))
    assert token.encode() not in raw and hash_token(token).encode() in raw  # stored hashed


# -- 3. browser attacks ---------------------------------------------------------------------------


def test_other_hosts_and_other_sites_are_refused(app):
    with TestClient(app) as client:
        for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example"):
            refused = client.get("/health", headers={"host": host})
            assert refused.status_code == 400 and host.split(":")[0] in refused.json()["error"]
            assert "--allowed-host" in refused.json()["error"]
        assert client.get("/health", headers={"host": "localhost:8000"}).status_code == 200
        assert client.get("/health", headers={"host": "[::1]:8000"}).status_code == 200
        before = client.get("/games").json()["counts"]["stored"]
        # A page elsewhere posting a form or text: refused as a body that is not JSON, or by its Origin.
        text = client.post("/games", content='{"players": "human,easy"}', headers={"content-type": "text/plain"})
        assert text.status_code == 415 and "application/json" in text.json()["error"]
        form = client.post("/games", data={"players": "human,easy"})
        assert form.status_code == 415
        foreign = client.post("/games", json={"players": "human,easy"}, headers={"origin": "http://evil.example"})
        assert foreign.status_code == 403 and "evil.example" in foreign.json()["error"]
        assert client.post("/games", json={}, headers={"origin": "null"}).status_code == 403
        assert client.get("/games").json()["counts"]["stored"] == before  # nothing was made
        solve_refused = client.post("/solve", json={"rack": ["R1"]}, headers={"origin": "http://evil.example"})
        assert solve_refused.status_code == 403 and solve_refused.json()["status"] == "error"
        # The server's own pages (same origin) and clients that send no Origin pass.
        made = client.post("/games", json={"players": "human,easy"}, headers={"origin": f"http://{HOST}"})
        assert made.status_code == 201
        ident = made.json()["id"]
        gone = client.delete(f"/games/{ident}", headers={"origin": "https://evil.example"})
        assert gone.status_code == 403 and client.get(f"/games/{ident}").status_code == 200


def test_a_seats_token_is_hidden_in_the_access_log_and_the_log_still_formats():
    # A seat's own page is /play?room=...&token=...: the access log's line must neither show the
    # token nor break (its formatter unpacks the record's five arguments).
    import logging

    from uvicorn.logging import AccessFormatter

    from rummisolve.server.guards import RedactTokens

    secret = "q3V-secret_token"
    access = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", f"/play?room=KTRWMB&token={secret}", "1.1", 200),
        None,
    )
    assert RedactTokens().filter(access)
    line = AccessFormatter("%(client_addr)s %(request_line)s %(status_code)s", use_colors=False).format(access)
    assert line == "127.0.0.1:5000 GET /play?room=KTRWMB&token=(hidden) HTTP/1.1 200 OK", line
    socket_line = logging.LogRecord(
        "uvicorn.error",
        logging.INFO,
        __file__,
        1,
        '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:5000", f"/rooms/KTRWMB/ws?token={secret}"),
        None,
    )
    assert RedactTokens().filter(socket_line)
    assert socket_line.getMessage() == '127.0.0.1:5000 - "WebSocket /rooms/KTRWMB/ws?token=(hidden)" [accepted]'


def test_allowed_hosts_come_from_the_settings(tmp_path):
    app = make_app(tmp_path / "g.sqlite3", allowed_hosts="rummi.example,other.example")
    with TestClient(app, base_url="http://rummi.example") as client:
        assert client.get("/health").status_code == 200
        assert client.get("/health", headers={"host": "testserver"}).status_code == 400
    with TestClient(make_app(tmp_path / "h.sqlite3", allowed_hosts="*"), base_url="http://any.example") as client:
        assert client.get("/health").status_code == 200


# -- 4. lost updates ----------------------------------------------------------------------------


def test_a_games_lock_outlives_its_eviction_from_the_cache(tmp_path):
    store = GameStore(str(tmp_path / "g.sqlite3"), max_live=10, max_stored=10)
    cache = GameCache(store, size=1)
    owner = store.owner_of(store.new_owner())
    x = cache.create(Session.new(["human", "easy"], seed=1), owner)
    y = cache.create(Session.new(["human", "easy"], seed=2), owner)
    inside, release, second_in = threading.Event(), threading.Event(), threading.Event()

    def slow_draw():
        with cache.hold(x):
            cached = cache.get(x, owner)
            inside.set()
            release.wait(10)
            cached.session.draw()
            cache.commit(x, cached)

    def quick_advance():
        with cache.hold(x):
            second_in.set()
            cached = cache.get(x, owner)
            cached.session.advance()
            cache.commit(x, cached)

    first = threading.Thread(target=slow_draw)
    first.start()
    assert inside.wait(10)
    with cache.hold(y):
        cache.get(y, owner)  # x leaves the cache (size 1) while its first request still runs
    second = threading.Thread(target=quick_advance)
    second.start()
    assert not second_in.wait(0.3)  # the second request waits for the first: one lock, not a new one
    release.set()
    first.join(10)
    second.join(10)
    kinds = [e.to_json()["type"] for e in Session.from_json(store.load(x, owner)[1]).game.events]
    assert len(kinds) == 2 and kinds[0] == "draw"  # both saved, the human's draw first, then the AI's turn
    assert cache.held() == 0


def test_a_slow_hint_beside_many_reads_loses_no_draw(tmp_path, monkeypatch):
    """The reported case: a slow hint on game X, reads of 34 other games, a draw on X."""
    app = make_app(tmp_path / "g.sqlite3", cache_size=4)
    entered, release = threading.Event(), threading.Event()
    real_hint = Session.hint

    def slow_hint(self, level):
        entered.set()
        release.wait(10)
        return real_hint(self, level)

    monkeypatch.setattr(Session, "hint", slow_hint)
    with TestClient(app) as client:
        ident = new_game(client, seed=3)["id"]
        others = [new_game(client, seed=100 + i)["id"] for i in range(6)]
        hinted = threading.Thread(target=lambda: client.post(f"/games/{ident}/hint"))
        hinted.start()
        assert entered.wait(10)
        for other in others * 6:  # 36 reads of other games: X leaves the cache of 4
            assert client.get(f"/games/{other}").status_code == 200
        drawn: list = []
        drawer = threading.Thread(target=lambda: drawn.append(client.post(f"/games/{ident}/draw")))
        drawer.start()
        time.sleep(0.2)
        release.set()
        hinted.join(20)
        drawer.join(20)
        assert drawn[0].status_code == 200
        history = client.get(f"/games/{ident}").json()["state"]["log"]
        assert [e["type"] for e in history] == ["draw"]
        token = client.cookies.get("rummisolve_token")
    with TestClient(make_app(tmp_path / "g.sqlite3")) as fresh:  # after a restart too
        fresh.headers["authorization"] = f"Bearer {token}"
        assert [e["type"] for e in fresh.get(f"/games/{ident}").json()["state"]["log"]] == ["draw"]


def test_a_save_from_an_older_copy_is_refused(tmp_path):
    """Two worker processes, each with its copy: the later save from the older copy never wins."""
    store = GameStore(str(tmp_path / "g.sqlite3"), max_live=10, max_stored=10)
    owner = store.owner_of(store.new_owner())
    ident = GameCache(store).create(Session.new(["human", "easy"], seed=4), owner)
    one, two = GameCache(store), GameCache(store)
    first, second = one.get(ident, owner), two.get(ident, owner)
    first.session.draw()
    one.commit(ident, first)
    second.session.draw()
    with pytest.raises(StaleGame):
        two.commit(ident, second)
    assert two.get(ident, owner).version == 2  # reloaded: the first save stands
    assert Session.from_json(store.load(ident, owner)[1]).game.state.turn == 1


def test_an_action_from_a_stale_tab_is_refused(app):
    """Two tabs of one game (one owner): the tab that saw an older version is told so; nothing changes."""
    with TestClient(app, base_url=f"http://{HOST}") as one, TestClient(app, base_url=f"http://{HOST}") as two:
        created = new_game(one, seed=4)
        ident, token = created["id"], created["token"]
        two.cookies.set("rummisolve_token", token)
        assert created["version"] == 1
        seen = two.get(f"/games/{ident}").json()
        assert seen["version"] == 1
        drew = one.post(f"/games/{ident}/draw", json={"version": 1})
        assert drew.status_code == 200 and drew.json()["version"] == 2
        turn = drew.json()["state"]["turn_number"]
        stale = two.post(f"/games/{ident}/draw", json={"version": seen["version"]})
        assert stale.status_code == 409 and "out of date" in stale.json()["error"]
        again = two.get(f"/games/{ident}").json()
        assert again["version"] == 2 and again["state"]["turn_number"] == turn  # the stale draw did nothing
        assert two.post(f"/games/{ident}/advance", json={"version": "2"}).status_code == 400
        assert two.post(f"/games/{ident}/advance").status_code == 200  # no version: the game as it is


# -- 5. failed writes ---------------------------------------------------------------------------


def _read_only(store: GameStore, monkeypatch) -> None:
    """From now on every connection of ``store`` is read-only (SQLite's own refusal, as for a read-only file)."""
    real = store._connect

    def connect():
        db = real()
        db.execute("PRAGMA query_only = ON")
        return db

    monkeypatch.setattr(store, "_local", threading.local())
    monkeypatch.setattr(store, "_connect", connect)


def test_a_refused_write_leaves_the_game_as_it_was(tmp_path, monkeypatch):
    db = tmp_path / "g.sqlite3"
    app = make_app(db)
    with TestClient(app) as client:
        created = new_game(client, seed=8)
        ident, token = created["id"], created["token"]
        before = client.get(f"/games/{ident}").json()["state"]
        with monkeypatch.context() as patch:
            _read_only(store_of(app), patch)
            refused = client.post(f"/games/{ident}/draw")
            assert refused.status_code == 503 and "nothing was changed" in refused.json()["error"]
            assert "readonly" in refused.json()["error"] and refused.headers["retry-after"]
            assert client.get(f"/games/{ident}").json()["state"] == before  # not moved on in memory
            assert client.post(f"/games/{ident}/hint").status_code == 200  # changes nothing: needs no write
        done = client.post(f"/games/{ident}/draw")
        assert done.status_code == 200 and done.json()["state"]["turn_number"] == 1
    with TestClient(make_app(db)) as again:
        again.headers["authorization"] = f"Bearer {token}"
        assert again.get(f"/games/{ident}").json()["state"]["turn_number"] == 1


def test_a_write_locked_by_another_process_is_refused_and_blocks_no_other_game(tmp_path):
    db = tmp_path / "g.sqlite3"
    app = make_app(db)
    with TestClient(app) as client:
        ident = new_game(client, seed=9)["id"]
        other = new_game(client, seed=10)["id"]
        before = client.get(f"/games/{ident}").json()["state"]
        locker = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sqlite3, sys, time\n"
                f"db = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
                "db.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(8)\n",
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert locker.stdout.readline().strip() == "locked"
            answers: list = []
            writer = threading.Thread(target=lambda: answers.append(client.post(f"/games/{ident}/draw")))
            writer.start()
            time.sleep(0.3)  # the write now waits on the lock (for busy_timeout, 2 s; the lock is held 8 s)
            assert client.get(f"/games/{other}").status_code == 200
            assert not answers  # the other game was answered while the write still waited: not behind it
            writer.join(20)
            assert answers[0].status_code == 503 and "locked" in answers[0].json()["error"]
            assert client.get(f"/games/{ident}").json()["state"] == before
        finally:
            locker.kill()
            locker.wait()
        assert client.post(f"/games/{ident}/draw").status_code == 200


# -- 6. damaged data, and errors that keep the connection -----------------------------------------


def test_a_damaged_row_is_that_games_error_only(tmp_path):
    db = tmp_path / "g.sqlite3"
    app = make_app(db)
    with TestClient(app) as client:
        good, bad_summary, bad_data = (new_game(client, seed=s)["id"] for s in (1, 2, 3))
        raw = sqlite3.connect(db)
        raw.execute("UPDATE games SET summary = '{not json' WHERE id = ?", (bad_summary,))
        raw.execute("UPDATE games SET data = '[1, 2', version = version + 1 WHERE id = ?", (bad_data,))
        raw.execute(
            "UPDATE games SET summary = '{}', data = '{\"format\": \"x\"}', version = version + 1 WHERE id = ?",
            (good,),
        )
        raw.commit()
        raw.close()
        listed = client.get("/games")
        assert listed.status_code == 200
        assert {g["id"] for g in listed.json()["games"]} == {good, bad_data}
        assert listed.json()["damaged"] == [bad_summary]
        for ident in (bad_data, good):
            broken = client.get(f"/games/{ident}")
            assert broken.status_code == 500 and ident in broken.json()["error"] and "damaged" in broken.json()["error"]
        fine = new_game(client, seed=4)["id"]
        assert client.get(f"/games/{fine}").status_code == 200


@pytest.mark.parametrize("kind", ["text", "directory", "damaged", "other program"])
def test_a_bad_db_file_is_one_line_from_serve(tmp_path, kind):
    path = tmp_path / "games.sqlite3"
    if kind == "text":
        path.write_text("these are my notes, not a database\n" * 50)
    elif kind == "directory":
        path.mkdir()
    elif kind == "damaged":
        store = GameStore(str(path), max_live=100, max_stored=100)
        owner = store.owner_of(store.new_owner())
        for seed in range(30):
            GameCache(store).create(Session.new(["human", "easy"], seed=seed), owner)
        store.close()
        data = bytearray(path.read_bytes())
        for offset in range(4096, len(data), 4096):  # scribble over every page's header but the first's
            data[offset : offset + 12] = b"\x07" * 12
        path.write_bytes(bytes(data))
    else:
        other = sqlite3.connect(path)
        other.execute("CREATE TABLE games (name TEXT, score INTEGER)")
        other.commit()
        other.close()
    done = subprocess.run(
        [sys.executable, "-m", "rummisolve", "serve", "--port", str(free_port()), "--db", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr and str(path) in lines[0], done.stderr


def test_a_500_keeps_the_keep_alive_connection(tmp_path):
    import uvicorn

    app = make_app(tmp_path / "g.sqlite3", allowed_hosts="")

    @app.get("/boom")
    async def boom():
        raise RuntimeError("a bug")

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/boom")
        answer = connection.getresponse()
        body = json.loads(answer.read())
        assert answer.status == 500 and body == {"error": "internal error: RuntimeError (see the server's log)"}
        assert not answer.will_close
        sock = connection.sock
        connection.request("GET", "/health")
        again = connection.getresponse()
        assert again.status == 200 and connection.sock is sock  # the same connection served it
        again.read()
        connection.close()
    finally:
        server.should_exit = True
        thread.join(30)


# -- 8. game actions take only their fields; every error in the contract's shape --------------------


def test_game_actions_refuse_unknown_fields_and_every_error_is_json(app):
    with TestClient(app) as client:
        ident = new_game(client, seed=6)["id"]
        for action, body in [
            ("draw", {"source": "pool", "sauce": 1}),
            ("advance", {"turns": 3}),
            ("play", {"table": [], "tabel": []}),
            ("hint", {"level": 1, "all": True}),
        ]:
            refused = client.post(f"/games/{ident}/{action}", json=body)
            assert refused.status_code == 400 and "unknown field" in refused.json()["error"], refused.text
        assert client.get(f"/games/{ident}").json()["state"]["turn_number"] == 0
        shapes = [
            client.get(f"/games/{ident}/replay?round=abc"),
            client.get(f"/games/{ident}/replay?round=1&x=2"),
            client.get("/no/such/page"),
            client.put("/games"),
            client.post(f"/games/{ident}/draw", content="[", headers={"content-type": "application/json"}),
        ]
        for answer in shapes:
            assert 400 <= answer.status_code < 500 and set(answer.json()) == {"error"}, answer.text
        assert client.get(f"/games/{ident}/replay?round=0").status_code == 200


# -- killed processes -----------------------------------------------------------------------------


def test_every_acknowledged_action_survives_a_killed_server(tmp_path):
    import httpx

    db = tmp_path / "g.sqlite3"

    def start() -> tuple[subprocess.Popen, str]:
        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "rummisolve", "serve", "--port", str(port), "--db", str(db), "--no-access-log"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if httpx.get(url + "/health", timeout=2).status_code == 200:
                    return proc, url
            except httpx.TransportError:
                time.sleep(0.1)
        proc.kill()
        raise RuntimeError("the server did not start")

    proc, url = start()
    try:
        created = httpx.post(url + "/games", json={"players": "human,easy", "seed": 12}).json()
        auth = {"authorization": f"Bearer {created['token']}"}
        ident = created["id"]
        acknowledged = []
        for action in ("draw", "advance", "draw", "advance"):
            answer = httpx.post(f"{url}/games/{ident}/{action}", headers=auth)
            assert answer.status_code == 200
            acknowledged.append(answer.json()["state"])
    finally:
        proc.kill()  # SIGKILL: no shutdown, no flush
        proc.wait()
    proc, url = start()
    try:
        state = httpx.get(f"{url}/games/{ident}", headers=auth).json()["state"]
        assert state == acknowledged[-1] and len(state["log"]) == 4
    finally:
        proc.terminate()
        proc.wait(30)
