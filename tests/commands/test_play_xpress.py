"""``rummisolve play --rules xpress``: one human (a scripted keyboard) against an Xpress AI."""

import io
import json

from rummisolve.cli import main
from rummisolve.xpress.game import XpressGame

SEED = 1  # the human moves first; keeping the dice, K4 K5 K6 is a set of their own
DICE = XpressGame(SEED).view().dice


def _play(monkeypatch, capsys, lines, *extra):
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    code = main(
        ["play", "--rules", "xpress", "--players", "human,easy", "--seed", str(SEED), "--colour", "never", *extra]
    )
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_dice_are_shown_and_a_game_is_played_to_its_end(monkeypatch, capsys):
    assert XpressGame(SEED).current == 0
    code, out, err = _play(monkeypatch, capsys, ["keep", "+ K4 K5 K6"] + ["roll all", "pass"] * 60)
    assert code == 0 and "Traceback" not in err
    assert "your dice (9): 1) D" in out and "easy's dice (9):" in out  # names and faces, both seats
    assert "you keep your dice" in out and "you play D" in out
    assert "easy " in out and ("plays D" in out or "passes" in out)  # the AI's moves printed
    assert "the game is over" in out and ("wins" in out or "a draw" in out)
    assert out.count("  you ") == 1 and out.count("  easy ") == 1  # the scores


def test_each_command(monkeypatch, capsys):
    script = [
        "hint",  # the best re-roll
        "new K4",  # not before the roll
        "roll 0",
        "roll 10",
        "roll D99",
        "roll",
        f"roll 2 {DICE[4]}",  # a position and a die name
        "roll all",  # a second roll
        "keep",
        "hint",  # now the best play
        "q",
    ]
    code, out, err = _play(monkeypatch, capsys, script)
    assert code == 0 and "Traceback" not in err
    assert "hint: " in out and "dice expected to play, against" in out
    assert "roll first" in out
    assert "no die at position 0" in out and "no die at position 10" in out
    assert "'D99' is not one of your free dice" in out
    assert "say which dice to roll" in out
    assert f"you roll {DICE[1]} {DICE[4]}" in out
    assert out.count("you have rolled this turn already") == 2
    assert "leaving the game (quit)" in out


def test_roll_by_names_and_all(monkeypatch, capsys):
    dice = XpressGame(SEED).view().dice
    code, out, _ = _play(monkeypatch, capsys, [f"roll {dice[0].lower()} {dice[2]}", "q"])
    assert f"you roll {dice[0]} {dice[2]}" in out
    code, out, _ = _play(monkeypatch, capsys, ["roll all", "pass", "q"])
    assert f"you roll {' '.join(dice)}" in out and "you pass" in out


def test_an_illegal_play_is_refused_with_the_referees_reasons(monkeypatch, capsys):
    code, out, err = _play(monkeypatch, capsys, ["keep", "hint", "new R10 R11 K9", "done", "reset", "+ K4 K5 K6", "q"])
    assert "best: play K4 K5 K6" in out  # the hint after the roll: the best play
    assert "not allowed (your table is kept" in out and "  - " in out
    assert "you play D" in out and "Traceback" not in err


def test_save_and_load_mid_game(monkeypatch, capsys, tmp_path):
    save = tmp_path / "xpress.json"
    code, out, _ = _play(monkeypatch, capsys, ["keep", "+ K4 K5 K6", "q"], "--save", str(save))
    assert code == 0 and f"saved to {save}" in out
    saved = json.loads(save.read_text())
    assert saved["format"] == "rummisolve-xpress-game"
    before = XpressGame.load(save).state
    assert len(before.hands[0]) == 6
    monkeypatch.setattr("sys.stdin", io.StringIO("roll all\npass\nq\n"))
    assert main(["play", "--rules", "xpress", "--load", str(save), "--save", str(save), "--colour", "never"]) == 0
    out = capsys.readouterr().out
    assert "your dice (6)" in out and "you pass" in out
    assert XpressGame.load(save).state.turn > before.turn
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))  # --load alone knows an Xpress save
    assert main(["play", "--load", str(save), "--colour", "never"]) == 0
    assert "rummisolve play: Xpress, you, easy" in capsys.readouterr().out


def test_players_other_than_one_human_and_one_ai_are_refused(monkeypatch, capsys):
    for players in ("human,human", "easy,hard", "human,expert", "human,easy,hard"):
        assert main(["play", "--rules", "xpress", "--players", players]) == 2
        err = capsys.readouterr().err
        assert "one human against one AI" in err and "Traceback" not in err


def test_a_repeated_die_is_refused_naming_it_and_the_game_is_unchanged(monkeypatch, capsys):
    script = ["roll 1 1", f"roll 2 {DICE[1].lower()}", "roll 0", "roll 10", "roll x1", "roll 1.5", "keep", "q"]
    code, out, err = _play(monkeypatch, capsys, script)
    assert code == 0 and "Traceback" not in err
    assert f"'1' names die {DICE[0]} (position 1) a second time: name each die once" in out
    assert f"'{DICE[1].lower()}' names die {DICE[1]} (position 2) a second time" in out
    assert "no die at position 0" in out and "no die at position 10" in out
    assert "'x1' is not one of your free dice" in out and "'1.5' is not one of your free dice" in out
    assert "you roll" not in out and "you keep your dice" in out  # no refused roll happened


def test_the_status_line_counts_dice_and_shows_no_pool(monkeypatch, capsys):
    code, out, _ = _play(monkeypatch, capsys, ["keep", "t", "q"])
    status = [line for line in out.splitlines() if line.lstrip("> ").startswith("turn 1 |")]
    assert status and all(line.endswith("turn 1 | easy: 9 dice") for line in status)
    assert "your dice (9): K4 K5 K6" in out and "your rack" not in out


def test_undo_takes_back_the_last_play_and_the_ai_turn_after_it(monkeypatch, capsys, tmp_path):
    save = tmp_path / "xpress.json"
    script = ["undo", "keep", "undo", "+ K4 K5 K6", "undo", "undo", "pass", "q"]
    code, out, err = _play(monkeypatch, capsys, script, "--save", str(save))
    assert code == 0 and "Traceback" not in err
    assert "nothing to undo: you have not played a turn yet" in out  # before the first roll
    assert out.count("nothing undone: you have rolled this turn, and a roll you have seen stands") == 2
    assert "took back your play of turn 1 and easy's turn after it; your roll of that turn stands" in out
    game = XpressGame.load(save)
    assert [e.to_json()["type"] for e in game.events[:2]] == ["roll", "pass"]  # the play is gone, the keep stays
    assert game.events[0].dice == () and len(game.state.hands[0]) == 9  # all 9 dice: nothing played


def test_undo_never_takes_back_a_roll_seen(monkeypatch, capsys, tmp_path):
    save = tmp_path / "xpress.json"
    rolled = XpressGame(SEED)
    roll = rolled.roll(rolled.view().dice)  # what rolling all shows in this game, by the seed
    code, out, err = _play(monkeypatch, capsys, ["roll all", "pass", "undo", "pass", "q"], "--save", str(save))
    assert code == 0 and "Traceback" not in err
    assert "took back your pass of turn 1 and easy's turn after it; your roll of that turn stands" in out
    log = json.loads(save.read_text())["log"]
    assert log[1] == roll.to_json()  # still the first event: the same dice rolled, the same faces
    assert log[2] == {"type": "pass", "player": 0} and log[3]["player"] == 1  # the pass again, easy's turn
    assert out.count("you pass") == 2
