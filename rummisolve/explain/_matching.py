"""The meld map of an explanation: which new meld continues which old one, so that the fewest
tiles move (a maximum-weight assignment, solved exactly)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter

from rummisolve.melds import Meld
from rummisolve.tiles import Tile

__all__ = ["meld_map"]

_KEY = attrgetter("sort_key")  # a tile's canonical sort key (a plain slot)


def _counts(tiles: Iterable[Tile]) -> dict[Tile, int]:
    counts: dict[Tile, int] = {}
    for tile in tiles:
        counts[tile] = counts.get(tile, 0) + 1
    return counts


def meld_map(old: Sequence[Meld], new: Sequence[Meld]) -> list[int | None]:
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


def _assign(
    rows: list[int], cols: list[int], shared: dict[int, dict[int, int]], old: Sequence[Meld], new: Sequence[Meld]
) -> list[tuple[int, int]]:
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
