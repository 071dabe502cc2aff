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

__all__ = ["meta", "tile_set"]

_STATUS_WORDS = {
    "optimal": "The best move, proven best.",
    "feasible": "A good move; the time limit cut the proof that it is the best short.",
    "no_move": "No legal move: draw a tile.",
    "unknown": "No move found in time (this is not a proof that there is none).",
    "error": "Bad input.",
}


def _option(field: dataclasses.Field, default: Any) -> dict[str, Any]:
    """One rule option: its name, kind (integer, boolean, choice, seconds), range or choices, default, help."""
    name = field.name
    out: dict[str, Any] = {"name": name, "default": default}
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
    the player kinds and AI levels, and the hint levels."""
    defaults = RuleSet().to_dict()
    return {
        "presets": {name: preset.to_dict() for name, preset in rules_module.PRESETS.items()},
        "options": [_option(f, defaults[f.name]) for f in dataclasses.fields(RuleSet)],
        "colours": [_colour(c) for c in Colour],
        "joker_ink": TILE_COLOURS[None],
        "objectives": list(OBJECTIVES),
        "statuses": {s: _STATUS_WORDS.get(s, s) for s in (*STATUSES, "error")},
        "ai_levels": list(AI_LEVELS),
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
