"""Twist (special jokers) with the rule options ``wraparound`` and ``open_then_manipulate``:
hand-worked positions for the solver and the referee (the reasoning in the comments;
docs/rules.md#twist). Every solver answer is refereed inside :func:`solve`."""

from __future__ import annotations

from rummisolve import Position, solve
from rummisolve.melds import Meld, meld_problem
from rummisolve.referee import verify
from rummisolve.rules import TWIST, RuleSet
from rummisolve.tiles import Tile

WRAP = TWIST.replace(wraparound=True)


def _solve(table, rack, opened=True, objective="tiles", rules=WRAP):
    position = Position.from_notation(table, rack, opened, rules)
    return position, solve(position, objective)


def _played(solution) -> list[str]:
    return sorted(str(t) for t in solution.played)


def _melds(solution) -> list[str]:
    return sorted(str(m) for m in solution.table)


# -- wraparound ------------------------------------------------------------------------------------


def test_a_double_joker_in_a_run_that_wraps():
    # R11 and R1 are 3 numbers apart round the top: R11 JD R1 is 11-12-13-1, the JD standing for
    # R12 R13. Nothing else holds R1 with R11, so all three are played only with wraparound.
    _, s = _solve([], "R11 JD R1")
    assert _played(s) == ["JD", "R1", "R11"] and _melds(s) == ["R11 JD R1"]
    assert s.table[0].stands_for[1] == (Tile.parse("R12"), Tile.parse("R13"))
    _, plain = _solve([], "R11 JD R1", rules=TWIST)
    assert plain.status == "no_move"


def test_a_double_joker_for_the_top_number_and_1_at_a_runs_end():
    # On 5 numbers, R2 R3 R4 JD plays all four only as 2-3-4-(5 1): the JD cannot stand before
    # R2 (0 and 1), and any three of the tiles leave the fourth alone. Without wraparound 3 tiles.
    rules = RuleSet(numbers=5, double_jokers=2, wraparound=True)
    _, s = _solve([], "R2 R3 R4 JD", rules=rules)
    assert len(s.played) == 4 and _melds(s) == ["R2 R3 R4 JD"]
    assert s.table[0].stands_for[3] == (Tile.parse("R5"), Tile.parse("R1"))
    _, plain = _solve([], "R2 R3 R4 JD", rules=rules.replace(wraparound=False))
    assert len(plain.played) == 3


def test_a_colour_change_at_the_step_from_13_to_1():
    # R11 R12 JC B1 is 11-12-13-1: the JC stands for 13 and the colour changes to blue for the 1.
    # No other meld holds these four tiles (a JC never ends a run), so without wraparound: no move.
    _, s = _solve([], "R11 R12 JC B1")
    assert len(s.played) == 4 and _melds(s) == ["R11 R12 JC B1"]
    assert s.table[0].stands_for[2] == 13
    assert _solve([], "R11 R12 JC B1", rules=TWIST)[1].status == "no_move"


def test_a_mirror_side_that_wraps():
    # R13 R1 is a run fragment round the top: R13 R1 JM R1 R13 is a mirror meld under wraparound.
    _, s = _solve([], "R13 R1 JM R1 R13")
    assert len(s.played) == 5 and _melds(s) == ["R13 R1 JM R1 R13"]
    assert _solve([], "R13 R1 JM R1 R13", rules=TWIST)[1].status == "no_move"


def test_a_wrap_through_1_is_refused_with_special_jokers():
    # R12 JD R2 would read 12-(13 1)-2: 1 both after 13 and before 2. No move, and the referee
    # names the rule; likewise a JC at 13 with B1 B2 after it.
    assert _solve([], "R12 JD R2")[1].status == "no_move"
    for text in ("R12 JD R2", "R11 R12 JC B1 B2", "JD R1 R2", "R12 R13 JD"):
        assert meld_problem(text, WRAP)[0] == "wrap_through_one", text
    position = Position.from_notation([], "R12 JD R2", True, WRAP)
    verdict = verify(position, ["R12 JD R2"])
    assert not verdict and [r.code for r in verdict.reasons] == ["invalid_meld"]
    assert "wrap_through_one" in verdict.reasons[0].message


def test_an_initial_meld_through_the_top_counts_what_the_jokers_stand_for():
    # Not opened: R10 JC B12 JD is 10-(11)-12-(13 1), worth 10 + 11 + 12 + 13 + 1 = 47.
    position = Position.from_notation([], "R10 JC B12 JD", False, WRAP)
    assert Meld.parse("R10 JC B12 JD", WRAP).value == 47
    assert verify(position, ["R10 JC B12 JD"])
    s = solve(position)
    assert len(s.played) == 4


# -- open_then_manipulate ----------------------------------------------------------------------------

OTM = TWIST.replace(open_then_manipulate=True)


def test_an_opening_with_a_double_joker_then_manipulates():
    # Not opened: K10 B10 JD is the group of four 10s (JD for O10 R10), worth 40, an initial meld;
    # with the option the turn goes on and lays R4 on the table's R1 R2 R3. Without it, 3 tiles.
    s = _solve(["R1 R2 R3"], "K10 B10 JD R4", opened=False, rules=OTM)[1]
    assert _played(s) == ["B10", "JD", "K10", "R4"] and _melds(s) == ["K10 B10 JD", "R1 R2 R3 R4"]
    plain = _solve(["R1 R2 R3"], "K10 B10 JD R4", opened=False, rules=TWIST)[1]
    assert _played(plain) == ["B10", "JD", "K10"]


def test_an_opening_then_a_double_joker_on_the_table():
    # K10 B10 O10 R10 (40) opens; the JD then extends the table's R5 R6 R7 as 8-9: all 5 tiles.
    # Under the official rule the JD fits no meld of rack tiles (K10 B10 O10 JD would be 5 tens).
    s = _solve(["R5 R6 R7"], "K10 B10 O10 R10 JD", opened=False, rules=OTM)[1]
    assert len(s.played) == 5 and "R5 R6 R7 JD" in _melds(s)
    plain = _solve(["R5 R6 R7"], "K10 B10 O10 R10 JD", opened=False, rules=TWIST)[1]
    assert len(plain.played) == 4


def test_an_opening_counts_what_a_colour_change_stands_for():
    # R6 JC B8 B9 is 6-7-8-9, exactly 30 with the JC's 7; then B11 joins the table's K11 O11 R11
    # (it fits no run with B8 B9). Under the official rule B11 stays on the rack.
    s = _solve(["K11 O11 R11"], "R6 JC B8 B9 B11", opened=False, rules=OTM)[1]
    assert len(s.played) == 5 and "R6 JC B8 B9" in _melds(s)
    assert len(_solve(["K11 O11 R11"], "R6 JC B8 B9 B11", opened=False, rules=TWIST)[1].played) == 4


def test_a_mirror_meld_alone_does_not_open():
    # K7 R7 JM R7 K7 is worth 28 (the mirror 0): below 30, so nothing opens and B10 may not be
    # laid on the table: no move, with or without the option.
    for rules in (OTM, TWIST):
        assert _solve(["B7 B8 B9"], "K7 R7 JM R7 K7 B10", opened=False, rules=rules)[1].status == "no_move"


def test_an_opening_through_the_top_then_manipulates():
    # Both options: R11 R12 JD is 11-12-13-1 (37) and opens; then K1 joins the table's B1 O1 R1.
    rules = OTM.replace(wraparound=True)
    s = _solve(["B1 O1 R1"], "R11 R12 JD K1", opened=False, rules=rules)[1]
    assert len(s.played) == 4


def test_no_joker_in_the_initial_meld_covers_special_jokers_after_it():
    # joker_in_initial_meld false: a player opening plays no rack joker that turn, special ones
    # too, also after the initial meld: K10 B10 O10 opens, but the JD stays on the rack.
    rules = OTM.replace(joker_in_initial_meld=False)
    s = _solve(["R5 R6 R7"], "K10 B10 O10 JD", opened=False, rules=rules)[1]
    assert _played(s) == ["B10", "K10", "O10"]
    position = Position.from_notation(["R5 R6 R7"], "K10 B10 O10 JD", False, rules)
    assert verify(position, ["K10 B10 O10", "R5 R6 R7 JD"]).codes == ("joker_in_opening",)


def test_the_wrapping_examples_of_the_rules_doc():
    # docs/rules.md#twist, "With wraparound": each example's reading and initial-meld value
    for text, value in [
        ("R11 R12 JD", 37),
        ("R11 JD R1", 37),
        ("R11 R12 JC B1", 37),
        ("R10 JC B12 JD", 47),
        ("R12 R13 R1 JM R1 R13 R12", 52),
        ("R13 R1 JM R1 R13", 28),
        ("J R1 JM R1 J", 28),
    ]:
        assert Meld.parse(text, WRAP).value == value, text
    for text, reason in [
        ("R12 JD R2", "wrap_through_one"),
        ("R12 R13 JC B1", "gap"),
        ("R12 R13 JD", "wrap_through_one"),
    ]:
        assert meld_problem(text, WRAP)[0] == reason, text
