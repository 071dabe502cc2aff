"""``rummisolve analyse GAME_LOG``: one player's turns judged against the solver and the expert AI."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rummisolve.commands._io import THINK, number_option

HELP = "Analyse a game log turn by turn: the move played, the solver's best, the expert's choice, mistakes"

_WORLDS = number_option(int, "a whole number of worlds", 1, 10_000)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "log",
        metavar="GAME_LOG",
        help="a saved game (play --save, or a game downloaded from the web app), an engine log, or a tournament --log file",
    )
    parser.add_argument(
        "--player", default=None, help="the seat number or name to analyse (default: the human's seat, else seat 0)"
    )
    parser.add_argument(
        "--round",
        type=number_option(int, "a round number", 0, 10_000),
        default=None,
        help="which round of a web app download (default: its last)",
    )
    parser.add_argument(
        "--game", type=int, default=None, help="which game of a tournament --log file (default: the first)"
    )
    parser.add_argument(
        "--think", type=THINK, default=None, metavar="SECONDS", help="the expert's budget per turn (default 0.5)"
    )
    parser.add_argument(
        "--worlds", type=_WORLDS, default=None, help="the expert's sampled worlds per turn (overrides --think)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the expert's seed")
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")


def _fail(message: str) -> int:
    print(f"rummisolve analyse: error: {message}", file=sys.stderr)
    return 2


def _read_log(path: str) -> Any:
    """The log as JSON: one document (a saved game or engine log), else JSON Lines (tournament)."""
    from rummisolve.commands._io import read_text
    from rummisolve.errors import JsonInputError

    text, problem = read_text(path)
    if problem is not None:
        raise JsonInputError(problem)
    assert text is not None  # read
    try:
        return json.loads(text)
    except ValueError:
        pass
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            lines.append(json.loads(line))
        except ValueError as err:
            raise JsonInputError(f"{path}: line {number} is not JSON ({err.__class__.__name__})") from None
    if not lines:
        raise JsonInputError(f"{path}: empty")
    return lines


def run(args: argparse.Namespace) -> int:
    from rummisolve.errors import RummisolveError

    try:
        log = _read_log(args.log)
        from rummisolve.game.analysis import analyse_game, format_analysis

        player = args.player
        if player is not None and player.isdigit():
            player = int(player)
        analysis = analyse_game(
            log, player, game=args.game, think=args.think, worlds=args.worlds, seed=args.seed, round=args.round
        )
    except RummisolveError as err:
        return _fail(str(err))
    if args.json:
        print(json.dumps(analysis.to_json(), indent=2))
    else:
        print(format_analysis(analysis))
    return 0
