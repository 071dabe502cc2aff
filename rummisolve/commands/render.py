"""``rummisolve render [FILE|-] [--rules RULES]``: an SVG picture of a position or a result (JSON) on stdout."""

from __future__ import annotations

import argparse
import sys

from rummisolve.commands._io import read_text, rules_option

HELP = "Draw a position or a solve result (JSON) as SVG."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default="-", help="JSON position or result (default: - for standard input)")
    parser.add_argument("-o", "--output", default="-", help="where to write the SVG (default: - for stdout)")
    parser.add_argument(
        "--rules",
        help="rules preset (standard, xp, twist) or a JSON object of options, for a document that carries none "
        "(a result of 'rummisolve solve' carries its own)",
    )


def run(args: argparse.Namespace) -> int:
    from rummisolve.errors import RummisolveError
    from rummisolve.jsonio import error_message, read_documents
    from rummisolve.service import render_json

    rules = None
    if args.rules is not None:
        try:
            rules = rules_option(args.rules)
        except RummisolveError as err:
            print(f"rummisolve render: {err}", file=sys.stderr)
            return 1
    name = "standard input" if args.file == "-" else args.file
    text, problem = read_text(args.file)
    if text is None:
        print(f"rummisolve render: {problem}", file=sys.stderr)
        return 1
    try:
        documents = list(read_documents(text))
    except (ValueError, RecursionError) as err:  # JSON that Python cannot decode (huge numbers, deep nesting)
        print(f"rummisolve render: {name}: not decodable JSON ({type(err).__name__}: {str(err)[:80]})", file=sys.stderr)
        return 1
    if len(documents) != 1:
        print(f"rummisolve render: {name}: expected one JSON document, found {len(documents)}", file=sys.stderr)
        return 1
    document = documents[0]
    try:
        if isinstance(document, Exception):
            raise document
        svg = render_json(document, rules=rules)
    except (RummisolveError, RecursionError) as err:  # RecursionError: absurdly nested values
        print(f"rummisolve render: {name}: {error_message(err)}", file=sys.stderr)
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
