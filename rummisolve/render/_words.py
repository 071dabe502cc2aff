"""The words a picture of a result is labelled with: English by default, or a caller's own (the
web app passes the page's language). A template is text with ``{name}`` placeholders, or a plural:
``{"one": ..., "other": ...}``, whose ``one`` form is for a count of exactly 1."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["ENGLISH", "Say", "sayer"]

ENGLISH: Mapping[str, Any] = MappingProxyType(
    {
        "no_move": "No move (proven): draw a tile",
        "unknown": "Unknown: no move found before the time limit (not a proof that there is none)",
        "optimal": "Optimal",
        "feasible": "Best found (not proven best)",
        "title": "{head}: {tiles} played",
        "title_points": "{head}: {tiles} played, worth {points}",
        "tiles": {"one": "{n} tile", "other": "{n} tiles"},
        "points": {"one": "{n} point", "other": "{n} points"},
        "joker_note": " (a joker counts {n})",
        "rack": "Rack",
        "rack_left": "Rack left",
        "rack_none": "{head}: none",
        "rack_value": "{head}: {tiles}, {points}",
        "objective_tiles": "Objective: the most tiles played",
        "objective_value": "Objective: the most points played",
        "legend_played": "tile played from the rack",
        "legend_rearranged": "meld rearranged",
        "legend_kept": "meld kept as it was",
        "colour_black": "black",
        "colour_blue": "blue",
        "colour_orange": "orange",
        "colour_red": "red",
        "colour_green": "green",
        "colour_purple": "purple",
        "colour_white": "white",
        "colour_cyan": "cyan",
    }
)
"""Every label of a result's picture, in English (the keys a caller's words may give)."""

Say = Callable[..., str]


def sayer(words: Mapping[str, Any] | None = None) -> Say:
    """``say(key, **values)``: the template of ``key`` from ``words`` (English where it has none)
    filled in; a plural picks its form by ``values["n"]``."""
    templates = {**ENGLISH, **(words or {})}

    def say(key: str, **values: Any) -> str:
        template = templates[key]
        if isinstance(template, Mapping):
            template = template["one" if values.get("n") == 1 else "other"]
        for name, value in values.items():
            template = template.replace("{" + name + "}", str(value))
        return template

    return say
