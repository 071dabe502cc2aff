"""The HTTP service, end to end: the real server in a subprocess on a loopback port, a real client.

Every endpoint, every class of bad input (each answered with a 4xx and a JSON body naming the
problem, the server alive afterwards), the solve-time cap, solves running off the event loop, the
bounded lanes (503 past the queue, small solves never behind big ones, the size limits), solves of
clients that disconnected (cancelled or stopped), the offline docs pages, and agreement with the
``rummisolve solve`` command on a few hundred dealt positions.
"""

from __future__ import annotations

import dataclasses
import http.client
import json
import math
import os
import platform
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from rummisolve import solve_json  # noqa: E402
from rummisolve.errors import SettingsError  # noqa: E402
from rummisolve.jsonio import position_to_json  # noqa: E402
from rummisolve.position import Position  # noqa: E402
from rummisolve.rules import (  # noqa: E402
    EMPTY_POOL_SCORING_MODES,
    INTEGER_OPTION_BOUNDS,
    JOKER_RETRIEVAL_MODES,
    PRESETS,
    STANDARD,
    RuleSet,
)
from rummisolve.server import schemas as server_schemas  # noqa: E402
from rummisolve.server.requests import (  # noqa: E402
    BadRequest,
    check_position_size,
    clamp_reroll_budget,
    clamp_time_limit,
)
from rummisolve.server.settings import Settings  # noqa: E402
from rummisolve.service import render_json, verify_json  # noqa: E402
from rummisolve.tiles import JOKER, TILE_CODE_PATTERN, Tile  # noqa: E402
from tests.support.net import free_port  # noqa: E402

CAP = 1.5  # the test server's cap on one solve, in seconds
VOLATILE = ("timings",)  # result fields that legitimately differ between two runs


# -- a seeded dealer ------------------------------------------------------------------------------


def deal_position(rng: random.Random, rules: RuleSet = STANDARD, max_melds: int = 12, max_rack: int = 20) -> Position:
    """Deal from a shuffled full set: a table of random valid melds, then a rack from what is left."""
    deck = list(rules.full_set())
    rng.shuffle(deck)
    pool = Counter(deck)
    table = []
    for _ in range(rng.randint(0, max_melds)):
        if rng.random() < 0.5:
            number = rng.randint(1, rules.numbers)
            colours = rng.sample(rules.colour_list, rng.randint(3, min(4, rules.colours)))
            tiles = [Tile(c, number) for c in colours]
        else:
            length = rng.randint(3, 6)
            start = rng.randint(1, rules.numbers - length + 1)
            colour = rng.choice(rules.colour_list)
            tiles = [Tile(colour, n) for n in range(start, start + length)]
        if pool[JOKER] and rng.random() < 0.2:
            tiles[rng.randrange(len(tiles))] = JOKER
        need = Counter(tiles)
        if all(pool[t] >= k for t, k in need.items()):
            pool -= need
            table.append(tiles)
    left = []
    for tile in deck:  # the rest of the shuffled deck, in deal order
        if pool[tile]:
            pool[tile] -= 1
            left.append(tile)
    rack = left[: rng.randint(1, max_rack)]
    return Position(tuple(table), tuple(rack), rng.random() < 0.8, rules)


def dealt_positions(seed: int, count: int) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        body = position_to_json(deal_position(rng))
        if i % 3 == 0:
            body["objective"] = "value"
        out.append(body)
    return out


# -- the server under test -----------------------------------------------------------------------


class Server:
    """``rummisolve serve`` as a subprocess on a free loopback port."""

    def __init__(self, tmp: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp / f"server-{self.port}.log"
        self._log = open(self.log_path, "w")
        command = [sys.executable, "-m", "rummisolve", "serve", "--port", str(self.port), "--log-level", "warning"]
        self.proc = subprocess.Popen(
            [*command, "--no-access-log", *args],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env=None if env is None else {**os.environ, **env},
        )
        deadline = time.monotonic() + 90
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if httpx.get(self.url + "/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"server did not come up:\n{self.log()}")
            time.sleep(0.1)
        self.client = httpx.Client(base_url=self.url, timeout=60)

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()


def _serve_checked(srv):
    """Yield the server to the tests, then stop it and check it neither died nor logged a traceback."""
    yield srv
    still_up = srv.alive()
    srv.client.close()
    srv.stop()
    log = srv.log_path.read_text()
    assert still_up, f"the server died during the tests:\n{log}"
    assert "Traceback" not in log, log


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("server"), "--max-time-limit", str(CAP))
    yield from _serve_checked(srv)


def post_raw(server: Server, path: str, content: bytes | str, **headers: str) -> httpx.Response:
    return server.client.post(path, content=content, headers={"content-type": "application/json", **headers})


def stable(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in VOLATILE}


# -- health, docs, routing ---------------------------------------------------------------------------


def test_health(server):
    response = server.client.get("/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["limits"] == {
        "max_body_bytes": 256 * 1024,
        "max_time_limit": CAP,
        "heavy_workers": 2,
        "light_workers": 1,
        "game_workers": 1,
        "light_max_work": 160,
        "max_queued_solves": 8,
        "max_queued_light_solves": 64,
        "max_queued_game_jobs": 32,
        "heavy_nice": 10,
        "job_grace_seconds": 5.0,
        "replay_deadline_seconds": 60.0,
        "ai_turn_deadline_seconds": 30.0,
        "max_tiles_in_play": 4000,
        "max_melds": 1000,
        "max_verify_steps": 20_000,
    }
    solves = body["solves"]
    assert {
        k: solves[k] for k in ("running", "queued", "refused", "cancelled", "stopped", "killed_deadline")
    } == dict.fromkeys(("running", "queued", "refused", "cancelled", "stopped", "killed_deadline"), 0)
    assert [solves[lane]["workers"] for lane in ("light", "heavy", "game")] == [1, 2, 1]
    assert all(
        solves[lane]["busy"] == 0 and solves[lane]["killed_deadline"] == 0 for lane in ("light", "heavy", "game")
    )


def test_openapi_documents_schemas_and_examples(server):
    doc = server.client.get("/openapi.json").json()
    schemas = doc["components"]["schemas"]
    for name in ("PositionIn", "SolveRequest", "SolveResult", "SolveError", "VerifyRequest", "VerifyResult"):
        assert name in schemas
    assert set(schemas["SolveRequest"]["properties"]) == {
        "rules",
        "table",
        "rack",
        "opened",
        "objective",
        "time_limit",
        "id",
        "alternatives",
        "alternatives_mode",
        "explain",
        "hint",
        "dice",
        "reroll",
        "reroll_max_solves",
        "reroll_time_limit",
    }
    for path in ("/solve", "/verify", "/render"):
        operation = doc["paths"][path]["post"]
        content = operation["requestBody"]["content"]["application/json"]
        assert content["examples"], path
        assert "400" in operation["responses"] and "413" in operation["responses"]
        # Every documented example is a request the server accepts.
        for example in content["examples"].values():
            response = server.client.post(path, json=example["value"])
            assert response.status_code == 200, (path, example, response.text)
    assert "/health" in doc["paths"]
    busy = doc["paths"]["/solve"]["post"]["responses"]["503"]
    assert "Retry-After" in busy["headers"] and "max_queued_solves" in busy["description"]
    docs = server.client.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_pages_load_nothing_from_other_hosts(server, page):
    html = server.client.get(page)
    assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", html.text, re.I), html.text  # no URL of another host
    assets = re.findall(r'(?:src|href)="([^"]+)"', html.text)
    assert any(a.endswith(".js") for a in assets), html.text
    for asset in assets:
        assert asset.startswith("/"), asset
        response = server.client.get(asset)
        assert response.status_code == 200 and len(response.content) > 1000, asset
    if page == "/docs":
        assert '"validatorUrl": null' in html.text  # Swagger UI's validator badge would call validator.swagger.io
        assert server.client.get("/openapi.json").status_code == 200


def test_unknown_route_and_method_are_json_4xx(server):
    missing = server.client.get("/nope")
    assert missing.status_code == 404 and missing.json()
    wrong = server.client.get("/solve")
    assert wrong.status_code == 405 and wrong.json()


# -- the endpoints -------------------------------------------------------------------------------------


MIDGAME = {"table": [["R1", "R2", "R3"], ["K7", "B7", "O7"]], "rack": ["R4", "R7", "J", "K12"], "opened": True}


def test_solve(server):
    response = server.client.post("/solve", json=MIDGAME)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    result = response.json()
    assert stable(result) == stable(solve_json(MIDGAME))
    assert result["status"] == "optimal" and sorted(result["played"]) == ["J", "R4", "R7"]
    assert float(response.headers["x-rummisolve-time-limit"]) == CAP


def test_solve_objective_and_rules(server):
    opening = {"rack": ["R10", "R11", "R12", "K3", "B3", "O3", "J", "B9"], "opened": False}
    for objective in ("tiles", "value"):
        body = dict(opening, objective=objective)
        assert stable(server.client.post("/solve", json=body).json()) == stable(solve_json(body))
    xp = {"rules": {"preset": "xp", "initial_threshold": 0}, "rack": ["R5", "R5", "R5", "K5"], "opened": False}
    assert stable(server.client.post("/solve", json=xp).json()) == stable(solve_json(xp))


def test_solve_and_verify_under_the_discard_rule(server):
    body = {"rules": {"discard": True}, "table": [["R1", "R2", "R3", "R4"]], "rack": ["R5", "K9", "B9", "O9"]}
    result = server.client.post("/solve", json=body).json()
    assert stable(result) == stable(solve_json(body))
    assert result["status"] == "optimal" and sorted(result["played"]) == ["B9", "K9", "O9"]  # R5 stays to discard
    out = {"position": body, "table": [["R1", "R2", "R3", "R4", "R5"], ["K9", "B9", "O9"]]}
    verdict = server.client.post("/verify", json=out).json()
    assert verdict == verify_json(out) and [r["code"] for r in verdict["reasons"]] == ["no_tile_to_discard"]


def test_verify(server):
    legal = {"position": MIDGAME, "table": [["R1", "R2", "R3", "R4"], ["K7", "B7", "O7", "R7"]]}
    illegal = {"position": MIDGAME, "table": [["R1", "R2", "R3", "R7"], ["K7", "B7", "O7"]]}
    for body, expected in ((legal, True), (illegal, False)):
        response = server.client.post("/verify", json=body)
        assert response.status_code == 200
        assert response.json() == verify_json(body)
        assert response.json()["legal"] is expected
    assert server.client.post("/verify", json=illegal).json()["reasons"]


def test_verify_a_twist_turn(server):
    body = {
        "position": {"rules": "twist", "table": [["R2", "JD", "R5"]], "rack": ["JC", "B8", "B9", "R6"]},
        "table": [["R2", "JD", "R5", "R6", "JC", "B8", "B9"]],
    }
    response = server.client.post("/verify", json=body)
    assert response.status_code == 200 and response.json() == verify_json(body) and response.json()["legal"]
    svg = server.client.post("/render", json=body["position"])
    assert svg.status_code == 200 and 'data-tile="JD"' in svg.text


def test_render(server):
    result = server.client.post("/solve", json=MIDGAME).json()
    xpress = {"rules": "xpress", "table": [["R1", "R2", "R3"]], "rack": ["B1", "O1"], "dice": ["D1", "D3"]}
    for body in (MIDGAME, result, dict(result, position=MIDGAME), xpress):
        response = server.client.post("/render", json=body)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("image/svg+xml")
        assert response.text == render_json(body)
        assert response.text.startswith("<svg")


@pytest.mark.parametrize(
    "body",
    [
        {"rules": {"numbers": 99}, "table": [["R97", "R98", "R99"]], "rack": ["R96", "K50", "J"]},
        {"rules": {"colours": 8}, "table": [["G5", "G6", "G7"]], "rack": ["G4", "W9", "J"]},
    ],
)
def test_render_a_result_under_other_rules(server, body):
    # A result carries its rules, so /render reads its tiles (R99, G5) under them.
    result = server.client.post("/solve", json=body).json()
    assert result["status"] == "optimal" and result["rules"] == body["rules"]
    response = server.client.post("/render", json=result)
    assert response.status_code == 200, response.text
    assert response.text == render_json(result)


# -- bad input -------------------------------------------------------------------------------------------

BAD_SOLVE = [
    ("{", "malformed JSON"),
    ('{"rack": ["R1"]', "malformed JSON"),
    ("", "empty request body"),
    ("[1, 2]", "position: expected an object, got array"),
    ('"R1"', "position: expected an object, got string"),
    ("null", "position: expected an object, got null"),
    ('{"rack": "R1 R2"}', "position.rack: expected an array of tile codes, got string"),
    ('{"rack": [7]}', "position.rack[0]: expected a tile code string, got number"),
    ('{"table": {"a": 1}}', "position.table: expected an array of melds, got object"),
    ('{"opened": "yes"}', "position.opened: expected true or false"),
    ('{"objective": "fun"}', "objective"),
    ('{"rules": 7}', "position.rules"),
    ('{"rules": "chess"}', "unknown rules preset 'chess'"),
    ('{"rules": {"copies": 99}}', "copies"),
    ('{"rack": ["X5"]}', "position.rack[0]: unknown tile code 'X5'"),
    ('{"rack": ["R14"]}', "position.rack[0]: tile 'R14'"),
    ('{"rack": ["R0"]}', "position.rack[0]"),
    ('{"rack": [""]}', "position.rack[0]"),
    ('{"rack": ["R5", "R5", "R5"]}', "3 copies of R5"),
    ('{"rack": ["J", "J", "J"]}', "3 jokers"),
    ('{"table": [["R1", "R2", "R4"]]}', "position.table[0]: invalid meld 'R1 R2 R4'"),
    ('{"table": [["R1", "R2"]]}', "position.table[0]: invalid meld 'R1 R2'"),
    ('{"table": [["J", "J", "J"]]}', "position.table[0]"),
    ('{"rack": [], "colour": "red"}', "unknown field(s) 'colour'"),
    ('{"time_limit": -1}', "time_limit"),
    ('{"time_limit": 0}', "time_limit"),
    ('{"time_limit": NaN}', "time_limit"),
    ('{"time_limit": Infinity}', "time_limit"),
    ('{"time_limit": -Infinity}', "time_limit"),
    ('{"time_limit": 1e300}', "time_limit: 1e+300 seconds is absurd"),
    ('{"time_limit": 1' + "0" * 400 + "}", "time_limit: 1000000000...(401 digits) seconds is absurd"),
    ('{"time_limit": 1' + "0" * 5000 + "}", "malformed JSON: Exceeds the limit"),
    ('{"rack": [], "opened": 1' + "0" * 5000 + "}", "malformed JSON: Exceeds the limit"),
    ('{"time_limit": "5"}', "time_limit: expected a number of seconds, got string"),
    ('{"time_limit": true}', "time_limit: expected a number of seconds, got boolean"),
    ('{"time_limit": [1]}', "time_limit: expected a number of seconds, got array"),
    ("[" * 100_000, "malformed JSON: nested too deeply"),
]


@pytest.mark.parametrize("body,message", BAD_SOLVE)
def test_solve_bad_input(server, body, message):
    response = post_raw(server, "/solve", body)
    assert response.status_code == 400, response.text
    assert response.headers["content-type"] == "application/json"
    result = response.json()
    assert result["status"] == "error"
    assert message in result["error"]


def test_solve_bad_input_agrees_with_solve_json(server):
    # Errors found by the library carry the library's (and so the CLI's) message, word for word.
    for body, _ in BAD_SOLVE:
        if "time_limit" in body:
            continue
        try:
            obj = json.loads(body)
        except (ValueError, RecursionError):  # not JSON, or not decodable by Python
            continue
        assert post_raw(server, "/solve", body).json() == solve_json(obj)


def test_non_utf8_body(server):
    for path in ("/solve", "/verify", "/render"):
        response = post_raw(server, path, b'{"rack": ["R1\xff"]}')
        assert response.status_code == 400 and "not UTF-8" in response.json()["error"]


@pytest.mark.parametrize(
    "body,message",
    [
        ("{", "malformed JSON"),
        ("[]", "expected an object with fields 'position' and 'table', got array"),
        ('{"position": {}}', "missing field(s) 'table'"),
        ('{"position": {}, "table": "R1"}', "table: expected an array of melds"),
        ('{"position": {"rack": ["Q1"]}, "table": []}', "position.rack[0]: unknown tile code 'Q1'"),
        ('{"position": {"table": [["R1", "R3", "R5"]]}, "table": []}', "position.table[0]: invalid meld"),
        ('{"position": {}, "table": [], "extra": 1}', "unknown field(s) 'extra'"),
    ],
)
def test_verify_bad_input(server, body, message):
    response = post_raw(server, "/verify", body)
    assert response.status_code == 400, response.text
    assert message in response.json()["error"]
    try:
        assert response.json() == verify_json(json.loads(body))
    except json.JSONDecodeError:
        pass


@pytest.mark.parametrize(
    "body,message",
    [
        ("{", "malformed JSON"),
        ("42", "expected a position or a result object, got number"),
        ('{"rack": ["R99"]}', "position.rack[0]: tile 'R99'"),
        ('{"status": "error", "error": "x"}', "cannot draw an error result"),
        ('{"status": "optimal", "table": [["R1", "K1"]]}', "table[0]: invalid meld"),
        ('{"status": "optimal"}', "a result needs its table"),
        ('{"rules": "xpress", "rack": ["B1"], "dice": ["D1"], "reroll": true}', "position.reroll: a picture draws"),
    ],
)
def test_render_bad_input(server, body, message):
    response = post_raw(server, "/render", body)
    assert response.status_code == 400, response.text
    assert message in response.json()["error"]


@pytest.mark.parametrize("path", ["/solve", "/verify", "/render"])
def test_oversized_bodies_are_refused(server, path):
    limit = 256 * 1024
    big = b'{"rack": [' + b'"R1",' * (limit // 5) + b'"R1"]}'
    assert len(big) > limit
    # Declared by Content-Length: refused before reading.
    response = post_raw(server, path, big)
    assert response.status_code == 413
    assert f"exceeds the limit of {limit} bytes" in response.json()["error"]
    # Streamed without a length (chunked): refused once the limit is passed.

    def chunks():
        for i in range(0, len(big), 8192):
            yield big[i : i + 8192]

    response = server.client.post(path, content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert "exceeds the limit" in response.json()["error"]
    # Just under the limit is read (and then judged on its content).
    fits = b'{"rack": ["R1"], "table": []' + b" " * (limit - 40) + b"}"
    assert len(fits) <= limit
    assert post_raw(server, path, fits).status_code != 413


FIELDS = ["rules", "table", "rack", "opened", "objective", "time_limit", "position", "status", "played", "kept", "x"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8) | st.sampled_from(["R1", "J", "K13"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(FIELDS), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=150)
@given(
    path=st.sampled_from(["/solve", "/verify", "/render"]),
    field=st.sampled_from(FIELDS),
    value=json_values,
    whole=st.booleans(),
)
def test_garbled_json_is_always_answered_with_200_or_400(server, path, field, value, whole):
    base = {"position": MIDGAME, "table": MIDGAME["table"]} if path == "/verify" else dict(MIDGAME)
    body = value if whole else {**base, field: value}
    response = post_raw(server, path, json.dumps(body))
    assert response.status_code in (200, 400), (body, response.text)
    if response.status_code == 400:
        assert response.json()["error"]


def test_server_survives_bad_input(server):
    assert server.alive()
    assert server.client.get("/health").status_code == 200
    assert server.client.post("/solve", json=MIDGAME).status_code == 200


# -- time limits ----------------------------------------------------------------------------------------


def test_time_limit_is_clamped_to_the_cap(server):
    for asked, applied in ((3600, CAP), (CAP * 10, CAP), (0.75, 0.75), (None, CAP)):
        body = dict(MIDGAME) if asked is None else dict(MIDGAME, time_limit=asked)
        response = server.client.post("/solve", json=body)
        assert response.status_code == 200
        assert float(response.headers["x-rummisolve-time-limit"]) == applied


def test_clamp_time_limit_unit():
    settings = Settings(max_time_limit=10)
    assert clamp_time_limit(None, settings) == 10
    assert clamp_time_limit(2, settings) == 2.0
    assert clamp_time_limit(50, settings) == 10
    for bad in (0, -1, math.nan, math.inf, -math.inf, 1e9, 10**400, -(10**400), "1", True, [1]):
        with pytest.raises(BadRequest) as info:
            clamp_time_limit(bad, settings)
        assert info.value.status == 400 and "time_limit" in info.value.message


def test_clamp_reroll_budget_unit():
    settings = Settings(max_time_limit=10)
    asked = {"rules": "xpress", "reroll": True}
    assert clamp_reroll_budget(asked, settings) == {**asked, "reroll_time_limit": 10}
    big = {**asked, "reroll_max_solves": 10**6, "reroll_time_limit": 60}
    assert clamp_reroll_budget(big, settings) == {**asked, "reroll_max_solves": 1200, "reroll_time_limit": 10}
    small = {**asked, "reroll_max_solves": 50, "reroll_time_limit": 2}
    assert clamp_reroll_budget(small, settings) == small
    bad = {**asked, "reroll_max_solves": "many", "reroll_time_limit": True}
    assert clamp_reroll_budget(bad, settings) == bad  # solve_json names them
    assert clamp_reroll_budget({"rules": "xpress"}, settings) == {"rules": "xpress"}


def hard_position() -> dict:
    """A position the solver cannot prove within the test server's cap: 8 colours, 1..99, 10 copies,
    4 jokers, 496 melds on the table and 140 tiles in the rack (2,133 tiles in play, within the
    server's limits). Measured: still unproven after 20 s on the development machine, so at the
    1.5 s cap the answer is 'feasible' or unproven. (The earlier deals: 4 copies and 52 melds,
    proven in 10 s until the grouped model of 6-8 colours proved it in 0.7 s; before that 16
    jokers, which the solver now refuses.) If a faster solver ever proves it within the cap, pick a
    larger deal here."""
    rules = RuleSet(colours=8, numbers=99, copies=10, jokers=4)
    return position_to_json(deal_position(random.Random(6), rules, max_melds=900, max_rack=500))


def test_slow_solve_is_cut_at_the_cap(server):
    body = dict(hard_position(), time_limit=3600)
    response = server.client.post("/solve", json=body)
    assert float(response.headers["x-rummisolve-time-limit"]) == CAP
    assert float(response.headers["x-rummisolve-deadline"]) == CAP + Settings().job_grace_seconds
    if response.status_code == 504:  # a machine so busy that building the model passed the deadline
        assert "job_grace_seconds" in response.json()["error"] and response.headers["retry-after"]
        return
    assert response.status_code == 200
    result = response.json()
    # Cut short: the best move found so far ('feasible'), or no move found yet ('unknown'); never "draw".
    assert result["status"] in ("feasible", "unknown") and result["proven"] is False, result


def test_concurrent_requests_all_answered(server):
    bodies = dealt_positions(seed=11, count=24)
    expected = [stable(solve_json(b)) for b in bodies]
    results: list = [None] * len(bodies)

    def worker(i: int) -> None:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            results[i] = client.post("/solve", json=bodies[i])

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(bodies))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert [r.status_code for r in results] == [200] * len(bodies)
    assert [stable(r.json()) for r in results] == expected


# -- agreement with the CLI ---------------------------------------------------------------------------


def test_position_size_limits_are_413_naming_the_limit(server):
    over_tiles = {"rack": ["R1"] * 2000, "table": [["K5", "B5", "O5"]] * 667}  # 4,001 tiles, 667 melds
    response = server.client.post("/solve", json=over_tiles)
    assert response.status_code == 413
    assert response.json() == {
        "status": "error",
        "error": "position: 4,001 tiles in play (table and rack) exceed this server's limit of 4,000 (max_tiles_in_play)",
    }
    over_melds = {"table": [["K5", "B5", "O5"]] * 1001}
    response = server.client.post("/solve", json=over_melds)
    assert (
        response.status_code == 413
        and "1,001 melds exceed this server's limit of 1,000 (max_melds)" in (response.json()["error"])
    )
    # At the limits, the position is judged on its content (here: far too many copies of a tile).
    at_limits = {"rack": ["R1"] * 1000, "table": [["K5", "B5", "O5"]] * 1000}
    response = server.client.post("/solve", json=at_limits)
    assert response.status_code == 400 and "copies" in response.json()["error"]


def test_check_position_size_unit():
    settings = Settings(max_tiles_in_play=10, max_melds=2)
    assert check_position_size({"table": [["R1", "R2", "R3"]], "rack": ["K1"] * 7}, settings) == 10
    assert check_position_size([1, 2], settings) == 0  # not an object: solve_json names the problem
    assert check_position_size({"table": "R1 R2 R3", "rack": {"a": 1}}, settings) == 0
    assert check_position_size({"table": [["R1"], "x"]}, settings) == 1
    for body, limit in (({"rack": ["K1"] * 11}, "max_tiles_in_play"), ({"table": [[]] * 3}, "max_melds")):
        with pytest.raises(BadRequest) as info:
            check_position_size(body, settings)
        assert info.value.status == 413 and limit in info.value.message


def test_release_free_memory_says_whether_it_can():
    from rummisolve.server.memory import release_free_memory

    done = release_free_memory()
    assert done is (sys.platform.startswith("linux") and "glibc" in platform.libc_ver()[0])


# -- a tight server: one heavy thread, one queue place ------------------------------------------------------


TIGHT_CAP = 60.0  # long enough that a solve which stops early was stopped
TIGHT_GRACE = 120.0  # building the hard model never passes the deadline, however busy the machine


@pytest.fixture(scope="module")
def tight(tmp_path_factory):
    args = ["--heavy-workers", "1", "--light-workers", "1", "--max-queued-solves", "1"]
    args += ["--job-grace-seconds", str(TIGHT_GRACE)]
    srv = Server(tmp_path_factory.mktemp("tight"), *args, "--max-time-limit", str(TIGHT_CAP))
    yield from _serve_checked(srv)


class Pending:
    """A /solve request sent on its own connection, not yet read: close it to play a client that left."""

    def __init__(self, server: Server, body: dict) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
        self.conn.request("POST", "/solve", body=json.dumps(body), headers={"content-type": "application/json"})

    def response(self) -> tuple[int, dict[str, str], dict]:
        response = self.conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, json.loads(response.read())

    def close(self) -> None:
        self.conn.close()


def solves(server: Server) -> dict:
    return server.client.get("/health").json()["solves"]


def wait_for(server: Server, condition, what: str) -> dict:
    """The /health solve counts, once ``condition`` holds for them (polled; a generous deadline)."""
    deadline = time.monotonic() + 60
    while True:
        counts = solves(server)
        if condition(counts):
            return counts
        assert time.monotonic() < deadline, f"never: {what} ({counts})"
        time.sleep(0.02)


# -- slow solves hold every heavy worker: the rest is answered (issue 47, finding 5) -----------------------


@pytest.fixture(scope="module")
def roomy(tmp_path_factory):
    """Two heavy workers, a cap long enough that a slow solve runs until its client leaves."""
    args = ["--heavy-workers", "2", "--max-time-limit", str(TIGHT_CAP), "--job-grace-seconds", str(TIGHT_GRACE)]
    srv = Server(tmp_path_factory.mktemp("roomy"), *args)
    yield from _serve_checked(srv)


@pytest.mark.parametrize("slow", [1, 2])  # one slow solve; as many as the server has heavy workers
def test_slow_solves_do_not_block_other_requests(roomy, slow):
    before = wait_for(roomy, lambda c: c["running"] == 0 and c["queued"] == 0, "an idle server")
    pending = [Pending(roomy, dict(hard_position(), time_limit=TIGHT_CAP)) for _ in range(slow)]
    try:
        wait_for(roomy, lambda c: c["heavy"]["busy"] == slow, "the slow solves run")
        codes = [roomy.client.get("/health").status_code]
        codes.append(roomy.client.post("/verify", json={"position": MIDGAME, "table": MIDGAME["table"]}).status_code)
        codes.append(roomy.client.post("/render", json=MIDGAME).status_code)
        small = roomy.client.post("/solve", json=MIDGAME)
        codes.append(small.status_code)
        # Answered while the slow ones still hold their workers (they end only when their clients leave).
        assert solves(roomy)["heavy"]["busy"] == slow
        assert codes == [200] * 4
        assert stable(small.json()) == stable(solve_json(MIDGAME))
        assert float(small.headers["x-rummisolve-waited"]) >= 0 and small.headers["x-rummisolve-deadline"]
    finally:
        for request in pending:
            request.close()
    after = wait_for(roomy, lambda c: c["running"] == 0, "the slow solves are stopped")
    assert after["stopped"] == before["stopped"] + slow
    assert roomy.alive()


def test_a_full_lane_answers_503_with_retry_after(tight):
    before = solves(tight)
    running = Pending(tight, hard_position())
    wait_for(tight, lambda c: c["heavy"]["running"] == 1, "the first slow solve runs")
    queued = Pending(tight, hard_position())
    wait_for(tight, lambda c: c["heavy"]["queued"] == 1, "the second one queues")
    try:
        refused = tight.client.post("/solve", json=hard_position())
        assert refused.status_code == 503
        retry = math.ceil(TIGHT_CAP + TIGHT_GRACE)
        assert refused.headers["retry-after"] == str(retry)
        assert refused.json() == {
            "status": "error",
            "error": "server busy: every worker process of the heavy lane (1, heavy_workers) is taken and its "
            f"queue is full (max_queued_solves = 1); retry after {retry} s",
        }
        # A small position has its own lane: answered at once, and right.
        small = tight.client.post("/solve", json=MIDGAME)
        assert small.status_code == 200 and stable(small.json()) == stable(solve_json(MIDGAME))
        assert solves(tight)["refused"] == before["refused"] + 1
    finally:
        queued.close()
        running.close()
    wait_for(tight, lambda c: c["running"] == 0 and c["queued"] == 0, "the slow solves end")


def test_a_queued_solve_whose_client_left_never_starts(tight):
    before = wait_for(tight, lambda c: c["running"] == 0 and c["queued"] == 0, "an idle server")
    running = Pending(tight, hard_position())
    wait_for(tight, lambda c: c["heavy"]["running"] == 1, "the first slow solve runs")
    queued = Pending(tight, hard_position())
    wait_for(tight, lambda c: c["heavy"]["queued"] == 1, "the second one queues")
    queued.close()  # its client leaves while it waits
    counts = wait_for(tight, lambda c: c["cancelled"] == before["cancelled"] + 1, "the queued solve is cancelled")
    assert counts["heavy"]["queued"] == 0 and counts["heavy"]["running"] == 1
    running.close()
    after = wait_for(tight, lambda c: c["running"] == 0, "the running solve ends")
    assert after["heavy"]["started"] == before["heavy"]["started"] + 1  # only the first one ever started
    assert tight.alive()


def test_a_running_solve_whose_client_left_is_stopped(tight):
    before = wait_for(tight, lambda c: c["running"] == 0 and c["queued"] == 0, "an idle server")
    running = Pending(tight, dict(hard_position(), time_limit=TIGHT_CAP))
    wait_for(tight, lambda c: c["heavy"]["running"] == 1, "the slow solve runs")
    running.close()
    # Unstopped, it would search for its whole time limit (60 s): the wait below would time out.
    after = wait_for(tight, lambda c: c["running"] == 0, "the solve stops")
    assert after["stopped"] == before["stopped"] + 1
    # The lane is free again: the next solve runs and is answered.
    follow = Pending(tight, dict(hard_position(), time_limit=0.5))
    status, headers, result = follow.response()
    follow.close()
    assert status == 200 and result["status"] in ("feasible", "unknown")


def test_a_solve_answered_normally_is_neither_cancelled_nor_stopped(tight):
    before = wait_for(tight, lambda c: c["running"] == 0 and c["queued"] == 0, "an idle server")
    pending = Pending(tight, dict(hard_position(), time_limit=0.5))
    status, headers, result = pending.response()
    pending.close()
    assert status == 200 and headers["x-rummisolve-time-limit"] == "0.5"
    after = solves(tight)
    assert (after["cancelled"], after["stopped"]) == (before["cancelled"], before["stopped"])
    assert after["heavy"]["started"] == before["heavy"]["started"] + 1


def test_agrees_with_the_cli_on_dealt_positions(server, tmp_path):
    bodies = dealt_positions(seed=2024, count=300)
    path = tmp_path / "positions.jsonl"
    path.write_text("".join(json.dumps(b) + "\n" for b in bodies))
    done = subprocess.run(
        [sys.executable, "-m", "rummisolve", "solve", str(path)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    cli = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(cli) == len(bodies)
    statuses = Counter()
    for body, expected in zip(bodies, cli):
        response = server.client.post("/solve", json=body)
        assert response.status_code == 200
        assert stable(response.json()) == stable(expected), body
        statuses[expected["status"]] += 1
    # The dealt set exercises both answers (not only no_move).
    assert statuses["optimal"] > 100 and statuses["no_move"] > 10, statuses


# -- the command ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args,message",
    [
        (["--port", "70000"], "--port must be between 0 and 65535"),
        (["--workers", "0"], "--processes (--workers) must be at least 1, not 0"),
        (["--processes", "0"], "--processes (--workers) must be at least 1, not 0"),
        (["--max-time-limit", "-1"], "max_time_limit"),
        (["--max-body-bytes", "10"], "max_body_bytes"),
        (["--max-queued-solves", "-1"], "max_queued_solves must be between 0 and 100,000, not -1"),
        (["--max-tiles-in-play", "0"], "max_tiles_in_play"),
        (["--max-melds", "0"], "max_melds"),
        (["--light-workers", "-2"], "light_workers"),
        (["--job-grace-seconds", "0"], "job_grace_seconds must be a positive number of seconds"),
    ],
)
def test_serve_command_rejects_bad_options(args, message):
    done = subprocess.run(
        [sys.executable, "-m", "rummisolve", "serve", *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def test_serve_names_a_postgresql_database_it_cannot_use_in_one_line_without_its_password():
    pytest.importorskip("psycopg")
    url = "postgresql://me:s3cret@/nothing?host=/nonexistent&port=1"
    done = subprocess.run(
        [sys.executable, "-m", "rummisolve", "serve", "--db", url], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "cannot use the PostgreSQL database" in done.stderr and "me:***@" in done.stderr
    assert "s3cret" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_several_workers(tmp_path):
    srv = Server(tmp_path, "--workers", "2", "--max-time-limit", str(CAP))
    try:
        bodies = dealt_positions(seed=5, count=6)
        for body in bodies:
            response = srv.client.post("/solve", json=body)
            assert response.status_code == 200
            assert stable(response.json()) == stable(solve_json(body))
        assert srv.client.post("/solve", content=b"{").status_code == 400
    finally:
        srv.client.close()
        srv.stop()


@pytest.mark.parametrize("client", ["client.py", "client.js"])
def test_example_clients_talk_to_the_service(server, client, tmp_path):
    import shutil
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "examples" / client
    runtime = sys.executable if client.endswith(".py") else shutil.which("node")
    if runtime is None:
        pytest.skip("node is not installed")
    done = subprocess.run([runtime, str(script), server.url], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "optimal" in done.stdout


def test_ctrl_c_after_a_solve_shuts_the_server_down_gracefully(tmp_path):
    """CP-SAT's own SIGINT handler used to reset SIGINT to the system default after a solve, so
    Ctrl-C killed the server by signal instead of letting it shut down."""
    srv = Server(tmp_path)
    try:
        assert srv.client.post("/solve", json=MIDGAME).json()["status"] == "optimal"
        srv.client.close()
        srv.proc.send_signal(signal.SIGINT)
        assert srv.proc.wait(30) == 0, srv.log()
        assert "Traceback" not in srv.log()
    finally:
        srv.stop()


def test_verify_steps_are_capped(tmp_path):
    # The open_then_manipulate opening check searches the played tiles' melds: a few steps here.
    rules = {"open_then_manipulate": True, "initial_threshold": 100}
    position = {"rules": rules, "table": [], "rack": ["R1", "R2", "R3", "K1", "B1", "O1"], "opened": False}
    body = {"position": position, "table": [["R1", "R2", "R3"], ["K1", "B1", "O1"]]}
    srv = Server(tmp_path, "--max-verify-steps", "2")
    try:
        response = srv.client.post("/verify", json=body)
        assert response.status_code == 400
        assert "more than the 2 search steps allowed" in response.json()["error"]
        assert srv.client.get("/health").json()["limits"]["max_verify_steps"] == 2
        assert srv.alive()
    finally:
        srv.stop()
    assert verify_json(body)["legal"] is False  # no limit by default: judged (9 points < 100)


def test_max_verify_steps_setting():
    assert Settings.from_env({"RUMMISOLVE_MAX_VERIFY_STEPS": "7"}).max_verify_steps == 7
    assert Settings(max_verify_steps=7).to_env()["RUMMISOLVE_MAX_VERIFY_STEPS"] == "7"
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValueError, match="max_verify_steps"):
            Settings(max_verify_steps=bad)


def test_settings_round_trip_through_the_environment():
    custom = Settings(
        max_time_limit=2.5,
        heavy_workers=3,
        light_workers=0,
        light_max_work=50,
        job_grace_seconds=2.5,
        test_job_delay_seconds=0.5,
        max_queued_solves=0,
        max_tiles_in_play=900,
        max_melds=90,
    )
    assert Settings.from_env(custom.to_env()) == custom
    assert Settings.from_env({}) == Settings()
    assert Settings.from_env({"RUMMISOLVE_MAX_QUEUED_SOLVES": "3"}).max_queued_solves == 3


@pytest.mark.parametrize(
    "change,message",
    [
        ({"max_queued_solves": -1}, "max_queued_solves must be between 0 and 100,000, not -1"),
        ({"heavy_workers": 0}, "heavy_workers must be between 1 and 256, not 0"),
        ({"replay_deadline_seconds": 0}, "replay_deadline_seconds must be a positive number of seconds"),
        ({"test_job_delay_seconds": -1}, "test_job_delay_seconds must be 0 or a positive number of seconds"),
        ({"max_tiles_in_play": 2.5}, "max_tiles_in_play must be an integer, not 2.5"),
        ({"max_melds": True}, "max_melds must be an integer, not True"),
        ({"max_time_limit": math.nan}, "max_time_limit must be a positive number of seconds"),
        ({"max_time_limit": 100_000.0}, "max_time_limit (100000 s) exceeds absurd_time_limit"),
    ],
)
def test_bad_settings_raise_settings_error(change, message):
    with pytest.raises(SettingsError) as info:
        dataclasses.replace(Settings(), **change)
    assert message in str(info.value)


def test_bad_environment_variables_raise_settings_error():
    with pytest.raises(SettingsError, match="RUMMISOLVE_MAX_MELDS: expected int, got 'many'"):
        Settings.from_env({"RUMMISOLVE_MAX_MELDS": "many"})
    with pytest.raises(SettingsError, match="light_max_work"):
        Settings.from_env({"RUMMISOLVE_LIGHT_MAX_WORK": "-5"})


def test_serve_help_shows_the_settings_defaults():
    done = subprocess.run(
        [sys.executable, "-m", "rummisolve", "serve", "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    text = " ".join(done.stdout.split())  # argparse wraps lines
    for field in dataclasses.fields(Settings):
        if field.name in ("absurd_time_limit", "test_job_delay_seconds"):
            continue  # not an option: the environment may set it (the delay: for tests only)
        if field.name == "allowed_hosts":  # one --allowed-host per name, added to the variable's
            assert "--allowed-host NAME" in text and "env RUMMISOLVE_ALLOWED_HOSTS" in text
            continue
        default = field.default if isinstance(field.default, int) else f"{field.default:g}"
        option = "--" + field.name.replace("_", "-")
        assert option in text, option
        assert f"(default: {default}; env RUMMISOLVE_{field.name.upper()})" in text, field.name


# -- the schemas take their constants from the rules and tiles modules -----------------------------


def _schema_constants(module) -> dict:
    """What the schemas say about rule options and tile codes."""
    properties = module.RuleOptions.model_json_schema()["properties"]

    def choices(name: str) -> list:
        return next(option for option in properties[name]["anyOf"] if "enum" in option)["enum"]

    return {
        "options": set(properties),
        "bounds": {
            name: next((o["minimum"], o["maximum"]) for o in properties[name]["anyOf"] if o["type"] == "integer")
            for name in INTEGER_OPTION_BOUNDS
        },
        "presets": properties["preset"]["enum"],
        "joker_retrieval": choices("joker_retrieval"),
        "empty_pool_scoring": choices("empty_pool_scoring"),
        "turn_timer": next(o["maximum"] for o in properties["turn_timer"]["anyOf"] if o["type"] == "number"),
        "tile_pattern": module.PositionIn.model_json_schema()["properties"]["rack"]["items"]["pattern"],
    }


def test_schemas_take_their_constants_from_the_rules_and_tiles_modules(monkeypatch):
    import importlib

    import rummisolve.rules
    import rummisolve.tiles

    assert _schema_constants(server_schemas) == {
        "options": {"preset"} | {f.name for f in dataclasses.fields(RuleSet)},
        "bounds": INTEGER_OPTION_BOUNDS,
        "presets": list(PRESETS),
        "joker_retrieval": list(JOKER_RETRIEVAL_MODES),
        "empty_pool_scoring": list(EMPTY_POOL_SCORING_MODES),
        "turn_timer": rummisolve.rules.MAX_TURN_TIMER,
        "tile_pattern": TILE_CODE_PATTERN,
    }
    # Changed there, they change here: nothing is copied.
    try:
        monkeypatch.setitem(rummisolve.rules.INTEGER_OPTION_BOUNDS, "copies", (1, 5))
        monkeypatch.setattr(rummisolve.rules, "JOKER_RETRIEVAL_MODES", ("free", "strict", "never"))
        monkeypatch.setattr(rummisolve.rules, "MAX_TURN_TIMER", 60)
        monkeypatch.setattr(rummisolve.tiles, "TILE_CODE_PATTERN", r"^[RK][0-9]$")
        changed = _schema_constants(importlib.reload(server_schemas))
        assert changed["bounds"]["copies"] == (1, 5)
        assert changed["joker_retrieval"] == ["free", "strict", "never"]
        assert changed["turn_timer"] == 60 and changed["tile_pattern"] == r"^[RK][0-9]$"
    finally:
        monkeypatch.undo()
        importlib.reload(server_schemas)


def test_explain_a_legal_turn_and_refuse_an_illegal_one(server):
    from rummisolve.service import explain_json

    position = {"table": [["R3", "R4", "R5", "R6"], ["K9", "B9", "O9", "R9"]], "rack": ["R7", "O7", "O8"]}
    turn = {"position": position, "table": [["R3", "R4", "R5", "R6", "R7"], ["K9", "B9", "R9"], ["O7", "O8", "O9"]]}
    response = server.client.post("/explain", json=turn)
    assert response.status_code == 200
    assert response.json() == explain_json(turn)  # the HTTP answer is the library's
    assert response.json()["meld_map"] == [0, 1] and len(response.json()["steps"]) == 4
    illegal = server.client.post("/explain", json={"position": position, "table": [["R3", "R4", "R5", "R6", "R8"]]})
    assert illegal.status_code == 400
    body = illegal.json()
    assert "illegal turn" in body["error"] and {r["code"] for r in body["reasons"]} >= {"invalid_meld"}
    for bad in ({"position": position}, [1, 2], {"position": position, "table": "R1"}):
        answer = server.client.post("/explain", json=bad)
        assert answer.status_code == 400 and "error" in answer.json()
    body = {**position, "explain": True, "alternatives": 1, "alternatives_mode": "distinct"}
    explained = server.client.post("/solve", json=body).json()
    assert explained["steps"] and explained["alternatives"][0]["steps"]
    assert explained["alternatives_mode"] == "distinct"
    assert server.client.post("/solve", json={**body, "alternatives_mode": None}).json()["alternatives"] == []
    refused = server.client.post("/solve", json={**body, "alternatives_mode": "other"})
    assert refused.status_code == 400 and refused.json()["error"].startswith("position.alternatives_mode:")
    hinted = server.client.post("/solve", json={**position, "hint": 1}).json()
    assert hinted["hint"]["played"] == ["O7", "O8", "R7"]
    assert "/explain" in server.client.get("/openapi.json").json()["paths"]


def test_solve_passes_the_xpress_reroll_request(server):
    body = {
        "rules": "xpress",
        "table": [["R1", "R2", "R3"]],
        "rack": ["B1", "O1"],
        "dice": ["D1", "D3"],
        "reroll": True,
    }
    result = server.client.post("/solve", json=body).json()
    assert result["reroll"]["exact"] is True and len(result["reroll"]["options"]) == 4
