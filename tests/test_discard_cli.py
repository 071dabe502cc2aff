"""The discard variant at the command line: tournament logs (every play refereed from the logged
position), ``play`` refusing a human seat, ``play --watch`` and its saves; and over HTTP's schema."""

from __future__ import annotations

import json

import pytest

from rummisolve import RuleSet, verify
from rummisolve.cli import main
from rummisolve.commands._discard_play import REFUSAL
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
        else:
            assert line["drawn"] is None
        assert line["discard"] is not None and Tile.parse(line["discard"]) in position.rack
        if line["action"] == "play":
            plays += 1
            verdict = verify(position, line["table"])
            assert verdict.legal, verdict
            assert len(verdict.played) < len(position.rack)  # a tile was left to discard
        else:
            assert line["action"] == "draw" and line["draw_from"] is not None and "table" not in line
    assert plays
    # the turn numbers of each game run 0, 1, 2, ... (a turn is one line, its draw included)
    for game in range(6):
        assert [line["turn"] for line in lines if line["game"] == game] == list(
            range(sum(line["game"] == game for line in lines))
        )


def test_normal_rules_logs_keep_todays_fields_only(tmp_path, capsys):
    small = json.dumps({k: v for k, v in json.loads(SMALL).items() if k != "discard"})
    _, lines = _tournament(tmp_path, "medium,easy", small, 2, 1, capsys)
    assert lines and all(not {"draw_from", "drawn", "discard"} & set(line) for line in lines)


def test_play_refuses_a_human_seat_under_the_discard_rule(capsys):
    assert main(["play", "--rules", '{"discard": true}']) == 2
    captured = capsys.readouterr()
    assert captured.err == f"rummisolve play: error: --rules: {REFUSAL}\n" and not captured.out
    assert main(["play", "--players", "medium,human", "--rules", SMALL]) == 2
    assert REFUSAL in capsys.readouterr().err


def test_play_watch_under_the_discard_rule_and_a_saved_game(tmp_path, capsys):
    saved = tmp_path / "game.json"
    args = ["play", "--watch", "--players", "medium,hard", "--seed", "3", "--rules", SMALL, "--colour", "never"]
    assert main(args + ["--save", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "discard rule" in out and "discards" in out and " wins: " in out
    game = json.loads(saved.read_text())
    assert game["log"][0]["rules"]["discard"] is True
    # a saved game under the rule: watching it again finishes at once, a human seat is refused
    assert main(["play", "--watch", "--load", str(saved)]) == 0
    assert " wins: " in capsys.readouterr().out
    assert main(["play", "--load", str(saved), "--players", "human,medium"]) == 2
    assert f"--load: {REFUSAL}" in capsys.readouterr().err


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
