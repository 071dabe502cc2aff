"""``rummisolve play``: play against AIs (or watch them) in the terminal, with coloured tiles."""

from __future__ import annotations

import argparse
import sys
import time

from rummisolve.commands._io import THINK, number_option
from rummisolve.game.players import PLAYER_KINDS

HELP = "Play Rummikub against AI players in the terminal, or watch AIs play (--watch)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        default=None,
        help=f"comma-separated seats: {', '.join(PLAYER_KINDS)} (default human,medium; with --watch medium,hard)",
    )
    parser.add_argument("--watch", action="store_true", help="only AIs play; show every turn")
    parser.add_argument("--seed", type=int, default=None, help="deal seed (default: random, printed)")
    parser.add_argument(
        "--rules", default="standard", help="rules preset (standard, xp, twist) or a JSON object of options"
    )
    parser.add_argument("--colour", "--color", choices=("auto", "always", "never"), default="auto")
    parser.add_argument(
        "--think", type=THINK, default=None, metavar="SECONDS", help="the expert's budget per move (default 0.5)"
    )
    parser.add_argument("--delay", type=_delay, default=0.0, help="seconds to pause after each AI turn")
    parser.add_argument("--load", metavar="FILE", help="continue a saved game (its players and rules)")
    parser.add_argument("--save", metavar="FILE", help="save the game to FILE after every turn")


def _fail(message: str) -> int:
    print(f"rummisolve play: error: {message}", file=sys.stderr)
    return 2


def _seat_names(kinds: list[str]) -> list[str]:
    names = []
    for seat, kind in enumerate(kinds):
        name = "you" if kind == "human" else kind
        if kinds.count(kind) > 1:
            name = f"{name}#{kinds[: seat + 1].count(kind)}"
        names.append(name)
    return names


_delay = number_option(float, "a number of seconds", 0, 3600)
"""A ``--delay`` value: seconds from 0 to 3600."""


def run(args: argparse.Namespace) -> int:
    from rummisolve.commands._io import rules_option
    from rummisolve.errors import RummisolveError

    spec = args.players if args.players is not None else ("medium,hard" if args.watch else "human,medium")
    kinds = [k.strip().lower() for k in spec.split(",") if k.strip()]
    if not kinds:
        return _fail(f"--players: no players in {spec!r}")
    bad = [k for k in kinds if k not in PLAYER_KINDS]
    if bad:
        return _fail(f"--players: unknown player {bad[0]!r} (choose from {', '.join(PLAYER_KINDS)})")
    if args.watch and "human" in kinds:
        return _fail("--watch is for AI players only; remove 'human' from --players")
    try:
        rules = rules_option(args.rules)
    except RummisolveError as err:
        return _fail(str(err))
    from rummisolve.solver_limits import unsupported_rules

    if (unsupported := unsupported_rules(rules)) is not None:  # the AI players (and hints) solve
        return _fail(f"--rules: {unsupported}")
    colour = args.colour == "always" or (args.colour == "auto" and sys.stdout.isatty())

    from rummisolve.game.engine import Game

    try:
        if args.load:
            game = Game.load(args.load)
            if game.names and len(game.names) == game.players and args.players is None:
                kinds = ["human" if n == "you" or n.startswith("you#") else n.split("#")[0] for n in game.names]
            if len(kinds) != game.players:
                return _fail(f"--players: {len(kinds)} players given; the saved game has {game.players}")
        else:
            game = Game(len(kinds), rules, args.seed, names=_seat_names(kinds))
    except OSError as err:
        return _fail(f"--load: cannot read {args.load!r}: {err.strerror}")
    except RummisolveError as err:
        return _fail(str(err))
    if args.save and (problem := _save(game, args.save)) is not None:  # before the game: fail early
        return _fail(f"--save: {problem}")
    return _loop(game, kinds, args, colour)


def _save(game, path: str) -> str | None:
    """Save ``game`` to ``path``; ``None`` if saved, else why not (naming the path)."""
    try:
        game.save(path)
    except OSError as err:
        return f"cannot write {path!r}: {err.strerror or err}"
    return None


def _says(name: str, human: bool, you: str, other: str) -> str:
    """``name`` and the verb that agrees with it: a human is spoken to ("you play"), an AI about ("medium plays")."""
    return f"{name} {you if human else other}"


def _loop(game, kinds: list[str], args: argparse.Namespace, colour: bool) -> int:
    from collections import Counter

    from rummisolve.errors import IllegalMoveError
    from rummisolve.game.actions import Draw, Play
    from rummisolve.game.events import DrawEvent, PlayEvent
    from rummisolve.game.players import make_player
    from rummisolve.game.runner import play_turn
    from rummisolve.game.terminal.display import marked_table_text, meld_text, table_text
    from rummisolve.game.terminal.human import HumanPlayer, QuitGame, UndoRequest

    names = list(game.names)
    players = [
        HumanPlayer(colour=colour, names=tuple(names))
        if kind == "human"
        else make_player(kind, seed=(game.deal.seed or 0) + seat, think=args.think)
        for seat, kind in enumerate(kinds)
    ]
    humans = [p for p in players if isinstance(p, HumanPlayer)]
    discard_rule = game.rules.discard
    print(
        f"rummisolve play: {', '.join(names)}; seed {game.deal.seed}"
        + ("; discard rule" if discard_rule else "")
        + (": end every turn with 'discard TILE'" if discard_rule and not args.watch else "")
        + ("" if args.watch else "; type 'help' for commands")
    )
    unsaved: str | None = None  # why the last save failed

    def save() -> None:
        nonlocal unsaved
        if args.save:
            problem = _save(game, args.save)
            if problem is not None and problem != unsaved:
                print(f"rummisolve play: error: the game is not saved: {problem}", file=sys.stderr)
            unsaved = problem

    def saved_note() -> str:
        if not args.save:
            return ""
        return f"; saved to {args.save}" if unsaved is None else f"; NOT saved ({unsaved})"

    while not game.finished:
        seat = game.current
        player = players[seat]
        name = names[seat]
        human = isinstance(player, HumanPlayer)
        before = game.state
        try:
            if discard_rule:  # a turn of one or two actions, ending with a discard
                info = play_turn(game, player, name)
            else:
                action = player.choose(game.view(seat))
        except QuitGame as why:
            save()
            print(f"\nleaving the game ({why}){saved_note()}")
            return 0 if unsaved is None else 1
        except UndoRequest:
            if not any(e.player == seat for e in game.events):
                print("nothing to undo: you have not played a turn yet")
                continue
            while game.can_undo:
                undone = game.undo()
                if undone.player == seat and not (discard_rule and isinstance(undone, DrawEvent)):
                    break  # a whole turn of this seat (a draw mid-turn is only its start)
            print("took back your last turn")
            save()
            continue
        if discard_rule:
            _tell_discard_turn(info, before, name, human, colour)
            if isinstance(info.event, PlayEvent) and not human:
                print(marked_table_text(game.state.table, before.table, colour))
                for other in humans:
                    other.seen(game.state.table)
            save()
            if not human and args.delay > 0:
                time.sleep(args.delay)
            continue
        if isinstance(action, Play):
            try:
                event = game.play(action.table)
            except IllegalMoveError as err:
                if human:
                    player.illegal(str(err), err.reasons)
                    continue
                print(f"{name} tries an illegal move ({err}); it draws instead")
                event = game.draw()
        elif isinstance(action, Draw):
            event = game.draw()
        else:
            print(f"{name} returned {action!r}; it draws instead")
            event = game.draw()
        if isinstance(event, PlayEvent):
            played = Counter(t for m in event.table for t in m) - Counter(before.table_tiles)
            print(f"{_says(name, human, 'play', 'plays')} {meld_text(sorted(played.elements()), colour)}")
            if not human:
                print(marked_table_text(game.state.table, before.table, colour))
                for other in humans:
                    other.seen(game.state.table)
        elif isinstance(event, DrawEvent):
            if event.tile is None:
                print(f"{_says(name, human, 'pass', 'passes')} (the pool is empty)")
            elif human:
                print(f"{_says(name, human, 'draw', 'draws')} {meld_text([event.tile], colour)}")
            else:
                print(f"{_says(name, human, 'draw', 'draws')}")
        else:
            print(f"{name} ran out of time: the table is restored and {len(event.tiles)} penalty tiles drawn")
        save()
        if not human and args.delay > 0:
            time.sleep(args.delay)

    state = game.state
    scores = game.scores()
    human = kinds[state.winner] == "human"
    if state.end_reason == "out":
        how = "went out (discarded the last tile)" if discard_rule else "went out"
    else:
        how = f"{'have' if human else 'has'} the lowest rack (the pool ran out)"
    print(f"\n{_says(names[state.winner], human, 'win', 'wins')}: {how}, after {state.turn} turns{saved_note()}")
    print(table_text(state.table, colour))
    for seat, name in enumerate(names):
        rack = meld_text(state.racks[seat], colour) or "(empty)"
        print(f"  {name:<10} {scores[seat]:+5d}   rack: {rack}")
    return 0 if unsaved is None else 1


def _tell_discard_turn(info, before, name: str, human: bool, colour: bool) -> None:
    """One line for a turn under the discard rule: the draw, the play and the discard."""
    from collections import Counter

    from rummisolve.game.events import DiscardEvent, PlayEvent
    from rummisolve.game.terminal.display import meld_text

    parts = []
    if info.illegal:
        parts.append(f"tried an illegal move ({info.illegal}) and forfeits the turn")
    if info.draw is not None:
        if info.draw.source == "pool":
            drawn = f" {meld_text([info.draw.tile], colour)}" if human and info.draw.tile is not None else ""
            parts.append(f"{'draw' if human else 'draws'}{drawn} from the pool")
        else:
            parts.append(f"{'take' if human else 'takes'} {meld_text([info.draw.tile], colour)} from the discard pile")
    event = info.event
    if isinstance(event, PlayEvent):
        played = sorted((Counter(t for m in event.table for t in m) - Counter(before.table_tiles)).elements())
        parts.append(
            f"{'play' if human else 'plays'} {meld_text(played, colour)}, "
            f"{'discard' if human else 'discards'} {meld_text([event.discard], colour)}"
        )
    elif isinstance(event, DiscardEvent):
        parts.append(f"{'discard' if human else 'discards'} {meld_text([event.tile], colour)}")
    else:
        parts.append(
            f"{'run' if human else 'runs'} out of time and {'draw' if human else 'draws'} {len(event.tiles)} penalty tiles"
        )
    print(f"{name} {', '.join(parts)}")
