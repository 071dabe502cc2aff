"""Game analysis on a hand-made game: each flagged mistake, the costs, both log formats, the command."""

from __future__ import annotations

import json

import pytest

from rummisolve.cli import main
from rummisolve.errors import GameLogError, JsonInputError
from rummisolve.game import Play, play_game
from rummisolve.game.analysis import analyse_game, format_analysis
from rummisolve.game.deals import turn_line
from rummisolve.rules import RuleSet
from rummisolve.tiles import parse_tiles

RULES = RuleSet(colours=3, numbers=13, copies=1, jokers=1, rack_size=7, initial_threshold=0)
RACK_0 = "O1 O2 J O4 K9 K10 K11"
RACK_1 = "B1 B2 B3 B4 B5 K7 K8"
TABLES = [
    [["O1", "O2", "J"]],  # seat 0 could go out (O1 O2 J O4, K9 K10 K11): spends the joker on 3 tiles
    [["O1", "O2", "J"], ["B1", "B2", "B3", "B4", "B5"]],  # seat 1: its best, K7 K8 left
    [["O1", "O2", "J"], ["B1", "B2", "B3", "B4", "B5"], ["K9", "K10", "K11"]],  # seat 0: out missed again; opens K7 K8
    [["O1", "O2", "J"], ["B1", "B2", "B3", "B4", "B5"], ["K7", "K8", "K9", "K10", "K11"]],  # seat 1 goes out
]


class Script:
    """Plays the hand-made tables in turn."""

    def __init__(self, name, tables):
        self.name = name
        self.tables = list(tables)

    def choose(self, view):
        return Play(tuple(tuple(parse_tiles(m)) for m in self.tables.pop(0)))


def _deck():
    rest = [t for t in RULES.full_set() if t not in set(parse_tiles(RACK_0 + " " + RACK_1))]
    return list(parse_tiles(RACK_0)) + list(parse_tiles(RACK_1)) + rest


@pytest.fixture(scope="module")
def logs():
    lines = []
    players = [Script("ann", TABLES[0::2]), Script("bob", TABLES[1::2])]
    game, record = play_game(
        players,
        rules=RULES,
        deck=_deck(),
        names=["ann", "bob"],
        on_turn=lambda i: lines.append(turn_line(i, 0, ["ann", "bob"][i.seat])),
    )
    assert record.winner == 1 and record.turns == 4
    return game.to_json(), lines


def test_the_mistakes_of_a_hand_made_game_are_flagged(logs):
    saved, _ = logs
    analysis = analyse_game(saved, "ann", worlds=2)
    assert (analysis.seat, analysis.player, [t.turn for t in analysis.turns]) == (0, "ann", [0, 2])
    first, second = analysis.turns
    assert first.mistakes == ("missed going out", "cheap joker")
    assert sorted(first.best) == sorted(parse_tiles(RACK_0)) and (first.tiles_cost, first.points_cost) == (4, 34)
    assert second.mistakes == ("missed going out", "let the next player out")
    assert (second.tiles_cost, second.points_cost) == (1, 4)
    assert first.expert is not None and sorted(first.expert) == sorted(parse_tiles(RACK_0))  # it goes out
    assert analysis.mistakes == 4
    bob = analyse_game(saved, 1, worlds=2)
    assert [t.mistakes for t in bob.turns] == [(), ()] and [t.tiles_cost for t in bob.turns] == [0, 0]


def test_both_log_formats_give_the_same_analysis(logs):
    saved, lines = logs
    for player in ("ann", "bob"):
        assert analyse_game(saved, player, worlds=2).to_json() == analyse_game(lines, player, worlds=2).to_json()


def test_text_and_json_output(logs, tmp_path, capsys):
    saved, lines = logs
    text = format_analysis(analyse_game(saved, "ann", worlds=2))
    assert "MISTAKE: missed going out, cheap joker" in text and "4 mistakes" in text
    path = tmp_path / "game.json"
    path.write_text(json.dumps(saved))
    assert main(["analyse", str(path), "--player", "ann", "--worlds", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["summary"]["mistakes"] == 4 and out["turns"][1]["mistakes"][-1] == "let the next player out"
    tour = tmp_path / "turns.jsonl"
    tour.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["analyse", str(tour), "--player", "1", "--worlds", "2"]) == 0
    assert "analysis of bob (seat 1), 2 turns" in capsys.readouterr().out


def test_bad_logs_are_named_errors(logs, tmp_path, capsys):
    saved, lines = logs
    with pytest.raises(GameLogError, match="no player 'carol'"):
        analyse_game(saved, "carol")
    with pytest.raises(GameLogError, match="no game 5"):
        analyse_game(lines, 0, game=5)
    with pytest.raises(JsonInputError, match="saved game"):
        analyse_game({"not": "a log"})
    bad = tmp_path / "bad.txt"
    bad.write_text("{not json\n")
    assert main(["analyse", str(bad)]) == 2
    assert "rummisolve analyse: error:" in capsys.readouterr().err
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2


def test_a_game_shows_any_earlier_view(logs):
    from rummisolve.errors import GameStateError
    from rummisolve.game import Game

    game = Game.from_json(logs[0])
    start = game.view(0, at=0)
    assert start.rack == tuple(sorted(parse_tiles(RACK_0))) and start.history == () and start.table == ()
    later = game.view(0, at=2)
    assert len(later.history) == 2 and later.rack_sizes == (4, 2) and later.turn == 2
    assert game.view(1, at=4) == game.view(1)
    for bad in (5, -1, True):
        with pytest.raises(GameStateError, match="no state"):
            game.view(0, at=bad)
