"""``rummisolve render [FILE|-] [--rules RULES]``: an SVG picture of a position or a result (JSON) on stdout."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rummisolve.commands._io import read_text, rules_option
from rummisolve.commands._notation import (
    add_position_options,
    conflicting_input,
    input_file,
    notation_position,
    uses_notation,
)

HELP = "Draw a position or a solve result (JSON, or --table/--rack in notation) as SVG."


def configure(parser: argparse.ArgumentParser) -> None:
    add_position_options(parser, file_help="JSON position or result (default: - for standard input)")
    parser.add_argument("-o", "--output", default="-", help="where to write the SVG (default: - for stdout)")
    parser.epilog = (
        "--rules applies to a document that carries none (a result of 'rummisolve solve' carries its own); "
        '--opened/--not-opened do not change a picture. Or in notation: --table "R1 R2 R3" --rack "R4 J".'
    )


def run(args: argparse.Namespace) -> int:
    from rummisolve.errors import RummisolveError
    from rummisolve.jsonio import error_message
    from rummisolve.service import render_json

    if conflicting_input(args, "render"):
        return 2
    rules = None
    name: str | None = None  # the input's name, once read: a position's errors name it
    try:
        if uses_notation(args):
            document: Any = notation_position(args)
        else:
            if args.rules is not None:
                rules = rules_option(args.rules)
            name, document = _read_document(input_file(args))
        if isinstance(document, Exception):
            raise document
        svg = render_json(document, rules=rules)
    except _Unreadable as err:
        print(f"rummisolve render: {err}", file=sys.stderr)
        return 1
    except (RummisolveError, RecursionError) as err:  # RecursionError: absurdly nested values
        where = "" if name is None else f"{name}: "
        print(f"rummisolve render: {where}{error_message(err)}", file=sys.stderr)
        return 1
    if args.output == "-":
        sys.stdout.write(svg)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(svg)
    except OSError as err:
        print(f"rummisolve render: cannot write {args.output}: {err}", file=sys.stderr)
        return 1
    return 0


class _Unreadable(Exception):
    """The input cannot be read, or is not one JSON document; the message says so."""


def _read_document(path: str) -> tuple[str, Any]:
    """The one JSON document of a file (``-``: standard input) and the input's name."""
    from rummisolve.jsonio import read_documents

    name = "standard input" if path == "-" else path
    text, problem = read_text(path)
    if text is None:
        raise _Unreadable(problem)
    try:
        documents = list(read_documents(text))
    except (ValueError, RecursionError) as err:  # JSON that Python cannot decode (huge numbers, deep nesting)
        raise _Unreadable(f"{name}: not decodable JSON ({type(err).__name__}: {str(err)[:80]})") from None
    if len(documents) != 1:
        raise _Unreadable(f"{name}: expected one JSON document, found {len(documents)}")
    return name, documents[0]
