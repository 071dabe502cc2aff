"""The Xpress engine: what the seed decides, a turn (roll, play, pass), refusals, the end, scoring,
undo/redo, replay, save/load and matches (RULES 5.3, docs/rules.md#xpress)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from rummisolve import XPRESS, RuleSet
from rummisolve.errors import (
    ConservationError,
    GameLogError,
    GameStateError,
    IllegalMoveError,
    JsonInputError,
    RuleSetError,
)
from rummisolve.game.engine import Game
from rummisolve.game.match import Match
from rummisolve.xpress import XPRESS_GAME, DiceError, XpressGame, die_named
from rummisolve.xpress.seeding import ROLLS_PER_DIE, Seeding
from rummisolve.xpress.transitions import ROUNDS_WITHOUT_PLAY
from tests.xpress.helpers import assert_dice_conserved, assert_plays_legal, seed_with_play, snapshot


def test_the_seed_derivation_is_the_documented_one():
    # docs/rules.md#xpress, "The seed": one Random from "rummisolve-xpress/<seed>": the shuffle, the
    # first player, then ROLLS_PER_DIE faces per die, D1 first.
    rng = random.Random("rummisolve-xpress/7")
    order = list(range(18))
    rng.shuffle(order)
    first = rng.randrange(2)
    rolls = [[rng.randrange(6) for _ in range(ROLLS_PER_DIE)] for _ in range(18)]
    seeded = Seeding.of(7)
    assert seeded.hands == (tuple(sorted(order[:9])), tuple(sorted(order[9:])))
    assert seeded.first == first and seeded.rolls == tuple(map(tuple, rolls))
    game = XpressGame(7)
    assert game.deal.first == first and game.state.current == first
    assert [die_named(n).faces[rolls[int(n[1:]) - 1][0]] for n in game.view(0).dice] == list(game.view(0).rack)


def test_the_split_is_9_and_9_and_the_first_player_varies_with_the_seed():
    firsts = set()
    for seed in range(12):
        game = XpressGame(seed)
        hands = game.state.hands
        assert [len(h) for h in hands] == [9, 9] and sorted(hands[0] + hands[1]) == list(range(18))
        firsts.add(game.current)
        assert_dice_conserved(game)
    assert firsts == {0, 1}
    assert XpressGame(5).log() == XpressGame(5).log()


def test_a_random_seed_is_drawn_and_recorded():
    game = XpressGame()
    assert isinstance(game.seed, int) and XpressGame(game.seed).log() == game.log()


def test_a_roll_uses_each_dies_next_face_whoever_rolls_it():
    game = XpressGame(11)
    seeded = Seeding.of(11)
    mover = game.view()
    event = game.roll(mover.dice[:4])
    assert event.dice == mover.dice[:4]
    assert event.faces == tuple(die_named(n).faces[seeded.rolls[int(n[1:]) - 1][1]] for n in event.dice)
    assert game.view().rolled and game.view(1 - mover.seat).rolled is False
    game.pass_turn()
    other = game.view()
    assert not other.rolled and other.seat != mover.seat
    game.roll(other.dice[:1])
    game.pass_turn()
    again = game.roll(mover.dice[:2])  # the third roll of these two dice
    assert again.faces == tuple(die_named(n).faces[seeded.rolls[int(n[1:]) - 1][2]] for n in again.dice)
    assert_dice_conserved(game)


def test_an_undone_roll_rolled_again_shows_the_same_faces():
    game = XpressGame(4)
    dice = game.view().dice[:5]
    first = game.roll(dice)
    game.undo()
    assert game.roll(list(reversed(dice))) == first  # named in any order: die order


def test_roll_none_then_play_or_pass():
    seed, solution = seed_with_play()
    game = XpressGame(seed)
    game.roll([])
    assert game.view().rolled
    event = game.play(solution.table)
    assert len(event.dice) == len(solution.played)
    assert game.view(event.player).rack_sizes[event.player] == 9 - len(solution.played)
    assert_dice_conserved(game)
    assert_plays_legal(game)


def test_a_play_records_which_dice_it_put_down_and_the_table_keeps_them():
    seed, solution = seed_with_play()
    game = XpressGame(seed)
    seat = game.current
    event = game.play(solution.table)
    view = game.view()
    assert sorted(n for meld in view.table_dice for n in meld) == sorted(event.dice)
    assert all(n not in view.hands[seat] for n in event.dice)
    for meld, dice in zip(view.table, view.table_dice, strict=True):
        assert [str(t) for t in meld.tiles] == [str(game.state.shown(int(n[1:]) - 1)) for n in dice]
    assert game.log()[-1] == {
        "type": "play",
        "player": seat,
        "table": event.to_json()["table"],
        "dice": list(event.dice),
    }


def _game_with_table() -> tuple[XpressGame, str]:
    """A game after one play, and a die on its table."""
    seed, solution = seed_with_play()
    game = XpressGame(seed)
    game.play(solution.table)
    return game, game.view().table_dice[0][0]


def _second_roll(game: XpressGame, table_die: str) -> None:
    game.roll([game.view().dice[0]])


REFUSALS = [  # (what, action on the game and a die on its table, error, words in the message)
    ("unknown die", lambda g, t: g.roll(["D19"]), DiceError, "unknown die 'D19'"),
    ("opponent's die", lambda g, t: g.roll([g.view(1 - g.current).dice[0]]), GameStateError, "holds it"),
    ("die on the table", lambda g, t: g.roll([t]), GameStateError, "it is on the table"),
    ("a die twice", lambda g, t: g.roll([g.view().dice[0]] * 2), GameStateError, "twice"),
    ("second roll", _second_roll, GameStateError, "rolled this turn already"),
    ("no own die", lambda g, t: g.play(g.view().table), IllegalMoveError, "puts none of seat"),
    ("invalid meld", lambda g, t: g.play([*g.view().table, g.view().rack[:2]]), IllegalMoveError, "not a valid meld"),
    (
        "faces not shown",
        lambda g, t: g.play([*g.view().table, ["K13", "B13", "O13", "R13"]]),
        IllegalMoveError,
        "illegal",
    ),
    ("bad tile code", lambda g, t: g.play([["Q5"]]), ValueError, "Q5"),
    ("nothing to redo", lambda g, t: g.redo(), GameStateError, "nothing to redo"),
]


@pytest.mark.parametrize("what, act, error, words", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_each_refusal_names_the_bad_part_and_changes_nothing(what, act, error, words):
    game, table_die = _game_with_table()
    if what == "second roll":
        game.roll([])  # the turn's roll is used
    before = snapshot(game)
    with pytest.raises(error, match=words):
        act(game, table_die)
    assert snapshot(game) == before


def test_a_play_naming_dice_that_do_not_show_its_faces_is_refused():
    seed, solution = seed_with_play()
    game = XpressGame(seed)
    view = game.view()
    unplayed = [n for n, t in zip(view.dice, view.rack, strict=True) if t not in solution.played]
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="the dice named show"):
        game.play(solution.table, dice=unplayed[: len(solution.played)])
    assert snapshot(game) == before


def test_the_game_ends_after_three_rounds_without_a_die_played():
    game = XpressGame(3)
    for _ in range(ROUNDS_WITHOUT_PLAY * 2 - 1):
        game.pass_turn()
        assert not game.finished
    game.pass_turn()
    assert game.finished and game.state.end_reason == "blocked"
    totals = [sum(30 if t.is_joker else t.value for t in rack) for rack in game.view().racks]
    if totals[0] == totals[1]:
        assert game.winner is None and game.scores() == (0, 0)
    else:
        low = totals.index(min(totals))
        assert game.winner == low
        assert game.scores()[low] == max(totals) and game.scores()[1 - low] == -max(totals)
    before = snapshot(game)
    for act in (game.pass_turn, lambda: game.roll([]), lambda: game.play([])):
        with pytest.raises(GameStateError, match="over"):
            act()
    assert snapshot(game) == before


def test_a_play_resets_the_count_of_turns_without_one():
    seed, solution = seed_with_play()
    game = XpressGame(seed)
    mover = game.current
    for _ in range(4):
        game.pass_turn()
    assert game.state.passes == 4
    assert game.current == mover
    game.play(solution.table)
    assert game.state.passes == 0 and not game.finished


def test_a_draw_on_equal_totals_and_the_loser_pays_the_winner():
    from rummisolve.xpress.transitions import xpress_scores

    game = XpressGame(3)
    state = game.state
    draw = type(state)(**{**state.__dict__, "end_reason": "blocked", "winner": None})
    assert xpress_scores(draw) == (0, 0)
    won = type(state)(**{**state.__dict__, "end_reason": "out", "winner": 0})
    loser = sum(30 if t.is_joker else t.value for t in state.racks[1])
    assert xpress_scores(won) == (loser, -loser)  # the winner's own dice count nothing
    assert xpress_scores(state) is None


def test_undo_redo_and_redo_cleared_by_a_new_event():
    game = XpressGame(8)
    game.roll(game.view().dice[:3])
    game.pass_turn()
    after = game.state
    assert type(game.undo()).__name__ == "PassEvent" and game.view().rolled
    game.undo()
    assert game.state == game.states[0] and not game.can_undo
    game.redo()
    game.redo()
    assert game.state == after and not game.can_redo
    game.undo()
    game.pass_turn()
    assert not game.can_redo
    with pytest.raises(GameStateError, match="nothing to undo"):
        XpressGame(8).undo()


def test_save_load_round_trip_and_atomic_file(tmp_path):
    seed, solution = seed_with_play()
    game = XpressGame(seed, names=("ann", "bob"))
    game.roll([])
    game.play(solution.table)
    game.roll(game.view().dice[:2])
    game.pass_turn()
    game.undo()
    path = tmp_path / "xpress.json"
    game.save(path)
    assert [p.name for p in tmp_path.iterdir()] == ["xpress.json"]
    loaded = XpressGame.load(path)
    assert loaded.state == game.state and loaded.log() == game.log() and loaded.can_redo
    assert loaded.names == ("ann", "bob")
    loaded.redo()
    assert loaded.state.turn == game.state.turn + 1
    assert XpressGame.from_json(json.loads(json.dumps(game.log()))).state == game.state  # a bare log


@pytest.mark.parametrize(
    "tamper, error, words",
    [
        (lambda s: s.update(format="rummisolve-game"), JsonInputError, "rummisolve-xpress-game"),
        (lambda s: s.update(version=9), JsonInputError, "version"),
        (lambda s: s["log"][0].update(seed=8), GameLogError, "does not split and roll the dice"),
        (
            lambda s: s["log"][1].update(faces=["J"]),  # a roll of none showing a face
            GameStateError,
            "by the seed this roll shows",
        ),
        (lambda s: s["log"][1].update(dice=["D99"]), DiceError, "log\\[1\\].dice"),
        (lambda s: s["log"][2].update(player=1 - s["log"][2]["player"]), GameStateError, "turn"),
        (lambda s: s["log"][2].update(table=[["R1", "R2"]]), IllegalMoveError, "illegal move"),
        (lambda s: s["log"].append({"type": "draw", "player": 0}), JsonInputError, "'roll', 'play' or 'pass'"),
    ],
)
def test_a_tampered_save_is_refused_naming_the_bad_part(tamper, error, words):
    seed, solution = seed_with_play()
    game = XpressGame(seed)
    game.roll([])
    game.play(solution.table)
    saved = json.loads(json.dumps(game.to_json()))
    tamper(saved)
    with pytest.raises(error, match=words):
        XpressGame.from_json(saved)


def test_replay_rechecks_every_play_with_the_referee():
    seed, solution = seed_with_play()
    game = XpressGame(seed)
    game.play(solution.table)
    seen = []

    def referee(position, table):
        from rummisolve import verify

        seen.append(position)
        return verify(position, table)

    assert XpressGame.replay(game.log(), referee=referee).state == game.state and len(seen) == 1


def test_a_broken_conservation_is_caught():
    from rummisolve.xpress.conservation import check_dice

    state = XpressGame(2).state
    hands = (state.hands[0] + (state.hands[1][0],), state.hands[1])
    with pytest.raises(ConservationError, match="in 2 places"):
        check_dice(type(state)(**{**state.__dict__, "hands": hands}))


def test_the_view_shows_every_seats_dice():
    game = XpressGame(6)
    view = game.view(0)
    assert view.pool_size == 0 and len(view.hands) == 2 and view.hands[0] == view.dice
    assert view.racks[1] == game.view(1).rack and Counter(view.position.rack) == Counter(view.rack)
    assert [f.die.name for f in view.free_dice] == list(view.dice)
    assert game.view(0, at=0) == view
    with pytest.raises(GameStateError, match="no seat 2"):
        game.view(2)


def test_rules_the_dice_cannot_play_are_refused():
    with pytest.raises(RuleSetError, match="dice edition"):
        XpressGame(1, RuleSet())
    with pytest.raises(RuleSetError, match="J 4 times; these rules have 2"):
        XpressGame(1, RuleSet(jokers=2, rack_size=9, max_players=2, dice=True, initial_threshold=0))
    with pytest.raises(RuleSetError, match="rack_size 9"):
        XpressGame(1, RuleSet(jokers=4, rack_size=8, max_players=2, dice=True))
    with pytest.raises(RuleSetError, match="rummisolve.xpress.XpressGame"):
        Game(2, XPRESS)


def test_a_match_alternates_the_first_player_and_adds_up_the_scores(tmp_path):
    match = Match(XPRESS_GAME, 2, seed=5, length=3)
    with pytest.raises(GameStateError, match="still being played"):
        match.next_round()
    firsts = []
    for index in range(3):
        game = match.game
        firsts.append(game.deal.first)
        while not game.finished:
            game.pass_turn()
        if index < 2:
            match.save(tmp_path / "match.json")
            assert json.loads((tmp_path / "match.json").read_text())["format"] == "rummisolve-xpress-match"
            match = Match.load(XPRESS_GAME, tmp_path / "match.json")
            match.next_round()
    assert firsts == [firsts[0], 1 - firsts[0], firsts[0]] and match.finished
    assert match.totals() == tuple(sum(g.scores()[s] for g in match.rounds) for s in range(2))
    assert match.rounds[0].seed == 5 and len({g.seed for g in match.rounds}) == 3
    with pytest.raises(GameStateError, match="the match is over"):
        match.next_round()


def test_an_opening_threshold_works_as_in_the_tile_game():
    assert XpressGame(1).view().opened  # the preset: no threshold, every seat plays as opened
    rules = RuleSet(jokers=4, rack_size=9, max_players=2, dice=True, initial_threshold=30)
    game = XpressGame(1, rules)
    assert not game.view().opened and not game.view().position.opened
