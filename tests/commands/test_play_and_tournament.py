"""The play and tournament commands: a tiny tournament with a log re-checked by the referee, bad
arguments, watching AIs, and a human at a scripted terminal (bad input, undo, end of input)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rummisolve import verify
from rummisolve.cli import main
from rummisolve.game.tournament import contestant_names, plan, summarize, wilson_interval
from rummisolve.jsonio import position_from_json
from tests.support.optional import require

ROOT = Path(__file__).resolve().parents[2]
SMALL = '{"colours": 3, "numbers": 9, "copies": 1, "jokers": 1, "rack_size": 6, "initial_threshold": 10}'


def test_tournament_json_and_log_are_legal(tmp_path, capsys):
    log = tmp_path / "turns.jsonl"
    code = main(
        ["tournament", "--players", "hard,medium", "--games", "4", "--seed", "3", "--rules", SMALL, "--json"]
        + ["--log", str(log), "--workers", "1", "--no-progress"]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 4 and sum(summary["wins"].values()) == 4
    assert set(summary["wins"]) == {"hard", "medium"} and summary["illegal_moves"] == 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert {line["game"] for line in lines} == {0, 1, 2, 3}
    plays = [line for line in lines if line["action"] == "play"]
    assert plays and all(line["action"] in ("play", "draw") for line in lines)
    for line in lines:
        assert {"game", "turn", "player", "position", "action"} <= set(line)
    for line in plays:
        assert verify(position_from_json(line["position"]), line["table"]).legal


def test_tournament_mirrors_deals_and_is_reproducible(capsys):
    args = ["tournament", "--players", "medium,easy", "--games", "2", "--seed", "9", "--rules", SMALL]
    args += ["--json", "--workers", "1", "--no-progress"]
    main(args)
    first = json.loads(capsys.readouterr().out)
    main(args)
    second = json.loads(capsys.readouterr().out)
    assert first["wins"] == second["wins"] and first["mean_score"] == second["mean_score"]
    tasks = plan(["medium", "easy"], 5, 9)
    assert len(tasks) == 3 and len({t.seed for t in tasks}) == 3  # 5 games -> 3 deals x 2 seatings


def test_tournament_text_summary_with_pool(capsys):
    code = main(["tournament", "--players", "medium,easy", "--games", "4", "--rules", SMALL, "--workers", "2"])
    assert code == 0
    out = capsys.readouterr().out
    assert "4 games" in out and "95% CI" in out and "medium" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "hard,wizard"], "unknown AI level of the tile game 'wizard'"),
        (["--players", "hard"], "1 players"),
        (["--games", "0"], "--games must be at least 1"),
        (["--rules", "classic"], "unknown rules preset"),
        (["--rules", "{bad"], "not valid JSON"),
        (["--workers", "0"], "--workers"),
        (["--players", "human,medium"], "unknown AI level of the tile game 'human'"),
        (["--players", "easy,easy", "--rules", '{"rack_size": 200}'], "2 racks of 200 need 400 tiles"),
        (["--rules", '{"colours": ' + "9" * 5000 + "}"], "--rules: not acceptable JSON"),
        (
            ["--players", "easy,easy", "--rules", '{"jokers": 6}'],
            "--rules: the solver supports at most 4 jokers in play",
        ),
        (["--rules", '{"colours": ' + "[" * 5000 + "]" * 5000 + "}"], "--rules: JSON nested too deeply"),
    ],
)
def test_tournament_bad_arguments(args, message, capsys):
    assert main(["tournament", "--no-progress"] + args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_play_watch(capsys):
    assert main(["play", "--watch", "--players", "medium,easy", "--seed", "2", "--rules", SMALL]) == 0
    out = capsys.readouterr().out
    assert " wins: " in out and "medium" in out


def test_play_a_match_of_rounds_saved_and_loaded(capsys, tmp_path):
    from rummisolve.game.match import Match
    from rummisolve.game.tile_game import TILE_GAME

    save = tmp_path / "match.json"
    argv = ["play", "--watch", "--players", "medium,easy", "--seed", "2", "--rules", SMALL, "--colour", "never"]
    assert main([*argv, "--rounds", "3", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "round 2 of 3" in out and "round 3 of 3" in out and out.count("match totals: ") == 3
    saved = json.loads(save.read_text())
    assert saved["format"] == "rummisolve-match" and saved["games"] == 3
    match = Match.from_json(TILE_GAME, saved)
    assert match.finished and [g.deal.first for g in match.rounds] == [0, 1, 0]
    totals = match.totals()
    assert out.rstrip().endswith(f"match totals: medium {totals[0]:+d}, easy {totals[1]:+d}")
    assert main([*argv, "--load", str(save)]) == 0  # a finished match: its last round's end again
    assert "match totals: " in capsys.readouterr().out
    with pytest.raises(SystemExit) as done:
        main([*argv, "--rounds", "0"])
    assert done.value.code == 2 and "argument --rounds: must be at least 1" in capsys.readouterr().err


def test_play_bad_arguments(capsys):
    assert main(["play", "--players", "human,robot"]) == 2
    assert "unknown player 'robot'" in capsys.readouterr().err
    assert main(["play", "--watch", "--players", "human,medium"]) == 2
    assert main(["play", "--load", "/nonexistent/game.json"]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["play", "--players", ""]) == 2
    assert "--players: no players in ''" in capsys.readouterr().err


@pytest.mark.parametrize("delay", ["inf", "nan", "-1", "soon"])
def test_play_refuses_a_delay_it_cannot_sleep(delay, capsys):
    with pytest.raises(SystemExit) as done:
        main(["play", "--watch", "--players", "easy,easy", "--delay", delay])
    assert done.value.code == 2
    assert "argument --delay" in capsys.readouterr().err


def test_play_load_names_what_is_wrong_with_a_saved_game(tmp_path, capsys):
    not_utf8 = tmp_path / "binary.save"
    not_utf8.write_bytes(b"\xff\xfe")
    assert main(["play", "--load", str(not_utf8)]) == 2
    assert "binary.save: not UTF-8 text" in capsys.readouterr().err
    saved = tmp_path / "game.save"
    assert (
        main(["play", "--watch", "--players", "easy,easy", "--seed", "1", "--rules", SMALL, "--save", str(saved)]) == 0
    )
    capsys.readouterr()
    game = json.loads(saved.read_text())
    assert game["log"][0]["type"] == "deal"
    game["log"][0]["seed"] = "x"
    saved.write_text(json.dumps(game))
    assert main(["play", "--load", str(saved)]) == 2
    err = capsys.readouterr().err
    assert ".seed: expected a whole number or null, got 'x'" in err and "Traceback" not in err


def test_play_human_bad_input_and_end_of_input(monkeypatch, capsys, tmp_path):
    script = "\n".join(["", "help", "fly away", "+ R1 R2", "+ Q9 Q9 Q9", "= R1 R2 R3", "undo", "d", "t", ""])
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    save = tmp_path / "game.json"
    code = main(["play", "--players", "human,medium", "--seed", "5", "--colour", "never", "--save", str(save)])
    assert code == 0
    out = capsys.readouterr().out
    assert "unknown command 'fly'" in out
    assert "bad meld" in out  # R1 R2 is too short, Q9 is not a tile
    assert "not allowed" in out  # = R1 R2 R3: not on the rack (or not 30 points): the referee's reason
    assert "nothing to undo" in out
    assert "you draw" in out and "leaving the game (input ended)" in out
    saved = json.loads(save.read_text())
    assert saved["log"][0]["names"] == ["you", "medium"]
    monkeypatch.setattr("sys.stdin", io.StringIO("undo\nq\n"))
    assert main(["play", "--load", str(save), "--colour", "never"]) == 0
    assert "took back your last turn" in capsys.readouterr().out


def test_summary_helpers():
    assert contestant_names(["medium", "medium", "hard"]) == ("medium#1", "medium#2", "hard")
    lo, hi = wilson_interval(60, 100)
    assert 0.50 < lo < 0.51 and 0.69 < hi < 0.70
    assert wilson_interval(0, 0) == (0.0, 1.0)
    results = [
        {"winner": 0, "scores": [10, -10], "turns": 20, "illegal_moves": 0, "end_reason": "out"}
        | {"seconds": 1.0, "think_seconds": [0.1, 0.2], "moves": [10, 10]},
        {"winner": 1, "scores": [-4, 4], "turns": 30, "illegal_moves": 0, "end_reason": "blocked"}
        | {"seconds": 1.0, "think_seconds": [0.1, 0.2], "moves": [10, 10]},
    ]
    s = summarize(results, ["a", "b"])
    assert s["wins"] == {"a": 1, "b": 1} and s["mean_score"]["a"] == 3 and s["turns_per_game"] == 25
    assert s["end_reasons"] == {"out": 1, "blocked": 1}


def test_tournament_on_local_ray():
    require("ray")  # the "ray" extra; CI installs it
    # A local Ray instance runs the same tournament. In a subprocess, never
    # in the pytest process: Ray replaces the process's SIGSEGV handler (a later crash then printed no
    # Python stack) and leaves a dozen native threads running after ray.shutdown().
    args = ["tournament", "--players", "medium,easy", "--games", "2", "--rules", SMALL, "--json", "--ray", "local"]
    done = subprocess.run(
        [sys.executable, "-m", "rummisolve", *args], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 2 and summary["illegal_moves"] == 0


def _saved_mid_game(path, mine="R10 R11 R12 K5 K6 K7 B7 O7 R7 R3 B3 O3 J K1", opening=("R10 R11 R12",)):
    """A saved game (you, medium) at turn 3, after you opened with ``opening`` and medium drew.
    By default the table is R10 R11 R12, your rack K1 K5 K6 K7 B3 B7 O3 O7 R3 R7 J, and medium
    is ready to open with many tiles."""
    from collections import Counter

    from rummisolve.game.engine import Game
    from rummisolve.rules import STANDARD
    from rummisolve.tiles import parse_tiles

    mine = parse_tiles(mine)
    medium = parse_tiles("K11 K12 K13 B1 B2 O1 O2 R1 R2 B4 O4 R4 K2 B5")
    rest = sorted((Counter(STANDARD.full_set()) - Counter(mine) - Counter(medium)).elements())
    game = Game(2, STANDARD, deck=[*mine, *medium, *rest], names=["you", "medium"])
    game.play(opening)
    game.draw()
    game.save(path)


def test_play_human_edits_the_table_then_the_referee_judges_it(monkeypatch, capsys, tmp_path):
    save = tmp_path / "game.json"
    _saved_mid_game(save)
    script = ["new K5 K6 K7", "new B7 O7 R7", "move K7 from 2 to 3", "put J on 9", "done", "back", "end", "q"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(script) + "\n"))
    assert main(["play", "--load", str(save), "--save", str(save), "--colour", "never"]) == 0
    out = capsys.readouterr().out
    assert "  ! 2: [K5] [K6]   (2 tile(s); a meld needs at least 3)\n  * 3: [B7] [O7] [R7] [K7]" in out
    assert "no meld 9: the table has melds 1 to 3" in out
    # The referee's verdict at the end of the turn names the meld as on screen; the table is kept.
    assert "not allowed (your table is kept" in out and "- meld 2 (K5 K6) is not a valid meld" in out
    assert "you play K5 K6 K7 B7 O7 R7\n" in out and "plays K5" not in out
    # After the AI's move the table is shown once, its new melds starred and its tiles bracketed.
    assert "medium plays " in out and "    2: K5 K6 K7\n" in out and "  * 4: [K11] [K12] [K13]" in out
    assert "table: as above\n" in out and "medium: 1 tile\n" in out
    assert f"leaving the game (quit); saved to {save}" in out
    from rummisolve.game.engine import Game

    game = Game.load(save)
    assert [str(m) for m in game.state.table][:3] == ["R10 R11 R12", "K5 K6 K7", "B7 O7 R7"]


def test_play_grammar_speaks_to_you_and_about_the_ais(monkeypatch, capsys, tmp_path):
    save = tmp_path / "game.json"
    mine = "R10 R11 R12 K5 K6 K7 B7 O7 R7 R3 B3 O3 K8 K9"
    _saved_mid_game(save, mine, ["R10 R11 R12", "B7 O7 R7", "R3 B3 O3", "K5 K6 K7"])
    monkeypatch.setattr("sys.stdin", io.StringIO("= R10 R11 R12 | B7 O7 R7 | R3 B3 O3 | K5 K6 K7 K8 K9\n"))
    assert main(["play", "--load", str(save), "--colour", "never"]) == 0
    out = capsys.readouterr().out
    assert "you play K8 K9\n" in out and "you win: went out, after 3 turns" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("d\nd\nq\n"))
    assert main(["play", "--players", "human,medium", "--seed", "5", "--colour", "never"]) == 0
    out = capsys.readouterr().out
    assert out.count("you draw ") == 2 and ("medium draws" in out or "medium plays" in out)


def test_play_watch_marks_each_ai_move(capsys):
    assert main(["play", "--watch", "--players", "medium,easy", "--seed", "2", "--rules", SMALL]) == 0
    out = capsys.readouterr().out
    assert " plays " in out and "  * 1: [" in out
    assert (
        main(["play", "--watch", "--players", "medium,easy", "--seed", "2", "--rules", SMALL, "--colour", "always"])
        == 0
    )
    assert "\033[4m" in capsys.readouterr().out  # the played tiles are underlined too


def test_play_save_into_a_missing_folder_fails_before_the_game(tmp_path, capsys):
    target = tmp_path / "no" / "such" / "game.json"
    assert main(["play", "--players", "human,medium", "--seed", "5", "--save", str(target)]) == 2
    captured = capsys.readouterr()
    assert f"rummisolve play: error: --save: cannot write {str(target)!r}: No such file or directory" in captured.err
    assert captured.out == "" and not target.exists()


def test_play_save_failing_mid_game_is_never_claimed_saved(monkeypatch, capsys, tmp_path):
    from rummisolve.game.engine import Game

    real_save = Game.save
    calls = []

    def flaky_save(self, path):
        calls.append(path)
        if len(calls) > 1:  # the check before the game passes; then the disk is full
            raise OSError(28, "No space left on device")
        real_save(self, path)

    monkeypatch.setattr(Game, "save", flaky_save)
    monkeypatch.setattr("sys.stdin", io.StringIO("d\nd\nq\n"))
    target = tmp_path / "game.json"
    assert main(["play", "--players", "human,medium", "--seed", "5", "--colour", "never", "--save", str(target)]) == 1
    captured = capsys.readouterr()
    assert captured.err.count(f"error: the game is not saved: cannot write {str(target)!r}: No space left") == 1
    assert "saved to" not in captured.out and "leaving the game (quit); NOT saved (cannot write" in captured.out


def _web_download(practice: bool) -> dict:
    """A web app game whose first round is over and whose second the human is playing."""
    from rummisolve.server.session import Session

    session = Session.new(["human", "easy"], seed=4)
    while not session.game.finished:
        session.draw() if session.game.current == session.human else session.advance()
    session.next_round()
    while session.game.current != session.human:
        session.advance()
    session.practice = practice
    return session.record()


def test_analyse_and_play_load_read_a_game_downloaded_from_the_web(tmp_path, capsys, monkeypatch):
    whole = tmp_path / "practice.json"
    whole.write_text(json.dumps(_web_download(practice=True)))
    assert main(["analyse", str(whole), "--round", "0", "--worlds", "2", "--json"]) == 0
    analysis = json.loads(capsys.readouterr().out)
    assert analysis["player"] == "you" and analysis["turns"]  # the human's seat, found in the download
    # play --load resumes the last round (the second), the human on the move.
    monkeypatch.setattr("sys.stdin", io.StringIO("d\nq\n"))
    assert main(["play", "--load", str(whole), "--colour", "never"]) == 0
    assert "you draw" in capsys.readouterr().out
    # A record (a game that is not practice): its finished round analysed; resuming it refused, said why.
    record = tmp_path / "record.json"
    record.write_text(json.dumps(_web_download(practice=False)))
    assert main(["analyse", str(record), "--worlds", "2"]) == 0
    assert "analysis of you" in capsys.readouterr().out
    assert main(["play", "--load", str(record)]) == 2
    assert "can be replayed and its finished rounds analysed, but not resumed" in capsys.readouterr().err
    assert main(["analyse", str(record), "--round", "3"]) == 2
    assert "rounds 0 to 0" in capsys.readouterr().err
