"""Position: validation of tile ranges, copy counts and table melds; notation; immutability."""

from __future__ import annotations

import dataclasses
import pickle
from collections import Counter

import pytest
from hypothesis import given, settings

import rummisolve
from rummisolve.errors import InvalidMeldError, TileCountError, TileNotationError, TileRangeError
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import STANDARD, XP, RuleSet
from rummisolve.tiles import JOKER, parse_tiles
from tests.support.strategies import positions

NAMESPACE = {name: getattr(rummisolve, name) for name in ("Tile", "Colour", "RuleSet", "Meld", "Position")}


def test_from_notation_example():
    p = Position.from_notation(["R1 R2 R3", "K7 B7 O7"], "R4 J", opened=True)
    assert [str(m) for m in p.table] == ["R1 R2 R3", "K7 B7 O7"]
    assert all(isinstance(m, Meld) for m in p.table)
    assert p.rack == parse_tiles("R4 J")
    assert p.opened is True and p.rules is STANDARD
    assert str(p) == "table: R1 R2 R3 | K7 B7 O7\nrack:  R4 J\nopened: yes"
    assert p.tiles_in_play == 8


def test_from_notation_forms_agree():
    a = Position.from_notation("R1 R2 R3 | K7 B7 O7", "J r4", opened=False)
    b = Position.from_notation([["R1", "R2", "R3"], parse_tiles("K7 B7 O7")], ["R4", "J"], opened=False)
    c = Position((Meld.parse("R1 R2 R3"), ("K7", "B7", "O7")), ("J", "R4"), False)
    assert a == b == c
    assert hash(a) == hash(b) == hash(c)
    assert Position.from_notation() == Position((), ())
    assert str(Position.from_notation()) == "table: (empty)\nrack:  (empty)\nopened: yes"


def test_rack_is_sorted():
    p = Position.from_notation([], "J R13 K2 B1 R1 J O5")
    assert [str(t) for t in p.rack] == ["K2", "B1", "O5", "R1", "R13", "J", "J"]


# -- count checks ---------------------------------------------------------------------------


def test_copies_across_table_and_rack():
    Position.from_notation(["R1 R2 R3"], "R1")  # two R1: fine
    with pytest.raises(TileCountError) as info:
        Position.from_notation(["R1 R2 R3", "R1 B1 K1"], "R1")
    assert "R1" in str(info.value) and "3" in str(info.value) and "2" in str(info.value)
    with pytest.raises(TileCountError, match="R1"):
        Position.from_notation(["R1 R2 R3", "R1 R2 R3", "R1 B1 K1"], "")
    with pytest.raises(TileCountError, match="K5"):
        Position.from_notation([], "K5 K5 K5")
    Position.from_notation(["R1 R2 R3", "R1 B1 K1"], "R1", rules=XP)  # three copies in xp
    with pytest.raises(TileCountError, match="R1"):
        Position.from_notation(["R1 R2 R3", "R1 B1 K1"], "R1 R1", rules=XP)
    with pytest.raises(TileCountError, match="R1"):
        Position.from_notation([], "R1 R1", rules=RuleSet(copies=1))


def test_joker_counts():
    Position.from_notation(["R1 J R3"], "J")
    with pytest.raises(TileCountError, match="joker"):
        Position.from_notation(["R1 J R3"], "J J")
    with pytest.raises(TileCountError, match="joker"):
        Position.from_notation(["R1 J R3", "J K2 K3"], "J")
    Position.from_notation(["R1 J R3", "J K2 K3"], "J J", rules=XP)
    with pytest.raises(TileCountError, match="joker"):
        Position.from_notation(["R1 J R3", "J K2 K3"], "J J J", rules=XP)
    with pytest.raises(TileRangeError, match="'J'"):
        Position.from_notation([], "J", rules=RuleSet(jokers=0))
    with pytest.raises(InvalidMeldError, match=r"^table\[0\]: ") as info:
        Position.from_notation(["R1 J R3"], "", rules=RuleSet(jokers=0))
    assert info.value.reason == "not_in_rules"


# -- range checks ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rack, rules, bad",
    [
        ("R14", STANDARD, "R14"),
        ("K1 G5", STANDARD, "G5"),
        ("B9", RuleSet(numbers=8), "B9"),
        ("R1", RuleSet(colours=3), "R1"),
        ("P20", RuleSet(colours=5, numbers=20), "P20"),
    ],
)
def test_rack_tile_out_of_range(rack, rules, bad):
    with pytest.raises(TileRangeError) as info:
        Position.from_notation([], rack, rules=rules)
    assert repr(bad) in str(info.value)


def test_table_tile_out_of_range():
    with pytest.raises(InvalidMeldError) as info:
        Position.from_notation(["R12 R13 R14"], "")
    assert info.value.reason == "not_in_rules" and "R14" in str(info.value)


def test_bad_notation():
    with pytest.raises(TileNotationError, match="'X5'"):
        Position.from_notation([], "R1 X5")
    with pytest.raises(TileNotationError, match="'Q1'"):
        Position.from_notation(["R1 R2 R3", "Q1 Q2 Q3"], "")


# -- invalid table melds --------------------------------------------------------------------


@pytest.mark.parametrize(
    "table, index, reason",
    [
        (["R1 R2 R4"], 0, "gap"),
        (["R1 R2 R3", "K7 B7"], 1, "too_short"),
        (["R1 R2 R3", "K7 B7 O7", "K7 K8 B9"], 2, "mixed_colours"),
        (["R12 R13 R1"], 0, "wrap_not_allowed"),
        (["J J J"], 0, "only_jokers"),
    ],
)
def test_invalid_table_meld_named(table, index, reason):
    with pytest.raises(InvalidMeldError) as info:
        Position.from_notation(table, "R5")
    message = str(info.value)
    assert message.startswith(f"table[{index}]: ")  # counted from 0, as in the JSON
    assert repr(table[index]) in message
    assert info.value.reason == reason


def test_table_melds_revalidated_under_the_positions_rules():
    wrap = RuleSet(wraparound=True)
    meld = Meld.parse("R12 R13 R1", wrap)
    assert Position((meld,), (), True, wrap).table == (meld,)
    with pytest.raises(InvalidMeldError) as info:
        Position((meld,), (), True, STANDARD)
    assert info.value.reason == "wrap_not_allowed"
    two = RuleSet(min_meld_length=2)
    with pytest.raises(InvalidMeldError):
        Position((Meld.parse("R5 R6", two),), ())
    assert Position((Meld.parse("R5 R6", two),), (), rules=two).table[0].rules == two


def test_rules_must_be_a_ruleset():
    with pytest.raises(TypeError):
        Position((), (), True, "standard")


# -- value semantics ------------------------------------------------------------------------


def test_immutable():
    p = Position.from_notation(["R1 R2 R3"], "R4")
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.opened = False
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.rack = ()
    assert isinstance(p.table, tuple) and isinstance(p.rack, tuple)
    table = [("R1", "R2", "R3")]
    q = Position(table, ["R4"])
    table.append(("K1", "K2", "K3"))
    assert len(q.table) == 1


@settings(max_examples=120)
@given(positions())
def test_generated_positions(p):
    assert eval(repr(p), NAMESPACE) == p
    back = eval(repr(p), NAMESPACE)
    assert back.rules == p.rules and back.opened == p.opened
    assert pickle.loads(pickle.dumps(p)) == p
    again = Position.from_notation([str(m) for m in p.table], " ".join(map(str, p.rack)), p.opened, p.rules)
    assert again == p
    assert list(p.rack) == sorted(p.rack)
    table = Counter(t for m in p.table for t in m.tiles)
    assert p.table_counts() == table
    assert p.rack_counts() == Counter(p.rack)
    assert sorted(table.elements()) == list(p.table_tiles)
    assert p.tiles_in_play == sum(table.values()) + len(p.rack)
    unseen = p.unseen_counts()
    full = Counter(p.rules.full_set())
    assert unseen + table + Counter(p.rack) == full
    assert all(count > 0 for count in unseen.values())
    assert JOKER not in unseen or p.rules.jokers > 0


def test_a_meld_built_by_hand_is_checked_like_any_other():
    """Meld's constructor does not validate; Position must (a 2-tile 'run' made the solver fail)."""
    from rummisolve.errors import InvalidMeldError
    from rummisolve.melds import MeldKind

    r1, r2, r3 = parse_tiles("R1 R2 R3")
    with pytest.raises(InvalidMeldError, match=r"table\[0\]: invalid meld 'R1 R2'"):
        Position((Meld((r1, r2), MeldKind.RUN, (r1, r2)),), (r3,))
    wrong_kind = Meld((r1, r2, r3), MeldKind.GROUP, (r1, r2, r3))  # the right tiles, a wrong reading
    assert Position((wrong_kind,), ()).table[0].kind is MeldKind.RUN


@pytest.mark.parametrize("opened", ["no", "yes", None, 2, 0.5])
def test_opened_must_be_true_or_false(opened):
    with pytest.raises(TypeError, match="opened must be True or False"):
        Position((), parse_tiles("R1"), opened=opened)
    assert Position((), parse_tiles("R1"), opened=1).opened is True
