"""The expert AI: legal in every variant, never peeks, deterministic for a seed, searches its candidates."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from rummisolve import verify
from rummisolve.errors import OptionError
from rummisolve.game import Game, Play, make_player, play_game
from rummisolve.game.ai.expert import SOLVES_PER_SECOND, ExpertPlayer, sample_world
from rummisolve.game.ai.hard import HardPlayer
from rummisolve.game.ai.medium import MediumPlayer
from rummisolve.game.ai.montecarlo import fitting_tiles_of_json_tables
from rummisolve.game.players import AI_LEVELS
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import parse_tiles
from tests.support.ai_views import SMALL, view_for, with_hidden_reshuffled

FAST = {"worlds": 2, "close": 99}
"""Search every turn (``close`` above any rack), over two worlds: quick, and every path runs."""


def _actions(deck, turns=20, rules=STANDARD):
    """Seat 0's first actions (the expert, searching every turn) against a player that only draws."""
    game = Game(2, rules, deck=deck)
    expert = ExpertPlayer(seed=5, **FAST)
    actions = []
    searched = 0
    while not game.finished and len(actions) < turns:
        if game.current == 0:
            action = expert.choose(game.view(0))
            searched += bool(expert.last)
            actions.append(action)
            game.play(action.table) if isinstance(action, Play) else game.draw()
        else:
            game.draw()
    return actions, game, searched


def test_expert_never_peeks_at_hidden_tiles():
    deck = list(STANDARD.full_set())
    random.Random(11).shuffle(deck)
    first, game, searched = _actions(deck)
    # Shuffle the tiles hidden from the expert (the drawer's rack and draws) among themselves: the
    # expert must see, and do, exactly the same (its sampled worlds come from its own view only).
    other = with_hidden_reshuffled(deck, game)
    second, _, _ = _actions(other)
    assert first == second
    assert any(isinstance(a, Play) for a in first) and searched >= 3


def test_expert_is_deterministic_for_a_seed():
    view = view_for(
        ["R1 R2 R3", "K9 B9 O9", "B4 B5 B6"],
        "R4 R5 K7 B7 O13 R13 B3",
        sizes=(7, 3),
        history=({"type": "play", "player": 1, "table": [["R1", "R2", "R3"], ["K9", "B9", "O9"], ["B4", "B5", "B6"]]},),
    )
    runs = []
    for _ in range(3):
        player = ExpertPlayer(seed=9, worlds=3)
        runs.append((repr(player.choose(view)), player.last))
    assert len({repr(r) for r in runs}) == 1
    assert len(runs[0][1]) >= 3  # it searched: hard's move, the solver's, ..., drawing
    other = ExpertPlayer(seed=10, worlds=3)
    other.choose(view)
    assert [c.label for c in other.last] == [c.label for c in runs[0][1]]


def test_the_budget_is_a_playout_count_not_a_clock():
    view = view_for(["R1 R2 R3"], "R4 K7 B7", sizes=(3, 3))
    assert ExpertPlayer(think=0.5).world_count(view, 4) == max(2, round(0.5 * SOLVES_PER_SECOND / (4 * 3)))
    assert ExpertPlayer(think=2.0).world_count(view, 4) > ExpertPlayer(think=0.5).world_count(view, 4)
    assert ExpertPlayer(worlds=7).world_count(view, 4) == 7
    with pytest.raises(OptionError, match="think"):
        ExpertPlayer(think=0)
    with pytest.raises(OptionError, match="worlds"):
        ExpertPlayer(worlds=0)


def test_expert_goes_out_when_it_can():
    view = view_for(["R1 R2 R3", "K9 B9 O9"], "R4 R5 R9", sizes=(3, 1))
    action = ExpertPlayer(seed=0, **FAST).choose(view)
    assert isinstance(action, Play) and verify(view.position, action.table).played == parse_tiles("R4 R5 R9")


def test_expert_does_not_hand_a_one_tile_opponent_the_round():
    # As for the hard AI: the opponent kept one tile on this table, so it is K6 or K7 (K8 and K12
    # fitted); K4 K5 would open K6 for it, K4 alone does not.
    rules = RuleSet(colours=1, numbers=13, copies=1, jokers=0, rack_size=4, initial_threshold=0)
    table = [["K1", "K2", "K3"], ["K9", "K10", "K11"]]
    history = ({"type": "play", "player": 1, "table": table},)
    view = view_for([" ".join(m) for m in table], "K4 K5 K13", rules=rules, sizes=(3, 1), pool=3, history=history)
    player = ExpertPlayer(seed=0, worlds=8, close=99)
    action = player.choose(view)
    assert not isinstance(action, Play) or verify(view.position, action.table).played == parse_tiles("K4")
    values = {c.label: c.value for c in player.last}
    assert set(values) == {"hard", "best", "draw"}
    assert values["best"] < min(values["hard"], values["draw"])  # the greedy K4 K5 loses the most worlds


def test_sampled_worlds_hold_exactly_the_unseen_tiles():
    view = view_for(["R1 R2 R3"], "R4 K7 B7", sizes=(3, 5), pool=STANDARD.total_tiles - 3 - 3 - 5)
    fitsets = fitting_tiles_of_json_tables(STANDARD)
    for seed in range(5):
        racks, pool = sample_world(view, random.Random(seed), fitsets)
        assert set(racks) == {1} and len(racks[1]) == 5 and len(pool) == view.pool_size
        assert Counter(racks[1]) + Counter(pool) == view.unseen()
    # A rack that would go out on the current table is drawn again (the last mover did not go out).
    calls = []

    def always_out(rack):
        calls.append(rack)
        return True

    sample_world(view, random.Random(0), fitsets, always_out, tries=3)
    assert len(calls) == 3


@pytest.mark.parametrize(
    "rules,kinds",
    [
        (SMALL, ("expert", "hard")),
        (SMALL, ("medium", "expert", "easy")),
        (SMALL.replace(discard=True), ("expert", "medium")),
    ],
)
def test_expert_games_are_legal(rules, kinds):
    seen = []
    players = [ExpertPlayer(seed=1, **FAST) if k == "expert" else make_player(k, seed=1) for k in kinds]
    game, record = play_game(players, rules=rules, seed=3, on_turn=seen.append)
    assert record.illegal_moves == 0 and game.finished
    for info in seen:
        if hasattr(info.event, "table"):
            assert verify(info.position, info.event.table).legal
    assert Counter(game.state.tile_counts()) == Counter(rules.full_set())


def test_one_standard_game_expert_vs_medium():
    game, record = play_game([ExpertPlayer(seed=2, worlds=2), MediumPlayer()], seed=4)
    assert record.illegal_moves == 0 and game.finished


def test_expert_is_a_level():
    assert AI_LEVELS[-1] == "expert"
    player = make_player("expert", seed=3, think=0.2)
    assert isinstance(player, ExpertPlayer) and player.think == 0.2 and player.seed == 3
    assert isinstance(player.hard, HardPlayer)


def test_the_commands_take_expert_and_think(capsys):
    from rummisolve.cli import main

    small = '{"colours": 3, "numbers": 9, "copies": 1, "jokers": 1, "rack_size": 6, "initial_threshold": 10}'
    args = ["tournament", "--players", "expert,medium", "--games", "2", "--workers", "1", "--no-progress"]
    assert main([*args, "--rules", small, "--think", "0.02", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 2 and summary["illegal_moves"] == 0 and summary["think"] == 0.02
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "--think", "0"])
    assert exit_info.value.code == 2 and "--think: must be more than 0" in capsys.readouterr().err
