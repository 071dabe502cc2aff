"""``rummisolve solve [FILE|-]``: the best move for positions given as JSON (one object or JSON Lines)."""

from __future__ import annotations

import argparse

from rummisolve.commands._io import UnreadableInput, input_lines, json_line

HELP = "Find the best move for each position (JSON or JSON Lines) and prove it optimal."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", nargs="?", default="-", help="JSON position or JSON Lines of positions (default: - for stdin)"
    )
    parser.add_argument(
        "--objective",
        choices=("tiles", "value"),
        help="override each position's objective: most tiles played, or most points shed",
    )
    parser.add_argument(
        "--time-limit", type=_seconds, metavar="SECONDS", help="override each position's time limit (inf: none)"
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help='add how to play each move, step by step ("explain": true on each position: meld_map and steps)',
    )
    parser.add_argument("--text", action="store_true", help="print a readable table instead of JSON lines")
    parser.epilog = (
        'Position: {"rules": "standard", "table": [["R1","R2","R3"]], "rack": ["R4","J"], "opened": true, '
        '"objective": "tiles"}. Prints one result line per position, in order; a bad position gets '
        '{"status": "error", "error": "..."}. Exit status 1 if any position was an error, else 0.'
    )


def _seconds(text: str) -> float:
    """A ``--time-limit`` value: a positive number of seconds (``inf`` for none)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not value > 0:  # also NaN
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    import rummisolve.solver  # noqa: F401 (loads OR-Tools now: a missing or old one is one message, not a line each)
    from rummisolve.jsonio import error_message, stream_documents
    from rummisolve.service import solve_json

    status = 0
    try:
        for document in stream_documents(input_lines(args.file)):
            if isinstance(document, Exception):
                result = {"status": "error", "error": error_message(document)}
            else:
                if isinstance(document, dict):
                    if args.objective is not None:
                        document = {**document, "objective": args.objective}
                    if args.time_limit is not None:
                        document = {**document, "time_limit": args.time_limit}
                    if args.explain:
                        document = {**document, "explain": True}
                try:
                    result = solve_json(document)
                except Exception as err:  # never a traceback: report it and answer the next position
                    result = {"status": "error", "error": f"internal error: {error_message(err)}"}
            if result["status"] == "error":
                status = 1
            print(_text(result) if args.text else json_line(result), flush=True)
    except UnreadableInput as err:
        print(json_line({"status": "error", "error": str(err)}), flush=True)
        return 1
    return status


def _text(result: dict) -> str:
    if result["status"] == "error":
        return f"error: {result['error']}"
    if result["status"] == "no_move":
        return "no move (proven): draw a tile"
    if result["status"] == "unknown":
        return "unknown: the time limit ran out before any move was found (not a proof that there is none)"
    lines = [f"{result['status']}: play {' '.join(result['played'])} ({result['value']} points)"]
    lines += ["  " + " ".join(meld) for meld in result["table"]]
    if "steps" in result:
        from rummisolve.explain import numbered

        lines.append("steps:")
        lines += ["  " + line for line in numbered([step["text"] for step in result["steps"]])]
    return "\n".join(lines)
