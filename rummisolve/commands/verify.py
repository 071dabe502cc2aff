"""``rummisolve verify [FILE|-]``: referee turns given as JSON (one object or JSON Lines)."""

from __future__ import annotations

import argparse
from typing import Any

from rummisolve.commands._io import UnreadableInput, add_max_line_bytes, input_lines, json_line
from rummisolve.commands._notation import (
    add_position_options,
    conflicting_input,
    input_file,
    new_table_json,
    notation_position,
    position_overrides,
    uses_notation,
)
from rummisolve.errors import OptionError, RummisolveError

HELP = "Referee turns: is each {position, table} (JSON, JSON Lines, or --table/--rack/--new-table) a legal move, and if not, why."


def configure(parser: argparse.ArgumentParser) -> None:
    add_position_options(
        parser,
        file_help='JSON object or JSON Lines, each {"position": {...}, "table": [[...], ...]} (default: - for stdin)',
    )
    parser.add_argument(
        "--new-table",
        metavar="MELDS",
        help='with --table/--rack: the table after the turn, in notation ("R1 R2 R3 R4 | K7 B7 O7")',
    )
    add_max_line_bytes(parser)
    parser.epilog = (
        'Or in notation: --table "R1 R2 R3" --rack "R4 K9" --new-table "R1 R2 R3 R4". Prints one line per input, in order: {"legal": true|false, "reasons": [...], "played": [...]} '
        'or {"error": "..."}. Exit status 1 if any input was an error (not for illegal moves), else 0.'
    )


def run(args: argparse.Namespace) -> int:
    from rummisolve.jsonio import error_message, stream_documents
    from rummisolve.service import verify_json

    if conflicting_input(args, "verify"):
        return 2
    try:
        overrides = position_overrides(args)
        documents = (
            [_notation_turn(args)]
            if uses_notation(args) or args.new_table is not None
            else stream_documents(input_lines(input_file(args), args.max_line_bytes), args.max_line_bytes)
        )
    except RummisolveError as err:
        print(json_line({"error": str(err)}), flush=True)
        return 1
    status = 0
    try:
        for document in documents:
            if isinstance(document, Exception):
                result = {"error": error_message(document)}
            else:
                try:
                    result = verify_json(_with_overrides(document, overrides))
                except Exception as err:  # never a traceback: report and go on with the next input
                    result = {"error": f"internal error: {error_message(err)}"}
            if "error" in result:
                status = 1
            print(json_line(result), flush=True)
    except UnreadableInput as err:
        print(json_line({"error": str(err)}), flush=True)
        return 1
    return status


def _notation_turn(args: argparse.Namespace) -> dict[str, Any]:
    """The turn ``--table``, ``--rack`` and ``--new-table`` describe, as a verify request."""
    if args.new_table is None or not uses_notation(args):
        raise OptionError("--new-table goes with --table/--rack: give all three (or a FILE)")
    position = notation_position(args)
    return {"position": position, "table": new_table_json(args.new_table, args.rules)}


def _with_overrides(document: Any, overrides: dict[str, Any]) -> Any:
    """A request whose position takes ``--rules`` and ``--opened`` (a document that is not one is left alone)."""
    if overrides and isinstance(document, dict) and isinstance(document.get("position"), dict):
        return {**document, "position": {**document["position"], **overrides}}
    return document
