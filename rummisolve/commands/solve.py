"""``rummisolve solve [FILE|-]``: the best move for positions given as JSON (one object or JSON Lines)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from contextlib import closing
from typing import Any

from rummisolve.commands._io import UnreadableInput, add_max_line_bytes, input_lines, json_line, number_option
from rummisolve.commands._notation import (
    add_position_options,
    conflicting_input,
    input_file,
    notation_position,
    position_overrides,
    uses_notation,
)
from rummisolve.errors import RummisolveError
from rummisolve.jsonio import MAX_ALTERNATIVES

HELP = "Find the best move for each position (JSON, JSON Lines, or --table/--rack in notation) and prove it optimal."


def configure(parser: argparse.ArgumentParser) -> None:
    add_position_options(parser, file_help="JSON position or JSON Lines of positions (default: - for stdin)")
    parser.add_argument(
        "--objective",
        choices=("tiles", "value"),
        help="override each position's objective: most tiles played, or most points shed",
    )
    parser.add_argument(
        "--time-limit", type=_seconds, metavar="SECONDS", help="override each position's time limit (inf: none)"
    )
    parser.add_argument(
        "--alternatives",
        type=_count,
        metavar="N",
        help="also list up to N further moves (0-10), each the best that plays a tile the moves above it do not",
    )
    parser.add_argument(
        "--alternatives-mode",
        choices=("not_contained", "distinct"),
        help="override what an alternative is: not_contained (the default: plays a tile the moves above "
        "do not) or distinct (plays other tiles)",
    )
    parser.add_argument(
        "--workers",
        type=_workers,
        default=1,
        metavar="N",
        help="solve in N processes (default 1); answers stay in input order, at most a few dozen lines behind the input",
    )
    add_max_line_bytes(parser)
    parser.add_argument(
        "--explain",
        action="store_true",
        help='add how to play each move, step by step ("explain": true on each position: meld_map and steps)',
    )
    parser.add_argument(
        "--hint",
        type=int,
        choices=(1, 2, 3),
        metavar="LEVEL",
        help="answer with a hint only: 1 the tiles to play, 2 also the melds touched, 3 the whole move with steps",
    )
    parser.add_argument(
        "--reroll-max-solves",
        type=_solves,
        metavar="N",
        help="Xpress: the best re-roll's budget in solves (1-1000000, default 1200) for each position asking for it",
    )
    parser.add_argument(
        "--reroll-time-limit",
        type=_seconds,
        metavar="SECONDS",
        help="Xpress: stop the best re-roll's race after SECONDS (inf: never) for each position asking for it",
    )
    parser.add_argument("--text", action="store_true", help="print a readable table instead of JSON lines")
    parser.epilog = (
        'Position: {"rules": "standard", "table": [["R1","R2","R3"]], "rack": ["R4","J"], "opened": true, '
        '"objective": "tiles"}, or in notation: --table "R1 R2 R3" --rack "R4 J". Prints one result line per position, in order; a bad position gets '
        '{"status": "error", "error": "..."}. Exit status 1 if any position was an error, else 0; '
        "1 with a message on stderr if standard output cannot be written, 141 (quietly) if it is a closed pipe, "
        "130 on Ctrl-C."
    )


_count = number_option(int, "a whole number", 0, MAX_ALTERNATIVES)
"""An ``--alternatives`` value: a whole number from 0 to 10."""
_workers = number_option(int, "a whole number", 1, float("inf"))
"""A ``--workers`` value: a whole number of at least 1."""
_solves = number_option(int, "a whole number of solves", 1, 1_000_000)
"""A ``--reroll-max-solves`` value, 1 to :data:`rummisolve.xpress.reroll_json.MAX_REROLL_SOLVES`
(not imported here: the command line stays quick to load; a test checks they agree)."""
_seconds = number_option(float, "a number of seconds", 0, float("inf"), inclusive_low=False)
"""A ``--time-limit`` value: a positive number of seconds (``inf`` for none)."""


def run(args: argparse.Namespace) -> int:
    import rummisolve.solver  # noqa: F401 (loads OR-Tools now: a missing or old one is one message, not a line each)
    from rummisolve.batch import ordered_map
    from rummisolve.jsonio import stream_documents

    overrides = {
        name: value
        for name, value in (
            ("objective", args.objective),
            ("time_limit", args.time_limit),
            ("alternatives", args.alternatives),
            ("alternatives_mode", args.alternatives_mode),
            ("explain", True if args.explain else None),
            ("hint", args.hint),
        )
        if value is not None
    }
    reroll = {
        name: value
        for name, value in (
            ("reroll_max_solves", args.reroll_max_solves),
            ("reroll_time_limit", args.reroll_time_limit),
        )
        if value is not None
    }
    if conflicting_input(args, "solve"):
        return 2
    try:
        overrides.update(position_overrides(args))
        documents: Iterable[Any] = (
            [notation_position(args)]
            if uses_notation(args)
            else stream_documents(input_lines(input_file(args), args.max_line_bytes), args.max_line_bytes)
        )
    except RummisolveError as err:
        error = {"status": "error", "error": str(err)}
        print(_text(error) if args.text else json_line(error), flush=True)
        return 1
    status = 0
    jobs = (_job(document, overrides, reroll) for document in documents)
    try:
        # closing: an early end (Ctrl-C, a failing output) kills the workers before it is reported
        with closing(ordered_map(answer, jobs, args.workers)) as results:
            for result in results:
                if result["status"] == "error":
                    status = 1
                print(_text(result) if args.text else json_line(result), flush=True)
    except UnreadableInput as err:
        print(json_line({"status": "error", "error": str(err)}), flush=True)
        return 1
    return status


def _job(
    document: Any, overrides: dict[str, Any], reroll: dict[str, Any] | None = None
) -> dict[str, Any] | tuple[str, Any]:
    """What to answer for one input: its result already (a line that is not JSON), or the position
    with the command line's overrides (``reroll``: the re-roll's budget, for a position asking for it)."""
    from rummisolve.jsonio import error_message

    if isinstance(document, Exception):
        return {"status": "error", "error": error_message(document)}
    if isinstance(document, dict) and reroll and document.get("reroll", False) is not False:
        overrides = {**overrides, **reroll}
    if isinstance(document, dict) and overrides:
        return ("solve", {**document, **overrides})
    return ("solve", document)


def answer(job: dict[str, Any] | tuple[str, Any]) -> dict[str, Any]:
    """The result line of one job (module level: worker processes run it by name)."""
    from rummisolve.jsonio import error_message
    from rummisolve.service import solve_json

    if isinstance(job, dict):
        return job
    try:
        return solve_json(job[1])
    except Exception as err:  # never a traceback: report it and answer the next position
        return {"status": "error", "error": f"internal error: {error_message(err)}"}


def _text(result: dict) -> str:
    """A result in words; a result with an ``id`` starts with it (``id 7: optimal: play ...``)."""
    text = _answer_text(result)
    return f"id {json.dumps(result['id'])}: {text}" if "id" in result else text


def _answer_text(result: dict) -> str:
    if result["status"] == "error":
        return f"error: {result['error']}"
    if result["status"] == "no_move":
        return "no move (proven): draw a tile"
    if result["status"] == "unknown":
        return "unknown: the time limit ran out before any move was found (not a proof that there is none)"
    if "hint" in result:
        return f"hint: {result['hint']['text']}"
    rules = result.get("rules", "standard")
    lines = _move_text(f"{result['status']}: play", result, rules)
    for number, move in enumerate(result.get("alternatives", ()), start=1):
        lines += _move_text(f"alternative {number}: play", move, rules)
    return "\n".join(lines)


def _points(move: dict, rules: Any) -> str:
    """The points a move sheds, saying what a joker counts, and its initial meld's value (a joker
    there counts the number it stands for): ``50 points, a joker counting 30; initial meld worth 30``."""
    text = f"{move['value']} points"
    if any(code.upper().startswith("J") for code in move["played"]):
        from rummisolve.jsonio import rules_from_json

        text += f", a joker counting {rules_from_json(rules).joker_penalty}"
    if "initial_meld_value" in move:
        text += f"; initial meld worth {move['initial_meld_value']}"
    return text


def _move_text(head: str, move: dict, rules: Any) -> list[str]:
    """A move's lines: what it plays, its table, and its steps when explained."""
    lines = [f"{head} {' '.join(move['played'])} ({_points(move, rules)})"]
    lines += ["  " + " ".join(meld) for meld in move["table"]]
    if "steps" in move:
        from rummisolve.explain import numbered

        lines.append("  steps:")
        lines += ["    " + line for line in numbered([step["text"] for step in move["steps"]])]
    return lines
