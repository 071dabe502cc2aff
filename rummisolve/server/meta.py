"""What the web pages offer, read from the library so that new presets, options, tiles and AI levels
appear by themselves: ``GET /meta`` and ``POST /tiles``."""

from __future__ import annotations

import dataclasses
from typing import Any

from rummisolve import rules as rules_module
from rummisolve.game.players import AI_LEVELS, PLAYER_KINDS
from rummisolve.hints import HINT_LEVELS
from rummisolve.render import COLOUR_MARKS, TILE_COLOURS
from rummisolve.rules import RuleSet
from rummisolve.solution import OBJECTIVES, STATUSES
from rummisolve.tiles import Colour, Tile
from rummisolve.xpress.dice import xpress_dice
from rummisolve.xpress.players import XPRESS_AI_LEVELS

__all__ = ["meta", "tile_set"]

_STATUS_WORDS = {
    "optimal": "The best move, proven best.",
    "feasible": "A good move, not proven best (the time limit cut the proof short, or rarely, under strict joker retrieval, no proof was found).",
    "no_move": "No legal move: draw a tile.",
    "unknown": "No move found (in time, or rarely under strict joker retrieval): this is not a proof that there is none.",
    "error": "Bad input.",
}


OPTION_HELP: dict[str, str] = {
    "colours": "How many tile colours the set has (4 in the box: black, blue, orange, red).",
    "numbers": "The highest number on a tile (13 in the box): tiles go from 1 to this.",
    "copies": "How many copies of each tile the set holds (2 in the box, 3 in the XP edition).",
    "jokers": "How many regular jokers the set holds; a joker stands for any tile of its meld.",
    "double_jokers": "Twist's double jokers (JD): each stands for two tiles at once, side by side in a run or two colours of a group.",
    "colour_change_jokers": "Twist's colour-change jokers (JC): in a run, one number where the run changes colour.",
    "mirror_jokers": "Twist's mirror jokers (JM): the meld reads the same both ways around it, as in R1 R2 JM R2 R1.",
    "rack_size": "How many tiles each player is dealt.",
    "min_meld_length": "The fewest tiles a run or a group may have.",
    "initial_threshold": "The points a player's first melds must be worth, from their own rack only (0: no threshold).",
    "wraparound": "Runs may go round the top: 1 may follow 13 (R12 R13 R1), though not both ways in one run.",
    "open_then_manipulate": "On the turn of the first melds, the player may go on to rearrange the table (by the box rules, only from the next turn).",
    "joker_in_initial_meld": "Whether a joker may be part of a player's first melds.",
    "joker_retrieval": "free: a joker on the table moves like any tile. strict: it is freed only by the tile it stands for from the rack, then played at once with two more rack tiles; else it stays with its meld.",
    "joker_penalty": "What a joker left on a rack costs at the end of a round (and is worth when you shed it).",
    "min_players": "The fewest players the rules seat.",
    "max_players": "The most players the rules seat.",
    "turn_timer": "Seconds a turn may take (empty: no timer); past it the table goes back and the player draws the penalty.",
    "timer_penalty": "Tiles drawn when the turn timer runs out.",
    "empty_pool_scoring": "When the pool is empty and nobody can go out: difference scores each loser the gap to the winner's rack, full the whole rack.",
    "discard": "The discard variant: a turn ends with a discard (draw from the pool or take the top discard first, or play), and a player goes out by discarding their last tile.",
    "dice": "The Xpress dice edition: the tiles are the faces the dice show. Play it against an AI on the play page (preset xpress; not in game rooms yet); on the analysis board, say which die each rack entry is to get the best re-roll.",
}
"""Each rule option in plain words (the pages show it beside the option, and /help lists them all)."""

AFFECTS_POSITION = frozenset(
    {
        "colours",
        "numbers",
        "copies",
        "jokers",
        "double_jokers",
        "colour_change_jokers",
        "mirror_jokers",
        "min_meld_length",
        "initial_threshold",
        "wraparound",
        "open_then_manipulate",
        "joker_in_initial_meld",
        "joker_retrieval",
        "joker_penalty",
        "discard",
    }
)
"""The options that change which moves a position has, or what they are worth: the analysis
board shows only these (the rest are about dealing, seating, timing and scoring a game)."""


def _option(field: dataclasses.Field, default: Any) -> dict[str, Any]:
    """One rule option: its name, kind (integer, boolean, choice, seconds), range or choices,
    default, one line of help, and whether it affects a position."""
    name = field.name
    out: dict[str, Any] = {
        "name": name,
        "default": default,
        "help": OPTION_HELP[name],
        "affects_position": name in AFFECTS_POSITION,
    }
    bounds = rules_module.INTEGER_OPTION_BOUNDS.get(name)
    choices = {
        "joker_retrieval": rules_module.JOKER_RETRIEVAL_MODES,
        "empty_pool_scoring": rules_module.EMPTY_POOL_SCORING_MODES,
    }.get(name)
    if bounds is not None:
        out.update(kind="integer", min=bounds[0], max=bounds[1])
    elif choices is not None:
        out.update(kind="choice", choices=list(choices))
    elif isinstance(default, bool):
        out["kind"] = "boolean"
    elif name == "turn_timer":
        out.update(kind="seconds", min=0, max=rules_module.MAX_TURN_TIMER, optional=True)
    else:
        out["kind"] = "number"
    return out


def _colour(colour: Colour) -> dict[str, Any]:
    return {
        "letter": colour.letter,
        "name": colour.name.lower(),
        "ink": TILE_COLOURS[colour],
        "mark": COLOUR_MARKS[colour],
    }


def meta() -> dict[str, Any]:
    """Presets (with every option's value), the rule options, colours, objectives, statuses in words,
    the player kinds and AI levels (``xpress_ai_levels``: the dice game's), the hint levels, and
    ``dice_faces``: the Xpress dice D1..D18 and their six faces."""
    defaults = RuleSet().to_dict()
    return {
        "presets": {name: preset.to_dict() for name, preset in rules_module.PRESETS.items()},
        "options": [_option(f, defaults[f.name]) for f in dataclasses.fields(RuleSet)],
        "colours": [_colour(c) for c in Colour],
        "joker_ink": TILE_COLOURS[None],
        "objectives": list(OBJECTIVES),
        "statuses": {s: _STATUS_WORDS.get(s, s) for s in (*STATUSES, "error")},
        "ai_levels": list(AI_LEVELS),
        "xpress_ai_levels": list(XPRESS_AI_LEVELS),
        "dice_faces": {die.name: [str(f) for f in die.faces] for die in xpress_dice()},
        "player_kinds": list(PLAYER_KINDS),
        "hint_levels": list(HINT_LEVELS),
    }


def tile_set(rules: RuleSet) -> dict[str, Any]:
    """Every tile of ``rules`` once, in canonical order, with its copies in the set."""
    counts: dict[Tile, int] = {}
    for tile in rules.full_set():
        counts[tile] = counts.get(tile, 0) + 1
    return {
        "total": rules.total_tiles,
        "tiles": [
            {
                "code": str(tile),
                "copies": copies,
                "colour": None if tile.colour is None else tile.colour.letter,
                "number": tile.number,
                "joker": tile.is_joker,
            }
            for tile, copies in counts.items()
        ],
    }
