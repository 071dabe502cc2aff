"""The SVG renderer: well-formed pictures holding exactly the right tiles, in order and colour."""

from __future__ import annotations

import io
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
from rummisolve.jsonio import position_from_json, position_to_json, solution_to_json
from rummisolve.referee import verify
from rummisolve.render import COLOUR_MARKS, TILE_COLOURS, render_result, render_svg
from rummisolve.rules import STANDARD, XP, RuleSet
from rummisolve.service import render_json
from tests.support.strategies import positions

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


def marks(g: ET.Element) -> list[ET.Element]:
    return [e for e in g.iter() if e.get("class") == "mark"]


def texts(root: ET.Element) -> str:
    return " ".join(t.text or "" for t in root.iter(f"{SVG}text"))


def meld_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if "meld" in g.get("class", "").split()]


def fates(root: ET.Element) -> list[str]:
    """Each meld's fate as drawn: exactly one of kept, rearranged, new."""
    found = []
    for g in meld_groups(root):
        fate = {"kept", "rearranged", "new"} & set(g.get("class").split())
        assert len(fate) == 1, g.get("class")
        found.append(fate.pop())
    return found


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
        if tile.is_joker:
            assert [t.get("class") for t in g.iter(f"{SVG}text")] in ([], ["stands-for"])
            face = g.find(f"{SVG}g[@class='joker-face']")
            assert face is not None and face.find(f"{SVG}circle").get("stroke") == TILE_COLOURS[None]
        else:
            inks = {t.get("fill") for t in g.iter(f"{SVG}text")} | {m.get("fill") for m in marks(g)}
            assert inks == {TILE_COLOURS[tile.colour]}
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
    root = parse(render_result("<&>", [Meld.parse("R1 R2 R3")], []))
    assert texts(root).startswith("<&>")


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


# -- marks that tell colours apart without colour --------------------------------------------------

EIGHT = RuleSet(colours=8)


def _mark_shape(mark: ET.Element) -> tuple:
    """A mark's geometry relative to its tile, without its paint: what an eye that sees no colour sees."""
    paint = {"fill", "stroke", "stroke-width", "stroke-linejoin", "paint-order", "class", "data-mark"}
    return mark.tag, tuple(sorted((k, v) for k, v in mark.attrib.items() if k not in paint))


def test_every_colour_has_a_mark_of_its_own():
    position = Position.from_notation(["K3 B3 O3 R3 G3 P3 W3 C3"], "K9 B9 O9 R9 G9 P9 W9 C9 J", rules=EIGHT)
    root = parse(render_svg(position))
    shapes: dict[str, set[tuple]] = {}
    for g in tile_elements(root):
        tile = Tile.parse(g.get("data-tile"))
        if tile.is_joker:
            assert g.get("data-colour") is None and not marks(g)
            continue
        (mark,) = marks(g)
        assert g.get("data-colour") == tile.colour.name.lower()
        assert g.get("data-mark") == mark.get("data-mark") == COLOUR_MARKS[tile.colour]
        shapes.setdefault(g.get("data-colour"), set()).add(_mark_shape(mark))
    # All 8 colours drawn, each with one shape (the same on every tile), no two alike.
    assert len(shapes) == 8 and all(len(s) == 1 for s in shapes.values())
    assert len({s for group in shapes.values() for s in group}) == 8
    # The key under the picture names every colour next to its mark.
    key = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "colour-key")
    entries = {e.find(f"{SVG}text").text: marks(e)[0].get("data-mark") for e in key.findall(f"{SVG}g")}
    assert entries == {c.name.lower(): COLOUR_MARKS[c] for c in EIGHT.colour_list}


def test_the_colour_key_lists_only_the_colours_drawn():
    root = parse(render_svg(Position.from_notation(["R1 R2 R3"], "B5 J")))
    key = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "colour-key")
    assert [e.find(f"{SVG}text").text for e in key.findall(f"{SVG}g")] == ["blue", "red"]


def _luminance(hex_colour: str) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def _contrast(a: str, b: str) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_number_stands_out_from_its_face():
    # WCAG's 3:1 for large text (the numbers are 15-18 px bold), on the plain and the played face;
    # a number in a light ink (white) is outlined, and its outline must stand out instead.
    melds = [Meld.parse("K3 B3 O3 R3 G3 P3 W3 C3", EIGHT)]
    for played in (False, True):
        root = parse(render_result("optimal", melds, melds[0].tiles if played else ()))
        for g in tile_elements(root):
            assert ("played" in g.get("class").split()) == played
            face = g.find(f"{SVG}rect").get("fill")
            number = g.find(f"{SVG}text")
            ink = number.get("stroke") if _contrast(number.get("fill"), face) < 3 else number.get("fill")
            assert ink is not None and _contrast(ink, face) >= 3, (g.get("data-tile"), face, number.attrib)


def test_red_and_orange_differ_in_more_than_hue():
    root = parse(render_svg([["O5", "R5", "K5"]]))
    red, orange = (marks(g)[0] for g in tile_elements(root) if g.get("data-tile") in ("R5", "O5"))
    assert _mark_shape(red) != _mark_shape(orange)
    # And their inks differ in lightness too, not only in hue.
    assert _contrast(TILE_COLOURS[Tile.parse("R1").colour], TILE_COLOURS[Tile.parse("O1").colour]) >= 1.5


def test_the_joker_is_a_face_labelled_with_the_tile_it_stands_for():
    root = parse(render_svg(Position.from_notation(["R4 J R6", "K7 B7 J"], "J", rules=XP)))
    jokers = [g for g in tile_elements(root) if g.get("data-tile") == "J"]
    assert len(jokers) == 3 and all("joker" in g.get("class").split() for g in jokers)
    for g in jokers:
        face = g.find(f"{SVG}g[@class='joker-face']")
        assert face is not None and face.get("data-mark") == "joker"
        assert (
            len(face.findall(f"{SVG}circle")) == 3 and face.find(f"{SVG}path") is not None
        )  # a face, two eyes, a smile
        assert not marks(g)  # no colour mark: a joker has no colour
    labels = [[t.text for t in g.iter(f"{SVG}text")] for g in jokers]
    assert labels == [["=R5"], ["=O7"], []]  # the rack's joker stands for nothing yet
    assert [g.find(f"{SVG}title").text for g in jokers] == ["joker as R5", "joker as O7", "joker"]


# -- what the move did: kept, rearranged, new ----------------------------------------------------------

SPLIT = Position.from_notation(["R1 R2 R3 R4", "K9 B9 O9"], "R5 R6 B1 B2 B3")
SPLIT_RESULT = {
    "status": "optimal",
    "played": ["B1", "B2", "B3", "R5", "R6"],
    "table": [["K9", "B9", "O9"], ["R1", "R2", "R3"], ["R4", "R5", "R6"], ["B1", "B2", "B3"]],
    "value": 17,
    "objective": "tiles",
    "kept": [1],
}


def test_kept_rearranged_and_new_melds_are_told_apart():
    assert verify(SPLIT, [Meld.of(m) for m in SPLIT_RESULT["table"]]).legal
    for obj in (SPLIT_RESULT, dict(SPLIT_RESULT, position=position_to_json(SPLIT))):
        root = parse(render_json(obj))
        assert fates(root) == ["kept", "rearranged", "rearranged", "new"]
        groups = meld_groups(root)
        played = [[("played" in t.get("class").split()) for t in tile_elements(g)] for g in groups]
        assert played == [[False] * 3, [False] * 3, [False, True, True], [True] * 3]
        # A rearranged meld, and only such a meld, has a dashed outline.
        outlined = [
            any(r.get("class") == "outline" and r.get("stroke-dasharray") for r in g.iter(f"{SVG}rect")) for g in groups
        ]
        assert outlined == [False, True, True, False]
        legend = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "legend")
        assert [e.get("class") for e in legend.findall(f"{SVG}g")] == ["played", "rearranged", "kept"]
        assert " ".join(t.text for t in legend.iter(f"{SVG}text")) == (
            "tile played from the rack meld rearranged meld kept as it was"
        )


def test_without_kept_the_position_tells_which_melds_were_kept():
    result = {k: v for k, v in SPLIT_RESULT.items() if k != "kept"}
    assert fates(parse(render_json(dict(result, position=position_to_json(SPLIT))))) == [
        "kept",
        "rearranged",
        "rearranged",
        "new",
    ]
    # With neither, no meld can be known to be kept: those holding old tiles count as rearranged.
    assert fates(parse(render_json(result))) == ["rearranged", "rearranged", "rearranged", "new"]


def test_a_result_without_a_move_keeps_every_meld_and_needs_no_legend():
    result = solve_json({"table": [["R1", "R2", "R3"], ["K5", "B5", "O5"]], "rack": ["K9"]})
    assert result["status"] == "no_move"
    unknown = dict(result, status="unknown", proven=False, kept=[])
    for obj, title in [(result, "No move (proven): draw a tile"), (unknown, "Unknown: no move found")]:
        root = parse(render_json(obj))
        assert fates(root) == ["kept", "kept"] and not played_tiles(root)
        assert not [g for g in root.iter(f"{SVG}g") if g.get("class") == "legend"]
        assert root.find(f"{SVG}title").text.startswith(title) and "Rack: 1 tile, 9 points" in texts(root)


@settings(max_examples=25)
@given(position=positions(rules=STANDARD, max_melds=8))
def test_any_solution_marks_each_meld_by_what_the_move_did(position):
    solution = solve(position)
    for root in (parse(render_svg(solution)), parse(render_json(solution_to_json(solution)))):
        drawn = fates(root)
        assert drawn[: len(solution.kept)] == ["kept"] * len(solution.kept)
        if not solution:
            assert drawn == ["kept"] * len(solution.table)
        for fate, g in zip(drawn, meld_groups(root)):
            flags = [("played" in t.get("class").split()) for t in tile_elements(g)]
            if fate == "kept":
                assert not any(flags)
            elif fate == "new":
                assert all(flags)
            else:  # rearranged: holds a tile that was on the table before
                assert not all(flags)
        assert Counter(played_tiles(root)) == Counter(str(t) for t in solution.played)
        # The rack left follows the table, for a result in JSON too (it carries rack_after).
        assert drawn_tiles(root)[sum(len(m) for m in solution.table) :] == [str(t) for t in solution.rack_after]


# -- the points and the objective, said in words ------------------------------------------------------


def test_the_title_says_what_the_points_count_and_the_objective():
    rules = RuleSet(joker_penalty=25)
    position = Position.from_notation(["R1 R2 R3"], "R4 J K9", rules=rules)
    solution = solve(position)
    assert [str(t) for t in solution.played] == ["R4", "J"] and solution.value == 29
    for svg in (render_svg(solution), render_json(solve_json(position_to_json(position)))):
        root = parse(svg)
        assert root.find(f"{SVG}title").text == "Optimal: 2 tiles played, worth 29 points (a joker counts 25)"
        assert "Objective: the most tiles played" in texts(root)
        assert "Rack left: 1 tile, 9 points" in texts(root)


@pytest.mark.parametrize(
    "status,objective,title,note",
    [
        ("optimal", "value", "Optimal: 1 tile played, worth 4 points", "Objective: the most points played"),
        (
            "feasible",
            "tiles",
            "Best found (not proven best): 1 tile played, worth 4 points",
            "Objective: the most tiles played",
        ),
        ("optimal", None, "Optimal: 1 tile played, worth 4 points", None),
    ],
)
def test_titles_without_a_joker_played(status, objective, title, note):
    result = {"status": status, "table": [["R1", "R2", "R3", "R4"]], "played": ["R4"], "value": 4, "kept": []}
    if objective is not None:
        result["objective"] = objective
    root = parse(render_json(result))
    assert root.find(f"{SVG}title").text == title == root.get("aria-label")
    assert ("Objective" in texts(root)) == (note is not None) and (note or "") in texts(root)


def test_the_rack_left_notes_a_jokers_penalty():
    result = {"status": "optimal", "table": [["R1", "R2", "R3"]], "played": ["R1", "R2", "R3"], "value": 6}
    root = parse(render_json(dict(result, rack_after=["K5", "J"], rules={"joker_penalty": 50})))
    assert "Rack left: 2 tiles, 55 points (a joker counts 50)" in texts(root)
    assert drawn_tiles(root) == ["R1", "R2", "R3", "K5", "J"]


# -- any rules: a result carries its rules -------------------------------------------------------------

WIDE_RULES = [
    ({"colours": 8}, ["G1 G2 G3", "W7 C7 P7"], ["G4", "W8", "W9", "W10", "C12", "J"]),
    ({"numbers": 99}, ["R97 R98 R99"], ["R96", "K50", "K51", "K52", "B99"]),
]


def _check_result_picture(svg: str, result: dict) -> None:
    root = parse(svg)
    assert melds_drawn(root) == result["table"]
    assert Counter(played_tiles(root)) == Counter(result["played"])
    assert drawn_tiles(root)[sum(map(len, result["table"])) :] == result["rack_after"]


@pytest.mark.parametrize("rules,table,rack", WIDE_RULES)
def test_a_result_renders_under_the_rules_it_was_solved_under(rules, table, rack):
    body = {"rules": rules, "table": [m.split() for m in table], "rack": rack}
    result = solve_json(body)
    assert result["status"] == "optimal" and result["rules"] == rules
    _check_result_picture(render_json(result), result)
    # Read under the standard rules, the same result would not even decode.
    with pytest.raises(RummisolveError):
        render_json({k: v for k, v in result.items() if k != "rules"})
    # Given the rules, a result without them renders the same picture; rules that disagree are an error.
    bare = {k: v for k, v in result.items() if k != "rules"}
    assert render_json(bare, rules=RuleSet.from_dict(rules)) == render_json(result)
    with pytest.raises(RummisolveError, match=r"rules: the result carries rules of its own .* not the ones given"):
        render_json(result, rules=STANDARD)


@pytest.mark.parametrize("rules,table,rack", WIDE_RULES)
def test_solve_piped_into_render(rules, table, rack, monkeypatch, capsys):
    from rummisolve.cli import main

    body = json.dumps({"rules": rules, "table": [m.split() for m in table], "rack": rack})
    monkeypatch.setattr("sys.stdin", io.StringIO(body + "\n"))
    assert main(["solve"]) == 0
    solved = capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO(solved))
    assert main(["render"]) == 0
    _check_result_picture(capsys.readouterr().out, json.loads(solved))


def test_solve_piped_into_render_in_a_shell_pipeline(tmp_path):
    # The issue as reported: `rummisolve solve c8.json | rummisolve render`.
    rules, table, rack = WIDE_RULES[0]
    path = tmp_path / "c8.json"
    path.write_text(json.dumps({"rules": rules, "table": [m.split() for m in table], "rack": rack}))
    solver = subprocess.Popen([sys.executable, "-m", "rummisolve", "solve", str(path)], stdout=subprocess.PIPE)
    done = subprocess.run(
        [sys.executable, "-m", "rummisolve", "render"], stdin=solver.stdout, capture_output=True, text=True, timeout=60
    )
    solver.stdout.close()
    assert solver.wait(timeout=60) == 0
    assert done.returncode == 0, done.stderr
    _check_result_picture(done.stdout, solve_json(json.loads(path.read_text())))


def test_render_command_rules_option():
    result = {"status": "optimal", "table": [["G1", "G2", "G3", "G4"]], "played": ["G4"], "value": 4}
    stdin = json.dumps(result)
    done = run_cli("--rules", '{"colours": 8}', stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert done.stdout == render_json(result, rules=EIGHT)
    for args, message in [
        ((), "table[0][0]: tile 'G1': colour green is not in play (the colours are K black, B blue, O orange, R red)"),
        (("--rules", '{"colours": 9}'), "--rules: rule option 'colours' must be between 1 and 8, not 9"),
        (("--rules", "{nope"), "--rules: not valid JSON"),
        (("--rules", "huge"), "--rules: unknown rules preset 'huge'"),
    ]:
        done = run_cli(*args, stdin=stdin)
        assert done.returncode == 1 and message in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert done.stdout == ""
    # A position without rules takes them from --rules too.
    done = run_cli("--rules", "xp", stdin=json.dumps({"rack": ["J", "J", "J"]}))
    assert done.returncode == 0 and done.stdout == render_svg(Position.from_notation([], "J J J", rules=XP))


_SPLIT_WITH_POSITION = dict(SPLIT_RESULT, position=position_to_json(SPLIT))


@pytest.mark.parametrize(
    "obj,message",
    [
        ({"status": "optimal", "table": [], "value": "7"}, "value: expected an integer number of points, got string"),
        ({"status": "optimal", "table": [], "objective": "most"}, "objective: expected one of 'tiles', 'value'"),
        ({"status": "optimal", "table": [], "kept": {"0": 1}}, "kept: expected a list of at most 0"),
        (
            {"status": "optimal", "table": [["R1", "R2", "R3"]] * 2, "kept": [0, 0]},
            "kept: expected a list of at most 2 distinct",
        ),
        ({"status": "optimal", "table": [["R1", "R2", "R3"]], "kept": [-1]}, "kept: expected"),
        (
            dict(_SPLIT_WITH_POSITION, kept=[0]),
            "kept[0]: table[0] (K9 B9 O9) is not the position's meld 0 (R1 R2 R3 R4)",
        ),
        (dict(_SPLIT_WITH_POSITION, kept=[5]), "kept[0]: the position's table has no meld 5"),
        (
            dict(_SPLIT_WITH_POSITION, rules="xp"),
            'rules: the result\'s rules ("xp") differ from its position\'s ("standard")',
        ),
    ],
)
def test_render_json_names_the_bad_part_of_a_result(obj, message):
    with pytest.raises(RummisolveError) as info:
        render_json(obj)
    assert message in str(info.value)


def test_render_json_of_a_position_checks_the_rules_given():
    body = {"rules": "xp", "rack": ["J", "J", "J"]}
    assert render_json(body, rules=XP) == render_json(body) == render_json({"rack": body["rack"]}, rules=XP)
    with pytest.raises(RummisolveError, match=r'rules: the position carries rules of its own \("xp"\)'):
        render_json(body, rules=STANDARD)


def test_an_explained_result_numbers_each_moving_tile_by_its_step():
    import xml.etree.ElementTree as ET

    from rummisolve.service import render_json, solve_json

    body = {"table": [["R3", "R4", "R5", "R6"], ["K9", "B9", "O9", "R9"]], "rack": ["R7", "O7", "O8", "K2"]}
    result = solve_json({**body, "explain": True})
    root = ET.fromstring(render_json(result))
    numbered = {}
    for group in root.iter("{http://www.w3.org/2000/svg}g"):
        if "data-step" in group.attrib:
            assert "moved" in group.attrib["class"].split()
            numbered[int(group.attrib["data-step"])] = group.attrib["data-tile"]
    assert numbered == {i: step["tile"] for i, step in enumerate(result["steps"], start=1)}
    plain = ET.fromstring(render_json({k: v for k, v in result.items() if k != "steps"}))
    assert not [g for g in plain.iter("{http://www.w3.org/2000/svg}g") if "data-step" in g.attrib]
    for bad, message in (
        ("x", "steps: expected an array"),
        ([{"tile": "R7"}], "steps[0]"),
        ([{"tile": "R7", "to": 9}], "steps[0].to"),
    ):
        with pytest.raises(RummisolveError, match=message.replace("[", r"\[").replace("]", r"\]")):
            render_json({**result, "steps": bad})


# -- Xpress: a position's dice ------------------------------------------------------------------

XPRESS_POSITION = {"rules": "xpress", "table": [["R1", "R2", "R3"]], "rack": ["B1", "O1", "R1", "K4"]}
XPRESS_DICE = ["D1", "D3", "D5", {"faces": ["K4", "K5", "K6", "K7", "K8", "K9"]}]


def die_groups(root: ET.Element) -> list[tuple[str, str, str]]:
    """Each die drawn on the rack: (its name, the tile it shows, the name written under it)."""
    out = []
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "die":
            (tile,) = tile_elements(g)
            (name,) = [t for t in g.findall(f"{SVG}text") if t.get("class") == "die-name"]
            x, y = map(float, TRANSLATE.fullmatch(tile.get("transform")).groups())
            assert float(name.get("y")) > y + float(tile.find(f"{SVG}rect").get("height"))  # under the face
            out.append((g.get("data-die"), tile.get("data-tile"), name.text))
    return out


def xpress_dice_drawn(names: list[str]) -> list[tuple[Tile, str]]:
    return list(zip(map(Tile.parse, XPRESS_POSITION["rack"]), names, strict=True))


@pytest.mark.parametrize("width", [720, 80])
def test_an_xpress_position_draws_each_die_under_its_face_in_the_order_given(width):
    svg = render_svg(
        position_from_json(XPRESS_POSITION), width=width, dice=xpress_dice_drawn(["D1", "D3", "D5", "custom"])
    )
    if width == 720:
        assert svg == render_json({**XPRESS_POSITION, "dice": XPRESS_DICE})
    root = parse(svg)
    assert die_groups(root) == [("D1", "B1", "D1"), ("D3", "O1", "D3"), ("D5", "R1", "D5"), ("custom", "K4", "custom")]
    assert drawn_tiles(root) == ["R1", "R2", "R3", "B1", "O1", "R1", "K4"]  # the rack in the dice's order
    assert "Rack (4 dice, opened)" in texts(root) and root.find(f"{SVG}title").text.startswith("Xpress position:")
    _inside_viewbox(root)
    _, _, _, height = map(float, root.get("viewBox").split())
    names = [t for t in root.iter(f"{SVG}text") if t.get("class") == "die-name"]
    tops = sorted({float(TRANSLATE.fullmatch(g.get("transform")).group(2)) for g in tile_elements(root)})
    for name in names:  # each name above the next row of tiles and inside the picture
        y = float(name.get("y"))
        assert y <= height and not any(top < y < top + 46 for top in tops)


def test_an_xpress_position_without_dice_or_with_reroll_false_draws_as_before():
    plain = render_json(XPRESS_POSITION)
    assert "die-name" not in plain and plain == render_svg(position_from_json(XPRESS_POSITION))
    assert die_groups(parse(render_json({**XPRESS_POSITION, "dice": XPRESS_DICE, "reroll": False})))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"reroll": True}, "position.reroll: a picture draws the dice, it does not rank re-rolls"),
        ({"reroll": "value"}, "position.reroll: a picture draws the dice"),
        ({"reroll_max_solves": 50}, "position.reroll_max_solves: a picture draws the dice"),
        ({"dice": None, "reroll_time_limit": 1}, "position.reroll_time_limit: a picture draws the dice"),
        ({"reroll": True, "reroll_time_limit": 1}, "position.reroll: a picture draws the dice"),
        ({"reroll": False, "reroll_time_limit": 1}, "position.reroll_time_limit: a picture draws the dice"),
        ({"dice": ["D1", "D3", "D7", "D9"]}, "position.dice[2]: die D7 has no face R1"),
        ({"dice": ["D1", "D3"]}, "position.dice: 2 dice for a rack of 4 entries"),
        ({"dice": "D1"}, "position.dice: expected an array"),
    ],
)
def test_an_xpress_render_names_what_it_does_not_draw(change, message):
    with pytest.raises(RummisolveError) as info:
        render_json({**XPRESS_POSITION, "dice": XPRESS_DICE, **change})
    assert message in str(info.value)
    if "a picture" in message:
        assert "docs/json-contract.md#xpress" in str(info.value)


def test_an_xpress_result_is_drawn_without_its_positions_dice():
    request = {**XPRESS_POSITION, "dice": XPRESS_DICE, "reroll": True}
    result = solve_json(request)
    assert result["status"] == "optimal" and "reroll" in result
    plain = render_json(result)  # the reroll object beside the result is not drawn
    assert plain == render_json({k: v for k, v in result.items() if k != "reroll"})
    for key in ("dice", "reroll"):
        with pytest.raises(RummisolveError, match=f"position.{key}: a result is drawn without its position's dice"):
            render_json({**result, "position": {**XPRESS_POSITION, key: request[key]}})
    assert render_json({**result, "position": XPRESS_POSITION}).startswith("<svg")


def test_render_svg_checks_the_dice_against_the_rack():
    position = position_from_json(XPRESS_POSITION)
    with pytest.raises(RummisolveError, match=r"dice: the faces \(B1\) are not the rack"):
        render_svg(position, dice=[(Tile.parse("B1"), "D1")])
    with pytest.raises(RummisolveError, match="only a position's rack is drawn with its dice"):
        render_svg([["R1", "R2", "R3"]], dice=[])
