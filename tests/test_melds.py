"""The meld classifier against an independent brute-force definition (docs/rules.md, "Melds")."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rummisolve
from rummisolve.errors import InvalidMeldError
from rummisolve.melds import MELD_REASONS, Meld, MeldKind, meld_problem
from rummisolve.rules import STANDARD, XP, RuleSet
from rummisolve.tiles import JOKER, Colour, Tile, parse_tiles
from tests.support.strategies import rule_sets, valid_melds

NAMESPACE = {name: getattr(rummisolve, name) for name in ("Tile", "Colour", "RuleSet", "Meld")}
WRAP = RuleSet(wraparound=True)

# -- the brute-force definition -------------------------------------------------------------


def all_runs(rules: RuleSet, length: int) -> list[tuple[Tile, ...]]:
    """Every joker-free run of ``length`` tiles in play order, written from the definition in docs/rules.md alone."""
    colours = list(Colour)[: rules.colours]
    top = rules.numbers
    if length < rules.min_meld_length:
        return []
    runs = []
    for colour in colours:
        for first in range(1, top - length + 2):  # first .. first+length-1, all within 1..top
            runs.append(tuple(Tile(colour, n) for n in range(first, first + length)))
        if rules.wraparound and 2 <= length <= top:  # x .. top 1: 1 follows the top, never also precedes 2
            runs.append(tuple(Tile(colour, n) for n in range(top - length + 2, top + 1)) + (Tile(colour, 1),))
    return runs


def is_group(tiles: tuple[Tile, ...], rules: RuleSet) -> bool:
    """One number, distinct colours in play, between min_meld_length and colours tiles."""
    return (
        rules.min_meld_length <= len(tiles) <= rules.colours
        and len({t.number for t in tiles}) == 1
        and len({t.colour for t in tiles}) == len(tiles)
        and all(exists(t, rules) for t in tiles)
    )


def exists(tile: Tile, rules: RuleSet) -> bool:
    if tile.is_joker:
        return rules.jokers > 0
    return list(Colour).index(tile.colour) < rules.colours and 1 <= tile.number <= rules.numbers


def interpretations(seq: tuple[Tile, ...], rules: RuleSet) -> list[tuple[str, tuple[Tile, ...]]]:
    """Every meld of the rule set that ``seq`` can be, its jokers standing in for missing tiles:
    runs slot by slot in play order; groups as one representative (jokers take missing colours)."""
    if not all(exists(t, rules) for t in seq):
        return []
    real = [t for t in seq if not t.is_joker]
    if not real:
        return []
    found = [("run", run) for run in all_runs(rules, len(seq)) if all(t.is_joker or t == m for t, m in zip(seq, run))]
    number = real[0].number
    spare = iter(c for c in list(Colour)[: rules.colours] if c not in {t.colour for t in real})
    filled = tuple(t if not t.is_joker else Tile(next(spare, Colour.CYAN), number) for t in seq)
    if is_group(filled, rules):
        found.append(("group", filled))
    return found


def value_of(meld) -> int:
    return sum(t.number for t in meld)


# -- sequences to classify: mostly near-valid -----------------------------------------------


RULES = rule_sets(jokers=(0, 3))
MODES = ["run", "run", "group", "group", "valid", "random"]
OPS = ["swap", "bump", "recolour", "drop", "insert", "reverse"]


def near_meld(rules: RuleSet, rnd: random.Random) -> tuple[Tile, ...]:
    """A tile sequence that is often a valid meld and often nearly one."""
    colours = list(Colour)[: rules.colours]
    top = rules.numbers
    outside = [Tile(Colour.BLACK, top + 1)] + ([Tile(list(Colour)[rules.colours], 1)] if rules.colours < 8 else [])
    pool = list(rules.tile_kinds) + [JOKER]
    mode = rnd.choice(MODES)
    if mode == "random":
        return tuple(rnd.choice(pool + outside) for _ in range(rnd.randint(0, 9)))
    if mode == "run" or (mode == "valid" and rnd.random() < 0.5):
        # consecutive numbers taken cyclically: covers wraps, 13-1-2 and runs too long to exist
        colour, start = rnd.choice(colours), rnd.randint(1, top)
        shortest = 1 if rnd.random() < 0.15 else max(1, rules.min_meld_length - 1)
        length = rnd.randint(min(shortest, top), min(top + 2, 10))
        if mode == "valid":
            length = rnd.randint(min(rules.min_meld_length, top), top)
        seq = [Tile(colour, (start + j - 1) % top + 1) for j in range(length)]
    else:  # one number, colours usually distinct
        shortest = 1 if rnd.random() < 0.15 else max(1, rules.min_meld_length - 1)
        number, size = rnd.randint(1, top), rnd.randint(min(shortest, len(colours) + 1), len(colours) + 1)
        if rnd.random() < 0.7:
            chosen = (rnd.sample(colours, len(colours)) * 2)[:size]
        else:
            chosen = [rnd.choice(colours) for _ in range(size)]
        seq = [Tile(c, number) for c in chosen]
    jokers = rnd.choice([0, 0, 1, 1, 2, 3]) if rules.jokers or rnd.random() < 0.2 else 0
    for _ in range(jokers):  # jokers replace slots
        if seq:
            seq[rnd.randrange(len(seq))] = JOKER
    for _ in range(0 if mode == "valid" else rnd.choice([0, 0, 0, 1, 1, 2])):  # small corruptions
        if not seq:
            break
        op, i, j = rnd.choice(OPS), rnd.randrange(len(seq)), rnd.randrange(len(seq))
        t = seq[i]
        if op == "swap":
            seq[i], seq[j] = seq[j], seq[i]
        elif op == "bump" and not t.is_joker:
            seq[i] = Tile(t.colour, max(1, t.number + rnd.choice([-1, 1])))
        elif op == "recolour" and not t.is_joker:
            seq[i] = Tile(rnd.choice(colours), t.number)
        elif op == "drop":
            del seq[i]
        elif op == "insert":
            seq.insert(i, rnd.choice(pool + outside))
        elif op == "reverse":
            seq.reverse()
    return tuple(seq)


@st.composite
def rules_and_sequences(draw):
    """(rules, sequence): the rule set shrinks, the sequence comes from a drawn seed."""
    rules = draw(RULES)
    return rules, near_meld(rules, random.Random(draw(st.integers(0, 2**32 - 1))))


# -- the properties -------------------------------------------------------------------------


@settings(max_examples=1500)
@given(rules_and_sequences())
def test_classifier_agrees_with_brute_force(case):
    rules, seq = case
    found = interpretations(seq, rules)
    problem = meld_problem(seq, rules)
    codes = [str(t) for t in seq]
    if not found:
        assert problem is not None, f"{codes} accepted under {rules!r} but is no meld"
        code, message = problem
        assert code in MELD_REASONS and message
        with pytest.raises(InvalidMeldError) as info:
            Meld.of(seq, rules)
        assert info.value.reason == code
        assert info.value.tiles == seq
        assert repr(" ".join(codes)) in str(info.value)
        return
    assert problem is None, f"{codes} rejected ({problem}) under {rules!r}, but it is {found[0]}"
    meld = Meld.of(seq, rules)
    assert meld.tiles == seq
    best = max(value_of(m) for _, m in found)
    assert meld.value == best
    best_runs = [m for kind, m in found if kind == "run" and value_of(m) == best]
    if best_runs:  # a tie prefers the run
        assert meld.kind is MeldKind.RUN
        assert meld.represents in best_runs
    else:
        assert meld.kind is MeldKind.GROUP
        assert any(kind == "group" for kind, _ in found)
        assert is_group(meld.represents, rules)
    assert all(t.is_joker or r == t for t, r in zip(seq, meld.represents))
    assert meld.jokers == tuple((i, r) for i, (t, r) in enumerate(zip(seq, meld.represents)) if t.is_joker)
    assert meld.joker_count == seq.count(JOKER)


@settings(max_examples=300)
@given(rules_and_sequences())
def test_reason_precedence(case):
    """The cheap reasons come first: too short, then a tile outside the rules, then only jokers."""
    rules, seq = case
    problem = meld_problem(seq, rules)
    if len(seq) < rules.min_meld_length:
        assert problem[0] == "too_short"
    elif not all(exists(t, rules) for t in seq):
        assert problem[0] == "not_in_rules"
    elif all(t.is_joker for t in seq):
        assert problem[0] == "only_jokers"
    elif problem is not None:
        assert problem[0] not in ("too_short", "not_in_rules", "only_jokers")


@settings(max_examples=200)
@given(rule_sets().flatmap(lambda r: st.tuples(st.just(r), valid_melds(r))))
def test_generated_melds_and_repr(case):
    rules, meld = case
    assert eval(repr(meld), NAMESPACE) == meld
    assert eval(repr(meld), NAMESPACE).rules == rules
    assert Meld.parse(str(meld), rules) == meld
    assert pickle.loads(pickle.dumps(meld)) == meld
    assert len(meld) == len(meld.tiles) and list(meld) == list(meld.tiles)
    assert meld.same_tiles(Meld.of(tuple(reversed(meld.tiles)), rules)) if meld.kind is MeldKind.GROUP else True


# -- examples -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, rules, kind, represents, value",
    [
        ("R4 J R6", STANDARD, MeldKind.RUN, "R4 R5 R6", 15),
        ("R6 R7 R8 R9", STANDARD, MeldKind.RUN, "R6 R7 R8 R9", 30),
        ("K7 B7 O7", STANDARD, MeldKind.GROUP, "K7 B7 O7", 21),
        ("R7 K7 J", STANDARD, MeldKind.GROUP, "R7 K7 B7", 21),
        ("J K7 J B7", STANDARD, MeldKind.GROUP, "O7 K7 R7 B7", 28),
        ("J R2 J", STANDARD, MeldKind.RUN, "R1 R2 R3", 6),  # tie with the group 2+2+2: a run
        ("R5 J J", STANDARD, MeldKind.RUN, "R5 R6 R7", 18),
        ("J J R5", STANDARD, MeldKind.GROUP, "K5 B5 R5", 15),  # beats the run 3-4-5
        ("J J R2", STANDARD, MeldKind.GROUP, "K2 B2 R2", 6),  # 0-1-2 is no run
        ("R11 R12 J", STANDARD, MeldKind.RUN, "R11 R12 R13", 36),
        ("R12 J J", STANDARD, MeldKind.GROUP, "R12 K12 B12", 36),  # 12-13-14 is no run
        ("R12 R13 R1", WRAP, MeldKind.RUN, "R12 R13 R1", 26),
        ("R12 R13 J", WRAP, MeldKind.RUN, "R12 R13 R1", 26),
        ("J R13 R1", WRAP, MeldKind.RUN, "R12 R13 R1", 26),
        ("J J R1", WRAP, MeldKind.RUN, "R12 R13 R1", 26),
        ("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13", STANDARD, MeldKind.RUN, None, 91),
        ("K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 K1", WRAP, MeldKind.RUN, None, 91),
        ("K1 B1 O1 R1 G1", RuleSet(colours=5), MeldKind.GROUP, None, 5),
        ("J R1", RuleSet(wraparound=True, min_meld_length=2), MeldKind.RUN, "R13 R1", 14),
        ("R5 R6", RuleSet(min_meld_length=2), MeldKind.RUN, "R5 R6", 11),
    ],
)
def test_examples(text, rules, kind, represents, value):
    meld = Meld.parse(text, rules)
    assert meld.kind is kind
    assert str(meld) == " ".join(str(t) for t in parse_tiles(text))
    if represents is not None:
        assert meld.represents == parse_tiles(represents)
    assert meld.value == value


@pytest.mark.parametrize(
    "text, rules, reason",
    [
        ("R1 R2", STANDARD, "too_short"),
        ("", STANDARD, "too_short"),
        ("R1 R2 R3", RuleSet(min_meld_length=4), "too_short"),
        ("J J J", STANDARD, "only_jokers"),
        ("J J J J", STANDARD, "only_jokers"),
        ("R1 B2 K3", STANDARD, "mixed_colours"),
        ("R5 R6 B7", STANDARD, "mixed_colours"),
        ("R5 B5 K6", STANDARD, "mixed_colours"),
        ("R5 R5 B5", STANDARD, "duplicate_colour"),
        ("R5 J R5", STANDARD, "duplicate_colour"),
        ("K5 B5 O5 R5 J", STANDARD, "too_long"),
        ("K5 B5 O5 R5 J", XP, "too_long"),
        ("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 K1", WRAP, "too_long"),
        ("R1 R2 R4", STANDARD, "gap"),
        ("R1 J R4", STANDARD, "gap"),
        ("R3 R2 R1", STANDARD, "gap"),
        ("R2 R1 R3", STANDARD, "gap"),
        ("J R1 R2", STANDARD, "out_of_range"),
        ("R12 R13 J", STANDARD, "out_of_range"),
        ("R11 R12 R13 J", STANDARD, "out_of_range"),
        ("R12 R13 R1", STANDARD, "wrap_not_allowed"),
        ("R13 J R2", STANDARD, "wrap_not_allowed"),
        ("R13 R1 R2", WRAP, "wrap_through_one"),
        ("R12 R13 R1 R2", WRAP, "wrap_through_one"),
        ("R12 R13 R1 J", WRAP, "wrap_through_one"),
        ("J R1 R2", WRAP, "wrap_through_one"),
        ("J J R1 R2", WRAP, "wrap_through_one"),
        ("R13 J R2", WRAP, "wrap_through_one"),
        ("G1 G2 G3", STANDARD, "not_in_rules"),
        ("R12 R13 R14", STANDARD, "not_in_rules"),
        ("R1 R2 J", RuleSet(jokers=0), "not_in_rules"),
        ("K9 B9 O9", RuleSet(numbers=8), "not_in_rules"),
    ],
)
def test_each_reason(text, rules, reason):
    tiles = parse_tiles(text)
    problem = meld_problem(tiles, rules)
    assert problem is not None and problem[0] == reason, problem
    assert problem[1]
    with pytest.raises(InvalidMeldError) as info:
        Meld.parse(text, rules)
    assert info.value.reason == reason
    assert isinstance(info.value, ValueError)


def test_every_reason_is_documented_and_exercised():
    documented = set(MELD_REASONS)
    assert documented == {
        "too_short",
        "only_jokers",
        "mixed_colours",
        "duplicate_colour",
        "too_long",
        "gap",
        "out_of_range",
        "wrap_not_allowed",
        "wrap_through_one",
        "not_in_rules",
        # Twist (tests/test_twist_melds.py exercises each)
        "jc_at_end",
        "jc_adjacent",
        "jc_same_colour",
        "jc_segment_without_number",
        "jc_in_group",
        "jd_out_of_range",
        "jd_overfull",
        "mirror_asymmetric",
        "mirror_short",
        "mirror_twice",
        "mirror_special",
        # Meld.with_stands_for only (tests/test_meld_readings.py exercises it)
        "bad_stands_for",
    }


def test_meld_of_accepts_codes_and_tiles():
    assert Meld.of(["R1", "R2", "R3"]) == Meld.of(parse_tiles("R1 R2 R3")) == Meld.parse("r1 r2 r3")
    assert meld_problem("R1 R2 R3") is None
    assert meld_problem(["R1", "R2", "R3"]) is None


def test_meld_is_immutable_and_hashable():
    meld = Meld.parse("R4 J R6")
    with pytest.raises(AttributeError):
        meld.tiles = ()
    assert hash(meld) == hash(Meld.parse("R4 J R6"))
    assert meld != Meld.parse("R4 R5 R6")
    assert repr(meld) == "Meld.parse('R4 J R6')"
    assert meld.jokers == ((1, Tile.parse("R5")),)


def test_messages_count_slots_and_melds_from_zero_like_the_json():
    # One convention everywhere (docs/json-contract.md): slot 0 is a meld's first tile, table[0]
    # the first meld, as in the JSON's "jokers": [{"meld": 0, "slot": 0, ...}].
    with pytest.raises(InvalidMeldError, match="expected R2 at slot 1, found R3"):
        Meld.parse("R1 R3 R4")
    from rummisolve.position import Position

    with pytest.raises(InvalidMeldError, match=r"^table\[1\]: "):
        Position.from_notation(["R1 R2 R3", "K1 K3 K4"], "")
