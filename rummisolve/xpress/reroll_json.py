"""The Xpress fields of a solve request (docs/json-contract.md, "Xpress"): ``dice`` and ``reroll``."""

from __future__ import annotations

from typing import Any

from rummisolve.errors import JsonInputError, RummisolveError
from rummisolve.jsonio import json_type_name, tiles_from_json, with_path
from rummisolve.position import Position
from rummisolve.xpress.dice import FACES, DiceError, Die, FreeDie, die_named
from rummisolve.xpress.reroll import RerollAdvice, RerollOption, best_reroll, check_free_dice

__all__ = [
    "DICE_KEYS",
    "free_dice_from_json",
    "wants_reroll",
    "REROLL_OBJECTIVES",
    "reroll_from_json",
    "advice_to_json",
]

REROLL_OBJECTIVES = ("tiles", "value", "out")
DICE_KEYS = ("dice", "reroll")
"""The request fields this module reads."""


def free_dice_from_json(obj: dict[str, Any], position: Position) -> tuple[FreeDie, ...] | None:
    """The request's ``dice`` (a name or ``{"faces": [6 codes]}`` per entry of the JSON rack, in
    order), checked against the rack; ``None`` without ``dice``. ``reroll`` needs ``dice``."""
    reroll = obj.get("reroll", False)
    if not isinstance(reroll, bool) and reroll not in REROLL_OBJECTIVES:
        raise JsonInputError(f"position.reroll: expected true, false, 'tiles', 'value' or 'out', got {reroll!r}")
    if "dice" not in obj:
        if reroll:
            raise DiceError("position.reroll: needs 'dice' (which die each rack entry is)")
        return None
    entries = obj["dice"]
    if not isinstance(entries, list):
        raise JsonInputError(f"position.dice: expected an array, one die per rack entry, got {json_type_name(entries)}")
    rack = obj.get("rack", [])
    if len(entries) != len(rack):
        raise DiceError(f"position.dice: {len(entries)} dice for a rack of {len(rack)} entries (one die per entry)")
    shown = tiles_from_json(rack, "position.rack", position.rules)
    dice = tuple(
        _free_die(entry, tile, f"position.dice[{i}]", position)
        for i, (entry, tile) in enumerate(zip(entries, shown, strict=True))
    )
    try:
        check_free_dice(position, dice)
    except DiceError as err:
        raise with_path("position", err) from None
    return dice


def _free_die(entry: Any, shown: Any, path: str, position: Position) -> FreeDie:
    try:
        if isinstance(entry, str):
            die = die_named(entry)
        elif isinstance(entry, dict) and set(entry) == {"faces"}:
            faces = tiles_from_json(entry["faces"], f"{path}.faces", position.rules)
            if len(faces) != FACES:
                raise DiceError(f"expected {FACES} faces, got {len(faces)}")
            die = Die(faces)
        else:
            raise JsonInputError(
                f"expected a die name such as 'D3' or {{\"faces\": [6 codes]}}, got {json_type_name(entry)}"
            )
        return FreeDie(die, shown)
    except RummisolveError as err:
        raise with_path(path, err) from None


def wants_reroll(obj: dict[str, Any]) -> bool:
    """Whether the request asks for the best re-roll (``"reroll"``: true or an objective)."""
    return obj.get("reroll", False) is not False


def reroll_from_json(
    obj: dict[str, Any], position: Position, dice: tuple[FreeDie, ...], objective: str
) -> dict[str, Any]:
    """The ``reroll`` object of the answer: the best subset to roll and every subset ranked."""
    wanted = obj.get("reroll")
    goal = wanted if isinstance(wanted, str) else objective
    return advice_to_json(best_reroll(position, dice, goal))


def _option_to_json(option: RerollOption) -> dict[str, Any]:
    expected = option.expected
    return {
        "dice": list(option.dice),
        "expected": {"tiles": expected.tiles, "value": expected.value, "out": expected.out},
        "exact": option.exact,
        "stderr": option.stderr,
    }


def advice_to_json(advice: RerollAdvice) -> dict[str, Any]:
    """``{"dice", "expected", "exact", "stderr", "objective", "solves", "timed_out", "options": [...]}``."""
    best = _option_to_json(advice.best)
    return {
        **best,
        "objective": advice.objective,
        "solves": advice.solves,
        "timed_out": advice.timed_out,
        "options": [_option_to_json(option) for option in advice.options],
    }
