"""A pure-Python exhaustive search for SMALL positions: the second check of the MIP oracle.

Nothing here comes from :mod:`benchmarks.oracle`: it tries every sub-multiset of the rack and
every partition of the resulting tiles into melds of any length, and it asks the foundation's
meld classifier (:func:`rummisolve.melds.meld_problem`) whether each meld is valid. Exponential:
meant for about a dozen tiles in play.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import product

from rummisolve.melds import Meld, meld_problem
from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.tiles import JOKER, Tile

__all__ = ["meld_value", "exhaustive_optimum", "playable_bags", "MAX_TILES"]

MAX_TILES = 14
"""Positions with more tiles in play are refused (the search would take too long)."""

Bag = tuple[Tile, ...]  # a sorted multiset


def meld_value(bag: Bag, rules: RuleSet) -> int | None:
    """Best opening value of the multiset ``bag`` as one meld (jokers worth what they stand for),
    or ``None`` if no order of these tiles is a valid meld."""
    reals = [t for t in bag if not t.is_joker]
    size = len(bag)
    if not reals or size < rules.min_meld_length:
        return None
    jokers = size - len(reals)
    best = None
    # as a group: one number, distinct colours, at most one tile per colour
    number = reals[0].number
    if all(t.number == number for t in reals) and len({t.colour for t in reals}) == len(reals):
        if size <= rules.colours and meld_problem([*reals, *[JOKER] * jokers], rules) is None:
            best = number * size
    # as a run: every window of ``size`` numbers (with wrap if allowed) that holds the reals
    colour = reals[0].colour
    if all(t.colour is colour for t in reals) and len({t.number for t in reals}) == len(reals):
        wanted = {t.number for t in reals}
        top = rules.numbers
        for start in range(1, top + 1):
            numbers = [(start - 1 + i) % top + 1 for i in range(size)]
            if len(set(numbers)) != size or not wanted <= set(numbers):
                continue
            order = [Tile(colour, n) if n in wanted else JOKER for n in numbers]
            if meld_problem(order, rules) is not None:
                continue
            meld = Meld.of(order, rules)
            if [t.number for t in meld.represents] != numbers:
                continue  # the classifier reads these tiles differently (e.g. as a group)
            value = sum(numbers)
            if best is None or value > best:
                best = value
    return best


def _sub_bags(bag: Bag):
    """Every sub-multiset of ``bag`` (as sorted tuples), the empty one included."""
    counts = sorted(Counter(bag).items())
    for choice in product(*(range(n + 1) for _, n in counts)):
        yield tuple(t for (t, _), k in zip(counts, choice) for _ in range(k))


def _minus(bag: Bag, part: Bag) -> Bag:
    rest = Counter(bag)
    rest.subtract(part)
    return tuple(sorted(rest.elements()))


def _best_partition_factory(rules: RuleSet):
    @cache
    def best_partition(bag: Bag) -> int | None:
        """Max total opening value over partitions of ``bag`` into valid melds (None: impossible)."""
        if not bag:
            return 0
        first = next((t for t in bag if not t.is_joker), None)
        if first is None:
            return None  # jokers alone cannot form a meld
        rest = _minus(bag, (first,))
        best = None
        for part in _sub_bags(rest):
            if len(part) + 1 < rules.min_meld_length:
                continue
            meld = tuple(sorted((first, *part)))
            value = meld_value(meld, rules)
            if value is None:
                continue
            tail = best_partition(_minus(rest, part))
            if tail is not None and (best is None or value + tail > best):
                best = value + tail
        return best

    return best_partition


def exhaustive_optimum(position: Position, objective: str = "tiles") -> int | None:
    """The optimum by brute force (same meaning as :func:`benchmarks.oracle.optimum`)."""
    scores = [score(bag, position.rules, objective) for bag in playable_bags(position, objective)]
    return max(scores, default=None)


def score(bag: Bag, rules: RuleSet, objective: str) -> int:
    """Rack tiles in ``bag`` (``tiles``) or their points, a joker counting its penalty (``value``)."""
    if objective == "tiles":
        return len(bag)
    return sum(rules.joker_penalty if t.is_joker else t.number for t in bag)


def playable_bags(position: Position, objective: str | None = None) -> list[Bag]:
    """The multisets of rack tiles some legal move plays (sorted tuples), by brute force.

    With ``objective``, only the bags that score higher than every playable bag tried before
    them (enough for the optimum, much faster); without, every one."""
    rules = position.rules
    if rules.joker_retrieval == "strict":
        raise NotImplementedError("joker_retrieval='strict' is out of scope")
    if position.tiles_in_play > MAX_TILES:
        raise ValueError(f"{position.tiles_in_play} tiles in play: exhaustive search takes at most {MAX_TILES}")
    best_partition = _best_partition_factory(rules)
    table = tuple(sorted(t for meld in position.table for t in meld.tiles))
    rack = tuple(sorted(position.rack))

    def opening_ok(bag: Bag) -> bool:
        if not rules.joker_in_initial_meld and JOKER in bag:
            return False
        value = best_partition(bag)
        return value is not None and value >= rules.initial_threshold

    best = None
    found: list[Bag] = []
    for played in _sub_bags(rack):
        if not played:
            continue
        if objective is not None and best is not None and score(played, rules, objective) <= best:
            continue
        if not position.opened and not rules.joker_in_initial_meld and JOKER in played:
            continue  # no rack joker at all on an opening turn that forbids them
        if position.opened:
            ok = best_partition(tuple(sorted(table + played))) is not None
        elif not rules.open_then_manipulate:
            ok = opening_ok(played)
        else:
            ok = best_partition(tuple(sorted(table + played))) is not None and any(
                part and opening_ok(part) for part in _sub_bags(played)
            )
        if ok:
            found.append(played)
            if objective is not None:
                best = score(played, rules, objective)
    return found
