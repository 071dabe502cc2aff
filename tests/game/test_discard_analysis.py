"""Game analysis under the discard rule, on hand-made games whose verdicts are known."""

from __future__ import annotations

import json

import pytest

from rummisolve.cli import main
from rummisolve.errors import GameLogError
from rummisolve.game import Discard, Draw, Play, play_game
from rummisolve.game.analysis import analyse_game, format_analysis
from rummisolve.game.deals import turn_line
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile, parse_tiles

RULES = RuleSet(colours=3, numbers=13, copies=1, jokers=1, rack_size=4, initial_threshold=0, discard=True)


class Script:
    """Plays a scripted list of actions, one per ask."""

    def __init__(self, name, actions):
        self.name = name
        self.actions = list(actions)

    def choose(self, view):
        return self.actions.pop(0)


def _play(*melds, discard):
    return Play(tuple(tuple(parse_tiles(m)) for m in melds), discard=Tile.parse(discard))


def _game(ann_rack, bob_rack, face_up, pool_first, ann, bob):
    dealt = parse_tiles(f"{ann_rack} {bob_rack} {face_up} {pool_first}")
    deck = list(dealt) + [t for t in RULES.full_set() if t not in set(dealt)]
    lines = []
    game, record = play_game(
        [Script("ann", ann), Script("bob", bob)],
        rules=RULES,
        deck=deck,
        names=["ann", "bob"],
        on_turn=lambda i: lines.append(turn_line(i, 0, ["ann", "bob"][i.seat], True)),
    )
    assert record.winner == 1 and record.turns == 2
    return game.to_json(), lines


@pytest.fixture(scope="module")
def costly():
    # ann leaves K3 on the pile though it completes her K1 K2, draws B9 from the pool and discards
    # B7; bob takes B7 and goes out with B5 B6 B7 B8 (without it B5 B6 B8 O13 could not).
    return _game(
        "K1 K2 B7 O12",
        "B5 B6 B8 O13",
        "K3",
        "B9",
        [Draw("pool"), Discard(Tile.parse("B7"))],
        [Draw("discard"), _play("B5 B6 B7 B8", discard="O13")],
    )


@pytest.fixture(scope="module")
def harmless():
    # The same moves where neither is a mistake: K9 completes nothing of ann's, and bob would have
    # gone out without B7 (B4 B5 B6, discarding O13).
    return _game(
        "K1 K2 B7 O12",
        "B4 B5 B6 O13",
        "K9",
        "B9",
        [Draw("pool"), Discard(Tile.parse("B7"))],
        [Draw("discard"), _play("B4 B5 B6 B7", discard="O13")],
    )


def test_a_discard_that_let_the_next_player_out_and_a_pile_tile_left_are_flagged(costly):
    saved, _ = costly
    analysis = analyse_game(saved, "ann", worlds=2)
    (turn,) = analysis.turns
    assert turn.mistakes == ("discard let the next player out", "left the pile's top")
    assert (turn.draw_from, turn.discard, turn.played) == ("pool", Tile.parse("B7"), None)
    assert turn.rack == tuple(sorted(parse_tiles("K1 K2 B7 O12")))  # the rack before the draw
    assert turn.expert_draw_from in ("pool", "discard", None)
    bob = analyse_game(saved, "bob", worlds=2).turns[0]
    assert bob.mistakes == () and bob.draw_from == "discard" and (bob.tiles_cost, bob.points_cost) == (0, 0)
    assert sorted(bob.played) == sorted(parse_tiles("B5 B6 B7 B8"))


def test_the_same_moves_are_no_mistake_when_they_cost_nothing(harmless):
    saved, _ = harmless
    (turn,) = analyse_game(saved, "ann", worlds=2).turns
    assert turn.mistakes == ()


def test_a_missed_way_out_under_the_discard_rule_is_flagged():
    # ann could go out at once (play K1 K2 K3, discard B9); she draws from the pool and discards
    # the tile drawn instead. Bob then goes out without drawing.
    saved, _ = _game(
        "K1 K2 K3 B9",
        "B5 B6 B7 O13",
        "K9",
        "O1",
        [Draw("pool"), Discard(Tile.parse("O1"))],
        [_play("B5 B6 B7", discard="O13")],
    )
    (turn,) = analyse_game(saved, "ann", worlds=2).turns
    assert turn.mistakes == ("missed going out",)
    assert turn.best and len(turn.best) == 3  # K1 K2 K3 from the position after the draw
    assert (turn.expert_draw_from, turn.expert_discard) == (None, Tile.parse("B9"))  # the expert goes out
    assert sorted(turn.expert) == sorted(parse_tiles("K1 K2 K3"))


def test_tournament_lines_give_the_same_analysis_as_the_saved_game(costly, harmless):
    for saved, lines in (costly, harmless):
        assert all("pool_tile" in x and "pile" in x for x in lines)
        assert lines[0]["pool_tile"] == "B9" and lines[0]["pile"] == [lines[0]["pile"][0]]
        for player in ("ann", "bob"):
            assert analyse_game(saved, player, worlds=2).to_json() == analyse_game(lines, player, worlds=2).to_json()


def test_lines_of_an_older_log_are_a_named_error(costly):
    _, lines = costly
    old = [{k: v for k, v in x.items() if k not in ("pool_tile", "pile")} for x in lines]
    with pytest.raises(GameLogError, match="pool_tile"):
        analyse_game(old, "ann", expert=False)


def test_the_command_reads_discard_rule_logs(costly, tmp_path, capsys):
    saved, lines = costly
    path = tmp_path / "game.json"
    path.write_text(json.dumps(saved))
    assert main(["analyse", str(path), "--player", "ann", "--worlds", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    turn = out["turns"][0]
    assert turn["draw_from"] == "pool" and turn["discard"] == "B7" and "expert_discard" in turn
    assert turn["mistakes"] == ["discard let the next player out", "left the pile's top"]
    tour = tmp_path / "turns.jsonl"
    tour.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["analyse", str(tour), "--player", "ann", "--worlds", "2"]) == 0
    text = capsys.readouterr().out
    assert (
        "drew from the pool" in text and "discarded B7" in text and "MISTAKE: discard let the next player out" in text
    )
    text = format_analysis(analyse_game(saved, "bob", expert=False))
    assert "took the pile's top" in text and "0 mistakes" in text
