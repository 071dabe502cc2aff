"""The CP-SAT model of one position, written straight into a ``CpModelProto``.

Variables, per *layer* (an arrangement of base sets; the final table, and for
``open_then_manipulate`` also the opening melds), at fixed indices so that most of the model's
rows can be built once per rule set and reused (:mod:`~rummisolve.solver._protos`):

- ``x[s]`` (``s`` < S): copies of base set ``s``; unusable sets are fixed to 0;
- ``jk[k]`` (S + ``k``): jokers standing for kind ``k``;
- grouped catalogues (6-8 colours) only: the group block, per number ``G``, ``y`` per colour and
  ``jg`` (:mod:`~rummisolve.solver._groups`; ``x`` then covers runs only and ``jk`` run jokers);
- final layer of a table that may be rearranged only: ``p[k]`` (the layer's size + ``k``), rack
  tiles of kind ``k`` played (0 where no usable set holds ``k``).

Per position, after the layers:

- ``kc[s]``: how many of the table's joker-free melds with the shape of base set ``s`` stay as they were
  (no variable where ``x[s]`` itself counts them: when the table holds at least as many melds of that
  shape as ``x[s]`` can take, every copy used can be one of them);
- ``km[m]``: whether table meld ``m`` (a long run, or a meld with jokers) stays exactly as it was;
- ``z[s,k]`` (:mod:`~rummisolve.solver._anchors`, only for the sets a solution needed it for):
  real tiles of kind ``k`` in copies of ``s`` that are not kept melds, so that no meld is made of
  jokers only and no run reads as a group;
- strict joker retrieval's variables (:mod:`~rummisolve.solver._strict`).

The keep variables are substituted into the conservation rows (see
:class:`~rummisolve.solver._keep.KeptMelds`): ``x[s]`` of the
final layer then counts only the copies of ``s`` that are not kept melds, and ``u[k]`` below adds
the kept melds' slots. (Under strict retrieval with table jokers, and with Twist pieces, ``x[s]``
counts every copy and rows ``kept <= x[s]`` tie the keep variables to it.)

With ``u[k] = sum_s a[k,s] x[s]`` the slots of kind ``k``, rack tiles played are
``u[k] - table[k] - jk[k]``: conservation is ``u[k] - jk[k] - p[k] = table[k]`` where there is a
``p[k]``, else the ranged ``table[k] <= u[k] - jk[k] <= table[k] + rack[k]``; for jokers,
``table jokers <= sum_k jk[k] <= table jokers + rack jokers``. Tiles played are ``sum_k p[k]`` plus
the rack jokers played, points shed ``sum_k number(k) p[k] + penalty * rack jokers played``
(an opening, which has no ``p``: ``sum_s |s| x[s]`` and ``sum_s value(s) x[s] + sum_k (penalty -
number(k)) jk[k]``). The objective is ``weight * primary + melds kept``. A row demands a tile
played where the table may be rearranged (an opening's threshold demands it already). Under the
discard rule the tiles played are at most the rack size less one (a tile stays to discard): the
same row's upper bound, or for an official opening ``sum_s |s| x[s] <= rack - 1``.

The core builds the layers, the conservation, joker, threshold and "plays a tile" rows and the
objective; every rule beyond it is a :class:`~rummisolve.solver._draft.RuleExtension` that the
core hands the :class:`~rummisolve.solver._draft.ModelDraft` in one loop, in this order: the
discard rule, the kept melds, a grouped catalogue's kept groups, Twist's pieces, strict joker
retrieval, the anchors. Each adds its own variables and rows and its terms to the core's rows
(:class:`~rummisolve.solver._layout.Rows`); the built model records what decoding and the search
are to ask of them (:func:`~rummisolve.solver._draft.add_extensions`).
"""

from __future__ import annotations

from collections.abc import Collection

from ortools.sat.python import cp_model_helper as cmh

from rummisolve.position import Position
from rummisolve.rule_facts import joker_reading_matters
from rummisolve.solver._anchors import Anchors
from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._discard import DiscardRule
from rummisolve.solver._draft import ModelDraft, RuleExtension, add_extensions
from rummisolve.solver._groups import KeptGroups, add_groups, joker_vars, tile_terms
from rummisolve.solver._keep import KeptMelds
from rummisolve.solver._layout import Counts, Layer, PositionModel, Rows, TableCounts, count_position
from rummisolve.solver._objective import add_objective
from rummisolve.solver._protos import INF, Protos, group_tiles, linear
from rummisolve.solver._protos import protos as protos_for
from rummisolve.solver._strict_rule import StrictReadings, StrictRetrieval
from rummisolve.solver._twist_model import OpeningRows, OpeningTwistPieces, TwistPieces, plan_twist

__all__ = ["build_model"]


def build_model(
    position: Position,
    cat: Catalogue,
    objective: str,
    anchored: dict[int, int] | None = None,
    table: TableCounts | None = None,
    relaxed: bool = False,
    *,
    substitute_kept: bool = True,
) -> PositionModel | None:
    """Build the model for ``position``; ``None`` when cheap checks prove there is no legal move.

    ``anchored``: base set -> how many real tiles each of its copies must hold (1: not jokers only;
    2: a run that must not read as a group). The solver adds them lazily, only for sets that a
    solution actually needed them for (see :func:`rummisolve.solver._decode.decode`). ``table``:
    the table's counts (:func:`~rummisolve.solver._layout.count_table`), if already made.
    ``relaxed``: the rule extensions' relaxations of their rules, where they have one (strict
    retrieval's kept jokers without their kept hosts, :func:`~rummisolve.solver._strict.strict_jokers`;
    ``built.relaxed`` says whether one was used).
    ``substitute_kept=False``: the rows ``kept <= x[s]`` in place of substituting the kept melds
    into the conservation rows (:class:`~rummisolve.solver._keep.KeptMelds`,
    :class:`~rummisolve.solver._variant.ModelVariant`)."""
    anchored = anchored or {}
    rules = position.rules
    if len(position.rack) < (2 if rules.discard else 1):  # the discard rule keeps a tile on the rack
        return None
    counts = count_position(position, cat, table)
    draft = ModelDraft(position, cat, counts, protos_for(cat), anchored)
    if not position.opened and not rules.open_then_manipulate:
        built = _official_opening(draft)
    else:
        built = _rearranging(draft, relaxed=relaxed, substitute_kept=substitute_kept)
    if built is None:
        return None
    built.proto.variables.extend(draft.variables)
    built.proto.constraints.extend(draft.constraints)
    add_objective(built, cat, objective, len(draft.variables))
    return built


def _official_opening(draft: ModelDraft) -> PositionModel | None:
    """An initial meld under the official rule: new melds of rack tiles only, the table untouched."""
    position, cat, counts, protos = draft.position, draft.cat, draft.counts, draft.protos
    rules = position.rules
    variables, constraints, rows = draft.variables, draft.constraints, draft.rows
    opening_jokers = draft.opening_jokers
    n_kinds = len(cat.kinds)
    twist = None
    if counts.has_twist and rules.joker_in_initial_meld:
        twist = plan_twist(cat, counts, counts.rack, opening_jokers, opening=True)
    layer = _layer(
        protos,
        available=counts.rack,
        jokers=opening_jokers,
        offset=0,
        table=[0] * n_kinds,
        rack=counts.rack,
        variables=variables,
        constraints=constraints,
        extra=twist.kinds if twist else (),
        rows=rows if twist or cat.grouped else None,
    )
    if layer is None:
        return None
    if not twist and not _rack_fits(cat, counts.rack, opening_jokers, layer[1], rules.initial_threshold):
        return None
    rows.jokers = len(constraints)
    _jokers(protos, 0, 0, opening_jokers, constraints)
    rows.threshold = len(constraints)
    _threshold(protos, cat, 0, max(rules.initial_threshold, 1) if twist else rules.initial_threshold, constraints)
    built = PositionModel(cmh.CpModelProto(), counts, Layer.of(cat), cat.layer_size, True, rack_size=len(position.rack))
    built.layer_jokers = opening_jokers
    extensions: list[RuleExtension] = []
    if rules.discard:
        extensions.append(DiscardRule())
    if twist:
        extensions.append(TwistPieces(twist))
    if joker_reading_matters(rules):
        extensions.append(StrictReadings())
    if draft.anchored:
        extensions.append(Anchors(counts.rack, draft.anchored))
    add_extensions(draft, built, extensions)
    return built


def _rearranging(draft: ModelDraft, *, relaxed: bool, substitute_kept: bool) -> PositionModel | None:
    """A turn that may rearrange the table (after the opening, or an opening under
    ``open_then_manipulate``): the final table of table and rack tiles, and the melds kept."""
    position, cat, counts, protos = draft.position, draft.cat, draft.counts, draft.protos
    rules = position.rules
    variables, constraints, rows = draft.variables, draft.constraints, draft.rows
    opening = not position.opened
    available = [t + r for t, r in zip(counts.table, counts.rack)]
    # A player opening without jokers allowed plays no rack joker at all that turn (nor a special one).
    playable_jokers = draft.opening_jokers
    jokers = counts.table_jokers + playable_jokers
    specials = not opening or rules.joker_in_initial_meld
    twist = plan_twist(cat, counts, available, jokers, False, specials, initial=opening) if counts.has_twist else None
    played: list[int] = []
    layer = _layer(
        protos,
        available=available,
        jokers=jokers,
        offset=0,
        table=counts.table,
        rack=counts.rack,
        variables=variables,
        constraints=constraints,
        played=played,
        extra=twist.kinds if twist else (),
        rows=rows,
    )
    if layer is None:
        return None
    _played(protos, counts, played, variables, constraints, rows)
    ub = layer[0]
    if not playable_jokers and not played and not (twist and any(twist.rack_specials)):
        return None  # no rack tile is in a usable set
    rows.jokers = len(constraints)
    _jokers(protos, 0, counts.table_jokers, jokers, constraints)
    built = PositionModel(
        cmh.CpModelProto(), counts, Layer.of(cat), cat.layer_size, False, rack_size=len(position.rack)
    )
    built.layer_jokers = jokers
    rows.plays = len(constraints)
    _plays_a_tile(built, cat, played, playable_jokers, constraints)
    built.opening_offset = built.played_offset + len(cat.kinds)
    opening_extensions: list[RuleExtension] = []
    if opening:
        later = _open_then_manipulate(draft, built)
        if later is None:
            return None
        opening_extensions = later
    strict = rules.joker_retrieval == "strict" and counts.table_jokers > 0
    extensions: list[RuleExtension] = []
    if rules.discard:
        extensions.append(DiscardRule())
    extensions.append(KeptMelds(ub, substitute=substitute_kept and not twist and not strict))
    if cat.grouped:
        extensions.append(KeptGroups())
    if twist:
        extensions.append(TwistPieces(twist))
    extensions.extend(opening_extensions)  # the opening's Twist pieces join the final layer's p*
    if strict:
        extensions.append(StrictRetrieval(ub, kept_hosts=not relaxed))
    elif joker_reading_matters(rules):
        extensions.append(StrictReadings())
    if draft.anchored:
        extensions.append(Anchors(available, draft.anchored))
    add_extensions(draft, built, extensions)
    return built


def _rack_fits(cat: Catalogue, rack: list[int], jokers: int, fits: list[bool], threshold: int) -> bool:
    """Cheap bound for an opening: can the rack reach the threshold at all?"""
    best = sum(cat.numbers[k] * rack[k] for k in range(len(rack)) if rack[k] and fits[k])
    best += jokers * cat.rules.numbers
    return best >= max(threshold, 1)


def _layer(
    protos: Protos,
    *,
    available: list[int],
    jokers: int,
    offset: int,
    table: list[int],
    rack: list[int],
    variables: list[cmh.IntegerVariableProto],
    constraints: list[cmh.ConstraintProto],
    played: list[int] | None = None,
    extra: Collection[int] = (),
    rows: Rows | None = None,
) -> tuple[list[int], list[bool]] | None:
    """Add one layer's variables and per-kind conservation.

    Returns each set's upper bound on copies (0: unusable) and, per kind, whether a usable set
    holds it; ``None`` when no set is usable at all. With ``played`` (the final layer of a table
    that may be rearranged), the rack kinds that a usable set holds are appended to it instead of
    getting their conservation row here (:func:`_played` writes it). A grouped catalogue's layer
    also gets its group block (:func:`~rummisolve.solver._groups.add_groups`)."""
    cat = protos.cat
    layer = Layer.of(cat, offset)
    bounds = protos.copy_bounds(jokers)
    ub = [bounds[slots(available)] for slots in protos.slot_counts]
    fit_list = [sets is not None and any(sets(ub)) for sets in protos.sets_of_kind]
    domains = protos.domains_up_to(max(max(ub, default=0), jokers))
    variables.extend([domains[b] for b in ub])
    joker_domain = domains[jokers]
    zero = domains[0]
    # Twist pieces (``extra``) may hold kinds that no usable base set does.
    variables.extend([joker_domain if used or k in extra else zero for k, used in enumerate(fit_list)])
    if cat.grouped:  # jk[k] stands in runs only; a kind that a group may hold is used too
        in_groups = add_groups(protos, cat, available, jokers, offset, variables, constraints)
        for k, (in_runs, in_group) in enumerate(zip(fit_list, in_groups)):
            if in_runs and in_group and jokers:
                # jk[k] <= run slots of kind k (else y[k] could take more tiles than there are);
                # in the final layer, also less the real tiles of kind k in kept runs (keep_groups)
                sets = cat.sets_by_kind[k]
                vs = [layer.x(s) for s in sets] + [layer.jk(k)]
                if rows is not None:
                    rows.run_tiles[k] = len(constraints)
                constraints.append(protos.cachedlinear(("run tiles", vs[-1]), vs, [1] * len(sets) + [-1], 0, INF))
        fit_list = [a or b for a, b in zip(fit_list, in_groups)]
    if not any(fit_list) and not extra:
        return None
    kind = protos.kind
    for k, used in enumerate(fit_list):
        used = used or k in extra
        if played is not None and used and rack[k]:
            played.append(k)
        elif used or table[k] or rack[k]:
            if rows is not None:
                rows.kind[k] = len(constraints)
            constraints.append(kind(offset, k, table[k], table[k] + rack[k]))
    return ub, fit_list


def _played(
    protos: Protos, counts: Counts, kinds: list[int], variables: list, constraints: list, rows: Rows | None = None
) -> None:
    """The final layer's block of variables ``p[k]`` (S + K + ``k``): rack tiles of kind ``k`` played.

    For the rack kinds that a usable set holds, conservation is ``u[k] - jk[k] - p[k] = table[k]``
    with ``p[k]`` in ``[0, rack[k]]``; every other ``p[k]`` is 0. The objective weighs ``p`` (and the
    jokers), not the sets. Both give the same optima, but with no set in the objective the LP
    relaxation needs fewer simplex iterations and the search finds the optimum sooner on large
    tables."""
    block = [protos.domain(0, 0)] * len(counts.rack)
    played_row = protos.played
    for k in kinds:
        block[k] = protos.domain(0, counts.rack[k])
        if rows is not None:
            rows.kind[k] = len(constraints)
        constraints.append(played_row(k, counts.table[k]))
    variables.extend(block)


def _plays_a_tile(
    built: PositionModel, cat: Catalogue, kinds: list[int], playable_jokers: int, constraints: list
) -> None:
    """A turn plays a rack tile: ``sum_k p[k]`` (+ the rack jokers played, when there are any to
    play) ``>= 1``. Without this row "play nothing, keep every meld" is a solution, and a position
    with no move costs CP-SAT a search for the best such solution; with it that position is an
    infeasible model, which CP-SAT proves with far fewer branches. (The discard rule bounds it
    from above: :class:`~rummisolve.solver._discard.DiscardRule`.)"""
    variables = [built.p(k) for k in kinds]
    table_jokers = 0
    if playable_jokers:  # the final layer's jokers (jk, and jg when grouped), beyond the table's own
        variables += built.final.jks
        variables += joker_vars(cat, built.final.offset)
        table_jokers = built.counts.table_jokers
    constraints.append(linear(variables, [1] * len(variables), 1 + table_jokers, INF))


def _jokers(protos: Protos, offset: int, lo: int, hi: int, constraints: list[cmh.ConstraintProto]) -> None:
    """``lo <= sum_k jk[k] (+ sum_n jg[n]) <= hi`` in the layer at ``offset``."""
    cat = protos.cat
    jk = list(Layer.of(cat, offset).jks) + joker_vars(cat, offset)
    constraints.append(protos.cachedlinear(("jokers", offset, lo, hi), jk, [1] * len(jk), lo, hi))


def _threshold(protos: Protos, cat: Catalogue, offset: int, threshold: int, constraints: list) -> None:
    if threshold > 0:
        xs = list(Layer.of(cat, offset).xs)
        values = [base.value for base in cat.sets]
        for var, value in _group_values(cat, offset):  # a group's joker counts its number
            xs.append(var)
            values.append(value)
        constraints.append(protos.cachedlinear(("threshold", offset, threshold), xs, values, threshold, INF))


def _group_values(cat: Catalogue, offset: int) -> list[tuple[int, int]]:
    """The group block's terms of a layer's value: ``n (sum_c y[c,n] + jg[n])`` (none unless grouped)."""
    terms = tile_terms(cat, offset, list(cat.numbers), 0)
    return terms + [(v, i + 1) for i, v in enumerate(joker_vars(cat, offset))]


def _open_then_manipulate(draft: ModelDraft, built: PositionModel) -> list[RuleExtension] | None:
    """A second layer: new melds of rack tiles only, worth the threshold, all of them played.
    ``None`` when the rack cannot open; else the extensions to add after the final layer's (with
    special jokers in play, the opening's Twist pieces and its anchors)."""
    protos, cat, counts = draft.protos, draft.cat, draft.counts
    variables, constraints, rows = draft.variables, draft.constraints, draft.rows
    opening_jokers = draft.opening_jokers
    rules = cat.rules
    offset = built.opening_offset
    n_kinds = len(cat.kinds)
    zero = [0] * n_kinds
    twist = None
    if counts.has_twist and rules.joker_in_initial_meld:
        twist = plan_twist(cat, counts, counts.rack, opening_jokers, opening=True)
    opening = OpeningRows(offset, Rows(), {}, opening_jokers)
    layer = _layer(
        protos,
        available=counts.rack,
        jokers=opening_jokers,
        offset=offset,
        table=zero,
        rack=counts.rack,
        variables=variables,
        constraints=constraints,
        extra=twist.kinds if twist else (),
        rows=opening.rows if twist else None,
    )
    if layer is None or (
        not twist and not _rack_fits(cat, counts.rack, opening_jokers, layer[1], rules.initial_threshold)
    ):
        return None
    _jokers(protos, offset, 0, opening_jokers, constraints)
    # At least one opening meld even with a threshold of 0: the table may only be rearranged
    # after an initial meld of rack tiles (every base set and Twist piece is worth at least 1).
    opening.rows.threshold = len(constraints)
    _threshold(protos, cat, offset, max(rules.initial_threshold, 1), constraints)
    # Rack tiles of the opening are among the rack tiles played: u0[k] - jk0[k] <= p[k].
    opening_layer = Layer.of(cat, offset)
    for k in range(n_kinds):
        if not counts.rack[k]:
            continue
        sets = cat.sets_by_kind[k]
        vs = [opening_layer.x(s) for s in sets] + [opening_layer.jk(k), built.p(k)]
        cs = [1] * len(sets) + [-1, -1]
        if cat.grouped:
            vs.append(offset + group_tiles(cat, k))
            cs.append(1)
        opening.played[k] = len(constraints)
        constraints.append(linear(vs, cs, -INF, 0))
    # Rack jokers in the opening <= rack jokers played (the final layer's jokers less the table's).
    jk0 = list(opening_layer.jks) + joker_vars(cat, offset)
    jk = list(built.final.jks) + joker_vars(cat, built.final.offset)
    rows.opening_jokers = len(constraints)
    constraints.append(linear(jk0 + jk, [1] * len(jk0) + [-1] * len(jk), -INF, -counts.table_jokers))
    later: list[RuleExtension] = [OpeningTwistPieces(twist, opening)] if twist else []
    if opening_jokers >= rules.min_meld_length:
        # The opening melds are never laid out, so anchor every set jokers alone could fill
        # (with Twist pieces, once they are in: their slots share the layer's real tiles).
        small = {s: 1 for s, base in enumerate(cat.sets) if len(base.kinds) <= opening_jokers}
        anchors = Anchors(counts.rack, small, offset, twist)
        if twist:
            later.append(anchors)
        else:
            anchors.add(draft, built)
    return later
