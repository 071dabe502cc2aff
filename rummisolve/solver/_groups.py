"""Groups without enumerating colour subsets: one aggregated block per number (grouped catalogues).

With ``C`` colours and melds of at least ``m`` tiles, the enumerated catalogue holds every group
of ``m..min(C, 2m-1)`` colours as a base set: 182 per number for 8 colours. A grouped catalogue
(:func:`~rummisolve.solver._candidates.model_catalogue`) holds runs only; each layer instead has,
per number ``n``, after its ``x`` and ``jk``:

- ``G[n]``: groups of number ``n`` (kept table melds apart, see below);
- ``y[c,n]``: real tiles of kind ``(c, n)`` in them (added to kind ``(c, n)``'s conservation row);
- ``jg[n]``: jokers in them (added to the layer's joker row).

Rows: ``y[c,n] <= G[n]``, ``sum_c y[c,n] >= G[n]`` (no group of jokers only) and
``m G[n] <= sum_c y[c,n] + jg[n] <= C G[n]``. These are exactly the condition for the tiles and
jokers to split into ``G[n]`` legal groups (of ``m..C`` distinct colours, at least one real tile):
necessary, as each group holds at most one tile per colour and ``m..C`` tiles; sufficient by
:func:`deal`, which is also the decoder: the real copies, listed colour by colour, go round-robin
onto the groups (a colour's ``<= G`` copies land in distinct groups; sizes differ by at most one,
each at least one real tile), then each joker goes to a smallest group, which keeps the sizes
within one of each other, so all lie between ``floor(T/G) >= m`` and ``ceil(T/G) <= C``
(``T`` tiles and jokers in all), and a joker always joins a group with a colour missing.

Table groups that stay as they were (the tie-break "melds kept") are outside the block: a variable
per shape (real kinds and joker count) counts the table melds of that shape kept, its real tiles
added to their kinds' conservation rows and its jokers to the joker row. The optimum is the
enumerated model's: a legal arrangement keeps some table groups exactly and lays out the other
groups of each number as legal groups, which satisfy the rows above, with the same melds kept;
and every solution of the rows decodes (:func:`deal`) into legal groups beside the kept ones, so
any solution is an arrangement with at least the melds it counts kept (a dealt group may happen to
equal a table meld; the optimum counts it kept already, as keeping it costs nothing).

Used for ``joker_retrieval="free"`` without special jokers only: strict joker retrieval and the
Twist pieces place jokers in named base sets, so those rule sets keep the enumerated groups.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._draft import ModelDraft, RuleExtension
from rummisolve.solver._layout import GroupKeep, PositionModel, Rows
from rummisolve.solver._protos import INF, Protos, extend_row, linear

__all__ = ["KeptGroups", "add_groups", "deal", "group_bound", "group_offsets", "keep_groups", "read_groups"]


def group_offsets(cat: Catalogue, number_index: int) -> tuple[int, int, int]:
    """Indices (within a layer) of ``G``, the first ``y`` (colour 0) and ``jg`` of a number (0-based)."""
    colours = cat.rules.colours
    base = len(cat.sets) + len(cat.kinds) + number_index * (colours + 2)
    return base, base + 1, base + 1 + colours


def group_bound(have: Sequence[int], jokers: int, m: int) -> int:
    """The most groups of one number that ``have`` (real tiles per colour) and ``jokers`` can make:
    the largest ``G`` with ``sum_c min(have[c], G) >= G`` and ``sum_c min(have[c], G) + jokers >= m G``
    (and ``m <= len(have)``)."""
    if m > len(have):
        return 0
    total = sum(have)
    best = min(total, (total + jokers) // m)
    while best > 0:
        reals = sum(n if n < best else best for n in have)
        if reals >= best and reals + jokers >= m * best:
            return best
        best -= 1
    return 0


def add_groups(
    protos: Protos,
    cat: Catalogue,
    available: list[int],
    jokers: int,
    offset: int,
    variables: list,
    constraints: list,
) -> list[bool]:
    """Append the group block of the layer at ``offset`` (right after its ``jk``) and its rows;
    return, per kind, whether a group may hold it."""
    rules = cat.rules
    top, colours, m = rules.numbers, rules.colours, rules.min_meld_length
    fits = [False] * len(cat.kinds)
    domain = protos.domain
    for i in range(top):
        have = [available[c * top + i] for c in range(colours)]
        bound = group_bound(have, jokers, m)
        g, y0, jg = (offset + v for v in group_offsets(cat, i))
        y_bounds = [min(n, bound) for n in have]
        joker_bound = min(jokers, bound * (colours - 1))
        variables.append(domain(0, bound))
        variables.extend(domain(0, b) for b in y_bounds)
        variables.append(domain(0, joker_bound))
        if not bound:
            continue
        ys = [y0 + c for c, b in enumerate(y_bounds) if b]
        for c, b in enumerate(y_bounds):
            if b:
                fits[c * top + i] = True
                constraints.append(protos.cachedlinear(("g-cap", y0 + c), [y0 + c, g], [1, -1], -INF, 0))  # y <= G
        ones = [1] * len(ys)
        # sum_c y >= G: every group holds a real tile
        constraints.append(linear(ys + [g], ones + [-1], 0, INF))
        with_jokers = ys + [jg] if joker_bound else ys
        coeffs = [1] * len(with_jokers)
        # m G <= sum_c y + jg <= C G (the upper side follows from y <= G without jokers)
        constraints.append(linear(with_jokers + [g], coeffs + [-m], 0, INF))
        if joker_bound:
            constraints.append(linear(with_jokers + [g], coeffs + [-colours], -INF, 0))
    return fits


def joker_vars(cat: Catalogue, offset: int) -> list[int]:
    """The ``jg`` variables of the layer at ``offset`` (none unless grouped)."""
    if not cat.grouped:
        return []
    return [offset + group_offsets(cat, i)[2] for i in range(cat.rules.numbers)]


def tile_terms(cat: Catalogue, offset: int, tile: list[int], joker: int) -> list[tuple[int, int]]:
    """``(var, coeff)`` of the layer's group block when each real tile of kind ``k`` counts
    ``tile[k]`` and each joker ``joker`` (none unless grouped)."""
    if not cat.grouped:
        return []
    top, colours = cat.rules.numbers, cat.rules.colours
    terms = []
    for i in range(top):
        _, y0, jg = group_offsets(cat, i)
        terms += [(offset + y0 + c, tile[c * top + i]) for c in range(colours) if tile[c * top + i]]
        if joker:
            terms.append((offset + jg, joker))
    return terms


def keep_groups(
    built: PositionModel, cat: Catalogue, protos: Protos, rows: Rows, variables: list, constraints: list
) -> None:
    """Variables counting the table groups kept as they were, by shape, outside the final layer's
    block: their real tiles join the conservation rows (``rows.kind``), their jokers the
    joker row and (rack jokers to play) the row that a tile is played, and the opening's joker row
    of ``open_then_manipulate`` (``rows.opening_jokers``).

    Also the rows ``u[k] - jk[k] >= 0`` (``rows.run_tiles``) become "the runs' real tiles of
    kind ``k`` outside kept melds are not negative": their slots of kind ``k`` (kept copies included
    where :attr:`~rummisolve.solver._layout.PositionModel.substituted` took them out of ``x[s]``)
    less ``jk[k]`` less the kept runs' real tiles. In the enumerated model conservation implies it
    (the kept melds' tiles are on the table); here ``y[k]`` could otherwise take a kept run's tile
    into a group while a joker fills its slot."""
    runs: dict[int, dict[int, int]] = {}

    def add(k: int, var: int, coeff: int) -> None:
        row = runs.setdefault(k, {})
        row[var] = row.get(var, 0) + coeff

    if built.substituted:  # kept copies' slots, taken out of x[s]
        for s, items in built.keep_terms.items():
            for k in cat.sets[s].kinds:
                for var, coeff in items:
                    add(k, var, coeff)
    for s, (var, _) in built.simple_keep.items():
        for k in cat.sets[s].kinds:
            add(k, var, -1)
    for meld in built.complex_keep:
        for k in meld.real_kinds:
            add(k, meld.var, -1)
    for k, terms in runs.items():
        at = rows.run_tiles.get(k)
        if at is not None:
            _merge(constraints, at, terms)
    shapes: dict[tuple[tuple[int, ...], int], list[int]] = {}
    for meld in built.group_melds:
        shapes.setdefault((tuple(sorted(meld.real_kinds)), len(meld.joker_kinds)), []).append(meld.index)
    kind_terms: dict[int, list[tuple[int, int]]] = {}
    joker_terms: list[tuple[int, int]] = []
    for (kinds, jokers), melds in shapes.items():
        var = len(variables)
        variables.append(protos.domain(0, len(melds)))
        built.group_keep.append(GroupKeep(var, kinds, jokers, tuple(melds)))
        for k in set(kinds):
            kind_terms.setdefault(k, []).append((var, kinds.count(k)))
        if jokers:
            joker_terms.append((var, jokers))
    for k, kept_terms in kind_terms.items():
        extend_row(constraints, rows.kind[k], kept_terms)
    if joker_terms:
        assert rows.jokers is not None, "every layer has its joker row before the rule extensions"
        extend_row(constraints, rows.jokers, joker_terms)
        if rows.plays is not None and built.layer_jokers > built.counts.table_jokers:
            extend_row(constraints, rows.plays, joker_terms)
        if rows.opening_jokers is not None:
            extend_row(constraints, rows.opening_jokers, [(v, -c) for v, c in joker_terms])


def _merge(constraints: list, at: int, terms: dict[int, int]) -> None:
    """The row at ``constraints[at]`` (perhaps a shared cached proto), copied, plus ``terms``
    (a variable already in the row, such as ``x[s]`` counting kept melds itself, changes its
    coefficient)."""
    row = constraints[at].linear
    merged = dict(zip(row.vars, row.coeffs))
    for var, coeff in terms.items():
        merged[var] = merged.get(var, 0) + coeff
    merged = {var: coeff for var, coeff in merged.items() if coeff}
    constraints[at] = linear(list(merged), list(merged.values()), row.domain[0], row.domain[1])


def read_groups(cat: Catalogue, sol: Sequence[int], offset: int) -> list[tuple[int, int, list[int], int]]:
    """The layer's groups: ``(number index, G, real tiles per colour, jokers)`` per number with groups."""
    out = []
    colours = cat.rules.colours
    for i in range(cat.rules.numbers):
        g, y0, jg = (offset + v for v in group_offsets(cat, i))
        if sol[g] or sol[jg] or any(sol[y0 : y0 + colours]):
            out.append((i, sol[g], list(sol[y0 : y0 + colours]), sol[jg]))
    return out


def deal(groups: int, reals: Sequence[int], jokers: int) -> list[tuple[list[int], int]]:
    """Split real tiles (``reals[c]`` of colour ``c``) and ``jokers`` into ``groups`` groups:
    ``(colours, jokers)`` per group. Round-robin, colour by colour, then each joker to a smallest
    group; the groups are legal whenever the block's rows hold (module docstring)."""
    dealt: list[tuple[list[int], int]] = [([], 0) for _ in range(groups)]
    if not groups:
        return dealt
    at = 0
    for colour, n in enumerate(reals):
        for _ in range(n):
            dealt[at % groups][0].append(colour)
            at += 1
    sizes = [len(colours) for colours, _ in dealt]
    extra = [0] * groups
    for _ in range(jokers):
        smallest = min(range(groups), key=lambda j: sizes[j])
        sizes[smallest] += 1
        extra[smallest] += 1
    return [(colours, n) for (colours, _), n in zip(dealt, extra)]


@dataclass(frozen=True, slots=True)
class KeptGroups(RuleExtension):
    """A grouped catalogue's rule extension: the table groups kept as they were (:func:`keep_groups`)."""

    def add(self, draft: ModelDraft, built: PositionModel) -> None:
        """Add the kept groups' variables and terms to ``draft``."""
        keep_groups(built, draft.cat, draft.protos, draft.rows, draft.variables, draft.constraints)
