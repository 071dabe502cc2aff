"""What the referee knows per rule set: the tiles that exist, a bounded cache of classified melds,
and the short melds each tile can be in (for the initial meld under ``open_then_manipulate``).

Part of the referee (:mod:`rummisolve.referee`). The referee enumerates melds itself, from the
definitions of runs and groups, instead of using the solver's candidate catalogue: it must stay
independent of the model it checks, so a mistake in one cannot hide in the other.
"""

from __future__ import annotations

from itertools import combinations

from rummisolve.errors import InvalidMeldError
from rummisolve.melds import Meld, meld_problem
from rummisolve.referee._keys import Key
from rummisolve.rule_facts import run_numbers, run_starts
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile


class RulesContext:
    """Per rule set: the keys of the tiles that exist, key -> Tile, and a bounded meld cache."""

    __slots__ = ("valid", "tile_of", "melds", "rules", "_shapes")

    def __init__(self, rules: RuleSet) -> None:
        tiles = list(rules.tile_kinds) + list(rules.joker_counts)
        self.valid = frozenset(t.sort_key for t in tiles)
        self.tile_of = {t.sort_key: t for t in tiles}
        self.melds: dict[tuple, Meld | tuple[str, str]] = {}
        self.rules = rules
        self._shapes: dict[tuple, list[tuple[tuple, int]]] | None = None

    def shapes(self, key: tuple) -> list[tuple[tuple, int]]:
        """Every joker-free meld of length ``m .. 2m - 1`` (``m`` the minimum meld length) holding
        tile ``key``, as (keys of its other tiles, value). Longer melds split into these without
        changing the value, so they suffice to find the most valuable initial meld."""
        if self._shapes is None:
            self._shapes = meld_shapes(self.rules)
        return self._shapes.get(key, [])


_CONTEXTS: dict[RuleSet, RulesContext] = {}
_CACHE_LIMIT = 50_000


def context(rules: RuleSet) -> RulesContext:
    """The context of ``rules``, made once (at most 64 rule sets are kept)."""
    ctx = _CONTEXTS.get(rules)
    if ctx is None:
        if len(_CONTEXTS) >= 64:
            _CONTEXTS.clear()
        ctx = _CONTEXTS[rules] = RulesContext(rules)
    return ctx


def classify(
    seq: tuple[Tile, ...], keys: tuple[Key, ...], rules: RuleSet, cache: dict[tuple, Meld | tuple[str, str]]
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


def meld_shapes(rules: RuleSet) -> dict[tuple, list[tuple[tuple, int]]]:
    """For every tile key, the joker-free melds of length ``m .. 2m - 1`` holding it (see
    :meth:`RulesContext.shapes`). Built from the definitions of runs and groups (docs/rules.md, "Melds")."""
    m, top = rules.min_meld_length, rules.numbers
    melds: list[tuple[tuple, ...]] = []
    for colour in rules.colour_list:
        ci = colour.index
        for length in range(m, min(2 * m - 1, top) + 1):
            for start in run_starts(rules, length):
                numbers = run_numbers(rules, start, length)
                assert numbers is not None  # a start run_starts gives
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
