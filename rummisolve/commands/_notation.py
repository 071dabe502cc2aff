"""A position written in notation on the command line: ``--table "R1 R2 R3 | K7 B7 O7" --rack "R4 J"``.

``solve``, ``verify`` and ``render`` take these options instead of a JSON file; ``--rules`` and
``--opened``/``--not-opened`` also override the positions of a JSON input. Notation is checked here,
so that an error names the option (``--rack: tile 'R14': numbers run from 1 to 13``), then the
position goes on as JSON, answered exactly as the same position in a file.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rummisolve.commands._io import rules_option
from rummisolve.errors import RummisolveError
from rummisolve.jsonio import position_to_json, with_path
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import Tile, split_melds


def add_position_options(parser: argparse.ArgumentParser, *, file_help: str) -> None:
    """The ``file`` argument and the notation options of a command that reads positions."""
    parser.add_argument("file", nargs="?", default=None, help=file_help)
    group = parser.add_argument_group("a position in notation, instead of a FILE")
    group.add_argument(
        "--table",
        metavar="MELDS",
        help='the table\'s melds, tiles separated by spaces, melds by "|": "R1 R2 R3 | K7 B7 O7"',
    )
    group.add_argument("--rack", metavar="TILES", help='the rack\'s tiles: "R4 J"')
    group.add_argument(
        "--rules",
        metavar="RULES",
        help="a preset (standard, official, xp, twist, xpress) or a JSON object of options"
        " (with a FILE: overrides each position's)",
    )
    opened = group.add_mutually_exclusive_group()
    opened.add_argument(
        "--opened",
        dest="opened",
        action="store_const",
        const=True,
        default=None,
        help="the player has made the initial meld (the default; with a FILE: overrides each position's)",
    )
    opened.add_argument(
        "--not-opened",
        dest="opened",
        action="store_const",
        const=False,
        help="the player has not made the initial meld yet (with a FILE: overrides each position's)",
    )


def uses_notation(args: argparse.Namespace) -> bool:
    """Whether the position comes from ``--table``/``--rack`` rather than a file."""
    return args.table is not None or args.rack is not None


def conflicting_input(args: argparse.Namespace, command: str) -> bool:
    """Whether both a FILE and ``--table``/``--rack`` were given (said on standard error: exit status 2)."""
    if uses_notation(args) and args.file is not None:
        print(f"rummisolve {command}: give a FILE or --table/--rack, not both", file=sys.stderr)
        return True
    return False


def input_file(args: argparse.Namespace) -> str:
    """The file of positions to read: ``-`` (standard input) unless one was named."""
    return "-" if args.file is None else args.file


def position_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The fields ``--rules`` and ``--opened``/``--not-opened`` set on every position (JSON values)."""
    overrides: dict[str, Any] = {}
    if args.rules is not None:
        overrides["rules"] = _rules_json(args.rules)
    if args.opened is not None:
        overrides["opened"] = args.opened
    return overrides


def notation_position(args: argparse.Namespace) -> dict[str, Any]:
    """The JSON position that ``--table``, ``--rack``, ``--rules`` and ``--opened`` describe.

    Raises a :class:`~rummisolve.errors.RummisolveError` of the kind at fault (a
    :class:`~rummisolve.errors.TileNotationError`, an :class:`~rummisolve.errors.InvalidMeldError`, ...)
    whose message names the option."""
    overrides = position_overrides(args)
    rules = rules_option(args.rules) if args.rules is not None else STANDARD
    melds = table_option("--table", args.table or "", rules)
    rack = tiles_option("--rack", args.rack or "", rules)
    try:
        position = Position(melds, rack, overrides.get("opened", True), rules)
    except RummisolveError as err:
        raise with_path("--table/--rack", err) from None
    obj = position_to_json(position)
    if args.rules is None:
        del obj["rules"]  # the default, as in a JSON position without rules
    return obj


def new_table_json(text: str, rules_text: str | None) -> list[list[str]]:
    """``--new-table`` as the JSON table of a verify request: its tiles must exist under the rules,
    and the referee judges its melds (an invalid one is a reason, not an error)."""
    rules = rules_option(rules_text) if rules_text is not None else STANDARD
    return [[str(tile) for tile in tiles_option("--new-table", part, rules)] for part in split_melds(text)]


def tiles_option(option: str, text: str, rules: RuleSet) -> tuple[Tile, ...]:
    """The tiles of ``text`` (spaces or commas between them), each one these rules have."""
    tiles = []
    for code in text.replace(",", " ").split():
        try:
            tiles.append(rules.check_tile(Tile.parse(code)))
        except RummisolveError as err:
            raise with_path(option, err) from None
    return tuple(tiles)


def table_option(option: str, text: str, rules: RuleSet) -> tuple[Meld, ...]:
    """The melds of ``text`` (``"R1 R2 R3 | K7 B7 O7"``), each a valid meld under these rules."""
    melds = []
    for number, part in enumerate(split_melds(text), start=1):
        tiles = tiles_option(option, part, rules)
        try:
            melds.append(Meld.of(tiles, rules))
        except RummisolveError as err:
            raise with_path(f"{option}, meld {number}", err) from None
    return tuple(melds)


def _rules_json(text: str) -> Any:
    """``--rules`` as the JSON value a position carries (checked: a bad value names ``--rules``)."""
    rules_option(text)  # a RuleSetError naming --rules
    text = text.strip()
    return json.loads(text) if text.startswith("{") else text
