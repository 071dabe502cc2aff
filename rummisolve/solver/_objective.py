"""The objective of a position's model: ``-(weight * primary + melds kept)`` (CP-SAT minimises),
its primary the tiles played or the points shed (see :mod:`rummisolve.solver._model`)."""

from __future__ import annotations

from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._groups import joker_vars, tile_terms
from rummisolve.solver._layout import PositionModel
from rummisolve.solver._protos import protos as protos_for
from rummisolve.solver._twist import TwistModel

__all__ = ["add_objective", "primary_offset"]


def add_objective(built: PositionModel, cat: Catalogue, objective: str, n_variables: int) -> None:
    """Minimise ``-(weight * primary + kept)`` (CP-SAT minimises)."""
    keep_vars = [var for var, _ in built.simple_keep.values()] + [m.var for m in built.complex_keep]
    keep_vars += [keep.var for keep in built.group_keep]
    twist = built.twist
    if twist is not None:
        keep_vars += [piece.var for piece in twist.pieces if piece.shape == "kept"]
    weight = len(built.counts.melds) + len(built.counts.twist_melds) + 1 if keep_vars else 1
    scale = built.rack_size + 1 if objective == "value" and cat.rules.joker_penalty == 0 else 0
    built.weight = weight
    by_played = not built.kept_by_rule
    jokers_played = _jokers_in_objective(built)
    key = (objective, weight, scale, built.final_offset, by_played, jokers_played)
    protos = protos_for(cat)
    terms = protos.objectives.get(key)
    if terms is None:
        if by_played:
            variables, values = _played_terms(cat, objective, weight, scale, jokers_played)
        else:
            variables, values = _primary_terms(cat, objective, weight, scale, built.final_offset)
        terms = protos.objectives[key] = (variables, values, {v: i for i, v in enumerate(variables)})
    variables, values, position = terms
    coeffs = list(values)
    extra = []
    for var in keep_vars:
        at = position.get(var)
        if at is None:
            extra.append(var)
        else:  # x[s] counting kept melds itself: one term, not two
            coeffs[at] -= 1
    extra_coeffs = [-1] * len(extra)
    if jokers_played and built.group_keep:  # kept groups' jokers are not in jk nor jg
        joker = _joker_coefficient(cat, objective, scale)
        place = {var: i for i, var in enumerate(extra)}
        for keep in built.group_keep:
            if keep.jokers:
                extra_coeffs[place[keep.var]] -= joker * keep.jokers * weight
    obj = built.proto.objective
    obj.vars.extend(variables + extra)
    obj.coeffs.extend(coeffs + extra_coeffs)
    if twist is not None:
        _twist_objective(built, twist, cat, objective, weight, scale)


def _jokers_in_objective(built: PositionModel) -> bool:
    """Whether the primary objective counts every joker of the final layer (``jk``, and kept Twist
    melds' regular jokers): a table that may be rearranged, with rack jokers to play."""
    return not built.kept_by_rule and built.layer_jokers > built.counts.table_jokers


def primary_offset(built: PositionModel) -> int:
    """The objective's primary term less the true primary (tiles played, objective ``tiles``): the
    table's jokers where :func:`_jokers_in_objective`, else 0. So with the objective
    ``-(weight * (tiles + offset) + kept)``, ``objective <= -weight * (n + offset)`` holds exactly
    when ``n`` tiles or more are played (``kept`` < ``weight``)."""
    return built.counts.table_jokers if _jokers_in_objective(built) else 0


def _twist_objective(
    built: PositionModel, twist: TwistModel, cat: Catalogue, objective: str, weight: int, scale: int
) -> None:
    """The special jokers' share of the primary objective: each one played counts one tile or the
    joker penalty; in an official opening a piece counts its tiles, or its numbered slots'
    numbers plus the penalty of each special joker (its regular jokers are counted through ``jk``)."""
    penalty = cat.rules.joker_penalty
    per_joker = 1 if objective != "value" else (penalty * scale + 1 if scale else penalty)
    terms: list[tuple[int, int]] = []
    if built.kept_by_rule:
        for piece in twist.pieces:
            if objective == "value":
                numbers = sum(cat.numbers[k] * n for k, n in piece.slots.items())
                specials = piece.doubles + piece.changes + piece.mirrors
                slots = sum(piece.slots.values())
                coeff = (numbers * scale + slots if scale else numbers) + per_joker * specials
            else:
                coeff = piece.tiles
            terms.append((piece.var, coeff))
    else:
        terms = [(var, per_joker) for var in twist.played.values()]
        if built.layer_jokers > built.counts.table_jokers:
            # a kept meld's regular jokers are not in jk: count them as jk counts the others
            terms += [(p.var, per_joker * p.joker_anchors[-1]) for p in twist.pieces if p.joker_anchors.get(-1)]
    obj = built.proto.objective
    obj.vars.extend(var for var, _ in terms)
    obj.coeffs.extend(-coeff * weight for _, coeff in terms)


def _played_terms(cat: Catalogue, objective: str, weight: int, scale: int, jokers_played: bool) -> tuple[list, list]:
    """Variables and (negated, weighted) coefficients of the primary objective over the tiles played
    (``p``) and the jokers (``jk``) of a table that may be rearranged: it differs from the sum over
    the sets by a constant (the table's tiles). Without rack jokers to play, the jokers in the final
    layer are a constant too."""
    n_sets, n_kinds = len(cat.sets), len(cat.kinds)
    if objective == "value":
        kinds = [n * scale + 1 for n in cat.numbers] if scale else list(cat.numbers)
    else:
        kinds = [1] * n_kinds
    joker = _joker_coefficient(cat, objective, scale) if jokers_played else 0
    coeffs = [0] * n_sets + [joker] * n_kinds + [0] * cat.group_block + kinds
    for var in joker_vars(cat, 0):  # jokers in groups count as those in runs
        coeffs[var] = joker
    variables = [i for i, c in enumerate(coeffs) if c]
    return variables, [-coeffs[i] * weight for i in variables]


def _joker_coefficient(cat: Catalogue, objective: str, scale: int) -> int:
    """What a joker played adds to the (unweighted) primary objective."""
    if objective != "value":
        return 1
    return cat.rules.joker_penalty * scale + 1 if scale else cat.rules.joker_penalty


def _primary_terms(cat: Catalogue, objective: str, weight: int, scale: int, offset: int) -> tuple[list, list]:
    """Variables and (negated, weighted) coefficients of the primary objective."""
    n_sets = len(cat.sets)
    if objective == "value":
        coeffs = [base.value for base in cat.sets] + [cat.rules.joker_penalty - n for n in cat.numbers]
        if scale:  # a zero-point joker still counts as a tile played
            coeffs = [c * scale + len(base.kinds) for c, base in zip(coeffs, cat.sets)] + [
                c * scale for c in coeffs[n_sets:]
            ]
        tile = [n * scale + 1 for n in cat.numbers] if scale else list(cat.numbers)
    else:
        coeffs = [len(base.kinds) for base in cat.sets] + [0] * len(cat.kinds)
        tile = [1] * len(cat.kinds)
    variables = [offset + i for i, c in enumerate(coeffs) if c]
    values = [-c * weight for c in coeffs if c]
    # A group's real tile counts as played, its joker as a joker played (not its number).
    for var, coeff in tile_terms(cat, offset, tile, _joker_coefficient(cat, objective, scale)):
        variables.append(var)
        values.append(-coeff * weight)
    return variables, values
