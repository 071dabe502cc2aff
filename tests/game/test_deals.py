"""Seatings of a tournament deal: every rotation of the deal's order round the table, and over
(n - 1)! deals each contestant right after each other one equally often."""

from __future__ import annotations

import math
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from rummisolve.game.deals import seating


def test_two_players_alternate_seats_as_plain_rotations():
    assert [seating(2, deal, r) for deal in range(3) for r in range(2)] == [(0, 1), (1, 0)] * 3


def test_four_players_sit_after_each_other_equally_often_over_six_deals():
    after = Counter()
    orders = set()
    for deal in range(6):
        order = seating(4, deal, 0)
        orders.add(order)
        after.update((order[s], order[(s + 1) % 4]) for s in range(4))
    assert len(orders) == 6 and all(order[0] == 0 for order in orders)
    assert set(after) == {(a, b) for a in range(4) for b in range(4) if a != b}
    assert set(after.values()) == {2}
    assert seating(4, 6, 1) == seating(4, 0, 1)  # the orders come round again


@given(st.integers(2, 6), st.integers(0, 10_000))
def test_a_deals_rotations_put_every_contestant_in_every_seat_once(players, deal):
    seatings = [seating(players, deal, r) for r in range(players)]
    for seats in seatings:
        assert sorted(seats) == list(range(players))
    for seat in range(players):
        assert sorted(s[seat] for s in seatings) == list(range(players))
    # each rotation keeps the deal's order round the table
    order = seatings[0]
    for r, seats in enumerate(seatings):
        assert seats == tuple(order[(s + r) % players] for s in range(players))
    assert deal % math.factorial(players - 1) != 0 or order == tuple(range(players))
