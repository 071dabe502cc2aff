"""Several people at one terminal (hot-seat): each person's turn starts behind a pass screen.

Before a person's turn the screen is cleared (on a terminal: the screen and its scrollback; when
the output is not a terminal a :data:`SEPARATOR` line stands for it) and shows only "Pass to
<name>, press Enter". After Enter comes that seat's screen: what happened since its last turn, as
every player may see it (a tile drawn from the pool is not named), the table with those changes
marked, then the seat's own view from its :class:`~rummisolve.game.terminal.human.HumanPlayer`
(its own rack, the others' tile counts). No other rack is ever printed before the round ends.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from rummisolve.game.engine import Game
from rummisolve.game.events import DiscardEvent, DrawEvent, Event, PlayEvent
from rummisolve.game.state import GameState
from rummisolve.game.terminal.display import marked_table_text, meld_text
from rummisolve.game.terminal.human import HumanPlayer, QuitGame, read_line

__all__ = ["CLEAR_SCREEN", "SEPARATOR", "HotSeat", "public_turn_text", "pass_prompt"]

CLEAR_SCREEN = "\033[H\033[2J\033[3J"
"""Cursor home, clear the screen, clear the scrollback (scrolling up shows no earlier rack)."""
SEPARATOR = "\n" + "=" * 60
"""What stands for a cleared screen when the output is not a terminal."""
_LEAVE = ("q", "quit", "exit")


def pass_prompt(name: str) -> str:
    """The whole pass screen's prompt."""
    return f"Pass to {name}, press Enter "


def public_turn_text(event: Event, before: GameState, names: Sequence[str], colour: bool = False) -> str:
    """One turn event as every player may see it (``before``: the state it was applied to)."""
    name = names[event.player]
    if isinstance(event, PlayEvent):
        played = Counter(t for m in event.table for t in m) - Counter(before.table_tiles)
        text = f"{name} plays {meld_text(sorted(played.elements()), colour)}"
        return text if event.discard is None else f"{text}, discards {meld_text([event.discard], colour)}"
    if isinstance(event, DrawEvent):
        if event.tile is None:
            return f"{name} passes (the pool is empty)"
        if event.source == "discard":
            return f"{name} takes {meld_text([event.tile], colour)} from the discard pile"
        return f"{name} draws a tile" + (" from the pool" if before.rules.discard else "")
    if isinstance(event, DiscardEvent):
        return f"{name} discards {meld_text([event.tile], colour)}"
    return f"{name} ran out of time and draws {len(event.tiles)} penalty tiles"


class HotSeat:
    """The pass screens of one game at one terminal.

    ``tty``: clear the screen with ANSI codes (else print :data:`SEPARATOR`). ``read`` shows a
    prompt and returns the line typed (default: standard input; :class:`EOFError` at its end).
    ``banner`` is printed on the first pass screen, above its prompt."""

    def __init__(
        self,
        game: Game,
        names: Sequence[str],
        colour: bool = False,
        *,
        tty: bool = False,
        read: Callable[[str], str] | None = None,
        write: Callable[[str], None] | None = None,
        banner: str | None = None,
    ) -> None:
        self.game = game
        self.names = tuple(names)
        self.colour = colour
        self.tty = tty
        self._read = read or read_line
        self._write = write or (lambda text: print(text, flush=True))
        self.banner = banner
        self.at_terminal: int | None = None
        """The seat whose screen is showing (``None``: a pass screen, or nobody's yet)."""

    def clear(self) -> None:
        """Clear the screen (or print the separator that stands for it)."""
        self._write(CLEAR_SCREEN if self.tty else SEPARATOR)

    def hand_to(self, seat: int, player: HumanPlayer) -> None:
        """Before ``seat``'s turn: unless its screen is already showing (the same person goes on,
        e.g. after an undo), clear the screen, wait on the pass screen, then show what happened
        since the seat's last turn. ``q`` on the pass screen, or the end of input, leaves the game
        (:class:`QuitGame`)."""
        if seat == self.at_terminal:
            return
        self.at_terminal = None
        self.clear()
        if self.banner is not None:
            self._write(self.banner)
            self.banner = None
        try:
            line = self._read(pass_prompt(self.names[seat]))
        except EOFError:
            raise QuitGame("input ended") from None
        if line.strip().lower() in _LEAVE:
            raise QuitGame("quit")
        self.game.restart_clock()  # handing over is not thinking time
        self.at_terminal = seat
        self._write(f"\n{self.names[seat]}'s turn")
        recap, with_table = self.recap(seat)
        if recap:
            self._write(recap)
        player.screen_cleared(self.game.state.table if with_table else None)

    def recap(self, seat: int) -> tuple[str, bool]:
        """The turns since ``seat``'s last one (every turn, if it has none; with the tile it drew
        then, which its screen may have shown only for a moment) and, if they changed it, the table
        with their changes marked; whether the table is in it."""
        events, states = self.game.events, self.game.states
        since = next((i + 1 for i in range(len(events) - 1, -1, -1) if events[i].player == seat), 0)
        lines = [public_turn_text(events[i], states[i], self.names, self.colour) for i in range(since, len(events))]
        if not lines:
            return "", False
        heading = "since your last turn" if since else "so far"
        last = since - 1
        while last >= 0 and events[last].player == seat:  # the events of the seat's last turn
            event = events[last]
            if isinstance(event, DrawEvent) and event.source == "pool" and event.tile is not None:
                heading += f" (you drew {meld_text([event.tile], self.colour)})"
            last -= 1
        text = "\n".join([f"{heading}:", *(f"  {line}" for line in lines)])
        table, then = self.game.state.table, states[since].table
        if table == then:
            return text, False
        marked = marked_table_text(table, then, self.colour)
        return f"{text}\ntable (* a meld changed since, [..] a tile played since):\n{marked}", True
