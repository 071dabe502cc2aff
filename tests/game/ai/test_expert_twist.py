"""The expert under Twist (special jokers in its candidates, worlds and playouts) and its clocked budget."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummisolve import verify
from rummisolve.game import Draw, Play, make_player
from rummisolve.game.ai import expert as expert_module
from rummisolve.game.ai.common import MoveClock, melds_of, rack_after
from rummisolve.game.ai.expert import Candidate, ExpertPlayer, sample_world, too_thin
from rummisolve.game.ai.hard import HardPlayer
from rummisolve.game.ai.montecarlo import fitting_tiles_of_json_tables
from rummisolve.game.deals import run_deal
from rummisolve.game.events import PlayEvent
from rummisolve.game.tournament import plan
from rummisolve.rules import TWIST
from rummisolve.tiles import parse_tiles
from tests.game.ai.test_expert import _actions
from tests.support.ai_views import SMALL, checked_game, view_for, with_hidden_reshuffled

SMALL_TWIST = SMALL.replace(double_jokers=1, colour_change_jokers=1, mirror_jokers=1)
"""27 numbered tiles, a regular joker and one of each special joker: quick Twist games."""
FAST = {"worlds": 2, "close": 99}
"""Search every turn over two worlds (a counted budget: no clock)."""

TWIST_TABLE = ["R2 JD R5", "K7 B7 O7", "B9 B10 B11"]
TWIST_HISTORY = ({"type": "play", "player": 1, "table": [m.split() for m in TWIST_TABLE]},)


def twist_view(rack="R6 R7 JC B12 K1 O1 JM", sizes=(7, 4)):
    return view_for(TWIST_TABLE, rack, rules=TWIST, sizes=sizes, pool=60, history=TWIST_HISTORY)


@pytest.mark.parametrize("opponent", ["easy", "medium", "hard", "expert"])
def test_expert_twist_games_against_each_level_are_refereed(opponent):
    specials_played = 0
    searched = 0
    for seed in range(2):
        expert = ExpertPlayer(seed=seed, **FAST)
        other = ExpertPlayer(seed=seed + 50, **FAST) if opponent == "expert" else make_player(opponent, seed=seed)

        def count(info, expert=expert):
            nonlocal searched
            searched += info.seat == 0 and bool(expert.last)

        game, _, turns = checked_game([expert, other], SMALL_TWIST, seed, on_turn=count)
        for info in turns:
            if info.seat == 0 and isinstance(info.event, PlayEvent):
                left = rack_after(info.position.rack, info.position.table, melds_of(info.event.table, SMALL_TWIST))
                specials_played += sum(t.is_special_joker for t in info.position.rack) - sum(
                    t.is_special_joker for t in left
                )
    assert searched >= 4  # the search ran, not only the hard AI's moves
    assert specials_played >= 1  # special jokers went through the expert's moves


def test_twist_worlds_hold_the_unseen_special_jokers():
    view = twist_view()
    unseen = view.unseen()
    assert {t for t in unseen if t.is_special_joker} == set(parse_tiles("JD JC JM"))  # one JD is on the table
    fitsets = fitting_tiles_of_json_tables(TWIST)
    specials = 0
    for seed in range(6):
        racks, pool = sample_world(view, random.Random(seed), fitsets)
        assert len(racks[1]) == 4 and Counter(racks[1]) + Counter(pool) == unseen
        specials += sum(t.is_special_joker for t in racks[1])
    assert specials >= 1  # no constraint of the history rules a special joker out


def test_expert_searches_twist_candidates_with_special_jokers_and_is_deterministic():
    view = twist_view()
    runs = []
    for _ in range(2):
        expert = ExpertPlayer(seed=4, worlds=2, close=99)
        action = expert.choose(view)
        runs.append((action, [(c.label, c.value, c.worlds) for c in expert.last]))
    assert runs[0] == runs[1] and len(runs[0][1]) >= 3 and expert.note is None
    assert all(c.worlds == 2 and c.value is not None for c in expert.last)
    for candidate in expert.last:
        if isinstance(candidate.action, Play):
            assert verify(view.position, candidate.action.table).legal
    specials_left = [
        sum(t.is_special_joker for t in rack_after(view.rack, view.table, c.action.table))
        for c in expert.last
        if isinstance(c.action, Play)
    ]
    assert min(specials_left) < 2  # some candidate plays the rack's JC or JM


def test_expert_never_peeks_under_twist():
    deck = list(SMALL_TWIST.full_set())
    random.Random(7).shuffle(deck)
    first, game, searched = _actions(deck, turns=10, rules=SMALL_TWIST)
    second, _, _ = _actions(with_hidden_reshuffled(deck, game), turns=10, rules=SMALL_TWIST)
    assert first == second and searched >= 2


def test_a_clock_that_has_run_out_plays_the_hard_ai_move_uncut_and_says_so():
    view = twist_view()
    expert = ExpertPlayer(seed=4, cap=1e-9, close=99)  # clocked: the deadline passes at once
    action = expert.choose(view)
    assert expert.note is not None and expert.note.startswith("budget cut: the best move's search (hard's move)")
    assert not expert.last
    assert action == HardPlayer(seed=4).choose(view)  # hard's own move, its guard not cut
    # The search itself, its clock run out: no world played, every value unknown, hard's move picked.
    searcher = ExpertPlayer(seed=4, close=99)
    candidates = searcher.candidates(view)
    searched = searcher.search(view, candidates, 3, MoveClock(0.0))
    assert all(c.value is None and c.worlds == 0 for c in searched)
    assert searcher.pick(searched, 3) is searched[0] and searched[0].label == "hard"


def test_a_thin_cut_search_does_not_overrule_the_hard_ai():
    # fewer than three worlds never decide; cut short, fewer than half of those planned neither
    assert too_thin(1, 4) and too_thin(2, 5) and too_thin(2, 4) and too_thin(3, 7)
    assert not too_thin(3, 4) and not too_thin(3, 3) and not too_thin(2, 2)  # two asked for: two decide
    first = Candidate("hard", Draw(), 0.1, 3)
    better = Candidate("best", Draw(), 0.9, 3)
    expert = ExpertPlayer(seed=0)
    assert expert.pick((first, better), 7) is first and expert.pick((first, better), 4) is better
    assert expert.pick((first, better)) is better
    thin = Candidate("hard", Draw(), 0.1, 2)
    assert expert.pick((thin, Candidate("best", Draw(), 0.9, 2)), 8) is thin


def test_a_candidate_set_aside_for_time_is_not_picked():
    first = Candidate("hard", Draw(), 0.4, 4)
    aside = Candidate("best", Draw(), 0.9, 1)  # left after one world: its mean is not comparable
    kept = Candidate("draw", Draw(), 0.5, 4)
    assert ExpertPlayer(seed=0).pick((first, aside, kept), 4) is kept


def test_a_clock_with_time_to_spare_changes_nothing():
    view = twist_view()
    counted = ExpertPlayer(seed=4, worlds=3, close=99)
    clocked = ExpertPlayer(seed=4, worlds=3, think=5.0, cap=100.0, close=99, clock=True)  # 500 s, solves 1 s
    assert counted.clocked is False and clocked.clocked is True and ExpertPlayer().clocked is True
    assert counted.choose(view) == clocked.choose(view)
    assert [(c.label, c.value) for c in counted.last] == [(c.label, c.value) for c in clocked.last]
    assert clocked.note is None


def test_the_hard_guard_stops_when_its_clock_runs_out():
    rules = SMALL.replace(colours=1, numbers=13, jokers=0, rack_size=4, initial_threshold=0)
    table = [["K1", "K2", "K3"], ["K9", "K10", "K11"]]
    history = ({"type": "play", "player": 1, "table": table},)
    view = view_for([" ".join(m) for m in table], "K4 K5 K13", rules=rules, sizes=(3, 1), pool=3, history=history)
    guarded = HardPlayer(seed=0)
    assert verify(view.position, guarded.choose(view).table).played == parse_tiles("K4")  # the guard's move
    assert not guarded.guard_cut
    hurried = HardPlayer(seed=0)
    hurried.clock = MoveClock(0.0)  # long past
    action = hurried.choose(view)
    assert hurried.guard_cut and verify(view.position, action.table).played == parse_tiles("K4 K5")  # unguarded


def test_the_hard_ai_under_a_run_out_clock_still_moves_legally():
    view = twist_view()
    hurried = HardPlayer(seed=2)
    hurried.clock = MoveClock(0.0)  # each solve gets the shortest limit
    action = hurried.choose(view)
    assert isinstance(action, Draw) or verify(view.position, action.table).legal
    calm = HardPlayer(seed=2)
    assert not calm.solve_cut and not calm.guard_cut and calm.clock is None
    calm.choose(view)
    assert not calm.solve_cut


def test_a_tournament_log_notes_the_budget_cuts():
    (task,) = plan(("expert", "medium"), 2, 5, SMALL_TWIST, log=True, think=0.001)
    results = run_deal(task)
    noted = [line for r in results for line in r["log"] if "note" in line]
    assert noted and all(line["player"] == "expert" and "cut" in line["note"] for line in noted)
    assert sum(r["noted_moves"][0] for r in results) == len(noted)
    assert all(r["noted_moves"][1] == 0 for r in results)


def _solve_works(monkeypatch) -> list[float | None]:
    """The ``work`` cap of every playout solve (``TableSolver.solve``) from now on."""
    from rummisolve.solver import TableSolver

    works: list[float | None] = []
    real = TableSolver.solve

    def recording(self, *args, **kwargs):
        works.append(kwargs.get("work"))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(TableSolver, "solve", recording)
    return works


def test_a_counted_budget_caps_each_twist_playout_solve_by_work_and_repeats_its_moves(monkeypatch):
    view = twist_view()
    works = _solve_works(monkeypatch)
    counted = ExpertPlayer(seed=4, close=99, clock=False)  # the 0.5 s budget, counted
    action = counted.choose(view)
    assert counted.last and works and set(works) == {expert_module.COUNTED_WORK}
    # a cap so small that it cuts the playout solves: said so, and the moves still repeat
    monkeypatch.setattr(expert_module, "COUNTED_WORK", 1e-4)
    tight = [ExpertPlayer(seed=4, close=99, clock=False) for _ in range(2)]
    chosen = [e.choose(view) for e in tight]
    assert all(e.note is not None and "playout solves capped" in e.note for e in tight)
    assert chosen[0] == chosen[1]
    assert [(c.label, c.value, c.worlds) for c in tight[0].last] == [
        (c.label, c.value, c.worlds) for c in tight[1].last
    ]
    monkeypatch.undo()
    again = ExpertPlayer(seed=4, close=99, clock=False)
    assert again.choose(view) == action
    assert [(c.label, c.value) for c in again.last] == [(c.label, c.value) for c in counted.last]


def test_the_work_cap_is_twist_and_counted_only(monkeypatch):
    standard = view_for(["R1 R2 R3", "K7 B7 O7"], "R4 R5 B12 K1 O1 O2 O3", sizes=(7, 4), pool=60)
    works = _solve_works(monkeypatch)
    ExpertPlayer(seed=4, close=99, clock=False).choose(standard)
    assert works and set(works) == {None}  # the standard and discard rules' counted moves as recorded
    works.clear()
    clocked = ExpertPlayer(seed=4, worlds=3, think=5.0, cap=100.0, close=99, clock=True)
    clocked.choose(twist_view())
    assert works and set(works) == {None}  # a clocked move caps its solves by time, not work
