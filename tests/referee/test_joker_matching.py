"""The referee's strict-joker matching (rummisolve.referee._joker_matching) against a plain search over
every matching (the referee's earlier algorithm, factorial in the jokers), and on inputs that
made that one take minutes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve import Position, RuleSet
from rummisolve.referee import verify
from rummisolve.referee._joker_matching import JokerMatching, _Search

TILES = "abcde"


def every_matching(slots, meld_tiles, played, jokers, deficit, origins=None, origin_tiles=None) -> bool:
    """Reference: try every matching of old jokers to slots, kept or freed in every way; with
    ``origins``, choose every kept joker's witness in every way (a tile of its origin in its meld,
    each meld's copy for one origin, each origin's tile in one meld); and share the played tiles
    out among the freed jokers' melds in every way (a witness is not one of them)."""
    used = [False] * len(slots)
    left = dict(played)
    freed: list[int] = []
    kept: list[tuple[int, int]] = []  # (joker, slot) kept in a valid meld
    given: dict[int, list] = {}  # meld -> the witnesses it gave

    def witnesses() -> bool:
        demands = sorted({(origins[j], slots[n][0]) for j, n in kept})
        by_origin: dict = {}

        def pick(d: int) -> bool:
            if d == len(demands):
                return allocate(sorted({slots[j][0] for j in freed}), dict(left))
            origin, meld = demands[d]
            for r in sorted(origin_tiles[origin]):
                if r in by_origin.get(origin, ()) or meld_tiles[meld].count(r) <= given.get(meld, []).count(r):
                    continue
                by_origin.setdefault(origin, []).append(r)
                given.setdefault(meld, []).append(r)
                ok = pick(d + 1)
                given[meld].pop()
                by_origin[origin].pop()
                if ok:
                    return True
            return False

        return pick(0)

    def allocate(melds: list[int], rest: dict) -> bool:
        if not melds:
            return True
        meld, others = melds[0], melds[1:]
        tiles = list(meld_tiles[meld])
        for r in given.get(meld, []):
            tiles.remove(r)
        rack_jokers = sum(1 for j, (m, _) in enumerate(slots) if m == meld and not used[j])
        need = max(0, 2 - rack_jokers)

        def take(kinds: list, need: int) -> bool:
            if need == 0:
                return allocate(others, rest)
            for n, k in enumerate(kinds):
                for amount in range(min(tiles.count(k), rest.get(k, 0), need), 0, -1):
                    rest[k] -= amount
                    ok = take(kinds[n + 1 :], need - amount)
                    rest[k] += amount
                    if ok:
                        return True
            return False

        return take(sorted(set(tiles)), need)

    def rec(k: int, deficit: int) -> bool:
        if k == len(jokers):
            if origins is not None:
                return witnesses()
            return allocate(sorted({slots[j][0] for j in freed}), dict(left))
        stands = jokers[k]
        for n, (_, slot_stands) in enumerate(slots):
            if used[n]:
                continue
            used[n] = True
            if slot_stands is None or stands & slot_stands:
                if slot_stands is not None:
                    kept.append((k, n))
                ok = rec(k + 1, deficit)
                if slot_stands is not None:
                    kept.pop()
                if ok:
                    return True
            for r in sorted(stands):
                if left.get(r, 0) > 0:
                    left[r] -= 1
                    freed.append(n)
                    ok = rec(k + 1, deficit)
                    freed.pop()
                    left[r] += 1
                    if ok:
                        return True
            used[n] = False
        return deficit > 0 and rec(k + 1, deficit - 1)

    return rec(0, deficit)


stands_sets = st.frozensets(st.sampled_from(TILES), min_size=1, max_size=2)


@st.composite
def instances(draw):
    n_melds = draw(st.integers(1, 3))
    meld_stands = [draw(st.one_of(st.none(), stands_sets)) for _ in range(n_melds)]
    slots = []
    for meld in range(n_melds):
        for _ in range(draw(st.integers(1, 2))):
            stands = meld_stands[meld]
            # a valid meld's slots may stand for different tiles (a run with two jokers)
            slots.append((meld, stands if stands is None else draw(st.one_of(st.just(stands), stands_sets))))
    meld_tiles = {meld: draw(st.lists(st.sampled_from(TILES), max_size=4)) for meld in range(n_melds)}
    played = {t: draw(st.integers(0, 2)) for t in TILES}
    jokers = draw(st.lists(stands_sets, min_size=1, max_size=4))
    deficit = max(0, len(jokers) - len(slots))
    return slots, meld_tiles, played, jokers, deficit


# 600 examples (1,500 took 4-6 s a test; derandomized, so the same 600 every run)
@settings(max_examples=600, deadline=None)
@given(instances())
def test_agrees_with_trying_every_matching(instance):
    slots, meld_tiles, played, jokers, deficit = instance
    expected = every_matching(slots, meld_tiles, played, jokers, deficit)
    assert JokerMatching(slots, meld_tiles, played).possible(jokers, deficit) == expected


@settings(max_examples=600, deadline=None)
@given(instances(), st.data())
def test_agrees_with_trying_every_matching_with_witnesses(instance, data):
    # A kept joker needs a tile of its old meld (its origin) in its new meld, counted as copies.
    slots, meld_tiles, played, jokers, deficit = instance
    n_origins = data.draw(st.integers(1, 3))
    origins = [data.draw(st.integers(0, n_origins - 1)) for _ in jokers]
    origin_tiles = {
        o: data.draw(st.frozensets(st.sampled_from(TILES), min_size=1, max_size=3)) for o in range(n_origins)
    }
    expected = every_matching(slots, meld_tiles, played, jokers, deficit, origins, origin_tiles)
    matching = JokerMatching(slots, meld_tiles, played, origin_tiles)
    assert matching.possible(jokers, deficit, origins=origins) == expected
    if expected:  # witnesses only ever take possibilities away
        assert matching.possible(jokers, deficit)


def test_witnesses_compete_for_copies():
    # Two jokers of one origin (tiles a) kept in two melds that each hold an a: one copy, one meld.
    slots = [(0, frozenset("x")), (1, frozenset("y"))]
    meld_tiles = {0: ["a", "b"], 1: ["a", "c"]}
    jokers = [frozenset("x"), frozenset("y")]
    matching = JokerMatching(slots, meld_tiles, {}, {0: frozenset("a"), 1: frozenset("a")})
    assert not matching.possible(jokers, origins=[0, 0])
    assert matching.possible(jokers, origins=[0, 1])  # two origins: a copy each
    # Two origins whose jokers share meld 0 with its one a.
    slots = [(0, frozenset("x")), (0, frozenset("y"))]
    matching = JokerMatching(slots, {0: ["a", "b"]}, {}, {0: frozenset("a"), 1: frozenset("ab")})
    assert matching.possible(jokers, origins=[0, 1])  # b for origin 1
    assert not JokerMatching(slots, {0: ["a", "b"]}, {}, {0: frozenset("a"), 1: frozenset("a")}).possible(
        jokers, origins=[0, 1]
    )


def test_equal_melds_are_searched_once():
    # 16 equal jokers, each to be freed into one of 16 equal melds whose two further tiles come
    # from a pool one tile short: no way, and a search over matchings would try 16! of them.
    n = 16
    slots = [(i, frozenset("y")) for i in range(n)]
    meld_tiles = {i: ["a", "a"] for i in range(n)}
    played = {"x": n, "a": 2 * n - 1}
    jokers = [frozenset("x")] * n
    search = _Search(JokerMatching(slots, meld_tiles, played), jokers, ["x"])
    assert not search.run(0)
    assert len(search.seen) < 2_000
    played["a"] = 2 * n
    assert JokerMatching(slots, meld_tiles, played).possible(jokers)


@pytest.mark.parametrize("free_one", [False, True])
def test_verify_many_strict_jokers(free_one):
    # Eleven jokers standing for K5 in equal runs stay; the one standing for B5 moves to B8, which
    # is legal only if B5 from the rack frees it and two more rack tiles join it.
    rules = RuleSet(jokers=16, copies=16, joker_retrieval="strict")
    old = ["K4 J K6"] * 11 + ["B4 J B6"]
    rack = "B2 B3 B5 B7 B9" if free_one else "B2 B3 B7"
    p = Position.from_notation(old, rack, opened=True, rules=rules)
    moved = ["B2 B3 B4 B5", "B6 B7 J B9"] if free_one else ["B2 B3 B4", "B6 B7 J"]
    v = verify(p, ["K4 J K6"] * 11 + moved)
    if free_one:
        assert v.legal, v
    else:
        assert v.codes == ("joker_retrieval",) and "stood for B5" in str(v), v


def test_max_steps_bounds_the_strict_joker_search():
    from rummisolve.errors import RefereeLimitError

    # The joker standing for K5 moves to K8: freeing it (K5 and K9 K10 played) needs the search.
    rules = RuleSet(joker_retrieval="strict")
    p = Position.from_notation(["K4 J K6", "B4 J B6"], "K5 K9 K10", opened=True, rules=rules)
    table = ["K4 K5 K6", "B4 J B6", "J K9 K10"]
    assert verify(p, table).legal
    with pytest.raises(RefereeLimitError, match="search steps"):
        verify(p, table, max_steps=1)
