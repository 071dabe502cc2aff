"""Special jokers (Twist) in the CP-SAT model: one integer ``y[e]`` per piece
(:mod:`~rummisolve.solver._twist`), added only when special jokers are in play.

- Kind slots: ``u[k]`` gains ``sum_e slots(e, k) y[e]`` in the conservation row of kind ``k``.
- Anchors: real tiles of kind ``k`` (``u[k] - jk[k]``) at least ``sum_e anchors(e, k) y[e]``.
- Special jokers: ``sum_e JD(e) y[e] = table JD + pd`` (likewise ``JC`` with ``pc``, ``JM`` with
  ``pm``), ``p*`` the rack's special jokers played; in an official opening the layer's special
  jokers are all played.
- Colour changes: at each number ``n`` the segments ending at ``n - 1`` (before a ``JC``) and those
  starting at ``n + 1`` (after one) are paired by a transportation problem over colour pairs
  ``c[A, B]``, ``A != B`` (so neighbouring segments differ in colour).
- Table melds with special jokers: a ``kept`` piece each (its own tiles, at most 1), which counts as
  a meld kept in the objective; its regular jokers join the jokers' row.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ortools.sat.python import cp_model_helper as cmh

from rummisolve.solver._budgets import QUICK_EFFORT
from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._draft import ModelDraft, RuleExtension
from rummisolve.solver._layout import Counts, Layer, PositionModel, Rows
from rummisolve.solver._protos import INF, Protos, extend_row, linear
from rummisolve.solver._twist import Piece, TwistModel, joker_pads, pad_host, twist_pieces

__all__ = [
    "TWIST_EFFORTS",
    "TwistPieces",
    "OpeningTwistPieces",
    "OpeningRows",
    "plan_twist",
    "add_twist",
    "add_opening_twist",
]

TWIST_EFFORTS = (QUICK_EFFORT, 1.0, 6)
"""The staged search's budgets (quick, target, target steps) for models with Twist pieces,
searched with ``widening`` targets (:func:`~rummisolve.solver._solve.staged_search`): on dense
tables the quick stage finds no solution, and the full stage from scratch took seconds to find
good ones, while the objective pinned to the values from the bound up is proven infeasible in
tens of milliseconds up to the optimum, then found there (``benchmarks/RESULTS.md``, "Twist")."""


def plan_twist(
    cat: Catalogue,
    counts: Counts,
    available: list[int],
    jokers: int,
    opening: bool,
    rack_specials: bool = True,
    *,
    initial: bool = False,
) -> TwistModel | None:
    """The pieces of a layer holding ``available`` numbered tiles and ``jokers`` regular jokers
    (``opening``: the rack's tiles only, the table kept as it is; ``rack_specials``: whether the
    rack's special jokers may be played; ``initial``: the final table of an initial meld under
    ``open_then_manipulate``, which holds the opening's melds); ``None`` without special jokers."""
    rack = counts.rack_specials if rack_specials else (0, 0, 0)
    table = (0, 0, 0) if opening else counts.table_specials
    layer = (table[0] + rack[0], table[1] + rack[1], table[2] + rack[2])
    if not any(layer):
        return None
    long = 0  # the rack's J and JD, which an initial meld's long pieces may hold
    if (opening or initial) and cat.rules.initial_threshold > 0:
        long = (counts.rack_jokers if rack_specials else 0) + rack[0]
    pieces = twist_pieces(cat.rules, available, jokers, *layer, long=long)
    if not (opening or initial):
        pieces += joker_pads(cat.rules, jokers, layer[0], layer[1], pieces)
    if not opening:
        for index, reals, regular, specials in counts.twist_melds:
            d, c, m = specials
            pieces.append(
                Piece("kept", (), dict(reals), dict(reals), doubles=d, changes=c, mirrors=m, table_index=index)
            )
            pieces[-1].joker_anchors = {-1: regular} if regular else {}
    kinds = {k for piece in pieces for k in piece.slots}
    return TwistModel(pieces, kinds, layer_specials=layer, rack_specials=rack)


@dataclass
class _PieceTerms:
    """The pieces' terms in the rows they join, collected as their variables are made."""

    kinds: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """Kind -> (piece variable, kind slots)."""
    anchors: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """Kind -> (piece variable, slots that must hold a real tile)."""
    specials: list[list[tuple[int, int]]] = field(default_factory=lambda: [[], [], []])
    """Per special joker (``JD``, ``JC``, ``JM``): (piece variable, how many it holds)."""
    regular: list[tuple[int, int]] = field(default_factory=list)
    """(kept piece's variable, its regular jokers)."""
    ends: dict[tuple[int, bool], list[Piece]] = field(default_factory=dict)
    """``JC`` place (:attr:`Piece.change_after`) -> the segments before it."""
    starts: dict[tuple[int, bool], list[Piece]] = field(default_factory=dict)
    """``JC`` place (:attr:`Piece.change_before`) -> the segments after it."""
    pad_starts: dict[tuple[int, bool], list[Piece]] = field(default_factory=dict)
    """``JC`` place -> the ``before_change`` pads that follow the segments before it instead."""
    pad_ends: dict[tuple[int, bool], list[Piece]] = field(default_factory=dict)
    """``JC`` place -> the ``after_change`` pads that precede the segments after it instead."""
    outer: list[Piece] = field(default_factory=list)
    """Segments that end (``right``) or start (``left``) a run, and ``tail`` and ``head`` pads."""


def add_twist(
    twist: TwistModel,
    built: PositionModel,
    cat: Catalogue,
    protos: Protos,
    counts: Counts,
    offset: int,
    rows: Rows,
    variables: list[cmh.IntegerVariableProto],
    constraints: list[cmh.ConstraintProto],
) -> None:
    """Add the pieces' variables to the layer at ``offset`` and their terms to its rows.

    ``rows``: where the rows to extend sit in ``constraints``: the conservation rows
    (``rows.kind``), the jokers' and, where they exist, an official opening's threshold and
    discard rows and a rearranging turn's "plays a tile" row."""
    terms = _piece_variables(twist, protos, variables)
    played = _special_rows(twist, built, counts, protos, terms, variables, constraints)
    # Conservation rows gain the pieces' kind slots.
    for k, kind_terms in terms.kinds.items():
        extend_row(constraints, rows.kind[k], kind_terms)
    if built.layer_jokers:
        _anchor_rows(built, cat, offset, terms, constraints, kept=not built.kept_by_rule)
    if terms.regular:
        assert rows.jokers is not None, "every layer has its joker row before the rule extensions"
        extend_row(constraints, rows.jokers, terms.regular)
    _colour_changes(twist, cat, protos, terms, variables, constraints)
    # An official opening's threshold and discard rows; a rearranging turn's "plays a tile" row.
    if rows.threshold is not None:
        extend_row(constraints, rows.threshold, [(p.var, p.value) for p in twist.pieces if p.value])
    if rows.discard is not None:
        extend_row(constraints, rows.discard, [(p.var, p.tiles) for p in twist.pieces])
    if rows.plays is not None and played:
        extend_row(constraints, rows.plays, [(v, 1) for v in played.values()])
    twist.kind_terms, twist.anchor_terms = terms.kinds, terms.anchors
    built.twist = twist


def _piece_variables(twist: TwistModel, protos: Protos, variables: list[cmh.IntegerVariableProto]) -> _PieceTerms:
    """One variable per piece (how many copies of it are laid), and its terms."""
    terms = _PieceTerms()
    index = len(variables)
    kinds, anchors, (doubles, changes, mirrors) = terms.kinds, terms.anchors, terms.specials
    domains = protos.domains_up_to(max((piece.upper for piece in twist.pieces), default=0))
    for piece in twist.pieces:
        variables.append(domains[piece.upper])
        piece.var = index
        for k, n in piece.slots.items():
            if k in kinds:
                kinds[k].append((index, n))
            else:
                kinds[k] = [(index, n)]
        for k, n in piece.anchors.items():
            anchors.setdefault(k, []).append((index, n))
        if piece.doubles:
            doubles.append((index, piece.doubles))
        if piece.changes:
            changes.append((index, piece.changes))
        if piece.mirrors:
            mirrors.append((index, piece.mirrors))
        shape = piece.shape
        regular = piece.joker_anchors.get(-1, 0)  # kept melds' and pads' regular jokers
        if regular:
            terms.regular.append((index, regular))
        if shape == "left" or shape == "middle" or shape == "before_change":
            terms.ends.setdefault(piece.change_after, []).append(piece)
        if shape == "right" or shape == "middle" or shape == "after_change":
            terms.starts.setdefault(piece.change_before, []).append(piece)
        if shape == "after_change":
            terms.pad_ends.setdefault((piece.last, piece.wraps), []).append(piece)
        elif shape == "before_change":
            terms.pad_starts.setdefault((piece.first, piece.wraps), []).append(piece)
        elif shape in ("left", "right", "tail", "head"):
            terms.outer.append(piece)
        index += 1
    return terms


def _special_rows(
    twist: TwistModel,
    built: PositionModel,
    counts: Counts,
    protos: Protos,
    terms: _PieceTerms,
    variables: list[cmh.IntegerVariableProto],
    constraints: list[cmh.ConstraintProto],
) -> dict[int, int]:
    """Special jokers: the pieces' count is the table's plus the rack's played (in an official
    opening, at most the rack's); the variables of the rack's played, by special joker."""
    opening = built.kept_by_rule
    played: dict[int, int] = {}
    for i in range(3):
        table = 0 if opening else counts.table_specials[i]
        rack = twist.rack_specials[i]
        special = terms.specials[i]
        if not special and not table:
            continue
        if opening:
            constraints.append(linear([v for v, _ in special], [c for _, c in special], 0, rack))
        else:
            index = len(variables)
            variables.append(protos.domain(0, rack))
            played[i] = index
            constraints.append(linear([v for v, _ in special] + [index], [c for _, c in special] + [-1], table, table))
    if not opening:
        twist.played = played
    return played


def _anchor_rows(
    built: PositionModel,
    cat: Catalogue,
    offset: int,
    terms: _PieceTerms,
    constraints: list[cmh.ConstraintProto],
    *,
    kept: bool,
) -> None:
    """Anchored slots hold real tiles: ``u[k] - jk[k] - anchors >= 0``; with ``kept`` (the final
    layer of a rearranging turn), table melds kept as they were hold real tiles too:
    ``u[k] - jk[k] - anchors - kept real >= 0``."""
    layer = Layer.of(cat, offset)
    kept_real: dict[int, list[tuple[int, int]]] = {}
    if kept:
        for s, (var, _) in built.simple_keep.items():
            for k in cat.sets[s].kinds:
                kept_real.setdefault(k, []).append((var, 1))
        for meld in built.complex_keep:
            for k in meld.real_kinds:
                kept_real.setdefault(k, []).append((meld.var, 1))
    for k, anchors in terms.anchors.items():
        sets = cat.sets_by_kind[k]
        merged: dict[int, int] = {}
        for var, coeff in [(layer.x(s), 1) for s in sets] + terms.kinds[k] + [(layer.jk(k), -1)]:
            merged[var] = merged.get(var, 0) + coeff
        for var, coeff in anchors + kept_real.get(k, []):
            merged[var] = merged.get(var, 0) - coeff
        constraints.append(linear(list(merged), list(merged.values()), 0, INF))


def _colour_changes(
    twist: TwistModel,
    cat: Catalogue,
    protos: Protos,
    terms: _PieceTerms,
    variables: list[cmh.IntegerVariableProto],
    constraints: list[cmh.ConstraintProto],
) -> None:
    """At each ``JC``'s number, ``c[A, B]`` colour changes from colour ``A`` (the segments ending
    before it) to ``B != A`` (those starting after it): ``sum_B c[A, B]`` = before of colour ``A``,
    ``sum_A c[A, B]`` = after of colour ``B`` (a transportation problem: its relaxation pairs them
    too). A joker pad in the ``JC``'s slot continues a segment in its own colour instead: the
    ``before_change`` pads there join the first sum, the ``after_change`` pads the second, at most
    the pieces they may continue (:func:`pad_host`). Segments and pads with nothing to pair with
    are fixed to 0; then the outer pads (:func:`_outer_pads`)."""
    index = len(variables)
    ends, starts = terms.ends, terms.starts
    for place in sorted(set(ends) | set(starts)):
        before, after = ends.get(place, []), starts.get(place, [])
        follow, precede = terms.pad_starts.get(place, []), terms.pad_ends.get(place, [])
        colours_before = sorted({p.colour for p in before})
        colours_after = sorted({p.colour for p in after})
        pairs = {}
        for a in colours_before:
            for b in colours_after:
                if a != b:
                    variables.append(protos.domain(0, twist.layer_specials[1]))
                    pairs[(a, b)] = index
                    index += 1
        for side, pads, at in ((before, follow, 0), (after, precede, 1)):
            for colour in sorted({p.colour for p in side} | {p.colour for p in pads}):
                mine = [p.var for p in side if p.colour == colour]
                links = [v for pair, v in pairs.items() if pair[at] == colour]
                links += [p.var for p in pads if p.colour == colour]
                if not mine or not links:
                    for var in mine + links:
                        variables[var] = protos.domain(0, 0)
                    continue
                constraints.append(linear(mine + links, [1] * len(mine) + [-1] * len(links), 0, 0))
                mine_pads = [p.var for p in pads if p.colour == colour]
                if mine_pads:
                    hosts = [p.var for p in side if p.colour == colour and pad_host(p, cat.rules)]
                    constraints.append(linear(mine_pads + hosts, [1] * len(mine_pads) + [-1] * len(hosts), -INF, 0))
    _outer_pads(terms, cat, protos, variables, constraints)


def _outer_pads(
    terms: _PieceTerms,
    cat: Catalogue,
    protos: Protos,
    variables: list[cmh.IntegerVariableProto],
    constraints: list[cmh.ConstraintProto],
) -> None:
    """``tail`` pads of a colour starting at a slot are at most the ``right`` segments and tails of
    that colour ending just before it; ``head`` pads ending at a slot, at most the ``left``
    segments and heads starting just after it (those :func:`pad_host` allows)."""
    if not any(p.shape in ("tail", "head") for p in terms.outer):
        return
    ending: dict[tuple[int, int, bool], list[int]] = {}
    starting: dict[tuple[int, int, bool], list[int]] = {}
    for p in terms.outer:
        if not pad_host(p, cat.rules):
            continue
        if p.shape in ("right", "tail"):
            ending.setdefault((p.colour, p.last, p.wraps), []).append(p.var)
        if p.shape in ("left", "head"):
            starting.setdefault((p.colour, p.first, p.wraps), []).append(p.var)
    pads: dict[tuple[str, int, int, bool], list[int]] = {}
    for p in terms.outer:
        if p.shape == "tail":
            pads.setdefault(("tail", p.colour, p.first - 1, p.wraps), []).append(p.var)
        elif p.shape == "head":
            pads.setdefault(("head", p.colour, p.last + 1, p.wraps), []).append(p.var)
    for (shape, *key), mine in pads.items():
        hosts = (ending if shape == "tail" else starting).get(tuple(key), [])  # type: ignore[arg-type]
        if not hosts:
            for var in mine:
                variables[var] = protos.domain(0, 0)
            continue
        constraints.append(linear(mine + hosts, [1] * len(mine) + [-1] * len(hosts), -INF, 0))


def add_opening_twist(
    twist: TwistModel,
    built: PositionModel,
    draft: ModelDraft,
    opening: OpeningRows,
) -> None:
    """``open_then_manipulate``: the special jokers' pieces of the opening layer (rack tiles only,
    never laid out) at ``opening.offset``: their slots join the layer's conservation rows, its
    threshold and the rows "opening tiles of kind ``k`` <= rack tiles of kind ``k`` played"; each
    special joker in the opening is one of the rack's played (the final layer's ``p*``, so this is
    added after :class:`TwistPieces`)."""
    protos, cat, variables, constraints = draft.protos, draft.cat, draft.variables, draft.constraints
    terms = _piece_variables(twist, protos, variables)
    final = built.twist
    for i, special in enumerate(terms.specials):
        if not special:
            continue
        var = None if final is None else final.played.get(i)
        vs, cs = [v for v, _ in special], [c for _, c in special]
        if var is not None:
            vs, cs = vs + [var], cs + [-1]
        constraints.append(linear(vs, cs, -INF, 0))
    for k, kind_terms in terms.kinds.items():
        extend_row(constraints, opening.rows.kind[k], kind_terms)
        if k in opening.played:
            extend_row(constraints, opening.played[k], kind_terms)
    if opening.jokers:
        _anchor_rows(built, cat, opening.offset, terms, constraints, kept=False)
    _colour_changes(twist, cat, protos, terms, variables, constraints)
    assert opening.rows.threshold is not None, "the opening layer has its threshold row"
    extend_row(constraints, opening.rows.threshold, [(p.var, p.value) for p in twist.pieces if p.value])
    twist.kind_terms, twist.anchor_terms = terms.kinds, terms.anchors


@dataclass
class OpeningRows:
    """``open_then_manipulate``'s opening layer: where its rows sit (:class:`Rows`: conservation,
    threshold) and, per rack kind, the row "opening tiles <= played"; its first variable and the
    rack jokers it may hold."""

    offset: int
    rows: Rows
    played: dict[int, int]
    jokers: int


@dataclass(frozen=True, slots=True)
class OpeningTwistPieces(RuleExtension):
    """Twist's rule extension for ``open_then_manipulate``: the opening layer's pieces
    (:func:`add_opening_twist`), added after the final layer's :class:`TwistPieces`."""

    twist: TwistModel
    opening: OpeningRows

    def add(self, draft: ModelDraft, built: PositionModel) -> None:
        """Add the opening pieces' variables and rows to ``draft``."""
        add_opening_twist(self.twist, built, draft, self.opening)


@dataclass(frozen=True, slots=True)
class TwistPieces(RuleExtension):
    """Twist's rule extension: the special jokers' pieces of the final layer (:func:`add_twist`)."""

    twist: TwistModel
    """The pieces :func:`plan_twist` chose for the layer."""

    widens: ClassVar[bool] = True

    def search_efforts(self) -> tuple[float, float, int] | None:
        """:data:`TWIST_EFFORTS`."""
        return TWIST_EFFORTS

    def add(self, draft: ModelDraft, built: PositionModel) -> None:
        """Add the pieces' variables and rows to ``draft``."""
        add_twist(
            self.twist, built, draft.cat, draft.protos, draft.counts, 0, draft.rows, draft.variables, draft.constraints
        )
