"""``rummisolve verify [FILE|-]``: referee turns given as JSON (one object or JSON Lines)."""

from __future__ import annotations

import argparse
import sys

HELP = "Referee turns: is each {position, table} (JSON or JSON Lines) a legal move, and if not, why."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        help='JSON object or JSON Lines, each {"position": {...}, "table": [[...], ...]} (default: - for stdin)',
    )
    parser.epilog = (
        'Prints one line per input, in order: {"legal": true|false, "reasons": [...], "played": [...]} '
        'or {"error": "..."}. Exit status 1 if any input was an error (not for illegal moves), else 0.'
    )


def _line(obj: dict) -> str:
    import json

    return json.dumps(obj, separators=(",", ":"))


def run(args: argparse.Namespace) -> int:
    from rummisolve.jsonio import error_message, read_documents, verify_json

    name = "standard input" if args.file == "-" else args.file
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as err:
        print(_line({"error": f"cannot read {name}: {err}"}), flush=True)
        return 1
    status = 0
    for document in read_documents(text):
        if isinstance(document, Exception):
            result = {"error": error_message(document)}
        else:
            try:
                result = verify_json(document)
            except Exception as err:  # never a traceback: report and go on with the next input
                result = {"error": f"internal error: {error_message(err)}"}
        if "error" in result:
            status = 1
        print(_line(result), flush=True)
    return status
