"""The hot-seat pass screens (game/terminal/hotseat.py) on their own: what a turn shows to the
others (a tile drawn from the pool never named), leaving from the pass screen, the recap of the
turns since a seat's last one, and the turn timer starting after the handover."""

from __future__ import annotations

from collections import Counter

import pytest

from rummisolve.game.engine import Game
from rummisolve.game.events import DiscardEvent, DrawEvent, PlayEvent, TimeoutEvent
from rummisolve.game.terminal.hotseat import CLEAR_SCREEN, SEPARATOR, HotSeat, pass_prompt, public_turn_text
from rummisolve.game.terminal.human import HumanPlayer, QuitGame
from rummisolve.rules import STANDARD
from rummisolve.tiles import Tile, parse_tiles

NAMES = ("Ann", "Bo")


def test_what_the_others_see_of_a_turn():
    game = Game(2, STANDARD, seed=1, names=NAMES)
    before = game.state
    r5 = Tile.parse("R5")
    assert public_turn_text(DrawEvent(0, r5), before, NAMES) == "Ann draws a tile"
    assert public_turn_text(DrawEvent(1, None), before, NAMES) == "Bo passes (the pool is empty)"
    assert public_turn_text(TimeoutEvent(0, parse_tiles("R1 R2 R3")), before, NAMES) == (
        "Ann ran out of time and draws 3 penalty tiles"
    )
    play = PlayEvent(1, (parse_tiles("K1 K2 K3"),))
    assert public_turn_text(play, before, NAMES) == "Bo plays K1 K2 K3"
    discarding = Game(2, STANDARD.replace(discard=True), seed=1, names=NAMES).state
    assert public_turn_text(DrawEvent(0, r5), discarding, NAMES) == "Ann draws a tile from the pool"
    assert public_turn_text(DrawEvent(0, r5, "discard"), discarding, NAMES) == "Ann takes R5 from the discard pile"
    assert public_turn_text(DiscardEvent(1, r5), discarding, NAMES) == "Bo discards R5"
    assert public_turn_text(PlayEvent(1, (parse_tiles("K1 K2 K3"),), r5), discarding, NAMES) == (
        "Bo plays K1 K2 K3, discards R5"
    )


class Screen:
    def __init__(self, *typed: str) -> None:
        self.typed = list(typed)
        self.out: list[str] = []

    def read(self, prompt: str) -> str:
        self.out.append(prompt)
        if not self.typed:
            raise EOFError
        return self.typed.pop(0)


def _hotseat(game: Game, screen: Screen, tty: bool = False) -> HotSeat:
    return HotSeat(game, NAMES, tty=tty, read=screen.read, write=screen.out.append, banner="the game")


def test_the_pass_screen_then_the_seat_screen_with_what_happened_since():
    game = Game(2, STANDARD, seed=1, names=NAMES)
    screen = Screen("\n", "\n", "\n")
    seats = _hotseat(game, screen)
    player = HumanPlayer(names=NAMES)
    seats.hand_to(0, player)
    assert screen.out == [SEPARATOR, "the game", pass_prompt("Ann"), "\nAnn's turn"]  # nothing before
    seats.hand_to(0, player)  # the same person goes on (an undo): no pass screen
    assert len(screen.out) == 4 and seats.at_terminal == 0
    game.draw()
    seats.hand_to(1, player)
    assert screen.out[4:] == [SEPARATOR, pass_prompt("Bo"), "\nBo's turn", "so far:\n  Ann draws a tile"]
    game.draw()
    seats.hand_to(0, player)
    assert screen.out[-1] == f"since your last turn (you drew {game.events[0].tile}):\n  Bo draws a tile"


def test_the_recap_marks_the_table_changed_since():
    rack = parse_tiles("R10 R11 R12 K5 K6 K7 B1 B2 B3 B4 B5 B6 B7 B8")
    deck = [*rack, *sorted((Counter(STANDARD.full_set()) - Counter(rack)).elements())]
    game = Game(2, STANDARD, deck=deck, names=NAMES)
    game.play(["R10 R11 R12", "K5 K6 K7"])
    screen = Screen("\n")
    _hotseat(game, screen).hand_to(1, HumanPlayer(names=NAMES))
    recap = screen.out[-1]
    assert recap.startswith("so far:\n  Ann plays K5 K6 K7 R10 R11 R12\ntable (* a meld changed since")
    assert "* 1: [R10] [R11] [R12]" in recap and "* 2: [K5] [K6] [K7]" in recap


def test_leaving_from_the_pass_screen_and_at_the_end_of_input():
    game = Game(2, STANDARD, seed=1, names=NAMES)
    with pytest.raises(QuitGame, match="quit"):
        _hotseat(game, Screen("Q\n")).hand_to(0, HumanPlayer())
    with pytest.raises(QuitGame, match="input ended"):
        _hotseat(game, Screen()).hand_to(0, HumanPlayer())


def test_on_a_terminal_the_screen_and_its_scrollback_are_cleared():
    screen = Screen("\n")
    _hotseat(Game(2, STANDARD, seed=1, names=NAMES), screen, tty=True).hand_to(1, HumanPlayer())
    assert screen.out[:3] == [CLEAR_SCREEN, "the game", pass_prompt("Bo")]


def test_the_turn_timer_starts_when_the_next_player_takes_the_seat():
    now = [0.0]
    game = Game(2, STANDARD.replace(turn_timer=30), seed=1, names=NAMES, clock=lambda: now[0])

    class Slow(Screen):
        def read(self, prompt: str) -> str:
            now[0] += 100.0  # a long handover
            return super().read(prompt)

    _hotseat(game, Slow("\n")).hand_to(0, HumanPlayer())
    assert game.time_left() == 30
