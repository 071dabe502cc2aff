"""The referee: is going from a position to a new table a legal turn, and if not, every reason why.

:func:`verify` is independent of the solver (it shares only the tile, rule-set, meld and position
types) and is what every solver answer, engine move and property test is checked against.

>>> p = Position.from_notation(["R1 R2 R3"], "R4 K9 B9 O9", opened=True)
>>> v = verify(p, ["R1 R2 R3 R4"])
>>> bool(v), [str(t) for t in v.played]
(True, ['R4'])
>>> v = verify(p, ["R1 R2 R3 R4", "K9 B9"])
>>> print(v)
illegal turn:
  invalid_meld: table[1] (K9 B9) is not a valid meld: too_short: 2 tile(s); a meld needs at least 3

The rules enforced (docs/rules.md), in the order the reasons are listed:

``bad_tile``
    a new-table tile that does not exist under the rules (unknown code, colour or number out of
    range, a joker when the rules have none). Bad tiles are left out of all tile counting.
``invalid_meld``
    a new-table meld that is not a valid run or group (the :func:`~rummisolve.melds.meld_problem`
    reason code and explanation are in the message; a meld holding a bad tile counts as
    ``not_in_rules``).
``tile_vanished``
    a tile of the old table with fewer copies on the new table (table tiles never leave the table).
``tile_not_on_rack``
    a tile with more copies on the new table than the old table and the rack hold together.
``no_tile_played``
    no rack tile was played.
``no_tile_to_discard``
    only when ``rules.discard`` is on: the turn played every rack tile, leaving none to discard
    (in that variant a player goes out by discarding the last tile, so a play must keep one).
``opening_touched_table`` / ``opening_below_threshold`` / ``joker_in_opening``
    only when ``position.opened`` is false; see "The initial meld" below.
``joker_retrieval``
    only when ``rules.joker_retrieval == "strict"``; see "Jokers on the table" below.

**Twist** (special jokers ``JD``, ``JC``, ``JM``; docs/rules.md, "Twist"). Each special joker is a
tile kind of its own: it is counted like any tile (it never leaves the table, and a ``J`` on the
old table is never accounted for by a ``JD`` on the new one, nor the other way round); every new
meld is classified with the Twist meld rules (the ``invalid_meld`` message carries the reason, e.g.
``jc_at_end``, ``mirror_asymmetric``, ``jd_overfull``); an initial meld is worth what its tiles stand
for (``JD`` its two numbers, ``JC`` its slot's number, ``JM`` 0); ``joker_in_opening`` counts jokers of
every kind. Rule sets with special jokers never have strict retrieval or ``open_then_manipulate``
(the rule set refuses them).

Tiles are counted as multisets (copies of a tile are interchangeable). The tiles the turn played,
``Verdict.played``, are for each tile kind ``min(new - old, rack)`` copies (when positive).

**Unchanged melds.** A new meld is an unchanged copy of an old one when it is a valid meld of the
same kind holding the same tiles: the same multiset for a group, the same sequence for a run.
Old and new melds are paired greedily; equal melds are interchangeable, so greedy pairing is
maximal.

**The initial meld** (``opened`` false). Let the *new melds* be the new-table melds not paired
with an unchanged old meld, and ``played`` as above.

- Without ``open_then_manipulate`` (the official rule): every old meld must be paired with an
  unchanged copy (each old meld that is not gets an ``opening_touched_table`` reason, ``meld``
  None); every new meld must be made of rack tiles only (rack copies are handed out to the new
  melds in order; a new meld that then still holds a tile that is on the old table gets an
  ``opening_touched_table`` reason naming the borrowed tiles). The opening value is the sum of
  the values of the valid new melds (a joker is worth the number it stands for; an invalid
  meld is worth nothing); below ``initial_threshold`` is ``opening_below_threshold``. Nothing
  is checked against the threshold when there are no new melds (nothing was played).
- With ``open_then_manipulate``: the player first lays an initial meld, then may rearrange the
  whole table (the initial meld included) like an opened player. So the turn is a legal opening
  when some of the tiles it played from the rack (``played``) can be split into one or more valid
  melds worth at least ``initial_threshold`` together; which melds those were need not be visible
  on the new table (they may have been extended, split or joined afterwards). The referee
  decides exactly whether the played tiles reach the threshold (a search over packings of them
  into melds, jokers worth what they stand for); if tiles were played and they do not,
  ``opening_below_threshold``. The message gives the most valuable packing, or, where finding it
  would take long (dozens of tiles against a threshold near their worth), a bound below the
  threshold that no packing exceeds. If the played tiles form no valid meld at all and some
  old meld is not kept unchanged, ``opening_touched_table`` (the table was rearranged without an
  initial meld).
- With ``joker_in_initial_meld`` false, a not-opened player may not play a joker from the rack
  on that turn at all (with ``open_then_manipulate`` this includes the melds after the initial
  meld): ``joker_in_opening``.

**Jokers on the table** (``joker_retrieval == "strict"``). Each old-table joker *stands for* a set
of tiles: in a run, the one tile of its slot; in a group, any colour missing from that group
(so in a group of 3, either missing colour). Each old-table joker must be matched to a distinct
new-table joker and either

- *kept*: the new joker can stand for a tile the old one could (the two sets intersect) and
  it stays with its meld: its new meld holds one of the numbered tiles of its old meld, its
  *witness* (a joker in an invalid new meld is not judged here, ``invalid_meld`` already rejects
  the turn). Tiles are counted as copies: the referee sees only how many copies of a tile each
  meld holds, so a new meld's copy of a tile may be taken to be any old copy of it, but each
  physical tile is in one place. So a copy on the new table is the witness of at most one old
  meld, each tile of an old meld (a meld holds one copy of each of its tiles) is the witness in
  at most one new meld (several kept jokers of one old meld in one new meld share it), and a
  witness, being a table tile, is not one of the two rack tiles a freed joker's meld needs.
  E.g. ``K4 B4 O4 J`` (the joker stands for ``R4``) may not become ``K4 B4 O4`` and
  ``R2 R3 J``; ``R2 R3 R4 J R6 R7 R8`` may become ``R2 R3 R4`` and ``J R6 R7 R8 R9``; ``J R4 J``
  may not become ``R1 R2 J R4`` and ``R4 J R6`` (one of the jokers would be with a rack R4); or
- *freed*: a tile it stood for was played from the rack (its exact replacement; each freed joker
  needs its own copy), and the new meld holding the joker also holds at least two further tiles
  played from the rack (not the replacement copies; a played rack joker counts).

New-table jokers not matched to old ones are played rack jokers. Old jokers beyond the number
of new jokers are already ``tile_vanished`` and are not judged again. When several jokers make
the matching ambiguous, the turn is legal if ANY matching, choice of replacement tiles and
choice of witnesses satisfies the rule (the interpretation most favourable to the player); the
played rack tiles are shared out among the freed jokers' melds in every possible way (each copy
counts once).
Where the replacement tile ends up on the table is not checked (copies are interchangeable and the table may be rearranged).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from rummisolve.errors import InvalidMeldError, OptionError, RefereeLimitError, TileNotationError
from rummisolve.melds import Meld, MeldKind, meld_problem
from rummisolve.position import Position
from rummisolve.referee._joker_matching import JokerMatching
from rummisolve.rules import RuleSet
from rummisolve.tiles import ALL_JOKERS, JOKER, Tile, format_tiles, split_melds

__all__ = ["verify", "Verdict", "Reason", "REASONS"]

REASONS: dict[str, str] = {
    "bad_tile": "a tile that does not exist under the rule set",
    "invalid_meld": "a meld on the new table that is not a valid run, group or (Twist) mirror meld",
    "tile_vanished": "a tile of the old table is missing from the new table",
    "tile_not_on_rack": "a tile on the new table that is neither on the old table nor on the rack",
    "no_tile_played": "no tile from the rack was played",
    "no_tile_to_discard": "the play emptied the rack, leaving no tile to discard (the discard rule)",
    "opening_below_threshold": "the initial meld is worth less than the rules' threshold",
    "opening_touched_table": "the initial meld used or rearranged the table's melds",
    "joker_in_opening": "a joker from the rack was played in the initial meld, which the rules forbid",
    "joker_retrieval": "a table joker was moved or freed against the strict joker rule",
}
"""Every reason code :func:`verify` uses, with its meaning."""


@dataclass(frozen=True)
class Reason:
    """Why a turn is illegal: a code from :data:`REASONS`, a message naming the meld or tile, and
    the index into the new table of the meld concerned (``None`` when it concerns no single one)."""

    code: str
    message: str
    meld: int | None = None

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


@dataclass(frozen=True)
class Verdict:
    """The referee's ruling: ``legal``, every reason it is not, and the rack tiles the turn played
    (sorted). ``bool(verdict)`` is ``verdict.legal``."""

    legal: bool
    reasons: tuple[Reason, ...] = ()
    played: tuple[Tile, ...] = ()

    def __post_init__(self) -> None:
        if self.legal == bool(self.reasons):
            raise ValueError("a verdict is legal exactly when it has no reasons")

    def __bool__(self) -> bool:
        return self.legal

    @property
    def codes(self) -> tuple[str, ...]:
        """The reason codes, in order."""
        return tuple(r.code for r in self.reasons)

    def __str__(self) -> str:
        if self.legal:
            return f"legal turn: played {format_tiles(self.played) or '(nothing)'}"
        return "illegal turn:\n" + "\n".join(f"  {r}" for r in self.reasons)


# Tiles are handled by their canonical sort key ``(colour index, number)`` (the joker's sorts last):
# a tuple of ints hashes and compares in C, which keeps the referee fast. ``Tile._key`` is that key
# (``Tile.sort_key`` without the property call).
_Key = tuple[int, int]
NewTable = Iterable[Meld | str | Iterable[Tile | str]] | str
"""A new table as :func:`verify` takes it: melds, tile iterables, strings, or one string."""
_JOKER_KEY = JOKER._key
_ALL_JOKER_KEYS = tuple(t._key for t in ALL_JOKERS)


class _RulesContext:
    """Per rule set: the keys of the tiles that exist, key -> Tile, and a bounded meld cache."""

    __slots__ = ("valid", "tile_of", "melds", "rules", "_shapes")

    def __init__(self, rules: RuleSet) -> None:
        tiles = list(rules.tile_kinds) + list(rules.joker_counts)
        self.valid = frozenset(t._key for t in tiles)
        self.tile_of = {t._key: t for t in tiles}
        self.melds: dict[tuple, Meld | tuple[str, str]] = {}
        self.rules = rules
        self._shapes: dict[tuple, list[tuple[tuple, int]]] | None = None

    def shapes(self, key: tuple) -> list[tuple[tuple, int]]:
        """Every joker-free meld of length ``m .. 2m - 1`` (``m`` the minimum meld length) holding
        tile ``key``, as (keys of its other tiles, value). Longer melds split into these without
        changing the value, so they suffice to find the most valuable initial meld."""
        if self._shapes is None:
            self._shapes = _meld_shapes(self.rules)
        return self._shapes.get(key, [])


_CONTEXTS: dict[RuleSet, _RulesContext] = {}
_CACHE_LIMIT = 50_000


def _context(rules: RuleSet) -> _RulesContext:
    ctx = _CONTEXTS.get(rules)
    if ctx is None:
        if len(_CONTEXTS) >= 64:
            _CONTEXTS.clear()
        ctx = _CONTEXTS[rules] = _RulesContext(rules)
    return ctx


def _classify(
    seq: tuple[Tile, ...], keys: tuple[_Key, ...], rules: RuleSet, cache: dict[tuple, Meld | tuple[str, str]]
) -> Meld | tuple[str, str]:
    """``Meld`` for a valid sequence, else ``(reason_code, explanation)`` from ``meld_problem``."""
    result = cache.get(keys)
    if result is None:
        try:
            result = Meld.of(seq, rules)
        except InvalidMeldError:
            problem = meld_problem(seq, rules)
            assert problem is not None  # Meld.of refused it
            result = problem
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        cache[keys] = result
    return result


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {plural or word + 's'}"


def _names(tiles: Iterable[Tile]) -> str:
    return format_tiles(sorted(tiles))


class _NewMeld:
    """One meld of the new table as given: its good tiles, their keys, why it is broken (bad tiles)."""

    __slots__ = ("tiles", "keys", "broken", "meld")

    def __init__(self, tiles: tuple[Tile, ...], keys: tuple[_Key, ...], broken: str | None) -> None:
        self.tiles = tiles
        self.keys = keys
        self.broken = broken
        self.meld: Meld | None = None


def _read_table(new_table: NewTable, rules: RuleSet, valid: frozenset[_Key], reasons: list[Reason]) -> list[_NewMeld]:
    """Normalise ``new_table``, reporting tiles that do not exist as ``bad_tile``."""
    if isinstance(new_table, str):
        new_table = split_melds(new_table)
    elif isinstance(new_table, Meld | Tile):
        raise TypeError(f"new_table must be an iterable of melds, not a single {type(new_table).__name__}")
    try:
        items = list(new_table)
    except TypeError:
        raise TypeError(f"new_table must be an iterable of melds, not {type(new_table).__name__}") from None
    out = []
    parts: Sequence[object]  # the caller's items: tiles, codes, or anything else (a TypeError below)
    for i, meld in enumerate(items):
        if isinstance(meld, Meld):
            parts = meld.tiles
        elif isinstance(meld, str):
            parts = meld.replace(",", " ").split()
        elif isinstance(meld, Tile):
            raise TypeError(f"table[{i}] must be a meld (an iterable of tiles), not a single Tile")
        else:
            try:
                parts = tuple(meld)
            except TypeError:
                raise TypeError(f"table[{i}] must be a meld, not {type(meld).__name__}") from None
        tiles = cast("Sequence[Tile]", parts)  # fast path: every item a Tile (else AttributeError)
        keys: tuple[_Key, ...] | None
        try:
            keys = tuple([t._key for t in tiles])
        except AttributeError:
            keys = None
        if keys is not None and valid.issuperset(keys):
            out.append(_NewMeld(tuple(tiles), keys, None))
            continue
        seq = []
        broken = None
        for j, item in enumerate(parts):
            if isinstance(item, Tile):
                tile = item
            elif isinstance(item, str):
                try:
                    tile = Tile.parse(item)
                except TileNotationError as err:
                    reasons.append(Reason("bad_tile", f"table[{i}][{j}]: {err}", i))
                    broken = broken or f"{item!r} is not a tile"
                    continue
            else:
                raise TypeError(f"table[{i}][{j}] must be a Tile or a tile code, not {type(item).__name__}")
            if tile._key not in valid:
                try:
                    rules.check_tile(tile)
                    message = f"tile {str(tile)!r} does not exist under these rules"
                except ValueError as err:
                    message = str(err)
                reasons.append(Reason("bad_tile", f"table[{i}][{j}]: {message}", i))
                broken = broken or f"tile {str(tile)!r} does not exist under these rules"
                continue
            seq.append(tile)
        out.append(_NewMeld(tuple(seq), tuple(t._key for t in seq), broken))
    return out


def _count(keys: Iterable[_Key]) -> dict[_Key, int]:
    counts: dict[_Key, int] = {}
    get = counts.get
    for k in keys:
        counts[k] = get(k, 0) + 1
    return counts


def _meld_key(meld: Meld) -> tuple[bool, tuple[_Key, ...]]:
    """Identity of a meld for "unchanged": a run's tile sequence, a group's tile multiset."""
    keys = tuple([t._key for t in meld.tiles])
    if meld.kind is not MeldKind.GROUP:  # a run or a mirror meld: the sequence
        return (True, keys)
    return (False, tuple(sorted(keys)))


def _stands_for(meld: Meld, slot: int, rules: RuleSet) -> frozenset[Tile]:
    """The tiles the joker in ``slot`` of a valid meld may stand for."""
    if meld.kind is MeldKind.RUN:
        return frozenset((meld.represents[slot],))
    real = [t for t in meld.tiles if not t.is_joker]
    number = real[0].number
    present = {t.colour for t in real}
    return frozenset(Tile(c, number) for c in rules.colour_list if c not in present)


class _Budget:
    """Search steps the referee may still take (``None``: no limit)."""

    __slots__ = ("limit", "left")

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.left = limit

    def spend(self) -> None:
        if self.left is None:
            return
        self.left -= 1
        if self.left < 0:
            raise RefereeLimitError(
                f"table: judging this turn takes more than the {self.limit:,} search steps allowed "
                "(the initial meld under open_then_manipulate, or the strict joker rule, over many tiles or jokers)"
            )


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
    if not isinstance(position, Position):
        raise TypeError(f"position must be a Position, not {type(position).__name__}")
    if max_steps is not None:
        if isinstance(max_steps, bool) or not isinstance(max_steps, int):
            raise TypeError(f"max_steps must be an int or None, not {type(max_steps).__name__}")
        if max_steps < 1:
            raise OptionError(f"max_steps must be at least 1, not {max_steps}")
    budget = _Budget(max_steps)
    rules = position.rules
    ctx = _context(rules)
    tile_of = ctx.tile_of
    reasons: list[Reason] = []
    table = _read_table(new_table, rules, ctx.valid, reasons)

    # -- every meld valid -----------------------------------------------------------------
    cache = ctx.melds
    for i, new in enumerate(table):
        if new.broken is not None:
            reasons.append(Reason("invalid_meld", f"table[{i}] is not a valid meld: not_in_rules: {new.broken}", i))
            continue
        result = _classify(new.tiles, new.keys, rules, cache)
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

    # -- tile conservation ------------------------------------------------------------------
    old_counts = _count([t._key for m in position.table for t in m.tiles])
    new_counts = _count([k for new in table for k in new.keys])
    rack_counts = _count([t._key for t in position.rack])
    for key in sorted(old_counts):
        missing = old_counts[key] - new_counts.get(key, 0)
        if missing > 0:
            tile = tile_of[key]
            what = "a joker" if tile.is_joker else f"{tile}"  # a special joker by its code
            reasons.append(
                Reason(
                    "tile_vanished",
                    f"{what} vanished from the table: the old table holds {old_counts[key]}, "
                    f"the new table {new_counts.get(key, 0)} ({_plural(missing, 'copy', 'copies')} missing)",
                )
            )
    played_counts: dict = {}
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
                Reason("tile_not_on_rack", f"{detail} ({_plural(extra - on_rack, 'copy', 'copies')} from nowhere)")
            )
    played = tuple(tile_of[k] for k in played_counts for _ in range(played_counts[k]))
    if not played:
        reasons.append(Reason("no_tile_played", "no tile from the rack was played"))
    elif rules.discard and len(played) >= len(position.rack):
        reasons.append(
            Reason(
                "no_tile_to_discard",
                f"the play uses every rack tile ({_plural(len(played), 'tile')}), leaving none to discard; "
                "under the discard rule a play keeps at least one (a player goes out by discarding the last)",
            )
        )

    # -- the initial meld ---------------------------------------------------------------------
    if not position.opened:
        _check_opening(position, table, old_counts, rack_counts, played_counts, reasons, budget)

    # -- strict joker retrieval -----------------------------------------------------------------
    if rules.joker_retrieval == "strict" and old_counts.get(_JOKER_KEY):
        _check_jokers(position, table, played_counts, tile_of, reasons, budget)

    return Verdict(not reasons, tuple(reasons), played)


def _check_opening(
    position: Position,
    table: list[_NewMeld],
    old_counts: dict[_Key, int],
    rack_counts: dict[_Key, int],
    played_counts: dict[_Key, int],
    reasons: list[Reason],
    budget: _Budget,
) -> None:
    rules = position.rules
    threshold = rules.initial_threshold
    # Pair old melds with unchanged copies on the new table.
    available: dict[tuple, list[int]] = {}
    for i in range(len(table) - 1, -1, -1):
        meld = table[i].meld
        if meld is not None:
            available.setdefault(_meld_key(meld), []).append(i)
    paired: set[int] = set()
    unpaired_old: list[int] = []
    for oi, old in enumerate(position.table):
        lst = available.get(_meld_key(old))
        if lst:
            paired.add(lst.pop())
        else:
            unpaired_old.append(oi)
    new_melds = [i for i in range(len(table)) if i not in paired]

    if not rules.open_then_manipulate:
        for oi in unpaired_old:
            reasons.append(
                Reason(
                    "opening_touched_table",
                    f"position.table[{oi}] ({position.table[oi]}) was changed, split or removed; "
                    "an initial meld may not touch the table's melds",
                )
            )
        rack_left = dict(rack_counts)
        for i in new_melds:
            borrowed = []
            for t, k in zip(table[i].tiles, table[i].keys):
                if rack_left.get(k, 0) > 0:
                    rack_left[k] -= 1
                elif old_counts.get(k, 0) > 0:
                    borrowed.append(t)
            if borrowed:
                reasons.append(
                    Reason(
                        "opening_touched_table",
                        f"table[{i}] ({format_tiles(table[i].tiles)}) uses table tile(s) {_names(borrowed)}; "
                        "an initial meld must be made of rack tiles only",
                        i,
                    )
                )
        if new_melds:
            value = sum(placed.value for i in new_melds if (placed := table[i].meld) is not None)
            if value < threshold:
                reasons.append(
                    Reason(
                        "opening_below_threshold",
                        f"the initial meld is worth {value} points, less than the {threshold} required",
                    )
                )
    else:
        best = _best_opening(table, played_counts, threshold, budget)
        if best is None or best < threshold:
            best = _initial_meld_value(played_counts, rules, threshold, best, budget)
        if best is None and unpaired_old:
            reasons.append(
                Reason(
                    "opening_touched_table",
                    "the table's melds were rearranged without an initial meld (the played rack tiles form "
                    "no valid meld)",
                )
            )
        if played_counts and (best or 0) < threshold:
            detail = (
                f"the played rack tiles can form an initial meld worth at most {best} points"
                if best is not None
                else "the played rack tiles form no valid meld, so the initial meld is worth 0 points"
            )
            reasons.append(Reason("opening_below_threshold", f"{detail}, less than the {threshold} required"))

    jokers = sum(played_counts.get(key, 0) for key in _ALL_JOKER_KEYS)
    if jokers and not rules.joker_in_initial_meld:
        reasons.append(
            Reason(
                "joker_in_opening",
                f"{_plural(jokers, 'joker')} from the rack played on the opening turn; "
                "these rules forbid jokers in the initial meld",
            )
        )


def _best_opening(table: list[_NewMeld], played_counts: dict[_Key, int], threshold: int, budget: _Budget) -> int | None:
    """The value of the most valuable non-empty set of valid new-table melds made of played rack
    tiles only (stopping early once ``threshold`` is reached); ``None`` if there is none."""
    candidates = []
    for new in table:
        if new.meld is None:
            continue
        need = _count(new.keys)
        if all(played_counts.get(k, 0) >= n for k, n in need.items()):
            candidates.append((new.meld.value, need))
    if not candidates:
        return None
    candidates.sort(key=lambda c: -c[0])
    suffix = [0] * (len(candidates) + 1)
    for k in range(len(candidates) - 1, -1, -1):
        suffix[k] = suffix[k + 1] + candidates[k][0]
    left = dict(played_counts)
    best = candidates[0][0]

    def search(k: int, value: int) -> None:
        nonlocal best
        budget.spend()
        if value > best:
            best = value
        if k == len(candidates) or best >= threshold or value + suffix[k] <= best:
            return
        gain, need = candidates[k]
        if all(left.get(t, 0) >= n for t, n in need.items()):
            for t, n in need.items():
                left[t] -= n
            search(k + 1, value + gain)
            for t, n in need.items():
                left[t] += n
        search(k + 1, value)

    search(0, 0)
    return best


# The referee enumerates melds itself, from the definitions of runs and groups, instead of using
# the solver's candidate catalogue: it must stay independent of the model it checks, so a mistake
# in one cannot hide in the other.
def _meld_shapes(rules: RuleSet) -> dict[tuple, list[tuple[tuple, int]]]:
    """For every tile key, the joker-free melds of length ``m .. 2m - 1`` holding it (see
    :meth:`_RulesContext.shapes`). Built from the definitions of runs and groups (docs/rules.md, "Melds")."""
    from itertools import combinations

    m, top = rules.min_meld_length, rules.numbers
    melds: list[tuple[tuple, ...]] = []
    for colour in rules.colour_list:
        ci = colour.index
        for length in range(m, min(2 * m - 1, top) + 1):
            for start in range(1, top + 2):
                numbers = list(range(start, start + length))
                if numbers[-1] > top:
                    # wraparound: 1 may follow the top number, ending the run (never 13-1-2)
                    if not (rules.wraparound and numbers[-1] == top + 1 and start > 1):
                        continue
                    numbers[-1] = 1
                melds.append(tuple((ci, n) for n in numbers))
    indexes = [c.index for c in rules.colour_list]
    for number in range(1, top + 1):
        for size in range(m, min(2 * m - 1, rules.colours) + 1):
            for subset in combinations(indexes, size):
                melds.append(tuple((ci, number) for ci in subset))
    shapes: dict[tuple, list[tuple[tuple, int]]] = {}
    for meld in melds:
        value = sum(n for _, n in meld)
        for i, key in enumerate(meld):
            shapes.setdefault(key, []).append((meld[:i] + meld[i + 1 :], value))
    for options in shapes.values():
        options.sort(key=lambda option: -option[1])  # the search meets rich packings first
    return shapes


def _initial_meld_value(
    played_counts: dict, rules: RuleSet, threshold: int, seen: int | None, budget: _Budget
) -> int | None:
    """The value of the most valuable initial meld the played tiles can form, capped at
    ``threshold``; ``None`` if they form no valid meld. ``seen``: the best found among the new
    table's melds (a packing, so a lower bound).

    Whether the threshold is reached is decided exactly (:meth:`_Packing.reaches`). Below it the
    exact value only words the message: a bisection with the same search finds it within
    :data:`_MESSAGE_STEPS` steps, else the message gives the tightest bound found (still a true
    "at most")."""
    packing = _Packing(played_counts, rules, budget)
    if packing.reaches(max(threshold, 1)):
        return threshold
    if threshold <= 1 or not packing.reaches(1):
        return None
    low, high = seen or 1, min(packing.upper(), threshold - 1)  # the value lies in [low, high]
    packing.budget = _Budget(_MESSAGE_STEPS)  # the verdict is settled: only the message waits
    try:
        while low < high:
            middle = (low + high + 1) // 2
            if packing.reaches(middle):
                low = middle
            else:
                high = middle - 1
    except RefereeLimitError:
        pass
    return high


_MESSAGE_STEPS = 20_000


class _Packing:
    """Packings of the played tiles into valid melds (a joker worth the tile it stands for).

    Each meld of a packing holds a real tile; the search takes the lowest remaining real tile
    (:func:`_number_first`) and either puts it in a meld (every other slot filled by a real tile
    or, in every possible way, by a joker) or leaves one copy of it out. A state is the tiles
    left: a tuple of counts by kind, jokers last."""

    def __init__(self, played_counts: dict, rules: RuleSet, budget: _Budget) -> None:
        self.budget = budget
        self.ctx = _context(rules)
        self.kinds = sorted((k for k in played_counts if k != _JOKER_KEY), key=_number_first)
        self.index = {k: i for i, k in enumerate(self.kinds)}
        self.joker = len(self.kinds)
        self.start = tuple(played_counts[k] for k in self.kinds) + (played_counts.get(_JOKER_KEY, 0),)
        self.values = [k[1] for k in self.kinds] + [rules.numbers]
        self.top = rules.numbers
        self.failed: dict[tuple, int] = {}
        """State -> the smallest value it is known not to reach (kept across calls)."""

    def upper(self) -> int:
        """Every played tile in some meld, a joker worth the top number: no packing is worth more."""
        return sum(v * n for v, n in zip(self.values, self.start))

    def reaches(self, need: int) -> bool:
        """Whether the played tiles can form melds worth ``need`` or more. Exact; a branch is cut
        once even every tile it has left in a meld could not reach ``need`` (each tile left out
        and each joker standing below the top number lowers that bound), so a threshold near the
        played tiles' worth is settled quickly too."""
        return need <= 0 or self._reaches(self.start, need, self.upper() - need)

    def _reaches(self, state: tuple, need: int, slack: int) -> bool:
        """``slack``: the bound for ``state`` minus ``need``, kept up to date without summing."""
        if slack < 0:
            return False
        self.budget.spend()
        known = self.failed.get(state)
        if known is not None and need >= known:
            return False
        i = next((i for i in range(self.joker) if state[i]), None)
        if i is None:
            return False
        counts = list(state)
        counts[i] -= 1
        for others, value in self.ctx.shapes(self.kinds[i]):
            for after, waste in _fill(others, counts, self.index, self.joker, self.top).items():
                if need <= value or self._reaches(after, need - value, slack - waste):
                    return True
        if self._reaches(tuple(counts), need, slack - self.values[i]):
            return True
        self.failed[state] = need if known is None else min(known, need)
        return False


def _number_first(key: tuple) -> tuple:
    """Tiles by number, then colour: the search then takes the lowest number first, so the tiles
    a meld removes lie within a few numbers ahead and the states stay few (colour first, a group
    could remove any tiles of the later colours: exponentially many states)."""
    return key[1], key[0]


def _fill(others: tuple, counts: list, index: dict, joker: int, top: int) -> dict[tuple, int]:
    """Every way to fill the slots ``others`` from ``counts`` (real tiles or jokers): the states
    after, each with its least *waste* (``top`` minus the number, over the slots jokers fill)."""
    states = [(counts, 0)]
    for key in others:
        nxt = []
        i = index.get(key)
        for c, waste in states:
            if i is not None and c[i]:
                d = c.copy()
                d[i] -= 1
                nxt.append((d, waste))
            if c[joker]:
                d = c.copy()
                d[joker] -= 1
                nxt.append((d, waste + top - key[1]))
        states = nxt
        if not states:
            return {}
    after: dict[tuple, int] = {}
    for c, waste in states:
        state = tuple(c)
        if waste < after.get(state, waste + 1):
            after[state] = waste
    return after


def _check_jokers(
    position: Position,
    table: list[_NewMeld],
    played_counts: dict[_Key, int],
    tile_of: dict[_Key, Tile],
    reasons: list[Reason],
    budget: _Budget,
) -> None:
    """The strict joker rule (module docstring): legal if ANY matching of old to new jokers works."""
    rules = position.rules
    old_jokers = [
        (oi, slot, frozenset(t._key for t in _stands_for(meld, slot, rules)))
        for oi, meld in enumerate(position.table)
        for slot, t in enumerate(meld.tiles)
        if t.is_joker
    ]
    new_jokers = [
        (i, None if new.meld is None else frozenset(t._key for t in _stands_for(new.meld, slot, rules)))
        for i, new in enumerate(table)
        for slot, k in enumerate(new.keys)
        if k == _JOKER_KEY
    ]
    matching = JokerMatching(
        new_jokers,
        {i: [k for k in table[i].keys if k != _JOKER_KEY] for i in {i for i, _ in new_jokers}},
        {k: n for k, n in played_counts.items() if k != _JOKER_KEY},
        {oi: frozenset(t._key for t in position.table[oi].tiles if not t.is_joker) for oi, _, _ in old_jokers},
    )

    def solve(jokers: list, deficit: int, beside: bool = True) -> bool:
        origins = [oi for oi, _, _ in jokers] if beside else None
        return matching.possible([stands for _, _, stands in jokers], deficit, budget.spend, origins)

    deficit = max(0, len(old_jokers) - len(new_jokers))
    if solve(old_jokers, deficit):
        return
    # Illegal: name each joker that fails on its own; if each is fine alone, report them jointly.
    blamed = False
    for joker in old_jokers:
        if solve([joker], deficit):
            continue
        blamed = True
        oi, slot, stands = joker
        what = " or ".join(str(tile_of[k]) for k in sorted(stands))
        if not any(played_counts.get(k, 0) for k in stands):
            why = f"{what} was not played from the rack to replace it"
        else:
            why = "the freed joker is not in a meld with at least two more tiles played from the rack"
        old = position.table[oi]
        if solve([joker], deficit, beside=False):
            # It could keep standing for the same tile, but only away from its old meld.
            mates = format_tiles([t for t in old.tiles if not t.is_joker])
            how = (
                f"on the new table it stands for it only in a meld holding none of the tiles of its old meld "
                f"({mates}), and a joker that is not freed stays with its meld"
            )
        else:
            how = "on the new table it stands for something else"
        reasons.append(
            Reason(
                "joker_retrieval",
                f"the joker in position.table[{oi}] ({old}, slot {slot}) stood for {what}; "
                f"{how}; it was not freed legally: {why}",
            )
        )
    if not blamed:
        reasons.append(
            Reason(
                "joker_retrieval",
                "the table jokers cannot all be accounted for together: each must keep standing for the same "
                "tile in a meld with a tile of its old meld (each such tile beside one new meld's jokers, and not "
                "also one of a freed joker's rack tiles), or be freed by its own replacement from the rack and "
                "played with at least two more rack tiles",
            )
        )
