"""Twist initial melds that only a long special-joker meld makes: a meld that no cut splits into
two valid melds (one part would hold jokers only) and that is worth more than its jokers are
elsewhere. Hand-worked cases (the reasoning in the comments), then openings built from the
definition (:mod:`tests.support.twist_definition`): every uncuttable meld is a rack, its value the
threshold, so the whole rack is the optimum."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummisolve import Position, solve
from rummisolve.referee import verify
from rummisolve.rules import TWIST
from rummisolve.tiles import COLOUR_CHANGE_JOKER, DOUBLE_JOKER, JOKER, MIRROR_JOKER
from tests.support.twist_definition import best_readings
from tests.support.twist_oracle import twist_optimum


def _opening(rack: str, rules=TWIST, objective="tiles"):
    position = Position.from_notation([], rack, opened=False, rules=rules)
    return position, solve(position, objective)


def test_a_double_run_of_six_tiles_opens_at_26():
    # 7 numbers: R1 R2 R3 J J JD is 1..7, worth 28. Cut anywhere a part is jokers only; as two
    # melds the jokers are worth less (R1 R2 J + R3 J JD: 6 + 18 = 24, R1 JD J + R2 R3 J: 10 + 9),
    # and five tiles make 27 at most (R2 R3 J J JD, 2..7): six tiles only as the one run.
    rules = TWIST.replace(numbers=7, initial_threshold=26)
    position, s = _opening("R1 R2 R3 J J JD", rules)
    assert s.status == "optimal" and len(s.played) == 6
    (meld,) = s.table
    assert len(meld.tiles) == 6 and meld.tiles.count(DOUBLE_JOKER) == 1
    assert verify(position, [["R1", "R2", "R3", "J", "J", "JD"]])


def test_the_twist_preset_opens_with_a_six_tile_double_run():
    # R1 R2 R3 J J JD (28) and R1 K1 B1 O1 (4) make 32 >= 30 with all ten tiles. Without the long
    # run the jokers are worth 24 at most beside R1 R2 R3 (the first test), 28 in all.
    _, s = _opening("R1 R1 R2 R3 J J JD K1 B1 O1")
    assert s.status == "optimal" and len(s.played) == 10
    assert any(len(meld.tiles) == 6 for meld in s.table)


def test_a_colour_change_segment_of_four_tiles_in_an_opening():
    # K1 K2 K3 JC J B6 B7 B8 is 1..8, worth 36. Its segment J B6 B7 B8 gives B6 B7 B8 away and
    # leaves J alone after the JC; moved before the JC (K1 K2 K3 J) the J is left alone there.
    # Apart, K1 K2 K3 J and B6 B7 B8 are worth 31 without the JC; 36 takes the one meld.
    rules = TWIST.replace(numbers=8, initial_threshold=36)
    _, s = _opening("K1 K2 K3 JC J B6 B7 B8", rules)
    assert s.status == "optimal" and len(s.played) == 8
    (meld,) = s.table
    assert COLOUR_CHANGE_JOKER in meld.tiles


def test_a_colour_change_segment_of_one_tile_and_three_jokers():
    # K1 JC B3 J J JD is 1..7 (28): the segment B3 J J JD has one numbered tile. Five tiles make
    # 21 at most (K1 JC B3 J JD, 1..6); B3 J J JD alone is 25 with four.
    rules = TWIST.replace(numbers=7, initial_threshold=22)
    _, s = _opening("K1 JC B3 J J JD", rules)
    assert s.status == "optimal" and len(s.played) == 6


def test_a_double_joker_group_of_one_tile_and_five_jokers():
    # 7 colours: K13 J J J J JD is a group of seven 13s (91); a run from K13 goes down to 7
    # (7..13, 70) and cut in two a part is jokers only.
    rules = TWIST.replace(colours=7, jokers=4, double_jokers=1, initial_threshold=91)
    _, s = _opening("K13 J J J J JD", rules)
    assert s.status == "optimal" and len(s.played) == 6


def test_an_opening_with_a_long_segment_under_open_then_manipulate():
    # K1 J K3 JC J B6 B7 B8 is 1..8 (36), its segment J B6 B7 B8 as above; under
    # open_then_manipulate the opening's melds lie on the final table too, which lists them.
    rules = TWIST.replace(numbers=8, initial_threshold=36, open_then_manipulate=True)
    position, s = _opening("K1 J K3 JC J B6 B7 B8", rules)
    assert s.status == "optimal" and len(s.played) == 8
    assert verify(position, [["K1", "J", "K3", "JC", "J", "B6", "B7", "B8"]])


@pytest.mark.parametrize(
    "rack",
    [
        "K1 K2 K3 JC J B6 B7 B8",  # a joker pad after the JC (J B6 B7 B8 cut leaves J alone)
        "O2 O3 O4 JC J J K8 K9",  # two pads after the JC
        "J K2 K3 JC J JD O8 O9",  # pads before or after the JC
        "J O2 JC B4 J JD JD",  # tail pads: B4 J JD JD has one numbered tile, jokers at the run's end
        "JD JD J B6 JC O8 J",  # head pads (the one above, mirrored)
    ],
)
def test_long_colour_change_segments_on_an_opened_rack(rack):
    # On an opened rack the whole rack is only that one meld (no threshold to reach, but no cut).
    rules = TWIST.replace(numbers=9, colours=3)
    position = Position.from_notation([], rack, opened=True, rules=rules)
    assert verify(position, [rack.split()])
    s = solve(position, "tiles")
    assert s.status == "optimal" and len(s.played) == len(rack.split())


def _longest_segment(tiles) -> int:
    """Tiles of the longest single-colour segment of a run read in play order."""
    longest = length = 0
    for tile in tiles:
        length = 0 if tile == COLOUR_CHANGE_JOKER else length + 1
        longest = max(longest, length)
    return longest


def test_opened_racks_built_from_colour_change_melds():
    """A seeded sample of the scan that found the long-segment misses (every definition meld of 6 to
    8 tiles, 9 numbers and 3 colours, with a ``JC`` and two ``J``/``JD`` or more, within the Twist
    supply), those with a segment of 4 tiles or more: each, as the rack of an opened position, is
    played whole (before the joker pads, 9 of these 400 were not)."""
    rules = TWIST.replace(numbers=9, colours=3)
    supply = Counter({JOKER: rules.jokers, DOUBLE_JOKER: 2, COLOUR_CHANGE_JOKER: 2, MIRROR_JOKER: 2})
    racks = set()
    for tiles in best_readings(rules, 8):
        counts = Counter(tiles)
        if len(tiles) >= 6 and counts[COLOUR_CHANGE_JOKER] and counts[JOKER] + counts[DOUBLE_JOKER] >= 2:
            if all(counts[t] <= n for t, n in supply.items()) and _longest_segment(tiles) >= 4:
                racks.add(" ".join(sorted(map(str, tiles))))
    sample = random.Random("twist-opened").sample(sorted(racks), 400)
    short = []
    for rack in sample:
        s = solve(Position.from_notation([], rack, opened=True, rules=rules), "tiles")
        if len(s.played) != len(rack.split()):
            short.append(f"{len(s.played)} of {rack}")
    assert not short, short


BUILT = TWIST.replace(numbers=8, colours=2)
SUPPLY = Counter({JOKER: BUILT.jokers, DOUBLE_JOKER: 2, COLOUR_CHANGE_JOKER: 2, MIRROR_JOKER: 2})


def _uncuttable_melds(max_tiles: int = 8) -> list[tuple[tuple, int]]:
    """The definition's melds of 6 to ``max_tiles`` tiles with a special joker and two regular or
    double jokers or more, within the Twist supply, that no cut splits into two valid melds; each with the
    value of its best reading."""
    readings = best_readings(BUILT, max_tiles)
    found = []
    for tiles, (_kind, value, _stands) in readings.items():
        counts = Counter(tiles)
        if len(tiles) < 6 or not any(t.is_special_joker for t in tiles) or counts[JOKER] + counts[DOUBLE_JOKER] < 2:
            continue
        if any(counts[t] > n for t, n in SUPPLY.items()):
            continue
        if not any(tiles[:i] in readings and tiles[i:] in readings for i in range(1, len(tiles))):
            found.append((tiles, value))
    return found


def test_openings_built_from_uncuttable_twist_melds():
    """40 uncuttable melds (seeded), each the rack of a position not opened whose threshold is its
    value, half of them under ``open_then_manipulate``: the solver plays the whole rack (the optimum,
    the meld itself being legal), both objectives."""
    melds = _uncuttable_melds()
    sample = random.Random("twist-long").sample(melds, 40)
    mismatches, long_melds = [], 0
    for i, (tiles, value) in enumerate(sample):
        rules = BUILT.replace(initial_threshold=value, open_then_manipulate=i % 2 == 1)
        position = Position.from_notation([], " ".join(map(str, tiles)), opened=False, rules=rules)
        assert verify(position, [[str(t) for t in tiles]])
        for objective in ("tiles", "value"):
            s = solve(position, objective)
            if len(s.played) != len(tiles):
                mismatches.append(f"{objective}: {len(s.played)} of {len(tiles)} played: {position!r}")
            long_melds += objective == "tiles" and any(len(m.tiles) >= 6 for m in s.table)
    assert not mismatches, "\n".join(mismatches)
    assert long_melds >= 30  # the answers hold the long melds, not other arrangements


@pytest.mark.parametrize(
    "min_meld_length, rack",
    [
        (4, "K1 K2 K3 JC B5 B6 B7 B8"),  # B5 B6 B7 B8 given away leaves nothing after the JC; B6 B7 B8 is short
        (4, "K1 K2 K3 K4 JC B6 B7 B8"),  # mirrored: a left segment of 4
        (2, "O1 O2 O3 JM O3 O2 O1"),  # a side of 3: cut off, O1 O1 or O3 O3 is no meld
    ],
)
def test_other_minimum_meld_lengths_against_the_oracle(min_meld_length, rack):
    # With minimum m an end segment gives a run away only from m + 1 tiles, a mirror side its far
    # ends from m + 2 slots: longer shapes than the Twist preset's (m = 3) are needed.
    rules = TWIST.replace(numbers=8, colours=3, min_meld_length=min_meld_length)
    position = Position.from_notation([], rack, opened=True, rules=rules)
    assert twist_optimum(position, "tiles") == len(rack.split())
    assert len(solve(position, "tiles").played) == len(rack.split())
