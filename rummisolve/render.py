"""SVG pictures of tables, positions and solutions (pure Python, no dependencies).

:func:`render_svg` draws a :class:`~rummisolve.position.Position` (table and rack), a solved
turn (the new table with the tiles played from the rack highlighted, and the rack left over), or
a plain sequence of melds. Melds are laid out left to right and wrap into rows; every tile is
drawn in its colour, jokers are marked and labelled with the tile they stand for. The picture is
self-contained (inline attributes only, no stylesheet or fonts to fetch), so a web page or a
notebook can show it as is. :func:`render_result` draws a result given by its parts (the service
uses it for results in JSON).

>>> from rummisolve import Position
>>> svg = render_svg(Position.from_notation(["R4 J R6"], "K1 K2", opened=True))
>>> svg.startswith("<svg") and svg.count('class="tile') == 5
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from rummisolve.errors import OptionError
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import Colour, Tile, parse_tiles

__all__ = ["render_svg", "render_result", "TILE_COLOURS"]

TILE_COLOURS: dict[Colour | None, str] = {
    Colour.BLACK: "#1b1b1b",
    Colour.BLUE: "#1565c0",
    Colour.ORANGE: "#e65100",
    Colour.RED: "#c62828",
    Colour.GREEN: "#2e7d32",
    Colour.PURPLE: "#6a1b9a",
    Colour.WHITE: "#78909c",
    Colour.CYAN: "#00838f",
    None: "#ad1457",  # the joker
}
"""The ink each tile colour is drawn in (``None``: the joker)."""

# Geometry (pixels).
_TILE_W, _TILE_H = 32, 44
_TILE_GAP = 3
_MELD_GAP = 16
_ROW_GAP = 10
_MARGIN = 10
_LABEL_H = 22
_DEFAULT_WIDTH = 720

_FACE = "#fbf8ef"
_EDGE = "#9e9e9e"
_PLAYED_FACE = "#fff1a8"
_PLAYED_EDGE = "#f57f17"
_LABEL_INK = "#37474f"
_FONT = "Helvetica, Arial, sans-serif"


def render_svg(obj: Any, *, width: int = _DEFAULT_WIDTH) -> str:
    """An SVG picture of ``obj``.

    ``obj`` is a :class:`Position` (its table, then its rack), a solution (anything with
    ``table``, ``played`` and ``position``, like :class:`rummisolve.Solution`: the new table with
    the played tiles highlighted, then the rack left over), or a sequence of melds (each a
    :class:`Meld` or tiles / tile codes in play order). ``width`` is the width in pixels at which
    rows wrap (a row holds at least one meld).
    """
    if isinstance(obj, Position):
        return _position_svg(obj, width)
    if all(hasattr(obj, name) for name in ("table", "played", "position")):
        return _solution_svg(obj, width)
    if isinstance(obj, str | bytes | Mapping) or not isinstance(obj, Iterable):
        raise TypeError(f"render_svg needs a Position, a Solution or a sequence of melds, not {type(obj).__name__}")
    melds = [_as_meld(m, STANDARD) for m in obj]
    canvas = _Canvas(width)
    canvas.melds(melds, _no_highlight(melds))
    return canvas.svg(_count(len(melds), "meld"))


def render_result(
    status: str,
    table: Iterable[Meld],
    played: Iterable[Tile],
    *,
    old_table: Iterable[Meld] = (),
    rack_after: Iterable[Tile] | None = None,
    value: int | None = None,
    width: int = _DEFAULT_WIDTH,
) -> str:
    """An SVG picture of a solve's result given by its parts: the new ``table`` with the
    ``played`` tiles highlighted (melds equal to one of ``old_table`` stay plain), then the rack
    left (``rack_after``, when given). ``status`` and ``value`` make the title."""
    played = tuple(played)
    melds = list(table)
    after = None if rack_after is None else tuple(rack_after)
    return _solved_svg(_solution_title(str(status), played, value), melds, old_table, played, after, width)


# -- the three kinds of picture -----------------------------------------------------------------


def _position_svg(position: Position, width: int) -> str:
    canvas = _Canvas(width)
    canvas.label("Table" if position.table else "Table (empty)")
    canvas.melds(position.table, _no_highlight(position.table))
    canvas.label(f"Rack ({_count(len(position.rack), 'tile')}, {'opened' if position.opened else 'not opened yet'})")
    canvas.tiles(position.rack)
    return canvas.svg(
        f"Rummikub position: {_count(len(position.table), 'meld')} on the table, {_count(len(position.rack), 'tile')} on the rack"
    )


def _solution_svg(solution: Any, width: int) -> str:
    position = solution.position
    played = tuple(solution.played)
    rack_after = getattr(solution, "rack_after", None)
    if rack_after is None and isinstance(position, Position):
        rack_after = position.rack_after(played)
    rules = position.rules if isinstance(position, Position) else STANDARD
    melds = [_as_meld(m, rules) for m in solution.table]
    old = position.table if isinstance(position, Position) else ()
    title = _solution_title(str(getattr(solution, "status", "")), played, getattr(solution, "value", None))
    return _solved_svg(title, melds, old, played, rack_after, width)


def _solved_svg(
    title: str,
    melds: list[Meld],
    old_table: Iterable[Meld],
    played: tuple[Tile, ...],
    rack_after: tuple[Tile, ...] | None,
    width: int,
) -> str:
    canvas = _Canvas(width)
    canvas.label(title)
    canvas.melds(melds, _highlight_played(melds, old_table, played))
    if rack_after is not None:
        canvas.label(f"Rack after ({_count(len(rack_after), 'tile')})")
        canvas.tiles(rack_after)
    return canvas.svg(title)


def _solution_title(status: str, played: tuple[Tile, ...], value: Any) -> str:
    if status == "no_move":
        return "No move (proven): draw a tile"
    if status == "unknown":
        return "Unknown: no move found before the time limit (not a proof that there is none)"
    points = f", {value} points" if isinstance(value, int) and not isinstance(value, bool) else ""
    return f"{status.capitalize() or 'Solution'}: {_count(len(played), 'tile')} played{points}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


# -- which tiles to highlight -------------------------------------------------------------------


def _no_highlight(melds: Iterable[Meld]) -> list[list[bool]]:
    return [[False] * len(m) for m in melds]


def _highlight_played(melds: list[Meld], old_table: Iterable[Meld], played: Iterable[Tile]) -> list[list[bool]]:
    """One flag per tile: whether it is (one copy of) a tile played from the rack.

    Melds identical to an untouched old meld keep all their tiles unflagged; the played tiles are
    then flagged in the other melds, each copy once. The new table holds the old table plus the
    played tiles, so every played tile finds a place.
    """
    untouched = Counter(tuple(sorted(m.tiles)) for m in old_table)
    to_flag = Counter(played)
    flags = []
    for meld in melds:
        key = tuple(sorted(meld.tiles))
        if untouched[key] > 0:
            untouched[key] -= 1
            flags.append([False] * len(meld))
            continue
        row = []
        for tile in meld.tiles:
            hit = to_flag[tile] > 0
            if hit:
                to_flag[tile] -= 1
            row.append(hit)
        flags.append(row)
    return flags


def _as_meld(meld: Any, rules: RuleSet) -> Meld:
    if isinstance(meld, Meld):
        return meld
    return Meld.of(parse_tiles(meld), rules)


# -- drawing ------------------------------------------------------------------------------------


class _Canvas:
    """Accumulates SVG elements top to bottom, wrapping tiles and melds into rows."""

    def __init__(self, width: int) -> None:
        if isinstance(width, bool) or not isinstance(width, int) or width < 2 * _MARGIN + _TILE_W:
            raise OptionError(f"width must be an integer of at least {2 * _MARGIN + _TILE_W} pixels, not {width!r}")
        self.width = width
        self.y = _MARGIN
        self.used_width = 0
        self.parts: list[str] = []

    def label(self, text: str) -> None:
        self.parts.append(
            f'<text class="label" x="{_MARGIN}" y="{self.y + 15}" font-size="14" '
            f'fill="{_LABEL_INK}">{escape(text)}</text>'
        )
        self.used_width = max(self.used_width, _MARGIN + round(len(text) * 7.5))
        self.y += _LABEL_H

    def melds(self, melds: Iterable[Meld], flags: list[list[bool]]) -> None:
        x = _MARGIN
        placed_any = False
        for index, (meld, row_flags) in enumerate(zip(melds, flags)):
            meld_w = len(meld) * (_TILE_W + _TILE_GAP) - _TILE_GAP
            if placed_any and x + meld_w > self.width - _MARGIN:
                x = _MARGIN
                self.y += _TILE_H + _ROW_GAP
            kind = meld.kind.value
            self.parts.append(f'<g class="meld {kind}" data-meld="{index}">')
            for slot, (tile, stands_for, flag) in enumerate(zip(meld.tiles, meld.represents, row_flags)):
                self._tile(x + slot * (_TILE_W + _TILE_GAP), self.y, tile, stands_for, flag)
            self.parts.append("</g>")
            self.used_width = max(self.used_width, x + meld_w)
            x += meld_w + _MELD_GAP
            placed_any = True
        if placed_any:
            self.y += _TILE_H + _ROW_GAP

    def tiles(self, tiles: Iterable[Tile]) -> None:
        x = _MARGIN
        placed_any = False
        self.parts.append('<g class="rack">')
        for tile in tiles:
            if placed_any and x + _TILE_W > self.width - _MARGIN:
                x = _MARGIN
                self.y += _TILE_H + _ROW_GAP
            self._tile(x, self.y, tile, None, False)
            self.used_width = max(self.used_width, x + _TILE_W)
            x += _TILE_W + _TILE_GAP
            placed_any = True
        self.parts.append("</g>")
        if placed_any:
            self.y += _TILE_H + _ROW_GAP

    def _tile(self, x: int, y: int, tile: Tile, stands_for: Tile | None, played: bool) -> None:
        classes = "tile" + (" joker" if tile.is_joker else "") + (" played" if played else "")
        face, edge, edge_w = (_PLAYED_FACE, _PLAYED_EDGE, 2.5) if played else (_FACE, _EDGE, 1)
        ink = TILE_COLOURS[tile.colour]
        title = str(tile)
        if tile.is_joker:
            title = f"joker as {stands_for}" if stands_for is not None else "joker"
        parts = [
            f'<g class="{classes}" data-tile="{tile}" transform="translate({x},{y})">',
            f"<title>{escape(title)}</title>",
            f'<rect width="{_TILE_W}" height="{_TILE_H}" rx="4" fill="{face}" stroke="{edge}" stroke-width="{edge_w}"/>',
        ]
        if tile.is_joker:
            parts.append(
                f'<circle cx="{_TILE_W / 2}" cy="17" r="11" fill="none" stroke="{ink}" stroke-width="2"/>'
                f'<text x="{_TILE_W / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold" '
                f'fill="{ink}">J</text>'
            )
            if stands_for is not None:
                parts.append(
                    f'<text class="stands-for" x="{_TILE_W / 2}" y="39" text-anchor="middle" font-size="9" '
                    f"fill={quoteattr(TILE_COLOURS[stands_for.colour])}>={stands_for}</text>"
                )
        else:
            size = 18 if tile.number < 10 else 15 if tile.number < 100 else 12
            parts.append(
                f'<text x="{_TILE_W / 2}" y="27" text-anchor="middle" font-size="{size}" font-weight="bold" '
                f'fill="{ink}">{tile.number}</text>'
                f'<circle cx="{_TILE_W / 2}" cy="37" r="2.5" fill="{ink}"/>'
            )
        parts.append("</g>")
        self.parts.append("".join(parts))

    def svg(self, title: str) -> str:
        width = max(self.used_width + _MARGIN, 160)
        height = self.y - _ROW_GAP + _MARGIN if self.parts else 2 * _MARGIN
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family={quoteattr(_FONT)} role="img" '
            f"aria-label={quoteattr(title)}>"
        )
        return "\n".join([head, f"<title>{escape(title)}</title>", *self.parts, "</svg>"]) + "\n"
