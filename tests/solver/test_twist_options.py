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
