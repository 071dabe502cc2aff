"""Terminal rendering of tiles, melds, the table and a player's view (ANSI colours optional).

Melds are numbered from 1 on screen (index 0 is meld 1), and every command of the terminal game
uses those numbers. A table can be shown against an earlier one: ``*`` marks a new or changed
meld, ``!`` a meld that is not valid, and ``[R7]`` a tile that came from a rack (underlined too
with colour).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rummisolve.game.state import PlayerView
from rummisolve.melds import Meld, MeldKind, meld_problem
from rummisolve.rules import RuleSet
from rummisolve.tiles import Colour, JokerKind, Tile

__all__ = [
    "tile_text",
    "meld_text",
    "table_text",
    "marked_table_text",
    "rack_text",
    "sorted_rack",
    "status_text",
    "view_text",
    "ANSI",
    "JOKER_ANSI",
    "RACK_ORDERS",
]

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
JOKER_ANSI: dict[JokerKind, str] = {
    JokerKind.REGULAR: ANSI[None],
    JokerKind.DOUBLE: "\033[1;7;34m",  # reverse blue
    JokerKind.COLOUR_CHANGE: "\033[1;7;36m",  # reverse cyan
    JokerKind.MIRROR: "\033[1;7;37m",  # reverse white
}
"""The look of each kind of joker: each in reverse video of its own colour (and its own code: J, JD, JC, JM)."""
_RESET = "\033[0m"
_UNDERLINE = "\033[4m"

RACK_ORDERS = ("colour", "number")
"""How a rack can be shown: by colour then number (canonical), or by number then colour."""


def tile_text(tile: Tile, colour: bool = True, marked: bool = False) -> str:
    """``R7`` (in red with ``colour``); ``marked``: ``[R7]`` (underlined too with ``colour``)."""
    if not colour:
        return f"[{tile}]" if marked else str(tile)
    if tile.joker_kind is not None:
        ink = JOKER_ANSI[tile.joker_kind]
    else:
        assert tile.colour is not None  # a numbered tile
        ink = ANSI[tile.colour]
    text = f"{ink}{_UNDERLINE if marked else ''}{tile}{_RESET}"
    return f"[{text}]" if marked else text


def meld_text(meld: Meld | Iterable[Tile], colour: bool = True) -> str:
    return " ".join(tile_text(t, colour) for t in meld)


def table_text(table: Sequence[Meld], colour: bool = True) -> str:
    """The table, one numbered meld per line."""
    if not table:
        return "  (the table is empty)"
    width = len(str(len(table)))
    return "\n".join(f"  {i + 1:>{width}}: {meld_text(m, colour)}" for i, m in enumerate(table))


def marked_table_text(
    table: Sequence[Meld | Sequence[Tile]],
    before: Sequence[Meld | Sequence[Tile]],
    colour: bool = True,
    rules: RuleSet | None = None,
) -> str:
    """``table`` numbered as :func:`table_text`, marked against ``before``: ``*`` on each meld that is
    not an unchanged meld of ``before``, ``[..]`` on the tiles ``before`` did not hold (the tiles
    played; copies are interchangeable, so they are marked in the first changed melds that hold
    them) and, given ``rules``, ``!`` and the reason on each meld that is not valid."""
    if not table:
        return "  (the table is empty)"
    kept = Counter(_identity(m, rules) for m in before)
    new = Counter(t for m in table for t in m) - Counter(t for m in before for t in m)
    width = len(str(len(table)))
    lines = []
    for i, meld in enumerate(table):
        key = _identity(meld, rules)
        problem = meld_problem(meld, rules) if rules is not None else None
        if kept[key] > 0 and problem is None:
            kept[key] -= 1
            lines.append(f"    {i + 1:>{width}}: {meld_text(meld, colour)}")
            continue
        tiles = []
        for tile in meld:
            tiles.append(tile_text(tile, colour, marked=new[tile] > 0))
            new[tile] -= 1
        why = f"   ({problem[1]})" if problem is not None else ""
        lines.append(f"  {'!' if problem else '*'} {i + 1:>{width}}: {' '.join(tiles)}{why}")
    return "\n".join(lines)


def _identity(meld: Meld | Sequence[Tile], rules: RuleSet | None) -> tuple:
    """A meld compared for "unchanged": a group's tiles in any order, otherwise the sequence."""
    kind: MeldKind | None
    if isinstance(meld, Meld):
        kind = meld.kind
    else:
        try:
            kind = Meld.of(meld, rules).kind if rules is not None else None
        except ValueError:
            kind = None
    tiles = tuple(meld)
    return tuple(sorted(tiles)) if kind is MeldKind.GROUP else tiles


def sorted_rack(rack: Iterable[Tile], order: str = "colour") -> tuple[Tile, ...]:
    """``rack`` by colour then number (``"colour"``) or by number then colour (``"number"``); jokers last."""
    if order == "number":
        return tuple(sorted(rack, key=lambda t: (t.is_any_joker, t.number or 0, t.sort_key)))
    if order == "colour":
        return tuple(sorted(rack))
    raise ValueError(f"unknown rack order {order!r} (choose from {', '.join(RACK_ORDERS)})")


def rack_text(rack: Iterable[Tile], colour: bool = True, order: str = "colour") -> str:
    """The rack in ``order`` (see :func:`sorted_rack`), or ``(empty)``."""
    return meld_text(sorted_rack(rack, order), colour) or "(empty)"


def _pieces(count: int, view: PlayerView) -> str:
    """``9 tiles``, or ``9 dice`` where a rack is the faces dice show (the view's :attr:`~PlayerView.pieces`)."""
    one, several = view.pieces
    return f"1 {one}" if count == 1 else f"{count} {several}"


def status_text(view: PlayerView, names: Sequence[str]) -> str:
    """The line above a player's view: the turn, the pool, the others' rack sizes (under the dice
    edition: their free dice, and no pool)."""
    others = ", ".join(
        f"{names[s]}: {_pieces(view.rack_sizes[s], view)}{'' if view.players_opened[s] else ' (not opened)'}"
        for s in view.opponents()
    )
    pool = f" | pool {view.pool_size}" if view.has_pool else ""
    line = f"turn {view.turn + 1}{pool} | {others}"
    if view.rules.discard:
        top = view.discard_top
        line += f" | discard pile: {'(empty)' if top is None else top}"
        if view.drawn is not None:
            line += f" | you drew {view.drawn} from the {'pool' if view.draw_from == 'pool' else 'discard pile'}"
    return line


def view_text(
    view: PlayerView, names: Sequence[str], colour: bool = True, *, order: str = "colour", table: bool = True
) -> str:
    """What a player sees: :func:`status_text`, the table (unless ``table`` is false: it was just
    shown) and the own rack in ``order``."""
    shown = f"table:\n{table_text(view.table, colour)}" if table else "table: as above"
    return f"{status_text(view, names)}\n{shown}\n{view.rack_heading}: {rack_text(view.rack, colour, order)}"
