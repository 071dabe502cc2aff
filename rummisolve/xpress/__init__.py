"""The Xpress dice edition (RULES 5.3): the dice, the best re-roll, the game, its players and matches."""

from rummisolve.xpress.actions import Pass, Roll, XpressAction, XpressPlayer
from rummisolve.xpress.dice import DiceError, Die, FreeDie, custom_die, die_named, die_names, xpress_dice
from rummisolve.xpress.events import DiceDeal, DicePlayEvent, PassEvent, RollEvent, XpressEvent
from rummisolve.xpress.game import XPRESS_SAVE_FORMAT, XpressGame
from rummisolve.xpress.kind import XPRESS_GAME, XpressKind, play_xpress_match
from rummisolve.xpress.players import XPRESS_AI_LEVELS, make_xpress_player
from rummisolve.xpress.reroll import Expectation, RerollAdvice, RerollOption, best_reroll
from rummisolve.xpress.runner import XpressRecord, XpressTurn, play_xpress_game, play_xpress_turn
from rummisolve.xpress.state import XpressState, XpressView

__all__ = [
    "Die",
    "FreeDie",
    "DiceError",
    "xpress_dice",
    "die_names",
    "die_named",
    "custom_die",
    "best_reroll",
    "RerollAdvice",
    "RerollOption",
    "Expectation",
    "XpressGame",
    "XPRESS_GAME",
    "XpressKind",
    "XpressState",
    "XpressView",
    "XPRESS_SAVE_FORMAT",
    "DiceDeal",
    "RollEvent",
    "DicePlayEvent",
    "PassEvent",
    "XpressEvent",
    "Roll",
    "Pass",
    "XpressAction",
    "XpressPlayer",
    "XPRESS_AI_LEVELS",
    "make_xpress_player",
    "play_xpress_game",
    "play_xpress_match",
    "play_xpress_turn",
    "XpressTurn",
    "XpressRecord",
]
