"""Terminal rendering of tiles, melds, the table and a player's view (ANSI colours optional)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld
from rummisolve.tiles import Colour, Tile

__all__ = ["tile_text", "meld_text", "table_text", "view_text", "ANSI"]

ANSI: dict[Colour | None, str] = {
    Colour.BLACK: "\033[1;90m",
    Colour.BLUE: "\033[1;34m",
    Colour.ORANGE: "\033[1;33m",
    Colour.RED: "\033[1;31m",
    Colour.GREEN: "\033[1;32m",
    Colour.PURPLE: "\033[1;35m",
    Colour.WHITE: "\033[1;37m",
    Colour.CYAN: "\033[1;36m",
    None: "\033[1;7;35m",  # the joker: reverse magenta
}
_RESET = "\033[0m"


def tile_text(tile: Tile, colour: bool = True) -> str:
    """``R7`` (in red with ``colour``)."""
    if not colour:
        return str(tile)
    return f"{ANSI[tile.colour]}{tile}{_RESET}"


def meld_text(meld: Meld | Iterable[Tile], colour: bool = True) -> str:
    return " ".join(tile_text(t, colour) for t in meld)


def table_text(table: Sequence[Meld], colour: bool = True) -> str:
    """The table, one numbered meld per line."""
    if not table:
        return "  (the table is empty)"
    width = len(str(len(table)))
    return "\n".join(f"  {i + 1:>{width}}: {meld_text(m, colour)}" for i, m in enumerate(table))


def view_text(view: PlayerView, names: Sequence[str], colour: bool = True) -> str:
    """What a player sees: others' rack sizes, the pool, the table and the own rack."""
    others = ", ".join(
        f"{names[s]}: {view.rack_sizes[s]} tiles{'' if view.players_opened[s] else ' (not opened)'}"
        for s in view.opponents()
    )
    rack = meld_text(view.rack, colour) or "(empty)"
    return (
        f"turn {view.turn + 1} | pool {view.pool_size} | {others}\n"
        f"table:\n{table_text(view.table, colour)}\n"
        f"your rack ({len(view.rack)}, {'opened' if view.opened else 'not opened yet'}): {rack}"
    )
