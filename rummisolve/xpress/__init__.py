"""The Xpress dice edition (RULES 5.3): the dice and the best re-roll."""

from rummisolve.xpress.dice import DiceError, Die, FreeDie, custom_die, die_named, die_names, xpress_dice
from rummisolve.xpress.reroll import Expectation, RerollAdvice, RerollOption, best_reroll

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
]
