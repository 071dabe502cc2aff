"""``solution_from_json``, the inverse of ``solution_to_json`` (docs/json-contract.md, "Decoding a result")."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from rummisolve.errors import InvalidMeldError, JsonInputError, RuleSetError, RummisolveError
from rummisolve.jsonio import position_to_json, solution_from_json, solution_to_json
from rummisolve.melds import Meld, MeldKind
from rummisolve.position import Position
from rummisolve.rules import STANDARD, TWIST, XP, RuleSet
from rummisolve.service import solve_json
from rummisolve.solution import Solution, Status
from rummisolve.solver import solve
from rummisolve.tiles import Tile
from tests.support.strategies import positions

T = Tile.parse

MOVE = Position.from_notation(["R1 R2 R3", "K7 B7 O7"], "R4 J")
NO_MOVE = Position.from_notation(["R1 R2 R3", "O4 J O6"], "K9 B2")
OPENING = Position.from_notation([], "K10 B10 J R4", opened=False)
TWIST_MOVE = Position.from_notation(["R2 JD R5"], "JC B8 B9 R6 K1", rules=TWIST)
WRAP_VALUE = Position.from_notation(["R11 R12 R13"], "R1 B5", rules=XP.replace(wraparound=True))
DISCARD = Position.from_notation(["R1 R2 R3 R4"], "R5 K9 B9 O9", rules=RuleSet(discard=True))
EXAMPLES = [MOVE, NO_MOVE, OPENING, TWIST_MOVE, WRAP_VALUE, DISCARD]


def _wire(obj):
    """``obj`` as a client would get it: through JSON text (tuples become arrays)."""
    return json.loads(json.dumps(obj))


def _assert_round_trips(solution: Solution) -> None:
    carried = _wire(solution_to_json(solution, position=True))
    back = solution_from_json(carried)
    assert back == solution
    assert [m.stands_for for m in back.table] == [m.stands_for for m in solution.table]
    assert [m.kind for m in back.table] == [m.kind for m in solution.table]
    assert back.timings == {name: round(seconds, 6) for name, seconds in solution.timings.items()}
    assert json.dumps(solution_to_json(back, position=True)) == json.dumps(carried)
    plain = _wire(solution_to_json(solution))
    given = solution_from_json(plain, solution.position)
    assert given == solution and json.dumps(solution_to_json(given)) == json.dumps(plain)


# -- round trips -------------------------------------------------------------------------------


@pytest.mark.parametrize("position", EXAMPLES, ids=lambda p: str(p).replace("\n", " | "))
@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_solved_examples_round_trip(position, objective):
    _assert_round_trips(solve(position, objective))


def test_every_field_of_a_move_is_decoded():
    solution = solve(MOVE)
    back = solution_from_json(solution_to_json(solution), MOVE)
    assert back.status is Status.OPTIMAL and back.proven
    assert back.played == (T("R4"), T("J")) and back.tiles_played == 2
    assert [str(m) for m in back.table] == ["K7 B7 O7", "R1 R2 R3 R4 J"]
    assert back.value == 34 and str(back.objective) == "tiles"
    assert back.kept == (1,) and back.position is MOVE
    assert back.jokers == ((1, 4, T("R5")),) and back.rack_after == ()
    assert set(back.timings) == {"build", "solve", "decode", "verify"}
    assert back.alternatives == ()


def test_without_timings_the_decoded_solution_has_none_and_is_still_equal():
    solution = solve(MOVE)
    back = solution_from_json(solution_to_json(solution, timings=False), MOVE)
    assert back == solution and back.timings == {} and solution.timings  # timings are not compared
    assert "timings" not in solution_to_json(back, timings=False)


def test_a_result_alone_does_not_decode_it_names_the_position():
    with pytest.raises(JsonInputError, match=r"^position: missing: .*position=True"):
        solution_from_json(solution_to_json(solve(MOVE)))


def test_the_position_field_decodes_as_a_position_and_takes_the_results_rules():
    solution = solve(TWIST_MOVE)
    obj = solution_to_json(solution, position=True)
    assert obj["position"] == position_to_json(TWIST_MOVE)
    del obj["position"]["rules"]  # the result's own rules stand for the position's
    assert solution_from_json(obj) == solution
    assert solution_from_json(obj, TWIST_MOVE) == solution  # both given: they agree


def test_a_solve_json_answer_decodes_with_its_alternatives_and_extras_ignored():
    body = {
        "table": [["R1", "R2", "R3"], ["K7", "B7", "O7", "R7"]],
        "rack": ["R4", "R5", "R6", "K8", "K9", "B8", "B9"],
        "alternatives": 2,
        "explain": True,
        "id": 7,
    }
    answer = solve_json(body)
    position = Position.from_notation(["R1 R2 R3", "K7 B7 O7 R7"], "R4 R5 R6 K8 K9 B8 B9")
    back = solution_from_json(answer, position)
    assert solution_to_json(back) == {k: answer[k] for k in solution_to_json(back)}
    assert set(back.timings) >= {"parse", "encode", "total", "explain"}
    assert len(back.alternatives) == len(answer["alternatives"]) > 0
    for move, encoded in zip(back.alternatives, answer["alternatives"]):
        assert move.position is position
        assert solution_to_json(move, timings=False) == {k: encoded[k] for k in solution_to_json(move, timings=False)}


# -- joker readings ------------------------------------------------------------------------------


def _group_joker_result() -> tuple[dict, Position]:
    """A move laying ``K7 B7 J``, whose joker the encoder names as the first missing colour ``O7``."""
    position = Position.from_notation([], "K7 B7 J R1")
    solution = Solution("optimal", (T("K7"), T("B7"), T("J")), (Meld.parse("K7 B7 J"),), 44, "tiles", position)
    obj = solution_to_json(solution, timings=False)
    assert obj["jokers"] == [{"meld": 0, "slot": 2, "stands_for": "O7"}]
    return obj, position


def test_a_group_joker_keeps_the_colour_its_entry_names():
    obj, position = _group_joker_result()
    obj["jokers"][0]["stands_for"] = "R7"
    back = solution_from_json(obj, position)
    assert back.table[0].represents == (T("K7"), T("B7"), T("R7")) and back.jokers == ((0, 2, T("R7")),)
    assert solution_to_json(back, timings=False) == obj
    assert back != solution_from_json(_group_joker_result()[0], position)


def test_a_meld_valid_both_ways_keeps_the_reading_its_entries_name():
    position = Position.from_notation([], "R5 J J K1", opened=True)
    run = Meld.parse("R5 J J")
    assert run.kind is MeldKind.RUN
    solution = Solution("optimal", (T("R5"), T("J"), T("J")), (run,), 65, "tiles", position)
    obj = solution_to_json(solution, timings=False)
    obj["jokers"] = [{"meld": 0, "slot": 1, "stands_for": "K5"}, {"meld": 0, "slot": 2, "stands_for": "B5"}]
    back = solution_from_json(obj, position)
    assert back.table[0].kind is MeldKind.GROUP and back.table[0].value == 15
    assert solution_to_json(back, timings=False) == obj


def test_a_double_joker_in_a_group_keeps_its_two_colours():
    rules = RuleSet.from_dict({"preset": "twist", "colours": 5})
    position = Position.from_notation([], "R7 K7 JD B1", rules=rules)
    meld = Meld.parse("R7 K7 JD", rules)
    solution = Solution("optimal", tuple(sorted(meld.tiles)), (meld,), 44, "tiles", position)
    obj = solution_to_json(solution, timings=False)
    assert obj["jokers"][0]["stands_for"] == ["B7", "O7"]
    obj["jokers"][0]["stands_for"] = ["O7", "G7"]
    back = solution_from_json(obj, position)
    assert back.table[0].jokers == ((2, (T("O7"), T("G7"))),) and back != solution
    assert solution_to_json(back, timings=False) == obj


def test_joker_entries_in_any_order_and_a_result_without_jokers_decode():
    solution = solve(TWIST_MOVE)
    obj = solution_to_json(solution)
    assert len(obj["jokers"]) >= 2
    assert solution_from_json({**obj, "jokers": obj["jokers"][::-1]}, TWIST_MOVE) == solution
    del obj["jokers"]  # then each meld is read as inferred
    assert solution_from_json(obj, TWIST_MOVE) == solution


# -- errors, one per field ---------------------------------------------------------------------


def _move() -> dict:
    return solution_to_json(solve(MOVE))


def _twist() -> dict:
    return solution_to_json(solve(TWIST_MOVE))


def _changed(obj: dict, path: tuple, value) -> dict:
    obj = copy.deepcopy(obj)
    *parents, last = path
    target = obj
    for key in parents:
        target = target[key]
    if value is _DELETE:
        del target[last]
    else:
        target[last] = value
    return obj


_DELETE = object()

BAD_FIELDS = [
    # (result, position, path to change, new value, error class, message pattern)
    (_move, MOVE, ("status",), "won", JsonInputError, r"^status: expected one of 'optimal'.*got 'won'"),
    (_move, MOVE, ("status",), _DELETE, JsonInputError, r"^status: expected one of .*got None"),
    (_move, MOVE, ("table",), _DELETE, JsonInputError, r"^result: missing field\(s\) 'table'"),
    (_move, MOVE, ("kept",), _DELETE, JsonInputError, r"^result: missing field\(s\) 'kept'"),
    (_move, MOVE, ("rules",), "xp", RuleSetError, r"^rules: the result's rules \(\"xp\"\) differ from its position's"),
    (_move, MOVE, ("rules",), "deluxe", RuleSetError, r"^rules: unknown rules preset 'deluxe'"),
    (_move, MOVE, ("table", 1, 0), "X1", RummisolveError, r"^table\[1\]\[0\]: unknown tile code 'X1'"),
    (_move, MOVE, ("table", 0), ["K7", "B7"], InvalidMeldError, r"^table\[0\]: invalid meld 'K7 B7'"),
    (_move, MOVE, ("table",), "R1 R2 R3", JsonInputError, r"^table: expected an array of melds, got string"),
    (_move, MOVE, ("played",), ["J"], JsonInputError, r"^played: J, but the table takes R4 J from the rack"),
    (_move, MOVE, ("played",), [7], JsonInputError, r"^played\[0\]: expected a tile code string, got number"),
    (_move, MOVE, ("value",), 33, JsonInputError, r"^value: expected 34 for this move, got 33"),
    (_move, MOVE, ("value",), "34", JsonInputError, r"^value: expected an integer number of points, got string"),
    (_move, MOVE, ("tiles_played",), 3, JsonInputError, r"^tiles_played: expected 2 for this move, got 3"),
    (_move, MOVE, ("tiles_played",), True, JsonInputError, r"^tiles_played: expected 2 for this move, got True"),
    (_move, MOVE, ("proven",), False, JsonInputError, r"^proven: expected true for this move, got False"),
    (_move, MOVE, ("objective",), "points", JsonInputError, r"^objective: expected one of 'tiles', 'value'"),
    (_move, MOVE, ("kept",), [0], JsonInputError, r"^kept\[0\]: table\[0\] \(K7 B7 O7\) is not the position's meld 0"),
    (_move, MOVE, ("kept",), [5], JsonInputError, r"^kept\[0\]: the position's table has no meld 5"),
    (_move, MOVE, ("kept",), "1", JsonInputError, r"^kept: expected a list of at most 2 distinct meld indices"),
    (_move, MOVE, ("rack_after",), ["R4"], JsonInputError, r"^rack_after: the position's rack less the tiles"),
    (_move, MOVE, ("timings",), [], JsonInputError, r"^timings: expected an object of seconds by stage, got array"),
    (_move, MOVE, ("timings", "solve"), "fast", JsonInputError, r"^timings\.solve: expected a number of seconds"),
    (_move, MOVE, ("timings", "solve"), -1, JsonInputError, r"^timings\.solve: expected a number of seconds, got -1"),
    (_move, MOVE, ("timings", "solve"), 10**400, JsonInputError, r"^timings\.solve: expected a number of seconds"),
    (_move, MOVE, ("timings", "solve"), float("nan"), JsonInputError, r"^timings\.solve: expected a number of seconds"),
    (_move, MOVE, ("alternatives",), {}, JsonInputError, r"^alternatives: expected an array of results, got object"),
    (_move, MOVE, ("alternatives",), [{"status": "optimal"}], JsonInputError, r"^alternatives\[0\]: missing field"),
    (_move, MOVE, ("jokers",), {}, JsonInputError, r"^jokers: expected an array of joker entries, got object"),
    (_move, MOVE, ("jokers", 0), "R5", JsonInputError, r"^jokers\[0\]: expected an object with 'meld'"),
    (_move, MOVE, ("jokers", 0, "slot"), 3, JsonInputError, r"^jokers\[0\]: table\[1\]\[3\] holds no joker"),
    (_move, MOVE, ("jokers", 0, "meld"), True, JsonInputError, r"^jokers\[0\]: table\[True\]\[4\] holds no joker"),
    (_move, MOVE, ("jokers", 0, "meld"), 1.0, JsonInputError, r"^jokers\[0\]: table\[1\.0\]\[4\] holds no joker"),
    (_move, MOVE, ("jokers", 0, "meld"), [1], JsonInputError, r"^jokers\[0\]: table\[\[1\]\]\[4\] holds no joker"),
    (_move, MOVE, ("jokers", 0, "joker"), "JD", JsonInputError, r"^jokers\[0\]\.joker: table\[1\]\[4\] is J, got 'JD'"),
    (_move, MOVE, ("jokers", 0, "stands_for"), _DELETE, JsonInputError, r"^jokers\[0\]: missing field 'stands_for'"),
    (_move, MOVE, ("jokers", 0, "stands_for"), 5, JsonInputError, r"^jokers\[0\]\.stands_for: expected a tile code"),
    (_move, MOVE, ("jokers", 0, "stands_for"), "R6", InvalidMeldError, r"^jokers\[0\]\.stands_for: meld 'R1 R2"),
    (_move, MOVE, ("jokers", 0, "stands_for"), "R14", RummisolveError, r"^jokers\[0\]\.stands_for: tile 'R14'"),
    (_move, MOVE, ("jokers",), [], JsonInputError, r"^jokers: no entry for the joker table\[1\]\[4\]"),
    (_twist, TWIST_MOVE, ("jokers", 0, "stands_for"), "R3", JsonInputError, r"^jokers\[0\]\.stands_for: expected the"),
]


@pytest.mark.parametrize(
    ("make", "position", "path", "value", "error", "pattern"), BAD_FIELDS, ids=[str(c[2]) for c in BAD_FIELDS]
)
def test_each_bad_field_is_an_error_naming_it(make, position, path, value, error, pattern):
    with pytest.raises(error, match=pattern) as info:
        solution_from_json(_changed(make(), path, value), position)
    assert isinstance(info.value, RummisolveError) and isinstance(info.value, ValueError)


def test_an_illegal_move_is_an_error_with_the_referees_reasons():
    obj = {**_move(), "table": [["K7", "B7", "O7"], ["R2", "R3", "R4", "J"]]}
    obj["jokers"] = [{"meld": 1, "slot": 3, "stands_for": "R5"}]
    with pytest.raises(JsonInputError, match=r"^table: not a legal turn from the position: .*R1"):
        solution_from_json(obj, MOVE)


def test_a_bad_reading_keeps_the_meld_reason():
    with pytest.raises(InvalidMeldError) as info:
        solution_from_json(_changed(_move(), ("jokers", 0, "stands_for"), "K5"), MOVE)
    assert info.value.reason == "bad_stands_for"


def test_a_second_entry_for_a_joker_is_an_error():
    obj = _move()
    obj["jokers"].append(dict(obj["jokers"][0]))
    with pytest.raises(JsonInputError, match=r"^jokers\[1\]: a second entry for table\[1\]\[4\]"):
        solution_from_json(obj, MOVE)


def test_special_joker_stands_for_shapes():
    obj = _twist()
    by_joker = {entry.get("joker", "J"): k for k, entry in enumerate(obj["jokers"])}
    bad = {"JD": "R3", "JC": True, "JM": 0}
    for joker, k in by_joker.items():
        if joker in bad:
            with pytest.raises(JsonInputError, match=rf"^jokers\[{k}\]\.stands_for: expected "):
                solution_from_json(_changed(obj, ("jokers", k, "stands_for"), bad[joker]), TWIST_MOVE)


def test_results_without_a_move_keep_the_table_and_play_nothing():
    obj = solution_to_json(solve(NO_MOVE))
    assert obj["status"] == "no_move"
    with pytest.raises(JsonInputError, match=r"^table: a no_move result's table is its position's, unchanged"):
        jokers = [{"meld": 0, "slot": 1, "stands_for": "O5"}]
        solution_from_json({**obj, "table": obj["table"][::-1], "jokers": jokers, "kept": []}, NO_MOVE)
    changed = _changed(_changed(obj, ("played",), ["K9"]), ("value",), 9)
    with pytest.raises(JsonInputError, match=r"^played: a no_move result plays nothing, got K9"):
        solution_from_json(changed, NO_MOVE)
    unknown = {**obj, "status": "unknown", "proven": False}
    assert solution_from_json(unknown, NO_MOVE).status is Status.UNKNOWN


def test_shapes_that_are_no_result():
    with pytest.raises(JsonInputError, match=r"^result: expected a result object, got array"):
        solution_from_json([], MOVE)
    with pytest.raises(JsonInputError, match=r"^status: an error result holds no solution \(position: bad\)"):
        solution_from_json({"status": "error", "error": "position: bad"}, MOVE)
    with pytest.raises(JsonInputError, match=r"^position: expected an object, got string"):
        solution_from_json({**_move(), "position": "R1 R2 R3"})
    other = position_to_json(NO_MOVE)
    with pytest.raises(JsonInputError, match=r"^position: not the position given"):
        solution_from_json({**_move(), "position": other}, MOVE)


def test_paths_nest_for_alternatives():
    alternative = _changed(_move(), ("value",), 1)
    with pytest.raises(JsonInputError, match=r"^alternatives\[0\]\.value: expected 34 for this move, got 1"):
        solution_from_json({**_move(), "alternatives": [alternative]}, MOVE)


# -- the property: solver answers round-trip ---------------------------------------------------------

RULES = [
    STANDARD,
    XP,
    STANDARD.replace(wraparound=True),
    STANDARD.replace(joker_retrieval="strict"),
    STANDARD.replace(open_then_manipulate=True),
    RuleSet(discard=True),
    TWIST,
]
SPECIAL_JOKERS = [T("JD"), T("JC"), T("JM")]


@st.composite
def twist_positions(draw) -> Position:
    """A Twist position whose rack holds some special jokers (the table's melds have regular ones only)."""
    position = draw(positions(rules=TWIST, max_melds=5, max_rack=8, opened=draw(st.sampled_from([True, None]))))
    extra = draw(st.lists(st.sampled_from(SPECIAL_JOKERS), min_size=1, max_size=3))
    rack = list(position.rack)
    for joker in extra:
        if rack.count(joker) < TWIST.copies_of(joker):
            rack.append(joker)
    return Position(position.table, tuple(rack), position.opened, TWIST)


@settings(max_examples=60)
@given(
    position=st.one_of(
        positions(rules=st.sampled_from(RULES), max_melds=6, max_rack=14, opened=True),
        positions(rules=st.sampled_from(RULES), max_melds=6, max_rack=10),
        twist_positions(),
    ),
    objective=st.sampled_from(["tiles", "value"]),
)
def test_property_solver_answers_round_trip(position, objective):
    solution = solve(position, objective)
    event(f"status {solution.status}")
    for meld in solution.new_melds:
        jokers = "special jokers" if meld.special_joker_count else "jokers" if meld.joker_count else "no joker"
        event(f"a new {meld.kind.value} with {jokers}")
    _assert_round_trips(solution)


def test_an_initial_meld_says_what_it_is_worth_beside_the_points_it_sheds():
    # Issue 50: "worth 50" for K10 B10 J counted the joker's 30-point penalty; as an opening it counts 10.
    position = Position.from_notation([], "K10 B10 J R2", opened=False)
    solution = solve(position)
    assert (solution.value, solution.initial_meld_value) == (50, 30)
    assert "worth 50 (a joker counts 30)" in str(solution)
    assert "initial meld: worth 30 (a joker counts the number it stands for)" in str(solution)
    result = solution_to_json(solution)
    assert result["initial_meld_value"] == 30
    assert solution_from_json(result, position) == solution
    with pytest.raises(JsonInputError, match="initial_meld_value: expected 30 for this move, got 50"):
        solution_from_json({**result, "initial_meld_value": 50}, position)
    opened = solve(Position.from_notation([], "K10 B10 J R2"))
    assert opened.initial_meld_value is None and "initial_meld_value" not in solution_to_json(opened)
    loose = solve(Position.from_notation([], "K10 B10 J R2", opened=False, rules=RuleSet(open_then_manipulate=True)))
    assert loose.initial_meld_value is None  # the opening is some of the new melds: not said
