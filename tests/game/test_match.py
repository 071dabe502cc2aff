"""The one Match of rounds: seeding, first seats, results and totals, rematch, the current round
kept alone, saving; and saves written before it (tests/data/before_issue48) still load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummisolve.errors import GameStateError, JsonInputError
from rummisolve.game import Match, round_seed
from rummisolve.game.match import RoundResult, round_result
from rummisolve.game.tile_game import TILE_GAME
from rummisolve.rules import STANDARD
from rummisolve.xpress.kind import XPRESS_GAME

BEFORE = Path(__file__).resolve().parent.parent / "data" / "before_issue48"


def _finish(game):
    """End a round fast: the tile game's draws until the pool runs out and everyone passes; Xpress's passes."""
    while not game.finished:
        if hasattr(game, "pass_turn"):
            game.pass_turn()
        else:
            game.draw()


def test_round_seeds_derive_from_the_match_seed_and_two_seeds_share_no_round():
    assert round_seed(7, 0) == 7
    seeds = {round_seed(s, r) for s in range(20) for r in range(20)}
    assert len(seeds) == 400  # no round of one seed is a round of another (seed + r would repeat)


def test_a_tile_match_moves_the_first_seat_on_and_adds_up_the_rounds():
    match = Match(TILE_GAME, 3, STANDARD, seed=4, length=4)
    firsts, seeds = [], []
    for r in range(4):
        firsts.append(match.game.current)
        seeds.append(match.game.deal.seed)
        with pytest.raises(GameStateError, match="still being played"):
            match.next_round()
        _finish(match.game)
        if r < 3:
            match.next_round()
    assert firsts == [0, 1, 2, 0]
    assert seeds == [round_seed(4, r) for r in range(4)]
    assert match.finished and match.round == 3
    scores = [g.scores() for g in match.rounds]
    assert match.totals() == tuple(sum(s[seat] for s in scores) for seat in range(3))
    assert [r.scores for r in match.results()] == scores
    assert match.leaders() == tuple(s for s, t in enumerate(match.totals()) if t == max(match.totals()))
    with pytest.raises(GameStateError, match="the match is over"):
        match.next_round()


def test_an_xpress_match_alternates_from_the_seat_its_seed_draws():
    match = Match(XPRESS_GAME, 2, seed=9, length=3)
    first = match.game.deal.first
    assert first == XPRESS_GAME.new_round(2, XPRESS_GAME.default_rules, 9, first=None).deal.first
    for _ in range(2):
        _finish(match.game)
        match.next_round()
    assert [g.deal.first for g in match.rounds] == [first, 1 - first, first]


def test_a_secret_match_deals_every_round_from_a_fresh_seed():
    a = Match(TILE_GAME, 2, seed=1, fresh_seeds=True)
    b = Match(TILE_GAME, 2, seed=1, fresh_seeds=True)
    assert a.game.deal.seed != b.game.deal.seed and a.game.deal.seed != 1


def test_the_current_round_kept_alone_gives_the_same_results_as_every_round_kept():
    whole = Match(TILE_GAME, 2, STANDARD, seed=3)
    alone = Match(TILE_GAME, 2, STANDARD, seed=3, keep_rounds=False)
    for _ in range(3):
        _finish(whole.game)
        _finish(alone.game)
        assert whole.results() == alone.results() and whole.totals() == alone.totals()
        whole.next_round()
        alone.next_round()
    assert len(whole.rounds) == 4 and len(alone.rounds) == 1
    assert alone.game.deal.seed == whole.game.deal.seed and alone.game.current == whole.game.current == 1
    assert alone.past_totals == whole.past_totals == whole.totals()
    again = Match(TILE_GAME, 2, STANDARD, seed=3, keep_rounds=False, rounds=[alone.game], results=alone.past)
    assert again.round == 3 and again.first_of(4) == 0  # the first seat follows from the current round
    with pytest.raises(GameStateError):
        Match(TILE_GAME, 2, STANDARD, rounds=[whole.rounds[0], whole.rounds[1]], keep_rounds=False)


def test_a_round_result_reads_back_and_refuses_a_bad_one():
    match = Match(TILE_GAME, 2, STANDARD, seed=2)
    assert round_result(match.game) is None
    _finish(match.game)
    result = round_result(match.game)
    assert RoundResult.from_json(result.to_json(), 2, "r") == result
    with pytest.raises(JsonInputError, match=r"r\.scores"):
        RoundResult.from_json({**result.to_json(), "scores": [1]}, 2, "r")


def test_a_rematch_is_a_new_match_of_the_same_kind_and_length():
    match = Match(XPRESS_GAME, 2, seed=5, length=3, names=("ann", "bob"))
    again = match.rematch(seed=6)
    assert (again.kind, again.players, again.rules, again.length, again.names) == (
        XPRESS_GAME,
        2,
        match.rules,
        3,
        ("ann", "bob"),
    )
    assert again.game.deal.seed == 6 and again.round == 0
    assert match.rematch().seed != match.rematch().seed  # without a seed: a random one each time


def test_a_saved_match_loads_and_a_round_from_another_match_is_refused(tmp_path):
    match = Match(TILE_GAME, 2, STANDARD, seed=8, length=2)
    _finish(match.game)
    match.next_round()
    match.save(tmp_path / "m.json")
    saved = json.loads((tmp_path / "m.json").read_text())
    assert saved["format"] == "rummisolve-match"
    loaded = Match.load(TILE_GAME, tmp_path / "m.json")
    assert [g.state for g in loaded.rounds] == [g.state for g in match.rounds]
    other = Match(TILE_GAME, 2, STANDARD, seed=99).game.to_json()
    with pytest.raises(JsonInputError, match=r"rounds\[1\]: not round 2 of this match"):
        Match.from_json(TILE_GAME, {**saved, "rounds": [saved["rounds"][0], other]})
    with pytest.raises(JsonInputError, match="format"):
        Match.from_json(XPRESS_GAME, saved)
    with pytest.raises(GameStateError, match="saved by its app"):
        Match(TILE_GAME, 2, keep_rounds=False).to_json()


# -- saves from before the one Match ---------------------------------------------------------------


def _before(name: str) -> dict:
    return json.loads((BEFORE / name).read_text())


def test_a_web_practice_game_saved_before_loads_with_its_rounds_and_deals_on_by_the_match_seeding():
    from rummisolve.server.sessions import session_from_json

    saved = _before("session_practice.json")
    session = session_from_json(saved)
    assert [g.deal.seed for g in session.rounds] == [11, 12]  # dealt from seed + r before the one Match
    assert session.to_json()["rounds"] == saved["rounds"]
    _finish(session.game)
    session.next_round()
    assert session.game.deal.seed == round_seed(11, 2) and session.game.current == 0


def test_an_xpress_match_and_web_game_saved_before_load():
    from rummisolve.server.sessions import session_from_json

    match = Match.from_json(XPRESS_GAME, _before("xpress_match.json"))
    assert match.length == 3 and match.round == 1 and match.to_json() == _before("xpress_match.json")
    session = session_from_json(_before("xpress_session_practice.json"))
    assert type(session).__name__ == "DiceSession" and session.to_json() == _before("xpress_session_practice.json")


def test_a_terminal_save_and_a_room_saved_before_load():
    from rummisolve.game.engine import Game
    from rummisolve.server.rooms import Room

    game = Game.from_json(_before("terminal_game.json"))
    assert game.to_json() == _before("terminal_game.json")
    saved = _before("room.json")
    room = Room.from_json(saved)
    assert room.to_json() == saved and room.round == 1
    assert list(room.match_totals()) == [sum(r["scores"][s] for r in saved["results"]) for s in range(2)]
