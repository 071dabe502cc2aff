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


def test_players_other_than_a_human_and_an_ai_or_two_people_are_refused(monkeypatch, capsys):
    for players in ("easy,hard", "human,expert", "human,easy,hard", "human,human,human", "human"):
        assert main(["play", "--rules", "xpress", "--players", players]) == 2
        err = capsys.readouterr().err
        assert "one human against one AI" in err and "two people at this terminal (human,human)" in err
        assert f"not {players}" in err and "Traceback" not in err


def _people(monkeypatch, capsys, lines, *extra):
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    code = main(["play", "--rules", "xpress", "--players", "human,human", "--colour", "never", *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_two_people_play_xpress_at_one_terminal_to_the_end(monkeypatch, capsys, tmp_path):
    first = XpressGame(SEED).current
    code, out, err = _people(monkeypatch, capsys, ["keep", "pass"] * 12, "--seed", str(SEED))
    assert code == 0 and "Traceback" not in err
    assert "rummisolve play: Xpress, player 1, player 2; the seed is shown when the game ends" in out
    assert f"seed {SEED};" not in out  # the seed decides every roll to come: hidden while the game is on
    turns = [line for line in out.splitlines() if line.startswith("--- player")]
    assert turns[:4] == [f"--- player {(first + i) % 2 + 1}'s turn ---" for i in range(4)]
    assert "your dice (9):" in out and "player 2's dice (9):" in out and "player 1's dice (9):" in out
    assert out.count("you pass") == 6  # three rounds without a play: 2 x 3 passes end the game
    assert "three rounds without a play" in out and f"(seed {SEED})" in out
    assert out.count("  player 1 ") == 1 and out.count("  player 2 ") == 1  # the scores


def test_two_people_save_load_and_never_undo_the_other_persons_turn(monkeypatch, capsys, tmp_path):
    save = tmp_path / "people.json"
    code, out, _ = _people(
        monkeypatch,
        capsys,
        ["keep", "pass", "undo", "keep", "pass", "undo", "q"],
        "--seed",
        str(SEED),
        "--save",
        str(save),
    )
    assert code == 0 and "nothing to undo: you have not played a turn yet" in out  # the second person's first turn
    assert "nothing undone: that would take back player" in out  # the first person's, after the second's turn
    game = XpressGame.load(save)
    assert game.names == ("player 1", "player 2") and len(game.events) == 4  # both turns' rolls and passes stand
    monkeypatch.setattr("sys.stdin", io.StringIO("keep\npass\nq\n"))
    assert main(["play", "--load", str(save), "--save", str(save), "--colour", "never"]) == 0
    out = capsys.readouterr().out
    assert "rummisolve play: Xpress, player 1, player 2; the seed is shown" in out and "you pass" in out
    assert len(XpressGame.load(save).events) == 6


def test_a_match_of_xpress_games_alternates_and_saves_as_a_match(monkeypatch, capsys, tmp_path):
    save = tmp_path / "match.json"
    code, out, err = _people(
        monkeypatch, capsys, ["keep", "pass"] * 24, "--seed", "4", "--rounds", "2", "--save", str(save)
    )
    assert code == 0 and "Traceback" not in err
    assert "game 2 of 2" in out and out.count("match totals: ") == 2
    saved = json.loads(save.read_text())
    assert saved["format"] == "rummisolve-xpress-match" and saved["games"] == 2
    from rummisolve.game.match import Match
    from rummisolve.xpress.kind import XPRESS_GAME

    match = Match.from_json(XPRESS_GAME, saved)
    totals = match.totals()
    assert out.rstrip().endswith(f"match totals: player 1 {totals[0]:+d}, player 2 {totals[1]:+d}")
    assert totals == tuple(sum(g.scores()[seat] for g in match.rounds) for seat in range(2))
    assert match.finished and [g.deal.first for g in match.rounds] == [
        match.rounds[0].deal.first,
        1 - match.rounds[0].deal.first,
    ]


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
