"""The expert under the discard rule: whole-turn plans, worlds consistent with the pile, legal games."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from benchmarks import expert_rate
from rummisolve import verify
from rummisolve.game import Discard, Draw, Game, Play, make_player
from rummisolve.game.ai.expert import ExpertPlayer
from rummisolve.game.ai.expert_discard import Plan, Sim, discard_plans, sample_discard_world
from rummisolve.game.ai.hard import HardPlayer
from rummisolve.game.ai.montecarlo import fitting_tiles_of_json_tables
from rummisolve.game.events import DiscardEvent, PlayEvent
from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import Tile, parse_tiles
from tests.support.ai_views import checked_game as checked_refereed_game

DISCARD = STANDARD.replace(discard=True)
SMALL = RuleSet(colours=3, numbers=9, copies=1, jokers=1, rack_size=6, initial_threshold=10, discard=True)
FAST = {"worlds": 2, "close": 99}
"""Search every turn over two worlds: quick, and every path runs."""


def t(code: str) -> Tile:
    return Tile.parse(code)


def view_for(table, rack, *, pile=("O13",), opened=True, rules=DISCARD, sizes=(6, 6), pool=30, history=(), drawn=None):
    melds = tuple(Meld.of(parse_tiles(m), rules) for m in table)
    return PlayerView(
        0,
        rules,
        tuple(sorted(parse_tiles(rack))),
        melds,
        opened,
        (opened, True),
        sizes,
        pool,
        7,
        tuple(history),
        discard_pile=tuple(t(x) for x in pile),
        draw_from=None if drawn is None else drawn[0],
        drawn=None if drawn is None else t(drawn[1]),
    )


def checked_game(players, rules, seed):
    """One game refereed as it goes (:func:`tests.support.ai_views.checked_game`), every turn
    ending with a discard."""
    game, record, turns = checked_refereed_game(players, rules, seed)
    for info in turns:
        if isinstance(info.event, PlayEvent):
            assert info.event.discard is not None
        else:
            assert isinstance(info.event, DiscardEvent)
    return game, record, turns


@pytest.mark.parametrize("opponent", ["hard", "medium", "easy"])
def test_expert_games_under_the_discard_rule_are_legal(opponent):
    searched = 0
    for seed in range(3):
        expert = ExpertPlayer(seed=seed, **FAST)
        searches = []
        original = expert.choose

        def choose(view, original=original, expert=expert, searches=searches):
            action = original(view)
            searches.append(bool(expert.last))
            return action

        expert.choose = choose  # type: ignore[method-assign]
        checked_game([expert, make_player(opponent, seed=seed)], SMALL, seed)
        searched += sum(searches)
    assert searched >= 5  # the search ran, not only the hard AI's moves


def test_standard_size_discard_games_are_legal_with_the_default_budget_shape():
    for seed in (4, 5):
        _, record, turns = checked_game([ExpertPlayer(seed=seed, worlds=3), HardPlayer(seed=seed)], DISCARD, seed)
        assert record.end_reason in ("out", "blocked")
        sources = Counter(info.draw.source if info.draw else None for info in turns if info.seat == 0)
        assert sources[None] + sources["pool"] + sources["discard"] == len([i for i in turns if i.seat == 0])


def test_expert_is_deterministic_for_a_seed_under_discard():
    view = view_for(["R1 R2 R3", "K9 B9 O9"], "R4 R5 K7 B7 O12 R13 B3", sizes=(7, 4))
    runs = []
    for _ in range(2):
        expert = ExpertPlayer(seed=9, worlds=3)
        runs.append((expert.choose(view), [(c.label, c.value) for c in expert.last]))
    assert runs[0] == runs[1] and len(runs[0][1]) >= 3


class Drawer:
    """Draws from the pool and discards the tile drawn: never shows its dealt rack."""

    name = "drawer"

    def choose(self, view):
        if view.draw_from is None:
            return Draw("pool")
        return Discard(view.drawn)


def _expert_actions(deck, rules, turns=14):
    expert = ExpertPlayer(seed=3, worlds=2, close=99)
    actions = []

    class Recording:
        name = "expert"

        def choose(self, view):
            action = expert.choose(view)
            actions.append(action)
            return action

    game = Game(2, rules, deck=deck)
    from rummisolve.game.runner import play_turn

    while not game.finished and game.state.turn < turns:
        play_turn(game, Recording() if game.current == 0 else Drawer())
    return actions


def test_expert_never_peeks_at_hidden_tiles_under_discard():
    rules = DISCARD
    deck = list(rules.full_set())
    random.Random(21).shuffle(deck)
    first = _expert_actions(deck, rules)
    other = list(deck)
    hidden = other[14:28]  # seat 1's dealt rack: the drawer never shows it
    random.Random(5).shuffle(hidden)
    assert hidden != deck[14:28]
    other[14:28] = hidden
    assert _expert_actions(other, rules) == first
    assert len(first) >= 6


def test_a_tile_an_opponent_took_from_the_pile_is_in_every_sampled_rack():
    history = (
        {"type": "draw", "player": 1, "tile": "K7", "source": "discard", "drew": 1},
        {"type": "discard", "player": 1, "tile": "B2"},
        {"type": "draw", "player": 1, "tile": "O11", "source": "discard", "drew": 1},
        {"type": "play", "player": 1, "table": [["O9", "O10", "O11"]], "discard": "R3"},
    )
    view = view_for(["O9 O10 O11"], "R4 R5 K1 B1 O1", pile=("B2", "R3"), sizes=(5, 6), history=history)
    pool = DISCARD.total_tiles - 3 - 5 - 6 - 2
    view = dataclasses.replace(view, pool_size=pool)
    fitsets = fitting_tiles_of_json_tables(DISCARD)
    full = Counter(DISCARD.full_set())
    for seed in range(8):
        racks, pool_tiles = sample_discard_world(view, random.Random(seed), fitsets)
        assert t("K7") in racks[1]  # taken from the pile, neither played nor discarded since
        assert len(racks[1]) == 6 and len(pool_tiles) == pool
        assert Counter(racks[1]) + Counter(pool_tiles) == view.unseen()
        everything = Counter(racks[1]) + Counter(pool_tiles) + Counter(view.rack) + Counter(view.discard_pile)
        everything.update(x for m in view.table for x in m.tiles)
        assert everything == full and all(everything[x] <= DISCARD.copies for x in everything if not x.is_joker)


def test_the_last_mover_that_discarded_is_not_given_a_rack_that_went_out_with_its_discard():
    history = ({"type": "draw", "player": 1, "tile": None, "drew": 1}, {"type": "discard", "player": 1, "tile": "B9"})
    view = view_for(["R1 R2 R3"], "R4 K7 B7", pile=("B9",), sizes=(3, 4), pool=DISCARD.total_tiles - 3 - 3 - 4 - 1)
    view = dataclasses.replace(view, history=history)
    fitsets = fitting_tiles_of_json_tables(DISCARD)
    asked = []

    def always_out(rack):
        asked.append(rack)
        return True

    racks, _ = sample_discard_world(view, random.Random(0), fitsets, always_out, tries=3)
    assert len(asked) == 3 and all(t("B9") in r and len(r) == 5 for r in asked)
    assert len(racks[1]) == 4


def test_the_plans_cover_draw_sources_plays_and_discards():
    view = view_for(["R1 R2 R3"], "R4 K9 K10 B5 O12 K2", pile=("K11",), sizes=(6, 4))
    labelled = discard_plans(view, HardPlayer(seed=0))
    plans = [p for _, p in labelled]
    assert labelled[0][0].startswith("hard")
    assert {p.source for p in plans} == {None, "discard", "pool"}
    assert len({p.key() for p in plans}) == len(plans)
    for plan in plans:
        if plan.source == "pool":
            assert plan.table is None and plan.discard is None
            continue
        rack = view.rack + ((t("K11"),) if plan.source == "discard" else ())
        if plan.table is not None:
            verdict = verify(dataclasses.replace(view, rack=tuple(sorted(rack))).position, plan.table)
            assert verdict.legal
            rack = tuple((Counter(rack) - Counter(verdict.played)).elements())
        assert plan.discard in rack
    # after a draw from the pool: no draw, but discarding without a play is a plan
    after = view_for(["R1 R2 R3"], "R4 K9 K10 B5 O12 K2 B8", pile=("K11",), sizes=(7, 4), drawn=("pool", "B8"))
    sources = {p.source for _, p in discard_plans(after, HardPlayer(seed=0))}
    assert sources == {None} and any(p.table is None for _, p in discard_plans(after, HardPlayer(seed=0)))


def test_expert_takes_the_top_to_go_out_and_then_plays_its_plan():
    # Without the top K11 the rack cannot go out; with it, R4 and K9 K10 K11 go and R5 is discarded.
    view = view_for(["R1 R2 R3"], "R4 R5 K9 K10", pile=("K11",), sizes=(4, 5))
    expert = ExpertPlayer(seed=0, **FAST)
    assert expert.choose(view) == Draw("discard")
    after = view_for(["R1 R2 R3"], "R4 R5 K9 K10 K11", pile=(), sizes=(5, 5), drawn=("discard", "K11"))
    action = expert.choose(after)
    assert isinstance(action, Play) and len(verify(after.position, action.table).played) == 4
    assert action.discard is not None and action.discard not in verify(after.position, action.table).played


def test_expert_goes_out_by_playing_all_but_one():
    view = view_for(["R1 R2 R3", "K9 B9 O9"], "R4 R5 K7", pile=("O1",), sizes=(3, 2))
    action = ExpertPlayer(seed=0, **FAST).choose(view)
    assert isinstance(action, Play) and action.discard == t("K7")
    assert verify(view.position, action.table).played == parse_tiles("R4 R5")


def test_playouts_follow_the_variant():
    # A one-colour world: seat 1 goes out by taking the pile's top K4 (K4 on K1 K2 K3, discard K9).
    rules = RuleSet(colours=1, numbers=13, copies=1, jokers=0, rack_size=4, initial_threshold=0, discard=True)
    table = (Meld.of(parse_tiles("K1 K2 K3"), rules),)
    sim = Sim(
        rules, table, {0: parse_tiles("K6 K12"), 1: parse_tiles("K9 K5")}, [True, True], [t("K4")], [t("K13")], {}
    )
    assert sim.turn(1)  # out: took K4, played K4 K5, discarded K9
    assert sim.racks[1] == () and sim.pile[-1] == t("K9") and len(sim.table[0]) == 5

    # Seat 0 has nothing to play, draws K6 from the pool and must discard one of K6 K10 K12. K6 has
    # no partner on the rack, so it would go; but seat 1 (opened, 3 tiles) goes out with it (K6 K7
    # K8, discarding K13) and not without: the guard discards K12 (the highest of the rest) instead.
    def world(next_opened):
        racks = {0: parse_tiles("K10 K12"), 1: parse_tiles("K7 K8 K13")}
        return Sim(rules, table, racks, [True, next_opened], [], [t("K6")], {})

    guarded = world(True)
    assert not guarded.turn(0)
    assert guarded.pile == [t("K12")] and guarded.racks[0] == parse_tiles("K6 K10") and guarded.pool == []
    plain = world(False)  # seat 1 has not opened: no guard
    assert not plain.turn(0) and plain.pile == [t("K6")]
    assert Plan(None, None, t("K7")).first_action() == Discard(t("K7"))


def test_judging_another_plan_never_changes_the_choice():
    view = view_for(["R1 R2 R3", "K9 B9 O9"], "R4 R5 K7 B7 O12 R13 B3", sizes=(7, 4))
    # counted: 12 worlds for its 5 plans (10 if the judged plan counted)
    alone = ExpertPlayer(seed=4, think=1.0, clock=False)
    choice = alone.choose(view)
    judge = ExpertPlayer(seed=4, think=1.0, clock=False)
    other = Plan("discard", None, t("R13"))  # take the top, play nothing, discard R13: not a candidate
    action, judged = judge.assess(view, other)
    assert other.key() not in {c.plan.key() for c in alone.last}
    assert action == choice and judged is not None and judged.plan == other
    assert [(c.label, c.value) for c in judge.last] == [(c.label, c.value) for c in alone.last]


TRACES = Path(__file__).resolve().parents[2] / "data" / "expert_traces"


@pytest.mark.parametrize(
    ("name", "rules", "games", "moves"), [("discard-201", DISCARD, 2, 5), ("standard-201", STANDARD, 1, 3)]
)
def test_counted_moves_are_the_recorded_ones(name, rules, games, moves):
    """With a counted budget the expert's searched moves on fixed deals (its action, every
    candidate's value and worlds, the playout turns) are those recorded before the playouts were
    made cheaper (``python -m benchmarks.expert_rate --games 2 --moves 5 --seed 201 --trace
    tests/data/expert_traces/discard-201.jsonl``; the standard ones at 7114ddb, the discard ones
    again when the discard calibration was raised to 300): a speed-up changes no decision.
    A change meant to change decisions records the traces again."""
    recorded = [json.loads(line) for line in (TRACES / f"{name}.jsonl").read_text().splitlines()]
    played = [{k: v for k, v in m.items() if k != "cpu"} for m in expert_rate.play(games, moves, 201, rules)]
    assert len(recorded) == games * moves
    for before, now in zip(recorded, played, strict=True):
        assert now == json.loads(json.dumps(before)), (before["game"], before["turn"])
