"""``rummisolve tournament``: AI self-play over mirrored deals, with a summary and optional per-turn log."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from rummisolve.commands._io import THINK
from rummisolve.game.players import AI_LEVELS

if TYPE_CHECKING:
    from rummisolve.rules import RuleSet

HELP = "Play AI players against each other over mirrored deals and summarise wins (95% CIs), scores, turns"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        default="hard,medium",
        help=f"comma-separated AI levels, one per seat: {', '.join(AI_LEVELS)} (xpress: easy, medium, hard)",
    )
    parser.add_argument("--games", type=int, default=100, help="games to play (rounded up to whole rotations)")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (every deal derives from it)")
    parser.add_argument(
        "--rules",
        default="standard",
        help="rules preset (standard, official, xp, twist, xpress) or a JSON object of options",
    )
    parser.add_argument(
        "--think", type=THINK, default=None, metavar="SECONDS", help="the expert's budget per move (default 0.5)"
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--log", metavar="FILE", help="write one JSON line per turn to FILE")
    parser.add_argument("--workers", type=int, default=None, help="local worker processes (default: CPU count)")
    parser.add_argument("--ray", metavar="ADDRESS", help="run on a Ray cluster ('auto', 'ray://host:port', 'local')")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def _fail(message: str) -> int:
    print(f"rummisolve tournament: error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from rummisolve.commands._io import rules_option
    from rummisolve.errors import RummisolveError

    try:
        rules = rules_option(args.rules)
    except RummisolveError as err:
        return _fail(str(err))
    from rummisolve.kinds import kind_of

    kind = kind_of(rules)
    levels = kind.ai_levels
    kinds = [k.strip().lower() for k in args.players.split(",") if k.strip()]
    bad = [k for k in kinds if k not in levels]
    if bad:
        return _fail(f"--players: unknown AI level of {kind.title} {bad[0]!r} (choose from {', '.join(levels)})")
    from rummisolve.solver_limits import unsupported_rules

    if (unsupported := unsupported_rules(rules)) is not None:  # the AI players (and hints) solve
        return _fail(f"--rules: {unsupported}")
    if not rules.min_players <= len(kinds) <= rules.max_players:
        return _fail(f"--players: {len(kinds)} players; these rules allow {rules.min_players} to {rules.max_players}")
    if args.games < 1:
        return _fail(f"--games must be at least 1, not {args.games}")
    if args.workers is not None and args.workers < 1:
        return _fail(f"--workers must be at least 1, not {args.workers}")
    games = -(-args.games // len(kinds)) * len(kinds)
    if games != args.games:
        print(f"note: playing {games} games (whole rotations of {len(kinds)} seats)", file=sys.stderr)

    from rummisolve.errors import UnavailableError
    from rummisolve.game.tournament import format_summary, run_tournament

    log_file = None
    if args.log:
        try:
            log_file = open(args.log, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as err:
            return _fail(f"--log: cannot write {args.log!r}: {err.strerror}")
    bar = _progress(games, disabled=args.no_progress)

    def on_game(result: dict) -> None:
        if log_file is not None:
            for line in result["log"]:
                log_file.write(json.dumps(line) + "\n")
        if bar is not None:
            bar.update(1)

    try:
        summary = run_tournament(
            kinds,
            games,
            args.seed,
            rules,
            workers=args.workers,
            ray_address=args.ray,
            on_game=on_game,
            log=bool(log_file),
            think=args.think,
            kind=kind,
        )
    except (UnavailableError, RummisolveError) as err:  # no Ray or no worker processes; rules the set cannot deal
        return _fail(str(err))
    finally:
        if bar is not None:
            bar.close()
        if log_file is not None:
            log_file.close()
    summary["seed"] = args.seed
    if args.think is not None:
        summary["think"] = args.think
    summary["rules"] = json.loads(json.dumps(_rules_json(rules)))
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(format_summary(summary))
    return 0


def _rules_json(rules: RuleSet) -> str | dict[str, Any]:
    from rummisolve.jsonio import rules_to_json

    return rules_to_json(rules)


def _progress(total: int, disabled: bool) -> Any:  # a tqdm progress bar, or None
    if disabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # the progress bar is a nicety; the tournament runs without it
        return None
    return tqdm(total=total, unit="game", file=sys.stderr, disable=None, dynamic_ncols=True)
