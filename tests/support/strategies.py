"""Reusable Hypothesis strategies: rule sets, tiles, valid melds and valid positions.

Import them from any test module::

    from tests.support.strategies import rule_sets, tiles, valid_melds, positions

Valid melds are built from first principles (a run is consecutive numbers of one colour, a
group is one number in distinct colours, jokers replace some slots), not with the classifier
under test, so tests may use them to check it.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import assume
from hypothesis import strategies as st

from rummisolve.melds import Meld
from rummisolve.position import Position
from rummisolve.rules import STANDARD, XP, RuleSet
from rummisolve.tiles import JOKER, Colour, Tile

__all__ = [
    "rule_sets",
    "small_rule_sets",
    "any_rules",
    "tile_codes",
    "tiles",
    "run_tiles",
    "group_tiles",
    "meld_tiles",
    "valid_melds",
    "positions",
]

COLOURS = tuple(Colour)


def rule_sets(
    colours: tuple[int, int] = (1, 8),
    numbers: tuple[int, int] = (3, 20),
    min_meld_length: tuple[int, int] = (2, 5),
    copies: tuple[int, int] = (1, 3),
    jokers: tuple[int, int] = (0, 4),
) -> st.SearchStrategy[RuleSet]:
    """Random valid rule sets (generalised play), every option drawn."""
    return st.builds(
        RuleSet,
        colours=st.integers(*colours),
        numbers=st.integers(*numbers),
        copies=st.integers(*copies),
        jokers=st.integers(*jokers),
        min_meld_length=st.integers(*min_meld_length),
        initial_threshold=st.sampled_from([0, 1, 10, 13, 30, 50]),
        wraparound=st.booleans(),
        open_then_manipulate=st.booleans(),
        joker_in_initial_meld=st.booleans(),
        joker_retrieval=st.sampled_from(["free", "strict"]),
    )


def small_rule_sets() -> st.SearchStrategy[RuleSet]:
    """Rule sets with few tile kinds (fast for exhaustive checks): 1-4 colours, 3-8 numbers."""
    return rule_sets(colours=(1, 4), numbers=(3, 8), min_meld_length=(2, 4), copies=(1, 2), jokers=(0, 2))


def any_rules() -> st.SearchStrategy[RuleSet]:
    """The presets (often) or a random rule set."""
    return st.one_of(st.sampled_from([STANDARD, XP, STANDARD.replace(wraparound=True)]), rule_sets())


def tile_codes() -> st.SearchStrategy[str]:
    """Syntactically valid tile codes in any spelling (case, Y for orange, leading zeros, spaces)."""
    letter = st.sampled_from([c.value for c in COLOURS] + ["Y"])
    letter = st.tuples(letter, st.booleans()).map(lambda lb: lb[0].lower() if lb[1] else lb[0])
    number = st.tuples(st.integers(1, 999), st.integers(0, 2)).map(lambda nz: "0" * nz[1] + str(nz[0]))
    coloured = st.builds(lambda a, b: a + b, letter, number)
    code = st.one_of(coloured, st.sampled_from(["J", "j"]))
    return st.builds(
        lambda pre, c, post: pre + c + post, st.sampled_from(["", " ", "\t"]), code, st.sampled_from(["", " ", "\n"])
    )


def tiles(rules: RuleSet = STANDARD, jokers: bool = True) -> st.SearchStrategy[Tile]:
    """Tiles that exist under ``rules`` (the joker too if the rules have jokers and ``jokers``)."""
    kinds = list(rules.tile_kinds)
    if jokers and rules.jokers:
        kinds.append(JOKER)
    return st.sampled_from(kinds)


def _runs_possible(rules: RuleSet) -> bool:
    return rules.numbers >= rules.min_meld_length


def _groups_possible(rules: RuleSet) -> bool:
    return rules.colours >= rules.min_meld_length


@st.composite
def run_tiles(draw, rules: RuleSet = STANDARD, max_length: int | None = None) -> tuple[Tile, ...]:
    """A joker-free run in play order (wrapping ``... top 1`` only when the rules allow it)."""
    top, low = rules.numbers, rules.min_meld_length
    high = top if max_length is None else max(low, min(top, max_length))
    length = draw(st.integers(low, high))
    colour = draw(st.sampled_from(rules.colour_list))
    wrap = rules.wraparound and length >= 2 and draw(st.booleans())
    if wrap:  # x, x+1, ..., top, 1 with x >= 2
        start = top - length + 2
        numbers = list(range(start, top + 1)) + [1]
    else:
        start = draw(st.integers(1, top - length + 1))
        numbers = list(range(start, start + length))
    return tuple(Tile(colour, n) for n in numbers)


@st.composite
def group_tiles(draw, rules: RuleSet = STANDARD) -> tuple[Tile, ...]:
    """A joker-free group: one number, distinct colours, in random order."""
    number = draw(st.integers(1, rules.numbers))
    length = draw(st.integers(rules.min_meld_length, rules.colours))
    colours = draw(st.permutations(rules.colour_list))[:length]
    return tuple(Tile(c, number) for c in colours)


@st.composite
def meld_tiles(draw, rules: RuleSet = STANDARD, max_jokers: int | None = None, max_length: int | None = None):
    """The tiles of a valid meld in play order: a run or group with up to ``max_jokers`` slots
    (default ``rules.jokers``) replaced by jokers, never all of them. Rejects rule sets that
    allow no meld at all."""
    kinds = []
    if _runs_possible(rules):
        kinds.append("run")
    if _groups_possible(rules):
        kinds.append("group")
    if not kinds:
        assume(False)
    kind = draw(st.sampled_from(kinds))
    base = list(draw(run_tiles(rules, max_length)) if kind == "run" else draw(group_tiles(rules)))
    limit = rules.jokers if max_jokers is None else min(max_jokers, rules.jokers)
    limit = min(limit, len(base) - 1)
    if limit > 0:
        slots = draw(st.lists(st.integers(0, len(base) - 1), max_size=limit, unique=True))
        for i in slots:
            base[i] = JOKER
    return tuple(base)


def valid_melds(rules: RuleSet = STANDARD, max_jokers: int | None = None, max_length: int | None = None):
    """Valid :class:`Meld` objects under ``rules`` (see :func:`meld_tiles`)."""
    return meld_tiles(rules, max_jokers, max_length).map(lambda ts: Meld.of(ts, rules))


@st.composite
def positions(
    draw,
    rules: RuleSet | st.SearchStrategy[RuleSet] | None = None,
    max_melds: int = 6,
    max_rack: int | None = None,
    opened: bool | None = None,
) -> Position:
    """A valid position: table melds and a rack whose tile counts the set can supply.

    ``rules`` is a RuleSet, a strategy of them, or ``None`` (standard, xp or a random set).
    Melds that would need more copies than remain are skipped; the rack is a random
    sub-multiset of what is left (at most ``max_rack`` tiles, default ``rules.rack_size``).
    """
    if rules is None:
        rules = any_rules()
    if isinstance(rules, st.SearchStrategy):
        rules = draw(rules)
    remaining = Counter(rules.full_set())
    table = []
    for _ in range(draw(st.integers(0, max_melds))):
        if not (_runs_possible(rules) or _groups_possible(rules)):
            break
        tiles_ = draw(meld_tiles(rules, max_length=8))
        need = Counter(tiles_)
        if all(remaining[t] >= k for t, k in need.items()):
            remaining -= need
            table.append(Meld.of(tiles_, rules))
    pool = sorted(remaining.elements())
    size = rules.rack_size if max_rack is None else max_rack
    picks = draw(st.lists(st.integers(0, max(len(pool) - 1, 0)), max_size=min(size, len(pool)), unique=True))
    rack = tuple(pool[i] for i in picks) if pool else ()
    is_opened = draw(st.booleans()) if opened is None else opened
    return Position(tuple(table), rack, is_opened, rules)
