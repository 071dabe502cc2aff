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
from rummisolve.server import languages
from rummisolve.solution import OBJECTIVES, STATUSES
from rummisolve.tiles import Colour, Tile
from rummisolve.xpress.dice import xpress_dice
from rummisolve.xpress.players import XPRESS_AI_LEVELS

__all__ = ["meta", "tile_set"]

_STATUS_WORDS = {s: languages.text("en", f"status.{s}.words") for s in (*STATUSES, "error")}
"""Each status in words (English; the pages show them in their language from the catalogs)."""

OPTION_HELP: dict[str, str] = {f.name: languages.text("en", f"opthelp.{f.name}") for f in dataclasses.fields(RuleSet)}
"""Each rule option in plain words, from the English catalog (the pages show it beside the option in
their language, and /help lists them all)."""

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
