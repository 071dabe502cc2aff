"""Real games under the discard rule with every AI (real solver and referee): tiles conserved, every
play refereed, replay; each level's draw and discard decisions; the runner's forfeit."""

from __future__ import annotations

from collections import Counter

import pytest

from rummisolve import verify
from rummisolve.game import Discard, Draw, Game, Play, make_player, play_game
from rummisolve.game.ai.discarding import best_discard, discard_options, taken_tiles, wanted_by
from rummisolve.game.ai.easy import EasyPlayer
from rummisolve.game.ai.hard import HardPlayer
from rummisolve.game.ai.medium import MediumPlayer
from rummisolve.game.events import DiscardEvent, PlayEvent
from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import Tile, parse_tiles

DISCARD = STANDARD.replace(discard=True)
SMALL = RuleSet(colours=3, numbers=9, copies=1, jokers=1, rack_size=6, initial_threshold=10, discard=True)


def t(code: str) -> Tile:
    return Tile.parse(code)


def view_for(table, rack, *, top="O13", opened=True, rules=DISCARD, sizes=(10, 10), pool=20, history=(), drawn=None):
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
        5,
        tuple(history),
        discard_pile=(t(top),) if top else (),
        draw_from=None if drawn is None else drawn[0],
        drawn=None if drawn is None else t(drawn[1]),
    )


def checked_game(kinds, seed, rules):
    """One full game, checked independently of the engine: every state holds the whole set (racks +
    table + pool + discard pile), every play passes the referee from the position it was decided
    on, no illegal move, and the log replays to the same states."""
    turns = []
    game, record = play_game([make_player(k, seed=seed) for k in kinds], rules=rules, seed=seed, on_turn=turns.append)
    full = Counter(rules.full_set())
    for state in game.states:
        assert state.tile_counts() == full
        assert sum(len(r) for r in state.racks) + len(state.table_tiles) + len(state.pool) + len(state.discards) == len(
            rules.full_set()
        )
    for info in turns:
        event = info.event
        assert isinstance(event, PlayEvent | DiscardEvent) or info.illegal is None
        if isinstance(event, PlayEvent):
            assert event.discard is not None and verify(info.position, event.table).legal
        if info.draw is not None:  # the position decided on holds the tile drawn
            assert info.draw.tile in info.position.rack
    assert record.illegal_moves == 0
    assert Game.replay(game.log()).states == game.states
    assert game.finished and sum(record.scores) == 0 and record.turns == len(turns)
    return game, record, turns


@pytest.mark.parametrize(
    "kinds", [("medium", "easy"), ("hard", "medium"), ("easy", "hard"), ("easy", "medium", "hard"), ("hard", "hard")]
)
def test_small_games_with_every_ai_conserve_tiles_and_pass_the_referee(kinds):
    for seed in range(6):
        game, record, turns = checked_game(kinds, seed, SMALL)
        assert record.end_reason in ("out", "blocked")
        if record.end_reason == "out":  # won by discarding the last tile
            assert isinstance(game.events[-1], PlayEvent | DiscardEvent)


@pytest.mark.parametrize("kinds", [("medium", "easy"), ("hard", "medium")])
def test_standard_games_use_both_draw_sources(kinds):
    sources = Counter()
    for seed in range(3):
        _, _, turns = checked_game(kinds, seed, DISCARD)
        sources.update(info.draw.source if info.draw else None for info in turns)
    assert sources["pool"] and sources["discard"] and sources[None]


def test_the_variant_combines_with_other_options():
    rules = DISCARD.replace(open_then_manipulate=True, initial_threshold=20, joker_retrieval="strict", turn_timer=3600)
    for kinds in (("hard", "medium"), ("medium", "easy")):
        checked_game(kinds, 1, rules)


# -- decisions -----------------------------------------------------------------------------------


def test_discard_options_keep_melds_and_near_melds():
    options = discard_options(parse_tiles("K1 K2 K3 B7 O7 R11"), DISCARD)
    assert [(str(o.tile), o.own, o.near) for o in options[:1]] == [("R11", 3, 5)]  # keeps the meld and the pair
    assert {(str(o.tile), o.own, o.near) for o in options[1:3]} == {("O7", 3, 3), ("B7", 3, 3)}
    assert all(o.own == 0 for o in options[3:])  # breaking the run costs most
    assert best_discard(parse_tiles("K5 B9 O13 R1"), DISCARD) == t("O13")  # nothing fits: shed points
    assert best_discard(parse_tiles("K5 B9 O13 R1"), DISCARD, opened=False) == t("R1")  # keep points to open
    assert best_discard(parse_tiles("J K5"), DISCARD) == t("K5") and best_discard(parse_tiles("J J"), DISCARD).is_joker


def test_medium_plays_without_drawing_and_discards_what_fits_nowhere():
    action = MediumPlayer().choose(view_for(["R1 R2 R3"], "R4 K9 K10 K11 O12"))
    assert isinstance(action, Play) and action.discard == t("O12")
    assert {str(x) for m in action.table for x in m} >= {"R4", "K9", "K10", "K11"}


def test_medium_goes_out_by_playing_all_but_one_and_discarding_it():
    action = MediumPlayer().choose(view_for(["R1 R2 R3"], "R4 R5"))
    assert isinstance(action, Play) and action.discard in (t("R4"), t("R5"))


def test_medium_takes_the_top_when_it_makes_a_play_and_the_pool_otherwise():
    assert MediumPlayer().choose(view_for([], "K11 K12 B2 O5", top="K13")) == Draw("discard")
    assert MediumPlayer().choose(view_for([], "K11 K12 B2 O5", top="R7")) == Draw("pool")
    assert MediumPlayer().choose(view_for([], "K11 K12 B2 O5", top="R7", pool=0)) == Draw("discard")
    # after the draw: play, discarding the tile left that keeps the rack most playable
    after = MediumPlayer().choose(view_for([], "K11 K12 K13 B2 O5", top=None, drawn=("discard", "K13")))
    assert isinstance(after, Play) and after.discard == t("O5")
    # K11 K12 are one tile short of a run: of the others, the highest number goes
    assert MediumPlayer().choose(view_for([], "K11 K12 B2 O5 R8", top=None, drawn=("pool", "R8"))) == Discard(t("R8"))


def test_easy_takes_the_top_only_for_a_meld_of_its_own():
    assert EasyPlayer().choose(view_for(["K9 K10 K11"], "K12 B2 O5", top="K12")) == Draw("pool")  # not a meld alone
    assert EasyPlayer().choose(view_for([], "K11 K12 B2 O5", top="K13")) == Draw("discard")
    assert EasyPlayer().choose(view_for([], "K11 K12 B2 O5", top=None, drawn=("pool", "O5"))) == Discard(t("K12"))


def test_hard_goes_out_by_taking_the_top_when_that_is_the_way():
    # Without the top K11, playing R4 R5 leaves K9 K10; with it, R4 and K9 K10 K11 go and R5 is
    # discarded: out.
    view = view_for(["R1 R2 R3"], "R4 R5 K9 K10", top="K11")
    assert HardPlayer(seed=0).choose(view) == Draw("discard")
    assert MediumPlayer().choose(view) == Draw("discard")


def test_history_tells_which_tiles_the_next_player_took_and_still_holds():
    history = (
        {"type": "draw", "player": 1, "tile": "O7", "source": "discard", "drew": 1},
        {"type": "discard", "player": 1, "tile": "K4"},
        {"type": "draw", "player": 1, "tile": "B2", "source": "discard", "drew": 1},
        {"type": "play", "player": 1, "table": [["B1", "B2", "B3"]], "discard": "R9"},
    )
    view = view_for([], "K1", history=history)
    assert taken_tiles(view, 1) == Counter({t("O7"): 1})
    assert wanted_by(t("O8"), Counter({t("O7"): 1})) and wanted_by(t("K7"), Counter({t("O7"): 1}))
    assert not wanted_by(t("O10"), Counter({t("O7"): 1})) and not wanted_by(t("K2"), Counter({t("O7"): 1}))


def test_hard_does_not_hand_the_next_player_the_tile_they_visibly_wanted():
    # After playing the run, O8 and K2 are both loose; by points O8 would go first. But the next
    # player took O7 from the discard pile and still holds it, so hard keeps O8 and discards K2.
    history = ({"type": "draw", "player": 1, "tile": "O7", "source": "discard", "drew": 1},)
    view = view_for([], "R5 R6 R7 O8 K2", history=history, sizes=(5, 12))
    hard = HardPlayer(seed=0).choose(view)
    assert isinstance(hard, Play) and hard.discard == t("K2")
    assert MediumPlayer().choose(view).discard == t("O8")


def test_hard_does_not_discard_the_tile_a_nearly_out_opponent_goes_out_with():
    # Hard has not opened and cannot, so after its draw it only discards. Nothing on its rack goes
    # together; not opened, it would let the lowest number go: K2. But the next player holds one
    # tile and has opened: taking K2 they put it on K3 K4 K5 and discard their last tile. The
    # sampled racks say so, and hard discards B5 instead.
    rules = RuleSet(colours=2, numbers=9, copies=1, jokers=0, rack_size=4, initial_threshold=30, discard=True)
    view = view_for(["K3 K4 K5"], "K2 B5 B9 K9", top="B1", opened=False, rules=rules, sizes=(4, 1), pool=3)
    view = PlayerView(**{**view.__dict__, "draw_from": "pool", "drawn": t("K9")})
    assert MediumPlayer().choose(view) == Discard(t("K2"))
    assert HardPlayer(seed=0).choose(view) == Discard(t("B5"))
    assert HardPlayer(seed=0, guard=False).choose(view) == Discard(t("K2"))


class Stubborn:
    """Draws twice in a turn: an action out of order, which the runner counts as an illegal move."""

    name = "stubborn"

    def choose(self, view):
        return Draw("pool")


def test_a_rejected_action_forfeits_the_turn_by_discarding_the_drawn_tile():
    game, record = play_game([Stubborn(), make_player("medium")], rules=SMALL, seed=2)
    assert record.illegal_moves > 0
    assert game.state.tile_counts() == Counter(SMALL.full_set())
    first = game.events[:2]
    assert first[0].source == "pool" and isinstance(first[1], DiscardEvent) and first[1].tile == first[0].tile
