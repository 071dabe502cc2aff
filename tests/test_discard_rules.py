"""The discard rule (``RuleSet(discard=True)``) in the rules, the referee, the solver and JSON: a play
must leave a tile on the rack to discard."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.oracle import optimum
from rummisolve import Position, RuleSet, solve, verify
from rummisolve.errors import RuleSetError
from rummisolve.jsonio import rules_from_json, rules_to_json
from rummisolve.referee import REASONS
from rummisolve.rules import STANDARD, XP
from rummisolve.service import solve_json, verify_json
from tests.support.soundness import assert_sound
from tests.support.strategies import positions

DISCARD = STANDARD.replace(discard=True)


def _pos(table, rack, opened=True, rules=DISCARD) -> Position:
    return Position.from_notation(table, rack, opened, rules)


# -- the option ------------------------------------------------------------------------------------


def test_the_option_defaults_off_validates_and_round_trips_through_json():
    assert RuleSet().discard is False
    assert RuleSet(discard=True).discard is True
    with pytest.raises(RuleSetError, match="'discard' must be true or false, not 1"):
        RuleSet(discard=1)
    assert rules_to_json(DISCARD) == {"discard": True}
    assert rules_from_json({"discard": True}) == DISCARD
    assert rules_from_json({"preset": "xp", "discard": True}) == XP.replace(discard=True)
    assert DISCARD != STANDARD and hash(DISCARD) != hash(STANDARD)


# -- the referee -----------------------------------------------------------------------------------


def test_the_referee_rejects_a_play_that_leaves_no_tile_to_discard():
    assert "no_tile_to_discard" in REASONS
    position = _pos(["R1 R2 R3"], "R4")
    verdict = verify(position, ["R1 R2 R3 R4"])
    assert not verdict and verdict.codes == ("no_tile_to_discard",)
    assert "leaving none to discard" in verdict.reasons[0].message
    # the same play is legal without the option, and a play that keeps a tile is legal with it
    assert verify(_pos(["R1 R2 R3"], "R4", rules=STANDARD), ["R1 R2 R3 R4"])
    assert verify(_pos(["R1 R2 R3"], "R4 K9"), ["R1 R2 R3 R4"])


def test_no_tile_to_discard_also_applies_to_openings_and_joins_other_reasons():
    opening = _pos([], "K10 B10 O10", opened=False)
    assert verify(opening, ["K10 B10 O10"]).codes == ("no_tile_to_discard",)
    assert verify(_pos([], "K10 B10 O10 R10", opened=False), ["K10 B10 O10"])
    low = _pos([], "K1 B1 O1", opened=False)
    assert verify(low, ["K1 B1 O1"]).codes == ("no_tile_to_discard", "opening_below_threshold")
    # nothing played is no_tile_played only
    assert verify(_pos(["R1 R2 R3"], "R4"), ["R1 R2 R3"]).codes == ("no_tile_played",)


def test_verify_json_reports_the_new_reason():
    body = {"position": {"rules": {"discard": True}, "table": [["R1", "R2", "R3"]], "rack": ["R4"], "opened": True}}
    result = verify_json({**body, "table": [["R1", "R2", "R3", "R4"]]})
    assert result["legal"] is False and [r["code"] for r in result["reasons"]] == ["no_tile_to_discard"]


# -- the solver ------------------------------------------------------------------------------------


def test_hand_worked_position_whose_best_move_changes_with_the_option():
    # Table R1 R2 R3 R4, rack R5 K9 B9 O9: normally every tile goes (R5 on the run, the group of
    # nines) and the player is out. Under the discard rule one tile must stay: the group of nines
    # (3 tiles, 27 points) beats R5 alone, and R5 stays to be discarded.
    table, rack = ["R1 R2 R3 R4"], "R5 K9 B9 O9"
    for objective, normal_value in (("tiles", 32), ("value", 32)):
        normal = solve(_pos(table, rack, rules=STANDARD), objective)
        assert len(normal.played) == 4 and normal.value == normal_value
        best = solve(_pos(table, rack), objective)
        assert best.status == "optimal"
        assert [str(t) for t in best.played] == ["K9", "B9", "O9"] and best.value == 27
        assert [str(t) for t in best.rack_after] == ["R5"]
    # value and tiles disagree once the rule binds: R5 R6 R7 R8 on an empty table
    assert [str(t) for t in solve(_pos([], "R5 R6 R7 R8"), "value").played] == ["R6", "R7", "R8"]


def test_a_rack_of_one_tile_or_a_whole_meld_has_no_move_under_the_option():
    assert solve(_pos(["R1 R2 R3"], "R4")).status == "no_move"
    assert solve(_pos([], "R1 R2 R3")).status == "no_move"
    assert solve(_pos([], "K10 B10 O10", opened=False)).status == "no_move"
    assert solve(_pos([], "K10 B10 O10", opened=False, rules=DISCARD.replace(open_then_manipulate=True))).status == (
        "no_move"
    )
    assert solve(_pos([], "R1 R2 R3", rules=STANDARD)).status == "optimal"


def test_solve_json_takes_the_option():
    body = {"rules": {"discard": True}, "table": [["R1", "R2", "R3", "R4"]], "rack": ["R5", "K9", "B9", "O9"]}
    result = solve_json({**body, "opened": True})
    assert result["status"] == "optimal" and sorted(result["played"]) == ["B9", "K9", "O9"]
    assert result["tiles_played"] == 3 and json.loads(json.dumps(result))["value"] == 27


_DISCARD_RULES = st.sampled_from(
    [
        DISCARD,
        DISCARD.replace(open_then_manipulate=True),
        DISCARD.replace(initial_threshold=0),
        DISCARD.replace(joker_retrieval="strict"),
        DISCARD.replace(joker_in_initial_meld=False),
        XP.replace(discard=True),
        RuleSet(colours=3, numbers=7, copies=1, jokers=1, rack_size=6, initial_threshold=10, discard=True),
    ]
)


@settings(max_examples=150, deadline=None)
@given(positions(_DISCARD_RULES, max_melds=6, max_rack=8), st.sampled_from(["tiles", "value"]))
def test_property_no_answer_empties_the_rack_and_the_rule_costs_only_where_it_binds(position, objective):
    solution = solve(position, objective)
    assert_sound(position, solution, objective)  # refereed again, with the discard rule
    if solution:
        assert len(solution.rack_after) >= 1
    normal = solve(Position(position.table, position.rack, position.opened, position.rules.replace(discard=False)))
    if objective == "tiles":
        if len(normal.played) < len(position.rack):  # the normal best keeps a tile: it is still allowed
            assert len(solution.played) == len(normal.played)
        else:
            assert len(solution.played) <= max(len(position.rack) - 1, 0)


@pytest.mark.parametrize("rules", [DISCARD, DISCARD.replace(open_then_manipulate=True), XP.replace(discard=True)])
def test_solver_matches_the_oracle_where_the_rule_binds(rules):
    # Racks that can be played out completely under the normal rules: the discard rule binds on each.
    cases = [
        (["R1 R2 R3 R4"], "R5 K9 B9 O9", True),
        ([], "R5 R6 R7 R8", True),
        ([], "K10 B10 O10 R10 R11 R12", False),
        (["K1 K2 K3", "B7 O7 R7"], "K4 K7 J", True),
        (["K1 K2 K3", "B7 O7 R7"], "K4 K5 K7 J", True),
        ([], "K11 K12 K13 J", False),
        (["R4 R5 R6 J"], "R8 R9", True),
        ([], "R1 R2 R3", True),
    ]
    for table, rack, opened in cases:
        position = _pos(table, rack, opened, rules)
        for objective in ("tiles", "value"):
            expected = optimum(position, objective)
            solution = solve(position, objective)
            assert_sound(position, solution, objective)
            got = None if not solution else (len(solution.played) if objective == "tiles" else solution.value)
            assert got == expected, (table, rack, opened, objective)
