"""How one tile looks: its ink, the shape that tells its colour without colour, and the joker.

Every colour has a mark of its own under the number (a circle for black, a square for blue, ...),
so tiles can be told apart by shape alone: red and orange look alike to many eyes, and white
ink on a cream face is faint. White numbers and marks are drawn white with a dark outline. The
joker's glyph (a smiling face, as on the real tiles) is drawn by :func:`joker_glyph` alone, the
one place a new kind of joker gets its picture: the Twist double joker ``JD`` two small faces over
a "x2", the colour-change joker ``JC`` a disc split into two colours with an arrow across, the
mirror joker ``JM`` two triangles facing a dashed mirror line. Each has an ink of its own and
its code printed small, so the four jokers tell apart at a glance (and without colour).
"""

from __future__ import annotations

import math

from rummisolve.errors import InternalError
from rummisolve.melds import StandsFor
from rummisolve.tiles import Colour, JokerKind, Tile

__all__ = [
    "TILE_COLOURS",
    "COLOUR_MARKS",
    "TILE_W",
    "TILE_H",
    "FACE",
    "EDGE",
    "PLAYED_FACE",
    "PLAYED_EDGE",
    "colour_name",
    "mark_svg",
    "tile_svg",
    "joker_glyph",
    "JOKER_INKS",
    "JOKER_NAMES",
]

TILE_COLOURS: dict[Colour | None, str] = {
    Colour.BLACK: "#1b1b1b",
    Colour.BLUE: "#1565c0",
    Colour.ORANGE: "#e65100",
    Colour.RED: "#b71c1c",
    Colour.GREEN: "#2e7d32",
    Colour.PURPLE: "#6a1b9a",
    Colour.WHITE: "#ffffff",
    Colour.CYAN: "#00737e",
    None: "#ad1457",  # the joker
}
"""The ink each tile colour is drawn in (``None``: the joker). White numbers and marks are outlined in dark slate."""

COLOUR_MARKS: dict[Colour, str] = {
    Colour.BLACK: "circle",
    Colour.BLUE: "square",
    Colour.ORANGE: "triangle",
    Colour.RED: "diamond",
    Colour.GREEN: "cross",
    Colour.PURPLE: "star",
    Colour.WHITE: "hexagon",
    Colour.CYAN: "bar",
}
"""The shape drawn under each colour's numbers, one per colour."""

TILE_W, TILE_H = 32, 46
FACE = "#fbf8ef"
EDGE = "#9e9e9e"
PLAYED_FACE = "#fff1a8"
PLAYED_EDGE = "#f57f17"
_OUTLINE = "#263238"
"""The outline of white numbers and marks (white ink alone is faint on the cream face)."""
_OUTLINED = frozenset({Colour.WHITE})

JOKER_INKS: dict[JokerKind, str] = {
    JokerKind.REGULAR: "#ad1457",
    JokerKind.DOUBLE: "#4a148c",
    JokerKind.COLOUR_CHANGE: "#00695c",
    JokerKind.MIRROR: "#37474f",
}
"""The ink of each kind of joker (the regular joker's is ``TILE_COLOURS[None]``)."""
JOKER_NAMES: dict[JokerKind, str] = {
    JokerKind.REGULAR: "joker",
    JokerKind.DOUBLE: "double joker",
    JokerKind.COLOUR_CHANGE: "colour-change joker",
    JokerKind.MIRROR: "mirror joker",
}
"""What a picture's title calls each kind of joker."""
_JOKER_CLASSES = {
    JokerKind.REGULAR: "joker",
    JokerKind.DOUBLE: "joker joker-double",
    JokerKind.COLOUR_CHANGE: "joker joker-colour-change",
    JokerKind.MIRROR: "joker joker-mirror",
}

_MARK_Y = 36.5
_MARK_R = 4.6


def colour_name(colour: Colour) -> str:
    """``"red"`` for :attr:`Colour.RED`: the name pictures show and ``data-colour`` carries."""
    return colour.name.lower()


def mark_svg(colour: Colour, cx: float, cy: float, r: float = _MARK_R) -> str:
    """The SVG element of ``colour``'s mark centred on ``(cx, cy)``, about ``2 * r`` across."""
    shape = COLOUR_MARKS[colour]
    paint = _paint(colour, 2.2)
    head = f'class="mark" data-mark="{shape}"'
    if shape == "circle":
        return f'<circle {head} cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 0.9)}" {paint}/>'
    if shape == "square":
        side = r * 1.6
        corner = f'x="{_n(cx - side / 2)}" y="{_n(cy - side / 2)}"'
        return f'<rect {head} {corner} width="{_n(side)}" height="{_n(side)}" {paint}/>'
    if shape == "bar":
        return (
            f'<rect {head} x="{_n(cx - r * 1.25)}" y="{_n(cy - r * 0.5)}" width="{_n(r * 2.5)}" '
            f'height="{_n(r)}" rx="{_n(r * 0.3)}" {paint}/>'
        )
    return f'<polygon {head} points="{_points(_OUTLINES[shape], cx, cy, r)}" {paint}/>'


def _star() -> tuple[tuple[float, float], ...]:
    points = []
    for i in range(10):
        radius = 1.35 if i % 2 == 0 else 0.55
        angle = math.pi * i / 5 - math.pi / 2
        points.append((radius * math.cos(angle), radius * math.sin(angle) + 0.1))
    return tuple(points)


_OUTLINES: dict[str, tuple[tuple[float, float], ...]] = {
    # Unit shapes (radius 1, centred on 0, 0; y grows downwards), scaled by the mark's radius.
    "triangle": ((0, -1.15), (1.15, 0.85), (-1.15, 0.85)),
    "diamond": ((0, -1.25), (1, 0), (0, 1.25), (-1, 0)),
    "cross": (
        (-0.35, -1.1),
        (0.35, -1.1),
        (0.35, -0.35),
        (1.1, -0.35),
        (1.1, 0.35),
        (0.35, 0.35),
        (0.35, 1.1),
        (-0.35, 1.1),
        (-0.35, 0.35),
        (-1.1, 0.35),
        (-1.1, -0.35),
        (-0.35, -0.35),
    ),
    "star": _star(),
    "hexagon": tuple((1.2 * math.cos(math.pi * i / 3), 1.1 * math.sin(math.pi * i / 3)) for i in range(6)),
}


def tile_svg(x: float, y: float, tile: Tile, stands_for: StandsFor, played: bool, step: int | None = None) -> str:
    """One tile as an SVG group at ``(x, y)``: face, number and colour mark, or the joker's glyph.

    The group carries ``data-tile`` (its code) and, for a coloured tile, ``data-colour`` and
    ``data-mark``; its classes are ``tile``, ``joker`` for a joker of any kind (and
    ``joker-double``, ``joker-colour-change`` or ``joker-mirror`` for the Twist ones) and ``played``
    when it comes from the rack (drawn on a yellow face with an orange edge). A tile that moves in
    step ``step`` of an explanation gets the class ``moved``, ``data-step`` and a numbered badge.
    ``stands_for`` is what a joker stands for (:attr:`~rummisolve.melds.Meld.stands_for`), or ``None``.
    """
    kind = tile.joker_kind
    classes = "tile" + (f" {_JOKER_CLASSES[kind]}" if kind is not None else "") + (" played" if played else "")
    classes += " moved" if step is not None else ""
    face, edge, edge_w = (PLAYED_FACE, PLAYED_EDGE, 2.5) if played else (FACE, EDGE, 1)
    attributes = f'class="{classes}" data-tile="{tile}"' + (f' data-step="{step}"' if step is not None else "")
    if kind is not None:
        label = _stands_label(stands_for)
        title = f"{JOKER_NAMES[kind]} as {label}" if label else JOKER_NAMES[kind]
        body = joker_glyph(tile, stands_for)
    else:
        colour, number = tile.colour, tile.number
        assert colour is not None and number is not None  # a numbered tile
        name = colour_name(colour)
        attributes += f' data-colour="{name}" data-mark="{COLOUR_MARKS[colour]}"'
        title = f"{tile} ({name} {number})"
        size = 18 if number < 10 else 15
        body = (
            f'<text class="number" x="{TILE_W / 2}" y="25" text-anchor="middle" font-size="{size}" '
            f'font-weight="bold" {_paint(colour, 2.8)}>{number}</text>'
        ) + mark_svg(colour, TILE_W / 2, _MARK_Y)
    return (
        f'<g {attributes} transform="translate({_n(x)},{_n(y)})"><title>{title}</title>'
        f'<rect width="{TILE_W}" height="{TILE_H}" rx="4" fill="{face}" stroke="{edge}" stroke-width="{edge_w}"/>'
        f"{body}{'' if step is None else _step_badge(step)}</g>"
    )


def _step_badge(step: int) -> str:
    """A small numbered disc on a tile's top right corner: the step that moves it."""
    size = 8 if step < 10 else 7 if step < 100 else 6
    return (
        f'<g class="step"><circle cx="{TILE_W - 3}" cy="3" r="7" fill="#37474f"/>'
        f'<text x="{TILE_W - 3}" y="6" text-anchor="middle" font-size="{size}" font-weight="bold" '
        f'fill="#ffffff">{step}</text></g>'
    )


def _stands_label(stands_for: StandsFor) -> str:
    """What a joker stands for, as the picture says it: ``R5``, ``R3 R4``, ``4``, or ``""``."""
    if stands_for is None or (isinstance(stands_for, Tile) and stands_for.is_any_joker):
        return ""
    if isinstance(stands_for, tuple):
        return " ".join(map(str, stands_for))
    return str(stands_for)


def joker_glyph(tile: Tile, stands_for: StandsFor = None) -> str:
    """The picture on a joker's face, in tile coordinates, and under it what it stands for on the
    table, in that tile's ink (white's is dark slate): the regular joker a smiling face (``=R5``);
    the double joker two small faces over "x2" (``=R3R4``); the colour-change joker a disc split
    into two colours with an arrow (``=4``, the slot's number); the mirror joker two triangles
    facing a mirror line (it stands for nothing). Each special joker's code is printed small on
    its top left corner.
    """
    kind = tile.joker_kind
    if kind is None:
        raise InternalError(f"joker_glyph: {tile} is not a joker")
    label = _stands_label(stands_for)
    ink = JOKER_INKS[kind]
    cy = 17 if label else 21
    if kind is JokerKind.REGULAR:
        parts = [_face(TILE_W / 2, cy, 10.5, ink, "#fde7ef", 'class="joker-face" data-mark="joker"')]
    elif kind is JokerKind.DOUBLE:
        parts = [
            '<g class="joker-face" data-mark="double-joker">'
            + _face(TILE_W / 2 - 6.5, cy - 0.5, 6.2, ink, "#ede7f6", "")
            + _face(TILE_W / 2 + 6.5, cy - 0.5, 6.2, ink, "#ede7f6", "")
            + f'<text x="{_n(TILE_W / 2)}" y="{_n(cy + 13)}" text-anchor="middle" font-size="9" font-weight="bold" '
            f'fill="{ink}">x2</text></g>'
        ]
    elif kind is JokerKind.COLOUR_CHANGE:
        cx, r, cy = TILE_W / 2, 9, cy + 1
        parts = [
            f'<g class="joker-face" data-mark="colour-change-joker">'
            f'<path d="M{_n(cx)},{_n(cy - r)} A{r},{r} 0 0 0 {_n(cx)},{_n(cy + r)} Z" fill="{TILE_COLOURS[Colour.RED]}"/>'
            f'<path d="M{_n(cx)},{_n(cy - r)} A{r},{r} 0 0 1 {_n(cx)},{_n(cy + r)} Z" fill="{TILE_COLOURS[Colour.BLUE]}"/>'
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{r}" fill="none" stroke="{ink}" stroke-width="2"/>'
            f'<path d="M{_n(cx - 6)},{_n(cy)} L{_n(cx + 5)},{_n(cy)} M{_n(cx + 2)},{_n(cy - 3)} L{_n(cx + 5.5)},{_n(cy)} '
            f'L{_n(cx + 2)},{_n(cy + 3)}" fill="none" stroke="#ffffff" stroke-width="1.8" stroke-linecap="round"/></g>'
        ]
    else:  # the mirror joker
        cx = TILE_W / 2
        parts = [
            f'<g class="joker-face" data-mark="mirror-joker">'
            f'<line x1="{_n(cx)}" y1="{_n(cy - 11)}" x2="{_n(cx)}" y2="{_n(cy + 11)}" stroke="{ink}" stroke-width="1.6" '
            f'stroke-dasharray="2.5,1.5"/>'
            f'<polygon points="{_n(cx - 2.5)},{_n(cy)} {_n(cx - 11)},{_n(cy - 6)} {_n(cx - 11)},{_n(cy + 6)}" fill="{ink}"/>'
            f'<polygon points="{_n(cx + 2.5)},{_n(cy)} {_n(cx + 11)},{_n(cy - 6)} {_n(cx + 11)},{_n(cy + 6)}" '
            f'fill="#ffffff" stroke="{ink}" stroke-width="1.4"/></g>'
        ]
    if kind is not JokerKind.REGULAR:
        parts.append(
            f'<text class="joker-code" x="3" y="8" font-size="6.5" font-weight="bold" fill="{ink}">{tile}</text>'
        )
    if label:
        if isinstance(stands_for, Tile):
            colour = stands_for.colour
        elif isinstance(stands_for, tuple):
            colour = stands_for[0].colour
        else:
            colour = None
        # A label this small cannot be outlined legibly: a light ink's label takes its outline's ink.
        fill = ink if colour is None else _OUTLINE if colour in _OUTLINED else TILE_COLOURS[colour]
        text = "=" + label.replace(" ", "") if isinstance(stands_for, tuple) else f"={label}"
        size = 9.5 if len(text) <= 4 else 7.5 if len(text) <= 6 else 6.5
        parts.append(
            f'<text class="stands-for" x="{_n(TILE_W / 2)}" y="40.5" text-anchor="middle" font-size="{size}" '
            f'font-weight="bold" fill="{fill}">{text}</text>'
        )
    return "".join(parts)


def _face(cx: float, cy: float, r: float, ink: str, fill: str, head: str) -> str:
    """A smiling face of radius ``r`` centred on ``(cx, cy)``."""
    k = r / 10.5
    group = f"<g {head}>" if head else "<g>"
    return (
        f'{group}<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="{fill}" stroke="{ink}" stroke-width="{_n(2 * k)}"/>'
        f'<circle cx="{_n(cx - 3.8 * k)}" cy="{_n(cy - 2.6 * k)}" r="{_n(1.6 * k)}" fill="{ink}"/>'
        f'<circle cx="{_n(cx + 3.8 * k)}" cy="{_n(cy - 2.6 * k)}" r="{_n(1.6 * k)}" fill="{ink}"/>'
        f'<path d="M{_n(cx - 5.6 * k)},{_n(cy + 2 * k)} Q{_n(cx)},{_n(cy + 8.6 * k)} {_n(cx + 5.6 * k)},{_n(cy + 2 * k)}" '
        f'fill="none" stroke="{ink}" stroke-width="{_n(1.8 * k)}" stroke-linecap="round"/></g>'
    )


def _paint(colour: Colour, outline_width: float) -> str:
    """The fill (and for white, the outline) of a number or mark in ``colour``."""
    if colour in _OUTLINED:
        return (
            f'fill="{TILE_COLOURS[colour]}" stroke="{_OUTLINE}" stroke-width="{outline_width}" '
            f'stroke-linejoin="round" paint-order="stroke"'
        )
    return f'fill="{TILE_COLOURS[colour]}"'


def _points(unit: tuple[tuple[float, float], ...], cx: float, cy: float, r: float) -> str:
    return " ".join(f"{_n(cx + px * r)},{_n(cy + py * r)}" for px, py in unit)


def _n(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")
