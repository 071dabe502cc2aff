"""The game engine under the discard rule: the face-up pile, the turn's draw / play / discard, going
out by discarding, the empty pool, the timer, undo, replay, save and load (real referee)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve.errors import GameStateError, IllegalMoveError, OptionError
from rummisolve.game import Discard, Draw, Game
from rummisolve.game.events import DiscardEvent, DrawEvent, PlayEvent, TimeoutEvent, public_event
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import Tile, parse_tiles

DISCARD = STANDARD.replace(discard=True)
FIRST = "R10 R11 R12 K1 K2 K3 B5 B9 O2 O4 O8 K7 K9 B1"


def stacked(rules=DISCARD, racks=(FIRST,), face_up="O13", pool=""):
    """A deck whose first racks, face-up tile and pool head are given; the rest in canonical order."""
    full = Counter(rules.full_set())
    head = [t for text in racks for t in parse_tiles(text)]
    size = rules.rack_size
    rest = full - Counter(head)
    extra = list(parse_tiles(f"{face_up} {pool}"))
    rest -= Counter(extra)
    filler = sorted(rest.elements())
    out = list(head)
    while len(out) < 2 * size:  # fill the second rack from the canonical remainder
        out.append(filler.pop(0))
    return out + extra + filler


def t(code: str) -> Tile:
    return Tile.parse(code)


def test_the_deal_turns_the_next_tile_face_up():
    game = Game(2, DISCARD, deck=stacked())
    state = game.state
    assert state.discards == (t("O13"),) and state.discard_top == t("O13")
    assert len(state.pool) == 106 - 28 - 1
    assert state.tile_counts() == Counter(DISCARD.full_set())
    view = game.view(1)
    assert view.discard_pile == (t("O13"),) and view.discard_top == t("O13")
    assert view.draw_from is None and view.drawn is None
    assert sum(view.unseen().values()) == 106 - 14 - 1  # the face-up tile is seen
    tight = RuleSet(colours=1, numbers=4, copies=1, jokers=0, rack_size=2, discard=True)
    with pytest.raises(GameStateError, match="a tile for the discard pile need 5 tiles; the set has 4"):
        Game(2, tight, seed=1)
    assert Game(2, tight.replace(discard=False), seed=1).state.pool == ()


def test_play_then_discard_without_drawing():
    game = Game(2, DISCARD, deck=stacked())
    event = game.play([["R10", "R11", "R12"], ["K1", "K2", "K3"]], discard="O8")
    assert isinstance(event, PlayEvent) and event.discard == t("O8")
    assert event.to_json()["discard"] == "O8"
    state = game.state
    assert state.current == 1 and state.turn == 1 and state.discards == (t("O13"), t("O8"))
    assert len(state.racks[0]) == 14 - 6 - 1 and t("O8") not in state.racks[0]
    assert game.view(1).history[-1] == {"type": "play", "player": 0, "table": event.to_json()["table"], "discard": "O8"}


def test_draw_then_discard_is_one_turn_and_the_pile_draw_is_public():
    game = Game(2, DISCARD, deck=stacked(pool="B13"))
    event = game.draw("pool")
    assert isinstance(event, DrawEvent) and event.tile == t("B13") and event.source == "pool"
    state = game.state
    assert state.current == 0 and state.turn == 0 and state.draw_from == "pool" and state.drawn == t("B13")
    assert game.view(0).drawn == t("B13") and game.view(1).drawn is None
    assert public_event(event) == {"type": "draw", "player": 0, "tile": None, "drew": 1}
    game.discard("B13")
    assert game.state.current == 1 and game.state.turn == 1 and game.state.discard_top == t("B13")
    taken = game.draw("discard")
    assert taken.tile == t("B13") and taken.to_json() == {
        "type": "draw",
        "player": 1,
        "tile": "B13",
        "source": "discard",
    }
    assert public_event(taken)["tile"] == "B13"
    assert game.state.discards == (t("O13"),) and t("B13") in game.state.racks[1]
    game.discard(game.state.racks[1][0])
    assert game.state.current == 0 and game.state.turn == 2


def test_a_turn_goes_in_order_and_errors_change_nothing():
    game = Game(2, DISCARD, deck=stacked())
    before = game.state
    with pytest.raises(GameStateError, match="starts with a draw"):
        game.discard("O8")
    with pytest.raises(IllegalMoveError, match="names the rack tile to discard"):
        game.play([["R10", "R11", "R12"], ["K1", "K2", "K3"]])
    with pytest.raises(IllegalMoveError, match="the discard R9 is not on the rack after the play"):
        game.play([["R10", "R11", "R12"], ["K1", "K2", "K3"]], discard="R9")
    with pytest.raises(IllegalMoveError, match="the discard R10 is not on the rack after the play"):
        game.play([["R10", "R11", "R12"], ["K1", "K2", "K3"]], discard="R10")  # played, so not left to discard
    with pytest.raises(GameStateError, match="source is 'pool' or 'discard'"):
        game.draw("table")
    with pytest.raises(OptionError, match="draw source"):
        Draw("table")
    assert game.state is before and not game.events
    game.draw("discard")
    with pytest.raises(GameStateError, match="already drawn"):
        game.draw("pool")
    with pytest.raises(IllegalMoveError, match="not on the rack"):
        game.discard("R9")
    game.play([["R10", "R11", "R12"], ["K1", "K2", "K3"]], discard="O13")  # the tile just taken may go back
    assert game.state.discard_top == t("O13") and game.state.current == 1


def test_the_normal_rules_have_no_pile():
    game = Game(2, STANDARD, deck=stacked(STANDARD))
    with pytest.raises(GameStateError, match="no discard pile"):
        game.draw("discard")
    with pytest.raises(GameStateError, match="no discard"):
        game.play([["R10", "R11", "R12"], ["K1", "K2", "K3"]], discard="O8")
    with pytest.raises(GameStateError, match="no discard"):
        game.discard("O8")
    assert game.state.discards == () and game.view().discard_top is None


def test_going_out_is_discarding_the_last_tile():
    rules = DISCARD.replace(rack_size=7)
    game = Game(2, rules, deck=stacked(rules, racks=("R10 R11 R12 K10 B10 O10 K2",)))
    game.play([["R10", "R11", "R12"], ["K10", "B10", "O10"]], discard="K2")
    state = game.state
    assert game.finished and state.winner == 0 and state.end_reason == "out" and state.racks[0] == ()
    assert state.discard_top == t("K2")
    loser = rules.rack_value(state.racks[1])
    assert game.scores() == (loser, -loser)
    with pytest.raises(GameStateError, match="over"):
        game.draw("pool")


def test_a_play_may_not_empty_the_rack_also_after_a_draw():
    rules = DISCARD.replace(rack_size=7)
    game = Game(2, rules, deck=stacked(rules, racks=("R9 R10 R11 R12 K10 B10 O10",), face_up="R13"))
    game.draw("discard")
    with pytest.raises(IllegalMoveError) as caught:
        game.play([["R9", "R10", "R11", "R12", "R13"], ["K10", "B10", "O10"]], discard="R9")
    assert caught.value.verdict.codes == ("no_tile_to_discard",)
    assert len(game.events) == 1
    game.play([["R10", "R11", "R12", "R13"], ["K10", "B10", "O10"]], discard="R9")
    assert game.finished and game.winner == 0


def _drain(game: Game) -> None:
    """Empty the pool: draws from it, each followed by discarding the drawn tile."""
    while game.state.pool:
        game.draw("pool")
        game.discard(game.state.drawn)


def test_an_empty_pool_leaves_the_pile_and_a_round_without_plays_is_blocked():
    rules = RuleSet(colours=2, numbers=6, copies=1, jokers=0, rack_size=3, initial_threshold=0, discard=True)
    game = Game(2, rules, seed=4)
    _drain(game)
    assert not game.finished and game.state.passes == 0  # the last turn drew from the pool
    with pytest.raises(GameStateError, match="pool is empty"):
        game.draw("pool")
    game.draw("discard")
    game.discard(game.state.drawn)
    assert not game.finished and game.state.passes == 1
    game.draw("discard")
    game.discard(game.state.drawn)
    assert game.finished and game.state.end_reason == "blocked"
    assert sum(game.scores()) == 0
    assert game.state.tile_counts() == Counter(rules.full_set())


def test_taking_the_pile_while_the_pool_lasts_never_blocks():
    rules = RuleSet(colours=2, numbers=6, copies=1, jokers=0, rack_size=3, initial_threshold=0, discard=True)
    game = Game(2, rules, seed=4)
    for _ in range(6):
        game.draw("discard")
        game.discard(game.state.drawn)
    assert not game.finished and game.state.passes == 0 and game.state.pool


def test_the_timer_runs_over_the_draw_and_a_timeout_undoes_the_turn_without_a_discard():
    now = [0.0]
    rules = DISCARD.replace(turn_timer=60)
    game = Game(2, rules, deck=stacked(rules, pool="B13 K13 R13 O12"), clock=lambda: now[0])
    now[0] = 40
    game.draw("pool")
    assert game.time_left() == 20  # the draw did not restart the clock
    now[0] = 61
    event = game.discard("B13")
    # the drawn B13 went back on the pool, whose first three tiles are the penalty
    assert isinstance(event, TimeoutEvent) and event.tiles == parse_tiles("B13 K13 R13")
    state = game.state
    assert state.current == 1 and state.turn == 1 and len(state.racks[0]) == 14 + 3
    assert state.discards == (t("O13"),) and state.draw_from is None and state.pool[0] == t("O12")
    assert game.time_left() == 60
    # a tile taken from the discard pile goes back on it
    now[0] = 100
    game.draw("discard")
    now[0] = 200
    event = game.play([["R10", "R11", "R12"]], discard="O13")
    assert isinstance(event, TimeoutEvent) and game.state.discards == (t("O13"),)
    assert game.state.tile_counts() == Counter(rules.full_set())
    assert Game.replay(game.log(), clock=lambda: 0.0).states == game.states


def test_undo_redo_replay_save_and_load_keep_the_pile(tmp_path):
    game = Game(2, DISCARD, deck=stacked(), names=["ann", "bob"])
    s0 = game.state
    game.draw("discard")
    s1 = game.state
    game.play([["R10", "R11", "R12"], ["K1", "K2", "K3"]], discard="B1")
    game.draw("pool")
    game.discard(game.state.drawn)
    game.undo()
    assert game.state.draw_from == "pool" and game.state.current == 1
    game.undo()
    game.undo()
    assert game.state == s1
    game.undo()
    assert game.state == s0 and game.can_redo
    for _ in range(3):
        game.redo()
    log = json.loads(json.dumps(game.log()))
    assert [e["type"] for e in log[1:]] == ["draw", "play", "draw"]
    assert log[1]["source"] == "discard" and log[2]["discard"] == "B1" and "source" not in log[3]
    again = Game.replay(log)
    assert again.states == game.states and again.state.discards == game.state.discards
    path = tmp_path / "game.json"
    game.save(path)
    loaded = Game.load(path)
    assert loaded.state == game.state and loaded.can_redo
    loaded.redo()
    game.redo()
    assert loaded.state == game.state and isinstance(loaded.events[-1], DiscardEvent)


def test_replay_rejects_tampered_discard_logs():
    game = Game(2, DISCARD, deck=stacked())
    game.draw("discard")
    game.play([["R10", "R11", "R12"], ["K1", "K2", "K3"]], discard="B1")
    log = game.log()
    bad = json.loads(json.dumps(log))
    bad[1]["tile"] = "O12"
    with pytest.raises(GameStateError, match="top of the discard is O13, not O12"):
        Game.replay(bad)
    bad = json.loads(json.dumps(log))
    del bad[2]["discard"]
    with pytest.raises(IllegalMoveError, match="names the rack tile to discard"):
        Game.replay(bad)
    bad = json.loads(json.dumps(log))
    bad[2] = {"type": "discard", "player": 0, "tile": "Z1"}
    with pytest.raises(Exception, match=r"log\[2\]"):
        Game.replay(bad)
    bad = json.loads(json.dumps(log))
    bad[1]["source"] = "table"
    with pytest.raises(Exception, match=r"log\[1\].source"):
        Game.replay(bad)
    normal = Game(2, STANDARD, deck=stacked(STANDARD)).log()
    with pytest.raises(GameStateError, match="no discard"):
        Game.replay([normal[0], {"type": "discard", "player": 0, "tile": "B1"}])


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    ops=st.lists(
        st.sampled_from(["pool", "pile", "discard", "discard", "undo", "redo", "timeout"]),
        max_size=100,
    ),
    pick=st.randoms(use_true_random=False),
)
def test_random_action_sequences_conserve_tiles_and_replay(seed, players, ops, pick):
    rules = DISCARD.replace(turn_timer=30.0, rack_size=6)
    game = Game(players, rules, seed=seed)
    full = Counter(rules.full_set())
    history = [game.state]
    for op in ops:
        state = game.state
        if game.finished and op != "undo":
            continue
        try:
            if op == "pool":
                game.draw("pool")
            elif op == "pile":
                game.draw("discard")
            elif op == "discard":
                game.discard(pick.choice(state.racks[state.current]))
            elif op == "timeout":
                game.timeout()
            elif op == "undo":
                if not game.can_undo:
                    continue
                game.undo()
                history.pop()
                assert game.state == history[-1]
                continue
            elif op == "redo":
                if not game.can_redo:
                    continue
                game.redo()
        except GameStateError:
            assert game.state is state  # an action out of order changes nothing
            continue
        history.append(game.state)
        new = game.state
        assert new.tile_counts() == full
        assert sum(len(r) for r in new.racks) + len(new.pool) + len(new.discards) == rules.total_tiles
        if not new.finished and new.draw_from is None:
            assert new.discards  # every turn starts with a tile to take
    assert Game.from_json(json.loads(json.dumps(game.to_json()))).state == game.state


def test_discard_action_type():
    assert Discard(t("R5")).tile == t("R5") and Draw().source == "pool" and Draw("discard").source == "discard"
