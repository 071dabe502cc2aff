"""Reusable CP-SAT protos (rows, domains, bounds), built once per rule set and copied into models."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from operator import itemgetter

from ortools.sat.python import cp_model_helper as cmh

from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._layout import Layer

__all__ = ["INF", "Protos", "extend_row", "group_tiles", "linear", "protos"]

INF = 1 << 40
"""Stands for an unbounded side of a linear constraint."""


class Protos:
    """Reusable proto pieces of one catalogue (each built once, copied into models by ``extend``)."""

    def __init__(self, cat: Catalogue) -> None:
        self.cat = cat
        self.slot_counts = tuple(_counts_of(base.kinds) for base in cat.sets)
        """Per set: a function from the per-kind counts to the counts of its slots (a tuple). Plain
        Python on purpose: the builder runs right after a solve has left the caches cold, where many
        small numpy calls cost more than they save."""
        self.sets_of_kind = tuple(_counts_of(tuple(sets)) if sets else None for sets in cat.sets_by_kind)
        """Per kind: a function from per-set values to the values of the sets that hold the kind."""
        self._copy_bounds: dict[int, CopyBounds] = {}
        self.zero_based: list[cmh.IntegerVariableProto] = []
        self.domains: dict[tuple[int, int], cmh.IntegerVariableProto] = {}
        self.kind_constraints: dict[tuple[int, int, int, int], cmh.ConstraintProto] = {}
        self.played_rows: dict[tuple[int, int], cmh.ConstraintProto] = {}
        self.linear: dict[tuple, cmh.ConstraintProto] = {}
        self.objectives: dict[tuple, tuple[list[int], list[int], dict[int, int]]] = {}

    def domain(self, lo: int, hi: int) -> cmh.IntegerVariableProto:
        key = (lo, hi)
        proto = self.domains.get(key)
        if proto is None:
            proto = cmh.IntegerVariableProto()
            proto.domain.extend([lo, hi])
            self.domains[key] = proto
        return proto

    def domains_up_to(self, hi: int) -> list[cmh.IntegerVariableProto]:
        """The domains ``[0, 0], [0, 1], ..., [0, hi]`` (at least), indexed by their upper bound."""
        cache = self.zero_based
        for value in range(len(cache), hi + 1):
            cache.append(self.domain(0, value))
        return cache

    def copy_bounds(self, jokers: int) -> CopyBounds:
        """Slot counts of a set -> how many copies of it can be laid, with ``jokers`` jokers."""
        found = self._copy_bounds.get(jokers)
        if found is None:
            found = self._copy_bounds.setdefault(jokers, CopyBounds(jokers))
        return found

    def kind(self, offset: int, k: int, lo: int, hi: int) -> cmh.ConstraintProto:
        """``lo <= u[k] - jk[k] <= hi`` in the layer at ``offset`` (grouped: ``+ y[k]``)."""
        key = (offset, k, lo, hi)
        proto = self.kind_constraints.get(key)
        if proto is None:
            cat = self.cat
            sets = cat.sets_by_kind[k]
            layer = Layer.of(cat, offset)
            variables = [layer.x(s) for s in sets] + [layer.jk(k)]
            coeffs = [1] * len(sets) + [-1]
            if cat.grouped:  # + y[k], the real tiles of kind k in the layer's groups
                variables.append(offset + group_tiles(cat, k))
                coeffs.append(1)
            proto = linear(variables, coeffs, lo, hi)
            self.kind_constraints[key] = proto
        return proto

    def played(self, k: int, table: int) -> cmh.ConstraintProto:
        """``u[k] - jk[k] - p[k] = table`` in the final layer (``p`` at the layer's size + ``k``;
        grouped: ``+ y[k]``)."""
        key = (k, table)
        proto = self.played_rows.get(key)
        if proto is None:
            cat = self.cat
            sets = cat.sets_by_kind[k]
            variables = [*sets, len(cat.sets) + k, cat.layer_size + k]
            coeffs = [1] * len(sets) + [-1, -1]
            if cat.grouped:
                variables.append(group_tiles(cat, k))
                coeffs.append(1)
            proto = linear(variables, coeffs, table, table)
            self.played_rows[key] = proto
        return proto

    def cachedlinear(
        self, key: tuple, variables: list[int], coeffs: list[int], lo: int, hi: int
    ) -> cmh.ConstraintProto:
        proto = self.linear.get(key)
        if proto is None:
            proto = linear(variables, coeffs, lo, hi)
            self.linear[key] = proto
        return proto


class CopyBounds(dict):
    """Slot counts of a set (its kinds' counts in play, a tuple) -> how many copies of the set can
    be laid with :attr:`jokers` jokers: at most its scarcest kind plus the jokers; with kinds not
    in play ("missing", each needing a joker; none if they need more jokers than there are or
    would fill the whole set) the jokers over the missing kinds; and its tiles and jokers over its
    size.

    Computed once per distinct tuple and remembered (a few hundred under the standard rules), so a
    layer's 185 bounds cost one dictionary look-up each."""

    __slots__ = ("jokers",)

    def __init__(self, jokers: int) -> None:
        super().__init__()
        self.jokers = jokers

    def __missing__(self, have: tuple[int, ...]) -> int:
        bound = copies_bound(have, self.jokers)
        if len(self) < _MAX_COPY_BOUNDS:
            self[have] = bound
        return bound


_MAX_COPY_BOUNDS = 1 << 14
"""Tuples remembered per joker count (groups of up to 8 colours have far more than the standard
rules' few hundred)."""


def copies_bound(have: tuple[int, ...], jokers: int) -> int:
    """See :class:`CopyBounds`."""
    size = len(have)
    missing = have.count(0)
    if missing:
        if missing > jokers or missing >= size:
            return 0
        bound = jokers // missing
    else:
        bound = min(have) + jokers
    by_size = (sum(have) + jokers) // size
    return bound if bound < by_size else by_size


def _counts_of(kinds: tuple[int, ...]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """``counts -> (counts[k] for k in kinds)`` as a tuple, in C (``itemgetter``), for any size."""
    getter = itemgetter(*kinds)
    return getter if len(kinds) > 1 else lambda counts: (getter(counts),)


def group_tiles(cat: Catalogue, k: int) -> int:
    """Index of ``y[k]`` within a layer of a grouped catalogue (see :mod:`~rummisolve.solver._groups`)."""
    top = cat.rules.numbers
    return len(cat.sets) + len(cat.kinds) + (k % top) * (cat.rules.colours + 2) + 1 + k // top


def extend_row(constraints: list, at: int, terms: list[tuple[int, int]]) -> None:
    """Replace the row at ``constraints[at]`` (perhaps a shared cached proto) by a copy with ``terms``
    added (variables not already in the row)."""
    row = cmh.ConstraintProto()
    row.copy_from(constraints[at])
    row.linear.vars.extend([var for var, _ in terms])
    row.linear.coeffs.extend([coeff for _, coeff in terms])
    constraints[at] = row


def linear(variables: list[int], coeffs: list[int], lo: int, hi: int) -> cmh.ConstraintProto:
    proto = cmh.ConstraintProto()
    linear = proto.linear
    linear.vars.extend(variables)
    linear.coeffs.extend(coeffs)
    linear.domain.extend([lo, hi])
    return proto


_PROTOS: dict[int, Protos] = {}
"""The pieces of the most recently used catalogues, least recent first."""
_MAX_PROTOS = 32
"""As many as :func:`~rummisolve.solver._candidates.catalogue` keeps: a long-running server that
sees many rule sets must not keep the pieces of every one of them."""
_PROTOS_LOCK = threading.Lock()


def protos(cat: Catalogue) -> Protos:
    """The reusable pieces of ``cat`` (built on first use, kept for the :data:`_MAX_PROTOS` most
    recently used catalogues)."""
    key = id(cat)
    with _PROTOS_LOCK:
        found = _PROTOS.pop(key, None)
        if found is None or found.cat is not cat:
            found = Protos(cat)
            while len(_PROTOS) >= _MAX_PROTOS:
                del _PROTOS[next(iter(_PROTOS))]
        _PROTOS[key] = found
    return found
