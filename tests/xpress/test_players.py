"""The Xpress AIs: what each rolls and plays, no illegal move over seeded games, matches, and
tournaments (the library and the command: mirrored deals, the log refereed)."""

from __future__ import annotations

import json

import pytest

from rummisolve import XPRESS, Position, verify
from rummisolve.cli import main
from rummisolve.game.actions import Play
from rummisolve.game.tournament import run_tournament
from rummisolve.jsonio import position_from_json
from rummisolve.melds import Meld
from rummisolve.tiles import Tile, parse_tiles
from rummisolve.xpress import (
    Pass,
    Roll,
    XpressGame,
    XpressView,
    best_reroll,
    die_named,
    make_xpress_player,
    play_xpress_game,
    play_xpress_match,
)
from rummisolve.xpress.kind import XPRESS_GAME
from rummisolve.xpress.players import HardDicePlayer
from tests.xpress.helpers import assert_dice_conserved, assert_plays_legal

# D1: B1 K3 R5 O7 O10 J; D3: O1 B3 K5 K8 R10 J; D7: K1 K4 R6 O8 B10 O12; D9: O2 B4 K6 R8 R11 R12;
# D11: R2 O4 B6 B9 K11 B13
HAND = [("D1", "B1"), ("D3", "O1"), ("D7", "K1"), ("D9", "R8"), ("D11", "R2")]


def _view(table: str, hand: list[tuple[str, str]], rolled: bool = False) -> XpressView:
    """Seat 0's view of ``table`` with the free dice ``hand`` (name, face shown)."""
    melds = tuple(Meld.of(parse_tiles(m), XPRESS) for m in table.split("|") if m.strip())
    rack = tuple(Tile.parse(face) for _, face in hand)
    dice = tuple(name for name, _ in hand)
    return XpressView(
        seat=0,
        rules=XPRESS,
        rack=rack,
        table=melds,
        opened=True,
        players_opened=(True, True),
        rack_sizes=(len(rack), 9),
        pool_size=0,
        turn=0,
        dice=dice,
        hands=(dice, ()),
        racks=(rack, ()),
        rolled=rolled,
    )


def test_easy_keeps_the_dice_of_its_own_sets_and_plays_them_alone():
    easy = make_xpress_player("easy")
    assert easy.choose(_view("K2 B2 O2", HAND)) == Roll(("D9", "D11"))  # B1 O1 K1 kept
    play = easy.choose(_view("K2 B2 O2", HAND, rolled=True))
    assert isinstance(play, Play) and [str(m) for m in play.table] == ["K2 B2 O2", "K1 B1 O1"]  # R2 not added
    assert isinstance(easy.choose(_view("", [("D9", "R8")], rolled=True)), Pass)


def test_medium_rolls_what_its_best_play_leaves_and_uses_the_table():
    medium = make_xpress_player("medium")
    assert medium.choose(_view("K2 B2 O2", HAND)) == Roll(("D9",))  # R2 joins the table's 2s
    play = medium.choose(_view("K2 B2 O2", HAND, rolled=True))
    assert [str(m) for m in play.table] == ["K1 B1 O1", "K2 B2 O2 R2"]
    assert isinstance(medium.choose(_view("", [("D9", "R8")], rolled=True)), Pass)


def test_hard_rolls_by_the_best_reroll_and_keeps_all_when_it_goes_out():
    hard = HardDicePlayer(seed=3, max_solves=200)
    view = _view("K2 B2 O2", HAND)
    advice = best_reroll(view.position, view.free_dice, "tiles", max_solves=200, seed=3 * 1009)
    assert hard.choose(view) == Roll(view.names_of(advice.best.dice))
    out = [("D1", "B1"), ("D3", "O1"), ("D7", "K1")]
    assert hard.choose(_view("", out)) == Roll(())
    assert [str(m) for m in hard.choose(_view("", out, rolled=True)).table] == ["K1 B1 O1"]


def test_hard_breaks_a_tie_in_dice_by_points():
    # One joker face, two sets of three to make with it: R1 R2 J (33 points) or K10 B10 J (50).
    hand = [("D1", "J"), ("D5", "R1"), ("D11", "R2"), ("D6", "K10"), ("D7", "B10")]
    assert [str(m) for m in make_xpress_player("medium").choose(_view("", hand, rolled=True)).table] == ["R1 R2 J"]
    assert [str(m) for m in HardDicePlayer().choose(_view("", hand, rolled=True)).table] == ["K10 B10 J"]


def test_an_unknown_xpress_player_is_refused():
    with pytest.raises(ValueError, match="unknown Xpress player 'expert'"):
        make_xpress_player("expert")


@pytest.mark.parametrize(
    "kinds, games",
    [(("easy", "medium"), 30), (("medium", "medium"), 10), (("medium", "hard"), 3), (("hard", "easy"), 3)],
)
def test_the_ais_never_make_an_illegal_move(kinds, games):
    for seed in range(games):
        players = [HardDicePlayer(seed, max_solves=40) if k == "hard" else make_xpress_player(k) for k in kinds]
        game, record = play_xpress_game(players, seed=seed)
        assert record.illegal_moves == 0 and game.finished
        assert_dice_conserved(game)
        assert_plays_legal(game)
        assert XpressGame.replay(game.log()).states == game.states  # the same seed and moves: the same game


def test_the_same_seed_and_players_give_the_same_game():
    logs = [play_xpress_game([HardDicePlayer(5, max_solves=40), make_xpress_player("medium")], seed=5)[0].log()]
    logs.append(play_xpress_game([HardDicePlayer(5, max_solves=40), make_xpress_player("medium")], seed=5)[0].log())
    assert logs[0] == logs[1] and len(logs[0]) > 3


def test_a_refused_ai_action_counts_as_illegal_and_passes():
    class Cheat:
        name = "cheat"

        def choose(self, view):
            return Roll(("D19",)) if not view.rolled else Pass()

    _, record = play_xpress_game([Cheat(), make_xpress_player("easy")], seed=1)
    assert record.illegal_moves >= 1


def test_a_match_of_games():
    match, record = play_xpress_match([make_xpress_player("medium"), make_xpress_player("easy")], 3, seed=2)
    assert len(record.games) == 3 and record.totals == match.totals() and match.finished
    assert [g.first for g in record.games] == [record.games[0].first, 1 - record.games[0].first, record.games[0].first]


def test_a_tournament_mirrors_the_deal_and_counts_draws():
    summary = run_tournament(["medium", "easy"], 6, seed=4, rules=XPRESS, workers=1, kind=XPRESS_GAME)
    assert summary["games"] == 6 and summary["illegal_moves"] == 0
    assert sum(summary["wins"].values()) + summary["draws"] == 6


def test_the_tournament_command_under_xpress(tmp_path, capsys):
    # medium and easy: the hard AI (28 s here) is checked move by move in the test above.
    log = tmp_path / "turns.jsonl"
    args = ["tournament", "--rules", "xpress", "--players", "medium,easy", "--games", "2", "--seed", "1"]
    assert main(args + ["--json", "--log", str(log), "--workers", "1", "--no-progress"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 2 and summary["illegal_moves"] == 0 and summary["rules"] == "xpress"
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    # mirrored: both games start from the same seat with the same dice showing the same faces
    starts = [next(line for line in lines if line["game"] == g) for g in (0, 1)]
    assert starts[0]["seat"] == starts[1]["seat"] and starts[0]["dice"] == starts[1]["dice"]
    assert starts[0]["position"] == starts[1]["position"] and starts[0]["player"] != starts[1]["player"]
    assert {line["player"] for line in lines if line["action"] == "play"} == {"medium", "easy"}
    for line in lines:
        if line["action"] != "play":
            continue
        faces = dict(zip(line["dice"], map(Tile.parse, line["faces"]), strict=True))
        if line["roll"] is not None:
            faces.update(zip(line["roll"]["dice"], map(Tile.parse, line["roll"]["faces"]), strict=True))
        assert all(face in die_named(name).faces for name, face in faces.items())
        before = position_from_json(line["position"])
        assert sorted(before.rack) == sorted(map(Tile.parse, line["faces"]))
        after = Position(before.table, tuple(faces.values()), True, XPRESS)
        verdict = verify(after, line["table"])
        assert verdict.legal and sorted(verdict.played) == sorted(faces[n] for n in line["played"])


def test_the_tournament_command_refuses_the_expert_under_xpress(capsys):
    assert main(["tournament", "--rules", "xpress", "--players", "expert,easy", "--no-progress"]) == 2
    assert "unknown AI level of the Xpress game 'expert' (choose from easy, medium, hard)" in capsys.readouterr().err
