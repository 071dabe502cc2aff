"""What the Xpress game tests share: an independent dice-conservation check and seeds with a play."""

from __future__ import annotations

from collections import Counter

from rummisolve import verify
from rummisolve.xpress import XpressGame, die_named, die_names
from rummisolve.xpress.events import DicePlayEvent


def assert_dice_conserved(game: XpressGame) -> None:
    """Every die on exactly one place (a seat's free dice or the table), each table tile the face
    its die can show, and each die's face unchanged from the state before unless it was rolled free."""
    names = Counter(n for view_hand in game.view().hands for n in view_hand)
    view = game.view()
    names.update(n for meld in view.table_dice for n in meld)
    assert names == Counter(die_names()), names
    for meld, dice in zip(view.table, view.table_dice, strict=True):
        for tile, name in zip(meld.tiles, dice, strict=True):
            assert tile in die_named(name).faces
    states = game.states
    for before, after, event in zip(states, states[1:], game.events, strict=False):
        rolled = set(getattr(event, "dice", ())) if type(event).__name__ == "RollEvent" else set()
        for d in range(18):
            name = f"D{d + 1}"
            if before.holder(d) is None:  # on the table: stays, same face
                assert after.holder(d) is None and after.faces[d] == before.faces[d], name
            elif name not in rolled:
                assert after.faces[d] == before.faces[d], name


def assert_plays_legal(game: XpressGame) -> None:
    """Each play of the log is legal for the referee on the position before it and puts down exactly
    the dice that left the mover's hand, at least one."""
    states = game.states
    for before, after, event in zip(states, states[1:], game.events, strict=False):
        if isinstance(event, DicePlayEvent):
            verdict = verify(before.position(), event.table)
            assert verdict.legal, verdict
            gone = [d for d in before.hands[event.player] if d not in after.hands[event.player]]
            assert gone and sorted(f"D{d + 1}" for d in gone) == sorted(event.dice or ())
            assert Counter(verdict.played) == Counter(before.shown(d) for d in gone)


def snapshot(game: XpressGame) -> tuple:
    """What must not change when an action is refused."""
    return (game.state, game.states, game.events, game.log(), game.can_redo, game.view())


def seed_with_play(start: int = 0) -> tuple[int, object]:
    """A seed whose first mover can play as the dice lie, and the solver's play."""
    from rummisolve import solve

    for seed in range(start, start + 500):
        game = XpressGame(seed)
        solution = solve(game.view().position)
        if solution:
            return seed, solution
    raise AssertionError("no seed with a play")
