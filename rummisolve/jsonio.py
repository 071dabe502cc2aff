"""The codec of the JSON contract (docs/json-contract.md): JSON to core types and back.

Every decoding error is a :class:`~rummisolve.errors.RummisolveError` whose message starts with
the path of the offending part, e.g. ``position.table[1][2]: unknown tile code 'X5'``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rummisolve.errors import InvalidMeldError, JsonInputError, RuleSetError, RummisolveError, TileNotationError
from rummisolve.json_documents import OverlongLine, read_documents, stream_documents
from rummisolve.melds import Meld, StandsFor
from rummisolve.position import Position
from rummisolve.referee import Verdict, verify
from rummisolve.rules import RuleSet
from rummisolve.solution import ALTERNATIVES_MODES, OBJECTIVES, STATUSES, AlternativesMode, Objective, Solution, Status
from rummisolve.tiles import Tile, format_tiles

__all__ = [
    "json_type_name",
    "with_path",
    "rules_from_json",
    "rules_to_json",
    "tiles_from_json",
    "table_from_json",
    "melds_from_json",
    "kept_from_json",
    "table_to_json",
    "position_from_json",
    "position_to_json",
    "objective_from_json",
    "hint_to_json",
    "alternatives_from_json",
    "alternatives_mode_from_json",
    "MAX_ALTERNATIVES",
    "read_documents",
    "stream_documents",
    "OverlongLine",
    "solution_to_json",
    "solution_from_json",
    "joker_to_json",
    "verdict_to_json",
    "explanation_to_json",
    "error_message",
]

_POSITION_KEYS = {"rules", "table", "rack", "opened", "objective", "time_limit"}
SOLVE_REQUEST_KEYS = (
    "id",
    "explain",
    "alternatives",
    "alternatives_mode",
    "hint",
    "dice",
    "reroll",
    "reroll_max_solves",
    "reroll_time_limit",
)
"""The fields a solve request may carry beside its position's (:func:`rummisolve.service.solve_json`)."""


def json_type_name(value: Any) -> str:
    """The JSON name of a decoded value's type (``object``, ``array``, ``string``, ...), for messages."""
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "number" if isinstance(value, int | float) else type(value).__name__
    )


def with_path(path: str, err: RummisolveError) -> RummisolveError:
    """The same kind of error with ``path`` in front of its message."""
    if isinstance(err, InvalidMeldError):
        return InvalidMeldError(f"{path}: {err}", err.reason, err.tiles)
    return type(err)(f"{path}: {err}")


def rules_from_json(obj: Any, path: str = "rules") -> RuleSet:
    """``"standard"``, ``"xp"``, ``"twist"``, or an object of RuleSet options (``"preset"`` picks the base)."""
    try:
        if obj is None:
            return RuleSet()
        if isinstance(obj, str):
            return RuleSet.preset(obj)
        if isinstance(obj, dict):
            return RuleSet.from_dict(obj)
    except (RummisolveError, TypeError) as err:
        raise with_path(path, err if isinstance(err, RummisolveError) else JsonInputError(str(err))) from None
    raise JsonInputError(f"{path}: expected a preset name or an object of options, got {json_type_name(obj)}")


def rules_to_json(rules: RuleSet) -> str | dict[str, Any]:
    """A preset's name, or the options that differ from the standard rules."""
    encoded = _rules_to_json(rules)
    return encoded if isinstance(encoded, str) else dict(encoded)


@functools.lru_cache(maxsize=64)
def _rules_to_json(rules: RuleSet) -> str | tuple[tuple[str, Any], ...]:
    # Cached: every result carries its rules, and comparing against the presets is most of the cost.
    if rules.name is not None:
        return rules.name
    default = RuleSet().to_dict()
    return tuple((k, v) for k, v in rules.to_dict().items() if v != default[k])


def tiles_from_json(
    obj: Any, path: str, rules: RuleSet | None = None, *, words: RuleSet | None = None
) -> tuple[Tile, ...]:
    """An array of tile codes; with ``rules``, each tile must exist under them. A code that is no tile
    at all is named in the words of ``rules`` (else of ``words``): the colours they have."""
    if not isinstance(obj, list):
        raise JsonInputError(f"{path}: expected an array of tile codes, got {json_type_name(obj)}")
    known = rules.tiles_by_code if rules is not None else {}
    tiles = []
    for i, code in enumerate(obj):
        tile = known.get(code) if type(code) is str else None
        # None: not a canonical code of a tile these rules have
        tiles.append(tile if tile is not None else _tile_from_json(code, f"{path}[{i}]", rules, rules or words))
    return tuple(tiles)


def _tile_from_json(code: Any, path: str, rules: RuleSet | None, words: RuleSet | None) -> Tile:
    if not isinstance(code, str):
        raise JsonInputError(f"{path}: expected a tile code string, got {json_type_name(code)}")
    try:
        tile = Tile.parse(code)
    except TileNotationError as err:
        if words is None:
            raise with_path(path, err) from None
        # say what these rules have, not every colour there is
        raise with_path(path, TileNotationError(f"unknown tile code {code!r}: {words.unknown_code(code)}")) from None
    try:
        if rules is not None:
            rules.check_tile(tile)
    except RummisolveError as err:
        raise with_path(path, err) from None
    return tile


def table_from_json(
    obj: Any, path: str = "table", rules: RuleSet | None = None, *, words: RuleSet | None = None
) -> tuple[tuple[Tile, ...], ...]:
    """An array of melds, each an array of tile codes (not yet checked to be valid melds)."""
    if not isinstance(obj, list):
        raise JsonInputError(f"{path}: expected an array of melds, got {json_type_name(obj)}")
    return tuple(tiles_from_json(meld, f"{path}[{i}]", rules, words=words) for i, meld in enumerate(obj))


def melds_from_json(obj: Any, path: str, rules: RuleSet) -> tuple[Meld, ...]:
    """An array of melds, each an array of tile codes that must be a valid meld under ``rules``."""
    return _melds_of(table_from_json(obj, path, rules), path, rules)


def _melds_of(table: tuple[tuple[Tile, ...], ...], path: str, rules: RuleSet) -> tuple[Meld, ...]:
    melds = []
    for i, tiles in enumerate(table):
        try:
            melds.append(Meld.of(tiles, rules))
        except InvalidMeldError as err:
            raise with_path(f"{path}[{i}]", err) from None
    return tuple(melds)


def kept_from_json(
    obj: Any, melds: Sequence[Meld], old_table: Sequence[Meld] | None, path: str = "kept", table_path: str = "table"
) -> tuple[int, ...]:
    """A result's ``kept`` (old indices of the melds kept unchanged, listed first on its table
    ``melds``, read from ``table_path``), checked against the old table when it is known."""
    if (
        not isinstance(obj, list)
        or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in obj)
        or len(set(obj)) != len(obj)
        or len(obj) > len(melds)
    ):
        raise JsonInputError(f"{path}: expected a list of at most {len(melds)} distinct meld indices, got {obj!r}")
    for i, old in enumerate(obj if old_table is not None else ()):
        assert old_table is not None
        if old >= len(old_table):
            raise JsonInputError(f"{path}[{i}]: the position's table has no meld {old}")
        if not melds[i].same_tiles(old_table[old]):
            raise JsonInputError(
                f"{path}[{i}]: {table_path}[{i}] ({melds[i]}) is not the position's meld {old} ({old_table[old]})"
            )
    return tuple(obj)


def table_to_json(table: Iterable[Meld | Iterable[Tile]]) -> list[list[str]]:
    return [[str(t) for t in meld] for meld in table]


def position_from_json(obj: Any, path: str = "position") -> Position:
    """Decode a position object of the JSON contract; errors name the bad part."""
    if not isinstance(obj, dict):
        raise JsonInputError(f"{path}: expected an object, got {json_type_name(obj)}")
    unknown = sorted(set(obj) - _POSITION_KEYS)
    if unknown:
        known = ", ".join(sorted(_POSITION_KEYS))
        raise JsonInputError(
            f"{path}: unknown field(s) {', '.join(map(repr, unknown))} (a position has {known}; "
            f"a solve also takes {', '.join(SOLVE_REQUEST_KEYS)})"
        )
    rules = rules_from_json(obj.get("rules", "standard"), f"{path}.rules")
    table = table_from_json(obj.get("table", []), f"{path}.table", rules)
    rack = tiles_from_json(obj.get("rack", []), f"{path}.rack", rules)
    opened = obj.get("opened", True)
    if not isinstance(opened, bool):
        raise JsonInputError(f"{path}.opened: expected true or false, got {json_type_name(opened)}")
    melds = _melds_of(table, f"{path}.table", rules)
    try:
        return Position(melds, rack, opened, rules)
    except RummisolveError as err:
        raise with_path(path, err) from None


def position_to_json(position: Position) -> dict[str, Any]:
    """Encode a position; ``position_from_json(position_to_json(p)) == p``."""
    return {
        "rules": rules_to_json(position.rules),
        "table": table_to_json(position.table),
        "rack": [str(t) for t in position.rack],
        "opened": position.opened,
    }


def objective_from_json(obj: Any, path: str = "objective") -> Objective:
    """``"tiles"`` (the default, for ``null``) or ``"value"``."""
    if obj is None:
        return Objective.TILES
    if not isinstance(obj, str) or obj not in OBJECTIVES:
        raise JsonInputError(f"{path}: expected one of {', '.join(map(repr, OBJECTIVES))}, got {obj!r}")
    return Objective(obj)


MAX_ALTERNATIVES = 10
"""The most alternatives one JSON request may ask for."""


def alternatives_from_json(obj: Any, path: str = "alternatives") -> int:
    """How many alternatives a request asks for: a whole number from 0 to :data:`MAX_ALTERNATIVES`."""
    if isinstance(obj, bool) or not isinstance(obj, int) or not 0 <= obj <= MAX_ALTERNATIVES:
        raise JsonInputError(f"{path}: expected a whole number from 0 to {MAX_ALTERNATIVES}, got {obj!r}")
    return obj


def alternatives_mode_from_json(obj: Any, path: str = "alternatives_mode") -> AlternativesMode:
    """What an alternative is: ``"not_contained"`` (the default, for ``null``) or ``"distinct"``."""
    if obj is None:
        return AlternativesMode.NOT_CONTAINED
    if not isinstance(obj, str) or obj not in ALTERNATIVES_MODES:
        raise JsonInputError(f"{path}: expected one of {', '.join(map(repr, ALTERNATIVES_MODES))}, got {obj!r}")
    return AlternativesMode(obj)


def joker_to_json(meld: Meld, index: int, slot: int) -> dict[str, Any]:
    """The joker assignment entry for the joker in ``slot`` of ``meld`` (the table's meld ``index``).

    ``J``: ``{"meld", "slot", "stands_for": "R5"}``. A special joker adds ``"joker"`` with its code
    and ``stands_for`` is, for ``JD``, its two tiles (``["R3", "R4"]``), for ``JC`` its slot's
    number (``4``), for ``JM`` ``null``."""
    joker = meld.tiles[slot]
    stands = meld.stands_for[slot]
    if joker.is_joker:
        return {"meld": index, "slot": slot, "stands_for": str(stands)}
    if isinstance(stands, tuple):
        encoded: Any = [str(t) for t in stands]
    else:
        encoded = stands  # JC: an int; JM: None
    return {"meld": index, "slot": slot, "joker": str(joker), "stands_for": encoded}


def solution_to_json(solution: Solution, *, timings: bool = True, position: bool = False) -> dict[str, Any]:
    """The result object of the JSON contract, with extra fields (``kept``, ``jokers``,
    ``rack_after``, ``rules``, ``initial_meld_value`` for a player who has not opened (see
    :attr:`~rummisolve.solution.Solution.initial_meld_value`), and ``timings`` unless ``timings`` is false). ``rules`` are the
    position's, so that a result alone decodes (and renders) under the rules it was solved under;
    ``rack_after`` is the rack less the tiles played, sorted. With ``position``, also the
    ``position`` solved (:func:`position_to_json`), so that the result alone decodes back into the
    solution: ``solution_from_json(solution_to_json(s, position=True)) == s``. The
    ``alternatives`` are not encoded (:func:`rummisolve.service.solve_json` adds them)."""
    result = {
        "status": str(solution.status),
        "played": [str(t) for t in solution.played],
        "table": [[str(t) for t in meld.tiles] for meld in solution.table],
        "value": solution.value,
        "tiles_played": len(solution.played),
        "objective": str(solution.objective),
        "proven": solution.proven,
        "kept": list(solution.kept),
        "jokers": [joker_to_json(solution.table[i], i, slot) for i, slot, _ in solution.jokers],
        "rack_after": [str(t) for t in solution.rack_after],
        "rules": rules_to_json(solution.position.rules),
    }
    if solution.initial_meld_value is not None:
        result["initial_meld_value"] = solution.initial_meld_value
    if position:
        result["position"] = position_to_json(solution.position)
    if timings:
        result["timings"] = {name: round(seconds, 6) for name, seconds in solution.timings.items()}
    return result


_RESULT_FIELDS = ("status", "played", "table", "value", "objective", "kept")
"""The fields a result must have to decode; ``jokers``, ``timings`` and the rest are optional."""


def solution_from_json(obj: Any, position: Position | None = None, *, path: str = "") -> Solution:
    """Decode a result object (:func:`solution_to_json`'s, or a move of
    :func:`rummisolve.service.solve_json`'s) into its :class:`Solution`; errors name the bad field.

    A result does not carry the old table: the position solved is ``position``, else the result's
    ``position`` field (``solution_to_json(s, position=True)`` writes it), else an error. So
    ``solution_from_json(solution_to_json(s, position=True)) == s`` and
    ``solution_from_json(solution_to_json(s), s.position) == s``, every field alike, each meld read
    as its ``jokers`` entries say (:meth:`~rummisolve.melds.Meld.with_stands_for`; inferred for a
    result without ``jokers``). ``timings`` are as written (to the microsecond; ``{}`` without
    them) and ``alternatives`` are decoded when present. The result is checked: its ``rules``
    the position's, its move legal (the referee) and playing ``played``, ``kept`` melds as they
    were, ``value`` the points ``played`` sheds, ``tiles_played``, ``proven`` and ``rack_after``
    (if present) as they follow. Other fields (``id``, ``meld_map``, ``steps``, ...) are ignored.
    ``path`` goes in front of each field's name in messages."""
    at = functools.partial(_field_path, path)
    if not isinstance(obj, dict):
        raise JsonInputError(f"{path or 'result'}: expected a result object, got {json_type_name(obj)}")
    status = obj.get("status")
    if status == "error":
        raise JsonInputError(f"{at('status')}: an error result holds no solution ({obj.get('error', 'no message')})")
    if status not in STATUSES:
        raise JsonInputError(f"{at('status')}: expected one of {', '.join(map(repr, STATUSES))}, got {status!r}")
    missing = [name for name in _RESULT_FIELDS if name not in obj]
    if missing:
        raise JsonInputError(f"{path or 'result'}: missing field(s) {', '.join(map(repr, missing))}")
    position = _result_position(obj, position, at)
    rules = position.rules
    melds = melds_from_json(obj["table"], at("table"), rules)
    if "jokers" in obj:
        melds = _read_jokers(obj["jokers"], melds, at, rules)
    played = tuple(sorted(tiles_from_json(obj["played"], at("played"), rules)))
    kept = kept_from_json(obj["kept"], melds, position.table, at("kept"), at("table"))
    objective = objective_from_json(obj["objective"], at("objective"))
    _check_turn(Status(status), position, melds, played, at)
    _check_derived(obj, Status(status), position, played, at)
    timings = _timings_from_json(obj.get("timings", {}), at("timings"))
    alternatives = obj.get("alternatives", [])
    if not isinstance(alternatives, list):
        raise JsonInputError(f"{at('alternatives')}: expected an array of results, got {json_type_name(alternatives)}")
    moves = tuple(
        solution_from_json(alt, position, path=at(f"alternatives[{i}]")) for i, alt in enumerate(alternatives)
    )
    solution = Solution(Status(status), played, melds, obj["value"], objective, position, kept, timings, moves)
    opening = obj.get("initial_meld_value")
    if "initial_meld_value" in obj and (type(opening) is not int or opening != solution.initial_meld_value):
        raise JsonInputError(
            f"{at('initial_meld_value')}: expected {json.dumps(solution.initial_meld_value)} for this move, got {opening!r}"
        )
    return solution


def _field_path(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _result_position(obj: dict[str, Any], given: Position | None, at: Callable[[str], str]) -> Position:
    """The position a result answers (``given``, else its own ``position``), checked against its ``rules``."""
    own = rules_from_json(obj["rules"], at("rules")) if "rules" in obj else None
    body = obj.get("position")
    if given is None and body is None:
        raise JsonInputError(
            f"{at('position')}: missing: a result does not carry its position's table; give the position "
            "(solution_from_json(obj, position)), or encode it with solution_to_json(solution, position=True)"
        )
    if body is not None:
        if isinstance(body, dict) and "rules" not in body and own is not None:
            body = {**body, "rules": rules_to_json(own)}
        decoded = position_from_json(body, at("position"))
        if given is not None and decoded != given:
            raise JsonInputError(f"{at('position')}: not the position given")
        given = decoded
    assert given is not None
    if own is not None and own != given.rules:
        raise RuleSetError(
            f"{at('rules')}: the result's rules ({_rules_text(own)}) differ from its position's "
            f"({_rules_text(given.rules)})"
        )
    return given


def _rules_text(rules: RuleSet) -> str:
    return json.dumps(rules_to_json(rules), separators=(",", ":"))


def _read_jokers(obj: Any, melds: tuple[Meld, ...], at: Callable[[str], str], rules: RuleSet) -> tuple[Meld, ...]:
    """``melds`` read as the ``jokers`` entries say (one entry per joker on the table, any order)."""
    path = at("jokers")
    if not isinstance(obj, list):
        raise JsonInputError(f"{path}: expected an array of joker entries, got {json_type_name(obj)}")
    slots = {(i, slot) for i, meld in enumerate(melds) for slot, _ in meld.jokers}
    given: dict[tuple[int, int], tuple[int, StandsFor]] = {}
    for k, entry in enumerate(obj):
        here = f"{path}[{k}]"
        if not isinstance(entry, dict):
            raise JsonInputError(
                f"{here}: expected an object with 'meld', 'slot' and 'stands_for', got {json_type_name(entry)}"
            )
        key = (entry.get("meld"), entry.get("slot"))
        if any(type(n) is not int for n in key) or key not in slots:  # (not True for 1, nor 1.0)
            raise JsonInputError(f"{here}: {at('table')}[{key[0]!r}][{key[1]!r}] holds no joker")
        if key in given:
            raise JsonInputError(f"{here}: a second entry for {at('table')}[{key[0]}][{key[1]}]")
        joker = melds[key[0]].tiles[key[1]]
        code = entry.get("joker", "J")
        if not isinstance(code, str) or code.upper() != str(joker):
            raise JsonInputError(f"{here}.joker: {at('table')}[{key[0]}][{key[1]}] is {joker}, got {code!r}")
        if "stands_for" not in entry:
            raise JsonInputError(f"{here}: missing field 'stands_for'")
        given[key] = (k, _stands_from_json(entry["stands_for"], joker, f"{here}.stands_for", rules))
    if slots - set(given):
        i, slot = min(slots - set(given))
        raise JsonInputError(f"{path}: no entry for the joker {at('table')}[{i}][{slot}]")
    out = []
    for i, meld in enumerate(melds):
        stands = list(meld.stands_for)
        for slot, _ in meld.jokers:
            stands[slot] = given[i, slot][1]
        try:
            out.append(Meld.with_stands_for(meld.tiles, stands, rules))
        except InvalidMeldError as err:
            first = min(given[i, slot][0] for slot, _ in meld.jokers)
            raise with_path(f"{path}[{first}].stands_for", err) from None
    return tuple(out)


def _stands_from_json(obj: Any, joker: Tile, path: str, rules: RuleSet) -> StandsFor:
    """What a joker entry says ``joker`` stands for: ``J`` a tile code, ``JD`` two, ``JC`` a number, ``JM`` null."""
    code = str(joker)
    if code == "J":
        return _tile_from_json(obj, path, rules, rules)
    if code == "JD":
        if not isinstance(obj, list) or len(obj) != 2:
            raise JsonInputError(f"{path}: expected the double joker's two tile codes, got {json_type_name(obj)}")
        first, second = tiles_from_json(obj, path, rules)
        return first, second
    if code == "JC":
        if isinstance(obj, bool) or not isinstance(obj, int):
            raise JsonInputError(f"{path}: expected the colour-change joker's number, got {json_type_name(obj)}")
        return obj
    if obj is not None:
        raise JsonInputError(f"{path}: expected null (a mirror joker fills no slot), got {json_type_name(obj)}")
    return None


def _check_turn(
    status: Status, position: Position, melds: tuple[Meld, ...], played: tuple[Tile, ...], at: Callable[[str], str]
) -> None:
    """A move must be legal and play ``played``; without one the table is the position's, nothing played."""
    if status in (Status.OPTIMAL, Status.FEASIBLE):
        verdict = verify(position, melds)
        if not verdict.legal:
            reasons = "; ".join(r.message for r in verdict.reasons)
            raise JsonInputError(f"{at('table')}: not a legal turn from the position: {reasons}")
        if verdict.played != played:
            raise JsonInputError(
                f"{at('played')}: {format_tiles(played) or '(none)'}, but the table takes "
                f"{format_tiles(verdict.played)} from the rack"
            )
        return
    if played:
        raise JsonInputError(f"{at('played')}: a {status!s} result plays nothing, got {format_tiles(played)}")
    if [m.tiles for m in melds] != [m.tiles for m in position.table]:
        raise JsonInputError(f"{at('table')}: a {status!s} result's table is its position's, unchanged")


def _check_derived(
    obj: dict[str, Any], status: Status, position: Position, played: tuple[Tile, ...], at: Callable[[str], str]
) -> None:
    """``value`` and, when present, ``tiles_played``, ``proven`` and ``rack_after`` agree with the rest."""
    value = obj["value"]
    if isinstance(value, bool) or not isinstance(value, int):
        raise JsonInputError(f"{at('value')}: expected an integer number of points, got {json_type_name(value)}")
    derived: dict[str, Any] = {
        "value": position.rules.rack_value(played),
        "tiles_played": len(played),
        "proven": status in (Status.OPTIMAL, Status.NO_MOVE),
    }
    for name, expected in derived.items():
        if name in obj and (obj[name] != expected or type(obj[name]) is not type(expected)):
            raise JsonInputError(f"{at(name)}: expected {json.dumps(expected)} for this move, got {obj[name]!r}")
    if obj.get("rack_after") is not None:
        rack_after = tuple(sorted(tiles_from_json(obj["rack_after"], at("rack_after"), position.rules)))
        left = position.rack_after(played)
        if rack_after != left:
            raise JsonInputError(
                f"{at('rack_after')}: the position's rack less the tiles played is "
                f"{format_tiles(left) or '(none)'}, got {format_tiles(rack_after) or '(none)'}"
            )


def _timings_from_json(obj: Any, path: str) -> dict[str, float]:
    if not isinstance(obj, dict):
        raise JsonInputError(f"{path}: expected an object of seconds by stage, got {json_type_name(obj)}")
    timings = {}
    for name, seconds in obj.items():
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 <= seconds < 1e9:
            raise JsonInputError(f"{path}.{name}: expected a number of seconds, got {seconds!r:.40}")
        timings[name] = float(seconds)
    return timings


_LONGEST_MESSAGE = 500


def error_message(err: BaseException) -> str:
    """The message a JSON ``error`` field carries for ``err`` (at most :data:`_LONGEST_MESSAGE`
    characters: a message that quotes a huge bad value keeps its start, which names the part)."""
    if isinstance(err, RecursionError):
        return "JSON nested too deeply"
    text = str(err) if isinstance(err, RummisolveError) else f"{type(err).__name__}: {err}"
    return text if len(text) <= _LONGEST_MESSAGE else text[: _LONGEST_MESSAGE - 1] + "\u2026"


# -- verdicts (the referee) ----------------------------------------------------------------------


def verdict_to_json(verdict: Verdict) -> dict[str, Any]:
    """Encode a :class:`~rummisolve.referee.Verdict`:
    ``{"legal": bool, "reasons": [{"code", "message", "meld"}...], "played": [tile codes]}``."""
    return {
        "legal": verdict.legal,
        "reasons": [{"code": r.code, "message": r.message, "meld": r.meld} for r in verdict.reasons],
        "played": [str(t) for t in verdict.played],
    }


# -- explanations (rummisolve.explain) -------------------------------------------------------------


def hint_to_json(hint: Any) -> dict[str, Any]:
    """Encode a :class:`rummisolve.hints.Hint` (read by its fields): ``level``, ``text``,
    ``played`` and ``tiles_played``; from level 2 ``touched`` (old table meld indices); at level 3
    ``table``, ``meld_map`` and ``steps``."""
    out: dict[str, Any] = {
        "level": hint.level,
        "text": hint.text,
        "played": [str(t) for t in hint.tiles],
        "tiles_played": len(hint.tiles),
    }
    if hint.touched is not None:
        out["touched"] = list(hint.touched)
    if hint.table is not None:
        out["table"] = table_to_json(hint.table)
    if hint.explanation is not None:
        out.update(explanation_to_json(hint.explanation))
    return out


def explanation_to_json(explanation: Any) -> dict[str, Any]:
    """Encode a :class:`rummisolve.explain.Explanation` (read by its fields: this codec sits below
    the engines): ``{"meld_map": [new meld index or null, ...], "steps": [{"tile", "from", "to",
    "text"}, ...]}``, where ``from`` is ``"rack"`` or an old table meld's index and ``to`` a new
    table meld's index."""
    return {
        "meld_map": list(explanation.meld_map),
        "steps": [
            {
                "tile": str(step.tile),
                "from": "rack" if step.source is None else step.source,
                "to": step.target,
                "text": step.text,
            }
            for step in explanation.steps
        ],
    }
