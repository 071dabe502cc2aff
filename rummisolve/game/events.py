"""Game events: the JSON log from which a round replays exactly.

A log is a list of JSON objects. The first is a ``deal`` (rules, players, the shuffled deck and
the seat that starts); each later one is one turn:

- ``{"type": "play", "player": 1, "table": [["R1","R2","R3"], ...]}``: the new table;
- ``{"type": "draw", "player": 0, "tile": "K5"}``: a draw (``"tile": null`` when the pool is empty);
- ``{"type": "timeout", "player": 0, "tiles": ["B2", "O9", "J"]}``: the turn timer ran out.

Under the discard rule a turn is one or two events: optionally a draw, which does not end the
turn (``"source": "discard"`` when it took the discard pile's top; without ``source`` it is from
the pool), then a play carrying the tile discarded (``{"type": "play", ..., "discard": "R5"}``)
or ``{"type": "discard", "player": 0, "tile": "R5"}`` (no play), or a timeout.

The public version of an event (what other players see) hides tiles drawn from the pool; a tile
taken from the discard pile and every discard are public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, overload

from rummisolve.errors import JsonInputError, RummisolveError
from rummisolve.jsonio import rules_from_json, rules_to_json, table_from_json, table_to_json, tiles_from_json
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile

__all__ = [
    "Deal",
    "PlayEvent",
    "DrawEvent",
    "DiscardEvent",
    "TimeoutEvent",
    "Event",
    "event_from_json",
    "public_event",
]


@dataclass(frozen=True)
class Deal:
    """The start of a round: the deck in draw order (racks are dealt from its front, in seat order)."""

    rules: RuleSet
    players: int
    deck: tuple[Tile, ...]
    first: int = 0
    seed: int | None = None
    names: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "type": "deal",
            "rules": rules_to_json(self.rules),
            "players": self.players,
            "first": self.first,
            "seed": self.seed,
            "deck": [str(t) for t in self.deck],
        }
        if self.names is not None:
            obj["names"] = list(self.names)
        return obj


@dataclass(frozen=True)
class PlayEvent:
    """A play: the whole new table, and under the discard rule the tile discarded after it."""

    player: int
    table: tuple[tuple[Tile, ...], ...]
    discard: Tile | None = None

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {"type": "play", "player": self.player, "table": table_to_json(self.table)}
        if self.discard is not None:
            obj["discard"] = str(self.discard)
        return obj


@dataclass(frozen=True)
class DrawEvent:
    """A draw from the pool (``tile`` ``None``: the pool was empty, a pass) or, under the discard
    rule, from the discard pile (``source`` ``"discard"``)."""

    player: int
    tile: Tile | None
    source: str = "pool"

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "type": "draw",
            "player": self.player,
            "tile": None if self.tile is None else str(self.tile),
        }
        if self.source != "pool":
            obj["source"] = self.source
        return obj


@dataclass(frozen=True)
class DiscardEvent:
    """The discard rule: the end of a turn without a play, ``tile`` put on the discard pile."""

    player: int
    tile: Tile

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard", "player": self.player, "tile": str(self.tile)}


@dataclass(frozen=True)
class TimeoutEvent:
    player: int
    tiles: tuple[Tile, ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": "timeout", "player": self.player, "tiles": [str(t) for t in self.tiles]}


Event = PlayEvent | DrawEvent | DiscardEvent | TimeoutEvent


def public_event(event: Event) -> dict[str, Any]:
    """The event as every player may see it (tiles drawn from the pool hidden, their number kept)."""
    obj = event.to_json()
    if isinstance(event, DrawEvent):
        if event.source == "pool":
            obj["tile"] = None
        obj["drew"] = 0 if event.tile is None else 1
    elif isinstance(event, TimeoutEvent):
        obj["tiles"] = None
        obj["drew"] = len(event.tiles)
    return obj


def _player(obj: dict, path: str) -> int:
    player = obj.get("player")
    if isinstance(player, bool) or not isinstance(player, int) or player < 0:
        raise JsonInputError(f"{path}.player: expected a seat number, got {player!r}")
    return player


def deal_from_json(obj: Any, path: str = "deal") -> Deal:
    """Decode a ``deal`` event."""
    if not isinstance(obj, dict) or obj.get("type") != "deal":
        raise JsonInputError(f'{path}: expected a deal event (an object with "type": "deal")')
    rules = rules_from_json(obj.get("rules", "standard"), f"{path}.rules")
    players = obj.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise JsonInputError(f"{path}.players: expected a number of players, got {players!r}")
    first = obj.get("first", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise JsonInputError(f"{path}.first: expected a seat number below {players}, got {first!r}")
    deck = tiles_from_json(obj.get("deck"), f"{path}.deck", rules)
    seed = obj.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise JsonInputError(f"{path}.seed: expected a whole number or null, got {seed!r}")
    names = obj.get("names")
    if names is not None and (not isinstance(names, list) or not all(isinstance(n, str) for n in names)):
        raise JsonInputError(f"{path}.names: expected an array of strings")
    return Deal(rules, players, deck, first, seed, None if names is None else tuple(names))


@overload
def _tile(obj: dict, key: str, path: str, rules: RuleSet, required: Literal[True]) -> Tile: ...
@overload
def _tile(obj: dict, key: str, path: str, rules: RuleSet, required: bool) -> Tile | None: ...
def _tile(obj: dict, key: str, path: str, rules: RuleSet, required: bool) -> Tile | None:
    tile = obj.get(key)
    if tile is None and not required:
        return None
    if not isinstance(tile, str):
        raise JsonInputError(f"{path}.{key}: expected a tile code{'' if required else ' or null'}")
    return rules.check_tile(Tile.parse(tile))


def event_from_json(obj: Any, rules: RuleSet, path: str = "event") -> Event:
    """Decode one turn event (``play``, ``draw``, ``discard`` or ``timeout``)."""
    if not isinstance(obj, dict):
        raise JsonInputError(f"{path}: expected an event object")
    kind = obj.get("type")
    try:
        if kind == "play":
            table = table_from_json(obj.get("table"), f"{path}.table", rules)
            return PlayEvent(_player(obj, path), table, _tile(obj, "discard", path, rules, False))
        if kind == "draw":
            source = obj.get("source", "pool")
            if source not in ("pool", "discard"):
                raise JsonInputError(f"{path}.source: expected 'pool' or 'discard', got {source!r}")
            return DrawEvent(_player(obj, path), _tile(obj, "tile", path, rules, False), source)
        if kind == "discard":
            return DiscardEvent(_player(obj, path), _tile(obj, "tile", path, rules, True))
        if kind == "timeout":
            return TimeoutEvent(_player(obj, path), tiles_from_json(obj.get("tiles", []), f"{path}.tiles", rules))
    except RummisolveError as err:
        if str(err).startswith(path):
            raise
        raise type(err)(f"{path}: {err}") from None
    raise JsonInputError(f"{path}.type: expected 'play', 'draw', 'discard' or 'timeout', got {kind!r}")
