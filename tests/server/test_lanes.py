"""Which lane a solve takes (issue 33, finding 7; issue 47, finding 2: a starved light lane).

A solve is light when its expected work is at most ``light_max_work``: its tiles in play, times
its rule set's size past the XP set's 160 tiles, times its costly options (``open_then_manipulate``
before the first melds, strict joker retrieval, Twist's jokers), times 1 + its alternatives
(each a search of its own). Issue 47 found eight 106-tile solves under an 8-colour, 40-number,
4-copy set with ``open_then_manipulate`` and strict retrieval in the light lane (it was chosen by
tile count and alternatives only), ordinary positions waiting up to 14.9 s behind them.
"""

from __future__ import annotations

import pytest

from rummisolve.server.lanes import SET_SIZE_FREE, expected_work
from rummisolve.server.settings import Settings

SMALL = {"table": [["R1", "R2", "R3"], ["K7", "O7", "B7"]], "rack": ["R4", "R5", "K9", "K7"], "opened": True}
"""10 tiles in play: light by its size."""
TINY = {"table": [], "rack": ["R1", "R2", "R3", "K9"], "opened": True}
"""The 4-tile solve of issue 33's finding."""
EXPENSIVE_RULES = {
    "colours": 8,
    "numbers": 40,
    "copies": 4,
    "jokers": 4,
    "open_then_manipulate": True,
    "joker_retrieval": "strict",
}
"""Issue 47's finding 2: a small-but-expensive rule set."""
LIGHT = Settings().light_max_work


def light(body: dict, tiles: int) -> bool:
    return expected_work(body, tiles) <= LIGHT


def test_the_findings_position_is_heavy_and_an_ordinary_one_light():
    # 106 tiles, unopened, under the finding's rules: the light lane took it before.
    assert not light({**TINY, "opened": False, "rules": EXPENSIVE_RULES}, 106)
    # Each part of its cost alone: the set's size (1,284 tiles), the options on a standard set.
    assert not light({**TINY, "rules": {"colours": 8, "numbers": 40, "copies": 4, "jokers": 4}}, 106)
    assert not light(
        {**TINY, "opened": False, "rules": {"open_then_manipulate": True, "joker_retrieval": "strict"}}, 106
    )
    # An ordinary game position (the whole standard set in play at most) stays light, so does XP's.
    assert light(SMALL, 10) and light({**SMALL, "rules": "standard"}, 106) and light({**SMALL, "rules": "xp"}, 160)


def test_the_work_grows_with_each_cost():
    base = expected_work(TINY, 50)
    assert base == 50
    assert expected_work(
        {**TINY, "rules": {"colours": 8, "numbers": 40, "copies": 4, "jokers": 4}}, 50
    ) == pytest.approx(50 * (8 * 40 * 4 + 4) / SET_SIZE_FREE)
    assert expected_work({**TINY, "opened": False, "rules": {"open_then_manipulate": True}}, 50) == 100
    assert expected_work({**TINY, "opened": True, "rules": {"open_then_manipulate": True}}, 50) == 50  # opened: no cost
    assert expected_work({**TINY, "rules": {"joker_retrieval": "strict"}}, 50) == 200
    assert expected_work({**TINY, "rules": {"mirror_jokers": 1}}, 50) == 100
    assert expected_work({**TINY, "alternatives": 3}, 50) == 200


def test_an_xpress_reroll_is_heavy_and_its_search_counts_in_the_deadline():
    from rummisolve.server.lanes import Lanes, reroll_seconds

    assert not light({**TINY, "reroll": True}, 9) and not light({**TINY, "reroll": "value"}, 9)
    assert light({**TINY, "reroll": False}, 9)
    assert reroll_seconds({**TINY, "reroll": True, "reroll_time_limit": 10.0}) == 10.0
    assert reroll_seconds({**TINY, "reroll": False, "reroll_time_limit": 10.0}) == 0.0
    assert reroll_seconds({**TINY, "reroll": True, "reroll_time_limit": "soon"}) == 0.0
    assert Lanes.search_seconds({**TINY, "reroll": True, "reroll_time_limit": 10.0}, 2.0) == 12.0


def test_a_small_position_asking_for_alternatives_is_heavy():
    assert not light({**TINY, "alternatives": 10, "time_limit": 10.0}, 20)
    assert not light({**TINY, "alternatives": 3, "explain": True, "id": 7}, 50)
    assert light({**TINY, "alternatives": 1}, 4)  # 8: still far under the limit


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"alternatives": 0},
        {"time_limit": 10.0},  # the cap: what every request without a time_limit gets
        {"explain": True},
        {"hint": 2},
        {"id": "game-7/turn-12"},
        # Refused at once by solve_json whichever lane runs it (400): kept out of the busy one.
        {"alternatives": "ten"},
        {"alternatives": True},
        {"alternatives": None},
        {"rules": "no such preset"},
        {"rules": {"colours": "many"}},
    ],
)
def test_a_small_solve_without_costs_is_light(extra):
    assert light({**TINY, **extra}, 4) and light({**TINY, **extra}, LIGHT)
    assert not light({**TINY, **extra}, LIGHT + 1)
