"""Xpress (the dice edition) at the terminal: one human against one AI, or two people taking turns at
one terminal (docs/cli.md, "Xpress"). The dice are rolled in the open, so both people see every die;
the seed, which decides every roll to come, is shown only when a game ends, and an undo never takes
back the other person's turn.

The human's turn starts with ``roll 1 3 5`` (positions in their dice list, or die names), ``roll all``
or ``keep``, once; then the tile game's table editing (:class:`~rummisolve.game.terminal.human.HumanPlayer`,
on the faces the dice show) and ``done``, or ``pass``. ``hint`` gives the best re-roll before the
roll and the best play after it.

``undo`` before the roll takes back the human's last play or pass and the AI's turn after it, back
to just after the roll of that turn: the roll stands. A roll's faces, once seen, are never taken
back: each die's rolls are fixed by the seed (its ``k``-th roll always shows the same face), so a
human who could undo a roll would know what every die shows next and choose the dice to roll by
it. After the roll (this turn's), ``undo`` is refused for the same reason.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence

from rummisolve.errors import IllegalMoveError, RummisolveError
from rummisolve.game.actions import Draw, Play
from rummisolve.game.kind import GameKind
from rummisolve.game.match import Match
from rummisolve.game.saves import read_save
from rummisolve.game.terminal.display import meld_text, table_text
from rummisolve.game.terminal.human import HumanPlayer, QuitGame, UndoRequest, read_line
from rummisolve.rules import RuleSet
from rummisolve.xpress.actions import XpressPlayer
from rummisolve.xpress.events import DicePlayEvent, PassEvent, RollEvent
from rummisolve.xpress.game import XpressGame
from rummisolve.xpress.players import XPRESS_AI_LEVELS, make_xpress_player
from rummisolve.xpress.runner import play_xpress_turn
from rummisolve.xpress.seeding import SEATS
from rummisolve.xpress.state import XpressView, die_number

__all__ = ["DiceHuman", "DICE_HELP", "ROLL_STANDS", "play_xpress"]

DICE_HELP = """Xpress: your turn starts with one roll (or none), then a play or a pass.
  roll 1 3 5 | roll D3 D11   re-roll these free dice (positions in your dice
                             list, or die names), once a turn, before playing
  roll all                   re-roll every free die
  keep                       roll none
  hint                       before the roll: the best re-roll; after it: the
                             best play
  undo                       before the roll: take back your last play or pass
                             (and the turn after it); that turn's roll stands
Then edit the table as in the tile game on the faces your dice show ('help'
after the roll lists the commands) and 'done', or 'pass' (also 'draw').
  t | table                  show the dice and the table again
  q | quit                   leave the game
"""


ROLL_STANDS = (
    "nothing undone: you have rolled this turn, and a roll you have seen stands (rolling again knowing"
    " the faces would be a cheat); 'reset' takes back your edits"
)


def dice_line(names: tuple[str, ...], faces: tuple, colour: bool) -> str:
    """Each die's position, name and face: ``1) D3:K5  2) D11:R7``."""
    if not names:
        return "(no dice left)"
    return "  ".join(f"{i}) {n}:{meld_text([f], colour)}" for i, (n, f) in enumerate(zip(names, faces), start=1))


class DiceHuman:
    """The human's whole Xpress turn: the roll at the start, then :class:`HumanPlayer`'s editing."""

    def __init__(
        self,
        game: XpressGame,
        colour: bool,
        input: Callable[[], str] | None = None,
        after_undo: Callable[[], None] | None = None,
        *,
        people: bool = False,
    ) -> None:
        self.game = game
        self.people = people
        """Two people at this terminal: an undo never takes back the other person's turn."""
        self.colour = colour
        self._read = input or read_line
        self.after_undo = after_undo
        """Called after an undo (the terminal saves the game)."""
        self.editor = HumanPlayer(input=self._editing_line, colour=colour, names=game.names, rack_name="your dice")

    def show(self, view: XpressView) -> None:
        names = self.game.names
        print(f"turn {view.turn + 1}; rounds without a play: {view.passes}")
        for seat in range(2):
            who = "your dice" if seat == view.seat else f"{names[seat]}'s dice"
            print(f"{who} ({len(view.hands[seat])}): {dice_line(view.hands[seat], view.racks[seat], self.colour)}")
        print(table_text(view.table, self.colour))

    def turn(self, seat: int) -> None:
        """Play ``seat``'s turn to its end (a play or a pass); :class:`QuitGame` when the human leaves."""
        game = self.game
        view = game.view(seat)
        if not view.rolled:
            self.show(view)
            print("roll: 'roll 1 3 5', 'roll all' or 'keep' ('hint' advises, 'help' lists the commands)")
            if self._roll_phase(seat) == "undone":
                return self.turn(seat)
            view = game.view(seat)
            print(f"your dice: {dice_line(view.dice, view.rack, self.colour)}")
        self.editor.seen(view.table)
        while True:
            view = game.view(seat)
            try:
                action = self.editor.choose(view)
            except UndoRequest:
                print(ROLL_STANDS)
                continue
            if isinstance(action, Draw):
                game.pass_turn()
                print("you pass")
                return
            assert isinstance(action, Play)
            try:
                event = game.play(action.table)
            except IllegalMoveError as err:
                self.editor.illegal(str(err), err.reasons)
                continue
            except RummisolveError as err:  # anything else the engine refuses: the game unchanged
                self.editor.illegal(str(err))
                continue
            print(f"you play {dice_faces(game, event.dice or ())}")
            return

    def undo(self, seat: int) -> bool:
        """Take back ``seat``'s last play or pass and the opponent's turn after it, back to just
        after that turn's roll (which stands: its faces have been seen); whether anything was undone."""
        game = self.game
        if not any(e.player == seat and not isinstance(e, RollEvent) for e in game.events):
            print("nothing to undo: you have not played a turn yet")
            return False
        if self.people and self._other_played_since(seat):
            print(
                f"nothing undone: that would take back {game.names[1 - seat]}'s turn (with two people at one"
                " terminal, a person may not replay a turn after seeing the next person's)"
            )
            return False
        others = False
        while True:
            event = game.undo()
            if event.player == seat and not isinstance(event, RollEvent):
                break
            others |= event.player != seat
        what = "pass" if isinstance(event, PassEvent) else "play"
        after = f" and {self.game.names[1 - seat]}'s turn after it" if others else ""
        rolled = game.view(seat).rolled
        print(
            f"took back your {what} of turn {game.state.turn + 1}{after}"
            + ("; your roll of that turn stands (you have seen what it shows): play again or 'pass'" if rolled else "")
        )
        if self.after_undo is not None:
            self.after_undo()
        self.editor.screen_cleared()  # that turn's edits are gone: its table is shown afresh
        if rolled:
            self.show(game.view(seat))
        return True

    def _other_played_since(self, seat: int) -> bool:
        """Whether the other seat has rolled, played or passed since ``seat``'s last play or pass."""
        for event in reversed(self.game.events):
            if event.player != seat:
                return True
            if not isinstance(event, RollEvent):
                return False
        return False

    def _roll_phase(self, seat: int) -> str:
        """Read commands until the roll (``"rolled"``) or an undo (``"undone"``)."""
        while True:
            line = self._line()
            words = line.split()
            word = words[0].lower() if words else ""
            view = self.game.view(seat)
            if word in ("q", "quit", "exit"):
                raise QuitGame("quit")
            if word in ("h", "help", "?"):
                print(DICE_HELP)
            elif word in ("t", "table"):
                self.show(view)
            elif word == "hint":
                print(reroll_hint(view))
            elif word == "undo":
                if self.undo(seat):
                    return "undone"
            elif word == "keep":
                self.game.roll([])
                print("you keep your dice")
                return "rolled"
            elif word == "roll":
                try:
                    dice = _dice_named(view, words[1:])
                    self.game.roll(dice)
                except RummisolveError as err:
                    print(str(err))
                    continue
                print(f"you roll {' '.join(dice)}")
                return "rolled"
            else:
                print(f"{line!r}: roll first ('roll 1 3 5', 'roll all' or 'keep')")

    def _line(self) -> str:
        try:
            return self._read().strip()
        except EOFError:
            raise QuitGame("input ended") from None

    def _editing_line(self) -> str:
        """A line for the editor after the roll: a second roll is refused, ``pass`` is a draw, ``hint`` the best play."""
        while True:
            line = self._read()
            words = line.split()
            word = words[0].lower() if words else ""
            if word in ("roll", "keep"):
                print("you have rolled this turn already: play ('done') or 'pass'")
                continue
            if word == "pass":
                return "draw"
            if word == "hint" and not self._can_play():
                print("hint: no play with these dice: pass")
                continue
            if word == "best":
                print("'best' is not offered in Xpress: 'hint' shows the best play")
                continue
            return line

    def _can_play(self) -> bool:
        from rummisolve.solver import solve

        return bool(solve(self.game.view().position))


def _dice_named(view: XpressView, words: list[str]) -> list[str]:
    """The dice ``roll`` names: ``all``, positions from 1 or die names; an error naming a bad one."""
    if not words:
        raise RummisolveError("say which dice to roll: 'roll 1 3 5', 'roll D3', 'roll all', or 'keep'")
    if len(words) == 1 and words[0].lower() == "all":
        return list(view.dice)
    dice: list[str] = []
    for word in words:
        if word.isdigit():
            if not 1 <= int(word) <= len(view.dice):
                raise RummisolveError(
                    f"no die at position {word}: you have {len(view.dice)} free dice (1 to {len(view.dice)})"
                )
            die = view.dice[int(word) - 1]
        elif word.upper() in view.dice:
            die = word.upper()
        else:
            raise RummisolveError(f"{word!r} is not one of your free dice ({' '.join(view.dice)})")
        if die in dice:
            raise RummisolveError(
                f"{word!r} names die {die} (position {view.dice.index(die) + 1}) a second time: name each die once"
            )
        dice.append(die)
    return dice


def reroll_hint(view: XpressView) -> str:
    """The best re-roll, against keeping every die."""
    from rummisolve.xpress.reroll import best_reroll

    advice = best_reroll(view.position, view.free_dice, "tiles", seed=view.turn)
    best = advice.best
    keep = next(o for o in advice.options if not o.dice)
    what = "keep all" if not best.dice else "roll " + " ".join(view.dice[i] for i in best.dice)
    return (
        f"hint: {what}: {best.expected.tiles:.2f} dice expected to play, "
        f"against {keep.expected.tiles:.2f} keeping all{'' if advice.exact else ' (sampled)'}"
    )


def play_xpress(args: argparse.Namespace, rules: RuleSet, kinds: list[str] | None, kind: GameKind) -> int:
    """``rummisolve play --rules xpress``: one human against one Xpress AI, or two people at this
    terminal, a match of ``--rounds`` games (:class:`~rummisolve.game.match.Match`; ``kind``:
    Xpress's); the exit status."""
    if args.watch:
        return _fail("--watch: not offered for Xpress (rummisolve tournament --rules xpress plays AIs)")
    colour = args.colour == "always" or (args.colour == "auto" and sys.stdout.isatty())
    try:
        if args.load:
            match = _load(kind, args.load)
            kinds = kinds or [_kind_of(n) for n in match.game.names]
        else:
            kinds = kinds or ["human", "medium"]
            _check_seats(kinds)
            match = Match(kind, SEATS, rules, args.seed, length=getattr(args, "rounds", 1), names=_names(kinds))
        _check_seats(kinds)
    except OSError as err:
        return _fail(f"--load: cannot read {args.load!r}: {err.strerror}")
    except RummisolveError as err:
        return _fail(str(err))
    people = kinds.count("human") == SEATS
    ais = {seat: make_xpress_player(k, seed=match.seed) for seat, k in enumerate(kinds) if k != "human"}
    if args.save and (problem := match.save_or_why(args.save)):
        return _fail(f"--save: {problem}")
    while True:
        game = match.game
        hands = {
            seat: DiceHuman(game, colour, after_undo=lambda: _save_quietly(match, args.save), people=people)
            for seat, k in enumerate(kinds)
            if k == "human"
        }
        # Two people: the seed stays hidden until the game ends (it decides every roll to come).
        seed = "the seed is shown when the game ends" if people else f"seed {game.seed}"
        print(f"rummisolve play: Xpress, {', '.join(game.names)}; {seed}; type 'help' for commands")
        while not game.finished:
            seat = game.current
            try:
                if seat in hands:
                    if people:
                        print(f"\n--- {game.names[seat]}'s turn ---")
                    hands[seat].turn(seat)
                else:
                    _ai_turn(game, ais[seat], seat, colour)
            except QuitGame as why:
                print(f"\nleaving the game ({why}){'; saved to ' + args.save if args.save else ''}")
                return 0
            _save_quietly(match, args.save)
        _final(game, colour)
        if people:
            print(f"(seed {game.seed})")
        if match.length is None or match.length == 1:
            return 0
        totals = match.totals()
        print("match totals: " + ", ".join(f"{name} {totals[s]:+d}" for s, name in enumerate(game.names)))
        if match.finished:
            return 0
        match.next_round()
        print(f"\ngame {len(match.rounds)} of {match.length}")


def _names(kinds: list[str]) -> list[str]:
    """One person is "you"; two are "player 1" and "player 2"; an AI is its level."""
    if kinds.count("human") == SEATS:
        return [f"player {s + 1}" for s in range(SEATS)]
    return [k if k != "human" else "you" for k in kinds]


def _kind_of(name: str) -> str:
    """The seat kind a saved game's name stands for (the names :func:`_names` gives)."""
    return "human" if name == "you" or re.fullmatch(r"player \d+", name) else name


def _load(kind: GameKind, path: str) -> Match:
    """A saved match, or a saved game (a match of that one game)."""
    saved = read_save(path)
    if isinstance(saved, dict) and saved.get("format") == kind.match_format:
        return Match.from_json(kind, saved)
    game = XpressGame.load(path)
    return Match(kind, SEATS, game.rules, game.seed, length=1, names=game.names, rounds=[game])


def _check_seats(kinds: list[str]) -> None:
    ais = [k for k in kinds if k != "human"]
    if len(kinds) != SEATS or "human" not in kinds or any(k not in XPRESS_AI_LEVELS for k in ais):
        raise RummisolveError(
            f"--players: Xpress at the terminal is one human against one AI ({', '.join(XPRESS_AI_LEVELS)}), "
            f"e.g. human,hard, or two people at this terminal (human,human); not {','.join(kinds)}"
        )


def _ai_turn(game: XpressGame, ai: XpressPlayer, seat: int, colour: bool) -> None:
    name = game.names[seat]
    info = play_xpress_turn(game, ai, name)
    if info.roll is None or not info.roll.dice:
        rolled = "keeps its dice"
    else:
        rolled = "rolls " + " ".join(f"{die}:{face}" for die, face in zip(info.roll.dice, info.roll.faces))
    if isinstance(info.event, DicePlayEvent):
        print(f"{name} {rolled}, plays {dice_faces(game, info.event.dice or ())}")
        print(table_text(game.state.table, colour))
    else:
        print(f"{name} {rolled}, passes")


def dice_faces(game: XpressGame, dice: Sequence[str]) -> str:
    """Dice by name with the faces they show: ``D1:O7 D2:J``."""
    return " ".join(f"{die}:{game.state.shown(die_number(die))}" for die in dice)


def _final(game: XpressGame, colour: bool) -> None:
    state, scores = game.state, game.scores()
    assert scores is not None
    how = "went out" if state.end_reason == "out" else "three rounds without a play"
    winner = "a draw" if state.winner is None else f"{game.names[state.winner]} wins"
    print(f"\nthe game is over ({how}), after {state.turn} turns: {winner}")
    for seat, name in enumerate(game.names):
        view = game.view(seat)
        print(f"  {name:<8} {scores[seat]:+5d}   dice: {dice_line(view.dice, view.rack, colour)}")


def _save_quietly(match: Match, path: str | None) -> None:
    """Save after a turn or an undo (a failure is told on stderr; the game goes on)."""
    if path and (problem := match.save_or_why(path)):
        print(f"rummisolve play: error: the game is not saved: {problem}", file=sys.stderr)


def _fail(message: str) -> int:
    print(f"rummisolve play: error: {message}", file=sys.stderr)
    return 2
