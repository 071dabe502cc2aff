"""``rummisolve play``: play in the terminal, with coloured tiles, against AIs or other people at
the same keyboard (each person's turn behind a pass screen: :mod:`rummisolve.game.terminal.hotseat`),
or watch AIs play."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from rummisolve.commands._io import THINK, number_option
from rummisolve.game.players import PLAYER_KINDS

if TYPE_CHECKING:
    from rummisolve.game.kind import GameKind

HELP = "Play Rummikub in the terminal against AI players or people at the same keyboard, or watch AIs play (--watch)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        default=None,
        help=f"comma-separated seats: {', '.join(PLAYER_KINDS)} (default human,medium; with --watch "
        "medium,hard); several humans take turns at this terminal, each behind a pass screen",
    )
    parser.add_argument("--watch", action="store_true", help="only AIs play; show every turn")
    parser.add_argument("--seed", type=int, default=None, help="deal seed (default: random, printed)")
    parser.add_argument(
        "--rules",
        default="standard",
        help="rules preset (standard, official, xp, twist, xpress) or a JSON object of options",
    )
    parser.add_argument("--colour", "--color", choices=("auto", "always", "never"), default="auto")
    parser.add_argument(
        "--think", type=THINK, default=None, metavar="SECONDS", help="the expert's budget per move (default 0.5)"
    )
    parser.add_argument("--delay", type=_delay, default=0.0, help="seconds to pause after each AI turn")
    parser.add_argument(
        "--rounds", type=_rounds, default=1, help="rounds of the match (the first seat moves on each round; default 1)"
    )
    parser.add_argument("--load", metavar="FILE", help="continue a saved game (its players and rules)")
    parser.add_argument("--save", metavar="FILE", help="save the game to FILE after every turn")


def _fail(message: str) -> int:
    print(f"rummisolve play: error: {message}", file=sys.stderr)
    return 2


_delay = number_option(float, "a number of seconds", 0, 3600)
"""A ``--delay`` value: seconds from 0 to 3600."""
_rounds = number_option(int, "a number of rounds", 1, 1000)
"""A ``--rounds`` value: 1 to 1000."""


def run(args: argparse.Namespace) -> int:
    from rummisolve.commands._io import rules_option
    from rummisolve.errors import RummisolveError
    from rummisolve.kinds import kind_of

    kinds = None
    if args.players is not None:
        kinds = [k.strip().lower() for k in args.players.split(",") if k.strip()]
        if not kinds:
            return _fail(f"--players: no players in {args.players!r}")
    try:
        rules = rules_option(args.rules)
    except RummisolveError as err:
        return _fail(str(err))
    kind = _kind_of_save(args.load) if args.load else None
    return (kind or kind_of(rules)).play_in_terminal(args, rules, kinds)


def _kind_of_save(path: str) -> GameKind | None:
    """The kind of the saved game at ``path`` (``None``: unreadable; loading it then says why)."""
    from rummisolve.errors import RummisolveError
    from rummisolve.game.saves import read_save
    from rummisolve.kinds import kind_of_save

    try:
        return kind_of_save(read_save(path))
    except (OSError, RummisolveError):
        return None
