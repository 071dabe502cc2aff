"""The Xpress AI players (docs/rules.md#xpress, "The AI players"), built on the tile game's AIs for the play.

- ``easy`` rolls every free die that is not in a set it can make of its own dice, then plays new
  sets of its own dice only (the tile game's easy AI: it never touches the table);
- ``medium`` rolls the free dice its best play (the solver's, most dice) leaves, then makes the
  solver's best play (the tile game's medium AI);
- ``hard`` rolls the subset :func:`~rummisolve.xpress.best_reroll` ranks first (most dice played
  expected), keeping all when it can already go out, then plays to go out: the most dice, on a tie
  the most points (the value-best play when it plays as many dice as the tiles-best one).

Every one answers through the :class:`~rummisolve.xpress.actions.XpressPlayer` interface, and its
plays go through the engine's referee like anyone's.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummisolve.errors import UnknownPlayerError
from rummisolve.game.actions import Draw, Play
from rummisolve.game.ai.easy import EasyPlayer, own_melds
from rummisolve.game.ai.medium import MediumPlayer
from rummisolve.tiles import Tile
from rummisolve.xpress.actions import Pass, Roll, XpressAction, XpressPlayer
from rummisolve.xpress.reroll import DEFAULT_MAX_SOLVES
from rummisolve.xpress.state import XpressView

__all__ = [
    "XPRESS_AI_LEVELS",
    "EasyDicePlayer",
    "MediumDicePlayer",
    "HardDicePlayer",
    "make_xpress_player",
    "dice_showing",
    "roll_all_but",
]

XPRESS_AI_LEVELS = ("easy", "medium", "hard")
"""The Xpress AI players, weakest first (no expert: docs/rules.md#xpress says why)."""


def dice_showing(view: XpressView, tiles: Sequence[Tile]) -> tuple[int, ...]:
    """Indices into ``view.dice`` of free dice showing ``tiles`` (a sub-multiset of the rack): the
    first die showing each, as the engine picks the dice of a play."""
    left = list(range(len(view.rack)))
    chosen = []
    for tile in tiles:
        index = next(i for i in left if view.rack[i] == tile)
        left.remove(index)
        chosen.append(index)
    return tuple(sorted(chosen))


def roll_all_but(view: XpressView, kept: Sequence[Tile]) -> Roll:
    """Roll every free die except some showing ``kept``."""
    keep = set(dice_showing(view, kept))
    return Roll(view.names_of([i for i in range(len(view.dice)) if i not in keep]))


def _as_dice_action(action: object) -> XpressAction:
    """A tile-game AI's answer as a dice-game one: its draw (it has nothing to play) is a pass."""
    if isinstance(action, Draw):
        return Pass()
    assert isinstance(action, Play)  # the tile game's AIs play or draw under these rules
    return action


class EasyDicePlayer:
    """Keeps the dice of the sets it can make alone, rolls the rest, plays those sets only."""

    name = "easy"

    def choose(self, view: XpressView) -> XpressAction:
        if not view.rolled:
            solution = own_melds(view)
            return roll_all_but(view, solution.played if solution is not None else ())
        return _as_dice_action(EasyPlayer().choose(view))


class MediumDicePlayer:
    """Rolls the dice its best play leaves, then makes the solver's best play (most dice)."""

    name = "medium"

    def choose(self, view: XpressView) -> XpressAction:
        from rummisolve.solver import solve

        if not view.rolled:
            return roll_all_but(view, solve(view.position).played)
        return _as_dice_action(MediumPlayer().choose(view))


class HardDicePlayer:
    """Rolls by the best re-roll, then plays the most dice (ties: the most points)."""

    name = "hard"

    def __init__(self, seed: int | None = None, max_solves: int = DEFAULT_MAX_SOLVES) -> None:
        self.seed = seed or 0
        self.max_solves = max_solves

    def choose(self, view: XpressView) -> XpressAction:
        from rummisolve.solver import solve
        from rummisolve.xpress.reroll import best_reroll

        if not view.rolled:
            if len(solve(view.position).played) == len(view.rack):
                return Roll()  # it goes out as the dice lie
            seed = (self.seed * 1009 + view.turn) % 2**31
            advice = best_reroll(view.position, view.free_dice, "tiles", max_solves=self.max_solves, seed=seed)
            return Roll(view.names_of(advice.best.dice))
        most = solve(view.position, objective="tiles")
        if not most:
            return Pass()
        richest = solve(view.position, objective="value")
        best = richest if len(richest.played) == len(most.played) and richest.value > most.value else most
        return Play(tuple(best.table))


def make_xpress_player(kind: str, seed: int | None = None, think: float | None = None) -> XpressPlayer:
    """An Xpress AI: ``easy``, ``medium`` or ``hard`` (``seed`` fixes the hard AI's sampling;
    ``think`` is accepted for the tile game's signature and unused)."""
    key = kind.strip().lower() if isinstance(kind, str) else kind
    if key == "easy":
        return EasyDicePlayer()
    if key == "medium":
        return MediumDicePlayer()
    if key == "hard":
        return HardDicePlayer(seed=seed)
    raise UnknownPlayerError(f"unknown Xpress player {kind!r} (known: {', '.join(XPRESS_AI_LEVELS)})")
