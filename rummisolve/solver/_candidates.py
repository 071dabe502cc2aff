"""Candidate melds: the joker-free base sets of a rule set, enumerated once and cached.

Every valid meld splits into base sets without loss: runs of ``m..2m-1`` consecutive numbers
(``m`` = minimum meld length) and groups of ``m..min(colours, 2m-1)`` colours, so these are the
only candidates the model needs; longer runs are re-joined when decoding. The exception is an
initial meld under rules with ``m`` jokers or more (:func:`needs_long_runs`): runs of every length. Tiles are identified
here by a *kind index* ``colour_index * numbers + number - 1``, private to the solver.

With many colours the group base sets dominate (8 colours: 182 per number). For those rule sets
:func:`model_catalogue` gives a *grouped* catalogue: runs only, the groups of each number being
counted by the aggregated block of :mod:`~rummisolve.solver._groups` instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from rummisolve.rule_facts import run_starts
from rummisolve.rules import RuleSet
from rummisolve.tiles import Tile

__all__ = ["BaseSet", "Catalogue", "catalogue", "model_catalogue", "GROUPED_COLOURS"]


@dataclass(frozen=True, slots=True)
class BaseSet:
    """A joker-free candidate meld: its kinds in play order."""

    kinds: tuple[int, ...]
    is_run: bool
    value: int
    """Sum of the numbers of its tiles."""


@dataclass(frozen=True)
class Catalogue:
    """Everything about a rule set that the model needs, computed once."""

    rules: RuleSet
    kinds: tuple[Tile, ...]
    """Tile of each kind index."""
    numbers: tuple[int, ...]
    """Number of each kind index."""
    sets: tuple[BaseSet, ...]
    sets_by_kind: tuple[tuple[int, ...], ...]
    """For each kind index, the indices of the sets that contain it."""
    index: dict[tuple[int, ...], int]
    """Set index by its kinds (runs in play order, groups ascending)."""
    kind_index: dict[Tile, int]
    """Kind index of every non-joker tile of the rule set."""
    set_sizes: tuple[int, ...]
    """Tiles in each set."""
    set_values: tuple[int, ...]
    """Value of each set (its ``BaseSet.value``)."""
    grouped: bool = False
    """Runs only: the groups are the aggregated block of :mod:`~rummisolve.solver._groups`."""

    @property
    def group_block(self) -> int:
        """Variables of a layer's group block: per number ``G``, ``y`` per colour, ``jg`` (0 unless grouped)."""
        return self.rules.numbers * (self.rules.colours + 2) if self.grouped else 0

    @property
    def layer_size(self) -> int:
        """Variables of one layer: ``x``, ``jk`` and (grouped) the group block."""
        return len(self.sets) + len(self.kinds) + self.group_block

    def index_of(self, kinds: tuple[int, ...], is_run: bool) -> int:
        return self.index[kinds if is_run else tuple(sorted(kinds))]

    def kind_of(self, tile: Tile) -> int:
        return self.kind_index[tile]


GROUPED_COLOURS = 6
"""From this many colours on, :func:`model_catalogue` aggregates the groups (``benchmarks/RESULTS.md``,
"Scale series")."""


def model_catalogue(rules: RuleSet) -> Catalogue:
    """The catalogue the model of a position under ``rules`` is built on: grouped from
    :data:`GROUPED_COLOURS` colours on, unless strict joker retrieval or special jokers need the
    enumerated group sets (their models place jokers in named sets)."""
    if rules.colours >= GROUPED_COLOURS and rules.joker_retrieval == "free" and not rules.has_twist:
        return _catalogue(rules, True)
    return _catalogue(rules, False)


def catalogue(rules: RuleSet) -> Catalogue:
    """The base sets of ``rules``, groups enumerated (cached per rule set)."""
    return _catalogue(rules, False)


def needs_long_runs(rules: RuleSet) -> bool:
    """Whether runs longer than ``2m - 1`` must be listed. A longer run can be cut into two runs of
    ``m`` or more, but with ``m`` jokers or more a part may then hold jokers only, which no meld
    may: ``R1 R2 R3 J J J`` is one run, not two. Where the jokers count alike wherever they stand
    they can move to runs with real tiles instead (``R1 J J``, ``R2 R3 J``: the solver takes at most
    ``2m - 2`` jokers, :mod:`rummisolve.solver_limits`), but the initial meld's value counts what
    they stand for (21 there). The ``xp`` rules (4 jokers) need them (``K3 K4 J J J J`` opens
    only as one run, worth 33); standard and Twist rules (2 regular jokers) and Xpress (4, no
    threshold) do not, so their catalogues keep ``m .. 2m - 1``."""
    return rules.jokers >= rules.min_meld_length and rules.initial_threshold > 0


@lru_cache(maxsize=32)
def _catalogue(rules: RuleSet, grouped: bool) -> Catalogue:
    top, m = rules.numbers, rules.min_meld_length
    kinds = rules.tile_kinds
    numbers = tuple(t.number or 0 for t in kinds)  # tile kinds are numbered tiles

    def kind(colour: int, number: int) -> int:
        return colour * top + (number - 1) % top

    sets: list[BaseSet] = []
    longest_run = top if needs_long_runs(rules) else min(2 * m - 1, top)
    for colour in range(rules.colours):
        for length in range(m, longest_run + 1):
            for start in run_starts(rules, length):
                run = tuple(kind(colour, start + i) for i in range(length))
                sets.append(BaseSet(run, True, sum(numbers[k] for k in run)))
    largest_group = 0 if grouped else min(rules.colours, 2 * m - 1)
    for number in range(1, top + 1):
        for size in range(m, largest_group + 1):
            for colours in combinations(range(rules.colours), size):
                group = tuple(kind(c, number) for c in colours)
                sets.append(BaseSet(group, False, number * size))
    by_kind: list[list[int]] = [[] for _ in kinds]
    for index, base in enumerate(sets):
        for k in base.kinds:
            by_kind[k].append(index)
    set_index = {base.kinds: i for i, base in enumerate(sets)}
    kind_index = {tile: k for k, tile in enumerate(kinds)}
    return Catalogue(
        rules,
        kinds,
        numbers,
        tuple(sets),
        tuple(tuple(s) for s in by_kind),
        set_index,
        kind_index,
        tuple(len(base.kinds) for base in sets),
        tuple(base.value for base in sets),
        grouped,
    )
