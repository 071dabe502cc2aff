"""The initial meld (a not-opened player's turn; the rules are in :mod:`rummisolve.referee`'s
docstring, "The initial meld"): unchanged melds paired, the official rule (rack tiles only, the
table untouched) and ``open_then_manipulate`` (can the played tiles form melds worth the
threshold: a search over packings of them into melds). Part of the referee; independent of the
solver."""

from __future__ import annotations

from rummisolve.errors import RefereeLimitError
from rummisolve.melds import Meld, MeldKind
from rummisolve.position import Position
from rummisolve.referee._budget import Budget
from rummisolve.referee._keys import ALL_JOKER_KEYS, Key, count
from rummisolve.referee._new_table import NewMeld
from rummisolve.referee._rules_context import context
from rummisolve.referee._special_melds import SpecialMelds
from rummisolve.referee._verdict import Reason, names, plural
from rummisolve.rules import RuleSet
from rummisolve.tiles import format_tiles


def check_opening(
    position: Position,
    table: list[NewMeld],
    old_counts: dict[Key, int],
    rack_counts: dict[Key, int],
    played_counts: dict[Key, int],
    reasons: list[Reason],
    budget: Budget,
) -> None:
    """Append the reasons the turn is not a legal initial meld (``position.opened`` is false)."""
    rules = position.rules
    new_melds, unpaired_old = _pair_unchanged(position, table)
    if not rules.open_then_manipulate:
        _check_official(position, table, new_melds, unpaired_old, old_counts, rack_counts, reasons)
    else:
        _check_then_manipulate(rules, table, unpaired_old, played_counts, reasons, budget)
    jokers = sum(played_counts.get(key, 0) for key in ALL_JOKER_KEYS)
    if jokers and not rules.joker_in_initial_meld:
        reasons.append(
            Reason(
                "joker_in_opening",
                f"{plural(jokers, 'joker')} from the rack played on the opening turn; "
                "these rules forbid jokers in the initial meld",
            )
        )


def _meld_key(meld: Meld) -> tuple[bool, tuple[Key, ...]]:
    """Identity of a meld for "unchanged": a run's tile sequence, a group's tile multiset."""
    keys = tuple([t.sort_key for t in meld.tiles])
    if meld.kind is not MeldKind.GROUP:  # a run or a mirror meld: the sequence
        return (True, keys)
    return (False, tuple(sorted(keys)))


def _pair_unchanged(position: Position, table: list[NewMeld]) -> tuple[list[int], list[int]]:
    """Pair old melds with unchanged copies on the new table: the indexes of the new melds (new
    table melds left unpaired) and of the old melds left unpaired."""
    available: dict[tuple, list[int]] = {}
    for i in range(len(table) - 1, -1, -1):
        meld = table[i].meld
        if meld is not None:
            available.setdefault(_meld_key(meld), []).append(i)
    paired: set[int] = set()
    unpaired_old: list[int] = []
    for oi, old in enumerate(position.table):
        lst = available.get(_meld_key(old))
        if lst:
            paired.add(lst.pop())
        else:
            unpaired_old.append(oi)
    return [i for i in range(len(table)) if i not in paired], unpaired_old


def _check_official(
    position: Position,
    table: list[NewMeld],
    new_melds: list[int],
    unpaired_old: list[int],
    old_counts: dict[Key, int],
    rack_counts: dict[Key, int],
    reasons: list[Reason],
) -> None:
    """The official rule: the old melds kept unchanged, the new melds of rack tiles only and worth
    the threshold together."""
    for oi in unpaired_old:
        reasons.append(
            Reason(
                "opening_touched_table",
                f"position.table[{oi}] ({position.table[oi]}) was changed, split or removed; "
                "an initial meld may not touch the table's melds",
            )
        )
    rack_left = dict(rack_counts)
    for i in new_melds:
        borrowed = []
        for t, k in zip(table[i].tiles, table[i].keys):
            if rack_left.get(k, 0) > 0:
                rack_left[k] -= 1
            elif old_counts.get(k, 0) > 0:
                borrowed.append(t)
        if borrowed:
            reasons.append(
                Reason(
                    "opening_touched_table",
                    f"table[{i}] ({format_tiles(table[i].tiles)}) uses table tile(s) {names(borrowed)}; "
                    "an initial meld must be made of rack tiles only",
                    i,
                )
            )
    threshold = position.rules.initial_threshold
    if new_melds:
        valid = [placed for i in new_melds if (placed := table[i].meld) is not None]
        value = sum(meld.value for meld in valid)
        if value < threshold:
            reasons.append(
                Reason("opening_below_threshold", _below_threshold(value, len(valid), len(new_melds), threshold))
            )


def _below_threshold(value: int, valid: int, new: int, threshold: int) -> str:
    """Why an initial meld falls short: it is no meld at all, or what its valid melds are worth."""
    if not valid:
        return (
            f"the initial meld is not valid: {'its meld is not' if new == 1 else 'none of its melds is'} a valid meld"
        )
    note = " (its melds that are not valid count nothing)" if valid < new else ""
    return f"the initial meld is worth {value} points{note}, less than the {threshold} required"


def _check_then_manipulate(
    rules: RuleSet,
    table: list[NewMeld],
    unpaired_old: list[int],
    played_counts: dict[Key, int],
    reasons: list[Reason],
    budget: Budget,
) -> None:
    """``open_then_manipulate``: some of the played tiles form melds worth the threshold."""
    threshold = rules.initial_threshold
    best = _best_opening(table, played_counts, threshold, budget)
    if best is None or best < threshold:
        best = _initial_meld_value(played_counts, rules, threshold, best, budget)
    if best is None and unpaired_old:
        reasons.append(
            Reason(
                "opening_touched_table",
                "the table's melds were rearranged without an initial meld (the played rack tiles form no valid meld)",
            )
        )
    if played_counts and (best or 0) < threshold:
        detail = (
            f"the played rack tiles can form an initial meld worth at most {best} points, less than the {threshold} required"
            if best is not None
            else "the initial meld is not valid: the played rack tiles form no valid meld"
        )
        reasons.append(Reason("opening_below_threshold", detail))


def _best_opening(table: list[NewMeld], played_counts: dict[Key, int], threshold: int, budget: Budget) -> int | None:
    """The value of the most valuable non-empty set of valid new-table melds made of played rack
    tiles only (stopping early once ``threshold`` is reached); ``None`` if there is none."""
    candidates = []
    for new in table:
        if new.meld is None:
            continue
        need = count(new.keys)
        if all(played_counts.get(k, 0) >= n for k, n in need.items()):
            candidates.append((new.meld.value, need))
    if not candidates:
        return None
    candidates.sort(key=lambda c: -c[0])
    suffix = [0] * (len(candidates) + 1)
    for k in range(len(candidates) - 1, -1, -1):
        suffix[k] = suffix[k + 1] + candidates[k][0]
    left = dict(played_counts)
    best = candidates[0][0]

    def search(k: int, value: int) -> None:
        nonlocal best
        budget.spend()
        if value > best:
            best = value
        if k == len(candidates) or best >= threshold or value + suffix[k] <= best:
            return
        gain, need = candidates[k]
        if all(left.get(t, 0) >= n for t, n in need.items()):
            for t, n in need.items():
                left[t] -= n
            search(k + 1, value + gain)
            for t, n in need.items():
                left[t] += n
        search(k + 1, value)

    search(0, 0)
    return best


def _initial_meld_value(
    played_counts: dict, rules: RuleSet, threshold: int, seen: int | None, budget: Budget
) -> int | None:
    """The value of the most valuable initial meld the played tiles can form, capped at
    ``threshold``; ``None`` if they form no valid meld. ``seen``: the best found among the new
    table's melds (a packing, so a lower bound).

    Whether the threshold is reached is decided exactly (:meth:`Packing.reaches`). Below it the
    exact value only words the message: a bisection with the same search finds it within
    :data:`_MESSAGE_STEPS` steps, else the message gives the tightest bound found (still a true
    "at most")."""
    packing = Packing(played_counts, rules, budget)
    if packing.reaches(max(threshold, 1)):
        return threshold
    if threshold <= 1 or not packing.reaches(1):
        return None
    low, high = seen or 1, min(packing.upper(), threshold - 1)  # the value lies in [low, high]
    packing.budget = Budget(_MESSAGE_STEPS)  # the verdict is settled: only the message waits
    try:
        while low < high:
            middle = (low + high + 1) // 2
            if packing.reaches(middle):
                low = middle
            else:
                high = middle - 1
    except RefereeLimitError:
        pass
    return high


_MESSAGE_STEPS = 20_000


class Packing:
    """Packings of the played tiles into valid melds (a joker worth the tile it stands for; Twist's
    ``JD`` its two numbers, ``JC`` its slot's, ``JM`` 0).

    Each meld of a packing holds a real tile; the search takes the lowest remaining real tile
    (:func:`_number_first`) and either puts it in a meld (every other slot filled by a real tile
    or, in every possible way, by a joker; or any meld with special jokers holding it,
    :class:`~rummisolve.referee._special_melds.SpecialMelds`) or leaves one copy of it out. A
    state is the tiles left: a tuple of counts by kind, then ``J``, ``JD``, ``JC``, ``JM``."""

    def __init__(self, played_counts: dict, rules: RuleSet, budget: Budget) -> None:
        self.budget = budget
        self.ctx = context(rules)
        self.kinds = sorted((k for k in played_counts if k not in ALL_JOKER_KEYS), key=_number_first)
        self.index = {k: i for i, k in enumerate(self.kinds)}
        self.joker = len(self.kinds)
        jokers = tuple(played_counts.get(key, 0) for key in ALL_JOKER_KEYS)  # J JD JC JM
        self.start = tuple(played_counts[k] for k in self.kinds) + jokers
        top = self.top = rules.numbers
        self.values = [k[1] for k in self.kinds] + [top, 2 * top, top, 0]
        """Each kind's most a packing can make of one copy (a number its number)."""
        self.special = None
        if any(jokers[1:]):
            self.special = SpecialMelds(
                rules, self.index, self.joker, lambda slots, counts: _fill(slots, counts, self.index, self.joker, top)
            )
        self.failed: dict[tuple, int] = {}
        """State -> the smallest value it is known not to reach (kept across calls)."""

    def upper(self) -> int:
        """Every played tile in some meld, a joker worth the top number (a ``JD`` twice that, a
        ``JC`` once, a ``JM`` nothing): no packing is worth more."""
        return sum(v * n for v, n in zip(self.values, self.start))

    def reaches(self, need: int) -> bool:
        """Whether the played tiles can form melds worth ``need`` or more. Exact; a branch is cut
        once even every tile it has left in a meld could not reach ``need`` (each tile left out
        and each joker standing below the top number lowers that bound), so a threshold near the
        played tiles' worth is settled quickly too."""
        return need <= 0 or self._reaches(self.start, need, self.upper() - need)

    def _reaches(self, state: tuple, need: int, slack: int) -> bool:
        """``slack``: the bound for ``state`` minus ``need``, kept up to date without summing."""
        if slack < 0:
            return False
        self.budget.spend()
        known = self.failed.get(state)
        if known is not None and need >= known:
            return False
        i = next((i for i in range(self.joker) if state[i]), None)
        if i is None:
            return False
        counts = list(state)
        counts[i] -= 1
        for others, value in self.ctx.shapes(self.kinds[i]):
            for after, waste in _fill(others, counts, self.index, self.joker, self.top).items():
                if need <= value or self._reaches(after, need - value, slack - waste):
                    return True
        if self.special is not None:
            for after, value, waste in self.special.holding(self.kinds[i], counts):
                if need <= value or self._reaches(after, need - value, slack - waste):
                    return True
        if self._reaches(tuple(counts), need, slack - self.values[i]):
            return True
        self.failed[state] = need if known is None else min(known, need)
        return False


def _number_first(key: tuple) -> tuple:
    """Tiles by number, then colour: the search then takes the lowest number first, so the tiles
    a meld removes lie within a few numbers ahead and the states stay few (colour first, a group
    could remove any tiles of the later colours: exponentially many states)."""
    return key[1], key[0]


def _fill(others: tuple, counts: list, index: dict, joker: int, top: int) -> dict[tuple, int]:
    """Every way to fill the slots ``others`` from ``counts`` (real tiles or jokers): the states
    after, each with its least *waste* (``top`` minus the number, over the slots jokers fill)."""
    states = [(counts, 0)]
    for key in others:
        nxt = []
        i = index.get(key)
        for c, waste in states:
            if i is not None and c[i]:
                d = c.copy()
                d[i] -= 1
                nxt.append((d, waste))
            if c[joker]:
                d = c.copy()
                d[joker] -= 1
                nxt.append((d, waste + top - key[1]))
        states = nxt
        if not states:
            return {}
    after: dict[tuple, int] = {}
    for c, waste in states:
        state = tuple(c)
        if waste < after.get(state, waste + 1):
            after[state] = waste
    return after
