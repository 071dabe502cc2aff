"""Editing a tentative table: put, new, move, take, split, join, where tiles go, and the errors
(each naming the bad part, melds numbered from 1 as on screen); the command syntax on top."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummisolve.errors import RummisolveError, TableEditError, TileNotationError
from rummisolve.game.table_edit import Draft, arrange, join, move, new_meld, place, put, split, split_at, take
from rummisolve.game.terminal.edit_commands import apply_edit
from rummisolve.melds import Meld
from rummisolve.rules import RuleSet
from rummisolve.tiles import format_tiles, parse_tiles

T = parse_tiles


def draft(table, rack, rules=None):
    melds = [Meld.parse(m) for m in table] if rules is None else [Meld.parse(m, rules) for m in table]
    return Draft.start(melds, T(rack), *(() if rules is None else (rules,)))


def shown(d: Draft) -> list[str]:
    return [format_tiles(m) for m in d.table]


START = draft(["R4 R5 R6", "K9 B9 O9", "B1 B2 B3 B4"], "R3 R7 R9 K7 J O8")


def test_put_places_tiles_where_their_number_fits():
    d = put(START, T("R7 R3"), 0)
    assert shown(d) == ["R3 R4 R5 R6 R7", "K9 B9 O9", "B1 B2 B3 B4"]
    assert format_tiles(d.rack) == "R9 K7 J O8" and d.played == T("R3 R7") and d.invalid() == ()
    assert shown(put(START, T("R9"), 1)) == ["R4 R5 R6", "K9 B9 O9 R9", "B1 B2 B3 B4"]  # a group: appended
    assert shown(put(START, T("R9"), 0))[0] == "R4 R5 R6 R9"  # no valid place: by number, still
    assert START.table == (T("R4 R5 R6"), T("K9 B9 O9"), T("B1 B2 B3 B4")) and not START.changed  # pure


def test_put_joker_needs_a_slot_only_when_it_fits_twice():
    with pytest.raises(TableEditError, match=r"joker fits meld 1 at slot 1 \(J R4 R5 R6\) or slot 4 "):
        put(START, T("J"), 0)
    assert shown(put(START, T("J"), 0, at=3))[0] == "R4 R5 R6 J"
    assert shown(put(START, T("J"), 1))[1] == "K9 B9 O9 J"  # a group: any slot is the same group
    assert format_tiles(place(T("R4 R5 R6"), T("R8 J"))) == "R4 R5 R6 J R8"  # the gap decides
    top = draft(["O11 O12 O13"], "J")
    assert shown(put(top, T("J"), 0)) == ["J O11 O12 O13"]  # the only valid slot
    with pytest.raises(TableEditError, match="slot 6: meld 1 has 3 tiles, so new ones go at slot 1 to 4"):
        put(START, T("J"), 0, at=5)


def test_place_keeps_a_valid_runs_jokers_and_wraps_around():
    assert format_tiles(place(T("R4 J R6"), T("R7 R3"))) == "R3 R4 J R6 R7"
    wrap = RuleSet(wraparound=True)
    assert format_tiles(place(T("R12 R13"), T("R1"), wrap)) == "R12 R13 R1"
    assert format_tiles(place(T("R12 R13"), T("R1"))) == "R1 R12 R13"  # no wraparound: by number
    assert format_tiles(arrange(T("R10 R8 R9"))) == "R8 R9 R10"
    assert format_tiles(arrange(T("R5 R6 J"))) == "R5 R6 J"  # valid as given: kept


def test_new_meld_and_move():
    d = new_meld(START, T("R9 R7 J"))
    assert shown(d)[3] == "R7 J R9" and format_tiles(d.rack) == "R3 K7 O8"
    d = move(START, T("R4"), 0, 2)
    assert shown(d) == ["R5 R6", "K9 B9 O9", "B1 B2 B3 B4 R4"] and d.invalid() == (0, 2)
    assert d.played == () and d.changed
    d = move(START, T("O9"), 1, None)
    assert shown(d)[-1] == "O9" and len(d.table) == 4
    emptied = move(move(move(START, T("K9"), 1, 0), T("B9"), 1, 0), T("O9"), 1, 0)
    assert shown(emptied) == ["R4 R5 R6 K9 B9 O9", "B1 B2 B3 B4"]  # the emptied meld 2 is gone


def test_take_returns_only_tiles_from_the_rack():
    d = put(START, T("R7"), 0)
    back = take(d, T("R7"), 0)
    assert back.table == START.table and sorted(back.rack) == sorted(START.rack) and not back.changed
    with pytest.raises(TableEditError, match="R4 was on the table when your turn began"):
        take(d, T("R4"), 0)
    lonely = take(new_meld(START, T("K7")), T("K7"), 3)
    assert len(lonely.table) == 3


def test_split_and_join():
    d = split(START, 2, 2)
    assert shown(d) == ["R4 R5 R6", "K9 B9 O9", "B1 B2", "B3 B4"] and d.invalid() == (2, 3)
    assert shown(split_at(START, 2, T("B3")[0])) == shown(d)
    assert shown(join(d, [2, 3])) == shown(START)
    assert shown(join(d, [3, 2])) == ["R4 R5 R6", "K9 B9 O9", "B1 B2 B3 B4"]  # before, as only that is valid
    runs = draft(["R1 R2 R3", "K5 K6 K7", "R4 R5 R6"], "")
    assert shown(join(runs, [0, 2])) == ["R1 R2 R3 R4 R5 R6", "K5 K6 K7"]


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda: put(START, T("R8"), 0), "R8 is not on your rack"),
        (lambda: put(START, T("R7 R7"), 0), "2 copies of R7 named; your rack has 1"),
        (lambda: put(START, T("R7"), 8), "no meld 9: the table has melds 1 to 3"),
        (lambda: put(START, T("R7"), -1), "no meld 0: the table has melds 1 to 3"),
        (lambda: put(Draft.start([], T("R7")), T("R7"), 0), "no meld 1: the table is empty"),
        (lambda: put(START, (), 0), "name at least one tile"),
        (lambda: move(START, T("R7"), 0, 1), r"R7 is not in meld 1 \(R4 R5 R6\)"),
        (lambda: move(START, T("R4"), 0, 5), "no meld 6"),
        (lambda: split(START, 0, 3), "meld 1 .* has 3 tiles: split it after 1 to 2 of them, not 3"),
        (lambda: split_at(START, 0, T("R4")[0]), "R4 is the first tile of meld 1"),
        (lambda: split_at(START, 0, T("R9")[0]), "R9 is not in meld 1"),
        (lambda: join(START, [1]), "at least two melds"),
        (lambda: join(START, [1, 1]), "meld 2 is named twice"),
        (lambda: take(START, T("K9"), 1), "K9 was on the table when your turn began"),
    ],
)
def test_edit_errors_name_the_bad_part(edit, message):
    with pytest.raises(TableEditError, match=message):
        edit()


def test_commands_parse_screen_numbers():
    assert shown(apply_edit(START, "put R7 R3 on 1")) == shown(put(START, T("R3 R7"), 0))
    assert shown(apply_edit(START, "PUT j ON 1 AT 4"))[0] == "R4 R5 R6 J"
    assert shown(apply_edit(START, "new K7 J O8"))[3] == "K7 J O8"
    assert shown(apply_edit(START, "move R6 from 1 to 3 at 1"))[2] == "R6 B1 B2 B3 B4"
    assert shown(apply_edit(START, "move B4 from 3 to new"))[3] == "B4"
    assert shown(apply_edit(START, "split 3 at B3")) == shown(split(START, 2, 2))
    assert shown(apply_edit(START, "split 3 after 1")) == shown(split(START, 2, 1))
    assert shown(apply_edit(START, "join 1 2")) == ["R4 R5 R6 K9 B9 O9", "B1 B2 B3 B4"]
    d = apply_edit(START, "put R7 on 1")
    assert apply_edit(d, "take R7 from 1").table == START.table


@pytest.mark.parametrize(
    "line, error, message",
    [
        ("put R7 3", TableEditError, "usage: put TILES on MELD .*'on' is missing"),
        ("put on 3", TableEditError, "name at least one tile"),
        ("put R7 on x", TableEditError, "'x' is not a meld number"),
        ("put R7 on 1 at", TableEditError, "expected a meld number, then at SLOT"),
        ("put Q7 on 1", TileNotationError, "unknown tile code 'Q7'"),
        ("move R4 from 1 2", TableEditError, "'to' is missing"),
        ("move R4 from 1 to new at 2", TableEditError, "nothing may follow 'to new'"),
        ("split 1 at 2", TableEditError, "say 'split 1 after 2'"),
        ("split 1", TableEditError, "usage: split MELD at TILE"),
        ("join 1", TableEditError, "usage: join MELD MELD"),
        ("take R7", TableEditError, "'from' is missing"),
    ],
)
def test_bad_commands_name_the_bad_part(line, error, message):
    with pytest.raises(error, match=message) as raised:
        apply_edit(START, line)
    assert isinstance(raised.value, RummisolveError) and "\n" not in str(raised.value)


EDITS = st.lists(
    st.tuples(
        st.sampled_from(["put", "new", "move", "take", "split", "join"]),
        st.integers(0, 5),
        st.integers(0, 5),
        st.integers(0, 4),
    ),
    max_size=12,
)


@given(EDITS)
def test_edits_never_lose_or_make_tiles(edits):
    # Any sequence of edits (failed ones change nothing) keeps table + rack the same tiles, and
    # every table tile of the turn's start stays on the table.
    d = START
    total = Counter(t for m in START.table for t in m) + Counter(START.rack)
    for verb, a, b, c in edits:
        tiles = d.rack[c : c + 1] if verb in ("put", "new") else d.table[a][c : c + 1] if a < len(d.table) else ()
        try:
            if verb == "put":
                d = put(d, tiles, a)
            elif verb == "new":
                d = new_meld(d, tiles)
            elif verb == "move":
                d = move(d, tiles, a, b if b < 4 else None)
            elif verb == "take":
                d = take(d, tiles, a)
            elif verb == "split":
                d = split(d, a, c)
            else:
                d = join(d, [a, b])
        except TableEditError:
            pass
        assert Counter(t for m in d.table for t in m) + Counter(d.rack) == total
        assert not Counter(t for m in START.table for t in m) - Counter(t for m in d.table for t in m)
        assert all(d.table)  # no empty melds


def test_jokers_on_a_huge_meld_go_at_the_end_without_trying_every_slot(monkeypatch):
    import rummisolve.game.table_edit as table_edit

    tried = []
    real = table_edit._as_meld
    monkeypatch.setattr(table_edit, "_as_meld", lambda tiles, rules: tried.append(tiles) or real(tiles, rules))
    huge = tuple(T("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13") * 3)
    assert place(huge, T("J J J J")) == huge + T("J J J J")
    assert len(tried) <= 3  # C(43, 4) = 123,410 slot choices are not tried one by one
    tried.clear()
    assert format_tiles(place(T("R4 R5 R7"), T("J"))) == "R4 R5 J R7"
    assert len(tried) > 3  # a real meld: every slot is tried
