"""Tests for ``rummisolve.solve_json``: the JSON contract (docs/json-contract.md) and its error answers."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve import Position, solve, solve_json, verify
from rummisolve.jsonio import position_from_json, position_to_json
from tests.support.strategies import positions

CONTRACT = ("status", "played", "table", "value")


def answer(obj) -> dict:
    result = solve_json(obj)
    assert json.loads(json.dumps(result)) == result, "the result must be plain JSON"
    assert result["status"] in ("optimal", "feasible", "no_move", "unknown", "error")
    return result


def assert_legal(obj: dict, result: dict) -> None:
    """The answer, read back from JSON, is a legal turn for the position (referee called again)."""
    position = position_from_json({k: v for k, v in obj.items() if k not in ("objective", "time_limit")})
    assert all(key in result for key in CONTRACT)
    if result["status"] in ("no_move", "unknown"):  # no move to play: the old table, nothing played
        assert result["proven"] == (result["status"] == "no_move")
        assert result["played"] == [] and result["value"] == 0
        assert result["table"] == [[str(t) for t in m.tiles] for m in position.table]
        return
    verdict = verify(position, result["table"])
    assert verdict.legal, verdict.reasons
    assert sorted(str(t) for t in verdict.played) == sorted(result["played"])
    assert result["value"] == position.rules.rack_value(verdict.played)


def test_contract_fields_for_a_move():
    # R4 and the joker extend R1 R2 R3 (J = R5); K9 stays: 2 tiles, 4 + 30 = 34 points.
    obj = {"table": [["R1", "R2", "R3"]], "rack": ["R4", "K9", "J"]}
    result = answer(obj)
    assert result["status"] == "optimal"
    assert result["played"] == ["R4", "J"]
    assert result["table"] == [["R1", "R2", "R3", "R4", "J"]]
    assert result["value"] == 34
    assert result["objective"] == "tiles"
    assert result["jokers"] == [{"meld": 0, "slot": 4, "stands_for": "R5"}]
    assert result["kept"] == []
    assert {"build", "solve", "verify", "parse", "total"} <= set(result["timings"])
    assert_legal(obj, result)


@pytest.mark.parametrize(
    "rules,encoded",
    [
        (None, "standard"),
        ("xp", "xp"),
        ({"colours": 8}, {"colours": 8}),
        ({"preset": "xp", "jokers": 1}, {"copies": 3, "jokers": 1, "max_players": 6}),
    ],
)
def test_a_result_carries_its_rules_and_the_rack_left(rules, encoded):
    obj = {"table": [["R1", "R2", "R3"]], "rack": ["R4", "K9", "J", "B2"]}
    if rules is not None:
        obj["rules"] = rules
    result = answer(obj)
    assert result["rules"] == encoded
    assert position_from_json({**obj, "rules": result["rules"]}) == position_from_json(obj)
    assert result["played"] == ["R4", "J"]
    assert result["rack_after"] == ["K9", "B2"]  # sorted: colour (K B O R), then number


def test_no_move_keeps_the_whole_rack():
    result = answer({"table": [["K1", "K2", "K3"]], "rack": ["O9", "B7"]})
    assert result["status"] == "no_move" and result["rack_after"] == ["B7", "O9"] and result["rules"] == "standard"


def test_an_unknown_objective_lists_the_objectives_by_name():
    result = answer({"rack": ["R1"], "objective": "points"})
    assert result["error"] == "position.objective: expected one of 'tiles', 'value', got 'points'"


def test_defaults_are_standard_rules_opened_tiles():
    # opened defaults to true: R4 may extend the table run.
    result = answer({"table": [["R1", "R2", "R3"]], "rack": ["R4"]})
    assert result["status"] == "optimal" and result["played"] == ["R4"] and result["objective"] == "tiles"


def test_not_opened_and_rules_object():
    obj = {"rules": {"initial_threshold": 10}, "table": [["R1", "R2", "R3"]], "rack": ["R4", "K1", "K2", "K3", "K4"]}
    # Opening under threshold 10: K1 K2 K3 K4 = 10; R4 may not touch the table.
    result = answer({**obj, "opened": False})
    assert result["played"] == ["K1", "K2", "K3", "K4"] and result["kept"] == [0]
    assert result["table"][0] == ["R1", "R2", "R3"]
    assert_legal({**obj, "opened": False}, result)
    # Under the standard threshold (30) the same rack cannot open.
    assert answer({**obj, "rules": "standard", "opened": False})["status"] == "no_move"


def test_no_move_contract():
    obj = {"table": [["K1", "K2", "K3"]], "rack": ["B7", "O9"]}
    result = answer(obj)
    assert result["status"] == "no_move"
    assert result["played"] == [] and result["value"] == 0 and result["table"] == [["K1", "K2", "K3"]]
    assert_legal(obj, result)


def test_objective_field():
    # See test_solver: tiles plays B1 B2 B4 B5 (12 points), value plays B13 O13 (26 points).
    obj = {"table": [["K1", "K2", "K3", "J"]], "rack": ["B1", "B2", "B4", "B5", "B13", "O13"]}
    by_tiles = answer({**obj, "objective": "tiles"})
    by_value = answer({**obj, "objective": "value"})
    assert sorted(by_tiles["played"]) == sorted(["B1", "B2", "B4", "B5"]) and by_tiles["value"] == 12
    assert sorted(by_value["played"]) == sorted(["B13", "O13"]) and by_value["value"] == 26
    assert by_value["objective"] == "value"
    assert answer({**obj, "objective": None})["objective"] == "tiles"


def test_time_limit_field():
    obj = {"rack": ["K10", "B10", "O10"], "opened": False}
    assert answer({**obj, "time_limit": 60})["status"] == "optimal"  # a limit far above the solve: proven
    assert answer({**obj, "time_limit": 30.5})["played"] == ["K10", "B10", "O10"]
    assert answer({**obj, "time_limit": None})["status"] == "optimal"
    tiny = answer({**obj, "time_limit": 1e-9})
    assert tiny["status"] in ("optimal", "feasible", "unknown")  # there is a move: never "no_move"
    assert tiny["proven"] == (tiny["status"] == "optimal")
    assert_legal(obj, tiny)


def test_matches_solve():
    p = Position.from_notation(["B3 B4 B5", "K8 O8 R8 B8"], "B6 B7 J K9 K10 O4", opened=True)
    for objective in ("tiles", "value"):
        result = answer({**position_to_json(p), "objective": objective})
        s = solve(p, objective)
        assert result["played"] == [str(t) for t in s.played]
        assert result["table"] == [[str(t) for t in m.tiles] for m in s.table]
        assert result["value"] == s.value and result["status"] == s.status


@pytest.mark.parametrize(
    ("obj", "named"),
    [
        ({"rack": ["X5"]}, "position.rack[0]"),
        ({"rack": ["R14"]}, "position.rack[0]"),
        ({"rack": ["R1", "Q"]}, "position.rack[1]"),
        ({"table": [["R1", "R2", "R3"]], "rack": ["R1", "R1"]}, "R1"),
        ({"rack": ["J", "J", "J"]}, "jokers"),
        ({"table": [["R1", "R2"]], "rack": ["R3"]}, "position.table[0]"),
        ({"table": [["R1", "R2", "R3"], ["K5", "B6", "O7"]], "rack": []}, "position.table[1]"),
        ({"table": [["R12", "R13", "R1"]], "rack": []}, "position.table[0]"),
        ({"table": [["J", "J", "J"]], "rack": [], "rules": "xp"}, "position.table[0]"),
        ({"rules": "nope", "rack": ["R1"]}, "position.rules"),
        ({"rules": {"colors": 5}, "rack": ["R1"]}, "colors"),
        ({"rules": {"colours": "five"}, "rack": ["R1"]}, "colours"),
        ({"rules": {"colours": 100}, "rack": ["R1"]}, "colours"),
        ({"rules": 5, "rack": ["R1"]}, "position.rules"),
        ({"rules": {"jokers": 0}, "rack": ["J"]}, "position.rack[0]"),
        ({"rack": "R1 R2"}, "position.rack"),
        ({"rack": [1, 2]}, "position.rack[0]"),
        ({"table": "R1 R2 R3"}, "position.table"),
        ({"table": [["R1", "R2", "R3"], "R4"]}, "position.table[1]"),
        ({"opened": "yes", "rack": ["R1"]}, "position.opened"),
        ({"objective": "points", "rack": ["R1"]}, "position.objective"),
        ({"objective": 1, "rack": ["R1"]}, "position.objective"),
        ({"time_limit": -1, "rack": ["R1"]}, "position.time_limit"),
        ({"time_limit": 0, "rack": ["R1"]}, "position.time_limit"),
        ({"time_limit": "5", "rack": ["R1"]}, "position.time_limit"),
        ({"time_limit": True, "rack": ["R1"]}, "position.time_limit"),
        ({"time_limit": float("nan"), "rack": ["R1"]}, "position.time_limit"),
        ({"unknown": 1, "rack": ["R1"]}, "unknown"),
        ([1, 2], "position"),
        ("R1 R2 R3", "position"),
        (None, "position"),
        (7, "position"),
    ],
)
def test_errors_name_the_bad_part(obj, named):
    result = answer(obj)
    assert result["status"] == "error"
    assert isinstance(result["error"], str) and named in result["error"]
    assert "Traceback" not in result["error"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.floats(allow_nan=True) | st.text(max_size=4),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150)
@given(
    base=positions(max_melds=4, max_rack=8),
    key=st.sampled_from(["rules", "table", "rack", "opened", "objective", "time_limit", "extra"]),
    junk=json_values,
)
def test_never_raises_on_garbled_input(base, key, junk):
    obj = position_to_json(base)
    obj[key] = junk
    result = answer(obj)
    if result["status"] == "error":
        assert result["error"]
    else:
        assert_legal(obj, result)


@settings(max_examples=60)
@given(p=positions(max_melds=6), objective=st.sampled_from(["tiles", "value"]))
def test_round_trip_positions_are_answered_legally(p, objective):
    from rummisolve.solver_limits import unsupported_position

    obj = {**position_to_json(p), "objective": objective}
    result = answer(obj)
    if unsupported_position(p) is not None:  # more jokers in play than the model can place
        assert result["status"] == "error" and "the solver supports at most" in result["error"], result
        return
    assert result["status"] != "error", result
    assert result["objective"] == objective
    assert_legal(obj, result)


@pytest.mark.parametrize("depth", [50, 990, 5000])
def test_absurdly_nested_values_get_a_short_error_naming_the_part(depth):
    import sys

    nested = json.loads("[" * depth + "]" * depth) if depth < sys.getrecursionlimit() - 50 else None
    if nested is None:  # deeper than Python's parser goes: build it by hand
        nested = []
        for _ in range(depth):
            nested = [nested]
    result = solve_json({"rules": {"colours": nested}, "rack": ["R1"]})
    assert result["status"] == "error"
    assert len(result["error"]) <= 500
    assert result["error"].startswith("position.rules") or result["error"] == "JSON nested too deeply"


def test_an_id_comes_back_on_its_result_and_other_unknown_fields_are_still_refused():
    for ident in ("game-7", 7, None, {"batch": 3, "row": [1, 2]}):
        result = solve_json({"id": ident, "table": [["R1", "R2", "R3"]], "rack": ["R4"]})
        assert next(iter(result)) == "id" and result["id"] == ident and result["status"] == "optimal"
    bad = solve_json({"id": "x1", "rack": ["X9"]})
    assert bad["id"] == "x1" and bad["status"] == "error" and "position.rack[0]" in bad["error"]
    refused = solve_json({"id": "x2", "rack": ["R1"], "optimum": 3})
    assert refused["id"] == "x2" and refused["status"] == "error" and "'optimum'" in refused["error"]
    from rummisolve.service import verify_json

    verdict = verify_json(
        {"id": 5, "position": {"table": [["R1", "R2", "R3"]], "rack": ["R4"]}, "table": [["R1", "R2", "R3", "R4"]]}
    )
    assert verdict == {"id": 5, "legal": True, "reasons": [], "played": ["R4"]}


def test_an_unknown_field_is_named_with_every_field_a_solve_takes():
    error = solve_json({"rack": ["R1"], "colour": "red"})["error"]
    assert error.startswith("position: unknown field(s) 'colour'")
    for name in ("objective", "opened", "rack", "rules", "table", "time_limit", "id", "explain", "alternatives"):
        assert name in error
    for name in ("alternatives_mode", "hint", "dice", "reroll", "reroll_max_solves", "reroll_time_limit"):
        assert name in error
        request = {"rack": ["R1"], name: None}
        assert "unknown field" not in solve_json(request).get("error", "")  # each one a solve does take
