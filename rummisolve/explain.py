"""Explanations of a turn: how to get from the old table to the new one, in the fewest moves.

A tile *stays* when it is in an old meld and also in the new meld that continues that old meld;
every other tile of the new table *moves*, from the rack or from the old meld it was in, and is
one :class:`Step`. Which new meld continues which old meld (``meld_map``) is chosen so that the
steps are fewest: a maximum-weight assignment between old and new melds, weighted by the tiles
they share (copies of a tile are interchangeable), ties going to more melds that stay whole
(the same tiles before and after), then to more melds that keep their kind (run or group).

The steps come in an order a person can follow at the table: first jokers replaced by the tile
they stand for, then the new melds one by one, an old meld giving its tiles away before it is
extended (when melds trade tiles both ways, one sets its departing tiles aside first). Each
step's ``text`` is the sentence of the action it belongs to and names melds by their tiles as
they stand at that moment; the steps of one action (a new meld laid from the rack, a run split
in two, two tiles added to one end) share it.

>>> from rummisolve.position import Position
>>> p = Position.from_notation(["R3 R4 R5 R6", "K9 B9 O9 R9"], "R7 O7 O8", opened=True)
>>> e = explain(p, ["R3 R4 R5 R6 R7", "K9 B9 R9", "O7 O8 O9"])
>>> e.meld_map, e.moves
((0, 1), 4)
>>> print(e)
1. Add R7 from your rack to the end of R3 R4 R5 R6
2-4. Make a new run O7 O8 O9 with O9 from K9 B9 O9 R9 and O7 O8 from your rack
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter

from rummisolve.errors import IllegalTurnError, InternalError
from rummisolve.melds import Meld, MeldKind
from rummisolve.position import Position
from rummisolve.referee import verify
from rummisolve.rules import RuleSet
from rummisolve.solution import Solution
from rummisolve.tiles import Tile, format_tiles, parse_tiles, split_melds

__all__ = ["Step", "Explanation", "explain", "explain_solution", "numbered"]


@dataclass(frozen=True)
class Step:
    """One tile moving: ``tile`` from ``source`` (an old table meld's index; ``None`` is the rack)
    to ``target`` (a new table meld's index). ``text`` is the plain-English sentence of the action
    the step is part of (steps moved together share it)."""

    tile: Tile
    source: int | None
    target: int
    text: str


@dataclass(frozen=True)
class Explanation:
    """How a turn gets from the old table to the new one.

    ``meld_map`` has one entry per old table meld: the index of the new meld that continues it
    (keeps its tiles that do not move), or ``None`` when all its tiles move; no two old melds
    continue into the same new meld. ``steps`` has one :class:`Step` per tile that moves, in
    playing order; their number, ``moves``, is the fewest any meld map allows.
    """

    meld_map: tuple[int | None, ...]
    steps: tuple[Step, ...]

    @property
    def moves(self) -> int:
        """The number of tiles that move (``len(steps)``)."""
        return len(self.steps)

    def __str__(self) -> str:
        """The steps numbered from 1, one line per action (``2-4.`` for three steps moved together)."""
        return "\n".join(numbered([step.text for step in self.steps])) or "no tile moves"


def numbered(texts: Sequence[str]) -> list[str]:
    """Step texts as numbered lines, counting from 1; consecutive equal texts (one action) share a
    line numbered as a range, e.g. ``["a", "b", "b"]`` -> ``["1. a", "2-3. b"]``."""
    lines = []
    start = 0
    for end in range(1, len(texts) + 1):
        if end == len(texts) or texts[end] != texts[start]:
            label = str(start + 1) if end - start == 1 else f"{start + 1}-{end}"
            lines.append(f"{label}. {texts[start]}")
            start = end
    return lines


def explain(position: Position, new_table, *, max_steps: int | None = None) -> Explanation:
    """Explain the turn that turns ``position``'s table into ``new_table``.

    ``new_table`` is what :func:`rummisolve.referee.verify` takes (melds as :class:`Meld` objects,
    tile iterables, strings, or one ``"R1 R2 R3 | K7 B7 O7"`` string); the step targets index it in
    the order given. The turn is refereed first: an illegal one raises
    :class:`~rummisolve.errors.IllegalTurnError` listing the referee's reasons (its ``verdict``
    has them all). ``max_steps`` is passed on to the referee. A :class:`Solution` is explained by
    :func:`explain_solution`.
    """
    if not isinstance(position, Position):
        raise TypeError(f"position must be a Position, not {type(position).__name__}")
    table = _materialise(new_table)
    verdict = verify(position, table, max_steps=max_steps)
    if not verdict.legal:
        raise IllegalTurnError("illegal turn: " + "; ".join(str(r) for r in verdict.reasons), verdict)
    rules = position.rules
    new = tuple(_meld(meld, rules) for meld in (split_melds(table) if isinstance(table, str) else table))
    return _explain(position.table, new, verdict.played)


def explain_solution(solution: Solution) -> Explanation:
    """Explain a solver answer: its move, or, for a solution without one (``no_move``, ``unknown``),
    the table left as it is (each old meld continues into itself, no steps)."""
    if not isinstance(solution, Solution):
        raise TypeError(f"solution must be a Solution, not {type(solution).__name__}")
    if not solution:
        return Explanation(tuple(range(len(solution.position.table))), ())
    return explain(solution.position, solution.table)


def _materialise(new_table):
    """``new_table`` with its melds as lists, so that iterators survive being read twice."""
    if isinstance(new_table, str | Meld | Tile):
        return new_table  # a whole table as one string, or something verify() names as wrong
    try:
        items = list(new_table)
    except TypeError:
        return new_table  # verify() names the wrong type
    return [m if isinstance(m, str | Meld | Tile) or not isinstance(m, Iterable) else list(m) for m in items]


def _meld(meld, rules: RuleSet) -> Meld:
    if isinstance(meld, Meld):
        return Meld.of(meld.tiles, rules)
    return Meld.of(parse_tiles(meld), rules)


def _explain(old: Sequence[Meld], new: Sequence[Meld], played: Sequence[Tile]) -> Explanation:
    mapping = _meld_map(old, new)
    steps = _Plan(old, new, mapping, played).steps()
    return Explanation(tuple(mapping), steps)


# -- the meld map: a maximum-weight assignment ----------------------------------------------------

_KEY = attrgetter("_key")  # a tile's canonical sort key, read without the property call


def _counts(tiles: Iterable[Tile]) -> dict[Tile, int]:
    counts: dict[Tile, int] = {}
    for tile in tiles:
        counts[tile] = counts.get(tile, 0) + 1
    return counts


def _meld_map(old: Sequence[Meld], new: Sequence[Meld]) -> list[int | None]:
    """For each old meld, the new meld that continues it, or ``None``.

    Maximises the tiles that stay (for a pair, the multiset intersection of their tiles), then
    the melds that stay whole, then the pairs of the same kind. Whole melds are paired first:
    some best assignment always contains a given pair of equal melds (swapping their partners
    never lowers the tiles that stay), and pairing equal melds greedily pairs as many as can be.
    The rest splits into groups of melds linked by shared tiles, each solved exactly
    (:func:`_hungarian`)."""
    mapping: list[int | None] = [None] * len(old)
    free = [True] * len(new)
    by_tiles: dict[tuple, list[int]] = {}
    for j, meld in enumerate(new):
        by_tiles.setdefault(tuple(sorted(meld.tiles, key=_KEY)), []).append(j)
    rest = []
    for i, meld in enumerate(old):
        same = by_tiles.get(tuple(sorted(meld.tiles, key=_KEY)))
        if same:
            j = next((j for j in same if new[j].tiles == meld.tiles), same[0])  # the same order if any
            same.remove(j)
            mapping[i] = j
            free[j] = False
        else:
            rest.append(i)
    if not rest:
        return mapping

    holders: dict[Tile, list[int]] = {}
    new_counts: dict[int, dict[Tile, int]] = {}
    for j, meld in enumerate(new):
        if free[j]:
            counts = new_counts[j] = _counts(meld.tiles)
            for tile in counts:
                holders.setdefault(tile, []).append(j)
    shared: dict[int, dict[int, int]] = {}  # old i -> new j -> tiles they share
    for i in rest:
        row: dict[int, int] = {}
        for tile, n in _counts(old[i].tiles).items():
            for j in holders.get(tile, ()):
                row[j] = row.get(j, 0) + min(n, new_counts[j][tile])
        if row:
            shared[i] = row

    for rows, cols in _components(shared):
        for i, j in _assign(rows, cols, shared, old, new):
            mapping[i] = j
    return mapping


def _components(shared: dict[int, dict[int, int]]) -> list[tuple[list[int], list[int]]]:
    """The groups of old and new melds linked by shared tiles (each solved on its own)."""
    by_new: dict[int, list[int]] = {}
    for i, row in shared.items():
        for j in row:
            by_new.setdefault(j, []).append(i)
    seen: set[int] = set()
    groups = []
    for start in shared:
        if start in seen:
            continue
        seen.add(start)
        rows, cols, todo, cols_seen = [], [], [start], set()
        while todo:
            i = todo.pop()
            rows.append(i)
            for j in shared[i]:
                if j not in cols_seen:
                    cols_seen.add(j)
                    cols.append(j)
                    for other in by_new[j]:
                        if other not in seen:
                            seen.add(other)
                            todo.append(other)
        groups.append((sorted(rows), sorted(cols)))
    return groups


def _assign(rows: list[int], cols: list[int], shared, old, new) -> list[tuple[int, int]]:
    """The best pairs (old, new) of one group: most tiles staying, then most pairs of one kind."""
    bonus = min(len(rows), len(cols)) + 1  # more than all kind ties together: tiles come first

    def score(i: int, j: int) -> int:
        tiles = shared[i].get(j, 0)
        return tiles * bonus + (old[i].kind is new[j].kind) if tiles else 0

    if len(rows) == 1:
        i = rows[0]
        return [(i, max(cols, key=lambda j: (score(i, j), -j)))]
    if len(cols) == 1:
        j = cols[0]
        return [(max(rows, key=lambda i: (score(i, j), -i)), j)]
    if len(rows) <= len(cols):
        matrix = [[score(i, j) for j in cols] for i in rows]
        pairs = [(rows[r], cols[c]) for r, c in enumerate(_hungarian(matrix))]
    else:
        matrix = [[score(i, j) for i in rows] for j in cols]
        pairs = [(rows[r], cols[c]) for c, r in enumerate(_hungarian(matrix))]
    return [(i, j) for i, j in pairs if shared[i].get(j, 0)]


def _hungarian(score: list[list[int]]) -> list[int]:
    """For each row, its column in an assignment of the rows to distinct columns with the largest
    total score (rows <= columns). The Hungarian algorithm with potentials, O(rows^2 * columns)."""
    n, m = len(score), len(score[0])
    inf = 1 << 62
    u = [0] * (n + 1)
    v = [0] * (m + 1)
    owner = [0] * (m + 1)  # owner[j]: the row (from 1) assigned to column j (from 1); 0 for none
    way = [0] * (m + 1)
    for row in range(1, n + 1):
        owner[0] = row
        j0 = 0
        least = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = owner[j0]
            values = score[i0 - 1]
            ui = u[i0]
            delta, j1 = inf, 0
            for j in range(1, m + 1):
                if not used[j]:
                    cost = -values[j - 1] - ui - v[j]
                    if cost < least[j]:
                        least[j] = cost
                        way[j] = j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    result = [0] * n
    for j in range(1, m + 1):
        if owner[j]:
            result[owner[j] - 1] = j - 1
    return result


# -- the steps --------------------------------------------------------------------------------------


class _Entry:
    """A tile lying in a meld while the steps are carried out, with its slot in the new meld it
    ends up in (``None``: it has yet to move away)."""

    __slots__ = ("tile", "final")

    def __init__(self, tile: Tile, final: int | None) -> None:
        self.tile = tile
        self.final = final


class _Pile:
    """A meld on the table as it stands between two actions: its tiles in order."""

    __slots__ = ("entries",)

    def __init__(self, entries: list[_Entry]) -> None:
        self.entries = entries

    def show(self) -> str:
        return format_tiles(e.tile for e in self.entries)

    def index(self, entry: _Entry) -> int:
        return next(k for k, e in enumerate(self.entries) if e is entry)

    def remove(self, entry: _Entry) -> None:
        del self.entries[self.index(entry)]

    def insert(self, entry: _Entry) -> None:
        """Put ``entry`` after the tiles that come before it in the new meld (else first)."""
        at = 0
        for k, e in enumerate(self.entries):
            if e.final is not None and e.final < entry.final:
                at = k + 1
        self.entries.insert(at, entry)

    def neighbours(self, final: int) -> tuple[int | None, int | None]:
        """The new-meld slots of the tiles lying here just before and just after slot ``final``."""
        before = max((e.final for e in self.entries if e.final is not None and e.final < final), default=None)
        after = min((e.final for e in self.entries if e.final is not None and e.final > final), default=None)
        return before, after


class _Action:
    """One sentence of the explanation and the steps (tile, source, target) it covers."""

    __slots__ = ("text", "steps", "notes")

    def __init__(self, text: str, steps: list[tuple[Tile, int | None, int]], notes: list[str]) -> None:
        self.text = text
        self.steps = steps
        self.notes = notes

    def sentence(self) -> str:
        return f"{self.text} ({'; '.join(self.notes)})" if self.notes else self.text


_RACK = (2, 0)
_FREED = (1, 0)


class _Plan:
    """Lays out the steps for a meld map: which copy of each moving tile comes from where, the
    order of the actions, and their sentences."""

    def __init__(self, old: Sequence[Meld], new: Sequence[Meld], mapping: list[int | None], played) -> None:
        self.old, self.new, self.mapping = old, new, mapping
        self.continues = {j: i for i, j in enumerate(mapping) if j is not None}
        self.actions: list[_Action] = []
        self.freed: set[tuple[int, int]] = set()  # (old meld, slot) of jokers lifted out by a swap
        self.swapped_staying: set[tuple[int, int]] = set()  # ... and of those put back in their run
        self.held: dict[int, list[_Entry]] = {}  # run j -> its jokers swapped out, to put back
        self.aside: dict[int, _Pile] = {}  # old meld -> its tiles set aside, still to move on
        self.prefix = ""  # "Set ... aside, then ": said at the start of the next action
        self.piles: dict[int, _Pile] = {}  # new meld j -> the pile that becomes it, once there is one
        self.old_piles: list[_Pile] = []
        self.entries: list[list[_Entry]] = []  # per old meld, per slot
        filled: list[set[int]] = [set() for _ in new]
        for i, meld in enumerate(old):
            j = mapping[i]
            finals: list[int | None] = [None] * len(meld)
            if j is not None:
                _stay(meld, new[j], finals)
                filled[j].update(f for f in finals if f is not None)
            entries = [_Entry(t, f) for t, f in zip(meld.tiles, finals)]
            self.entries.append(entries)
            self.old_piles.append(_Pile(list(entries)))
            if j is not None:
                self.piles[j] = self.old_piles[i]
        # arrivals[j]: (new slot, tile, source) for each tile that moves into new meld j
        self.arrivals: list[list[tuple[int, Tile, tuple[int, int] | None]]] = [[] for _ in new]
        self._sources(filled, played)

    # -- where each moving copy comes from ------------------------------------------------------

    def _sources(self, filled: list[set[int]], played) -> None:
        supply: dict[Tile, list[tuple[int, int] | None]] = {}
        for i, entries in enumerate(self.entries):
            for s, e in enumerate(entries):
                if e.final is None:
                    supply.setdefault(e.tile, []).append((i, s))
        for tile in played:
            supply.setdefault(tile, []).append(None)
        wanted: dict[Tile, list[tuple[int, int]]] = {}
        for j, meld in enumerate(self.new):
            for ns, tile in enumerate(meld.tiles):
                if ns not in filled[j]:
                    wanted.setdefault(tile, []).append((j, ns))
        if {t: len(s) for t, s in supply.items()} != {t: len(w) for t, w in wanted.items()}:
            raise InternalError("explain: the tiles that move do not match the tiles that arrive")
        kinds_into: dict[int, set[Tile]] | None = None
        for tile, targets in wanted.items():
            sources = supply[tile]
            if len(targets) == 1:
                pairs = [(sources[0], targets[0])]
            else:
                # Copies are interchangeable: send each to where its meld's other tiles go, if they do.
                if kinds_into is None:
                    kinds_into = {}
                    for t, ts in wanted.items():
                        for j, _ in ts:
                            kinds_into.setdefault(j, set()).add(t)
                pairs = _pair_copies(sources, targets, self.entries, kinds_into)
            for source, (j, ns) in pairs:
                self.arrivals[j].append((ns, tile, source))
        for arrivals in self.arrivals:
            arrivals.sort(key=lambda a: a[0])

    # -- the actions ------------------------------------------------------------------------------

    def steps(self) -> tuple[Step, ...]:
        self._swaps()
        for j in self._build_order():
            if j in self.continues:
                self._set_aside(self.continues[j])
            if j in self.piles:
                self._add(j, self.piles[j], self.arrivals[j])
            else:
                self._fresh(j, self.arrivals[j])
            if j in self.held:
                self._put_back(j)
        self._joker_notes()
        steps = []
        last = None
        for action in self.actions:
            text = action.sentence()
            if text == last:  # the same action twice in a row (e.g. two equal new melds)
                text += " again"
            last = text
            steps.extend(Step(tile, source, target, text) for tile, source, target in action.steps)
        if len(steps) != sum(len(m) for m in self.new) - sum(
            1 for entries in self.entries for e in entries if e.final is not None
        ):
            raise InternalError("explain: the steps do not account for every tile that moves")
        return tuple(steps)

    def _swaps(self) -> None:
        """A tile arriving in a meld in place of a joker that it stood for: "Replace the joker"."""
        for j in sorted(self.continues):
            i = self.continues[j]
            old, new = self.old[i], self.new[j]
            jokers = [s for s, t in enumerate(old.tiles) if t.is_joker]
            if not jokers:
                continue
            pile = self.piles[j]
            for arrival in list(self.arrivals[j]):
                ns, tile, source = arrival
                if tile.is_joker:
                    continue
                for s in jokers:
                    joker = self.entries[i][s]
                    if (i, s) in self.freed or not any(e is joker for e in pile.entries):
                        continue
                    if tile not in _stands_for(old, s):
                        continue
                    moves_on = joker.final is None
                    if not moves_on and not (new.kind is MeldKind.RUN and new.represents[joker.final] != tile):
                        continue  # a group keeps its joker beside the new colour: no swap
                    before = pile.show()
                    where = "your rack" if source is None else self.old_piles[source[0]].show()
                    if source is not None:
                        self._source(source[0]).remove(self.entries[source[0]][source[1]])
                    pile.entries[pile.index(joker)] = _Entry(tile, ns)
                    text = f"Replace the joker in {before} with {tile} from {where}"
                    if moves_on:
                        self.freed.add((i, s))
                    else:  # a run's joker that stays but moves along it: back once the run is complete
                        self.swapped_staying.add((i, s))
                        self.held.setdefault(j, []).append(joker)
                    self.actions.append(_Action(text, [(tile, None if source is None else source[0], j)], []))
                    self.arrivals[j].remove(arrival)
                    break
        for j in [j for j in self.held if not self.arrivals[j]]:
            self._put_back(j)

    def _act(self, text: str, steps: list, notes: list[str]) -> None:
        if self.prefix:
            text, self.prefix = self.prefix + text[0].lower() + text[1:], ""
        self.actions.append(_Action(text, steps, notes))

    def _set_aside(self, i: int) -> None:
        """Melds trading tiles both ways (a cycle): old meld ``i`` is extended while it still holds
        tiles that move on; they are set aside first, and taken from there later."""
        pile = self.old_piles[i]
        leaving = [e for e in pile.entries if e.final is None]
        if not leaving:
            return
        before = pile.show()
        for e in leaving:
            pile.remove(e)
        self.aside[i] = _Pile(leaving)
        self.prefix = f"Set {format_tiles(e.tile for e in leaving)} aside from {before}, then "

    def _source(self, k: int) -> _Pile:
        """Where old meld ``k``'s tiles that move on lie now: in it, or set aside."""
        return self.aside.get(k) or self.old_piles[k]

    def _name(self, k: int, taking: int) -> str:
        """Old meld ``k`` as it stands, to take ``taking`` tiles from."""
        aside = self.aside.get(k)
        if aside:
            return f"the tiles set aside ({aside.show()})"
        pile = self.old_piles[k]
        if len(pile.entries) == taking < len(self.old[k]):  # its last tiles
            return f"{pile.show()} (what is left of {self.old[k]})"
        return pile.show()

    def _put_back(self, j: int) -> None:
        """Put the jokers swapped out of run ``j`` but staying in it back, said on the last action into it."""
        pile = self.piles[j]
        jokers = self.held.pop(j)
        for joker in jokers:
            pile.insert(joker)
        action = next(a for a in reversed(self.actions) if any(t == j for _, _, t in a.steps))
        action.text += f", then put the joker{'s' if len(jokers) > 1 else ''} back: {pile.show()}"
        the = "the joker" if len(jokers) == 1 else "a joker"
        action.notes.extend(f"{the} now stands for {_meaning(self.new[j], joker.final)}" for joker in jokers)

    def _build_order(self) -> list[int]:
        """The new melds that receive tiles, in the order to build them: a meld that continues an
        old one after the melds that old one gives tiles to (so it gives them away before it is
        extended), by table order otherwise; a cycle is broken at the meld with the fewest tiles
        still to give away."""
        pending = [j for j, arrivals in enumerate(self.arrivals) if arrivals]
        waiting = set(pending)
        blocks: dict[int, set[int]] = {j: set() for j in pending}  # j -> melds to build after it
        blocked_by = dict.fromkeys(pending, 0)
        for j in pending:
            for _, _, source in self.arrivals[j]:
                if source is None or source in self.freed:
                    continue
                later = self.mapping[source[0]]
                if later is not None and later != j and later in waiting and later not in blocks[j]:
                    blocks[j].add(later)
                    blocked_by[later] += 1
        ready = [j for j in pending if not blocked_by[j]]
        heapq.heapify(ready)
        order = []
        while waiting:
            if not ready:  # a cycle: melds trading tiles both ways; the one with the fewest to give away
                first = min(waiting, key=lambda j: (self._leaving(j), j))
                ready = [first]
                blocked_by[first] = 0
            j = heapq.heappop(ready)
            if j not in waiting:
                continue
            waiting.discard(j)
            order.append(j)
            for later in blocks[j]:
                if later in waiting:
                    blocked_by[later] -= 1
                    if blocked_by[later] == 0:
                        heapq.heappush(ready, later)
        return order

    def _leaving(self, j: int) -> int:
        """How many tiles the old meld continuing into ``j`` still holds that move on."""
        return sum(1 for e in self.piles[j].entries if e.final is None)

    def _groups(self, arrivals) -> list[tuple[tuple[int, int], list]]:
        """Arrivals by source, in order: old melds by index, then jokers lifted out, then the rack."""
        groups: dict[tuple[int, int], list] = {}
        for arrival in arrivals:
            groups.setdefault(self._key(arrival[2]), []).append(arrival)
        return sorted(groups.items())

    def _key(self, source: tuple[int, int] | None) -> tuple[int, int]:
        if source is None:
            return _RACK
        return _FREED if source in self.freed else (0, source[0])

    def _take(self, arrivals) -> None:
        """Lift the arrivals' tiles out of the old melds they come from."""
        for _, _, source in arrivals:
            if source is not None and source not in self.freed:
                self._source(source[0]).remove(self.entries[source[0]][source[1]])

    def _steps_of(self, j: int, arrivals) -> list[tuple[Tile, int | None, int]]:
        return [(tile, None if source is None else source[0], j) for _, tile, source in arrivals]

    def _fresh(self, j: int, arrivals) -> None:
        """A new meld that continues no old one: split off an old meld's end, or made outright."""
        new = self.new[j]
        groups = self._groups(arrivals)
        split = self._split(j, groups)
        if split is not None:
            key, part = split
            k = key[1]
            source = self.old_piles[k]
            before = source.show()
            moving = [e for e in source.entries if any(self.entries[k][a[2][1]] is e for a in part)]
            first = source.entries[0] is moving[0]
            for e in moving:
                source.remove(e)
            finals = {self.entries[k][a[2][1]]: a[0] for a in part}
            pile = self.piles[j] = _Pile([_Entry(e.tile, finals[e]) for e in moving])
            halves = (pile.show(), source.show()) if first else (source.show(), pile.show())
            order = sorted(part, key=lambda a: a[0])
            self._act(
                f"Split {before} into {halves[0]} and {halves[1]}",
                self._steps_of(j, order),
                self._joker_moves(j, order),
            )
            self._add(j, pile, [a for a in arrivals if a not in part])
            return
        kind = "run" if new.kind is MeldKind.RUN else "group"
        parts = []
        for key, group in groups:
            tiles = format_tiles(a[1] for a in group)
            if key == _RACK:
                parts.append(f"{tiles} from your rack")
            elif key == _FREED:
                parts.append("the joker you freed" if len(group) == 1 else f"the {len(group)} jokers you freed")
            else:
                parts.append(f"{tiles} from {self._name(key[1], len(group))}")
        if len(groups) == 1 and groups[0][0] == _RACK:
            text = f"Make a new {kind} {new} from your rack"
        else:
            text = f"Make a new {kind} {new} with {_and(parts)}"
        ordered = [a for _, group in groups for a in group]
        self._take(ordered)
        self.piles[j] = _Pile([_Entry(t, ns) for ns, t in enumerate(new.tiles)])
        self._act(text, self._steps_of(j, ordered), self._joker_moves(j, ordered))

    def _split(self, j: int, groups) -> tuple[tuple[int, int], list] | None:
        """The largest group of two or more tiles from one old meld that is one end of it as it
        stands (any part, for a group) and lies together, in the same order, in new meld ``j``."""
        best = None
        into_run = self.new[j].kind is MeldKind.RUN
        for key, group in groups:
            if key[0] != 0 or len(group) < 2 or (best is not None and len(group) <= len(best[1])):
                continue
            if key[1] in self.aside:
                continue  # tiles set aside are taken, not split off
            k = key[1]
            pile = self.old_piles[k]
            at = sorted((pile.index(self.entries[k][a[2][1]]), a[0]) for a in group)
            if len(at) == len(pile.entries):
                continue  # the whole meld moves: not a split
            places = [p for p, _ in at]
            slots = [f for _, f in at]
            if self.old[k].kind is MeldKind.RUN and not (
                places == list(range(places[0], places[0] + len(places)))
                and (places[0] == 0 or places[-1] == len(pile.entries) - 1)
            ):
                continue  # not one end of the run
            if into_run and slots != list(range(slots[0], slots[0] + len(slots))):
                continue  # not together, in this order, in the new run
            best = (key, group)
        return best

    def _add(self, j: int, pile: _Pile, arrivals) -> None:
        """Tiles added to a meld that is already on the table, source by source and end by end."""
        new = self.new[j]
        if new.kind is MeldKind.RUN:
            # Along the run: the gaps first, then outwards from the tiles lying there, one end at
            # a time, so that each tile goes next to one already in place.
            finals = [e.final for e in pile.entries if e.final is not None]
            low, high = min(finals), max(finals)
            inside = [a for a in arrivals if low < a[0] < high]
            below = sorted((a for a in arrivals if a[0] < low), key=lambda a: -a[0])
            above = [a for a in arrivals if a[0] > high]
            sources = self._groups(inside)
            for side in (below, above):
                start = len(sources)
                for arrival in side:
                    key = self._key(arrival[2])
                    if len(sources) > start and sources[-1][0] == key:
                        sources[-1][1].append(arrival)
                    else:
                        sources.append((key, [arrival]))
        else:
            sources = self._groups(arrivals)
        for key, group in sources:
            group = sorted(group, key=lambda a: a[0])
            if new.kind is MeldKind.RUN:
                batches: list[tuple[tuple[int | None, int | None], list]] = []
                for arrival in group:
                    place = pile.neighbours(arrival[0])
                    if batches and batches[-1][0] == place:
                        batches[-1][1].append(arrival)
                    else:
                        batches.append((place, [arrival]))
            else:
                batches = [((None, None), group)]
            for (before, after), batch in batches:
                shown = pile.show()
                if new.kind is not MeldKind.RUN or (before is None and after is None):
                    where = shown
                elif before is None:
                    where = f"the start of {shown}"
                elif after is None:
                    where = f"the end of {shown}"
                else:
                    where = f"{shown}, between {new.tiles[before]} and {new.tiles[after]}"
                tiles = format_tiles(a[1] for a in batch)
                if key == _RACK:
                    text = f"Add {tiles} from your rack to {where}"
                elif key == _FREED:
                    text = f"Add {'the joker' if len(batch) == 1 else 'the jokers'} you freed to {where}"
                else:
                    it = "it" if len(batch) == 1 else "them"
                    text = f"Take {tiles} from {self._name(key[1], len(batch))} and add {it} to {where}"
                self._take(batch)
                for ns, tile, _ in batch:
                    pile.insert(_Entry(tile, ns))
                self._act(text, self._steps_of(j, batch), self._joker_moves(j, batch))

    def _joker_moves(self, j: int, arrivals) -> list[str]:
        """What each joker among ``arrivals`` stood for before (on the table) and stands for now."""
        phrases = []
        new = self.new[j]
        jokers = [a for a in arrivals if a[1].is_joker]
        the = "the joker" if len(jokers) == 1 else "a joker"
        for ns, _, source in jokers:
            now = _meaning(new, ns)
            if source is None:
                phrases.append(f"{the} stands for {now}")
            else:
                was = _meaning(self.old[source[0]], source[1])
                phrases.append(
                    f"{the} still stands for {now}" if was == now else f"{the} stood for {was} and now stands for {now}"
                )
        return phrases

    def _joker_notes(self) -> None:
        """A joker that stays in its meld but stands for another tile now: said on the last action
        that changed that meld."""
        for i, meld in enumerate(self.old):
            j = self.mapping[i]
            if j is None:
                continue
            for s, entry in enumerate(self.entries[i]):
                if not entry.tile.is_joker or entry.final is None or (i, s) in self.swapped_staying:
                    continue
                was, now = _meaning(meld, s), _meaning(self.new[j], entry.final)
                if was == now:
                    continue
                into = [a for a in self.actions if any(t == j for _, _, t in a.steps)]
                if into:
                    into[-1].notes.append(f"the joker now stands for {now}")
                    continue
                away = [a for a in self.actions if any(src == i for _, src, _ in a.steps)]
                if away:
                    away[-1].notes.append(f"the joker in {self.new[j]} now stands for {now}")


def _pair_copies(sources, targets, entries, kinds_into) -> list:
    """Pair the copies of one tile kind (sources: (old meld, slot) or ``None`` for the rack) with
    the slots they fill, preferring an old meld whose other moving tiles go to the same new meld."""

    def affinity(source, target) -> int:
        if source is None:
            return 0
        kinds = kinds_into.get(target[0], ())
        return sum(1 for e in entries[source[0]] if e.final is None and e.tile in kinds)

    options = sorted(
        (-affinity(source, target), a, b) for a, source in enumerate(sources) for b, target in enumerate(targets)
    )
    used_a, used_b, pairs = set(), set(), []
    for _, a, b in options:
        if a not in used_a and b not in used_b:
            used_a.add(a)
            used_b.add(b)
            pairs.append((sources[a], targets[b]))
    return pairs


def _stay(old: Meld, new: Meld, finals: list[int | None]) -> None:
    """Fill ``finals`` (per old slot) with the new slot of each tile that stays from ``old`` in
    ``new``: each real tile they share, and as many jokers as both hold, a joker going first to a
    slot where it stands for the same tile as before."""
    slots: dict[Tile, list[int]] = {}
    new_jokers = []
    for ns, tile in enumerate(new.tiles):
        if tile.is_joker:
            new_jokers.append(ns)
        else:
            slots.setdefault(tile, []).append(ns)
    old_jokers = []
    for s, tile in enumerate(old.tiles):
        if tile.is_joker:
            old_jokers.append(s)
        else:
            free = slots.get(tile)
            if free:
                finals[s] = free.pop(0)
    for s in old_jokers:
        for k, ns in enumerate(new_jokers):
            if new.represents[ns] == old.represents[s]:
                finals[s] = ns
                del new_jokers[k]
                break
    for s in old_jokers:
        if finals[s] is None and new_jokers:
            finals[s] = new_jokers.pop(0)


def _stands_for(meld: Meld, slot: int) -> tuple[Tile, ...]:
    """The tiles the joker in ``slot`` may stand for: its run slot's tile, or a group's missing colours."""
    if meld.kind is MeldKind.RUN:
        return (meld.represents[slot],)
    number = meld.represents[slot].number
    present = {t.colour for t in meld.tiles if not t.is_joker}
    return tuple(Tile(c, number) for c in meld.rules.colour_list if c not in present)


def _meaning(meld: Meld, slot: int) -> str:
    """What the joker in ``slot`` stands for, in words: ``R5``, ``O7 or R7``, ``any missing 7``."""
    options = _stands_for(meld, slot)
    if len(options) > 3:
        return f"any missing {options[0].number}"
    return _or([str(t) for t in options])


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
