"""The solver on Twist positions: hand-worked traps (the reasoning in the comments), the special
jokers' assignment in decoded melds, and what the solver refuses."""

from __future__ import annotations

import pytest

from rummisolve import Position, solve
from rummisolve.errors import RuleSetError
from rummisolve.melds import Meld
from rummisolve.rules import STANDARD, TWIST
from rummisolve.tiles import COLOUR_CHANGE_JOKER, DOUBLE_JOKER, MIRROR_JOKER, Tile, parse_tiles


def _solve(table, rack, opened=True, objective="tiles", rules=TWIST):
    position = Position.from_notation(table, rack, opened, rules)
    return position, solve(position, objective)


def _played(solution) -> list[str]:
    return sorted(str(t) for t in solution.played)


def test_double_joker_makes_a_four_run_from_two_tiles():
    # R2 and R5 are three numbers apart: no regular meld holds both. JD stands for R3 R4, so
    # R2 JD R5 is the run 2-3-4-5 of three physical tiles. K9 fits nowhere: 3 tiles played.
    _, s = _solve([], "R2 R5 JD K9")
    assert s.status == "optimal" and _played(s) == ["JD", "R2", "R5"]
    (meld,) = s.table
    assert str(meld) == "R2 JD R5"
    assert meld.stands_for[1] == (Tile.parse("R3"), Tile.parse("R4"))


def test_colour_change_joins_two_short_runs():
    # R1 R2 and B4 B5 are two runs too short to lay, in two colours. JC fills 3 and changes the
    # colour: R1 R2 JC B4 B5 is 1-2-3-4-5, red then blue, every rack tile played (5).
    _, s = _solve([], "R1 R2 B4 B5 JC")
    assert s.status == "optimal" and len(s.played) == 5
    (meld,) = s.table
    assert meld.tiles.count(COLOUR_CHANGE_JOKER) == 1
    assert meld.stands_for[meld.tiles.index(COLOUR_CHANGE_JOKER)] == 3


def test_mirror_meld_uses_both_copies_of_three_tiles():
    # Both copies of R1 R2 R3 and a JM: as two runs R1 R2 R3 they leave JM on the rack (6 tiles);
    # the mirror meld R1 R2 R3 JM R3 R2 R1 plays all 7, worth 30 more points shed.
    for objective, expected in (("tiles", 7), ("value", 12 + 30)):
        _, s = _solve([], "R1 R1 R2 R2 R3 R3 JM", objective=objective)
        got = len(s.played) if objective == "tiles" else s.value
        assert got == expected
        assert [str(m) for m in s.table] == ["R1 R2 R3 JM R3 R2 R1"]


def test_special_joker_never_stands_in_for_a_regular_one():
    # R5 R7 need an R6: a regular J would give R5 J R7. JD stands for two tiles and JC must sit
    # inside a run between two segments of different colours, JM needs a mirrored side:
    # none of them can be R6, so nothing can be played.
    for joker in ("JD", "JC", "JM"):
        _, s = _solve([], f"R5 R7 {joker} K11")
        assert s.status == "no_move", joker
    _, s = _solve([], "R5 R7 J K11")  # the regular joker does: R5 J R7
    assert _played(s) == ["J", "R5", "R7"]


def test_special_joker_does_not_fill_a_regular_joker_slot_on_the_table():
    # The JD cannot take the J's place in R5 J R7 (it would stand for two tiles there, R6 and
    # R7, and R7 is real): it extends the run instead, R5 J R7 JD = 5-6-7-8-9, the J staying.
    _, s = _solve(["R5 J R7"], "JD")
    assert s.status == "optimal" and _played(s) == ["JD"]
    (meld,) = s.table
    assert meld.tiles.count(DOUBLE_JOKER) == 1 and meld.tiles.count(Tile.parse("J")) == 1


def test_opening_counts_double_joker_as_two_numbers():
    # Not opened: R9 JD R12 is 9-10-11-12 = 42 >= 30 (the JD counts 10 + 11). Without the JD's
    # two numbers it would be 21: the opening stands only because the JD counts both.
    _, s = _solve([], "R9 R12 JD", opened=False)
    assert s.status == "optimal" and _played(s) == ["JD", "R12", "R9"]
    assert s.table[0].value == 42


def test_opening_counts_mirror_joker_as_zero():
    # K5 K6 K5 K6 JM: the mirror meld K5 K6 JM K6 K5 is worth 22 (JM counts 0, not 30). The
    # rack cannot open (22 < 30); with K7 K7 the mirror K5 K6 K7 JM K7 K6 K5 is worth 36.
    _, s = _solve([], "K5 K5 K6 K6 JM", opened=False)
    assert s.status == "no_move"
    _, s = _solve([], "K5 K5 K6 K6 K7 K7 JM", opened=False)
    assert s.status == "optimal" and len(s.played) == 7
    assert s.table[0].value == 36


def test_table_melds_with_special_jokers_stay_as_they_were():
    # Least disturbance: K9 can only extend the K run; the mirror and the JD run are kept as they
    # were (same objects in the answer, indices in kept).
    table = ["R1 R2 R3 JM R3 R2 R1", "B2 JD B5", "K6 K7 K8"]
    position, s = _solve(table, "K9 O13")
    assert _played(s) == ["K9"]
    assert set(s.kept) == {0, 1}
    assert [str(m) for m in s.table[:2]] == table[:2]


def test_twist_with_strict_retrieval_is_refused():
    with pytest.raises(RuleSetError, match="strict"):
        TWIST.replace(joker_retrieval="strict")


def test_standard_rules_reject_special_jokers():
    with pytest.raises(Exception, match="JD"):
        Position.from_notation([], "R1 R2 JD", True, STANDARD)


def test_value_objective_prefers_shedding_special_jokers():
    # R10 JD R13 (10-11-12-13) is the only meld: it sheds 10 + 13 + the JD's rack penalty 30.
    _, s = _solve([], "R10 R13 JD K1", objective="value")
    assert _played(s) == ["JD", "R10", "R13"] and s.value == 53


def test_every_jokers_assignment_is_reported():
    _, s = _solve([], "K7 R7 R7 K7 JM B3 R3 JD")
    melds = {str(m): m for m in s.table}
    mirror = next(m for m in melds.values() if MIRROR_JOKER in m.tiles)
    assert mirror.stands_for[mirror.tiles.index(MIRROR_JOKER)] is None
    group = next(m for m in melds.values() if DOUBLE_JOKER in m.tiles)
    pair = group.stands_for[group.tiles.index(DOUBLE_JOKER)]
    assert len(pair) == 2 and {t.number for t in pair} == {3}
    assert Meld.of(parse_tiles(str(group)), TWIST) == group


def test_twist_with_wraparound_is_answered_by_the_solver():
    # (the hand-worked wrapping positions are in tests/solver/test_twist_options.py)
    rules = TWIST.replace(wraparound=True)
    position = Position.from_notation([], "R12 R13 R1 JD", True, rules)
    assert len(solve(position).played) == 4  # JD R12 R13 R1: 10-11-12-13-1
    from rummisolve.solver_limits import unsupported_rules

    assert unsupported_rules(rules) is None and unsupported_rules(TWIST) is None


def test_alternatives_under_twist_differ_in_played_tiles():
    # The best move plays the JD with R2 R5; an alternative must play another multiset.
    _, s = _solve([], "R2 R5 JD K9 K10 K11")
    position = s.position
    best = solve(position, alternatives=2, alternatives_mode="distinct")
    seen = [sorted(map(str, best.played))] + [sorted(map(str, a.played)) for a in best.alternatives]
    assert len({tuple(x) for x in seen}) == len(seen) >= 2
    # The best move plays the whole rack: no move plays a tile it does not.
    assert len(best.played) == 6 and solve(position, alternatives=2).alternatives == ()


def test_a_twist_game_with_every_ai_level_is_refereed_and_uses_special_jokers():
    from rummisolve.game import make_player, play_game

    seen: list = []
    game, record = play_game(
        [make_player(level, seed=i) for i, level in enumerate(("easy", "medium", "hard"))],
        rules=TWIST,
        seed=2,
        on_turn=lambda info: seen.append(info.position),
    )
    assert record.illegal_moves == 0 and record.plays > 0
    tables = [t for position in seen for meld in position.table for t in meld.tiles]
    assert any(t.is_special_joker for t in tables)
