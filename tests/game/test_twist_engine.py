"""Twist in the game engine, the terminal display, table editing and the SVG render."""

from __future__ import annotations

import json
import re
from collections import Counter
from xml.etree import ElementTree

from rummisolve.game.engine import Game
from rummisolve.game.scoring import round_scores
from rummisolve.game.table_edit import place
from rummisolve.game.terminal.display import meld_text, rack_text, sorted_rack, tile_text
from rummisolve.position import Position
from rummisolve.render import render_svg
from rummisolve.rules import TWIST
from rummisolve.tiles import parse_tiles

SVG = "{http://www.w3.org/2000/svg}"


def stacked(rules, first_rack: str):
    full = Counter(rules.full_set())
    head = list(parse_tiles(first_rack))
    full.subtract(head)
    return head + sorted(full.elements())


def test_a_twist_deal_holds_all_112_tiles():
    game = Game(players=4, rules=TWIST, seed=24)
    state = game.state
    assert state.tile_counts() == Counter(TWIST.full_set()) and len(state.pool) == 112 - 56
    assert game.time_left() is not None and game.rules.turn_timer == 60


def test_a_twist_game_plays_an_opening_with_special_jokers_and_scores_them_30():
    rules = TWIST.replace(rack_size=7)
    # Seat 0: R9 JD R12 (9+10+11+12 = 42) and K5 K6 JC B8 (5+6+7+8 = 26): 68 in all, out in one turn.
    deck = stacked(rules, "R9 JD R12 K5 K6 JC B8")
    game = Game(players=2, rules=rules, deck=deck)
    game.play([["R9", "JD", "R12"], ["K5", "K6", "JC", "B8"]])
    assert game.finished and game.winner == 0
    loser = game.state.racks[1]
    assert game.scores() == (rules.rack_value(loser), -rules.rack_value(loser))
    assert round_scores([(), parse_tiles("JD JM J R5")], 0, rules) == (95, -95)
    saved = json.loads(json.dumps(game.to_json()))
    assert Game.from_json(saved).state == game.state


def test_the_terminal_tells_the_four_jokers_apart():
    plain = [tile_text(t, colour=False) for t in parse_tiles("J JD JC JM")]
    assert plain == ["J", "JD", "JC", "JM"]
    inks = {re.match(r"\x1b\[[0-9;]*m", tile_text(t)).group() for t in parse_tiles("J JD JC JM")}
    assert len(inks) == 4
    assert meld_text(parse_tiles("R2 JD R5"), colour=False) == "R2 JD R5"
    assert [str(t) for t in sorted_rack(parse_tiles("JM R5 J K1 JD"), "number")] == ["K1", "R5", "J", "JD", "JM"]
    assert rack_text(parse_tiles("JC R5"), colour=False) == "R5 JC"


def test_table_editing_places_special_jokers():
    # Adding JD to R2 R5 can only go between them (2-3-4-5).
    assert [str(t) for t in place(parse_tiles("R2 R5"), parse_tiles("JD"), TWIST)] == ["R2", "JD", "R5"]
    # A JC between two runs of different colours.
    assert [str(t) for t in place(parse_tiles("R1 R2 B4 B5"), parse_tiles("JC"), TWIST)] == [
        "R1", "R2", "JC", "B4", "B5",
    ]  # fmt: skip


def test_the_render_draws_four_distinct_jokers():
    position = Position.from_notation("R2 JD R5 | R1 R2 JC B4 B5 | K7 R7 JM R7 K7 | R4 J R6", "J JD JC JM", rules=TWIST)
    root = ElementTree.fromstring(render_svg(position))
    jokers = [g for g in root.iter(f"{SVG}g") if "joker" in (g.get("class") or "").split()]
    by_code: dict[str, list] = {}
    for g in jokers:
        by_code.setdefault(g.get("data-tile"), []).append(g)
    assert sorted(by_code) == ["J", "JC", "JD", "JM"] and all(len(v) == 2 for v in by_code.values())
    marks = {
        code: {g.find(f"{SVG}g[@class='joker-face']").get("data-mark") for g in gs} for code, gs in by_code.items()
    }
    assert marks == {"J": {"joker"}, "JD": {"double-joker"}, "JC": {"colour-change-joker"}, "JM": {"mirror-joker"}}
    titles = sorted(g.find(f"{SVG}title").text for g in jokers)
    assert titles == [
        "colour-change joker",
        "colour-change joker as 3",
        "double joker",
        "double joker as R3 R4",
        "joker",
        "joker as R5",
        "mirror joker",
        "mirror joker",
    ]
    labels = {t.text for g in jokers for t in g.iter(f"{SVG}text") if t.get("class") == "stands-for"}
    assert labels == {"=R3R4", "=3", "=R5"}


def test_a_blocked_twist_round_scores_every_joker_30():
    game = Game(players=2, rules=TWIST.replace(turn_timer=None), seed=7)
    while not game.finished:
        game.draw()
    assert game.state.end_reason == "blocked"
    racks = game.state.racks
    assert sum(len(r) for r in racks) == 112
    values = [sum(30 if t.is_any_joker else t.number for t in rack) for rack in racks]
    winner = game.winner
    assert values[winner] == min(values)
    assert game.scores()[1 - winner] == -(values[1 - winner] - values[winner])
