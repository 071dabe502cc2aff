"""A human player at the terminal: reads commands, shows the view, never lets bad input crash the game."""

from __future__ import annotations

import sys
from collections.abc import Callable

from rummisolve.errors import RummisolveError
from rummisolve.game.actions import Action, Draw, Play
from rummisolve.game.display import meld_text, view_text
from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld
from rummisolve.tiles import parse_tiles, split_melds

__all__ = ["HumanPlayer", "QuitGame", "UndoRequest", "HELP_TEXT"]

HELP_TEXT = """commands:
  d | draw                 draw a tile (ends your turn)
  + R5 R6 R7 | K9 B9 O9    add new melds from your rack to the table
  = MELD | MELD | ...      give the whole new table (rearrange freely)
  hint                     show the solver's best move
  best                     play the solver's best move
  t | table                show the table and your rack again
  undo                     take back your last turn (and the turns after it)
  help                     this text
  q | quit                 leave the game"""


class QuitGame(Exception):
    """The human left (``quit`` or end of input)."""


class UndoRequest(Exception):
    """The human asked to take back their last turn."""


class HumanPlayer:
    """Prompts on ``output`` and reads lines from ``input``; illegal plays are explained by the engine."""

    name = "you"

    def __init__(
        self,
        input: Callable[[], str] | None = None,
        output: Callable[[str], None] | None = None,
        colour: bool = False,
        names: tuple[str, ...] = (),
    ) -> None:
        self._input = input or _read_line
        self._print = output or (lambda text: print(text, flush=True))
        self.colour = colour
        self.names = names

    def choose(self, view: PlayerView) -> Action:
        names = self.names or tuple(f"player {s + 1}" for s in range(view.players))
        self._print(view_text(view, names, self.colour))
        while True:
            try:
                line = self._input()
            except EOFError:
                raise QuitGame("input ended") from None
            action = self._parse(line.strip(), view)
            if action is not None:
                return action

    def illegal(self, message: str) -> None:
        """Tell the human why the engine rejected their play."""
        self._print(f"not allowed: {message}")

    def _parse(self, line: str, view: PlayerView) -> Action | None:
        if not line:
            self._print("type a command ('help' lists them)")
            return None
        word = line.split()[0].lower()
        if word in ("q", "quit", "exit"):
            raise QuitGame("quit")
        if word == "undo":
            raise UndoRequest
        if word in ("d", "draw"):
            return Draw()
        if word in ("h", "help", "?"):
            self._print(HELP_TEXT)
            return None
        if word in ("t", "table"):
            self._print(
                view_text(view, self.names or tuple(f"player {s + 1}" for s in range(view.players)), self.colour)
            )
            return None
        if word in ("hint", "best"):
            from rummisolve.solver import solve

            solution = solve(view.position)
            if not solution:
                self._print("the solver finds no play: draw")
                return Draw() if word == "best" else None
            if word == "best":
                return Play(tuple(solution.table))
            self._print(f"best: play {meld_text(solution.played, self.colour)}; new table:")
            for i, meld in enumerate(solution.table):
                self._print(f"  {i + 1}: {meld_text(meld, self.colour)}")
            return None
        if line[0] in "+=":
            try:
                melds = [Meld.of(parse_tiles(part), view.rules) for part in split_melds(line[1:])]
            except RummisolveError as err:
                self._print(f"bad meld: {err}")
                return None
            if not melds:
                self._print("give at least one meld after '+' or '=' (tiles separated by spaces, melds by '|')")
                return None
            return Play(tuple(view.table) + tuple(melds) if line[0] == "+" else tuple(melds))
        self._print(f"unknown command {line.split()[0]!r} ('help' lists the commands)")
        return None


def _read_line() -> str:
    sys.stdout.write("> ")
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line
