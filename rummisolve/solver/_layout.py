"""The layout of a position's model: tile counts by kind, how each table meld splits into base
sets, and :class:`PositionModel`, the built proto with what decoding needs to read it back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ortools.sat.python import cp_model_helper as cmh

from rummisolve.melds import Meld, MeldKind
from rummisolve.position import Position
from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._twist import TwistModel
from rummisolve.tiles import COLOUR_CHANGE_JOKER, DOUBLE_JOKER, MIRROR_JOKER

_SPECIAL_INDEX = {DOUBLE_JOKER: 0, COLOUR_CHANGE_JOKER: 1, MIRROR_JOKER: 2}

__all__ = [
    "Counts",
    "FreedMeld",
    "GroupKeep",
    "KeptMeld",
    "Layer",
    "PositionModel",
    "Rows",
    "TableCounts",
    "count_position",
    "count_table",
]


TwistMeld = tuple[int, dict[int, int], int, tuple[int, int, int]]
"""A table meld with special jokers: (index, real tiles by kind, regular jokers, special jokers)."""


@dataclass
class KeptMeld:
    """How a table meld decomposes into base sets, and which of its slots hold jokers."""

    index: int
    sets: list[int]
    """Base set indices (one for a meld of up to 2m-1 tiles; several for a long run)."""
    joker_kinds: list[int]
    """Kind each of its jokers stands for."""
    real_kinds: list[int]
    var: int = -1
    """Variable index: ``kc[s]`` for a simple meld, ``km[m]`` otherwise."""
    is_group: bool = False
    """A group under a grouped catalogue: no base sets, kept outside the layer's group block."""


@dataclass(frozen=True, slots=True)
class GroupKeep:
    """Table groups of one shape that may stay as they were: how many do is variable ``var``."""

    var: int
    real_kinds: tuple[int, ...]
    jokers: int
    melds: tuple[int, ...]
    """Indices of the table melds of this shape."""


@dataclass
class Counts:
    """Tile counts of a position by kind index."""

    table: list[int]
    rack: list[int]
    table_jokers: int
    rack_jokers: int
    melds: list[KeptMeld]
    table_specials: tuple[int, int, int] = (0, 0, 0)
    """``JD``, ``JC``, ``JM`` on the table (Twist)."""
    rack_specials: tuple[int, int, int] = (0, 0, 0)
    twist_melds: list[TwistMeld] = field(default_factory=list)
    """Table melds with special jokers."""

    @property
    def has_twist(self) -> bool:
        """Whether special jokers are in play."""
        return any(self.table_specials) or any(self.rack_specials)


@dataclass
class Rows:
    """Where the rows that rule extensions extend sit in the model's constraint list (each
    ``None`` or absent when the model has no such row)."""

    kind: dict[int, int] = field(default_factory=dict)
    """Kind -> its conservation row in the final layer (or an official opening's layer)."""
    run_tiles: dict[int, int] = field(default_factory=dict)
    """Kind -> ``jk[k] <= run slots of kind k`` (grouped catalogues)."""
    jokers: int | None = None
    """The layer's jokers: ``lo <= sum jk <= hi``."""
    threshold: int | None = None
    """An official opening's threshold."""
    discard: int | None = None
    """An official opening under the discard rule: a tile stays on the rack."""
    plays: int | None = None
    """A rearranging turn plays a tile."""
    opening_jokers: int | None = None
    """``open_then_manipulate``: the opening's rack jokers are among those played."""


@dataclass
class FreedMeld:
    """A designated new meld of strict joker retrieval (:mod:`~rummisolve.solver._strict`): for a
    freed joker, or a kept joker's host; each entry pairs what it holds with its variable."""

    hosts: list[tuple[int, int]]
    """(base set, variable): the meld is one copy of that set."""
    jokers: list[tuple[int, int]]
    """(kind, variable): a table joker in a slot of that kind."""
    reals: list[tuple[int, int]]
    """(kind, variable): a real tile in a slot of that kind (from the rack, or a kept host's witness)."""
    rack_jokers: list[tuple[int, int]] = field(default_factory=list)
    """(kind, variable): a rack joker in a slot of that kind."""
    long: list[tuple[tuple[int, ...], int]] = field(default_factory=list)
    """(base sets, variable): a kept run's host longer than a base set, as its base sets."""


@dataclass(frozen=True, slots=True)
class Layer:
    """Where one layer's variables sit in the model (:mod:`~rummisolve.solver._model`): ``x[s]``
    from :attr:`offset`, then ``jk[k]``; a grouped catalogue's group block follows."""

    offset: int
    n_sets: int
    n_kinds: int

    @classmethod
    def of(cls, cat: Catalogue, offset: int = 0) -> Layer:
        """The layer of ``cat``'s sets and kinds at ``offset``."""
        return cls(offset, len(cat.sets), len(cat.kinds))

    def x(self, s: int) -> int:
        """The variable ``x[s]``: copies of base set ``s``."""
        return self.offset + s

    def jk(self, k: int) -> int:
        """The variable ``jk[k]``: jokers standing for kind ``k``."""
        return self.offset + self.n_sets + k

    @property
    def xs(self) -> range:
        """Every ``x[s]``, in set order."""
        return range(self.offset, self.offset + self.n_sets)

    @property
    def jks(self) -> range:
        """Every ``jk[k]``, in kind order."""
        return range(self.offset + self.n_sets, self.offset + self.n_sets + self.n_kinds)


@dataclass
class PositionModel:
    """A built model and what decoding needs to read it back."""

    proto: cmh.CpModelProto
    counts: Counts
    final: Layer
    """The final layer (an official opening's only one): the table after the turn."""
    layer_size: int
    """S + K (+ the group block of a grouped catalogue): variables ``x`` and ``jk`` of one layer."""
    kept_by_rule: bool
    """Official opening: the table stays as it is, the layer holds the new melds only."""
    simple_keep: dict[int, tuple[int, list[int]]] = field(default_factory=dict)
    """Base set -> (keep variable, indices of the table melds of that shape). The keep variable is
    ``kc[s]``, or ``x[s]`` itself where every copy of ``s`` can be a kept meld."""
    complex_keep: list[KeptMeld] = field(default_factory=list)
    anchors: dict[tuple[int, int], int] = field(default_factory=dict)
    """(set, kind) -> z variable."""
    rack_size: int = 0
    layer_jokers: int = 0
    """Jokers the final layer may hold (table and rack)."""
    keep_terms: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """Base set -> [(keep variable, copies of the set it takes)]."""
    freed: list[FreedMeld] = field(default_factory=list)
    """Strict joker retrieval's designated new melds."""
    twist: TwistModel | None = None
    """Special jokers' part of the model, or ``None``."""
    weight: int = 1
    """Objective weight of the primary objective (one more than the melds that could be kept)."""
    opening_offset: int = 0
    """First variable of the opening layer (``open_then_manipulate``)."""
    group_melds: list[KeptMeld] = field(default_factory=list)
    """Table groups of a grouped catalogue (kept, if at all, outside the group block)."""
    group_keep: list[GroupKeep] = field(default_factory=list)
    """Their keep variables by shape."""
    relaxed: bool = False
    """Strict joker retrieval built without its kept hosts (:mod:`~rummisolve.solver._strict`): a
    relaxation of the rule, whose answers the referee must confirm."""
    doubled_hosts: bool = False
    """Strict joker retrieval: a kept host must hold two tiles of its old meld (one that would
    otherwise read as another meld), which may miss a legal play (docs/rules.md)."""
    may_miss: bool = False
    """Search: a rule extension restricts its rule here and may miss a legal play (strict
    retrieval's kept hosts, :func:`~rummisolve.solver._strict_rule.may_miss`), so a move of the
    relaxed model the referee rejected bounds what this one proves."""
    substituted: bool = False
    """Whether ``x[s]`` of the final layer counts only the copies of ``s`` that are not kept melds
    (the keep variables of :attr:`keep_terms` count the others); else it counts every copy."""
    fixes_joker_readings: bool = False
    """Decoding: each joker must stand for the tile the model placed it on (a rule extension's
    hook, :attr:`~rummisolve.solver._draft.RuleExtension.fixes_joker_readings`)."""
    efforts: tuple[float, float, int] | None = None
    """Search: the staged search's budgets a rule extension asks for
    (:meth:`~rummisolve.solver._draft.RuleExtension.search_efforts`), or ``None``."""
    widens: bool = False
    """Search: the target stage widens (:attr:`~rummisolve.solver._draft.RuleExtension.widens`)."""

    @property
    def final_offset(self) -> int:
        """The final layer's first variable."""
        return self.final.offset

    def copies(self, sol: Sequence[int]) -> list[int]:
        """Every copy of each base set in the final layer, kept melds' included."""
        xs = self.final.xs
        copies = list(sol[xs.start : xs.stop])
        if self.substituted:
            for s, items in self.keep_terms.items():
                copies[s] += sum(sol[var] * coeff for var, coeff in items)
        return copies

    @property
    def played_offset(self) -> int:
        """First variable of the final layer's block ``p`` (right after its ``x`` and ``jk``); only
        a table that may be rearranged has it."""
        return self.final.offset + self.layer_size

    def p(self, k: int) -> int:
        """The variable ``p[k]``: rack tiles of kind ``k`` played (a table that may be rearranged)."""
        return self.final.offset + self.layer_size + k


@dataclass(frozen=True)
class TableCounts:
    """The table's share of :class:`Counts`, the same for every rack (see :func:`count_table`)."""

    table: tuple[int, ...]
    table_jokers: int
    melds: tuple[KeptMeld, ...]
    """Templates: :func:`count_position` hands each model fresh copies (the model sets ``var``)."""
    table_specials: tuple[int, int, int]
    twist_melds: tuple[TwistMeld, ...]


def count_table(table: Sequence[Meld], cat: Catalogue) -> TableCounts:
    """Tile counts of the melds ``table`` by kind, and each meld's decomposition into base sets."""
    n = len(cat.kinds)
    counts = [0] * n
    table_jokers = 0
    kind_of = cat.kind_index.__getitem__
    melds = []
    table_specials = [0, 0, 0]
    twist_melds: list[TwistMeld] = []
    for index, meld in enumerate(table):
        if any(t.is_special_joker for t in meld.tiles):
            reals: dict[int, int] = {}
            regular = 0
            mine = [0, 0, 0]
            for tile in meld.tiles:
                if tile.is_special_joker:
                    mine[_SPECIAL_INDEX[tile]] += 1
                elif tile.is_joker:
                    regular += 1
                else:
                    k = kind_of(tile)
                    reals[k] = reals.get(k, 0) + 1
                    counts[k] += 1
            table_jokers += regular
            for i, n in enumerate(mine):
                table_specials[i] += n
            twist_melds.append((index, reals, regular, (mine[0], mine[1], mine[2])))
            continue
        joker_kinds = []
        real_kinds = []
        for tile, stands in zip(meld.tiles, meld.represents):
            k = kind_of(stands)
            if tile.is_joker:
                table_jokers += 1
                joker_kinds.append(k)
            else:
                counts[k] += 1
                real_kinds.append(k)
        is_run = meld.kind is MeldKind.RUN
        if cat.grouped and not is_run:
            melds.append(KeptMeld(index, [], joker_kinds, real_kinds, is_group=True))
            continue
        slots = [kind_of(t) for t in meld.represents]
        melds.append(KeptMeld(index, _base_sets(cat, slots, is_run), joker_kinds, real_kinds))
    specials = (table_specials[0], table_specials[1], table_specials[2])
    return TableCounts(tuple(counts), table_jokers, tuple(melds), specials, tuple(twist_melds))


def count_position(position: Position, cat: Catalogue, table: TableCounts | None = None) -> Counts:
    """Tile counts by kind, and each table meld's decomposition into base sets.

    ``table``: :func:`count_table` of ``position.table`` under ``cat``, when the caller has it
    already (many racks against one table); the counts are the same either way."""
    if table is None:
        table = count_table(position.table, cat)
    rack = [0] * len(cat.kinds)
    rack_jokers = 0
    kind_of = cat.kind_index.__getitem__
    rack_specials = [0, 0, 0]
    for tile in position.rack:
        if tile.is_special_joker:
            rack_specials[_SPECIAL_INDEX[tile]] += 1
        elif tile.is_joker:
            rack_jokers += 1
        else:
            rack[kind_of(tile)] += 1
    melds = [KeptMeld(m.index, m.sets, m.joker_kinds, m.real_kinds, is_group=m.is_group) for m in table.melds]
    return Counts(
        list(table.table),
        rack,
        table.table_jokers,
        rack_jokers,
        melds,
        table.table_specials,
        (rack_specials[0], rack_specials[1], rack_specials[2]),
        list(table.twist_melds),
    )


def _base_sets(cat: Catalogue, slots: list[int], is_run: bool) -> list[int]:
    """Split a meld (its kinds in play order) into base sets of the catalogue."""
    m = cat.rules.min_meld_length
    longest = 2 * m - 1
    chunks = []
    rest = list(slots) if is_run else sorted(slots)
    while len(rest) > longest:
        chunks.append(rest[:m])
        rest = rest[m:]
    chunks.append(rest)
    return [cat.index_of(tuple(chunk) if is_run else tuple(sorted(chunk)), is_run) for chunk in chunks]
