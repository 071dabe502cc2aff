"""Every problem of a position, in a player's words: what the analysis board lists as you type.

:func:`rummisolve.jsonio.position_from_json` stops at the first bad part and names it by its JSON
path (``position.rack[1]``), which suits a program. A person entering a position wants all of them at
once, said as the board shows them: melds and tiles numbered from 1, each bad tile named, the
colours of the rules in use.

>>> for problem in position_problems({"table": [["R1", "R2", "R3"], ["K7", "B7"]], "rack": ["R14", "X3", "R5"]}):
...     print(problem.text)
Meld 2 (K7 B7) is not a valid meld: 2 tile(s); a meld needs at least 3
Rack tile 1: R14 is not a tile: numbers run from 1 to 13
Rack tile 2: X3 is not a tile: no colour X (the colours are K black, B blue, O orange, R red)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from rummisolve.errors import RummisolveError
from rummisolve.jsonio import rules_from_json
from rummisolve.melds import meld_problem
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile

__all__ = ["Problem", "position_problems", "problems_to_json"]


@dataclass(frozen=True)
class Problem:
    """One problem: ``part`` (``"rules"``, ``"table"``, ``"rack"``, ``"position"``), the meld and slot
    (from 0; ``None`` where it concerns no one tile or meld) and ``text``, in a player's words."""

    part: str
    text: str
    meld: int | None = None
    slot: int | None = None


def position_problems(obj: Any) -> list[Problem]:
    """Every problem of a position object of the JSON contract (its ``table``, ``rack`` and ``rules``),
    in the order the board shows them: the rules, the table's melds, the rack, the tile counts.
    Empty when the position is fine. Never raises for bad input."""
    if not isinstance(obj, dict):
        return [Problem("position", "A position is a JSON object with a table and a rack.")]
    try:
        rules = rules_from_json(obj.get("rules", "standard"), "rules")
    except RummisolveError as err:
        return [Problem("rules", f"The rules are not valid: {err}")]
    problems: list[Problem] = []
    counts: Counter[Tile] = Counter()
    table = obj.get("table", [])
    if not isinstance(table, list) or not all(isinstance(meld, list) for meld in table):
        problems.append(Problem("table", "The table is a list of melds, each a list of tiles."))
        table = []
    for i, meld in enumerate(table):
        tiles = _tiles(meld, rules, problems, "table", i)
        real = [t for t in tiles if t is not None]
        counts.update(real)
        if real and len(real) == len(tiles) and (found := meld_problem(real, rules)) is not None:
            shown = " ".join(map(str, real))
            problems.append(Problem("table", f"Meld {i + 1} ({shown}) is not a valid meld: {found[1]}", i))
    rack = obj.get("rack", [])
    if not isinstance(rack, list):
        problems.append(Problem("rack", "The rack is a list of tiles."))
        rack = []
    counts.update(t for t in _tiles(rack, rules, problems, "rack", None) if t is not None)
    for tile, n in sorted(counts.items()):
        if n > rules.copies_of(tile):
            what = "jokers" if tile.is_any_joker else "copies"
            problems.append(
                Problem(
                    "position",
                    f"{tile} is there {n} times (table and rack), but the set has {rules.copies_of(tile)} {what} of it",
                )
            )
    return problems


def problems_to_json(problems: list[Problem]) -> dict[str, Any]:
    """``{"problems": [{"part", "meld", "slot", "text"}, ...]}``."""
    return {"problems": [{"part": p.part, "meld": p.meld, "slot": p.slot, "text": p.text} for p in problems]}


def _tiles(codes: list[Any], rules: RuleSet, problems: list[Problem], part: str, meld: int | None) -> list[Tile | None]:
    """The tiles of ``codes`` (``None`` for each that is no tile under ``rules``, its problem added)."""
    tiles: list[Tile | None] = []
    for slot, code in enumerate(codes):
        where = f"Rack tile {slot + 1}" if meld is None else f"Meld {meld + 1}, tile {slot + 1}"
        text = _tile_problem(code, rules)
        if text is not None:
            problems.append(Problem(part, f"{where}: {text}", meld, slot))
            tiles.append(None)
        else:
            tiles.append(Tile.parse(code))
    return tiles


def _tile_problem(code: Any, rules: RuleSet) -> str | None:
    """Why ``code`` is no tile under ``rules``, in a player's words; ``None`` if it is one."""
    if not isinstance(code, str):
        return f"{code!r} is not a tile code (a tile is written as text, e.g. R7)"
    try:
        tile = Tile.parse(code)
    except RummisolveError:
        return f"{code.strip() or '(empty)'} is not a tile: {rules.unknown_code(code)}"
    try:
        rules.check_tile(tile)
    except RummisolveError as err:
        return f"{tile} is not a tile: {str(err).split(': ', 1)[-1]}"
    return None
