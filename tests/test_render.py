"""The SVG renderer: well-formed pictures holding exactly the right tiles, in order and colour."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve import Meld, Position, Tile, solve, solve_json
from rummisolve.errors import InvalidMeldError, JsonInputError, RummisolveError
from rummisolve.jsonio import position_from_json, position_to_json
from rummisolve.render import TILE_COLOURS, render_svg
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.service import render_json
from tests.strategies import positions

SVG = "{http://www.w3.org/2000/svg}"
TRANSLATE = re.compile(r"translate\(([-\d.]+),([-\d.]+)\)")


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def tile_elements(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if "tile" in g.get("class", "").split()]


def drawn_tiles(root: ET.Element) -> list[str]:
    return [g.get("data-tile") for g in tile_elements(root)]


def played_tiles(root: ET.Element) -> list[str]:
    return [g.get("data-tile") for g in tile_elements(root) if "played" in g.get("class", "").split()]


def melds_drawn(root: ET.Element) -> list[list[str]]:
    melds = [g for g in root.iter(f"{SVG}g") if "meld" in g.get("class", "").split()]
    return [[t.get("data-tile") for t in tile_elements(m)] for m in melds]


def expected_order(position: Position) -> list[str]:
    return [str(t) for m in position.table for t in m.tiles] + [str(t) for t in position.rack]


# -- positions ----------------------------------------------------------------------------------


def test_position_draws_table_then_rack_with_colours_and_joker_labels():
    position = Position.from_notation(["R4 J R6", "K7 B7 O7 R7", "J O3 O4"], "K1 B13 R12", opened=False)
    root = parse(render_svg(position))
    assert drawn_tiles(root) == expected_order(position)
    assert melds_drawn(root) == [["R4", "J", "R6"], ["K7", "B7", "O7", "R7"], ["J", "O3", "O4"]]
    assert played_tiles(root) == []  # a position has nothing played
    for g in tile_elements(root):
        tile = Tile.parse(g.get("data-tile"))
        inks = {t.get("fill") for t in g.iter(f"{SVG}text") if t.get("class") != "stands-for"}
        assert inks == {TILE_COLOURS[tile.colour]}
        if not tile.is_joker:
            assert [t.text for t in g.iter(f"{SVG}text")] == [str(tile.number)]
    jokers = [g for g in tile_elements(root) if "joker" in g.get("class").split()]
    labels = [t.text for g in jokers for t in g.iter(f"{SVG}text") if t.get("class") == "stands-for"]
    assert labels == ["=R5", "=O2"]
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "Rack (3 tiles, not opened yet)" in texts


def test_empty_position_still_renders():
    root = parse(render_svg(Position.from_notation([], "")))
    assert drawn_tiles(root) == []
    assert "Table (empty)" in " ".join(t.text or "" for t in root.iter(f"{SVG}text"))


def _inside_viewbox(root: ET.Element) -> None:
    _, _, width, height = map(float, root.get("viewBox").split())
    assert float(root.get("width")) == width and float(root.get("height")) == height
    for g in tile_elements(root):
        x, y = map(float, TRANSLATE.fullmatch(g.get("transform")).groups())
        rect = g.find(f"{SVG}rect")
        assert 0 <= x and x + float(rect.get("width")) <= width
        assert 0 <= y and y + float(rect.get("height")) <= height


@settings(max_examples=60)
@given(position=positions(max_melds=12), width=st.integers(60, 1200))
def test_any_position_renders_every_tile_once_inside_the_picture(position, width):
    root = parse(render_svg(position, width=width))
    assert drawn_tiles(root) == expected_order(position)
    _inside_viewbox(root)


def test_narrow_width_wraps_into_more_rows():
    melds = ["R1 R2 R3", "K5 B5 O5", "B9 B10 B11 B12", "O1 O2 O3"]
    wide = parse(render_svg(melds, width=1000))
    narrow = parse(render_svg(melds, width=200))
    assert float(narrow.get("height")) > float(wide.get("height"))
    assert drawn_tiles(narrow) == drawn_tiles(wide)
    _inside_viewbox(narrow)


def test_meld_sequences_of_strings_or_melds():
    root = parse(render_svg([Meld.parse("R1 R2 R3"), ["K5", "B5", "J"]]))
    assert melds_drawn(root) == [["R1", "R2", "R3"], ["K5", "B5", "J"]]
    with pytest.raises(InvalidMeldError):
        render_svg([["R1", "R2", "R4"]])
    for bad in ({"table": []}, "R1 R2 R3", 7):
        with pytest.raises(TypeError):
            render_svg(bad)
    with pytest.raises(ValueError, match="width"):
        render_svg([], width=10)


def test_text_is_escaped():
    # Labels carry only our own text, but the picture must stay well-formed XML whatever the status.
    result = {"status": "optimal", "table": [["R1", "R2", "R3"]], "played": ["R1", "R2", "R3"], "value": "<&>"}
    parse(render_json(result))


# -- solutions ------------------------------------------------------------------------------------


SOLVED = [
    (["R1 R2 R3", "K7 B7 O7"], "R4 R7 J K12", True),
    (["R1 R2 R3", "R4 R5 R6"], "R7", True),
    (["K7 B7 O7 R7", "B1 B2 B3"], "B4 B5 K1 K2 K3", True),
    ([], "R10 R11 R12 K3 B3 O3 J B9", False),
    (["R1 R2 R3"], "K9", True),  # no move
]


@pytest.mark.parametrize("table,rack,opened", SOLVED)
def test_solution_highlights_exactly_the_played_tiles(table, rack, opened):
    position = Position.from_notation(table, rack, opened=opened)
    solution = solve(position)
    root = parse(render_svg(solution))
    assert melds_drawn(root) == [[str(t) for t in m.tiles] for m in solution.table]
    assert Counter(played_tiles(root)) == Counter(str(t) for t in solution.played)
    rack_after = [str(t) for t in solution.rack_after]
    assert drawn_tiles(root)[sum(len(m) for m in solution.table) :] == rack_after
    # Melds the move left untouched keep no highlight.
    untouched = Counter(tuple(sorted(m.tiles)) for m in position.table)
    for meld, g in zip(solution.table, [g for g in root.iter(f"{SVG}g") if "meld" in g.get("class", "")]):
        key = tuple(sorted(meld.tiles))
        if untouched[key]:
            untouched[key] -= 1
            assert not [t for t in tile_elements(g) if "played" in t.get("class")]


@settings(max_examples=25)
@given(position=positions(rules=STANDARD, max_melds=8))
def test_any_solution_highlights_its_played_tiles(position):
    solution = solve(position)
    root = parse(render_svg(solution))
    assert Counter(played_tiles(root)) == Counter(str(t) for t in solution.played)
    _inside_viewbox(root)


def test_render_json_of_a_position_matches_render_svg():
    position = Position.from_notation(["R4 J R6", "K7 B7 O7"], "K1 K2", opened=False)
    assert render_json(position_to_json(position)) == render_svg(position)


@pytest.mark.parametrize("table,rack,opened", SOLVED)
def test_render_json_of_a_result(table, rack, opened):
    position = Position.from_notation(table, rack, opened=opened)
    body = position_to_json(position)
    result = solve_json(body)
    assert result["status"] in ("optimal", "no_move")
    for with_position in (False, True):
        obj = dict(result, position=body) if with_position else result
        root = parse(render_json(obj))
        assert melds_drawn(root) == result["table"]
        assert Counter(played_tiles(root)) == Counter(result["played"])
        # The melds the solver kept (listed first) are drawn plain.
        meld_groups = [g for g in root.iter(f"{SVG}g") if "meld" in g.get("class", "").split()]
        for g in meld_groups[: len(result.get("kept", []))]:
            assert all("played" not in t.get("class").split() for t in tile_elements(g))
    # With the position, the rack left over is shown after the table.
    root = parse(render_json(dict(result, position=body)))
    left = Counter(position.rack) - Counter(Tile.parse(c) for c in result["played"])
    assert drawn_tiles(root)[sum(map(len, result["table"])) :] == [str(t) for t in sorted(left.elements())]


def test_render_json_result_leaves_kept_melds_plain():
    result = {
        "status": "optimal",
        "played": ["R3"],
        "table": [["R3", "R4", "R5"], ["R3", "R4", "R5", "R6"]],
        "value": 3,
        "kept": [0],
    }
    root = parse(render_json(result))
    # Without 'kept' the first R3 would be the one highlighted.
    assert [("played" in g.get("class")) for g in tile_elements(root)] == [False] * 3 + [True, False, False, False]


@pytest.mark.parametrize(
    "obj,message",
    [
        ([1, 2], "expected a position or a result object, got array"),
        ({"table": [["R1", "R2", "X3"]]}, "position.table[0][2]: unknown tile code 'X3'"),
        ({"table": [["R1", "R2", "R4"]]}, "position.table[0]: invalid meld 'R1 R2 R4'"),
        ({"rack": ["R5", "R5", "R5"]}, "3 copies of R5"),
        ({"status": "error", "error": "boom"}, "cannot draw an error result (boom)"),
        ({"status": "maybe", "table": []}, "status: expected"),
        ({"status": "optimal"}, "table: a result needs its table"),
        ({"status": "optimal", "table": [["R1", "R2"]], "played": []}, "table[0]: invalid meld"),
        ({"status": "optimal", "table": [], "played": "R1"}, "played: expected an array"),
        ({"status": "optimal", "table": [], "kept": ["a"]}, "kept: expected"),
        ({"status": "optimal", "table": [], "rules": "nope"}, "rules: unknown rules preset"),
    ],
)
def test_render_json_names_the_bad_part(obj, message):
    with pytest.raises(RummisolveError) as info:
        render_json(obj)
    assert message in str(info.value)
    assert isinstance(info.value, JsonInputError | RummisolveError)


def test_other_rule_sets_render():
    rules = RuleSet(colours=8, numbers=20, copies=3, jokers=4)
    position = Position.from_notation(["C18 C19 C20", "G5 P5 W5 C5 J"], "C1 W20 J", rules=rules)
    root = parse(render_svg(position))
    assert drawn_tiles(root) == expected_order(position)
    assert position_from_json(position_to_json(position)) == position


# -- the command and import cost --------------------------------------------------------------------


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rummisolve", "render", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_render_command(tmp_path):
    body = {"table": [["R1", "R2", "R3"]], "rack": ["J", "K5"], "opened": True}
    from_stdin = run_cli(stdin=json.dumps(body))
    assert from_stdin.returncode == 0, from_stdin.stderr
    assert from_stdin.stdout == render_json(body)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(body))
    out = tmp_path / "p.svg"
    assert run_cli(str(path), "-o", str(out)).returncode == 0
    assert out.read_text() == render_json(body)


@pytest.mark.parametrize(
    "stdin,message",
    [
        ("{nope", "line 1: not valid JSON"),
        ('{"rack": ["Z1"]}', "position.rack[0]: unknown tile code 'Z1'"),
        ('{"rack": []}\n{"rack": []}', "expected one JSON document, found 2"),
        ("", "expected one JSON document, found 0"),
        ('{"rack": [], "opened": 1' + "0" * 5000 + "}", "line 1: not acceptable JSON"),
        ("[" * 100_000, "line 1: JSON nested too deeply"),
    ],
)
def test_render_command_bad_input(stdin, message):
    done = run_cli(stdin=stdin)
    assert done.returncode == 1
    assert message in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_render_command_missing_file(tmp_path):
    done = run_cli(str(tmp_path / "missing.json"))
    assert done.returncode == 1 and "cannot read" in done.stderr and "Traceback" not in done.stderr


def test_renderer_imports_cheaply():
    code = (
        "import sys, rummisolve.render; "
        "heavy = [m for m in ('ortools', 'fastapi', 'numpy') if m in sys.modules]; "
        "assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_jupyter_shows_positions_and_solutions_with_the_renderer():
    position = Position.from_notation(["R1 R2 R3"], "R4 J K9")
    assert position._repr_svg_() == render_svg(position)
    solution = solve(position)
    assert solution._repr_svg_() == render_svg(solution)
