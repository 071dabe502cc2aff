"""The codec of the JSON contract (docs/json-contract.md): JSON to core types and back.

Every decoding error is a :class:`~rummisolve.errors.RummisolveError` whose message starts with
the path of the offending part, e.g. ``position.table[1][2]: unknown tile code 'X5'``.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from rummisolve.errors import InvalidMeldError, JsonInputError, RummisolveError
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.referee import Verdict
from rummisolve.rules import RuleSet
from rummisolve.solution import ALTERNATIVES_MODES, OBJECTIVES, AlternativesMode, Objective, Solution
from rummisolve.tiles import Tile

__all__ = [
    "json_type_name",
    "with_path",
    "rules_from_json",
    "rules_to_json",
    "tiles_from_json",
    "table_from_json",
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
    "joker_to_json",
    "verdict_to_json",
    "explanation_to_json",
    "error_message",
]

_POSITION_KEYS = {"rules", "table", "rack", "opened", "objective", "time_limit"}


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


def tiles_from_json(obj: Any, path: str, rules: RuleSet | None = None) -> tuple[Tile, ...]:
    """An array of tile codes; with ``rules``, each tile must exist under them."""
    if not isinstance(obj, list):
        raise JsonInputError(f"{path}: expected an array of tile codes, got {json_type_name(obj)}")
    known = rules.tiles_by_code if rules is not None else {}
    tiles = []
    for i, code in enumerate(obj):
        tile = known.get(code) if type(code) is str else None
        if tile is not None:  # a canonical code of a tile these rules have
            tiles.append(tile)
            continue
        if not isinstance(code, str):
            raise JsonInputError(f"{path}[{i}]: expected a tile code string, got {json_type_name(code)}")
        try:
            tile = Tile.parse(code)
            if rules is not None:
                rules.check_tile(tile)
        except RummisolveError as err:
            raise with_path(f"{path}[{i}]", err) from None
        tiles.append(tile)
    return tuple(tiles)


def table_from_json(obj: Any, path: str = "table", rules: RuleSet | None = None) -> tuple[tuple[Tile, ...], ...]:
    """An array of melds, each an array of tile codes (not yet checked to be valid melds)."""
    if not isinstance(obj, list):
        raise JsonInputError(f"{path}: expected an array of melds, got {json_type_name(obj)}")
    return tuple(tiles_from_json(meld, f"{path}[{i}]", rules) for i, meld in enumerate(obj))


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
            f"{path}: unknown field(s) {', '.join(map(repr, unknown))} (a position has {known}; a solve also takes id and explain)"
        )
    rules = rules_from_json(obj.get("rules", "standard"), f"{path}.rules")
    table = table_from_json(obj.get("table", []), f"{path}.table", rules)
    rack = tiles_from_json(obj.get("rack", []), f"{path}.rack", rules)
    opened = obj.get("opened", True)
    if not isinstance(opened, bool):
        raise JsonInputError(f"{path}.opened: expected true or false, got {json_type_name(opened)}")
    melds = []
    for i, tiles in enumerate(table):
        try:
            melds.append(Meld.of(tiles, rules))
        except InvalidMeldError as err:
            raise with_path(f"{path}.table[{i}]", err) from None
    try:
        return Position(tuple(melds), rack, opened, rules)
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


def solution_to_json(solution: Solution, *, timings: bool = True) -> dict[str, Any]:
    """The result object of the JSON contract, with extra fields (``kept``, ``jokers``,
    ``rack_after``, ``rules``, and ``timings`` unless ``timings`` is false). ``rules`` are the
    position's, so that a result alone decodes (and renders) under the rules it was solved under;
    ``rack_after`` is the rack less the tiles played, sorted."""
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
    if timings:
        result["timings"] = {name: round(seconds, 6) for name, seconds in solution.timings.items()}
    return result


def read_documents(text: str) -> Iterator[Any]:
    """The JSON inputs in ``text``: one JSON value (which may span lines), or JSON Lines.

    Yields each decoded value in order; a line that is not JSON yields a :class:`JsonInputError`
    (naming the line) in its place instead of stopping the stream. Blank lines are skipped, and
    so is a byte-order mark at the start. One broken value spread over lines gets one error (its
    first line is not a value on its own, and no other line is a JSON object on its own)."""
    text = text.removeprefix("\ufeff")
    stripped = text.strip()
    if not stripped:
        return
    if not _has_bad_bytes(stripped):
        try:
            yield json.loads(stripped)
            return
        except json.JSONDecodeError as err:
            whole = err
        except (ValueError, RecursionError):  # an over-long number, absurd nesting
            whole = None
        lines = text.splitlines()
        first = next(line for line in lines if line.strip())
        if whole is not None and _incomplete(first) and not any(_is_object(line) for line in lines if line != first):
            yield JsonInputError(f"line {whole.lineno}: not valid JSON ({whole.msg} at column {whole.colno})")
            return
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield _line_document(number, line)


class OverlongLine(str):
    """Stands in, among the lines given to :func:`stream_documents`, for a line that was too long
    to keep (the reader skipped it): it is answered with an error naming the line and ``reason``."""

    reason: str

    def __new__(cls, reason: str) -> OverlongLine:
        line = super().__new__(cls, "(a line too long to read)\n")
        line.reason = reason
        return line


def stream_documents(lines: Iterable[str], max_bytes: int | None = None) -> Iterator[Any]:
    """:func:`read_documents` over lines as they arrive (each with its line break).

    Unless the first non-blank line is the start of a JSON value spread over lines (a value
    that is incomplete, not broken), the input is JSON Lines: each line is decoded as soon as it
    has been read, so a program that writes one position and waits for its answer gets it, bad
    lines included. A value spread over lines is read to the end of the input and decoded as
    :func:`read_documents` does; with ``max_bytes``, one of more than that many bytes (UTF-8) is
    an error instead, and is not kept. An :class:`OverlongLine` is an error naming its line."""
    lines = iter(lines)
    consumed: list[str] = []
    for line in lines:
        consumed.append(line.removeprefix("\ufeff") if not consumed and not isinstance(line, OverlongLine) else line)
        if line.strip():
            break
    else:
        return
    first = consumed[-1].rstrip("\r\n")
    if not isinstance(consumed[-1], OverlongLine) and _incomplete(first):
        yield from _spread_value(consumed, lines, max_bytes)
        return
    yield _line_document(len(consumed), consumed[-1] if isinstance(consumed[-1], OverlongLine) else first)
    for number, line in enumerate(lines, start=len(consumed) + 1):
        if isinstance(line, OverlongLine):
            yield _line_document(number, line)
        elif line.strip():
            yield _line_document(number, line.rstrip("\r\n"))


def _spread_value(consumed: list[str], lines: Iterator[str], max_bytes: int | None) -> Iterator[Any]:
    """The documents of a JSON value spread over lines (``consumed`` and the rest of ``lines``)."""
    if max_bytes is None:
        yield from read_documents("".join(consumed) + "".join(lines))
        return
    first = len(consumed)
    kept: list[str] = []
    size = 0
    for line in itertools.chain(consumed, lines):
        size += max_bytes + 1 if isinstance(line, OverlongLine) else len(line.encode("utf-8", "surrogateescape"))
        if size > max_bytes:
            for _ in lines:  # the rest of the input belongs to the same value: skip it, unkept
                pass
            yield JsonInputError(
                f"line {first}: a JSON value spread over lines, more than {max_bytes} bytes in all "
                "(the limit for one line or value)"
            )
            return
        kept.append(line)
    yield from read_documents("".join(kept))


def _incomplete(line: str) -> bool:
    """Whether ``line`` is the start of a JSON value that goes on after it (e.g. ``{`` or
    ``"rack": [``), as opposed to a value or something no further line can mend."""
    if _has_bad_bytes(line):
        return False
    try:
        json.loads(line)
    except json.JSONDecodeError as err:
        return err.pos >= len(line.rstrip())
    except (ValueError, RecursionError):
        return False
    return False


def _is_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False


_BAD_BYTE = re.compile("[\udc80-\udcff]")
"""What undecodable input bytes become when read with ``errors="surrogateescape"``."""


def _has_bad_bytes(text: str) -> bool:
    return _BAD_BYTE.search(text) is not None


def _line_document(number: int, line: str) -> Any:
    """One line's JSON value, or a :class:`JsonInputError` naming the line."""
    if isinstance(line, OverlongLine):
        return JsonInputError(f"line {number}: {line.reason}")
    bad = _BAD_BYTE.search(line)
    if bad is not None:
        byte = ord(bad.group()) - 0xDC00
        return JsonInputError(f"line {number}: not UTF-8 text (byte 0x{byte:02x} at column {bad.start() + 1})")
    try:
        return json.loads(line)
    except json.JSONDecodeError as err:
        return JsonInputError(f"line {number}: not valid JSON ({err.msg} at column {err.colno})")
    except ValueError as err:
        return JsonInputError(f"line {number}: not acceptable JSON ({err})")
    except RecursionError:
        return JsonInputError(f"line {number}: JSON nested too deeply")


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
