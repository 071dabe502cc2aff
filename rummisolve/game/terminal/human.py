"""A human player at the terminal: reads commands, shows the view, never lets bad input crash the game.

Within a turn the human edits a tentative table (:mod:`rummisolve.game.terminal.edit_commands`) and ends
the turn with ``done``; the engine's referee judges the table then. If it is illegal the engine
asks again, and the tentative table is still there to be fixed.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from rummisolve.errors import RummisolveError
from rummisolve.game.actions import Action, Discard, Draw, Play
from rummisolve.game.reasons import for_people
from rummisolve.game.state import PlayerView
from rummisolve.game.table_edit import Draft, new_meld
from rummisolve.game.terminal.display import (
    RACK_ORDERS,
    marked_table_text,
    meld_text,
    rack_text,
    status_text,
    view_text,
)
from rummisolve.game.terminal.edit_commands import EDIT_COMMANDS, apply_edit
from rummisolve.melds import Meld
from rummisolve.tiles import parse_tiles, split_melds

__all__ = ["HumanPlayer", "QuitGame", "UndoRequest", "HELP_TEXT"]

HELP_TEXT = """Melds are numbered from 1, as the table shows them; commands use those numbers.
Build your new table step by step, then type 'done' to play it:
  put R7 K8 on 3         rack tiles onto meld 3 (a run: where the numbers fit;
                         a group: at the end)
  put J on 3 at 4        ... at slot 4 of meld 3 (when a joker fits twice)
  new R5 R6 R7           a new meld from rack tiles
  move R5 from 2 to 4    a table tile onto meld 4 ('to new': a meld of its
                         own; 'at SLOT' as for put)
  take R7 from 3         a tile you put down this turn back to your rack
  split 2 at R7          split meld 2 before R7 ('after 3': keep 3 tiles)
  join 2 3               join melds 2 and 3 into one (meld 2)
  back                   step back one edit
  reset                  back to the table as your turn began
  done | end             play it: the referee judges it (if illegal, you
                         see why and keep editing)
New melds (new, split, move .. to new) go at the end; when a meld is emptied
or joined away, the melds after it move up one. On your new table * marks a
changed meld, ! a meld that is not valid (yet), [R7] a tile from your rack.
Other commands:
  d | draw               draw a tile (ends your turn; drops your edits)
  + R5 R6 R7 | K9 B9 O9  add these melds from your rack and play at once
  = MELD | MELD | ...    give the whole new table and play it at once
  hint [1|2|3] | best    a hint: 1 the tiles, 2 also the melds touched, 3 (the
                         default) the whole move, step by step | play it
  sort colour | number   show your rack by colour or by number from now on
  t | table              show the table and your rack again
  undo                   take back your whole last turn (and those after it)
  help                   this text
  q | quit               leave the game
Under the discard rule: 'draw' (the pool) or 'pick' (the discard pile's top),
or play without drawing; then 'discard TILE' plays your new table and ends the
turn (discarding your last tile wins); 'done' and '+' wait for it.
"""


class QuitGame(Exception):
    """The human left (``quit`` or end of input)."""


class UndoRequest(Exception):
    """The human asked to take back their last turn."""


class HumanPlayer:
    """Prompts on ``output`` and reads lines from ``input``; illegal plays are explained by the engine.

    ``order`` is how the rack is shown (``"colour"`` or ``"number"``; the ``sort`` command changes it).
    """

    name = "you"

    def __init__(
        self,
        input: Callable[[], str] | None = None,
        output: Callable[[str], None] | None = None,
        colour: bool = False,
        names: tuple[str, ...] = (),
        order: str = "colour",
        rack_name: str = "your rack",
    ) -> None:
        self._input = input or read_line
        self.rack_name = rack_name
        """What the hints call the player's tiles ("your dice" in Xpress)."""
        self._print = output or (lambda text: print(text, flush=True))
        self.colour = colour
        self.names = names
        self.order = order
        self._seen: tuple | None = None
        self._turn: tuple | None = None
        self._drafts: list[Draft] = []

    def _in_words(self, text: str) -> str:
        """A hint's text with the player's tiles called by their name ("from your dice" in Xpress)."""
        return text if self.rack_name == "your rack" else text.replace("your rack", self.rack_name)

    def seen(self, table: Sequence[Meld]) -> None:
        """Note that ``table`` was just shown: the next prompt does not show it again (if it is still the table)."""
        self._seen = tuple(table)

    def screen_cleared(self, table: Sequence[Meld] | None = None) -> None:
        """The screen was cleared (a hot-seat pass screen): the next prompt starts a turn afresh
        and shows the whole view, the table too unless ``table`` has been shown since."""
        self._turn = None
        self._drafts = []
        self._seen = None if table is None else tuple(table)

    def choose(self, view: PlayerView) -> Action:
        turn = (view.seat, view.turn, view.table, view.rack)
        if turn != self._turn or not self._drafts:  # a new turn (else: asked again after an illegal play)
            self._turn = turn
            self._drafts = [Draft.start(view.table, view.rack, view.rules)]
            self._print(self._view(view, table=tuple(view.table) != self._seen))
        else:
            self._show_draft()
        self._seen = None  # shown once: the next prompt shows the table again
        while True:
            try:
                line = self._input()
            except EOFError:
                raise QuitGame("input ended") from None
            try:
                action = self._command(line.strip(), view)
            except RummisolveError as err:
                self._print(str(err))
                continue
            if action is not None:
                if isinstance(action, Draw):
                    self._turn = None
                return action

    def illegal(self, message: str, reasons: Iterable = ()) -> None:
        """Tell the human why the engine rejected their play (each reason naming melds as on screen)."""
        reasons = tuple(reasons)
        if not reasons:
            self._print(f"not allowed: {for_people(message)}")
            return
        self._print("not allowed (your table is kept: fix it, or 'reset' / 'draw'):")
        for reason in reasons:
            self._print(f"  - {for_people(reason)}")

    # -- commands --------------------------------------------------------------------------------

    @property
    def _draft(self) -> Draft:
        return self._drafts[-1]

    def _command(self, line: str, view: PlayerView) -> Action | None:
        if not line:
            self._print("type a command ('help' lists them)")
            return None
        if line[0] in "+=":
            return self._whole_melds(line, view)
        word = line.split()[0].lower()
        if word in EDIT_COMMANDS:
            self._drafts.append(apply_edit(self._draft, line))
            self._show_draft()
            return None
        if word in ("q", "quit", "exit"):
            raise QuitGame("quit")
        if view.rules.discard and word in ("d", "draw", "pick", "discard", "done", "end", "best"):
            return self._discard_rule(line, view)
        if word in ("d", "draw"):
            return Draw()
        if word in ("done", "end"):
            if not self._draft.changed:
                self._print("the table is as your turn began: put tiles on it first, or 'draw'")
                return None
            return Play(self._draft.table)
        if word == "back":
            if len(self._drafts) == 1:
                self._print("nothing to step back: no edits this turn ('undo' takes back your last turn)")
                return None
            self._drafts.pop()
            self._show_draft()
            return None
        if word == "reset":
            if not self._draft.changed:
                self._print("the table is already as your turn began")
                return None
            self._drafts.append(self._drafts[0])
            self._show_draft()
            return None
        if word == "undo":
            if self._draft.changed:
                self._print("'undo' takes back your whole last turn: 'back' steps back one edit, 'reset' all of them")
                return None
            self._turn = None
            raise UndoRequest
        if word == "sort":
            self._sort(line.split()[1:])
            return None
        if word in ("h", "help", "?"):
            self._print(HELP_TEXT)
            return None
        if word in ("t", "table"):
            if self._draft.changed:
                self._print(status_text(view, self._names(view)))
                self._show_draft()
            else:
                self._print(self._view(view, table=True))
            return None
        if word in ("hint", "best"):
            return self._solver(line, view)
        self._print(f"unknown command {line.split()[0]!r} ('help' lists the commands)")
        return None

    def _discard_rule(self, line: str, view: PlayerView) -> Action | None:
        """The commands that end or split a turn under the discard rule: ``draw`` (the pool's next
        tile) or ``pick`` (the discard pile's top), before any play; then ``discard TILE``, which
        plays the new table when it was changed and puts TILE on the discard pile."""
        word, *rest = line.split()
        word = word.lower()
        drawn = view.draw_from is not None
        if word in ("d", "draw", "pick"):
            if drawn:
                self._print("you have drawn this turn already: play and 'discard TILE', or just 'discard TILE'")
                return None
            if word == "pick" and view.discard_top is None:
                self._print("the discard pile is empty: 'draw' takes the pool's next tile")
                return None
            return Draw("discard" if word == "pick" else "pool")
        if word in ("done", "end"):
            self._print("under the discard rule a turn ends with 'discard TILE' (it plays your new table first)")
            return None
        if word == "best":
            from rummisolve.game.ai.medium import MediumPlayer

            return MediumPlayer().choose(view)
        if len(rest) != 1:
            self._print("say which tile to discard, e.g. 'discard R7'")
            return None
        (tile,) = parse_tiles(rest[0])
        left = self._draft.rack
        if tile not in left:
            self._print(f"{tile} is not on your rack{' (after your new table)' if self._draft.changed else ''}")
            return None
        if self._draft.changed:
            return Play(self._draft.table, discard=tile)
        if not drawn:
            self._print("draw ('draw' or 'pick') or change the table before you discard")
            return None
        return Discard(tile)

    def _whole_melds(self, line: str, view: PlayerView) -> Action | None:
        """``+ MELD | ...`` (add melds from the rack and play) or ``= MELD | ...`` (the whole table)."""
        try:
            melds = [Meld.of(parse_tiles(part), view.rules) for part in split_melds(line[1:])]
        except RummisolveError as err:
            self._print(f"bad meld: {err}")
            return None
        if not melds:
            self._print("give at least one meld after '+' or '=' (tiles separated by spaces, melds by '|')")
            return None
        if line[0] == "=":
            if view.rules.discard:
                start = self._drafts[0]
                placed = Counter(t for m in melds for t in m.tiles) - Counter(t for m in start.origin for t in m)
                rack = tuple(sorted((Counter(start.rack) - placed).elements()))
                self._drafts.append(replace(start, table=tuple(m.tiles for m in melds), rack=rack))
                self._show_draft()
                self._print("now 'discard TILE' to play it")
                return None
            return Play(tuple(melds))
        draft = self._draft
        for meld in melds:
            draft = new_meld(draft, meld.tiles)
        self._drafts.append(draft)
        if view.rules.discard:
            self._show_draft()
            self._print("now 'discard TILE' to play it")
            return None
        return Play(draft.table)

    def _sort(self, args: list[str]) -> None:
        choice = {"colour": "colour", "color": "colour", "c": "colour", "number": "number", "n": "number"}
        if len(args) != 1 or args[0].lower() not in choice:
            self._print(f"usage: sort {' | '.join(RACK_ORDERS)}")
            return None
        self.order = choice[args[0].lower()]
        self._print(f"your rack: {rack_text(self._draft.rack, self.colour, self.order)}")
        return None

    def _solver(self, line: str, view: PlayerView) -> Action | None:
        """``best`` plays the solver's best move; ``hint [1|2|3]`` tells as much of it as asked
        (1: the tiles, 2: also the melds it changes, 3 (the default): the whole move, step by step)."""
        from rummisolve.hints import hint_of
        from rummisolve.solver import solve

        word, *rest = line.split()
        word = word.lower()
        level = 3
        if word == "hint" and rest:
            if len(rest) > 1 or rest[0] not in ("1", "2", "3"):
                self._print(f"hint takes a level 1, 2 or 3, not {' '.join(rest)!r}")
                return None
            level = int(rest[0])
        solution = solve(view.position)
        if not solution:  # no move proven, or none found in time
            self._print("the solver finds no play: draw")
            return Draw() if word == "best" else None
        if word == "best":
            return Play(tuple(solution.table))
        found = hint_of(solution, level)
        if level < 3:
            self._print(self._in_words(f"hint: {found.text}"))
            return None
        self._print(f"best: play {meld_text(solution.played, self.colour)}; new table:")
        self._print(marked_table_text(solution.table, view.table, self.colour, view.rules))
        self._print(self._in_words(str(found.explanation)))
        return None

    # -- showing ---------------------------------------------------------------------------------

    def _names(self, view: PlayerView) -> tuple[str, ...]:
        return self.names or tuple(f"player {s + 1}" for s in range(view.players))

    def _view(self, view: PlayerView, table: bool) -> str:
        return view_text(view, self._names(view), self.colour, order=self.order, table=table)

    def _show_draft(self) -> None:
        draft = self._draft
        if draft.changed:
            how = "'discard TILE' plays it" if draft.rules.discard else "'done' plays it"
            table = f"your new table, not played yet ({how}):\n" + marked_table_text(
                draft.table, draft.origin, self.colour, draft.rules
            )
        else:
            table = f"the table as your turn began:\n{marked_table_text(draft.table, draft.origin, self.colour)}"
        self._print(f"{table}\nyour rack ({len(draft.rack)}): {rack_text(draft.rack, self.colour, self.order)}")


def read_line(prompt: str = "> ") -> str:
    """A line from standard input after ``prompt``; :class:`EOFError` at its end."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line
