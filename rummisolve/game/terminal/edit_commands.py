"""The terminal game's table-editing commands: a line such as ``put R7 K8 on 3`` applied to a draft.

Meld and slot numbers in commands count from 1, as the table is shown on screen; they are turned
into the indices from 0 that :mod:`rummisolve.game.table_edit` takes. A bad command raises a
:class:`~rummisolve.errors.RummisolveError` whose one-line message names the bad part.

>>> from rummisolve.melds import Meld
>>> from rummisolve.tiles import parse_tiles, format_tiles
>>> d = Draft.start([Meld.parse("R4 R5 R6")], parse_tiles("R7 K8"))
>>> format_tiles(apply_edit(d, "put R7 on 1").table[0])
'R4 R5 R6 R7'
"""

from __future__ import annotations

from rummisolve.errors import TableEditError
from rummisolve.game.table_edit import Draft, join, move, new_meld, put, split, split_at, take
from rummisolve.tiles import Tile, parse_tiles

__all__ = ["EDIT_COMMANDS", "EDIT_HELP", "apply_edit"]

EDIT_HELP: dict[str, str] = {
    "put": "put TILES on MELD [at SLOT]",
    "new": "new TILES",
    "move": "move TILES from MELD to MELD|new [at SLOT]",
    "take": "take TILES from MELD",
    "split": "split MELD at TILE | split MELD after COUNT",
    "join": "join MELD MELD ...",
}
"""Each editing command's syntax."""

EDIT_COMMANDS = tuple(EDIT_HELP)


def apply_edit(draft: Draft, line: str) -> Draft:
    """The draft after the editing command ``line`` (its first word is one of :data:`EDIT_COMMANDS`)."""
    words = line.split()
    verb = words[0].lower() if words else ""
    if verb not in EDIT_HELP:
        raise TableEditError(f"unknown editing command {verb!r}")
    args = words[1:]
    usage = f"usage: {EDIT_HELP[verb]}"
    if not args:
        raise TableEditError(usage + (" ('back' steps back one edit)" if verb == "take" else ""))
    if verb == "new":
        return new_meld(draft, _tiles(args, usage))
    if verb == "join":
        if len(args) < 2:
            raise TableEditError(f"{usage} (e.g. 'join 2 3')")
        return join(draft, [_index(a) for a in args])
    if verb == "split":
        if len(args) != 3 or args[1].lower() not in ("at", "after"):
            raise TableEditError(f"{usage} (e.g. 'split 2 at R7' or 'split 2 after 3')")
        meld = _index(args[0])
        if args[1].lower() == "after":
            return split(draft, meld, _number(args[2], "a tile count"))
        if args[2].isascii() and args[2].isdigit():
            raise TableEditError(
                f"'split {args[0]} at' takes a tile, e.g. 'split {args[0]} at R7'; "
                f"to keep the first {args[2]} tiles say 'split {args[0]} after {args[2]}'"
            )
        return split_at(draft, meld, Tile.parse(args[2]))
    if verb == "put":
        tiles, rest = _until(args, "on", usage)
        meld, at = _target(rest, usage)
        return put(draft, _tiles(tiles, usage), meld, at)
    tiles, rest = _until(args, "from", usage)
    if verb == "take":
        if len(rest) != 1:
            raise TableEditError(f"{usage} (e.g. 'take R7 from 3')")
        return take(draft, _tiles(tiles, usage), _index(rest[0]))
    source, rest = _until(rest, "to", usage)
    if len(source) != 1:
        raise TableEditError(f"{usage} (e.g. 'move R5 from 2 to 4')")
    if rest and rest[0].lower() == "new":
        if len(rest) > 1:
            raise TableEditError(f"{usage}: nothing may follow 'to new'")
        return move(draft, _tiles(tiles, usage), _index(source[0]), None)
    meld, at = _target(rest, usage)
    return move(draft, _tiles(tiles, usage), _index(source[0]), meld, at)


def _until(words: list[str], keyword: str, usage: str) -> tuple[list[str], list[str]]:
    """The words before ``keyword`` and those after it."""
    lowered = [w.lower() for w in words]
    if keyword not in lowered:
        raise TableEditError(f"{usage}: '{keyword}' is missing")
    cut = lowered.index(keyword)
    return words[:cut], words[cut + 1 :]


def _target(words: list[str], usage: str) -> tuple[int, int | None]:
    """``MELD [at SLOT]`` as (meld index, slot index or ``None``)."""
    if len(words) == 1:
        return _index(words[0]), None
    if len(words) == 3 and words[1].lower() == "at":
        return _index(words[0]), _index(words[2], "slot")
    raise TableEditError(f"{usage}: expected a meld number{', then at SLOT' if words else ''}")


def _tiles(words: list[str], usage: str) -> tuple[Tile, ...]:
    if not words:
        raise TableEditError(f"{usage}: name at least one tile")
    return parse_tiles(" ".join(words))


def _number(word: str, what: str) -> int:
    if not (word.isascii() and word.isdigit()) or len(word) > 6:
        raise TableEditError(f"{word!r} is not {what} (a whole number, as shown)")
    return int(word)


def _index(word: str, what: str = "meld") -> int:
    """An on-screen number (from 1) as an index (from 0)."""
    return _number(word, f"a {what} number") - 1
