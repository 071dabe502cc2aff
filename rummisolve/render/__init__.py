"""SVG pictures of tables, positions and solutions (pure Python, no dependencies).

:func:`render_svg` draws a :class:`~rummisolve.position.Position` (table and rack), a solved
turn, or a plain sequence of melds. A solved turn shows the new table, telling apart the melds
kept as they were (plain), the melds rearranged (a dashed outline) and the tiles played from the
rack (a yellow face), then the rack left; a legend explains the marks, and the title says what
the points count (a joker played counts its rack penalty, e.g. 30). Melds are laid out left to
right and wrap into rows. Every tile is drawn in its colour's ink *and* with its colour's own
mark (:data:`COLOUR_MARKS`), so colours can be told apart without seeing colour; a key under the
picture names them. Jokers are drawn as a face labelled with the tile they stand for. The picture
is self-contained (inline attributes only, no stylesheet or fonts to fetch), so a web page or a
notebook can show it as is. :func:`render_result` draws a result given by its parts (the service
uses it for results in JSON).

>>> from rummisolve import Position
>>> svg = render_svg(Position.from_notation(["R4 J R6"], "K1 K2", opened=True))
>>> svg.startswith("<svg") and svg.count('class="tile') == 5
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rummisolve.errors import OptionError
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.render._canvas import KEPT, NEW, REARRANGED, Canvas
from rummisolve.render._glyphs import COLOUR_MARKS, TILE_COLOURS
from rummisolve.render._words import ENGLISH as LABELS
from rummisolve.render._words import Say, sayer
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import Colour, Tile, parse_tiles

__all__ = ["render_svg", "render_result", "TILE_COLOURS", "COLOUR_MARKS", "LABELS"]

_DEFAULT_WIDTH = 720
_NO_MOVE = ("no_move", "unknown")
_OBJECTIVES = ("tiles", "value")


def render_svg(obj: Any, *, width: int = _DEFAULT_WIDTH, dice: Sequence[tuple[Tile, str]] | None = None) -> str:
    """An SVG picture of ``obj``.

    ``obj`` is a :class:`Position` (its table, then its rack), a solution (anything with
    ``table``, ``played`` and ``position``, like :class:`rummisolve.Solution`: the new table with
    its kept and rearranged melds and played tiles marked, then the rack left over), or a sequence
    of melds (each a :class:`Meld` or tiles / tile codes in play order). ``width`` is the width in
    pixels at which rows wrap (a row holds at least one meld). ``dice`` (an Xpress position only):
    each rack entry's face and the name of the die showing it, drawn in that order, the name
    under the face; the faces are the rack's.
    """
    if isinstance(obj, Position):
        if dice is not None and Counter(face for face, _ in dice) != Counter(obj.rack):
            shown = " ".join(str(face) for face, _ in dice)
            raise OptionError(f"dice: the faces ({shown}) are not the rack ({' '.join(map(str, obj.rack))})")
        return _position_svg(obj, width, None if dice is None else tuple(dice))
    if dice is not None:
        raise OptionError(f"dice: only a position's rack is drawn with its dice, not a {type(obj).__name__}")
    if all(hasattr(obj, name) for name in ("table", "played", "position")):
        return _solution_svg(obj, width)
    if isinstance(obj, str | bytes | Mapping) or not isinstance(obj, Iterable):
        raise TypeError(f"render_svg needs a Position, a Solution or a sequence of melds, not {type(obj).__name__}")
    melds = [_as_meld(m, STANDARD) for m in obj]
    canvas = Canvas(width)
    canvas.melds(melds, _no_highlight(melds))
    canvas.colour_key(_colours(melds))
    return canvas.svg(_count(len(melds), "meld"))


def render_result(
    status: str,
    table: Iterable[Meld],
    played: Iterable[Tile],
    *,
    old_table: Iterable[Meld] = (),
    kept: Sequence[int] | None = None,
    rack_after: Iterable[Tile] | None = None,
    value: int | None = None,
    objective: str | None = None,
    rules: RuleSet = STANDARD,
    width: int = _DEFAULT_WIDTH,
    steps: Sequence[tuple[Tile, int]] | None = None,
    words: Mapping[str, Any] | None = None,
) -> str:
    """An SVG picture of a solve's result given by its parts.

    The new ``table`` is drawn with the ``played`` tiles highlighted. Its first ``len(kept)``
    melds are the old melds left as they were (``kept``: their indices on the old table, as a
    result lists them); without ``kept``, the melds equal to one of ``old_table`` are. The other
    melds are rearranged (they hold old table tiles) or new (rack tiles only). Then the rack left
    (``rack_after``, when given). ``status``, ``value`` and ``objective`` make the title and the
    line under it; ``rules`` give a joker's rack penalty for the points. ``steps`` (an
    explanation's ``(tile, new meld index)`` in order) number each moving tile by its step.
    ``words``: the picture's labels in another language (keys and English templates:
    :data:`rummisolve.render.LABELS`; a key left out stays English).
    """
    melds = list(table)
    after = None if rack_after is None else tuple(rack_after)
    numbers = None if steps is None else _step_numbers(melds, steps)
    return _solved_svg(
        str(status),
        melds,
        _kept_flags(melds, kept, old_table),
        tuple(played),
        after,
        value,
        objective,
        rules,
        width,
        numbers,
        sayer(words),
    )


def _step_numbers(melds: list[Meld], steps: Sequence[tuple[Tile, int]]) -> list[list[int | None]]:
    """For each tile of each meld, the step (from 1) that moves it there, or ``None``. A step
    numbers the first copy of its tile in its meld that no earlier step numbered."""
    numbers: list[list[int | None]] = [[None] * len(meld) for meld in melds]
    for number, (tile, target) in enumerate(steps, start=1):
        if not 0 <= target < len(melds):
            continue
        row = numbers[target]
        for slot, there in enumerate(melds[target].tiles):
            if there == tile and row[slot] is None:
                row[slot] = number
                break
    return numbers


# -- the kinds of picture -----------------------------------------------------------------------


def _position_svg(position: Position, width: int, dice: tuple[tuple[Tile, str], ...] | None = None) -> str:
    canvas = Canvas(width)
    canvas.label("Table" if position.table else "Table (empty)", bold=True)
    canvas.melds(position.table, _no_highlight(position.table))
    n = len(position.rack)
    tiles = _count(n, "tile") if dice is None else f"{n} {'die' if n == 1 else 'dice'}"
    canvas.label(f"Rack ({tiles}, {'opened' if position.opened else 'not opened yet'})")
    if dice is None:
        canvas.tiles(position.rack)
    else:
        canvas.tiles([face for face, _ in dice], [name for _, name in dice])
    canvas.colour_key(_colours(position.table, position.rack))
    game = "Rummikub" if dice is None else "Xpress"
    return canvas.svg(f"{game} position: {_count(len(position.table), 'meld')} on the table, {tiles} on the rack")


def _solution_svg(solution: Any, width: int) -> str:
    position = solution.position
    played = tuple(solution.played)
    rack_after = getattr(solution, "rack_after", None)
    if rack_after is None and isinstance(position, Position):
        rack_after = position.rack_after(played)
    rules = position.rules if isinstance(position, Position) else STANDARD
    melds = [_as_meld(m, rules) for m in solution.table]
    old = position.table if isinstance(position, Position) else ()
    kept = _kept_flags(melds, getattr(solution, "kept", None), old)
    objective = getattr(solution, "objective", None)
    return _solved_svg(
        str(getattr(solution, "status", "")),
        melds,
        kept,
        played,
        None if rack_after is None else tuple(rack_after),
        getattr(solution, "value", None),
        None if objective is None else str(objective),
        rules,
        width,
    )


def _solved_svg(
    status: str,
    melds: list[Meld],
    kept: list[bool],
    played: tuple[Tile, ...],
    rack_after: tuple[Tile, ...] | None,
    value: Any,
    objective: str | None,
    rules: RuleSet,
    width: int,
    numbers: list[list[int | None]] | None = None,
    say: Say | None = None,
) -> str:
    say = say or sayer()
    moved = status not in _NO_MOVE
    if not moved:  # the table is the old one
        kept = [True] * len(melds)
    fates, flags = _fates(melds, kept, played)
    title = _solution_title(status, played, value, rules, say)
    canvas = Canvas(width)
    canvas.label(title, bold=True)
    if moved and objective in _OBJECTIVES:
        canvas.note(say(f"objective_{objective}"))
    canvas.melds(melds, flags, fates, numbers if moved else None)
    if rack_after is not None:
        canvas.label(_rack_label(say("rack_left" if moved else "rack"), rack_after, rules, say))
        canvas.tiles(rack_after)
    if moved:
        canvas.legend(fates, say)
    canvas.colour_key(_colours(melds, rack_after or ()), say)
    return canvas.svg(title)


def _solution_title(status: str, played: tuple[Tile, ...], value: Any, rules: RuleSet, say: Say) -> str:
    if status in ("no_move", "unknown"):
        return say(status)
    head = say(status) if status in ("optimal", "feasible") else status.capitalize() or "Solution"
    tiles = say("tiles", n=len(played))
    if isinstance(value, int) and not isinstance(value, bool):
        points = say("points", n=value) + _joker_note(played, rules, say)
        return say("title_points", head=head, tiles=tiles, points=points)
    return say("title", head=head, tiles=tiles)


def _rack_label(head: str, rack: tuple[Tile, ...], rules: RuleSet, say: Say) -> str:
    if not rack:
        return say("rack_none", head=head)
    points = say("points", n=rules.rack_value(rack)) + _joker_note(rack, rules, say)
    return say("rack_value", head=head, tiles=say("tiles", n=len(rack)), points=points)


def _joker_note(tiles: Iterable[Tile], rules: RuleSet, say: Say) -> str:
    """Why the points are more than the numbers show, when ``tiles`` hold a joker."""
    return say("joker_note", n=rules.joker_penalty) if any(t.is_any_joker for t in tiles) else ""


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _colours(*groups: Iterable[Meld | Tile]) -> set[Colour]:
    found = set()
    for group in groups:
        for item in group:
            for tile in item.tiles if isinstance(item, Meld) else (item,):
                if tile.colour is not None:
                    found.add(tile.colour)
    return found


# -- what the move did to each meld -------------------------------------------------------------


def _no_highlight(melds: Iterable[Meld]) -> list[list[bool]]:
    return [[False] * len(m) for m in melds]


def _kept_flags(melds: list[Meld], kept: Sequence[int] | None, old_table: Iterable[Meld]) -> list[bool]:
    """Which melds of the new table are old melds left as they were.

    With ``kept`` (the old indices of the kept melds, which come first on the new table): the
    first ``len(kept)``. Otherwise every meld equal (as a multiset) to a not yet matched old meld.
    """
    if kept is not None:
        count = min(len(kept), len(melds))
        return [i < count for i in range(len(melds))]
    untouched = Counter(tuple(sorted(m.tiles)) for m in old_table)
    flags = []
    for meld in melds:
        key = tuple(sorted(meld.tiles))
        flags.append(untouched[key] > 0)
        if untouched[key] > 0:
            untouched[key] -= 1
    return flags


def _fates(melds: list[Meld], kept: list[bool], played: Iterable[Tile]) -> tuple[list[str], list[list[bool]]]:
    """Each meld's fate (kept, rearranged or new) and, per tile, whether it is (one copy of) a
    tile played from the rack.

    Kept melds hold no played tile. Of the others, a meld whose tiles are all among the played
    ones not yet placed is new; then the rest of the played tiles are flagged in the remaining
    melds, each copy once, and those melds, which hold old table tiles too, are rearranged. Equal
    tiles are interchangeable, so this tells the truth whichever copy came from where.
    """
    to_flag = Counter(played)
    fates = [KEPT if k else REARRANGED for k in kept]
    flags = _no_highlight(melds)
    for i, meld in enumerate(melds):
        need = Counter(meld.tiles)
        if not kept[i] and all(to_flag[t] >= n for t, n in need.items()):
            to_flag -= need
            fates[i], flags[i] = NEW, [True] * len(meld)
    for i, meld in enumerate(melds):
        if fates[i] != REARRANGED:
            continue
        for slot, tile in enumerate(meld.tiles):
            if to_flag[tile] > 0:
                to_flag[tile] -= 1
                flags[i][slot] = True
    return fates, flags


def _as_meld(meld: Any, rules: RuleSet) -> Meld:
    if isinstance(meld, Meld):
        return meld
    return Meld.of(parse_tiles(meld), rules)
