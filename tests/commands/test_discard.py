"""The discard variant at the command line: tournament logs (every play refereed from the logged
position), ``play`` refusing a human seat, ``play --watch`` and its saves; and over HTTP's schema."""

from __future__ import annotations

import json

import pytest

from rummisolve import RuleSet, verify
from rummisolve.cli import main
from rummisolve.game import Game
from rummisolve.game.discard_analysis import engine_log_of_lines
from rummisolve.jsonio import position_from_json
from rummisolve.tiles import Tile

SMALL = (
    '{"colours": 3, "numbers": 9, "copies": 1, "jokers": 1, "rack_size": 6, "initial_threshold": 10, "discard": true}'
)
FIELDS = {"game", "turn", "player", "position", "action"}


def _tournament(tmp_path, players: str, rules: str, games: int, seed: int, capsys) -> tuple[dict, list[dict]]:
    log = tmp_path / f"{players}-{seed}.jsonl"
    args = ["tournament", "--players", players, "--games", str(games), "--seed", str(seed), "--rules", rules]
    assert main(args + ["--json", "--log", str(log), "--workers", "1", "--no-progress"]) == 0
    return json.loads(capsys.readouterr().out), [json.loads(line) for line in log.read_text().splitlines()]


@pytest.mark.parametrize("players", ["hard,medium", "medium,easy", "easy,hard"])
def test_every_logged_play_passes_the_referee_and_the_log_has_the_draw_and_discard(tmp_path, capsys, players):
    summary, lines = _tournament(tmp_path, players, SMALL, 6, 3, capsys)
    assert summary["illegal_moves"] == 0 and summary["games"] == 6 and summary["rules"]["discard"] is True
    assert {line["game"] for line in lines} == set(range(6))
    plays = 0
    for line in lines:
        assert FIELDS <= set(line) and {"draw_from", "drawn", "discard"} <= set(line)
        position = position_from_json(line["position"])
        assert position.rules.discard
        assert line["draw_from"] in ("pool", "discard", None)
        if line["draw_from"] == "discard":
            assert Tile.parse(line["drawn"]) in position.rack  # the position is the one after the draw
            assert line["pile"][-1] == line["drawn"]  # the pile as the turn started
        else:
            assert line["drawn"] is None
        if line["draw_from"] == "pool":
            assert Tile.parse(line["pool_tile"]) in position.rack
        else:
            assert line["pool_tile"] is None
        assert line["discard"] is not None and Tile.parse(line["discard"]) in position.rack
        if line["action"] == "play":
            plays += 1
            verdict = verify(position, line["table"])
            assert verdict.legal, verdict
            assert len(verdict.played) < len(position.rack)  # a tile was left to discard
        else:
            assert line["action"] == "draw" and line["draw_from"] is not None and "table" not in line
    assert plays
    for game in range(6):  # the lines replay as a game (what analyse reads)
        own = [line for line in lines if line["game"] == game]
        rules = position_from_json(own[0]["position"]).rules
        replayed = Game.replay(engine_log_of_lines(own, rules))
        assert replayed.finished and replayed.state.turn == len(own)
    # the turn numbers of each game run 0, 1, 2, ... (a turn is one line, its draw included)
    for game in range(6):
        assert [line["turn"] for line in lines if line["game"] == game] == list(
            range(sum(line["game"] == game for line in lines))
        )


def test_normal_rules_logs_keep_todays_fields_only(tmp_path, capsys):
    small = json.dumps({k: v for k, v in json.loads(SMALL).items() if k != "discard"})
    _, lines = _tournament(tmp_path, "medium,easy", small, 2, 1, capsys)
    assert lines and all(not {"draw_from", "drawn", "discard"} & set(line) for line in lines)


def test_a_human_plays_the_discard_variant_in_the_terminal(monkeypatch, capsys):
    # Draw from the pool, then discard without playing; then quit. Every step is one command.
    import io
    import sys

    from rummisolve.game.engine import Game

    first = Game(2, RuleSet.from_dict(json.loads(SMALL)), 4).state.racks[0][0]  # on the rack, drawn or not
    script = f"done\ndraw\ndraw\ndiscard X9\ndiscard {first}\nquit\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    status = main(["play", "--players", "human,medium", "--seed", "4", "--rules", SMALL, "--colour", "never"])
    out = capsys.readouterr().out
    assert status == 0
    assert "end every turn with 'discard TILE'" in out and "discard pile:" in out
    assert "a turn ends with 'discard TILE'" in out  # 'done' explains the variant's ending
    assert "you have drawn this turn already" in out  # a second draw is refused, not a traceback
    assert "unknown tile code 'X9'" in out or "X9" in out
    assert "you draw" in out and "from the pool" in out and f"discard {first}" in out
    assert "leaving the game" in out


def test_the_human_in_the_variant_plays_then_discards():
    from rummisolve.game.actions import Discard, Draw, Play
    from rummisolve.game.state import PlayerView
    from rummisolve.game.terminal.human import HumanPlayer
    from rummisolve.melds import Meld
    from rummisolve.tiles import parse_tiles

    rules = RuleSet(discard=True)
    table = (Meld.parse("R1 R2 R3"),)
    rack = tuple(sorted(parse_tiles("R4 K9 B2")))
    before = PlayerView(0, rules, rack, table, True, (True, True), (3, 5), 20, 5, discard_pile=tuple(parse_tiles("O7")))
    lines = iter(["discard K9", "pick", "put R4 on 1", "discard R4", "discard K9"])
    out: list[str] = []
    human = HumanPlayer(input=lambda: next(lines), output=out.append)
    assert human.choose(before) == Draw("discard")  # 'discard' before drawing or playing is refused first
    assert any("draw ('draw' or 'pick')" in line for line in out)
    after = PlayerView(
        0,
        rules,
        tuple(sorted(rack + parse_tiles("O7"))),
        table,
        True,
        (True, True),
        (4, 5),
        20,
        5,
        draw_from="discard",
        drawn=parse_tiles("O7")[0],
    )
    action = human.choose(after)
    assert isinstance(action, Play) and action.discard == parse_tiles("K9")[0]
    assert [list(map(str, m)) for m in action.table] == [["R1", "R2", "R3", "R4"]]
    assert any("R4 is not on your rack" in line for line in out)  # R4 is on the table by then
    lines2 = iter(["discard O7"])
    again = HumanPlayer(input=lambda: next(lines2), output=out.append)
    assert again.choose(after) == Discard(parse_tiles("O7")[0])


def test_play_watch_under_the_discard_rule_and_a_saved_game(tmp_path, capsys):
    saved = tmp_path / "game.json"
    args = ["play", "--watch", "--players", "medium,hard", "--seed", "3", "--rules", SMALL, "--colour", "never"]
    assert main(args + ["--save", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "discard rule" in out and "discards" in out and " wins: " in out
    game = json.loads(saved.read_text())
    assert game["log"][0]["rules"]["discard"] is True
    # a saved game under the rule: watching it again finishes at once
    assert main(["play", "--watch", "--load", str(saved)]) == 0
    assert " wins: " in capsys.readouterr().out


def test_play_keeps_its_own_errors_and_the_normal_game(capsys):
    assert main(["play", "--watch", "--players", "human,medium", "--rules", '{"discard": true}']) == 2
    assert "--watch is for AI players only" in capsys.readouterr().err
    assert main(["play", "--rules", '{"discard": 1}']) == 2
    assert "'discard' must be true or false" in capsys.readouterr().err
    assert (
        main(["play", "--watch", "--players", "easy,easy", "--seed", "2", "--rules", SMALL.replace("true", "false")])
        == 0
    )
    assert "discards" not in capsys.readouterr().out


def test_the_http_schema_lists_every_rule_option():
    import dataclasses

    from rummisolve.server.schemas import RuleOptions

    assert set(RuleOptions.model_fields) == {"preset"} | {f.name for f in dataclasses.fields(RuleSet)}
    assert RuleOptions(discard=True).discard is True
