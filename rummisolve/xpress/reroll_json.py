"""The Xpress fields of a solve request (docs/json-contract.md, "Xpress"): ``dice``, ``reroll`` and
the re-roll's budget, ``reroll_max_solves`` and ``reroll_time_limit``."""

from __future__ import annotations

from typing import Any

from rummisolve.errors import JsonInputError, OptionError, RummisolveError
from rummisolve.jsonio import json_type_name, tiles_from_json, with_path
from rummisolve.position import Position
from rummisolve.solver_limits import check_time_limit
from rummisolve.xpress.dice import FACES, DiceError, Die, FreeDie, die_named
from rummisolve.xpress.reroll import DEFAULT_MAX_SOLVES, RerollAdvice, RerollOption, best_reroll, check_free_dice

__all__ = [
    "DICE_KEYS",
    "free_dice_from_json",
    "wants_reroll",
    "REROLL_OBJECTIVES",
    "reroll_from_json",
    "reroll_limits_from_json",
    "MAX_REROLL_SOLVES",
    "advice_to_json",
]

REROLL_OBJECTIVES = ("tiles", "value", "out")
DICE_KEYS = ("dice", "reroll", "reroll_max_solves", "reroll_time_limit")
"""The request fields this module reads."""
MAX_REROLL_SOLVES = 1_000_000
"""The largest ``reroll_max_solves`` a request may ask for (a solve takes about a millisecond)."""


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
    if not position.rules.dice:
        raise OptionError('position.dice: dice belong to the Xpress edition ("rules": "xpress"); these rules have none')
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
    if reroll and len(dice) > position.rules.rack_size:
        raise DiceError(
            f"position.dice: the best re-roll ranks at most {position.rules.rack_size} free dice (a player's "
            f"dice), got {len(dice)}: every subset is ranked, {2 ** len(dice)} of them"
        )
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


def reroll_limits_from_json(obj: dict[str, Any]) -> tuple[int, float | None]:
    """The request's re-roll budget: ``reroll_max_solves`` (a whole number from 1 to
    :data:`MAX_REROLL_SOLVES`, default :data:`~rummisolve.xpress.reroll.DEFAULT_MAX_SOLVES`) and
    ``reroll_time_limit`` (positive seconds, default none); either needs ``reroll``."""
    for key in ("reroll_max_solves", "reroll_time_limit"):
        if key in obj and not wants_reroll(obj):
            raise OptionError(f"position.{key}: needs 'reroll' (it is the best re-roll's budget)")
    solves = obj.get("reroll_max_solves", DEFAULT_MAX_SOLVES)
    if isinstance(solves, bool) or not isinstance(solves, int):
        got = repr(solves) if isinstance(solves, float) else json_type_name(solves)
        raise JsonInputError(f"position.reroll_max_solves: expected a whole number of solves, got {got}")
    if not 1 <= solves <= MAX_REROLL_SOLVES:
        raise OptionError(f"position.reroll_max_solves: expected 1 to {MAX_REROLL_SOLVES} solves, got {solves}")
    try:
        seconds = check_time_limit(obj.get("reroll_time_limit"))
    except OptionError as err:
        raise OptionError(f"position.reroll_time_limit: {err}") from None
    return solves, seconds


def wants_reroll(obj: dict[str, Any]) -> bool:
    """Whether the request asks for the best re-roll (``"reroll"``: true or an objective)."""
    return obj.get("reroll", False) is not False


def reroll_from_json(
    obj: dict[str, Any], position: Position, dice: tuple[FreeDie, ...], objective: str
) -> dict[str, Any]:
    """The ``reroll`` object of the answer: the best subset to roll and every subset ranked."""
    wanted = obj.get("reroll")
    goal = wanted if isinstance(wanted, str) else objective
    max_solves, time_limit = reroll_limits_from_json(obj)
    return advice_to_json(best_reroll(position, dice, goal, max_solves=max_solves, time_limit=time_limit))


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
