"""Engine tests: deal, turns, draws, plays, the blocked ending, scoring, timer, undo/redo, replay.

Most tests here use a small stand-in referee (``fake_referee``) so they exercise the engine alone;
tests/game/test_players.py runs real games through the real referee.
"""

from __future__ import annotations

import json
from collections import Counter
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve.errors import ConservationError, GameStateError, IllegalMoveError, JsonInputError
from rummisolve.game.engine import Game, shuffled_deck
from rummisolve.game.scoring import blocked_winner, round_scores
from rummisolve.melds import meld_problem
from rummisolve.rules import STANDARD, XP, RuleSet
from rummisolve.tiles import parse_tiles


def fake_referee(position, table):
    """Enough of a referee for engine tests: valid melds, table kept, rack tiles only, opening rule."""
    reasons = []
    melds = [tuple(m.tiles) if hasattr(m, "tiles") else parse_tiles(m) for m in table]
    for i, meld in enumerate(melds):
        problem = meld_problem(meld, position.rules)
        if problem:
            reasons.append(SimpleNamespace(code=problem[0], message=problem[1], meld=i))
    old = position.table_counts()
    new = Counter(t for m in melds for t in m)
    played = new - old
    if old - new:
        reasons.append(SimpleNamespace(code="table_tile_removed", message="a table tile left the table", meld=None))
    if played - position.rack_counts():
        reasons.append(SimpleNamespace(code="not_on_rack", message="tile not on the rack", meld=None))
    if not played:
        reasons.append(SimpleNamespace(code="nothing_played", message="no tile played", meld=None))
    if not position.opened and not reasons:
        kept = [tuple(m.tiles) for m in position.table]
        fresh = list(melds)
        for m in kept:
            if m in fresh:
                fresh.remove(m)
            else:
                reasons.append(SimpleNamespace(code="initial_manipulates", message="manipulated", meld=None))
                break
        from rummisolve.melds import Meld

        if sum(Meld.of(m, position.rules).value for m in fresh) < position.rules.initial_threshold:
            reasons.append(SimpleNamespace(code="initial_below_threshold", message="under 30", meld=None))
    legal = not reasons
    return SimpleNamespace(legal=legal, reasons=tuple(reasons), played=tuple(sorted(played.elements())))


# A deck stacked so seat 0 holds two runs worth 30+ and seat 1 junk; seed-free and explicit.
def stacked_deck(rules=STANDARD, first_rack="R10 R11 R12 K1 K2 K3 B5 B9 O2 O4 O8 K7 K9 B1"):
    full = Counter(rules.full_set())
    head = list(parse_tiles(first_rack))
    full.subtract(head)
    rest = sorted(full.elements())
    return head + rest


def new_game(**kw):
    kw.setdefault("referee", fake_referee)
    return Game(**kw)


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_deal_is_seeded_and_conserves_tiles():
    a, b = new_game(players=3, seed=11), new_game(players=3, seed=11)
    assert a.state == b.state
    assert new_game(players=3, seed=12).state != a.state
    state = a.state
    assert [len(r) for r in state.racks] == [14, 14, 14]
    assert len(state.pool) == 106 - 42
    assert state.tile_counts() == Counter(STANDARD.full_set())
    assert shuffled_deck(STANDARD, 11) == a.deal.deck


def test_player_count_limits_and_xp():
    with pytest.raises(GameStateError, match="5 players"):
        new_game(players=5)
    game = new_game(players=6, rules=XP, seed=1)
    assert len(game.state.pool) == 160 - 6 * 14


def test_draw_moves_one_tile_and_passes_turn():
    game = new_game(players=2, seed=3)
    top = game.state.pool[0]
    event = game.draw()
    assert event.tile == top and event.player == 0
    assert game.state.current == 1 and top in game.state.racks[0] and len(game.state.racks[0]) == 15


def test_initial_meld_and_illegal_move_leave_state_unchanged():
    game = new_game(players=2, deck=stacked_deck())
    before = game.state
    with pytest.raises(IllegalMoveError, match="under 30"):
        game.play([["K1", "K2", "K3"]])  # 6 points: below the opening threshold
    with pytest.raises(IllegalMoveError, match="not on the rack"):
        game.play([["R1", "R2", "R3"]])
    with pytest.raises(IllegalMoveError):
        game.play([["K1", "K2"]])
    assert game.state is before and not game.events
    game.play([["R10", "R11", "R12"], ["K1", "K2", "K3"]])
    state = game.state
    assert state.opened == (True, False) and state.current == 1
    assert len(state.racks[0]) == 8 and len(state.table) == 2


def test_view_hides_other_racks_and_drawn_tiles():
    game = new_game(players=3, seed=5)
    game.draw()
    view = game.view(1)
    assert view.rack == game.state.racks[1] and view.rack_sizes == (15, 14, 14)
    assert view.pool_size == 106 - 42 - 1
    assert view.history == ({"type": "draw", "player": 0, "tile": None, "drew": 1},)
    assert view.opponents() == (2, 0)
    assert sum(view.unseen().values()) == 106 - 14


def test_blocked_ending_when_pool_runs_out():
    game = new_game(players=2, seed=9)
    while game.state.pool:
        game.draw()
    assert not game.finished
    game.draw()  # a pass
    assert not game.finished and game.state.passes == 1
    game.draw()
    assert game.finished and game.state.end_reason == "blocked"
    racks = game.state.racks
    assert game.winner == blocked_winner(racks, STANDARD)
    scores = game.scores()
    assert sum(scores) == 0 and scores[game.winner] >= 0


def test_going_out_wins_and_scores():
    rules = STANDARD.replace(rack_size=6)
    game = new_game(players=2, rules=rules, deck=stacked_deck(rules, "R10 R11 R12 K10 B10 O10"))
    game.play([["R10", "R11", "R12"], ["K10", "B10", "O10"]])
    assert game.finished and game.winner == 0 and game.state.end_reason == "out"
    loser = rules.rack_value(game.state.racks[1])
    assert game.scores() == (loser, -loser)
    with pytest.raises(GameStateError, match="over"):
        game.draw()


def test_round_scores_rules_examples():
    racks = [(), parse_tiles("K12 K13"), parse_tiles("B10 O7"), parse_tiles("R9 R9")]
    assert round_scores(racks, 0, STANDARD) == (60, -25, -17, -18)
    joker = [parse_tiles("J"), parse_tiles("K5")]
    assert round_scores(joker, 1, STANDARD, blocked=True) == (-25, 25)
    assert round_scores(joker, 1, STANDARD.replace(empty_pool_scoring="rack"), blocked=True) == (-30, 30)
    assert round_scores(joker, 1, STANDARD.replace(joker_penalty=50), blocked=True) == (-45, 45)


def test_turn_timer_penalty_with_injected_clock():
    clock = FakeClock()
    rules = STANDARD.replace(turn_timer=60)
    game = new_game(players=2, rules=rules, deck=stacked_deck(), clock=clock)
    assert game.time_left() == 60
    clock.now = 61
    expected = game.state.pool[:3]
    event = game.play([["R10", "R11", "R12"], ["K1", "K2", "K3"]])  # too late: penalty instead
    assert event.tiles == expected and game.state.table == ()
    assert len(game.state.racks[0]) == 17 and game.state.current == 1
    clock.now = 100
    assert game.check_timer() is None  # seat 1's clock restarted at 61
    clock.now = 122
    assert game.check_timer() is not None and game.state.current == 0


def test_undo_redo_and_new_move_clears_redo():
    game = new_game(players=2, deck=stacked_deck())
    s0 = game.state
    game.play([["R10", "R11", "R12"], ["K1", "K2", "K3"]])
    s1 = game.state
    game.draw()
    game.undo()
    assert game.state == s1
    game.undo()
    assert game.state == s0 and game.can_redo
    game.redo()
    assert game.state == s1
    game.draw()
    assert not game.can_redo
    with pytest.raises(GameStateError):
        game.redo()
    while game.can_undo:
        game.undo()
    with pytest.raises(GameStateError, match="nothing to undo"):
        game.undo()


def test_log_replays_exactly_and_save_load(tmp_path):
    game = new_game(players=2, deck=stacked_deck(), names=["ann", "bob"])
    game.play([["R10", "R11", "R12"], ["K1", "K2", "K3"]])
    for _ in range(5):
        game.draw()
    game.undo()
    text = json.dumps(game.log())
    again = Game.replay(json.loads(text), referee=fake_referee)
    assert again.states == game.states and again.names == ("ann", "bob")
    path = tmp_path / "game.json"
    game.save(path)
    loaded = Game.load(path, referee=fake_referee)
    assert loaded.state == game.state and loaded.can_redo
    loaded.redo()
    game.redo()
    assert loaded.state == game.state


def test_save_is_atomic(tmp_path, monkeypatch):
    # A save that fails while writing leaves the previous file whole and no temporary file behind.
    game = new_game(players=2, deck=stacked_deck(), names=["ann", "bob"])
    path = tmp_path / "game.json"
    game.save(path)
    before = path.read_text(encoding="utf-8")
    game.draw()

    def broken_fsync(fd):
        raise OSError("disk full")

    monkeypatch.setattr("os.fsync", broken_fsync)
    with pytest.raises(OSError, match="disk full"):
        game.save(path)
    assert path.read_text(encoding="utf-8") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    monkeypatch.undo()
    game.save(path)
    assert Game.load(path, referee=fake_referee).state == game.state


def test_replay_rejects_tampered_logs():
    game = new_game(players=2, deck=stacked_deck())
    game.play([["R10", "R11", "R12"], ["K1", "K2", "K3"]])
    game.draw()
    log = game.log()
    bad = json.loads(json.dumps(log))
    bad[2]["tile"] = "R1" if bad[2]["tile"] != "R1" else "R2"
    with pytest.raises(GameStateError, match="drawn tile"):
        Game.replay(bad, referee=fake_referee)
    bad = json.loads(json.dumps(log))
    bad[1]["table"][0] = ["R10", "R11", "R13"]
    with pytest.raises(IllegalMoveError):
        Game.replay(bad, referee=fake_referee)
    with pytest.raises(JsonInputError, match=r"log\[1\]"):
        Game.replay([log[0], {"type": "jump"}], referee=fake_referee)
    with pytest.raises(JsonInputError, match="deal"):
        Game.replay([{"type": "draw"}], referee=fake_referee)


def test_conservation_is_checked():
    def lying_referee(position, table):
        verdict = fake_referee(position, table)
        return SimpleNamespace(legal=True, reasons=(), played=verdict.played[:-1])

    game = new_game(players=2, deck=stacked_deck(), referee=lying_referee)
    before = game.state
    with pytest.raises(ConservationError, match="duplicated"):
        game.play([["R10", "R11", "R12"], ["K1", "K2", "K3"]])
    assert game.state is before


def test_small_rules_full_game_with_drawing_players_terminates():
    rules = RuleSet(colours=2, numbers=5, copies=1, jokers=0, rack_size=3)
    game = new_game(players=2, rules=rules, seed=1)
    while not game.finished:
        game.draw()
    assert game.state.end_reason == "blocked"
    assert game.state.turn == 10 - 6 + 2


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    ops=st.lists(st.sampled_from(["draw", "draw", "draw", "undo", "redo", "timeout"]), max_size=80),
)
def test_random_action_sequences_conserve_tiles_and_replay(seed, players, ops):
    rules = STANDARD.replace(turn_timer=30.0)
    game = new_game(players=players, rules=rules, seed=seed)
    full = Counter(rules.full_set())
    history = [game.state]
    for op in ops:
        if game.finished and op not in ("undo",):
            continue
        if op == "draw":
            game.draw()
            history.append(game.state)
        elif op == "timeout":
            game.timeout()
            history.append(game.state)
        elif op == "undo" and game.can_undo:
            game.undo()
            history.pop()
        elif op == "redo" and game.can_redo:
            game.redo()
            history.append(game.state)
        assert game.state == history[-1]
        assert game.state.tile_counts() == full
        assert sum(len(r) for r in game.state.racks) + len(game.state.pool) == rules.total_tiles
    assert Game.from_json(json.loads(json.dumps(game.to_json())), referee=fake_referee).state == game.state


def _script_env():
    import os
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    return {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}


def test_run_tournament_with_workers_needs_no_main_guard(tmp_path):
    # The worker processes never import the calling script (they used to, so a script without
    # the guard failed, and so did one read from standard input even with it).
    import subprocess
    import sys

    body = (
        "from rummisolve.game.tournament import run_tournament\n"
        "summary = run_tournament(['medium', 'easy'], 4, seed=1, workers=2)\n"
        "print(summary['games'])\n"
    )
    script = tmp_path / "no_guard.py"
    script.write_text(body)
    for command, stdin in (([sys.executable, str(script)], None), ([sys.executable, "-"], body)):
        done = subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=300, env=_script_env())
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout.strip() == "4"


def test_a_save_killed_before_its_rename_leaves_nothing_after_the_next_save(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "game.json"
    killed = (
        "import os, signal, sys\n"
        "from rummisolve.game.engine import Game\n"
        "game = Game(players=2, seed=1)\n"
        "os.replace = lambda *args: os.kill(os.getpid(), signal.SIGKILL)\n"
        "game.save(sys.argv[1])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", killed, str(path)], capture_output=True, text=True, timeout=120, env=_script_env()
    )
    assert done.returncode == -9, done.stderr[-2000:]
    left = [p.name for p in tmp_path.iterdir()]
    assert len(left) == 1 and left[0].startswith(".game.json.") and left[0].endswith(".tmp")  # what the bug left
    game = new_game(players=2, deck=stacked_deck())
    game.save(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    assert Game.load(path, referee=fake_referee).state == game.state


def test_a_save_keeps_the_temporaries_of_saves_still_running(tmp_path):
    # Another process that is saving the same file right now keeps its temporary; one an hour old goes.
    import os
    import subprocess
    import sys
    import time

    path = tmp_path / "game.json"
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        running = tmp_path / f".game.json.{other.pid}.abcd1234.tmp"
        running.write_text("{")
        ancient = tmp_path / ".game.json.zz9_xyq1.tmp"  # the old naming, no process id
        ancient.write_text("{")
        hour_ago = time.time() - 3700
        os.utime(ancient, (hour_ago, hour_ago))
        new_game(players=2, deck=stacked_deck()).save(path)
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["game.json", running.name])
    finally:
        other.kill()
        other.wait()
