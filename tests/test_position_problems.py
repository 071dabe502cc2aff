"""Every problem of a position in a player's words (rummisolve.position_problems, check_json, POST /check):
what the analysis board lists and marks as you type."""

from __future__ import annotations

import dataclasses
import warnings

import pytest
from hypothesis import given, settings

from rummisolve import check_json, solve_json
from rummisolve.jsonio import position_to_json
from rummisolve.position_problems import position_problems
from tests.support.strategies import positions


def texts(obj) -> list[str]:
    return [p.text for p in position_problems(obj)]


def test_every_bad_tile_is_named_where_it_is_with_the_colours_in_play():
    problems = position_problems({"table": [["R1", "X3", "R3"]], "rack": ["R14", "G5", "J", "JD", ""]})
    assert [(p.part, p.meld, p.slot) for p in problems] == [
        ("table", 0, 1),
        ("rack", None, 0),
        ("rack", None, 1),
        ("rack", None, 3),
        ("rack", None, 4),
    ]
    assert (
        problems[0].text
        == "Meld 1, tile 2: X3 is not a tile: no colour X (the colours are K black, B blue, O orange, R red)"
    )
    assert problems[1].text == "Rack tile 1: R14 is not a tile: numbers run from 1 to 13"
    assert problems[2].text.startswith("Rack tile 2: G5 is not a tile: colour green is not in play (the colours are K")
    assert problems[3].text.startswith("Rack tile 4: JD is not a tile: this rule set has no double joker")
    assert all("G P W C" not in p.text and "purple" not in p.text for p in problems)


def test_the_rules_decide_which_tiles_exist():
    assert texts({"rules": {"colours": 5}, "rack": ["G5", "P5"]}) == [
        "Rack tile 2: P5 is not a tile: colour purple is not in play (the colours are K black, B blue, O orange, R red, G green)"
    ]
    assert texts({"rules": "twist", "rack": ["JD", "JC", "JM"]}) == []
    assert texts({"rules": "nonsense"})[0].startswith("The rules are not valid: rules: unknown rules preset 'nonsense'")


def test_melds_of_two_and_too_many_copies_are_named():
    assert texts({"table": [["R1", "R2", "R3"], ["K7", "B7"], ["R3", "R4", "R5"]], "rack": ["R3", "R1"]}) == [
        "Meld 2 (K7 B7) is not a valid meld: 2 tile(s); a meld needs at least 3",
        "R3 is there 3 times (table and rack), but the set has 2 copies of it",
    ]
    assert texts({"rack": ["J", "J", "J"]}) == ["J is there 3 times (table and rack), but the set has 2 jokers of it"]


def test_shapes_that_are_no_position():
    assert texts([]) == ["A position is a JSON object with a table and a rack."]
    assert texts({"table": "R1 R2 R3"}) == ["The table is a list of melds, each a list of tiles."]
    assert texts({"rack": "R1"}) == ["The rack is a list of tiles."]
    assert texts({"rack": [7]}) == ["Rack tile 1: 7 is not a tile code (a tile is written as text, e.g. R7)"]


def test_check_json_adds_the_first_other_field_solve_refuses():
    assert check_json({"rack": ["R5"], "id": 3, "explain": True, "alternatives": 2}) == {"problems": []}
    (problem,) = check_json({"rack": ["R5"], "opened": "yes"})["problems"]
    assert problem == {
        "part": "position",
        "meld": None,
        "slot": None,
        "text": solve_json({"rack": ["R5"], "opened": "yes"})["error"],
    }


@settings(max_examples=60)
@given(positions())
def test_a_position_solve_takes_has_no_problem(position):
    assert check_json(position_to_json(position)) == {"problems": []}


def test_post_check_answers_200_with_every_problem(tmp_path):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from rummisolve.server.app import create_app
    from rummisolve.server.settings import Settings

    settings_ = dataclasses.replace(Settings(), allowed_hosts="testserver")
    with TestClient(create_app(settings_, db=str(tmp_path / "g.sqlite3"))) as client:
        body = {"table": [["R1", "R2", "R3"], ["K7", "B7"]], "rack": ["R14", "X3", "R5"]}
        answer = client.post("/check", json=body)
        assert answer.status_code == 200 and answer.json() == check_json(body) and len(answer.json()["problems"]) == 3
        assert client.post("/check", json={"rack": ["R5"]}).json() == {"problems": []}
        assert client.post("/check", content=b"{").status_code == 400
        assert "/check" in client.get("/openapi.json").json()["paths"]
