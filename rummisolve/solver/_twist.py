"""Twist pieces: the parts of melds with special jokers (``JD JC JM``) a position's tiles could
form, listed per position, only when special jokers are in play (so standard positions pay nothing).

A piece's numbered slots are *kind slots*, like a base set's: a real tile or a regular joker
standing for that kind, counted through the model's ``jk[k]``. A piece whose kind slots regular
jokers alone could fill comes in *anchored* variants: one of its slots must hold a real tile (the
model keeps ``u[k] - jk[k]`` at least the anchors of kind ``k``). Only melds that cannot be cut into
smaller valid melds need to be listed (the rest is their union), so the shapes are bounded
(``m`` is the minimum meld length):

- ``double``: a run with double jokers and no colour change, ``m .. 2m-1`` tiles;
- ``group``: a group with double jokers, ``m .. 2m-1`` tiles, at most one slot per colour;
- ``mirror``: ``L JM reverse(L)``, ``L`` a run fragment of ``2 .. max(m+1, 2m-2)`` slots (a longer
  one gives two runs of ``m`` away from its far ends) or a group fragment of 2 or more colours;
- a colour-changing run is a chain of *segments* joined by ``JC``: an outer segment (``left`` before
  the first ``JC``, ``right`` after the last) or a ``middle`` one, each one colour, 1 to
  ``max(3, m)`` tiles (a longer end segment gives its far end away as a run of its own), at least
  one of them numbered; the model joins them at the numbers where a ``JC`` stands, neighbours of
  different colours.

Those bounds assume a cut leaves a numbered tile in each part. In an initial meld (a threshold)
jokers cannot move to other melds instead without changing what they are worth (``R1 R2 R3 J J
JD`` is 1..7, worth 28; ``R1 R2 J`` and ``R3 J JD``, 24), so there longer shapes are listed, each
with jokers in every tile past its first ``m`` (:func:`_past_bound`), as a shape no cut splits
has them: runs with double jokers and segments reach ``m + jokers`` tiles (``jokers``: the
rack's ``J`` and ``JD``; a segment next to a ``JC`` is jokers only once its far end is given away:
``K1 K2 K3 JC J B6 B7 B8``), groups ``1 + jokers`` (one real tile); in the opening layer and,
under ``open_then_manipulate``, the final table that holds it. Elsewhere (no threshold) a long
segment no cut splits is a listed one lengthened by *joker pads* (:func:`joker_pads`), one ``J``
or ``JD`` each: the same ``K1 K2 K3 JC J B6 B7 B8`` on an opened rack is ``K1 K2 K3``, ``JC``, a
pad ``J``, ``B6 B7 B8`` (listing long segments in every layer instead doubled the Twist positions'
CPU time). Mirror sides keep their bound (a longer side with jokers only at its far end is worth
less than its jokers elsewhere, we believe; not checked beyond 8 tiles).

Every listed shape is a valid meld or part of one (the tests check them against the meld
classifier, the referee checks every answer); that the shapes suffice is what the differential
test against an unrestricted enumeration (``tests/support/twist_oracle.py``) checks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from rummisolve.rule_facts import run_end, run_starts, slot_number
from rummisolve.rules import RuleSet

__all__ = [
    "Piece",
    "TwistModel",
    "twist_pieces",
    "joker_pads",
    "pad_host",
    "PADS",
    "KIND",
    "DOUBLE",
    "CHANGE",
    "MIRROR",
    "PAD",
]

PADS = ("after_change", "before_change", "tail", "head")
"""Joker pads (:func:`joker_pads`): one ``J`` or ``JD`` a colour-change segment holds beyond its listed piece."""

KIND, DOUBLE, CHANGE, MIRROR, PAD = 0, 1, 2, 3, 4
"""Piece elements: a kind slot ``(KIND, k)``, a double joker ``(DOUBLE, k)`` over kinds ``k, k+1`` (run)
or ``(DOUBLE, -1)`` (group), a colour change ``(CHANGE, number)``, the mirror ``(MIRROR, -1)``, a
regular joker of a pad ``(PAD, k)`` (standing for kind ``k``, not a kind slot)."""


@dataclass(eq=False)
class Piece:
    """A candidate piece (see the module docstring)."""

    shape: str
    """``double``, ``group``, ``mirror``, ``left``, ``right``, ``middle``, a joker pad (:data:`PADS`)
    or ``kept`` (a table meld with special jokers, kept exactly as it was)."""
    elements: tuple[tuple[int, int], ...]
    """Play order (a segment without its ``JC``)."""
    slots: dict[int, int]
    """Kind -> kind slots."""
    anchors: dict[int, int] = field(default_factory=dict)
    """Kind -> slots that must hold a real tile."""
    joker_anchors: dict[int, int] = field(default_factory=dict)
    """Kind -> slots that must hold a regular joker (kept melds)."""
    doubles: int = 0
    changes: int = 0
    """``JC`` it holds (kept melds) or that follow it (``left``, ``middle``: one)."""
    mirrors: int = 0
    value: int = 0
    """Initial-meld value of its slots (a ``left``/``middle`` segment also counts the ``JC`` after it)."""
    colour: int = -1
    first: int = 0
    """Segments: colour index, first and last number."""
    last: int = 0
    wraps: bool = False
    """Segments: part of a run that ends on the 1 after the top number (wraparound); such segments
    join only each other, and their slots ``first``, ``last`` may be ``top + 1`` (that 1)."""
    upper: int = 1
    """At most this many copies."""
    table_index: int = -1
    """Kept melds: the table meld."""
    var: int = -1

    @property
    def change_before(self) -> tuple[int, bool]:
        """Segments after a ``JC``: where it stands (its slot, whether the run wraps)."""
        return self.first - 1, self.wraps

    @property
    def change_after(self) -> tuple[int, bool]:
        """Segments before a ``JC``: where it stands."""
        return self.last + 1, self.wraps

    @property
    def tiles(self) -> int:
        """Physical tiles (a ``left``/``middle`` segment with the ``JC`` after it)."""
        return sum(self.slots.values()) + self.doubles + self.changes + self.mirrors


def twist_pieces(
    rules: RuleSet,
    available: list[int],
    jokers: int,
    doubles: int,
    changes: int,
    mirrors: int,
    *,
    long: int = 0,
) -> list[Piece]:
    """Every piece whose tiles may be available: ``available[k]`` numbered tiles of kind ``k``,
    ``jokers`` regular jokers and the special jokers in play (fresh copies, the pieces and order
    of :func:`listed_pieces`); ``long``: in an initial meld, the jokers (``J`` and ``JD``) its
    longer shapes may hold (the module docstring; 0: none).

    The pieces of every tile available are listed once per rule set and special jokers
    (:func:`_templates`); a position keeps those its tiles fit (at most ``jokers`` slots without a
    tile, counted from bit masks) and anchors those regular jokers alone could fill. Long shapes
    depend on the position's jokers: with ``long`` the pieces are listed afresh."""
    if long:
        return listed_pieces(rules, available, jokers, doubles, changes, mirrors, long=long)
    zero = short = 0
    for k, n in enumerate(available):
        if n < 2:
            short |= 1 << k
            if not n:
                zero |= 1 << k
    found: list[Piece] = []
    for piece, once, twice, size in _templates(rules, doubles, changes, mirrors):
        if (once & zero).bit_count() + (twice & short).bit_count() > jokers:
            continue
        if size > jokers:
            copy = object.__new__(Piece)
            copy.__dict__.update(piece.__dict__)
            found.append(copy)
            continue
        for k in piece.slots:  # as _anchored does
            if available[k]:
                copy = object.__new__(Piece)
                copy.__dict__.update(piece.__dict__)
                copy.anchors = {k: 1}
                found.append(copy)
    return found


@lru_cache(maxsize=64)
def _templates(rules: RuleSet, doubles: int, changes: int, mirrors: int) -> tuple[tuple[Piece, int, int, int], ...]:
    """The pieces :func:`listed_pieces` gives with every tile available and no regular joker (none
    anchored), each with the bit masks of its kinds with a slot and with two (the most a piece
    has of one kind), and its number of kind slots."""
    every = [2 * rules.copies] * rules.colours * rules.numbers
    templates = []
    for piece in listed_pieces(rules, every, 0, doubles, changes, mirrors):
        assert max(piece.slots.values()) <= 2 and not piece.anchors, piece
        once = sum(1 << k for k in piece.slots)
        twice = sum(1 << k for k, n in piece.slots.items() if n == 2)
        templates.append((piece, once, twice, sum(piece.slots.values())))
    return tuple(templates)


def listed_pieces(
    rules: RuleSet,
    available: list[int],
    jokers: int,
    doubles: int,
    changes: int,
    mirrors: int,
    *,
    long: int = 0,
) -> list[Piece]:
    """:func:`twist_pieces`, listed afresh: the enumeration itself."""
    found: list[Piece] = []
    if doubles:
        _doubles(rules, available, jokers, doubles, found, long)
        _groups(rules, available, jokers, doubles, found, long)
    if changes:
        for colour in range(rules.colours):
            for first in range(1, run_end(rules, 3) + 1):
                _segments(rules, available, jokers, doubles, changes, colour, first, found, long)
    if mirrors:
        _mirrors(rules, available, jokers, mirrors, found)
    return found


def _past_bound(size: int, bound: int, m: int, joker_tiles: int) -> bool:
    """Whether a piece of ``size`` tiles is longer than ``bound`` and yet not needed: such a piece
    is listed only when its tiles past the first ``m`` can all be jokers (``joker_tiles``: its
    double jokers and the regular jokers in play)."""
    return size > bound and size - m > joker_tiles


def _fits(available: list[int], slots: dict[int, int], jokers: int) -> bool:
    missing = sum(max(0, n - available[k]) for k, n in slots.items())
    return missing <= jokers


def _anchored(piece: Piece, available: list[int], jokers: int, found: list[Piece]) -> None:
    """``piece`` itself, or when regular jokers could fill all its kind slots, one variant per kind
    that anchors a real tile there."""
    if sum(piece.slots.values()) > jokers:
        found.append(piece)
        return
    for k in piece.slots:
        if available[k]:
            found.append(Piece(**{**piece.__dict__, "anchors": {k: 1}}))


def _extend(
    grow: Callable[[int, int, dict[int, int], int], None],
    stack: list[tuple[int, int]],
    number: int,
    used: int,
    slots: dict[int, int],
    value: int,
    colour: int,
    double_fits: bool,
    available: list[int],
    jokers: int,
    top: int,
) -> None:
    """Grow a one-colour run by its next slot ``number`` (``top + 1`` is the 1 that follows the top
    number under wraparound): that tile (or a regular joker standing for it), or else, where
    ``double_fits``, a double joker over ``number`` and ``number + 1``."""
    k = _kind(colour, number, top)
    if available[k] or jokers:
        stack.append((KIND, k))
        slots[k] = 1
        grow(number + 1, used, slots, value + slot_number(number, top))
        del slots[k]
        stack.pop()
    if double_fits:
        stack.append((DOUBLE, k))
        grow(number + 2, used + 1, slots, value + slot_number(number, top) + slot_number(number + 1, top))
        stack.pop()


def _kind(colour: int, slot: int, top: int) -> int:
    return colour * top + slot_number(slot, top) - 1


def _doubles(rules: RuleSet, available: list[int], jokers: int, doubles: int, found: list[Piece], long: int) -> None:
    """Runs with double jokers and no colour change: ``m .. 2m-1`` tiles (``m + long`` where more)."""
    for colour in range(rules.colours):
        for start in range(1, rules.numbers + 1):
            _double_runs(rules, available, jokers, doubles, colour, start, found, long)


def _double_runs(
    rules: RuleSet,
    available: list[int],
    jokers: int,
    doubles: int,
    colour: int,
    start: int,
    found: list[Piece],
    long: int,
) -> None:
    """The runs with double jokers of colour ``colour`` starting at ``start``."""
    top, m = rules.numbers, rules.min_meld_length
    bound = 2 * m - 1
    longest = max(bound, m + long)
    last = run_end(rules, start)
    stack: list[tuple[int, int]] = []

    def grow(number: int, used: int, slots: dict[int, int], value: int) -> None:
        size = len(stack)
        if _past_bound(size, bound, m, min(used + jokers, long)):
            return  # longer still holds more real tiles past the first m
        if used and size >= m and slots and _fits(available, slots, jokers):
            piece = Piece("double", tuple(stack), dict(slots), doubles=used, value=value)
            piece.upper = doubles // used
            _anchored(piece, available, jokers, found)
        if size >= longest or number > last:
            return
        fits = number < last and used < doubles
        _extend(grow, stack, number, used, slots, value, colour, fits, available, jokers, top)

    grow(start, 0, {}, 0)


def _groups(rules: RuleSet, available: list[int], jokers: int, doubles: int, found: list[Piece], long: int) -> None:
    """Groups with double jokers: kind slots in colour order, then the double jokers (``m .. 2m-1``
    tiles; ``1 + long`` where more: one real tile, the rest jokers)."""
    top, m = rules.numbers, rules.min_meld_length
    bound = 2 * m - 1
    longest = max(bound, 1 + long)
    n_colours = rules.colours
    for number in range(1, top + 1):
        for d in range(1, doubles + 1):
            for r in range(1, n_colours + 1):
                if (
                    r + 2 * d > n_colours
                    or not m <= r + d <= longest
                    or _past_bound(r + d, bound, 1, min(d + jokers, long))
                ):
                    continue
                for subset in combinations(range(n_colours), r):
                    slots = {c * top + number - 1: 1 for c in subset}
                    if not _fits(available, slots, jokers):
                        continue
                    elements = tuple((KIND, k) for k in slots) + ((DOUBLE, -1),) * d
                    piece = Piece("group", elements, slots, doubles=d, value=number * (r + 2 * d))
                    piece.upper = doubles // d
                    _anchored(piece, available, jokers, found)


def _segments(
    rules: RuleSet,
    available: list[int],
    jokers: int,
    doubles: int,
    changes: int,
    colour: int,
    first: int,
    found: list[Piece],
    long: int,
) -> None:
    """Segments of colour ``colour`` starting at ``first``: 1 to ``max(3, m)`` tiles, at least one
    kind slot (``m + long`` where more).

    Numbers are slots: under wraparound ``top + 1`` is the 1 after the top number, which ends a
    run, so only a ``right`` segment reaches it (``first`` may be ``top + 1``: the 1 alone after a
    ``JC`` standing for the top number)."""
    top, m = rules.numbers, rules.min_meld_length
    bound = max(3, m)  # an end segment of m + 1 tiles gives m away (a middle one: 3 is enough)
    longest = max(bound, m + long)
    end = run_end(rules, first)  # a run from 1 never wraps (nor holds the kind of 1 twice)
    stack: list[tuple[int, int]] = []

    def grow(number: int, used: int, slots: dict[int, int], value: int) -> None:
        last = number - 1
        if _past_bound(len(stack), bound, m, min(used + jokers, long)):
            return
        if slots and _fits(available, slots, jokers):
            for shape, wraps in _segment_shapes(first, last, top, end > top, changes):
                follows = 1 if shape != "right" else 0
                piece = Piece(
                    shape,
                    tuple(stack),
                    dict(slots),
                    doubles=used,
                    changes=follows,
                    value=value + follows * (last + 1),
                    colour=colour,
                    first=first,
                    last=last,
                    wraps=wraps,
                )
                piece.upper = min(doubles // used if used else changes, changes)
                _anchored(piece, available, jokers, found)
        if len(stack) >= longest or number > end:
            return
        _extend(
            grow, stack, number, used, slots, value, colour, number < end and used < doubles, available, jokers, top
        )

    grow(first, 0, {}, 0)


def _segment_shapes(first: int, last: int, top: int, wraparound: bool, changes: int) -> list[tuple[str, bool]]:
    """The shapes a segment over slots ``first .. last`` may take, each with whether it is part of
    a run that wraps (ends on the 1 after the top number). A wrapping run starts above 1 (1 may
    not both precede 2 and follow the top number), so its segments pair only among themselves."""
    shapes = []
    for wraps in (False, True) if wraparound else (False,):
        end = top + 1 if wraps else top
        if last + 2 <= end and (first >= 2 or not wraps):
            shapes.append(("left", wraps))  # a JC at last + 1, something after it
            if first >= 3 and changes >= 2:
                shapes.append(("middle", wraps))
        if first >= 3 and (last == top + 1) == wraps:
            shapes.append(("right", wraps))  # a JC at first - 1, something before it
    return shapes


def _mirrors(rules: RuleSet, available: list[int], jokers: int, mirrors: int, found: list[Piece]) -> None:
    """Mirror melds ``L JM reverse(L)``; a side's slot is the tile or a regular joker for it."""
    top, m = rules.numbers, rules.min_meld_length
    n_colours = rules.colours
    fragments: list[tuple[list[int], int]] = []  # (kinds of L in play order, value of L)
    for colour in range(n_colours):
        for length in range(2, max(m + 1, 2 * m - 2) + 1):
            for start in run_starts(rules, length):
                numbers = [slot_number(start + i, top) for i in range(length)]  # may end on 1 (wraparound)
                fragments.append(([colour * top + n - 1 for n in numbers], sum(numbers)))
    for number in range(1, top + 1):
        for size in range(2, n_colours + 1):
            for subset in combinations(range(n_colours), size):
                fragments.append(([c * top + number - 1 for c in subset], number * size))
    for kinds, value in fragments:
        slots = {k: 2 for k in kinds}
        if not _fits(available, slots, jokers):
            continue
        elements = tuple((KIND, k) for k in kinds) + ((MIRROR, -1),) + tuple((KIND, k) for k in reversed(kinds))
        piece = Piece("mirror", elements, slots, mirrors=1, value=2 * value, upper=mirrors)
        _anchored(piece, available, jokers, found)


def joker_pads(rules: RuleSet, jokers: int, doubles: int, changes: int, pieces: list[Piece]) -> list[Piece]:
    """Joker pads: a regular joker (counted among the layer's jokers, not in a kind slot) or a
    ``JD`` that lengthens a colour-change segment of ``pieces`` past its listed piece, in the same
    colour. A long segment no cut splits is such a piece with pads: a cut leaves a part of jokers
    only, next to the ``JC`` (``K1 K2 K3 JC J B6 B7 B8``) or at the run's far end (``O2 JC B4 J
    JD JD``), and a pad is that part's tile. Shapes: an ``after_change`` pad follows a ``JC`` or
    another such pad and precedes a segment that follows a ``JC``; a ``before_change`` pad,
    mirrored; a ``tail`` pad follows a ``right`` segment or a tail, a ``head`` pad precedes a
    ``left`` segment or a head. Only pads within reach of a segment they may continue
    (:func:`pad_host`) are listed, and tails and heads only with 3 ``J`` or ``JD`` or more (their
    segment holds one numbered tile: the listed piece holds 2 jokers beside it). Without a threshold only (a pad moves a ``JC``, whose value a
    segment counts)."""
    if not changes or not (jokers or doubles):
        return []
    reach = jokers + 2 * doubles  # slots the pads of one segment may cover
    reach_outer = jokers + doubles >= 3
    near: dict[tuple[str, int, bool], set[int]] = {}  # (shape, colour, wraps) -> slots a pad may hold
    for piece in pieces:
        if piece.shape not in ("left", "right", "middle") or not pad_host(piece, rules):
            continue
        key = (piece.colour, piece.wraps)
        low, high = range(piece.first - reach, piece.first), range(piece.last + 1, piece.last + 1 + reach)
        if piece.shape != "left":
            near.setdefault(("after_change", *key), set()).update(low)
        if piece.shape != "right":
            near.setdefault(("before_change", *key), set()).update(high)
        if piece.shape == "right" and reach_outer:
            near.setdefault(("tail", *key), set()).update(high)
        if piece.shape == "left" and reach_outer:
            near.setdefault(("head", *key), set()).update(low)
    found = []
    for pad in _pads(rules, jokers > 0, doubles, changes):
        if {pad.first, pad.last} <= near.get((pad.shape, pad.colour, pad.wraps), set()):
            copy = object.__new__(Piece)  # the model writes its variable on it
            copy.__dict__.update(pad.__dict__)
            found.append(copy)
    return found


@lru_cache(maxsize=64)
def _pads(rules: RuleSet, regular: bool, doubles: int, changes: int) -> tuple[Piece, ...]:
    """Every joker pad (:func:`joker_pads`), listed once per rule set and special jokers."""
    top = rules.numbers
    found: list[Piece] = []
    for end in dict.fromkeys((run_end(rules, 1), run_end(rules, 2))):  # the top; under wraparound, its 1 too
        wraps = end > top
        for colour in range(rules.colours):
            for first in range(1, end + 1):
                k = _kind(colour, first, top)
                units = [(PAD, k, 0)] if regular else []
                if doubles and first < end:
                    units.append((DOUBLE, k, 1))
                for what, k, used in units:
                    last = first + used
                    for shape in PADS:
                        if not _pad_fits(shape, first, last, end, wraps):
                            continue
                        piece = Piece(shape, ((what, k),), {}, doubles=used, colour=colour, first=first, last=last)
                        piece.joker_anchors = {} if used else {-1: 1}
                        piece.wraps = wraps
                        piece.upper = min(changes, doubles) if used else changes
                        found.append(piece)
    return tuple(found)


def pad_host(piece: Piece, rules: RuleSet) -> bool:
    """Whether a joker pad may continue ``piece``: another pad, or a segment of the most tiles
    listed (``max(3, m)``): a long segment no cut splits has its numbered tiles within that many
    tiles of one another (within 3 of its end, or only one), so the rest can be pads."""
    return piece.shape in PADS or len(piece.elements) == max(3, rules.min_meld_length)


def _pad_fits(shape: str, first: int, last: int, end: int, wraps: bool) -> bool:
    """Whether a pad over slots ``first .. last`` leaves room for what its shape joins (a wrapping
    run starts above 1)."""
    low = 2 if wraps else 1
    if shape == "after_change":  # a JC at first - 1 or before, a segment from last + 1 on
        return first >= low + 2 and last + 1 <= end
    if shape == "before_change":  # a segment up to first - 1, a JC at last + 1 or after, more after it
        return first >= low + 1 and last + 2 <= end
    if shape == "tail":  # a JC before the segment it follows; a wrapping run ends on its 1
        return not wraps and first >= 4 and last <= end
    return first >= low and last + 3 <= end  # head


@dataclass
class TwistModel:
    """The pieces of one layer and the variables that count its special jokers."""

    pieces: list[Piece]
    kinds: set[int]
    """Kinds that some piece has slots of."""
    played: dict[int, int] = field(default_factory=dict)
    """Special joker (0 ``JD``, 1 ``JC``, 2 ``JM``) -> variable: rack ones played (not in an official opening)."""
    layer_specials: tuple[int, int, int] = (0, 0, 0)
    rack_specials: tuple[int, int, int] = (0, 0, 0)
    kind_terms: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """Kind -> (piece variable, kind slots)."""
    anchor_terms: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """Kind -> (piece variable, slots that must hold a real tile)."""
