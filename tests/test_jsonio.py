"""The JSON codec for positions and rules, and the JSON / JSON Lines reader (docs/json-contract.md)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve.errors import (
    InvalidMeldError,
    JsonInputError,
    RuleSetError,
    RummisolveError,
    TileCountError,
    TileNotationError,
    TileRangeError,
)
from rummisolve.jsonio import (
    objective_from_json,
    position_from_json,
    position_to_json,
    read_documents,
    rules_from_json,
    rules_to_json,
    stream_documents,
    table_from_json,
    table_to_json,
    tiles_from_json,
)
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import STANDARD, XP, RuleSet
from rummisolve.tiles import parse_tiles
from tests.support.strategies import positions, rule_sets

# -- round trips ----------------------------------------------------------------------------


@settings(max_examples=100)
@given(positions())
def test_position_round_trip(p):
    obj = position_to_json(p)
    assert set(obj) == {"rules", "table", "rack", "opened"}
    text = json.dumps(obj)  # plain JSON types only
    back = position_from_json(json.loads(text))
    assert back == p
    assert back.rules == p.rules and back.opened == p.opened
    assert [m.kind for m in back.table] == [m.kind for m in p.table]


@settings(max_examples=150)
@given(rule_sets())
def test_rules_round_trip(rules):
    obj = rules_to_json(rules)
    assert rules_from_json(json.loads(json.dumps(obj))) == rules


def test_rules_to_json_presets_and_differences():
    assert rules_to_json(STANDARD) == "standard"
    assert rules_to_json(XP) == "xp"
    assert rules_to_json(RuleSet(wraparound=True, jokers=0)) == {"wraparound": True, "jokers": 0}
    assert rules_from_json(None) == STANDARD
    assert rules_from_json("XP") == XP
    assert rules_from_json({"preset": "xp", "copies": 2}) == XP.replace(copies=2)


def test_position_defaults():
    p = position_from_json({})
    assert p == Position((), ()) and p.opened is True and p.rules == STANDARD
    p = position_from_json({"table": [["R1", "R2", "R3"]], "rack": ["j"], "opened": False, "objective": "value"})
    assert p == Position.from_notation(["R1 R2 R3"], "J", opened=False)
    obj = position_to_json(Position.from_notation(["K7 O7 B7", "R4 J R6"], "Y2 R1"))
    assert obj == {
        "rules": "standard",
        "table": [["K7", "O7", "B7"], ["R4", "J", "R6"]],
        "rack": ["O2", "R1"],
        "opened": True,
    }


def test_table_and_tiles_helpers():
    assert table_from_json([["R1", "r2"], []]) == (parse_tiles("R1 R2"), ())
    assert table_to_json([Meld.parse("R1 R2 R3"), parse_tiles("K5 J")]) == [["R1", "R2", "R3"], ["K5", "J"]]
    assert tiles_from_json(["R14"], "rack") == parse_tiles("R14")  # no rules: any well-formed tile
    with pytest.raises(TileRangeError, match=r"^rack\[0\]: "):
        tiles_from_json(["R14"], "rack", STANDARD)
    with pytest.raises(JsonInputError, match=r"^table\[1\]: "):
        table_from_json([["R1"], "R2"])


def test_objective():
    assert objective_from_json(None) == "tiles"
    assert objective_from_json("tiles") == "tiles"
    assert objective_from_json("value") == "value"
    for bad in ("points", "Tiles", 1, ["tiles"], True):
        with pytest.raises(JsonInputError, match=r"^objective: "):
            objective_from_json(bad)


# -- bad input: the right error class, the path in the message ------------------------------

GOOD = {"rules": "standard", "table": [["R1", "R2", "R3"], ["K7", "B7", "O7"]], "rack": ["R4", "J"], "opened": True}


def with_changes(**changes):
    return {**GOOD, **changes}


BAD_POSITIONS = [
    ([1, 2], JsonInputError, "position: "),
    ("R1 R2 R3", JsonInputError, "position: "),
    (None, JsonInputError, "position: "),
    (with_changes(colour="red"), JsonInputError, "position: "),
    (with_changes(table="R1 R2 R3"), JsonInputError, "position.table: "),
    (with_changes(table={"0": ["R1"]}), JsonInputError, "position.table: "),
    (with_changes(table=[["R1", "R2", "R3"], "K7 B7 O7"]), JsonInputError, "position.table[1]: "),
    (with_changes(table=[["R1", "R2", "R3"], ["K7", "B7", 7]]), JsonInputError, "position.table[1][2]: "),
    (with_changes(table=[["R1", "R2", "R3"], ["K7", "B7", None]]), JsonInputError, "position.table[1][2]: "),
    (with_changes(table=[["R1", "R2", "R3"], ["K7", "B7", "X5"]]), TileNotationError, "position.table[1][2]: "),
    (with_changes(table=[["R1", "R2", "R3"], ["K7", "B7", "O14"]]), TileRangeError, "position.table[1][2]: "),
    (with_changes(table=[["R1", "R2", "R3"], ["K7", "B7", "G7"]]), TileRangeError, "position.table[1][2]: "),
    (with_changes(table=[["R1", "R2", "R3"], ["K7", "B7", "K8"]]), InvalidMeldError, "position.table[1]: "),
    (with_changes(table=[["R1", "R2", "R4"]]), InvalidMeldError, "position.table[0]: "),
    (with_changes(table=[["R12", "R13", "R1"]]), InvalidMeldError, "position.table[0]: "),
    (with_changes(rack="R4 J"), JsonInputError, "position.rack: "),
    (with_changes(rack=["R4", 5]), JsonInputError, "position.rack[1]: "),
    (with_changes(rack=["R4", "Z1"]), TileNotationError, "position.rack[1]: "),
    (with_changes(rack=["R4", "R0"]), TileNotationError, "position.rack[1]: "),
    (with_changes(rack=["R4", "B20"]), TileRangeError, "position.rack[1]: "),
    (with_changes(rack=["R1", "R1"]), TileCountError, "position: "),
    (with_changes(table=[["R1", "J", "R3"]], rack=["J", "J"]), TileCountError, "position: "),
    (with_changes(opened="yes"), JsonInputError, "position.opened: "),
    (with_changes(opened=1), JsonInputError, "position.opened: "),
    (with_changes(opened=None), JsonInputError, "position.opened: "),
    (with_changes(rules="expert"), RuleSetError, "position.rules: "),
    (with_changes(rules=7), JsonInputError, "position.rules: "),
    (with_changes(rules=["xp"]), JsonInputError, "position.rules: "),
    (with_changes(rules={"colors": 4}), RuleSetError, "position.rules: "),
    (with_changes(rules={"preset": "expert"}), RuleSetError, "position.rules: "),
    (with_changes(rules={"copies": 0}), RuleSetError, "position.rules: "),
    (with_changes(rules={"wraparound": "on"}), RuleSetError, "position.rules: "),
    (with_changes(rules={"copies": 1}, rack=["R1"]), TileCountError, "position: "),
    (with_changes(rules={"jokers": 0}), TileRangeError, "position.rack[1]: "),
]


@pytest.mark.parametrize("obj, error, prefix", BAD_POSITIONS)
def test_bad_position_error_class_and_path(obj, error, prefix):
    with pytest.raises(error) as info:
        position_from_json(obj)
    assert type(info.value) is error
    assert str(info.value).startswith(prefix), str(info.value)
    assert isinstance(info.value, RummisolveError) and isinstance(info.value, ValueError)


def test_messages_name_the_bad_part():
    cases = [
        (with_changes(table=[["R1", "R2", "R3"], ["K7", "B7", "X5"]]), "'X5'"),
        (with_changes(rack=["R4", "B20"]), "'B20'"),
        (with_changes(table=[["R1", "R2", "R4"]]), "'R1 R2 R4'"),
        (with_changes(rack=["R1", "R1"]), "R1"),
        (with_changes(rules="expert"), "'expert'"),
        (with_changes(rules={"colors": 4}), "'colors'"),
        (with_changes(rules={"copies": 0}), "'copies'"),
        (with_changes(colour="red"), "'colour'"),
        (with_changes(opened="yes"), "string"),
    ]
    for obj, needle in cases:
        with pytest.raises(RummisolveError) as info:
            position_from_json(obj)
        assert needle in str(info.value), (needle, str(info.value))


def test_invalid_meld_keeps_its_reason():
    with pytest.raises(InvalidMeldError) as info:
        position_from_json(with_changes(table=[["R1", "R2", "R3"], ["R12", "R13", "R1"]]))
    assert info.value.reason == "wrap_not_allowed"
    assert (
        position_from_json(with_changes(rules={"wraparound": True}, table=[["R12", "R13", "R1"]])).table[0].value == 26
    )


CORRUPTIONS = [
    ("X5", TileNotationError),
    ("", TileNotationError),
    ("R", TileNotationError),
    ("O99", TileRangeError),
    (7, JsonInputError),
    (None, JsonInputError),
    (["R1"], JsonInputError),
]


@settings(max_examples=80)
@given(positions().filter(lambda p: p.table or p.rack), st.data())
def test_corrupt_tile_names_its_path(p, data):
    obj = json.loads(json.dumps(position_to_json(p)))
    bad, error = data.draw(st.sampled_from(CORRUPTIONS))
    slots = [("table", i, j) for i, meld in enumerate(obj["table"]) for j in range(len(meld))]
    slots += [("rack", i, None) for i in range(len(obj["rack"]))]
    where, i, j = data.draw(st.sampled_from(slots))
    if where == "table":
        obj["table"][i][j] = bad
        path = f"input.table[{i}][{j}]: "
    else:
        obj["rack"][i] = bad
        path = f"input.rack[{i}]: "
    with pytest.raises(error) as info:
        position_from_json(obj, "input")
    assert type(info.value) is error
    assert str(info.value).startswith(path), str(info.value)


# -- read_documents -------------------------------------------------------------------------


def docs(text):
    return list(read_documents(text))


def test_read_single_objects():
    assert docs("") == []
    assert docs("  \n\n ") == []
    assert docs('{"a": 1}') == [{"a": 1}]
    assert docs('\n  {"a": 1}  \n') == [{"a": 1}]
    assert docs("5") == [5]
    assert docs("[1, 2]") == [[1, 2]]


def test_read_multi_line_object():
    obj = {"position": GOOD, "table": [["R1", "R2", "R3", "R4"], ["K7", "B7", "O7", "J"]]}
    assert docs(json.dumps(obj, indent=2)) == [obj]
    assert docs(json.dumps(obj, indent=2).replace("\n", "\r\n")) == [obj]


def test_read_json_lines():
    lines = [{"n": 1}, {"n": 2}, [3], "four"]
    text = "\n".join(json.dumps(x) for x in lines) + "\n"
    assert docs(text) == lines
    assert docs(text.replace("\n", "\r\n")) == lines


def test_read_json_lines_with_bad_lines():
    text = '{"n": 1}\n{"n": 2,\n\n   \n{"n": 4}\nnot json\n{"n": 6}'
    out = docs(text)
    assert len(out) == 5
    assert out[0] == {"n": 1}
    assert isinstance(out[1], JsonInputError) and str(out[1]).startswith("line 2: ")
    assert out[2] == {"n": 4}
    assert isinstance(out[3], JsonInputError) and str(out[3]).startswith("line 6: ")
    assert out[4] == {"n": 6}


def test_read_single_bad_document():
    out = docs("hello")
    assert len(out) == 1 and isinstance(out[0], JsonInputError) and str(out[0]).startswith("line 1: ")


# -- stream_documents: the same documents, read as the lines arrive -------------------------------


def _same(a, b):
    """Equal values, or errors of the same type and message."""
    if isinstance(a, Exception) or isinstance(b, Exception):
        return type(a) is type(b) and str(a) == str(b)
    return a == b


def _streamed(text):
    return list(stream_documents(text.splitlines(keepends=True)))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "  \n\n ",
        '{"a": 1}',
        '\n  {"a": 1}  \n',
        json.dumps({"position": {"rack": ["R1"]}, "table": [["R1", "R2", "R3"]]}, indent=2),
        '{"n": 1}\n{"n": 2,\n\n   \n{"n": 4}\nnot json\n{"n": 6}',
        "hello",
        '{"n": 1}\r\n{"n": 2}\r\n',
        '\n\n{"n": 1}\nnot json\n',
        "[1,\n2]\n",
        "[1,\n2]\n[3]\n",
    ],
)
def test_stream_reads_what_read_documents_reads(text):
    expected, got = docs(text), _streamed(text)
    assert len(got) == len(expected)
    assert all(_same(a, b) for a, b in zip(expected, got)), (expected, got)


_LINES = st.one_of(
    st.just(""),
    st.just("   "),
    st.builds(json.dumps, st.dictionaries(st.sampled_from("abc"), st.integers(-5, 5), max_size=2)),
    st.builds(json.dumps, st.lists(st.integers(0, 9), max_size=3)),
    st.sampled_from(["{", "}", "[1,", "2]", "not json", '{"a":', "1}", '"x"']),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=8), st.sampled_from(["\n", "\r\n"]))
def test_stream_matches_read_documents_on_any_lines(lines, newline):
    text = newline.join(lines) + (newline if lines else "")
    expected, got = docs(text), _streamed(text)
    assert len(got) == len(expected)
    assert all(_same(a, b) for a, b in zip(expected, got)), (text, expected, got)


def test_stream_answers_a_json_line_before_the_next_one_arrives():
    read = []

    def arriving():
        for line in ['{"n": 1}\n', '{"n": 2}\n']:
            read.append(line)
            yield line
        raise AssertionError("read past the lines the caller asked for")

    documents = stream_documents(arriving())
    assert next(documents) == {"n": 1}
    assert read == ['{"n": 1}\n']  # the second line has not been waited for
    assert next(documents) == {"n": 2}
