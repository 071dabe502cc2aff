"""``rummisolve play`` with several people at one terminal (hot-seat, issue 39), driven through a
scripted keyboard that marks in the output where each line was read and notes every seat's real
rack (from the game engine) at that moment. The checks: each pass screen starts on a cleared
screen and shows no tile; after its Enter only that seat's screen, whose every printed rack is
(part of) that seat's own real rack and never another seat's; whole rounds to their end with
and without an AI; save, load (the pass screen first), undo and the saved log."""

from __future__ import annotations

import io
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field

import pytest

from rummisolve.cli import main
from rummisolve.errors import RummisolveError
from rummisolve.game.engine import Game
from rummisolve.game.state import GameState
from rummisolve.game.terminal import hotseat
from rummisolve.game.terminal.hotseat import CLEAR_SCREEN, SEPARATOR
from rummisolve.tiles import Tile

SMALL = '{"colours": 3, "numbers": 9, "copies": 1, "jokers": 1, "rack_size": 6, "initial_threshold": 10}'
MARK = "\n<<read {}>>\n"
PASS = re.compile(r"Pass to (.+), press Enter $")
RACK = re.compile(r"your rack \(\d+[^)]*\): (.*)$")


@dataclass
class Keyboard:
    """Standard input typing ``lines``; each read writes a mark into the output and notes the racks."""

    lines: list[str]
    games: list[Game] = field(default_factory=list)
    states: list[GameState] = field(default_factory=list)

    def readline(self) -> str:
        sys.stdout.write(MARK.format(len(self.states)))
        self.states.append(self.games[-1].state)
        return self.lines.pop(0) + "\n" if self.lines else ""


@pytest.fixture
def keyboard(monkeypatch):
    """A function ``type(lines)`` putting a :class:`Keyboard` on standard input; it learns the game
    at the terminal when the hot-seat screens are set up."""
    games: list[Game] = []
    real_init = hotseat.HotSeat.__init__

    def spying_init(self, game, *args, **kwargs):
        games.append(game)
        real_init(self, game, *args, **kwargs)

    monkeypatch.setattr(hotseat.HotSeat, "__init__", spying_init)

    def type_lines(lines: list[str]) -> Keyboard:
        board = Keyboard(list(lines), games)
        monkeypatch.setattr("sys.stdin", board)
        return board

    return type_lines


def _tiles_in(text: str) -> list[Tile]:
    found = []
    for word in re.split(r"[\s,;:()\[\]|]+", text):
        try:
            found.append(Tile.parse(word))
        except RummisolveError:
            pass
    return found


def check_screens(out: str, board: Keyboard, names: list[str]) -> int:
    """Check every pass screen and seat screen of ``out`` up to the round's end (where every rack
    is shown); the number of pass screens."""
    out = re.split(r"\n\n\S+( \d)? wins?: ", out)[0]
    chunks = re.split(r"\n<<read (\d+)>>\n", out)
    texts, reads = chunks[0::2], [int(n) for n in chunks[1::2]]
    assert reads == list(range(len(reads)))
    on_screen: int | None = None
    passes = 0
    for k, text in enumerate(texts):
        state = board.states[k] if k < len(reads) else board.games[-1].state  # when the next line is read
        if SEPARATOR in text or CLEAR_SCREEN in text:
            before, _, after = text.rpartition(SEPARATOR if SEPARATOR in text else CLEAR_SCREEN)
            _check_seat_lines(before, on_screen, state)
            on_screen, text = None, after
        _check_seat_lines(text, on_screen, state)
        prompt = PASS.search(text)
        if prompt is not None:
            assert on_screen is None, "a pass screen without a cleared screen before it"
            seat = names.index(prompt.group(1))
            assert _tiles_in(text) == [], f"tiles on the pass screen to {prompt.group(1)}: {text!r}"
            assert not set(_tiles_in(text)) & set(state.racks[seat])
            on_screen, passes = seat, passes + 1
        elif on_screen is None and k < len(reads):
            assert "your rack" not in text and text.endswith("> "), f"a prompt with nobody's screen: {text!r}"
    return passes


def _check_seat_lines(text: str, seat: int | None, state: GameState) -> None:
    """Every rack printed on ``seat``'s screen is within that seat's real rack, and no other seat's;
    every tile any line names is on that rack, the table or the discard pile."""
    racks = state.racks
    public = Counter(state.table_tiles) + Counter(state.discards)
    for line in text.splitlines():
        if "from the discard pile" not in line:  # a tile taken from the pile: now on a rack, public
            mine = Counter() if seat is None else Counter(racks[seat])
            assert Counter(set(_tiles_in(line))) <= mine + public, f"on seat {seat}'s screen: {line!r}"
        shown = RACK.search(line)
        drew = re.match(r"(?:> )?you draw (\S+)$", line) or re.search(r"\| you drew (\S+) from the pool$", line)
        if shown is None and drew is None:
            continue
        assert seat is not None, f"a rack with nobody at the terminal: {line!r}"
        own = Counter(racks[seat])
        if drew is not None:
            assert Tile.parse(drew.group(1)) in own
            continue
        printed = Counter(_tiles_in(shown.group(1)))
        assert printed <= own, f"{line!r} is not seat {seat}'s rack {sorted(own.elements())}"
        for other, rack in enumerate(racks):
            if other != seat and Counter(rack) != own:
                assert printed != Counter(rack), f"seat {seat}'s screen shows seat {other}'s rack"


def test_two_people_play_a_whole_round_behind_pass_screens(keyboard, capsys, tmp_path):
    save = tmp_path / "game.json"
    board = keyboard(["", "best"] * 60)
    args = ["play", "--players", "human,human", "--seed", "4", "--rules", SMALL, "--colour", "never"]
    assert main([*args, "--save", str(save)]) == 0
    out = capsys.readouterr().out
    game = board.games[-1]
    assert game.finished
    passes = check_screens(out, board, ["player 1", "player 2"])
    human_turns = len({(e.player, i) for i, e in enumerate(game.events)})
    assert passes == human_turns >= 4  # one pass screen before every turn, each a person's
    assert re.search(r"player \d wins: .*, after \d+ turns \(seed 4\); saved to", out)
    assert "seed 4" not in out.split("wins: ")[0]  # the seed is shown when the round ends only
    # Each seat hears what the other did since its last turn (a tile drawn from the pool unnamed).
    assert re.search(r"since your last turn( \(you drew \w+\))?:\n  player 1 ", out)
    assert re.search(r"since your last turn( \(you drew \w+\))?:\n  player 2 ", out)
    saved = Game.load(save)
    assert saved.finished and saved.names == ("player 1", "player 2") and saved.log() == game.log()


def test_two_people_and_an_ai_play_a_whole_round(keyboard, capsys):
    board = keyboard(["", "best"] * 60)
    args = ["play", "--players", "human,human,easy", "--seed", "2", "--rules", SMALL, "--colour", "never"]
    assert main(args) == 0
    out = capsys.readouterr().out
    game = board.games[-1]
    assert game.finished
    passes = check_screens(out, board, ["player 1", "player 2", "easy"])
    assert passes == sum(1 for e in game.events if e.player != 2)  # the AI plays between, no pass screen
    assert re.search(r"\n  easy (plays|draws a tile|passes)", out)  # the AI's turns told in the next recap
    assert " wins: " in out


def test_the_discard_rule_at_one_terminal(keyboard, capsys):
    rules = SMALL[:-1] + ', "discard": true}'
    board = keyboard(["best"] * 200)  # any line passes the pass screen; 'best' draws, plays, discards
    args = ["play", "--players", "human,human", "--seed", "3", "--rules", rules, "--colour", "never"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert board.games[-1].finished and " wins: went out (discarded the last tile)" in out
    turns = sum(1 for e in board.games[-1].events if type(e).__name__ != "DrawEvent")
    assert check_screens(out, board, ["player 1", "player 2"]) == turns
    assert re.search(r"\n  player \d draws a tile from the pool\n", out) and "you draw " in out


def test_save_quit_load_resumes_with_the_pass_screen_then_undo(keyboard, capsys, tmp_path):
    save = tmp_path / "game.json"
    keyboard(["", "d", "", "d", "q"])  # each draws once, then the pass screen to player 1 leaves
    base = ["--colour", "never", "--save", str(save)]
    assert main(["play", "--players", "human,human", "--seed", "7", *base]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith(f"leaving the game (quit); saved to {save}")
    assert out.count("Pass to ") == 3 and len(Game.load(save).events) == 2
    # Resumed: its players are two people again, and the pass screen comes before any rack. Undo
    # would take back the other person's turn: refused, nothing changed, and player 1 plays on.
    board = keyboard(["", "undo", "d", "q"])
    assert main(["play", "--load", str(save), *base]) == 0
    out = capsys.readouterr().out
    first_pass = out.index("Pass to player 1, press Enter")
    assert "your rack" not in out[:first_pass] and out.index(SEPARATOR) < first_pass
    assert "nothing undone: that would take back player 2's turn" in out
    assert "took back" not in out
    drew = Game.load(save).events[0]
    assert f"since your last turn (you drew {drew.tile}):\n  player 2 draws a tile\n" in out
    assert check_screens(out, board, ["player 1", "player 2"]) == 2  # to player 1, then to player 2
    game = Game.load(save)
    assert [type(e).__name__ for e in game.events] == ["DrawEvent"] * 3 and game.current == 1
    assert json.loads(save.read_text())["log"][0]["names"] == ["player 1", "player 2"]


def test_undo_never_takes_back_another_persons_turn(keyboard, capsys, tmp_path):
    """With several people at one terminal, undo would let a person replay their turn knowing
    what the next person did: it is refused once another person has played, the game unchanged."""
    save = tmp_path / "game.json"
    keyboard(["", "d", "", "d", "", "undo", "q"])
    assert main(["play", "--players", "human,human", "--seed", "7", "--colour", "never", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "nothing undone: that would take back player 2's turn" in out
    saved = json.loads(save.read_text())
    assert [e.player for e in Game.load(save).events] == [0, 1] and not saved.get("redo")


def test_the_pass_screen_on_a_terminal_clears_the_screen_and_its_scrollback(keyboard, capsys, monkeypatch):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    board = keyboard(["", "d", "", "d", ""])
    assert main(["play", "--players", "human,human", "--seed", "1", "--colour", "never"]) == 0
    out = capsys.readouterr().out
    assert out.count(CLEAR_SCREEN) == 3 and SEPARATOR not in out
    assert out.startswith(CLEAR_SCREEN) and "\033[3J" in CLEAR_SCREEN
    check_screens(out, board, ["player 1", "player 2"])
    assert out.rstrip().endswith("leaving the game (input ended)")


def test_one_person_plays_as_before_without_pass_screens(keyboard, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("d\nq\n"))
    assert main(["play", "--players", "human,easy", "--seed", "1", "--colour", "never"]) == 0
    out = capsys.readouterr().out
    assert "Pass to" not in out and SEPARATOR not in out and out.startswith("rummisolve play: you, easy; seed 1")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "human,human,human,human,human"], "rummisolve play: error: 5 players: these rules allow 2 to 4"),
        (["--watch", "--players", "human,human"], "--watch is for AI players only"),
        (["--players", "human,,human,robot"], "--players: unknown player 'robot'"),
    ],
)
def test_bad_seats_are_one_line_errors(args, message, capsys):
    assert main(["play", *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert captured.out == ""


def test_loading_a_hot_seat_game_with_other_players_is_refused(tmp_path, capsys, keyboard):
    save = tmp_path / "game.json"
    keyboard(["q"])
    assert main(["play", "--players", "human,human", "--seed", "7", "--save", str(save)]) == 0
    capsys.readouterr()
    assert main(["play", "--load", str(save), "--players", "human,human,easy"]) == 2
    err = capsys.readouterr().err
    assert err == "rummisolve play: error: --players: 3 players given; the saved game has 2\n"
