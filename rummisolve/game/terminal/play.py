"""The tile game at the terminal (``rummisolve play``): against AIs, with other people at the same
keyboard (each person's turn behind a pass screen: :mod:`rummisolve.game.terminal.hotseat`), or AIs
watched; a match of ``--rounds`` rounds (:class:`~rummisolve.game.match.Match`: the first seat moves
on by one each round, the scores added up)."""

from __future__ import annotations

import argparse
import re
import sys
import time
from typing import TYPE_CHECKING, cast

from rummisolve.game.kind import GameKind
from rummisolve.game.match import Match
from rummisolve.game.players import PLAYER_KINDS

if TYPE_CHECKING:
    from rummisolve.game.actions import Action, Player
    from rummisolve.game.events import Event, TimeoutEvent
    from rummisolve.game.runner import TurnInfo
    from rummisolve.game.state import GameState
    from rummisolve.game.terminal.hotseat import HotSeat
    from rummisolve.game.terminal.human import HumanPlayer
    from rummisolve.rules import RuleSet
    from rummisolve.tiles import Tile

__all__ = ["play_tiles"]


def _fail(message: str) -> int:
    print(f"rummisolve play: error: {message}", file=sys.stderr)
    return 2


def _seat_names(kinds: list[str]) -> list[str]:
    """One human is "you"; several (a hot-seat game) are "player 1", "player 2", ...; an AI is its
    level ("medium", or "medium#1", "medium#2" when there are several)."""
    names = []
    for seat, kind in enumerate(kinds):
        number = kinds[: seat + 1].count(kind)
        if kind == "human":
            name = f"player {number}" if kinds.count(kind) > 1 else "you"
        else:
            name = f"{kind}#{number}" if kinds.count(kind) > 1 else kind
        names.append(name)
    return names


def _kind_of(name: str) -> str:
    """The seat kind a saved game's name stands for (the names :func:`_seat_names` gives)."""
    if name == "you" or name.startswith("you#") or re.fullmatch(r"player \d+", name):
        return "human"
    return name.split("#")[0]


def play_tiles(args: argparse.Namespace, rules: RuleSet, kinds: list[str] | None, kind: GameKind) -> int:
    """``rummisolve play`` of the tile game (``kinds``: the ``--players`` given, or ``None``; ``kind``:
    the tile game's); the exit status."""
    from rummisolve.errors import RummisolveError
    from rummisolve.solver_limits import unsupported_rules

    if kinds is None:
        kinds = ["medium", "hard"] if args.watch else ["human", "medium"]
    bad = [k for k in kinds if k not in PLAYER_KINDS]
    if bad:
        return _fail(f"--players: unknown player {bad[0]!r} (choose from {', '.join(PLAYER_KINDS)})")
    if args.watch and "human" in kinds:
        return _fail("--watch is for AI players only; remove 'human' from --players")
    if (unsupported := unsupported_rules(rules)) is not None:  # the AI players (and hints) solve
        return _fail(f"--rules: {unsupported}")
    colour = args.colour == "always" or (args.colour == "auto" and sys.stdout.isatty())
    given = args.players is not None
    try:
        match = (
            _load(kind, args.load)
            if args.load
            else Match(kind, len(kinds), rules, args.seed, length=args.rounds, names=_seat_names(kinds))
        )
        game = match.game
        if args.load:
            if game.names and len(game.names) == game.players and not given:
                kinds = [_kind_of(n) for n in game.names]
            if len(kinds) != game.players:
                return _fail(f"--players: {len(kinds)} players given; the saved game has {game.players}")
    except OSError as err:
        return _fail(f"--load: cannot read {args.load!r}: {err.strerror}")
    except RummisolveError as err:
        return _fail(str(err))
    if args.save and (problem := match.save_or_why(args.save)) is not None:  # before the game: fail early
        return _fail(f"--save: {problem}")
    while (status := _loop(match, kinds, args, colour)) is None:  # another round follows
        match.next_round()
        print(f"\nround {len(match.rounds)} of {match.length}")
    return status


def _load(kind: GameKind, path: str) -> Match:
    """A saved match, or a saved round (a match of that one round)."""
    from rummisolve.game.engine import Game
    from rummisolve.game.saves import read_save

    saved = read_save(path)
    if isinstance(saved, dict) and saved.get("format") == kind.match_format:
        return Match.from_json(kind, saved)
    game = Game.load(path)
    return Match(kind, game.players, game.rules, game.deal.seed, length=1, names=game.names, rounds=[game])


def _says(name: str, human: bool, you: str, other: str) -> str:
    """``name`` and the verb that agrees with it: a human is spoken to ("you play"), an AI about ("medium plays")."""
    return f"{name} {you if human else other}"


def _loop(match: Match, kinds: list[str], args: argparse.Namespace, colour: bool) -> int | None:
    """Play the match's round to its end at the terminal; ``None`` if another round follows, else
    the exit status (1 if the last save failed)."""
    from rummisolve.game.terminal.human import QuitGame, UndoRequest

    game = match.game
    table = _Terminal(match, kinds, args, colour)
    table.announce()
    while not game.finished:
        seat = game.current
        try:
            table.before_turn(seat)
            before = game.state
            if table.discard_rule:  # a turn of one or two actions, ending with a discard
                table.after_discard_turn(seat, before, table.play_discard_turn(seat))
            else:
                table.after_turn(seat, before, table.players[seat].choose(game.view(seat)))
        except QuitGame as why:
            table.save()
            print(f"\nleaving the game ({why}){table.saved_note()}")
            return 0 if table.unsaved is None else 1
        except UndoRequest:
            table.undo(seat)
    table.final_scores()
    if match.length is not None and match.length > 1:
        totals = match.totals()
        print("match totals: " + ", ".join(f"{name} {totals[s]:+d}" for s, name in enumerate(table.names)))
        if len(match.rounds) < match.length:
            return None
    return 0 if table.unsaved is None else 1


class _Terminal:
    """A game at the terminal: its players, what is printed after each turn, and its saves."""

    def __init__(self, match: Match, kinds: list[str], args: argparse.Namespace, colour: bool) -> None:
        from rummisolve.game.players import make_player
        from rummisolve.game.terminal.human import HumanPlayer

        self.match = match
        self.game = game = match.game
        self.kinds = kinds
        self.args = args
        self.colour = colour
        self.names = list(game.names)
        self.players: list[Player] = [
            HumanPlayer(colour=colour, names=tuple(self.names))
            if kind == "human"
            else make_player(kind, seed=(game.deal.seed or 0) + seat, think=args.think)
            for seat, kind in enumerate(kinds)
        ]
        self.humans = [p for p in self.players if isinstance(p, HumanPlayer)]
        self.discard_rule = game.rules.discard
        self.unsaved: str | None = None
        """Why the last save failed (``None``: saved, or nothing to save to)."""
        self.hotseat: HotSeat | None = None
        """Several humans: the pass screens between their turns."""
        if len(self.humans) > 1:
            from rummisolve.game.terminal.hotseat import HotSeat

            self.hotseat = HotSeat(game, self.names, colour, tty=sys.stdout.isatty())

    def is_human(self, seat: int) -> bool:
        return self.kinds[seat] == "human"

    def spoken_to(self, seat: int) -> bool:
        """Whether lines naming ``seat`` speak to it ("you win"): the one human of a game, "you"."""
        return self.is_human(seat) and self.hotseat is None and self.names[seat] == "you"

    def mover(self, seat: int) -> str:
        """The name for the lines after ``seat``'s own turn, on its own screen ("you" for a human)."""
        return "you" if self.is_human(seat) else self.names[seat]

    def announce(self) -> None:
        """The game's first line; in a hot-seat game it heads the first pass screen, without the
        seed (anyone knowing it could deal the racks again: it is shown when the round ends)."""
        args, rule = self.args, self.discard_rule
        line = (
            f"rummisolve play: {', '.join(self.names)}; "
            + ("the seed is shown when the round ends" if self.hotseat else f"seed {self.game.deal.seed}")
            + ("; discard rule" if rule else "")
            + (": end every turn with 'discard TILE'" if rule and not args.watch else "")
            + ("" if args.watch else "; type 'help' for commands")
        )
        if self.hotseat is not None:
            self.hotseat.banner = line
        else:
            print(line)

    def before_turn(self, seat: int) -> None:
        """In a hot-seat game, the pass screen before each human's turn (unless it goes on)."""
        if self.hotseat is not None and self.is_human(seat):
            self.hotseat.hand_to(seat, cast("HumanPlayer", self.players[seat]))

    def save(self) -> None:
        if self.args.save:
            problem = self.match.save_or_why(self.args.save)
            if problem is not None and problem != self.unsaved:
                print(f"rummisolve play: error: the game is not saved: {problem}", file=sys.stderr)
            self.unsaved = problem

    def saved_note(self) -> str:
        if not self.args.save:
            return ""
        return f"; saved to {self.args.save}" if self.unsaved is None else f"; NOT saved ({self.unsaved})"

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s last whole turn (and every turn after it)."""
        from rummisolve.game.events import DrawEvent

        game = self.game
        if not any(e.player == seat for e in game.events):
            print("nothing to undo: you have not played a turn yet")
            return
        blocked = self._other_person_after(seat)
        if blocked is not None:
            print(
                f"nothing undone: that would take back {blocked}'s turn (with several people at one"
                " terminal, a person may not replay a turn after seeing the next person's)"
            )
            return
        others: list[str] = []  # the seats whose turns after it are taken back too
        while game.can_undo:
            undone = game.undo()
            if undone.player == seat and not (self.discard_rule and isinstance(undone, DrawEvent)):
                break  # a whole turn of this seat (a draw mid-turn is only its start)
            if undone.player != seat and self.names[undone.player] not in others:
                others.insert(0, self.names[undone.player])
        if self.hotseat is not None and others:
            print(f"took back your last turn and the turns after it ({', '.join(others)}: they play again)")
        else:
            print("took back your last turn")
        self.save()

    def _other_person_after(self, seat: int) -> str | None:
        """The name of another person (a human seat) whose turn came after ``seat``'s last one in
        the history that :meth:`undo` would take back, or ``None`` (AI turns after it are replayed)."""
        if self.hotseat is None:
            return None
        game = self.game
        for event in reversed(game.events):
            if event.player == seat:
                return None
            if self.is_human(event.player):
                return self.names[event.player]
        return None

    def play_discard_turn(self, seat: int) -> TurnInfo:
        from rummisolve.game.runner import play_turn

        return play_turn(self.game, self.players[seat], self.names[seat])

    def after_discard_turn(self, seat: int, before: GameState, info: TurnInfo) -> None:
        from rummisolve.game.events import PlayEvent

        human = self.is_human(seat)
        _tell_discard_turn(info, before, self.mover(seat), human, self.colour)
        if isinstance(info.event, PlayEvent) and not human:
            self.show_table(before)
        self.end_of_turn(human)

    def after_turn(self, seat: int, before: GameState, action: Action) -> None:
        """Apply ``action`` of ``seat`` (an illegal one: a human edits on, an AI draws) and tell it."""
        from rummisolve.errors import IllegalMoveError
        from rummisolve.game.actions import Draw, Play

        game, name, human = self.game, self.mover(seat), self.is_human(seat)
        if isinstance(action, Play):
            try:
                event = game.play(action.table)
            except IllegalMoveError as err:
                if human:
                    cast("HumanPlayer", self.players[seat]).illegal(str(err), err.reasons)
                    return
                print(f"{name} tries an illegal move ({err}); it draws instead")
                event = game.draw()
        elif isinstance(action, Draw):
            event = game.draw()
        else:
            print(f"{name} returned {action!r}; it draws instead")
            event = game.draw()
        self.tell(event, before, name, human)
        self.end_of_turn(human)

    def tell(self, event: Event, before: GameState, name: str, human: bool) -> None:
        from collections import Counter

        from rummisolve.game.events import DrawEvent, PlayEvent
        from rummisolve.game.terminal.display import meld_text

        colour = self.colour
        if isinstance(event, PlayEvent):
            played = Counter(t for m in event.table for t in m) - Counter(before.table_tiles)
            print(f"{_says(name, human, 'play', 'plays')} {meld_text(sorted(played.elements()), colour)}")
            if not human:
                self.show_table(before)
        elif isinstance(event, DrawEvent):
            if event.tile is None:
                print(f"{_says(name, human, 'pass', 'passes')} (the pool is empty)")
            elif human:
                print(f"{_says(name, human, 'draw', 'draws')} {meld_text([event.tile], colour)}")
            else:
                print(f"{_says(name, human, 'draw', 'draws')}")
        else:  # a timeout (no discard without the discard rule)
            tiles = cast("TimeoutEvent", event).tiles
            print(f"{name} ran out of time: the table is restored and {len(tiles)} penalty tiles drawn")

    def show_table(self, before: GameState) -> None:
        """The table after an AI's play, its changes marked; every human has now seen it."""
        from rummisolve.game.terminal.display import marked_table_text

        print(marked_table_text(self.game.state.table, before.table, self.colour))
        for other in self.humans:
            other.seen(self.game.state.table)

    def end_of_turn(self, human: bool) -> None:
        self.save()
        if not human and self.args.delay > 0:
            time.sleep(self.args.delay)

    def final_scores(self) -> None:
        from rummisolve.game.terminal.display import meld_text, table_text

        state, colour = self.game.state, self.colour
        scores = self.game.scores()
        assert state.winner is not None and scores is not None  # the round is over
        human = self.spoken_to(state.winner)
        if state.end_reason == "out":
            how = "went out (discarded the last tile)" if self.discard_rule else "went out"
        else:
            how = f"{'have' if human else 'has'} the lowest rack (the pool ran out)"
        winner = _says(self.names[state.winner], human, "win", "wins")
        if self.hotseat is not None and self.hotseat.banner is not None:  # a round over when loaded
            print(self.hotseat.banner)
        seed = f" (seed {self.game.deal.seed})" if self.hotseat is not None else ""
        print(f"\n{winner}: {how}, after {state.turn} turns{seed}{self.saved_note()}")
        print(table_text(state.table, colour))
        for seat, name in enumerate(self.names):
            rack = meld_text(state.racks[seat], colour) or "(empty)"
            print(f"  {name:<10} {scores[seat]:+5d}   rack: {rack}")


def _tell_discard_turn(info: TurnInfo, before: GameState, name: str, human: bool, colour: bool) -> None:
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
            top = cast("Tile", info.draw.tile)  # the discard pile's top
            parts.append(f"{'take' if human else 'takes'} {meld_text([top], colour)} from the discard pile")
    event = info.event
    if isinstance(event, PlayEvent):
        played = sorted((Counter(t for m in event.table for t in m) - Counter(before.table_tiles)).elements())
        discarded = cast("Tile", event.discard)  # the discard rule's discard
        parts.append(
            f"{'play' if human else 'plays'} {meld_text(played, colour)}, "
            f"{'discard' if human else 'discards'} {meld_text([discarded], colour)}"
        )
    elif isinstance(event, DiscardEvent):
        parts.append(f"{'discard' if human else 'discards'} {meld_text([event.tile], colour)}")
    else:
        parts.append(
            f"{'run' if human else 'runs'} out of time and {'draw' if human else 'draws'} {len(event.tiles)} penalty tiles"
        )
    print(f"{name} {', '.join(parts)}")
