""":func:`verify`, step by step: the arguments, every meld valid, tile conservation, the tiles
played, then the initial meld and the strict joker rule. The rules are in
:mod:`rummisolve.referee`'s docstring. Part of the referee; independent of the solver."""

from __future__ import annotations

from rummisolve.errors import OptionError
from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.referee._budget import Budget
from rummisolve.referee._joker_check import check_jokers
from rummisolve.referee._keys import JOKER_KEY, Key, count
from rummisolve.referee._new_table import NewMeld, NewTable, read_table
from rummisolve.referee._opening import check_opening
from rummisolve.referee._rules_context import classify, context
from rummisolve.referee._verdict import Reason, Verdict, plural
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile, format_tiles


def verify(position: Position, new_table: NewTable, *, max_steps: int | None = None) -> Verdict:
    """Referee the turn that turns ``position``'s table into ``new_table``.

    ``new_table`` is an iterable of melds, each a :class:`~rummisolve.melds.Meld` or an iterable of
    tiles (:class:`~rummisolve.tiles.Tile` or codes such as ``"R7"``) in play order; a meld may
    also be a string (``"R1 R2 R3"``) and the whole table one string (``"R1 R2 R3 | K7 B7 O7"``).
    Returns a :class:`Verdict` listing every reason the turn is illegal (see the module docstring
    for the exact rules). Raises ``TypeError`` only for arguments of the wrong Python type; tiles
    that do not exist are reported as ``bad_tile``.

    ``max_steps`` (at least 1, else :class:`~rummisolve.errors.OptionError`) bounds the searches a few rules need (the initial meld under
    ``open_then_manipulate``, strict joker retrieval): they take few steps on real turns but can
    take seconds on crafted ones with dozens of tiles or jokers. Past it,
    :class:`~rummisolve.errors.RefereeLimitError` is raised (a server sets it; by default there is
    no limit and every turn is judged).
    """
    _check_arguments(position, max_steps)
    budget = Budget(max_steps)
    rules = position.rules
    ctx = context(rules)
    tile_of = ctx.tile_of
    reasons: list[Reason] = []
    table = read_table(new_table, rules, ctx.valid, reasons)
    _check_melds(table, rules, ctx.melds, reasons)

    old_counts = count([t.sort_key for m in position.table for t in m.tiles])
    new_counts = count([k for new in table for k in new.keys])
    rack_counts = count([t.sort_key for t in position.rack])
    _check_vanished(old_counts, new_counts, tile_of, reasons)
    played_counts = _played_counts(old_counts, new_counts, rack_counts, tile_of, reasons)
    played = tuple(tile_of[k] for k in played_counts for _ in range(played_counts[k]))
    _check_played(position, played, reasons)

    if not position.opened:
        check_opening(position, table, old_counts, rack_counts, played_counts, reasons, budget)
    if rules.joker_retrieval == "strict" and old_counts.get(JOKER_KEY):
        check_jokers(position, table, played_counts, tile_of, reasons, budget)
    return Verdict(not reasons, tuple(reasons), played)


def _check_arguments(position: object, max_steps: object) -> None:
    """``TypeError`` for arguments of the wrong type, ``OptionError`` for a ``max_steps`` below 1."""
    if not isinstance(position, Position):
        raise TypeError(f"position must be a Position, not {type(position).__name__}")
    if max_steps is not None:
        if isinstance(max_steps, bool) or not isinstance(max_steps, int):
            raise TypeError(f"max_steps must be an int or None, not {type(max_steps).__name__}")
        if max_steps < 1:
            raise OptionError(f"max_steps must be at least 1, not {max_steps}")


def _check_melds(
    table: list[NewMeld], rules: RuleSet, cache: dict[tuple, Meld | tuple[str, str]], reasons: list[Reason]
) -> None:
    """Every meld valid: each new meld classified (``NewMeld.meld`` set), else ``invalid_meld``."""
    for i, new in enumerate(table):
        if new.broken is not None:
            reasons.append(Reason("invalid_meld", f"table[{i}] is not a valid meld: not_in_rules: {new.broken}", i))
            continue
        result = classify(new.tiles, new.keys, rules, cache)
        if isinstance(result, Meld):
            new.meld = result
        else:
            code, detail = result
            reasons.append(
                Reason(
                    "invalid_meld",
                    f"table[{i}] ({format_tiles(new.tiles) or 'empty'}) is not a valid meld: {code}: {detail}",
                    i,
                )
            )


def _check_vanished(
    old_counts: dict[Key, int], new_counts: dict[Key, int], tile_of: dict[Key, Tile], reasons: list[Reason]
) -> None:
    """Table tiles never leave the table: ``tile_vanished`` for each with fewer copies on the new one."""
    for key in sorted(old_counts):
        missing = old_counts[key] - new_counts.get(key, 0)
        if missing > 0:
            tile = tile_of[key]
            what = "a joker" if tile.is_joker else f"{tile}"  # a special joker by its code
            reasons.append(
                Reason(
                    "tile_vanished",
                    f"{what} vanished from the table: the old table holds {old_counts[key]}, "
                    f"the new table {new_counts.get(key, 0)} ({plural(missing, 'copy', 'copies')} missing)",
                )
            )


def _played_counts(
    old_counts: dict[Key, int],
    new_counts: dict[Key, int],
    rack_counts: dict[Key, int],
    tile_of: dict[Key, Tile],
    reasons: list[Reason],
) -> dict[Key, int]:
    """The rack tiles played, by key (``min(new - old, rack)`` when positive, in key order);
    ``tile_not_on_rack`` for the copies neither the old table nor the rack holds."""
    played_counts: dict[Key, int] = {}
    for key in sorted(new_counts):
        extra = new_counts[key] - old_counts.get(key, 0)
        if extra <= 0:
            continue
        on_rack = rack_counts.get(key, 0)
        if on_rack:
            played_counts[key] = min(extra, on_rack)
        if extra > on_rack:
            tile = tile_of[key]
            old = old_counts.get(key, 0)
            if not old and not on_rack:
                detail = f"{tile} is neither on the old table nor on the rack"
            else:
                detail = (
                    f"{tile}: {new_counts[key]} on the new table, but the old table holds {old} and the rack {on_rack}"
                )
            reasons.append(
                Reason("tile_not_on_rack", f"{detail} ({plural(extra - on_rack, 'copy', 'copies')} from nowhere)")
            )
    return played_counts


def _check_played(position: Position, played: tuple[Tile, ...], reasons: list[Reason]) -> None:
    """A tile was played (``no_tile_played``), and under the discard rule one is left to discard."""
    if not played:
        reasons.append(Reason("no_tile_played", "no tile from the rack was played"))
    elif position.rules.discard and len(played) >= len(position.rack):
        reasons.append(
            Reason(
                "no_tile_to_discard",
                f"the play uses every rack tile ({plural(len(played), 'tile')}), leaving none to discard; "
                "under the discard rule a play keeps at least one (a player goes out by discarding the last)",
            )
        )
