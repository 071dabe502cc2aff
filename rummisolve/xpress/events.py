"""Xpress game events: the JSON log a game replays from.

A log is a list of JSON objects. The first is the ``deal``: the rules, the seed, the seat that
starts, and what the seed gave (each seat's dice and what every die shows after the opening roll:
a replay checks them against the seed). Each later one is part of a turn:

- ``{"type": "roll", "player": 0, "dice": ["D3", "D7"], "faces": ["K5", "B10"]}``: the turn's
  roll (at most one a turn, before the play; ``"dice": []`` rolls none) and what the dice show now;
- ``{"type": "play", "player": 0, "table": [["R1", "R2", "R3"], ...], "dice": ["D2", "D5"]}``: the
  whole new table and the player's dice it played; the turn ends;
- ``{"type": "pass", "player": 0}``: no play; the turn ends.

Every event is public: the dice are rolled in the open.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummisolve.errors import JsonInputError, RummisolveError
from rummisolve.jsonio import rules_from_json, rules_to_json, table_from_json, table_to_json, tiles_from_json
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile
from rummisolve.xpress.state import die_name, die_number

__all__ = [
    "DiceDeal",
    "RollEvent",
    "DicePlayEvent",
    "PassEvent",
    "XpressEvent",
    "dice_deal_from_json",
    "xpress_event_from_json",
]


@dataclass(frozen=True)
class DiceDeal:
    """The start of a game: its seed decides the split and every roll (:mod:`rummisolve.xpress.seeding`);
    ``hands`` (die numbers) and ``faces`` (what each die shows, by die number) are what it gave."""

    rules: RuleSet
    seed: int
    first: int
    hands: tuple[tuple[int, ...], ...]
    faces: tuple[Tile, ...]
    names: tuple[str, ...] | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "type": "deal",
            "rules": rules_to_json(self.rules),
            "players": self.players,
            "seed": self.seed,
            "first": self.first,
            "hands": [[die_name(d) for d in hand] for hand in self.hands],
            "faces": [str(t) for t in self.faces],
        }
        if self.names is not None:
            obj["names"] = list(self.names)
        return obj


@dataclass(frozen=True)
class RollEvent:
    """The turn's roll: ``dice`` (names, by die number) and the ``faces`` they show after it, in that order."""

    player: int
    dice: tuple[str, ...]
    faces: tuple[Tile, ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": "roll", "player": self.player, "dice": list(self.dice), "faces": [str(t) for t in self.faces]}


@dataclass(frozen=True)
class DicePlayEvent:
    """A play: the whole new table and the mover's dice it played (``None`` before the engine
    resolves it: the first free dice showing the faces played, in die order)."""

    player: int
    table: tuple[tuple[Tile, ...], ...]
    dice: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {"type": "play", "player": self.player, "table": table_to_json(self.table)}
        if self.dice is not None:
            obj["dice"] = list(self.dice)
        return obj


@dataclass(frozen=True)
class PassEvent:
    """A turn without a play."""

    player: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "pass", "player": self.player}


XpressEvent = RollEvent | DicePlayEvent | PassEvent


def _whole(obj: dict, key: str, path: str, below: int | None = None) -> int:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (below is not None and value >= below):
        bound = f" below {below}" if below is not None else ""
        raise JsonInputError(f"{path}.{key}: expected a whole number from 0{bound}, got {value!r}")
    return value


def _dice(obj: Any, path: str) -> tuple[str, ...]:
    if not isinstance(obj, list) or not all(isinstance(name, str) for name in obj):
        raise JsonInputError(f"{path}: expected an array of die names (D1..D18)")
    try:
        return tuple(die_name(die_number(name)) for name in obj)
    except RummisolveError as err:
        raise type(err)(f"{path}: {err}") from None


def dice_deal_from_json(obj: Any, path: str = "deal") -> DiceDeal:
    """Decode a ``deal`` event (its dice and faces are checked against the seed by the engine)."""
    if not isinstance(obj, dict) or obj.get("type") != "deal":
        raise JsonInputError(f'{path}: expected a deal event (an object with "type": "deal")')
    rules = rules_from_json(obj.get("rules", "xpress"), f"{path}.rules")
    seed = _whole(obj, "seed", path)
    hands = obj.get("hands")
    if not isinstance(hands, list):
        raise JsonInputError(f"{path}.hands: expected an array of each seat's dice")
    players = len(hands)
    first = _whole(obj, "first", path, players)
    dice = tuple(tuple(die_number(n) for n in _dice(hand, f"{path}.hands[{s}]")) for s, hand in enumerate(hands))
    faces = tiles_from_json(obj.get("faces"), f"{path}.faces", rules)
    names = obj.get("names")
    if names is not None and (not isinstance(names, list) or not all(isinstance(n, str) for n in names)):
        raise JsonInputError(f"{path}.names: expected an array of strings")
    return DiceDeal(rules, seed, first, dice, faces, None if names is None else tuple(names))


def xpress_event_from_json(obj: Any, rules: RuleSet, path: str = "event") -> XpressEvent:
    """Decode one event: ``roll``, ``play`` or ``pass``."""
    if not isinstance(obj, dict):
        raise JsonInputError(f"{path}: expected an event object")
    kind = obj.get("type")
    player = _whole(obj, "player", path) if kind in ("roll", "play", "pass") else 0
    if kind == "roll":
        faces = tiles_from_json(obj.get("faces"), f"{path}.faces", rules)
        return RollEvent(player, _dice(obj.get("dice"), f"{path}.dice"), faces)
    if kind == "play":
        table = table_from_json(obj.get("table"), f"{path}.table", rules)
        dice = obj.get("dice")
        return DicePlayEvent(player, table, None if dice is None else _dice(dice, f"{path}.dice"))
    if kind == "pass":
        return PassEvent(player)
    raise JsonInputError(f"{path}.type: expected 'roll', 'play' or 'pass', got {kind!r}")
