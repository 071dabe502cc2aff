"""The JSON entry points: :func:`solve_json`, :func:`verify_json` and :func:`render_json`.

Each takes a decoded JSON value of the contract (docs/json-contract.md) and answers in it. The
CLI and the HTTP service call these and nothing else, so both answer alike. None of them raises
for bad input: ``solve_json`` returns ``{"status": "error", "error": ...}``, ``verify_json``
``{"error": ...}``, and ``render_json`` raises a :class:`~rummisolve.errors.RummisolveError`
naming the bad part (it returns a picture, not a JSON object). The solver, and with it OR-Tools,
is loaded on the first ``solve_json``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from rummisolve.errors import JsonInputError, OptionError, RuleSetError, RummisolveError
from rummisolve.jsonio import (
    error_message,
    json_type_name,
    objective_from_json,
    position_from_json,
    rules_from_json,
    solution_to_json,
    table_from_json,
    tiles_from_json,
    verdict_to_json,
    with_path,
)
from rummisolve.melds import Meld
from rummisolve.referee import verify
from rummisolve.render import render_result, render_svg
from rummisolve.solution import STATUSES
from rummisolve.solver_limits import check_time_limit

if TYPE_CHECKING:
    from rummisolve.solver import StopSignal

__all__ = ["solve_json", "verify_json", "render_json"]


def solve_json(obj: Any, *, stop: StopSignal | None = None) -> dict[str, Any]:
    """Solve one position object; return the result object.

    Bad input never raises: it returns ``{"status": "error", "error": "<message naming the bad part>"}``.
    Optional fields ``objective`` (``"tiles"``/``"value"``) and ``time_limit`` (seconds). ``stop``:
    a :class:`~rummisolve.solver.StopSignal` that ends the search early when set (the HTTP service
    sets it when the client has gone), as if the time limit had run out.
    """
    start = time.perf_counter()
    try:
        position = position_from_json(obj)
        objective = objective_from_json(obj.get("objective"), "position.objective")
        time_limit = obj.get("time_limit")
        try:
            check_time_limit(time_limit)
        except OptionError as err:
            raise OptionError(f"position.time_limit: {err}") from None
    except (RummisolveError, RecursionError) as err:  # RecursionError: absurdly nested values
        return {"status": "error", "error": error_message(err)}
    parse = time.perf_counter() - start
    from rummisolve.solver import solve

    try:
        solution = solve(position, objective, time_limit, stop=stop)
    except RuleSetError as err:  # the only one solve() raises: more jokers in play than the model takes
        return {"status": "error", "error": f"position: {error_message(err)}"}
    solution.timings["parse"] = parse
    start = time.perf_counter()
    result = solution_to_json(solution)
    result["timings"]["encode"] = round(time.perf_counter() - start, 6)
    result["timings"]["total"] = round(sum(result["timings"].values()), 6)
    return result


_VERIFY_KEYS = ("position", "table")


def verify_json(obj: Any, *, max_steps: int | None = None) -> dict[str, Any]:
    """Referee one ``{"position": {...}, "table": [[...], ...]}`` request.

    Returns the verdict object ``{"legal", "reasons", "played"}``, or ``{"error": message}`` (the
    message names the bad part) for bad input; never raises for bad input. An illegal turn is not
    an error. ``max_steps``: see :func:`rummisolve.referee.verify` (past it, an error names the limit).
    """
    try:
        if not isinstance(obj, dict):
            raise JsonInputError(f"expected an object with fields 'position' and 'table', got {json_type_name(obj)}")
        missing = [key for key in _VERIFY_KEYS if key not in obj]
        if missing:
            raise JsonInputError(f"missing field(s) {', '.join(map(repr, missing))}")
        unknown = sorted(set(obj) - set(_VERIFY_KEYS))
        if unknown:
            raise JsonInputError(f"unknown field(s) {', '.join(map(repr, unknown))} (expected 'position', 'table')")
        position = position_from_json(obj["position"], "position")
        table = table_from_json(obj["table"], "table")
        return verdict_to_json(verify(position, table, max_steps=max_steps))
    except (RummisolveError, RecursionError) as err:  # RecursionError: absurdly nested values
        return {"error": error_message(err)}


def render_json(obj: Any) -> str:
    """An SVG picture of a position or a result object.

    A result (an object with ``"status"``) shows its ``table`` with the ``played`` tiles
    highlighted, then the rack left (``rack_after``, or the ``position``'s rack less ``played``).
    Melds the move left untouched stay plain: those of its ``position`` if it carries one, else
    the first ``len(kept)`` melds (the solver lists kept melds first). A position shows its table
    and rack. Bad input raises a :class:`~rummisolve.errors.RummisolveError` whose message names
    the bad part.
    """
    if not isinstance(obj, dict):
        raise JsonInputError(f"expected a position or a result object, got {json_type_name(obj)}")
    if "status" not in obj:
        return render_svg(position_from_json(obj, "position"))

    status = obj["status"]
    if status == "error":
        raise JsonInputError(f"status: cannot draw an error result ({obj.get('error', 'no message')})")
    if status not in STATUSES:
        raise JsonInputError(f"status: expected {', '.join(map(repr, STATUSES))} or 'error', got {status!r}")
    position = None
    if "position" in obj:
        position = position_from_json(obj["position"], "position")
        rules = position.rules
    else:
        rules = rules_from_json(obj.get("rules", "standard"), "rules")
    if "table" not in obj:
        raise JsonInputError("table: a result needs its table")
    table = table_from_json(obj["table"], "table", rules)
    melds = []
    for i, tiles in enumerate(table):
        try:
            melds.append(Meld.of(tiles, rules))
        except RummisolveError as err:
            raise with_path(f"table[{i}]", err) from None
    played = tiles_from_json(obj.get("played", []), "played", rules)
    rack_after = None
    if obj.get("rack_after") is not None:
        rack_after = tiles_from_json(obj["rack_after"], "rack_after", rules)
    elif position is not None:
        rack_after = position.rack_after(played)
    old: tuple[Meld, ...] | list[Meld]
    old = position.table if position is not None else melds[: _kept_count(obj.get("kept"), len(melds))]
    return render_result(status, melds, played, old_table=old, rack_after=rack_after, value=obj.get("value"))


def _kept_count(kept: Any, melds: int) -> int:
    """How many leading melds a result marks as kept unchanged (its ``kept`` list of old indices)."""
    if not isinstance(kept, list):
        return 0
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in kept) or len(kept) > melds:
        raise JsonInputError(f"kept: expected a list of at most {melds} meld indices, got {kept!r}")
    return len(kept)
