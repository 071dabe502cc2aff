"""The human player with scripted input: editing a tentative table within a turn, the referee's
verdict at the end (reasons naming melds as on screen), one-line errors, sorting, the display."""

from __future__ import annotations

import pytest

from rummisolve import verify
from rummisolve.game.actions import Draw, Play
from rummisolve.game.reasons import for_people
from rummisolve.game.state import PlayerView
from rummisolve.game.terminal.display import marked_table_text, rack_text, sorted_rack
from rummisolve.game.terminal.human import HumanPlayer, QuitGame, UndoRequest
from rummisolve.melds import Meld
from rummisolve.rules import STANDARD
from rummisolve.tiles import format_tiles, parse_tiles


def view_for(table, rack, opened=True, rules=STANDARD):
    melds = tuple(Meld.of(parse_tiles(m), rules) for m in table)
    return PlayerView(0, rules, tuple(sorted(parse_tiles(rack))), melds, opened, (opened, True), (10, 10), 20, 5)


class Script:
    """Feeds lines to a HumanPlayer and collects what it prints."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.out: list[str] = []

    def input(self) -> str:
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def output(self, text: str) -> None:
        self.out.append(text)

    def player(self) -> HumanPlayer:
        return HumanPlayer(input=self.input, output=self.output, names=("you", "medium"))

    @property
    def text(self) -> str:
        return "\n".join(self.out)

    def feed(self, *lines: str) -> None:
        self.lines.extend(lines)
        self.out.clear()


VIEW = view_for(["R4 R5 R6", "K9 B9 O9", "B1 B2 B3 B4"], "R3 R7 K7 J O8 B5")


def tables(action) -> list[str]:
    assert isinstance(action, Play)
    return [format_tiles(m) for m in action.table]


def test_edits_build_the_table_step_by_step():
    script = Script(
        "put R7 R3 on 1",  # R3 R4 R5 R6 R7
        "move R7 from 1 to new",  # meld 4: R7 (invalid)
        "put K7 on 4",  # R7 K7: still invalid
        "back",
        "back",  # meld 1 has R7 again
        "split 3 after 4",  # nothing to split off: an error, nothing changes
        "split 3 at B4",  # B1 B2 B3 | B4
        "put B5 on 4",  # B4 B5
        "join 4 3",  # B1 B2 B3 B4 B5 (joined before, as only that is valid)
        "done",
    )
    player = script.player()
    action = player.choose(VIEW)
    assert tables(action) == ["R3 R4 R5 R6 R7", "K9 B9 O9", "B1 B2 B3 B4 B5"]
    verdict = verify(VIEW.position, action.table)
    assert verdict.legal and verdict.played == parse_tiles("B5 R3 R7")
    out = script.text
    assert "  ! 4: [R7]   (1 tile(s); a meld needs at least 3)" in out  # invalid melds marked, with why
    assert "  * 1: [R3] R4 R5 R6 [R7]" in out  # changed melds starred, rack tiles in brackets
    assert "meld 3 (B1 B2 B3 B4) has 4 tiles: split it after 1 to 3 of them, not 4" in out
    assert "    2: K9 B9 O9" in out  # unchanged melds unmarked


def test_illegal_table_keeps_the_draft_and_names_melds_as_on_screen():
    script = Script("new K7 O8 J", "put R7 on 1", "done")
    player = script.player()
    action = player.choose(VIEW)
    assert tables(action) == ["R4 R5 R6 R7", "K9 B9 O9", "B1 B2 B3 B4", "K7 O8 J"]
    verdict = verify(VIEW.position, action.table)
    assert not verdict.legal and verdict.reasons[0].meld == 3
    script.feed("take K7 O8 J from 4", "done")
    player.illegal("illegal move: ...", verdict.reasons)
    again = player.choose(VIEW)  # asked again for the same turn: the tentative table is still there
    out = script.text
    assert "meld 4 (K7 O8 J) is not a valid meld" in out and "table[3]" not in out
    assert "  ! 4: [K7] [O8] [J]" in out
    assert tables(again) == ["R4 R5 R6 R7", "K9 B9 O9", "B1 B2 B3 B4"]
    assert verify(VIEW.position, again.table).legal


def test_reset_done_without_changes_and_draw():
    script = Script("done", "put R7 on 1", "reset", "back", "reset", "done", "reset", "d")
    player = script.player()
    assert isinstance(player.choose(VIEW), Draw)
    out = script.text
    assert out.count("the table is as your turn began: put tiles on it first, or 'draw'") == 2
    assert "the table is already as your turn began" in out
    assert "the table as your turn began:" in out


def test_undo_steps_apart_from_taking_back_a_turn():
    script = Script("back", "put R7 on 1", "undo", "reset", "undo")
    player = script.player()
    with pytest.raises(UndoRequest):
        player.choose(VIEW)
    out = script.text
    assert "nothing to step back: no edits this turn ('undo' takes back your last turn)" in out
    assert "'undo' takes back your whole last turn: 'back' steps back one edit, 'reset' all of them" in out


@pytest.mark.parametrize(
    "line, message",
    [
        ("put R8 on 1", "R8 is not on your rack"),
        ("put R7 on 9", "no meld 9: the table has melds 1 to 3"),
        ("put Q7 on 1", "unknown tile code 'Q7'"),
        ("move R7 from 1 to 2", "R7 is not in meld 1 (R4 R5 R6)"),
        ("join 2", "usage: join MELD MELD"),
        ("put J on 1", "the joker fits meld 1 at slot 1 (J R4 R5 R6) or slot 4 (R4 R5 R6 J): say which with 'at'"),
        ("sort size", "usage: sort colour | number"),
        ("fly away", "unknown command 'fly'"),
        ("+ R7 R8", "bad meld"),
        ("+ K7 J O8", "bad meld"),
    ],
)
def test_bad_commands_get_one_line(line, message):
    script = Script(line)
    player = script.player()
    with pytest.raises(QuitGame):
        player.choose(VIEW)
    errors = script.out[1:]  # after the view
    assert len(errors) == 1 and message in errors[0] and "\n" not in errors[0] and "Traceback" not in errors[0]


def test_plus_adds_to_the_tentative_table_and_equals_replaces_it():
    script = Script("put R3 on 1", "+ R7 K7 J")
    assert tables(script.player().choose(VIEW)) == ["R3 R4 R5 R6", "K9 B9 O9", "B1 B2 B3 B4", "R7 K7 J"]
    script = Script("put R7 on 1", "= R3 R4 R5 R6 | K9 B9 O9 | B1 B2 B3 B4")
    assert tables(script.player().choose(VIEW)) == ["R3 R4 R5 R6", "K9 B9 O9", "B1 B2 B3 B4"]


def test_sort_by_number_or_colour():
    rack = parse_tiles("R3 K7 J B3 O8 K1")
    assert format_tiles(sorted_rack(rack, "number")) == "K1 B3 R3 K7 O8 J"
    assert format_tiles(sorted_rack(rack, "colour")) == "K1 K7 B3 O8 R3 J"
    script = Script("sort number", "put R3 on 1", "t", "reset", "t", "sort colour")
    player = script.player()
    with pytest.raises(QuitGame):
        player.choose(view_for(["R4 R5 R6"], "R3 K7 J B3 O8 K1"))
    out = script.out
    assert out[1] == "your rack: K1 B3 R3 K7 O8 J"
    assert "your rack (5): K1 B3 K7 O8 J" in out[2]  # the tentative rack, by number from now on
    assert out[3] == "turn 6 | pool 20 | medium: 10 tiles" and out[4] == out[2]  # 't' with edits: the new table
    assert "(6, opened): K1 B3 R3 K7 O8 J" in out[6]  # 't' without: the turn's view, by number
    assert out[-1] == "your rack: K1 K7 B3 O8 R3 J"  # after the reset
    assert player.order == "colour"
    assert "[" not in rack_text(rack, colour=False)


def test_table_shown_after_an_ai_move_is_not_repeated_once():
    script = Script("q")
    player = script.player()
    player.seen(VIEW.table)
    with pytest.raises(QuitGame):
        player.choose(VIEW)
    assert "table: as above" in script.out[0] and "R4 R5 R6" not in script.out[0]
    script.feed("q")
    with pytest.raises(QuitGame):
        player.choose(VIEW)  # the next prompt shows it again
    assert "R4 R5 R6" in script.out[0]


def test_marked_table_text_with_and_without_colour():
    before = [Meld.parse("R1 R2 R3"), Meld.parse("K7 B7 O7")]
    after = [Meld.parse("R1 R2 R3"), Meld.parse("B7 K7 O7"), Meld.parse("R4 R5 R6 J")]
    plain = marked_table_text(after, before, colour=False)
    assert plain.splitlines() == ["    1: R1 R2 R3", "    2: B7 K7 O7", "  * 3: [R4] [R5] [R6] [J]"]
    changed = marked_table_text([Meld.parse("R1 R2 R3 R4"), before[1]], before, colour=False)
    assert changed.splitlines() == ["  * 1: R1 R2 R3 [R4]", "    2: K7 B7 O7"]
    coloured = marked_table_text([Meld.parse("R1 R2 R3 R4"), before[1]], before, colour=True)
    assert "[\033[1;31m\033[4mR4\033[0m]" in coloured and coloured.startswith("  * 1: \033[1;31mR1")
    invalid = marked_table_text([parse_tiles("R1 R2")], before, colour=False, rules=STANDARD)
    assert invalid == "  ! 1: R1 R2   (2 tile(s); a meld needs at least 3)"


def test_reasons_for_people_count_melds_from_one():
    assert for_people("table[0] (R1 R2) is not a valid meld: too_short: 2 tile(s); table[11] too") == (
        "meld 1 (R1 R2) is not a valid meld: 2 tile(s); meld 12 too"
    )
    from rummisolve.referee import Reason

    reason = Reason("invalid_meld", "table[2] (K1 K2) is not a valid meld: too_short: 2 tile(s)", 2)
    assert for_people(reason) == "meld 3 (K1 K2) is not a valid meld: 2 tile(s)"


def test_hint_levels_at_the_terminal():
    script = Script("hint 1", "hint 2", "hint", "hint 7", "d")
    assert isinstance(script.player().choose(VIEW), Draw)
    text = script.text
    assert "hint: You can play" in text and "The move changes" in text
    assert "best: play" in text and "from your rack" in text  # level 3: the move and its steps
    assert "hint takes a level 1, 2 or 3, not '7'" in text
