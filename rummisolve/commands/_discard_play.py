"""``rummisolve play`` under the discard rule, until the terminal player learns it.

``commands/play.py`` and the terminal human (``game/human.py``, ``game/display.py``) know only
the normal turn. Under ``{"discard": true}`` (given with ``--rules`` or read from a ``--load``
file) this module answers instead: a human seat is refused with a one-line message (exit 2),
and ``--watch`` plays the AIs through the engine's discard-rule turns, one line per turn. Any
other game, or input ``play`` reports errors for, goes to ``commands/play.py`` unchanged.
"""

from __future__ import annotations

import argparse
import sys
import time

__all__ = ["run", "REFUSAL"]

REFUSAL = "the discard variant is not playable in the terminal yet; watch AIs with --watch"


def run(args: argparse.Namespace) -> int:
    from rummisolve.commands import play

    found = _discard_game(args)
    if found is None:
        return play.run(args)
    kinds, game = found
    if "human" in kinds:
        where = "--load" if args.load else "--rules"
        print(f"rummisolve play: error: {where}: {REFUSAL}", file=sys.stderr)
        return 2
    return _watch(args, kinds, game)


def _discard_game(args: argparse.Namespace):
    """``(seat kinds, game)`` when the game to play uses the discard rule, else ``None`` (also for
    any input that ``play`` itself reports as an error)."""
    from rummisolve.commands._io import rules_option
    from rummisolve.errors import RummisolveError
    from rummisolve.game.players import PLAYER_KINDS
    from rummisolve.solver_limits import unsupported_rules

    spec = args.players if args.players is not None else ("medium,hard" if args.watch else "human,medium")
    kinds = [k.strip().lower() for k in spec.split(",") if k.strip()]
    if not kinds or any(k not in PLAYER_KINDS for k in kinds) or (args.watch and "human" in kinds):
        return None
    from rummisolve.game.engine import Game

    try:
        if args.load:
            game = Game.load(args.load)
            if not game.rules.discard:
                return None
            if game.names and len(game.names) == game.players and args.players is None:
                kinds = ["human" if n == "you" or n.startswith("you#") else n.split("#")[0] for n in game.names]
            if len(kinds) != game.players or unsupported_rules(game.rules) is not None:
                return None
            return kinds, game
        rules = rules_option(args.rules)
        if not rules.discard or unsupported_rules(rules) is not None:
            return None
        if "human" in kinds:
            return kinds, None
        return kinds, Game(len(kinds), rules, args.seed, names=_names(kinds))
    except (OSError, RummisolveError):
        return None


def _names(kinds: list[str]) -> list[str]:
    return [
        kind if kinds.count(kind) == 1 else f"{kind}#{kinds[: seat + 1].count(kind)}" for seat, kind in enumerate(kinds)
    ]


def _watch(args: argparse.Namespace, kinds: list[str], game) -> int:
    from rummisolve.game.display import meld_text, table_text
    from rummisolve.game.events import DiscardEvent, PlayEvent
    from rummisolve.game.players import make_player
    from rummisolve.game.runner import play_turn

    colour = args.colour == "always" or (args.colour == "auto" and sys.stdout.isatty())
    names = list(game.names)
    players = [make_player(kind, seed=(game.deal.seed or 0) + seat) for seat, kind in enumerate(kinds)]
    top = game.state.discard_top
    print(
        f"rummisolve play: {', '.join(names)}; seed {game.deal.seed}; discard rule"
        + (f"; the discard pile shows {meld_text([top], colour)}" if top is not None else "")
    )
    while not game.finished:
        seat = game.current
        before = game.state
        info = play_turn(game, players[seat], names[seat])
        parts = []
        if info.illegal:
            parts.append(f"tried an illegal move ({info.illegal}) and forfeits the turn")
        if info.draw is not None:
            taken = meld_text([info.draw.tile], colour)
            parts.append(
                "draws from the pool" if info.draw.source == "pool" else f"takes {taken} from the discard pile"
            )
        event = info.event
        if isinstance(event, PlayEvent):
            played = _played(before.table_tiles, event.table)
            parts.append(f"plays {meld_text(played, colour)}, discards {meld_text([event.discard], colour)}")
        elif isinstance(event, DiscardEvent):
            parts.append(f"discards {meld_text([event.tile], colour)}")
        else:
            parts.append(f"ran out of time and draws {len(event.tiles)} penalty tiles")
        print(f"{names[seat]} {', '.join(parts)}")
        if isinstance(event, PlayEvent):
            print(table_text(game.state.table, colour))
        if args.save:
            try:
                game.save(args.save)
            except OSError as err:
                print(f"warning: cannot save to {args.save!r}: {err.strerror}", file=sys.stderr)
        if args.delay > 0:
            time.sleep(args.delay)

    state = game.state
    scores = game.scores()
    how = (
        "went out (discarded the last tile)" if state.end_reason == "out" else "has the lowest rack (the pool ran out)"
    )
    print(f"\n{names[state.winner]} wins: {how}, after {state.turn} turns")
    print(table_text(state.table, colour))
    for seat, name in enumerate(names):
        rack = meld_text(state.racks[seat], colour) or "(empty)"
        print(f"  {name:<10} {scores[seat]:+5d}   rack: {rack}")
    return 0


def _played(before, table) -> list:
    from collections import Counter

    return sorted((Counter(t for meld in table for t in meld) - Counter(before)).elements())
