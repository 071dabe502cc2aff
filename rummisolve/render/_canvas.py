"""The layout of a picture: labels, melds and racks stacked top to bottom, wrapping into rows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

from rummisolve.errors import OptionError
from rummisolve.melds import Meld
from rummisolve.render._glyphs import (
    EDGE,
    FACE,
    PLAYED_EDGE,
    PLAYED_FACE,
    TILE_H,
    TILE_W,
    colour_name,
    mark_svg,
    tile_svg,
)
from rummisolve.render._words import Say, sayer
from rummisolve.tiles import Colour, Tile

__all__ = ["Canvas", "MARGIN", "KEPT", "REARRANGED", "NEW"]

KEPT, REARRANGED, NEW = "kept", "rearranged", "new"
"""What a move did to a meld of the new table: left it as it was, rearranged it, or laid it new."""

TILE_GAP = 3
MELD_GAP = 16
ROW_GAP = 14
MARGIN = 10
_OUTLINE_PAD = 4
"""How far a rearranged meld's dashed outline stands off its tiles."""
_DIE_ROW = 13
"""The height of the die names under an Xpress rack."""
_REARRANGED_EDGE = "#455a64"
_DASHES = "5 3"
_LABEL_INK = "#37474f"
_NOTE_INK = "#546e7a"
_FONT = "Helvetica, Arial, 'DejaVu Sans', 'Noto Sans', sans-serif"
"""Fonts with Latin and Greek letters (the labels may be Greek), the common ones first."""
_CHAR_W, _BOLD_CHAR_W = 0.52, 0.6
"""Estimated width of a character, in ems (the picture cannot measure text: no fonts are fetched)."""


def _text_width(text: str, size: float, bold: bool = False) -> int:
    return round(len(text) * size * (_BOLD_CHAR_W if bold else _CHAR_W))


class Canvas:
    """Accumulates SVG elements top to bottom, wrapping tiles, melds and key entries into rows."""

    def __init__(self, width: int) -> None:
        if isinstance(width, bool) or not isinstance(width, int) or width < 2 * MARGIN + TILE_W:
            raise OptionError(f"width must be an integer of at least {2 * MARGIN + TILE_W} pixels, not {width!r}")
        self.width = width
        self.y = MARGIN
        self.used_width = 0
        self.bottom = 0
        """The lowest point drawn so far."""
        self.parts: list[str] = []

    def label(
        self, text: str, *, size: int = 14, css: str = "label", ink: str = _LABEL_INK, bold: bool = False
    ) -> None:
        weight = ' font-weight="bold"' if bold else ""
        self.parts.append(
            f'<text class="{css}" x="{MARGIN}" y="{self.y + size}" font-size="{size}"{weight} '
            f'fill="{ink}">{escape(text)}</text>'
        )
        self.used_width = max(self.used_width, MARGIN + _text_width(text, size, bold))
        self.bottom = max(self.bottom, self.y + size + 4)  # descenders
        self.y += size + 8

    def note(self, text: str) -> None:
        """A smaller line of explanation under a label."""
        self.label(text, size=12, css="note", ink=_NOTE_INK)

    def melds(
        self,
        melds: Sequence[Meld],
        flags: Sequence[Sequence[bool]],
        fates: Sequence[str] | None = None,
        steps: Sequence[Sequence[int | None]] | None = None,
    ) -> None:
        """Melds left to right, wrapping; ``flags`` marks the tiles played from the rack, ``fates``
        (one of :data:`KEPT`, :data:`REARRANGED`, :data:`NEW` per meld, when given) become each
        meld's class, and a rearranged meld gets a dashed outline."""
        x = MARGIN
        placed_any = False
        for index, (meld, row_flags) in enumerate(zip(melds, flags)):
            meld_w = len(meld) * (TILE_W + TILE_GAP) - TILE_GAP
            if placed_any and x + meld_w > self.width - MARGIN:
                x = MARGIN
                self.y += TILE_H + ROW_GAP
            fate = fates[index] if fates is not None else None
            classes = f"meld {meld.kind.value}" + (f" {fate}" if fate else "")
            self.parts.append(f'<g class="{classes}" data-meld="{index}">')
            if fate == REARRANGED:
                self.parts.append(self._outline(x, self.y, meld_w))
            for slot, (tile, stands_for, flag) in enumerate(zip(meld.tiles, meld.stands_for, row_flags)):
                step = steps[index][slot] if steps is not None else None
                self.parts.append(tile_svg(x + slot * (TILE_W + TILE_GAP), self.y, tile, stands_for, flag, step))
            self.parts.append("</g>")
            self.used_width = max(self.used_width, x + meld_w)
            self.bottom = max(self.bottom, self.y + TILE_H + (_OUTLINE_PAD if fate == REARRANGED else 0))
            x += meld_w + MELD_GAP
            placed_any = True
        if placed_any:
            self.y += TILE_H + ROW_GAP

    def tiles(self, tiles: Iterable[Tile], dice: Sequence[str] | None = None) -> None:
        """A rack: tiles left to right, wrapping; ``dice`` (Xpress): the name of the die showing
        each tile, written under it."""
        x = MARGIN
        placed_any = False
        row_h = TILE_H + ROW_GAP + (_DIE_ROW if dice is not None else 0)
        self.parts.append('<g class="rack">')
        for index, tile in enumerate(tiles):
            if placed_any and x + TILE_W > self.width - MARGIN:
                x = MARGIN
                self.y += row_h
            drawn = tile_svg(x, self.y, tile, None, False)
            if dice is not None:
                drawn = (
                    f'<g class="die" data-die={quoteattr(dice[index])}>{drawn}<text class="die-name" '
                    f'x="{x + TILE_W / 2}" y="{self.y + TILE_H + _DIE_ROW}" text-anchor="middle" font-size="11" '
                    f'fill="{_LABEL_INK}">{escape(dice[index])}</text></g>'
                )
            self.parts.append(drawn)
            self.used_width = max(self.used_width, x + TILE_W)
            self.bottom = max(self.bottom, self.y + TILE_H + (_DIE_ROW + 3 if dice is not None else 0))
            x += TILE_W + TILE_GAP
            placed_any = True
        self.parts.append("</g>")
        if placed_any:
            self.y += row_h

    def legend(self, fates: Iterable[str], say: Say | None = None) -> None:
        """A key to the marks of a move, for the ``fates`` the picture shows (in a fixed order)."""
        say = say or sayer()
        shown = set(fates)
        entries = [("played", say("legend_played"), self._played_swatch)]
        if REARRANGED in shown:
            entries.append((REARRANGED, say("legend_rearranged"), self._rearranged_swatch))
        if KEPT in shown:
            entries.append((KEPT, say("legend_kept"), self._kept_swatch))
        self._key("legend", [(css, text, 22, draw) for css, text, draw in entries])

    def colour_key(self, colours: Iterable[Colour], say: Say | None = None) -> None:
        """A key from each colour's mark to its name, for ``colours`` (in canonical order)."""
        say = say or sayer()
        entries = []
        for colour in sorted(set(colours), key=lambda c: c.index):
            entries.append(
                (
                    f"colour {colour_name(colour)}",
                    say(f"colour_{colour_name(colour)}"),
                    12,
                    lambda x, y, c=colour: self._mark(c, x, y),
                )
            )
        if entries:
            self._key("colour-key", entries)

    def _key(self, css: str, entries: list) -> None:
        """Key entries (a swatch ``swatch_w`` wide drawn by ``draw(x, y)``, then its text), wrapping."""
        size, row_h = 12, 22
        x = MARGIN
        self.parts.append(f'<g class="{css}">')
        for entry_css, text, swatch_w, draw in entries:
            entry_w = swatch_w + 5 + _text_width(text, size)
            if x > MARGIN and x + entry_w > self.width - MARGIN:
                x = MARGIN
                self.y += row_h
            self.parts.append(
                f'<g class="{entry_css}">{draw(x, self.y)}<text x="{x + swatch_w + 5}" y="{self.y + 13}" '
                f'font-size="{size}" fill="{_LABEL_INK}">{escape(text)}</text></g>'
            )
            self.used_width = max(self.used_width, x + entry_w)
            self.bottom = max(self.bottom, self.y + 19)
            x += entry_w + 14
        self.parts.append("</g>")
        self.y += row_h

    @staticmethod
    def _outline(x: float, y: float, meld_w: float) -> str:
        pad = _OUTLINE_PAD
        return (
            f'<rect class="outline" x="{x - pad}" y="{y - pad}" width="{meld_w + 2 * pad}" height="{TILE_H + 2 * pad}" '
            f'rx="7" fill="none" stroke="{_REARRANGED_EDGE}" stroke-width="1.5" stroke-dasharray="{_DASHES}"/>'
        )

    @staticmethod
    def _played_swatch(x: float, y: float) -> str:
        return (
            f'<rect x="{x + 5}" y="{y + 1}" width="12" height="16" rx="2" fill="{PLAYED_FACE}" '
            f'stroke="{PLAYED_EDGE}" stroke-width="2"/>'
        )

    @staticmethod
    def _kept_swatch(x: float, y: float) -> str:
        return f'<rect x="{x + 5}" y="{y + 1}" width="12" height="16" rx="2" fill="{FACE}" stroke="{EDGE}"/>'

    @staticmethod
    def _rearranged_swatch(x: float, y: float) -> str:
        return (
            f'<rect x="{x + 1}" y="{y - 1}" width="20" height="20" rx="4" fill="none" stroke="{_REARRANGED_EDGE}" '
            f'stroke-width="1.5" stroke-dasharray="4 2"/>'
            f'<rect x="{x + 5}" y="{y + 1}" width="12" height="16" rx="2" fill="{FACE}" stroke="{EDGE}"/>'
        )

    @staticmethod
    def _mark(colour: Colour, x: float, y: float) -> str:
        return mark_svg(colour, x + 6, y + 9, 5)

    def svg(self, title: str) -> str:
        width = max(self.used_width + MARGIN, 160)
        height = max(self.bottom, MARGIN) + MARGIN
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family={quoteattr(_FONT)} role="img" '
            f"aria-label={quoteattr(title)}>"
        )
        background = f'<rect class="background" width="{width}" height="{height}" fill="#ffffff"/>'
        return "\n".join([head, f"<title>{escape(title)}</title>", background, *self.parts, "</svg>"]) + "\n"
