"""The independent exact method ("oracle"): a HiGHS MIP over explicitly enumerated melds.

This shares neither formulation nor engine with rummisolve's solver (CP-SAT over joker-free
base sets plus per-kind joker counts). Here, in the style of den Hertog & Hulshof (2006),
every candidate meld is listed with its jokers already placed (runs of ``m .. 2m-1`` tiles,
groups of ``m .. colours`` tiles, any number of joker slots up to ``rules.jokers``, never all
jokers), duplicates by tile multiset are merged (keeping the highest opening value), and an
integer multiplicity per candidate is chosen by HiGHS subject to tile counts:

* opened: every table tile is used, rack tiles are used at most as often as held;
* not opened: new melds from rack tiles only (the table is kept as it is), worth at least
  ``rules.initial_threshold`` with jokers worth what they stand for; with
  ``open_then_manipulate`` a second arrangement over table + every played tile must exist too;
  with ``joker_in_initial_meld`` false no rack joker is played on that turn at all (docs/rules.md as
  the referee reads it: the ban covers the melds after the initial meld too);
* at least one rack tile is played, else there is no move (``None``); under ``discard`` at
  most the rack size less one (a tile stays on the rack to discard).

Runs longer than ``2m-1`` are never needed: such a run's tiles always re-split into valid runs
of ``m .. 2m-1`` tiles (cut it in two; if one side holds only jokers, give the nearest real tile
``m-1`` of them and keep the rest together), so the multiset arrangements stay the same.

Out of scope: ``joker_retrieval="strict"`` (which tracks what each table joker stands for);
:func:`solve` raises :class:`NotImplementedError` for it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from rummisolve.position import Position
from rummisolve.rules import RuleSet
from rummisolve.tiles import JOKER, Tile

__all__ = ["Candidate", "OracleAnswer", "candidate_melds", "solve", "optimum", "optima", "OBJECTIVES"]

OBJECTIVES = ("tiles", "value")


@dataclass(frozen=True)
class Candidate:
    """One candidate meld: tiles in a valid play order, the multiset it uses, its opening value."""

    tiles: tuple[Tile, ...]
    counts: tuple[tuple[Tile, int], ...]
    value: int
    """Sum of the numbers the tiles stand for (the best placement of its jokers)."""

    @property
    def jokers(self) -> int:
        return sum(1 for t in self.tiles if t.is_joker)


@dataclass(frozen=True)
class OracleAnswer:
    """The oracle's proven optimum and one arrangement that reaches it."""

    objective: str
    optimum: int | None
    """Rack tiles played (``tiles``) or points shed (``value``); ``None``: no legal move."""
    played: tuple[Tile, ...]
    table: tuple[tuple[Tile, ...], ...]
    """The whole new table, each meld in play order (the old table when there is no move)."""


# -- candidate melds ------------------------------------------------------------------------------


def _run_numbers(start: int, length: int, rules: RuleSet) -> list[int] | None:
    """Numbers of the run window starting at ``start``, or None if the window is not a legal run."""
    top = rules.numbers
    end = start + length - 1
    if start < 1 or length > top:
        return None
    if end <= top:
        return list(range(start, end + 1))
    # the only legal wrap: ...(top-1) top 1, ending on 1, never through it
    if rules.wraparound and end == top + 1 and start >= 2:
        return [*range(start, top + 1), 1]
    return None


def _raw_candidates(rules: RuleSet, available: Counter[Tile] | None):
    """Yield (play-order tiles, opening value) for every meld shape, filtered by availability."""
    m = rules.min_meld_length
    jokers_avail = rules.jokers if available is None else min(rules.jokers, available.get(JOKER, 0))

    def have(tile: Tile) -> bool:
        return available is None or available.get(tile, 0) > 0

    # runs
    # a run of 2m or more with fewer than m jokers cuts into two runs that each hold a real tile;
    # with m jokers or more it may not (R1 R2 R3 J J J), so list every length then
    max_run = rules.numbers if jokers_avail >= m else min(2 * m - 1, rules.numbers)
    for colour in rules.colour_list:
        for length in range(m, max_run + 1):
            for start in range(1, rules.numbers + 2):
                numbers = _run_numbers(start, length, rules)
                if numbers is None:
                    continue
                tiles = [Tile(colour, n) for n in numbers]
                value = sum(numbers)
                for k in range(0, min(jokers_avail, length - 1) + 1):
                    for slots in combinations(range(length), k):
                        chosen = set(slots)
                        if not all(have(t) for i, t in enumerate(tiles) if i not in chosen):
                            continue
                        yield tuple(JOKER if i in chosen else t for i, t in enumerate(tiles)), value
    # groups
    colours = rules.colour_list
    for number in range(1, rules.numbers + 1):
        present = [c for c in colours if have(Tile(c, number))]
        for size in range(m, len(colours) + 1):
            for k in range(0, min(jokers_avail, size - 1) + 1):
                reals = size - k
                if reals > len(present):
                    continue
                for subset in combinations(present, reals):
                    yield tuple(Tile(c, number) for c in subset) + (JOKER,) * k, number * size


_CANDIDATES: dict[tuple, tuple[Candidate, ...]] = {}
_CACHED_POOLS = 64


def candidate_melds(rules: RuleSet, available: Counter[Tile] | None = None) -> list[Candidate]:
    """Every candidate meld (jokers placed), merged by tile multiset, best opening value kept.

    With ``available`` (tile -> count), only melds whose tiles could all be present are listed.
    Kept for the last pools asked for: both objectives and every alternative of a position ask
    for the same pool.
    """
    pool = None if available is None else frozenset((t, n) for t, n in available.items() if n > 0)
    key = (rules, pool)
    found = _CANDIDATES.get(key)
    if found is None:
        if len(_CANDIDATES) >= _CACHED_POOLS:
            _CANDIDATES.clear()
        found = _CANDIDATES[key] = tuple(_candidate_melds(rules, available))
    return list(found)


def _candidate_melds(rules: RuleSet, available: Counter[Tile] | None) -> list[Candidate]:
    best: dict[tuple[tuple[Tile, int], ...], tuple[int, tuple[Tile, ...]]] = {}
    for tiles, value in _raw_candidates(rules, available):
        key = tuple(sorted(Counter(tiles).items()))
        if available is not None and any(available.get(t, 0) < n for t, n in key):
            continue
        old = best.get(key)
        if old is None or value > old[0]:
            best[key] = (value, tiles)
    return [Candidate(tiles, key, value) for key, (value, tiles) in sorted(best.items(), key=_key_order)]


def _key_order(item):
    key, (value, _tiles) = item
    return tuple((t.sort_key, n) for t, n in key), value


# -- the MIP --------------------------------------------------------------------------------------


def _tile_value(tile: Tile, rules: RuleSet) -> int:
    return rules.joker_penalty if tile.is_any_joker else tile.number


_INF = float("inf")
_quiet = False


def silence_highs_banner() -> None:
    """Swallow the banner HiGHS prints once per process (also for other users of highspy)."""
    try:
        import highspy
    except ImportError:
        return
    _new_highs(highspy)


def _new_highs(highspy):
    """A silent HiGHS instance (the first one per process prints a banner on fd 1: swallow it)."""
    global _quiet
    if _quiet:
        h = highspy.Highs()
    else:
        import os
        import sys

        sys.stdout.flush()
        saved = os.dup(1)
        try:
            with open(os.devnull, "w") as devnull:
                os.dup2(devnull.fileno(), 1)
                h = highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        _quiet = True
    h.setOptionValue("output_flag", False)
    return h


class _Model:
    """A tiny column-wise MIP builder for HiGHS (maximisation, integer columns)."""

    def __init__(self) -> None:
        self.cost: list[float] = []
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.columns: list[list[tuple[int, float]]] = []
        self.row_lower: list[float] = []
        self.row_upper: list[float] = []

    def add_col(self, cost: float, upper: float) -> int:
        self.cost.append(cost)
        self.lower.append(0.0)
        self.upper.append(upper)
        self.columns.append([])
        return len(self.cost) - 1

    def add_row(self, terms: Iterable[tuple[int, float]], lower: float, upper: float) -> int:
        row = len(self.row_lower)
        self.row_lower.append(lower)
        self.row_upper.append(upper)
        for col, coef in terms:
            if coef:
                self.columns[col].append((row, coef))
        return row

    def solve(self) -> tuple[float, list[float]] | None:
        import highspy
        import numpy as np

        h = _new_highs(highspy)
        h.setOptionValue("random_seed", 0)
        h.setOptionValue("mip_rel_gap", 0.0)
        h.setOptionValue("mip_abs_gap", 1e-6)
        h.setOptionValue("presolve", "off")  # measured: 10-30x faster on full-deck positions
        lp = highspy.HighsLp()
        lp.num_col_ = len(self.cost)
        lp.num_row_ = len(self.row_lower)
        lp.col_cost_ = np.array(self.cost, dtype=float)
        lp.col_lower_ = np.array(self.lower, dtype=float)
        lp.col_upper_ = np.array(self.upper, dtype=float)
        lp.row_lower_ = np.array(self.row_lower, dtype=float)
        lp.row_upper_ = np.array(self.row_upper, dtype=float)
        starts, index, value = [0], [], []
        for col in self.columns:
            for row, coef in col:
                index.append(row)
                value.append(coef)
            starts.append(len(index))
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
        lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
        lp.a_matrix_.value_ = np.array(value, dtype=float)
        lp.sense_ = highspy.ObjSense.kMaximize
        lp.integrality_ = [highspy.HighsVarType.kInteger] * lp.num_col_
        h.passModel(lp)
        h.run()
        status = h.getModelStatus()
        if status == highspy.HighsModelStatus.kInfeasible:
            return None
        if status != highspy.HighsModelStatus.kOptimal:
            raise RuntimeError(f"HiGHS did not prove optimality: {h.modelStatusToString(status)}")
        values = [round(v) for v in h.getSolution().col_value]
        objective = sum(c * v for c, v in zip(self.cost, values))
        return objective, values


def solve(
    position: Position,
    objective: str = "tiles",
    exclude: Iterable[Iterable[Tile]] = (),
    candidates=None,
    exclude_contained: Iterable[Iterable[Tile]] = (),
) -> OracleAnswer:
    """The proven optimum of ``position`` for ``objective`` and an arrangement reaching it.

    ``candidates``: ``(rules, pool) -> [Candidate]`` in place of :func:`candidate_melds` (the
    Twist oracle, ``benchmarks/twist_oracle.py``, passes its own enumeration).

    ``exclude``: multisets of rack tiles the move may not play exactly (to check alternatives:
    the best move whose played tiles differ from each of them). ``exclude_contained``: multisets
    the move may not play any part of (the best move that plays, for each of them, some tile or
    a further copy it does not: the solver's default alternatives)."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {OBJECTIVES}, not {objective!r}")
    rules = position.rules
    if rules.joker_retrieval == "strict":
        raise NotImplementedError("the oracle does not model joker_retrieval='strict'")
    candidate_melds_of = candidate_melds if candidates is None else candidates
    rack = Counter(position.rack)
    table = Counter(t for meld in position.table for t in meld.tiles)
    old_table = tuple(tuple(meld.tiles) for meld in position.table)
    no_move = OracleAnswer(objective, None, (), old_table)
    if not rack:
        return no_move

    kinds = sorted(set(rack) | set(table))
    weight = {k: (1 if objective == "tiles" else _tile_value(k, rules)) for k in kinds}
    model = _Model()
    # y[k]: rack tiles of kind k played
    y = {k: model.add_col(weight[k], rack.get(k, 0)) for k in kinds}
    # at least one rack tile; under the discard rule at most all but one (a tile stays to discard)
    most = len(position.rack) - 1.0 if rules.discard else _INF
    model.add_row(((y[k], 1.0) for k in kinds), 1.0, most)
    banned_moves = [(banned, False) for banned in exclude] + [(banned, True) for banned in exclude_contained]
    for banned, contained in banned_moves:  # y != banned: some kind played fewer times, or more
        wanted = Counter(banned)
        ways = []
        for k in kinds:
            have, value = rack.get(k, 0), wanted.get(k, 0)
            if value >= 1 and not contained:  # fewer: y[k] <= value - 1 when chosen
                fewer = model.add_col(0.0, 1.0)
                model.add_row([(y[k], 1.0), (fewer, float(have - value + 1))], -_INF, float(have))
                ways.append((fewer, 1.0))
            if value < have:  # more: y[k] >= value + 1 when chosen
                more = model.add_col(0.0, 1.0)
                model.add_row([(y[k], 1.0), (more, -float(value + 1))], 0.0, _INF)
                ways.append((more, 1.0))
        if not ways:
            return no_move  # every move plays a part of ``banned``
        model.add_row(ways, 1.0, _INF)

    def add_arrangement(pool: Counter[Tile], include_table: bool) -> dict[int, Candidate]:
        """Meld columns whose tiles make up (table if include_table) + played exactly."""
        cands = candidate_melds_of(rules, pool)
        cols: dict[int, Candidate] = {}
        per_kind: dict[Tile, list[tuple[int, float]]] = {k: [] for k in kinds}
        for cand in cands:
            upper = min(pool[t] // n for t, n in cand.counts)
            col = model.add_col(0.0, upper)
            cols[col] = cand
            for t, n in cand.counts:
                per_kind[t].append((col, float(n)))
        for k in kinds:
            fixed = table.get(k, 0) if include_table else 0
            model.add_row([*per_kind[k], (y[k], -1.0)], fixed, fixed)
        return cols

    opening: dict[int, Candidate] = {}
    if position.opened:
        final = add_arrangement(table + rack, include_table=True)
    else:
        allowed = rules.joker_in_initial_meld
        rack_pool = rack if allowed else Counter({t: n for t, n in rack.items() if not t.is_any_joker})
        for joker in () if allowed else [t for t in y if t.is_any_joker]:
            model.upper[y[joker]] = 0.0  # no rack joker at all on the opening turn
        if rules.open_then_manipulate:
            # opening melds o (from the rack, worth >= threshold) and a final arrangement of
            # table + all played tiles; the opening tiles are a part of the played ones.
            cands = candidate_melds_of(rules, rack_pool)
            per_kind: dict[Tile, list[tuple[int, float]]] = {k: [] for k in kinds}
            for cand in cands:
                col = model.add_col(0.0, min(rack_pool[t] // n for t, n in cand.counts))
                opening[col] = cand
                for t, n in cand.counts:
                    per_kind[t].append((col, float(n)))
            for k in kinds:
                model.add_row([*per_kind[k], (y[k], -1.0)], -_INF, 0.0)
            model.add_row(((c, float(cand.value)) for c, cand in opening.items()), rules.initial_threshold, _INF)
            model.add_row(((c, 1.0) for c in opening), 1.0, _INF)
            final = add_arrangement(table + rack, include_table=True)
        else:
            final = add_arrangement(rack_pool, include_table=False)
            model.add_row(((c, float(cand.value)) for c, cand in final.items()), rules.initial_threshold, _INF)

    result = model.solve()
    if result is None:
        return no_move
    best, values = result
    played = tuple(sorted(t for k in kinds for t in [k] * values[y[k]]))
    melds = tuple(cand.tiles for col, cand in final.items() for _ in range(values[col]))
    if not position.opened and not rules.open_then_manipulate:
        melds = old_table + melds
    return OracleAnswer(objective, int(round(best)), played, melds)


def optimum(position: Position, objective: str = "tiles") -> int | None:
    """Best number of rack tiles played (``tiles``) or points shed (``value``); ``None``: must draw."""
    return solve(position, objective).optimum


def optima(position: Position) -> dict[str, int | None]:
    """``{"tiles": ..., "value": ...}`` for ``position``."""
    return {objective: optimum(position, objective) for objective in OBJECTIVES}
