"""Engine properties over games of random actions (Hypothesis): dice conserved after every event,
every play legal by the referee, the end after three rounds without a die played, the scores,
refusals changing nothing, exact replays, and save/load mid-game."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve import solve
from rummisolve.errors import IllegalMoveError
from rummisolve.xpress import XpressGame
from rummisolve.xpress.events import DicePlayEvent, PassEvent
from rummisolve.xpress.players import dice_showing
from tests.xpress.helpers import assert_dice_conserved, assert_plays_legal, snapshot

MOVES = ("pass", "best", "best", "best", "append", "new")
"""What the random player tries after its roll: pass, the solver's best play, a face of its own
added to a table meld (legal or not), a new meld of three of its faces (legal or not)."""


def _attempt(game: XpressGame, data: st.DataObject) -> None:
    """One random turn: maybe a roll of some dice, then a try at a play (refused: the game unchanged, then a pass)."""
    view = game.view()
    roll = data.draw(st.sampled_from(("none", "some", "leftovers", "leftovers")), label="roll")
    if roll != "none":
        if roll == "some":
            picks = data.draw(st.lists(st.booleans(), min_size=len(view.dice), max_size=len(view.dice)), label="dice")
        else:  # the dice the best play as they lie leaves
            kept = set(dice_showing(view, solve(view.position).played))
            picks = [i not in kept for i in range(len(view.dice))]
        game.roll([n for n, pick in zip(view.dice, picks, strict=True) if pick])
        assert_dice_conserved(game)
        view = game.view()
    move = data.draw(st.sampled_from(MOVES), label="move")
    table = [list(m.tiles) for m in view.table]
    if move == "best":
        table = [list(m.tiles) for m in solve(view.position).table]
    elif move == "append" and table and view.rack:
        at = data.draw(st.integers(0, len(table) - 1), label="meld")
        table[at].append(view.rack[data.draw(st.integers(0, len(view.rack) - 1), label="face")])
    elif move == "new" and len(view.rack) >= 3:
        table.append(list(data.draw(st.permutations(view.rack), label="faces")[:3]))
    if move != "pass":
        before = snapshot(game)
        try:
            game.play(table)
        except IllegalMoveError:
            assert snapshot(game) == before
        else:
            assert_dice_conserved(game)
            return
    game.pass_turn()
    assert_dice_conserved(game)


def _turn_ends(game: XpressGame) -> list[str]:
    return [
        "play" if isinstance(e, DicePlayEvent) else "pass"
        for e in game.events
        if isinstance(e, DicePlayEvent | PassEvent)
    ]


@settings(max_examples=60)
@given(seed=st.integers(0, 2**40), data=st.data())
def test_random_games_keep_the_rules(seed, data):
    game = XpressGame(seed)
    saved_at = data.draw(st.integers(0, 40), label="save at")
    while not game.finished:
        _attempt(game, data)
        if game.state.turn == saved_at and not game.finished:
            loaded = XpressGame.from_json(json.loads(json.dumps(game.to_json())))
            assert loaded.state == game.state and loaded.log() == game.log()
    assert_plays_legal(game)
    ends = _turn_ends(game)
    state = game.state
    # the end: a hand emptied by a play, or the sixth turn in a row without a play, and never before
    run = 0
    for i, kind in enumerate(ends):
        run = run + 1 if kind == "pass" else 0
        assert run < 6 or i == len(ends) - 1
    if state.end_reason == "out":
        assert ends[-1] == "play" and not state.hands[state.winner]
    else:
        assert state.end_reason == "blocked" and ends[-6:] == ["pass"] * 6 and all(state.hands)
    totals = [sum(30 if t.is_joker else t.value for t in rack) for rack in state.racks]
    scores = game.scores()
    if state.winner is None:
        assert totals[0] == totals[1] and scores == (0, 0)
    else:
        loser = 1 - state.winner
        if state.end_reason == "blocked":  # the lower total wins
            assert totals[state.winner] < totals[loser]
        assert scores[state.winner] == totals[loser] and scores[loser] == -totals[loser]
    # the same seed and the same actions: the same log, and the log replays to the same game
    replayed = XpressGame.replay(game.log())
    assert replayed.log() == game.log() and replayed.states == game.states


@settings(max_examples=25)
@given(seed=st.integers(0, 2**40), data=st.data())
def test_undo_to_any_point_then_redo_restores_the_game(seed, data):
    game = XpressGame(seed)
    for _ in range(data.draw(st.integers(1, 12), label="turns")):
        if game.finished:
            break
        _attempt(game, data)
    states, log = game.states, game.log()
    back = data.draw(st.integers(0, len(game.events)), label="undo")
    for _ in range(back):
        game.undo()
    assert game.states == states[: len(states) - back]
    for _ in range(back):
        game.redo()
    assert game.states == states and game.log() == log
