"""Tests for move explanations (``rummisolve.explain``): the meld map, the fewest steps, their sentences."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rummisolve import IllegalTurnError, Position, explain, explain_solution
from rummisolve.explain import Explanation, Step, numbered
from rummisolve.melds import Meld, meld_problem
from rummisolve.referee import verify
from rummisolve.rules import STANDARD, XP, RuleSet
from rummisolve.solver import solve
from rummisolve.solver_limits import unsupported_position
from rummisolve.tiles import Tile, parse_tiles
from tests.support.strategies import meld_tiles, positions

STRICT = STANDARD.replace(joker_retrieval="strict")


def pos(table, rack, opened=True, rules=STANDARD) -> Position:
    return Position.from_notation(table, rack, opened=opened, rules=rules)


def texts(explanation: Explanation) -> list[str]:
    """The explanation's lines as ``__str__`` prints them, without their numbers."""
    return [line.split(". ", 1)[1] for line in str(explanation).splitlines()]


# -- checks every explanation must pass --------------------------------------------------------------


def as_melds(position: Position, new_table) -> list[Meld]:
    return [Meld.of(parse_tiles(m), position.rules) for m in new_table]


def applied(position: Position, explanation: Explanation, new_table) -> list[Counter]:
    """Carry the steps out: each takes its tile from its source (the rack, or an old meld) and puts
    it in its target; what is left of an old meld then lies in the new meld that continues it."""
    rack = Counter(position.rack)
    old = [Counter(m.tiles) for m in position.table]
    built = [Counter() for _ in new_table]
    for step in explanation.steps:
        assert isinstance(step, Step) and step.text
        source = rack if step.source is None else old[step.source]
        assert source[step.tile] > 0, f"{step}: {step.tile} is not there to take"
        source[step.tile] -= 1
        built[step.target][step.tile] += 1
    for i, left in enumerate(old):
        j = explanation.meld_map[i]
        if j is None:
            assert not +left, f"old meld {i} continues nowhere but keeps {left}"
        else:
            built[j].update(+left)
    return built


def shared(a, b) -> int:
    return sum((Counter(a) & Counter(b)).values())


def brute_force(old: list[Meld], new: list[Meld]) -> tuple[int, int]:
    """Over every injective partial map old -> new: the fewest tiles that move, and the most melds
    left whole among the maps that reach it."""
    weights = [[shared(o.tiles, n.tiles) for n in new] for o in old]
    whole = [[Counter(o.tiles) == Counter(n.tiles) for n in new] for o in old]
    total = sum(len(n) for n in new)
    best = (total + 1, 0)

    def walk(i: int, used: frozenset, stay: int, kept: int) -> None:
        nonlocal best
        if i == len(old):
            moved = total - stay
            if moved < best[0] or (moved == best[0] and kept > best[1]):
                best = (moved, kept)
            return
        walk(i + 1, used, stay, kept)
        for j in range(len(new)):
            if j not in used:
                walk(i + 1, used | {j}, stay + weights[i][j], kept + whole[i][j])

    walk(0, frozenset(), 0, 0)
    return best


def check(position: Position, new_table, explanation: Explanation, brute: bool = True) -> None:
    new = as_melds(position, new_table)
    # (a) carrying the steps out yields exactly the new table's melds (as multisets)
    assert applied(position, explanation, new_table) == [Counter(m.tiles) for m in new]
    # (c) the meld map is injective and maps only to melds that share tiles
    assert len(explanation.meld_map) == len(position.table)
    targets = [j for j in explanation.meld_map if j is not None]
    assert len(targets) == len(set(targets))
    for i, j in enumerate(explanation.meld_map):
        if j is not None:
            assert shared(position.table[i].tiles, new[j].tiles) > 0
    assert explanation.moves == len(explanation.steps)
    # (b) the fewest moves, and as many melds left whole as that allows
    if brute:
        moved, kept = brute_force(list(position.table), new)
        assert explanation.moves == moved
        whole = sum(
            1
            for i, j in enumerate(explanation.meld_map)
            if j is not None and Counter(position.table[i].tiles) == Counter(new[j].tiles)
        )
        assert whole == kept
    # jokers say what they stand for
    for step in explanation.steps:
        if step.tile.is_joker:
            assert "joker" in step.text and "stand" in step.text, step.text


# -- each kind of sentence --------------------------------------------------------------------------


def test_extend_a_run_at_the_end():
    p = pos(["R4 R5 R6"], "R7 K1")
    e = explain(p, ["R4 R5 R6 R7"])
    assert e.meld_map == (0,) and e.moves == 1
    assert e.steps == (Step(Tile.parse("R7"), None, 0, "Add R7 from your rack to the end of R4 R5 R6"),)


def test_extend_a_run_at_the_start_and_at_both_ends():
    p = pos(["K3 K4 K5 K6"], "K1 K2 K7")
    assert texts(explain(p, ["K2 K3 K4 K5 K6"])) == ["Add K2 from your rack to the start of K3 K4 K5 K6"]
    e = explain(p, ["K1 K2 K3 K4 K5 K6 K7"])
    assert texts(e) == [
        "Add K1 K2 from your rack to the start of K3 K4 K5 K6",
        "Add K7 from your rack to the end of K1 K2 K3 K4 K5 K6",
    ]
    assert str(e).splitlines()[0].startswith("1-2. ")


def test_add_to_a_group():
    e = explain(pos(["K7 B7 O7"], "R7"), ["K7 R7 B7 O7"])
    assert e.meld_map == (0,) and texts(e) == ["Add R7 from your rack to K7 B7 O7"]


def test_fill_a_gap_left_by_a_joker():
    # The joker leaves R4 J R6 for the group; R5 from the rack takes its place.
    e = explain(pos(["R4 J R6", "K9 B9 O9"], "R5"), ["R4 R5 R6", "K9 B9 O9 J"])
    assert texts(e) == [
        "Replace the joker in R4 J R6 with R5 from your rack",
        "Add the joker you freed to K9 B9 O9 (the joker stood for R5 and now stands for R9)",
    ]


def test_take_from_a_long_run_into_a_group():
    p = pos(["R3 R4 R5 R6 R7", "K7 B7 O7"], "R2")
    e = explain(p, ["R2 R3 R4 R5 R6", "K7 B7 O7 R7"])
    assert e.meld_map == (0, 1)
    # The run gives R7 away before it is extended.
    assert texts(e) == [
        "Take R7 from R3 R4 R5 R6 R7 and add it to K7 B7 O7",
        "Add R2 from your rack to the start of R3 R4 R5 R6",
    ]
    assert [(str(s.tile), s.source, s.target) for s in e.steps] == [("R7", 0, 1), ("R2", None, 0)]


def test_take_from_a_long_run_into_a_new_group():
    e = explain(pos(["R3 R4 R5 R6 R7"], "K7 B7"), ["R3 R4 R5 R6", "K7 B7 R7"])
    assert texts(e) == ["Make a new group K7 B7 R7 with R7 from R3 R4 R5 R6 R7 and K7 B7 from your rack"]
    assert [s.source for s in e.steps] == [0, None, None]


def test_split_a_run():
    p = pos(["R1 R2 R3 R4 R5 R6"], "R7")
    e = explain(p, ["R1 R2 R3", "R4 R5 R6 R7"])
    assert e.meld_map == (0,) and e.moves == 4
    assert str(e) == (
        "1-3. Split R1 R2 R3 R4 R5 R6 into R1 R2 R3 and R4 R5 R6\n4. Add R7 from your rack to the end of R4 R5 R6"
    )
    assert [(str(s.tile), s.source, s.target) for s in e.steps] == [
        ("R4", 0, 1),
        ("R5", 0, 1),
        ("R6", 0, 1),
        ("R7", None, 1),
    ]


def test_a_new_meld_from_the_rack():
    e = explain(pos(["R1 R2 R3"], "K9 B9 R9 O2"), ["R1 R2 R3", "K9 B9 R9"])
    assert e.meld_map == (0,)
    assert str(e) == "1-3. Make a new group K9 B9 R9 from your rack"
    assert [s.source for s in e.steps] == [None, None, None] and {s.target for s in e.steps} == {1}


def test_an_opening_leaves_the_table_and_lays_new_melds():
    p = pos(["R1 R2 R3", "K7 B7 O7"], "O11 O12 O13 K13 B13 J", opened=False)
    e = explain(p, ["K7 B7 O7", "O11 O12 O13", "R1 R2 R3", "K13 B13 J"])
    assert e.meld_map == (2, 0)  # each old meld continues into its identical copy
    assert all(s.source is None for s in e.steps)
    assert texts(e) == [
        "Make a new run O11 O12 O13 from your rack",
        "Make a new group K13 B13 J from your rack (the joker stands for O13 or R13)",
    ]


def test_a_joker_moved_says_what_it_stood_for_and_stands_for():
    p = pos(["R4 R5 R6 J", "K9 K10 K11"], "R1 R2 R3")
    e = explain(p, ["R4 R5 R6", "K9 K10 K11 J", "R1 R2 R3"])
    assert texts(e) == [
        "Take J from R4 R5 R6 J and add it to the end of K9 K10 K11 (the joker stood for R7 and now stands for K12)",
        "Make a new run R1 R2 R3 from your rack",
    ]
    e = explain(pos(["R4 R5 R6 J"], "K9 K10"), ["R4 R5 R6", "K9 K10 J"])
    assert texts(e) == [
        "Make a new run K9 K10 J with J from R4 R5 R6 J and K9 K10 from your rack "
        "(the joker stood for R7 and now stands for K11)"
    ]


def test_a_joker_from_the_rack_says_what_it_stands_for():
    e = explain(pos(["R3 R4 R5"], "J"), ["R3 R4 R5 J"])
    assert texts(e) == ["Add J from your rack to the end of R3 R4 R5 (the joker stands for R6)"]


def test_a_joker_that_stays_but_stands_for_another_tile_is_noted():
    # K7 O7 J continues as O7 J O9 O10: the joker stays, but stands for O8 instead of B7 or R7.
    p = pos(["K7 O7 J", "K9 B9 O9 R9"], "K5 K6 O10")
    e = explain(p, ["K5 K6 K7", "O7 J O9 O10", "K9 B9 R9"])
    assert e.meld_map == (1, 2) and e.moves == 5
    assert texts(e) == [
        "Make a new run K5 K6 K7 with K7 from K7 O7 J and K5 K6 from your rack",
        "Take O9 from K9 B9 O9 R9 and add it to the end of O7 J",
        "Add O10 from your rack to the end of O7 J O9 (the joker now stands for O8)",
    ]


def test_a_run_joker_pushed_along_by_its_tile():
    e = explain(pos(["R4 J R6"], "R5 R7"), ["R4 R5 R6 R7 J"])
    assert e.moves == 2 and e.meld_map == (0,)
    assert texts(e) == [
        "Replace the joker in R4 J R6 with R5 from your rack",
        "Add R7 from your rack to the end of R4 R5 R6, then put the joker back: R4 R5 R6 R7 J "
        "(the joker now stands for R8)",
    ]


def test_strict_joker_retrieval():
    p = pos(["R4 J R6"], "R5 K9 K10", rules=STRICT)
    e = explain(p, ["R4 R5 R6", "K9 K10 J"])
    assert texts(e) == [
        "Replace the joker in R4 J R6 with R5 from your rack",
        "Make a new run K9 K10 J with the joker you freed and K9 K10 from your rack "
        "(the joker stood for R5 and now stands for K11)",
    ]
    assert [(str(s.tile), s.source, s.target) for s in e.steps] == [
        ("R5", None, 0),
        ("J", 0, 1),
        ("K9", None, 1),
        ("K10", None, 1),
    ]
    # Without the two rack tiles beside it, the strict rule makes the same table illegal.
    with pytest.raises(IllegalTurnError) as caught:
        explain(pos(["R4 J R6", "K9 K10 K11"], "R5", rules=STRICT), ["R4 R5 R6", "K9 K10 K11 J"])
    assert caught.value.codes == ("joker_retrieval",)


def test_ties_go_to_melds_that_stay_whole():
    # R1 R2 R3 shares three tiles with both new runs; it continues into its identical copy.
    p = pos(["R1 R2 R3"], "R1 R2 R3 R4")
    e = explain(p, ["R1 R2 R3 R4", "R1 R2 R3"])
    assert e.meld_map == (1,) and e.moves == 4
    assert texts(e) == ["Make a new run R1 R2 R3 R4 from your rack"]


def test_copies_are_interchangeable():
    # Two R5s: the table's stays in its run, the rack's goes to the group (or the other way: one move).
    p = pos(["R3 R4 R5", "K5 B5 O5"], "R5 R6")
    e = explain(p, ["R3 R4 R5 R6", "K5 B5 O5 R5"])
    assert e.moves == 2 and e.meld_map == (0, 1)
    assert all(s.source is None for s in e.steps)


def test_two_equal_new_melds_in_a_row_stay_two_lines():
    e = explain(
        pos([], "R1 R2 R3 R1 R2 R3", opened=False, rules=STANDARD.replace(initial_threshold=0)),
        [
            "R1 R2 R3",
            "R1 R2 R3",
        ],
    )
    assert str(e).splitlines() == [
        "1-3. Make a new run R1 R2 R3 from your rack",
        "4-6. Make a new run R1 R2 R3 from your rack again",
    ]


def test_a_joker_swapped_for_a_tile_of_another_meld():
    # Each old meld gives a tile to the other: R6 replaces the group's joker, which ends the run.
    p = pos(["R3 R4 R5 R6", "K6 B6 J"], "R2")
    new = ["R2 R3 R4 R5 J", "K6 B6 R6"]
    e = explain(p, new)
    assert e.meld_map == (0, 1) and e.moves == 3
    assert texts(e) == [
        "Replace the joker in K6 B6 J with R6 from R3 R4 R5 R6",
        "Add R2 from your rack to the start of R3 R4 R5",
        "Add the joker you freed to the end of R2 R3 R4 R5 (the joker stood for O6 or R6 and now stands for R6)",
    ]
    check(p, new, e)


def test_accepts_every_table_form_verify_takes():
    p = pos(["R4 R5 R6"], "R7")
    expected = explain(p, ["R4 R5 R6 R7"])
    assert explain(p, "R4 R5 R6 R7") == expected
    assert explain(p, [["R4", "R5", "R6", "r7"]]) == expected
    assert explain(p, [Meld.parse("R4 R5 R6 R7")]) == expected
    assert explain(p, (iter(parse_tiles("R4 R5 R6 R7")) for _ in range(1))) == expected


# -- bad input ----------------------------------------------------------------------------------------


def test_an_illegal_table_raises_with_the_referees_reasons():
    p = pos(["R1 R2 R3"], "R4 K9")
    with pytest.raises(IllegalTurnError, match="invalid_meld: table.1. .K9. is not a valid meld") as caught:
        explain(p, ["R1 R2 R3 R4", "K9"])
    assert caught.value.codes == ("invalid_meld",)
    assert caught.value.verdict.legal is False
    with pytest.raises(IllegalTurnError, match="tile_vanished") as caught:
        explain(p, ["R1 R2 R4"])
    assert "tile_vanished" in caught.value.codes and "invalid_meld" in caught.value.codes
    with pytest.raises(IllegalTurnError, match="no_tile_played"):
        explain(p, ["R1 R2 R3"])
    with pytest.raises(IllegalTurnError, match="bad_tile"):
        explain(p, ["R1 R2 R3 X4"])
    with pytest.raises(IllegalTurnError, match="opening_touched_table"):
        explain(pos(["R1 R2 R3"], "R4 K10 B10 O10", opened=False), ["R1 R2 R3 R4", "K10 B10 O10"])
    assert issubclass(IllegalTurnError, ValueError)


def test_wrong_types_are_named():
    p = pos(["R1 R2 R3"], "R4")
    with pytest.raises(TypeError, match="position must be a Position"):
        explain("R1 R2 R3", ["R1 R2 R3 R4"])
    with pytest.raises(TypeError, match="new_table must be an iterable of melds"):
        explain(p, 5)
    with pytest.raises(TypeError, match="solution must be a Solution"):
        explain_solution(p)


def test_explain_solution_without_a_move_leaves_every_meld_in_place():
    s = solve(pos(["K1 K2 K3", "R5 B5 O5"], "B9"))
    assert s.status == "no_move"
    e = explain_solution(s)
    assert e == Explanation((0, 1), ()) and e.moves == 0 and str(e) == "no tile moves"


def test_explain_solution_explains_the_move():
    p = pos(["R3 R4 R5 R6", "K9 B9 O9 R9", "B11 B12 B13", "K7 O7 J"], "R7 R8 B10 O10 K5 K6 O3")
    s = solve(p)
    e = explain_solution(s)
    assert e == explain(p, s.table)
    check(p, [m.tiles for m in s.table], e)


def test_numbered_groups_one_action_per_line():
    assert numbered([]) == []
    assert numbered(["a", "b", "b", "c"]) == ["1. a", "2-3. b", "4. c"]


# -- properties ---------------------------------------------------------------------------------------

RULE_SETS = [
    STANDARD,
    XP,
    STRICT,
    STANDARD.replace(wraparound=True),
    STANDARD.replace(open_then_manipulate=True),
    STANDARD.replace(colours=3, numbers=7, copies=2, min_meld_length=2),
    STANDARD.replace(colours=5, numbers=8, copies=3, jokers=3, min_meld_length=4),
]


@settings(max_examples=200)
@given(
    p=positions(rules=st.sampled_from(RULE_SETS), max_melds=5, max_rack=8),
    objective=st.sampled_from(["tiles", "value"]),
)
def test_property_solver_answers_are_explained_in_the_fewest_steps(p, objective):
    assume(unsupported_position(p) is None)
    s = solve(p, objective)
    e = explain_solution(s)
    if not s:
        assert e.meld_map == tuple(range(len(p.table))) and e.steps == ()
        return
    table = [m.tiles for m in s.table]
    check(p, table, e, brute=len(p.table) <= 5 and len(table) <= 7)
    for i in s.kept:  # a meld the solver kept exactly as it was stays whole: no tile of it moves
        assert not any(step.source == i for step in e.steps)


def _valid(tiles, rules: RuleSet) -> bool:
    return len(tiles) > 0 and meld_problem(tiles, rules) is None


def _rearrangements(melds: list[list[Tile]], rules: RuleSet) -> list[tuple[str, tuple]]:
    """Every way to change a table of valid melds into another by one split, join or tile moved."""
    options = []
    for a, m in enumerate(melds):
        for k in range(1, len(m)):
            if _valid(m[:k], rules) and _valid(m[k:], rules):
                options.append(("split", (a, k)))
        for b, other in enumerate(melds):
            if a != b and _valid(m + other, rules):
                options.append(("join", (a, b)))
        for k in range(len(m)):
            rest = m[:k] + m[k + 1 :]
            whole = _valid(rest, rules)
            if not whole and not (_valid(m[:k], rules) and _valid(m[k + 1 :], rules)):
                continue  # taking this tile leaves no valid meld(s) behind
            for b, other in enumerate(melds):
                if b != a:
                    for end in (0, 1):
                        if _valid([m[k]] + other if end == 0 else other + [m[k]], rules):
                            options.append(("move", (a, k, b, end)))
    return options


@st.composite
def rearranged_turns(draw, rules: RuleSet):
    """A legal turn that may rearrange the whole table: old melds, melds played from the rack, then
    a few random splits, joins and tiles moved between melds (each leaving valid melds only)."""
    left = Counter(rules.full_set())
    groups = []
    for count in (draw(st.integers(1, 4)), draw(st.integers(1, 2))):
        melds = []
        for _ in range(count):
            tiles = draw(meld_tiles(rules, max_jokers=1, max_length=6))
            if all(left[t] >= n for t, n in Counter(tiles).items()):
                left -= Counter(tiles)
                melds.append(tiles)
        groups.append(melds)
    old, played = groups
    assume(played)
    melds = [list(m) for m in old + played]
    for _ in range(draw(st.integers(0, 8))):
        options = _rearrangements(melds, rules)
        if not options:
            break
        kind, args = draw(st.sampled_from(options))
        if kind == "split":
            a, k = args
            melds[a : a + 1] = [melds[a][:k], melds[a][k:]]
        elif kind == "join":
            a, b = args
            melds[a] = melds[a] + melds[b]
            del melds[b]
        else:
            a, k, b, end = args
            tile = melds[a][k]
            melds[b] = [tile] + melds[b] if end == 0 else melds[b] + [tile]
            rest = melds[a][:k] + melds[a][k + 1 :]
            melds[a : a + 1] = [rest] if _valid(rest, rules) else [melds[a][:k], melds[a][k + 1 :]]
    rack = [t for m in played for t in m] + draw(st.lists(st.sampled_from(sorted(+left)), max_size=3, unique=True))
    position = Position(tuple(Meld.of(m, rules) for m in old), tuple(rack), True, rules)
    order = draw(st.permutations(range(len(melds))))
    return position, [melds[k] for k in order]


@settings(max_examples=300)
@given(data=st.data(), rules=st.sampled_from(RULE_SETS[:2] + RULE_SETS[3:]))
def test_property_any_rearrangement_is_explained_in_the_fewest_steps(data, rules):
    position, new_table = data.draw(rearranged_turns(rules))
    assume(verify(position, new_table).legal)
    assume(len(position.table) <= 5 and len(new_table) <= 7)
    check(position, new_table, explain(position, new_table))


@settings(max_examples=100)
@given(data=st.data())
def test_property_illegal_tables_raise_with_the_referees_codes(data):
    position, new_table = data.draw(rearranged_turns(STANDARD))
    # Drop one tile of the new table: it vanishes, or a meld breaks, or nothing was played.
    k = data.draw(st.integers(0, len(new_table) - 1))
    broken = [list(m) for m in new_table]
    broken[k].pop(data.draw(st.integers(0, len(broken[k]) - 1)))
    verdict = verify(position, broken)
    if verdict.legal:
        check(position, broken, explain(position, broken))
        return
    with pytest.raises(IllegalTurnError) as caught:
        explain(position, broken)
    assert caught.value.codes == verdict.codes
    for reason in verdict.reasons:
        assert reason.message in str(caught.value)


# -- JSON, the service, the command line ----------------------------------------------------------------

MOVE = {"table": [["R1", "R2", "R3"], ["K7", "B7", "O7"]], "rack": ["R4", "J", "R7"]}


def test_explanation_to_json():
    from rummisolve.jsonio import explanation_to_json

    e = explain(pos(["R3 R4 R5 R6 R7", "K7 B7 O7"], "R2"), ["R2 R3 R4 R5 R6", "K7 B7 O7 R7"])
    assert explanation_to_json(e) == {
        "meld_map": [0, 1],
        "steps": [
            {"tile": "R7", "from": 0, "to": 1, "text": "Take R7 from R3 R4 R5 R6 R7 and add it to K7 B7 O7"},
            {"tile": "R2", "from": "rack", "to": 0, "text": "Add R2 from your rack to the start of R3 R4 R5 R6"},
        ],
    }
    opening = explain(pos([], "K10 B10 O10", opened=False), ["K10 B10 O10"])
    assert explanation_to_json(opening)["meld_map"] == []
    split = explain(pos(["R1 R2 R3 R4 R5 R6", "K1 B1 O1"], "R7"), ["R1 R2 R3", "R4 R5 R6 R7", "K1 O1 B1"])
    assert explanation_to_json(split)["meld_map"] == [0, 2]


def test_explain_json_answers_like_verify_json():
    from rummisolve.service import explain_json

    turn = {"position": MOVE, "table": [["R1", "R2", "R3", "R4", "J"], ["K7", "B7", "O7", "R7"]]}
    answer = explain_json(turn)
    assert answer["meld_map"] == [0, 1]
    assert [(s["tile"], s["from"], s["to"]) for s in answer["steps"]] == [
        ("R4", "rack", 0),
        ("J", "rack", 0),
        ("R7", "rack", 1),
    ]
    assert answer["steps"][0]["text"] == "Add R4 J from your rack to the end of R1 R2 R3 (the joker stands for R5)"
    assert explain_json({"id": "t1", **turn}) == {"id": "t1", **answer}
    illegal = explain_json({"position": MOVE, "table": [["R1", "R2", "R3", "R7"], ["K7", "B7", "O7"]]})
    assert set(illegal) == {"error", "reasons"}
    assert illegal["error"].startswith("illegal turn: invalid_meld: table[0] (R1 R2 R3 R7) is not a valid meld")
    assert [r["code"] for r in illegal["reasons"]] == ["invalid_meld"]
    assert explain_json({"position": MOVE}) == {"error": "missing field(s) 'table'"}
    assert explain_json([1]) == {"error": "expected an object with fields 'position' and 'table', got array"}
    bad = explain_json({"position": MOVE, "table": [["R1", "X2"]]})
    assert list(bad) == ["error"] and bad["error"].startswith("table[0][1]: unknown tile code 'X2'")
    assert "position.rack[0]" in explain_json({"position": {"rack": [7]}, "table": []})["error"]
    assert "unknown field(s) 'explain'" in explain_json({**turn, "explain": True})["error"]


def test_solve_json_explains_when_asked():
    from rummisolve import solve_json

    plain = solve_json(MOVE)
    assert "steps" not in plain and "meld_map" not in plain
    assert "steps" not in solve_json({**MOVE, "explain": False})
    result = solve_json({**MOVE, "explain": True, "id": 7})
    assert next(iter(result)) == "id" and result["status"] == "optimal"
    assert {k: v for k, v in result.items() if k not in ("id", "meld_map", "steps", "timings")} == {
        k: v for k, v in plain.items() if k != "timings"
    }
    position = Position.from_notation([" ".join(m) for m in MOVE["table"]], " ".join(MOVE["rack"]))
    from rummisolve.jsonio import explanation_to_json

    expected = explanation_to_json(explain(position, result["table"]))
    assert result["meld_map"] == expected["meld_map"] and result["steps"] == expected["steps"]
    timings = result["timings"]
    assert timings["explain"] > 0 and list(timings)[-1] == "total"
    assert timings["total"] == pytest.approx(sum(v for k, v in timings.items() if k != "total"), abs=1e-5)


def test_solve_json_explain_without_a_move_and_bad_values():
    from rummisolve import solve_json

    none = solve_json({"table": [["K1", "K2", "K3"], ["R5", "B5", "O5"]], "rack": ["B9"], "explain": True})
    assert none["status"] == "no_move" and none["meld_map"] == [0, 1] and none["steps"] == []
    for value, kind in (("yes", "string"), (1, "number"), (None, "null")):
        bad = solve_json({**MOVE, "explain": value, "id": "b"})
        assert bad == {"id": "b", "status": "error", "error": f"position.explain: expected true or false, got {kind}"}
    broken = solve_json({"rack": ["X9"], "explain": True})
    assert broken["status"] == "error" and "position.rack[0]" in broken["error"]


def test_cli_solve_explain(monkeypatch, capsys):
    import io
    import json
    import sys

    from rummisolve import cli

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(MOVE) + "\n" + json.dumps({"rack": ["X1"]}) + "\n"))
    assert cli.main(["solve", "--explain"]) == 1  # the second line is an error
    first, second = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert first["meld_map"] == [0, 1] and len(first["steps"]) == 3
    assert second["status"] == "error"
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(MOVE) + "\n"))
    assert cli.main(["solve", "--explain", "--text"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-3:] == [
        "  steps:",
        "    1-2. Add R4 J from your rack to the end of R1 R2 R3 (the joker stands for R5)",
        "    3. Add R7 from your rack to K7 B7 O7",
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(MOVE) + "\n"))
    assert cli.main(["solve", "--text"]) == 0
    assert "steps:" not in capsys.readouterr().out


def test_demo_prints_the_steps(capsys):
    from rummisolve import cli

    assert cli.main(["demo", "manipulate"]) == 0
    out = capsys.readouterr().out
    assert "-- how to play it: 8 tile(s) move --" in out
    assert "1-3. Make a new run K5 K6 K7 with K7 from K7 O7 J and K5 K6 from your rack" in out
    assert "7-8. Add R7 R8 from your rack to the end of R3 R4 R5 R6" in out


def test_the_http_service_explains_when_asked():
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # starlette's notice about httpx
        from fastapi.testclient import TestClient

    from rummisolve.server.app import create_app
    from rummisolve.server.settings import Settings

    with TestClient(create_app(Settings(allowed_hosts="testserver"))) as client:
        answer = client.post("/solve", json={**MOVE, "explain": True})
        assert answer.status_code == 200 and len(answer.json()["steps"]) == 3
        refused = client.post("/solve", json={**MOVE, "explain": "yes"})
        assert refused.status_code == 400 and "position.explain" in refused.json()["error"]


def test_benchmark_smoke(tmp_path, capsys):
    import json

    from benchmarks import explain as bench

    out = tmp_path / "explain.json"
    assert bench.main(["--limit", "6", "--repeat", "1", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["rows"] and report["summary"]["moves"] == len(report["rows"])
    for row in report["rows"]:
        assert row["explain_ms"] > 0 and row["moves"] >= row["played"] >= 1
    assert "| explain_ms |" in capsys.readouterr().out
