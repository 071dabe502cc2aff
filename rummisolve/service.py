"""The JSON entry points: :func:`solve_json`, :func:`verify_json`, :func:`explain_json` and :func:`render_json`.

Each takes a decoded JSON value of the contract (docs/json-contract.md) and answers in it. The
CLI and the HTTP service call these and nothing else, so both answer alike. None of them raises
for bad input: ``solve_json`` returns ``{"status": "error", "error": ...}``, ``verify_json``
``{"error": ...}``, and ``render_json`` raises a :class:`~rummisolve.errors.RummisolveError`
naming the bad part (it returns a picture, not a JSON object); ``explain_json`` answers like
``verify_json``. The solver, and with it OR-Tools,
is loaded on the first ``solve_json``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummisolve.errors import IllegalTurnError, JsonInputError, OptionError, RuleSetError, RummisolveError
from rummisolve.explain import explain
from rummisolve.jsonio import (
    SOLVE_REQUEST_KEYS,
    alternatives_from_json,
    alternatives_mode_from_json,
    error_message,
    explanation_to_json,
    hint_to_json,
    json_type_name,
    kept_from_json,
    melds_from_json,
    objective_from_json,
    position_from_json,
    rules_from_json,
    rules_to_json,
    solution_to_json,
    table_from_json,
    tiles_from_json,
    verdict_to_json,
)
from rummisolve.position import Position
from rummisolve.referee import verify
from rummisolve.render import render_result, render_svg
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.solution import STATUSES, AlternativesMode, Objective
from rummisolve.solver_limits import check_time_limit
from rummisolve.tiles import Tile

if TYPE_CHECKING:
    from rummisolve.solver import StopSignal

__all__ = ["solve_json", "verify_json", "explain_json", "render_json", "check_json", "SolveRequest"]


def solve_json(obj: Any, *, stop: StopSignal | None = None) -> dict[str, Any]:
    """Solve one position object; return the result object.

    Bad input never raises: it returns ``{"status": "error", "error": "<message naming the bad part>"}``.
    Optional fields ``objective`` (``"tiles"``/``"value"``), ``time_limit`` (seconds),
    ``alternatives`` (0 to 10: that many further moves, in an ``alternatives`` list of results
    without timings), ``alternatives_mode`` (``"not_contained"``, the default: each alternative
    plays a tile the moves before it do not; ``"distinct"``: its played tiles differ from theirs;
    see :func:`rummisolve.solve`), ``explain`` (``true`` adds ``meld_map`` and ``steps``, to the alternatives
    too: how to play the move, see :func:`rummisolve.explain.explain`), ``hint`` (1, 2 or 3:
    answer with only what a hint of that level reveals, see :func:`rummisolve.hints.hint`) and
    ``id`` (any JSON value, returned first on the result, errors included, so batches can be
    matched up).
    ``stop``: a :class:`~rummisolve.solver.StopSignal` that ends the search early when set (the
    HTTP service sets it when the client has gone), as if the time limit had run out.
    """
    start = time.perf_counter()
    try:
        request = SolveRequest.from_json(obj)
    except (RummisolveError, RecursionError) as err:  # RecursionError: absurdly nested values
        answer = {"status": "error", "error": error_message(err)}
    else:
        parse = time.perf_counter() - start
        answer = _hint_answer(request, stop) if request.hint is not None else _move_answer(request, parse, stop)
        answer = _with_reroll(obj, request, answer)
    if isinstance(obj, dict) and "id" in obj:
        return {"id": obj["id"], **answer}
    return answer


_REQUEST_KEYS = SOLVE_REQUEST_KEYS
"""The fields of a solve request that are not the position's (``objective`` and ``time_limit`` are)."""


@dataclass(frozen=True)
class SolveRequest:
    """A solve request of the JSON contract, decoded once: the position and how to answer."""

    position: Position
    objective: Objective
    time_limit: float | None
    alternatives: int | None = None
    """How many alternatives were asked for; ``None`` if the field was absent (no list in the answer)."""
    explain: bool = False
    hint: int | None = None
    alternatives_mode: AlternativesMode = AlternativesMode.NOT_CONTAINED
    """What an alternative is (:class:`~rummisolve.solution.AlternativesMode`)."""

    @classmethod
    def from_json(cls, obj: Any) -> SolveRequest:
        """Decode a request; a :class:`~rummisolve.errors.RummisolveError` names the first bad part
        (the hint level and what it cannot be combined with, then ``explain``, ``alternatives``,
        ``alternatives_mode``, the position, ``objective``, ``time_limit``)."""
        from rummisolve.hints import HINT_LEVELS

        fields = obj if isinstance(obj, dict) else {}
        hint = fields.get("hint")
        if "hint" in fields:
            if isinstance(hint, bool) or hint not in HINT_LEVELS:
                raise OptionError(f"position.hint: expected 1, 2 or 3, got {hint!r}")
            clash = sorted({"alternatives", "alternatives_mode", "explain"} & set(fields))
            if clash:
                raise OptionError(f"position.hint: cannot be combined with {', '.join(map(repr, clash))}")
        explain = fields.get("explain", False)
        if not isinstance(explain, bool):
            raise JsonInputError(f"position.explain: expected true or false, got {json_type_name(explain)}")
        alternatives = None
        if "alternatives" in fields:
            alternatives = alternatives_from_json(fields["alternatives"], "position.alternatives")
        mode = alternatives_mode_from_json(fields.get("alternatives_mode"), "position.alternatives_mode")
        if isinstance(obj, dict):
            obj = {k: v for k, v in obj.items() if k not in _REQUEST_KEYS}
        position = position_from_json(obj)
        _check_dice(fields, position)
        objective = objective_from_json(obj.get("objective"), "position.objective")
        try:
            time_limit = check_time_limit(obj.get("time_limit"))
        except OptionError as err:
            raise OptionError(f"position.time_limit: {err}") from None
        return cls(position, objective, time_limit, alternatives, explain, hint, mode)


def _move_answer(request: SolveRequest, parse: float, stop: StopSignal | None) -> dict[str, Any]:
    """The result of a request for the best move (with its alternatives and explanation if asked)."""
    from rummisolve.solver import solve

    try:
        solution = solve(
            request.position,
            request.objective,
            request.time_limit,
            alternatives=request.alternatives or 0,
            alternatives_mode=request.alternatives_mode,
            stop=stop,
        )
    except RuleSetError as err:  # the only one solve() raises: more jokers in play than the model takes
        return {"status": "error", "error": f"position: {error_message(err)}"}
    solution.timings["parse"] = parse
    start = time.perf_counter()
    result = solution_to_json(solution)
    if request.alternatives is not None:
        result["alternatives_mode"] = request.alternatives_mode.value
        result["alternatives"] = [solution_to_json(move, timings=False) for move in solution.alternatives]
    timings = result["timings"]
    timings["encode"] = round(time.perf_counter() - start, 6)
    timings["total"] = round(sum(timings.values()), 6)
    if request.explain:
        start = time.perf_counter()
        result.update(_explained(request.position, result))
        if "alternatives" in result:
            result["alternatives"] = [{**move, **_explained(request.position, move)} for move in result["alternatives"]]
        timings["explain"] = round(time.perf_counter() - start, 6)
        total = timings.pop("total")
        timings["total"] = round(total + timings["explain"], 6)
    return result


def _hint_answer(request: SolveRequest, stop: StopSignal | None) -> dict[str, Any]:
    """The answer to a request with a ``hint`` level: ``{"status", "proven", "objective", "hint":
    {...}}`` (:func:`rummisolve.jsonio.hint_to_json`) without the rest of the move."""
    from rummisolve.hints import hint_of
    from rummisolve.solver import solve

    try:
        solution = solve(request.position, request.objective, request.time_limit, stop=stop)
    except RuleSetError as err:  # more jokers in play than the model takes
        return {"status": "error", "error": f"position: {error_message(err)}"}
    except (RummisolveError, RecursionError) as err:
        return {"status": "error", "error": error_message(err)}
    assert request.hint is not None
    return {
        "status": str(solution.status),
        "proven": solution.proven,
        "objective": str(solution.objective),
        "hint": hint_to_json(hint_of(solution, request.hint)),
    }


def _explained(position: Position, result: dict[str, Any]) -> dict[str, Any]:
    """``meld_map`` and ``steps`` of a result (each old meld mapped to itself without a move)."""
    if result["status"] in ("optimal", "feasible"):
        return explanation_to_json(explain(position, result["table"]))
    return {"meld_map": list(range(len(position.table))), "steps": []}


_VERIFY_KEYS = ("position", "table")


def verify_json(obj: Any, *, max_steps: int | None = None) -> dict[str, Any]:
    """Referee one ``{"position": {...}, "table": [[...], ...]}`` request.

    Returns the verdict object ``{"legal", "reasons", "played"}``, or ``{"error": message}`` (the
    message names the bad part) for bad input; never raises for bad input. An illegal turn is not
    an error. ``max_steps``: see :func:`rummisolve.referee.verify` (past it, an error names the limit).
    An ``id`` (any JSON value) comes back first on the answer.
    """
    if isinstance(obj, dict) and "id" in obj:
        ident = obj["id"]
        return {"id": ident, **verify_json({k: v for k, v in obj.items() if k != "id"}, max_steps=max_steps)}
    try:
        position, table = _turn_from_json(obj)
        return verdict_to_json(verify(position, table, max_steps=max_steps))
    except (RummisolveError, RecursionError) as err:  # RecursionError: absurdly nested values
        return {"error": error_message(err)}


def explain_json(obj: Any, *, max_steps: int | None = None) -> dict[str, Any]:
    """Explain one ``{"position": {...}, "table": [[...], ...]}`` turn, step by step.

    Returns ``{"meld_map": [...], "steps": [{"tile", "from", "to", "text"}, ...]}``
    (:func:`rummisolve.jsonio.explanation_to_json`), or ``{"error": message}`` naming the bad part
    for bad input; an illegal turn is an error too, its message listing the referee's reasons,
    which also come as ``reasons`` (as in a verdict). Never raises for bad input. ``max_steps`` and
    ``id``: as for :func:`verify_json`.
    """
    if isinstance(obj, dict) and "id" in obj:
        ident = obj["id"]
        return {"id": ident, **explain_json({k: v for k, v in obj.items() if k != "id"}, max_steps=max_steps)}
    try:
        position, table = _turn_from_json(obj)
        return explanation_to_json(explain(position, table, max_steps=max_steps))
    except IllegalTurnError as err:
        return {"error": error_message(err), "reasons": verdict_to_json(err.verdict)["reasons"]}
    except (RummisolveError, RecursionError) as err:  # RecursionError: absurdly nested values
        return {"error": error_message(err)}


def _turn_from_json(obj: Any) -> tuple[Position, tuple[tuple[Tile, ...], ...]]:
    """The position and new table of a ``{"position": {...}, "table": [[...], ...]}`` request."""
    if not isinstance(obj, dict):
        raise JsonInputError(f"expected an object with fields 'position' and 'table', got {json_type_name(obj)}")
    missing = [key for key in _VERIFY_KEYS if key not in obj]
    if missing:
        raise JsonInputError(f"missing field(s) {', '.join(map(repr, missing))}")
    unknown = sorted(set(obj) - set(_VERIFY_KEYS))
    if unknown:
        raise JsonInputError(
            f"unknown field(s) {', '.join(map(repr, unknown))} (expected 'position', 'table' and optionally 'id')"
        )
    position = position_from_json(obj["position"], "position")
    return position, table_from_json(obj["table"], "table", words=position.rules)


def check_json(obj: Any) -> dict[str, Any]:
    """Every problem of a position object, in a player's words: ``{"problems": [{"part", "meld",
    "slot", "text"}, ...]}``: every problem of its table, rack and rules
    (:func:`rummisolve.position_problems.position_problems`), else the first of its other fields
    that :func:`solve_json` would refuse; empty when it would take the position. Never raises."""
    from rummisolve.position_problems import Problem, position_problems, problems_to_json

    problems = position_problems(obj)
    if not problems:  # the other fields (objective, opened, time_limit, dice, unknown ones) as /solve reads them
        try:
            SolveRequest.from_json(obj)
        except (RummisolveError, RecursionError) as err:
            problems = [Problem("position", error_message(err))]
    return problems_to_json(problems)


def render_json(obj: Any, *, rules: RuleSet | None = None, words: Mapping[str, Any] | None = None) -> str:
    """An SVG picture of a position or a result object.

    A result (an object with ``"status"``) shows its ``table``: the melds it ``kept`` (listed
    first) plain, the others rearranged or new, the ``played`` tiles highlighted; then the rack
    left (``rack_after``, or the ``position``'s rack less ``played``). Without ``kept``, the melds
    equal to one of its ``position``'s stay plain. Its tiles are read under its ``rules`` (every
    result of :func:`solve_json` carries them), else its ``position``'s. A position shows its
    table and rack. ``rules`` are for an object that carries none; an object whose own rules
    differ from them is an error. Bad input raises a :class:`~rummisolve.errors.RummisolveError`
    whose message names the bad part. ``words``: a result picture's labels in another language
    (:data:`rummisolve.render.LABELS` has the keys).
    """
    if not isinstance(obj, dict):
        raise JsonInputError(f"expected a position or a result object, got {json_type_name(obj)}")
    if "status" not in obj:
        own = _own_rules(obj, "position.rules")
        _check_given(own, rules, "the position")
        if own is None and rules is not None:
            obj = {**obj, "rules": rules_to_json(rules)}
        from rummisolve.xpress.reroll_json import DICE_KEYS

        if any(key in obj for key in DICE_KEYS):
            return _dice_svg(obj)
        return render_svg(position_from_json(obj, "position"))

    status = obj["status"]
    if status == "error":
        raise JsonInputError(f"status: cannot draw an error result ({obj.get('error', 'no message')})")
    if status not in STATUSES:
        raise JsonInputError(f"status: expected {', '.join(map(repr, STATUSES))} or 'error', got {status!r}")
    rules = _result_rules(obj, rules)
    position = None
    if "position" in obj:
        body = obj["position"]
        if isinstance(body, dict) and "rules" not in body:
            body = {**body, "rules": rules_to_json(rules)}
        if isinstance(body, dict) and (dice := [key for key in ("dice", "reroll") if key in body]):
            raise OptionError(
                f"position.{dice[0]}: a result is drawn without its position's dice (only a position is drawn "
                "with them, docs/json-contract.md#render-input): take dice and reroll off the result's position"
            )
        position = position_from_json(body, "position")
    if "table" not in obj:
        raise JsonInputError("table: a result needs its table")
    melds = melds_from_json(obj["table"], "table", rules)
    played = tiles_from_json(obj.get("played", []), "played", rules)
    rack_after = None
    if obj.get("rack_after") is not None:
        rack_after = tiles_from_json(obj["rack_after"], "rack_after", rules)
    elif position is not None:
        rack_after = position.rack_after(played)
    value = obj.get("value")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise JsonInputError(f"value: expected an integer number of points, got {json_type_name(value)}")
    objective = obj.get("objective")
    if objective is not None:
        objective = str(objective_from_json(objective, "objective"))
    kept = obj.get("kept")
    if kept is not None:
        kept = kept_from_json(kept, melds, position.table if position is not None else None)
    return render_result(
        status,
        melds,
        played,
        old_table=position.table if position is not None else (),
        kept=kept,
        rack_after=rack_after,
        value=value,
        objective=objective,
        rules=rules,
        steps=_steps(obj.get("steps"), len(melds), rules),
        words=words,
    )


def _steps(steps: Any, melds: int, rules: RuleSet) -> list[tuple[Tile, int]] | None:
    """An explained result's ``steps`` as ``(tile, new meld index)``, to number the moving tiles."""
    if steps is None:
        return None
    if not isinstance(steps, list):
        raise JsonInputError(f"steps: expected an array of steps, got {json_type_name(steps)}")
    out = []
    for i, step in enumerate(steps):
        if not isinstance(step, dict) or "tile" not in step or "to" not in step:
            raise JsonInputError(f"steps[{i}]: expected an object with 'tile' and 'to'")
        (tile,) = tiles_from_json([step["tile"]], f"steps[{i}].tile", rules)
        target = step["to"]
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < melds:
            raise JsonInputError(f"steps[{i}].to: expected a meld index from 0 to {melds - 1}, got {target!r}")
        out.append((tile, target))
    return out


def _own_rules(obj: dict[str, Any], path: str) -> RuleSet | None:
    """The rules an object names in its ``rules`` field, if it has one."""
    return rules_from_json(obj["rules"], path) if "rules" in obj else None


def _check_given(own: RuleSet | None, given: RuleSet | None, what: str) -> None:
    if own is not None and given is not None and own != given:
        raise RuleSetError(
            f"rules: {what} carries rules of its own ({_rules_text(own)}), not the ones given ({_rules_text(given)})"
        )


def _rules_text(rules: RuleSet) -> str:
    return json.dumps(rules_to_json(rules), separators=(",", ":"))


def _result_rules(obj: dict[str, Any], given: RuleSet | None) -> RuleSet:
    """The rules a result is read under: its ``rules``, else its ``position``'s, else ``given``
    (else the standard rules). Rules that disagree are an error."""
    own = _own_rules(obj, "rules")
    body = obj.get("position")
    if isinstance(body, dict) and "rules" in body:
        of_position = rules_from_json(body["rules"], "position.rules")
        if own is not None and own != of_position:
            raise RuleSetError(
                f"rules: the result's rules ({_rules_text(own)}) differ from its position's "
                f"({_rules_text(of_position)})"
            )
        own = of_position
    _check_given(own, given, "the result")
    return own or given or STANDARD


# -- Xpress: the dice fields and the best re-roll (docs/json-contract.md, "Xpress") ----------------


def _check_dice(fields: dict[str, Any], position: Position) -> None:
    """Check ``dice``, ``reroll`` and the re-roll's budget (the error names the bad part)."""
    from rummisolve.xpress.reroll_json import DICE_KEYS, free_dice_from_json, reroll_limits_from_json

    if any(key in fields for key in DICE_KEYS):
        free_dice_from_json(fields, position)
        reroll_limits_from_json(fields)


def _dice_svg(obj: dict[str, Any]) -> str:
    """An Xpress position drawn with the name of the die under each rack entry; the best re-roll
    is the solver's to find, not the picture's."""
    from rummisolve.xpress.reroll_json import DICE_KEYS, free_dice_from_json, wants_reroll

    asked = [key for key in DICE_KEYS if key != "dice" and key in obj and (key != "reroll" or wants_reroll(obj))]
    if asked:
        raise OptionError(
            f"position.{asked[0]}: a picture draws the dice, it does not rank re-rolls: solve the request "
            "for its best re-roll (docs/json-contract.md#xpress), then draw the position with its dice alone"
        )
    position = position_from_json({k: v for k, v in obj.items() if k not in DICE_KEYS}, "position")
    dice = free_dice_from_json(obj, position)
    return render_svg(
        position, dice=None if dice is None else [(free.shown, free.die.name or "custom") for free in dice]
    )


def _with_reroll(obj: Any, request: SolveRequest, answer: dict[str, Any]) -> dict[str, Any]:
    """``answer`` with the ``reroll`` object when the request asks for it."""
    if not isinstance(obj, dict) or answer.get("status") == "error":
        return answer
    from rummisolve.xpress.reroll_json import free_dice_from_json, reroll_from_json, wants_reroll

    if not wants_reroll(obj):
        return answer
    dice = free_dice_from_json(obj, request.position)
    assert dice is not None  # checked by SolveRequest.from_json
    try:
        return {**answer, "reroll": reroll_from_json(obj, request.position, dice, request.objective.value)}
    except RummisolveError as err:
        return {"status": "error", "error": error_message(err)}
