"""``rummisolve verify [FILE|-]``: referee turns given as JSON (one object or JSON Lines)."""

from __future__ import annotations

import argparse

from rummisolve.commands._io import UnreadableInput, add_max_line_bytes, input_lines, json_line

HELP = "Referee turns: is each {position, table} (JSON or JSON Lines) a legal move, and if not, why."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        help='JSON object or JSON Lines, each {"position": {...}, "table": [[...], ...]} (default: - for stdin)',
    )
    add_max_line_bytes(parser)
    parser.epilog = (
        'Prints one line per input, in order: {"legal": true|false, "reasons": [...], "played": [...]} '
        'or {"error": "..."}. Exit status 1 if any input was an error (not for illegal moves), else 0.'
    )


def run(args: argparse.Namespace) -> int:
    from rummisolve.jsonio import error_message, stream_documents
    from rummisolve.service import verify_json

    status = 0
    try:
        for document in stream_documents(input_lines(args.file, args.max_line_bytes), args.max_line_bytes):
            if isinstance(document, Exception):
                result = {"error": error_message(document)}
            else:
                try:
                    result = verify_json(document)
                except Exception as err:  # never a traceback: report and go on with the next input
                    result = {"error": f"internal error: {error_message(err)}"}
            if "error" in result:
                status = 1
            print(json_line(result), flush=True)
    except UnreadableInput as err:
        print(json_line({"error": str(err)}), flush=True)
        return 1
    return status
