"""The referee's strict-joker question as a search that stays small: can the old table's jokers
be matched to the new table's so that each is kept or legally freed?

Part of the referee (:mod:`rummisolve.referee`, whose docstring states the rule); independent of
the solver. Tiles are opaque hashable keys here.

The question: every old joker (a set of tiles it may stand for) is matched to a distinct new
joker slot (at most ``deficit`` old jokers may go unmatched) and is either

- *kept*: the slot may stand for one of the same tiles (or its meld is invalid, which the
  referee rejects on its own) and, when the jokers' *origins* are given, the slot's meld holds a
  *witness*: one of the real tiles of the joker's old meld (its origin). Counted as copies: a
  real tile of a new meld is the witness of one origin only (it is one physical tile), each tile
  of an origin is the witness in one new meld only (the origin holds one copy of it), and a
  witness is not also one of a freed joker's two played tiles (it came from the table); or
- *freed*: one played rack tile it stood for is spent as its replacement, and the slot's meld
  must then hold two more played rack tiles (an unmatched joker slot in that meld, a played
  rack joker, counts as one), each played copy counted once over all such melds.

A plain search over matchings grows with the factorial of the jokers (eleven take seconds). This
one works on the numbers that matter: slots are grouped into classes (same meld, same tiles
stood for), and a search state is how many slots of each class are taken, the replacement
tiles left and the melds that host freed jokers, each state visited once. Two shortcuts settle
most turns at once: if every old joker can be kept (a bipartite matching), the answer is yes;
if no joker can be freed, it is whatever that matching says. Whether the freed jokers' melds
can each get their two tiles is a small transport problem (augmenting paths).

With origins, the first shortcut only holds when witnesses cannot compete (each origin has one
joker and no two origins share a tile); the matching that ignores competition is still a
necessary condition, so the second one holds as before. The search takes the jokers origin by
origin; a meld's state also records the witnesses it has given and whether it hosts a kept joker
of the current origin, and when an origin's last joker is placed the search chooses, in every
way, a distinct witness of that origin for each meld hosting its kept jokers.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import cast

__all__ = ["JokerMatching"]

Key = Hashable


class JokerMatching:
    """The new table's joker slots and played tiles, against which sets of old jokers are checked.

    ``slots``: one ``(meld, stands)`` per new-table joker: the index of its meld and the tiles it
    may stand for there (``None`` in an invalid meld). ``meld_tiles``: per meld index, its real
    tiles (keys, with repeats). ``played``: played rack tiles by key (jokers excluded).
    ``origin_tiles``: per old meld (any hashable id), its real tiles (one copy of each), for
    :meth:`possible`'s ``origins``."""

    def __init__(
        self,
        slots: Sequence[tuple[int, frozenset | None]],
        meld_tiles: Mapping[int, Sequence[Key]],
        played: Mapping[Key, int],
        origin_tiles: Mapping[Hashable, frozenset] | None = None,
    ) -> None:
        self._origin_tiles = dict(origin_tiles or {})
        classes: dict[tuple, int] = {}
        self._class_meld: list[int | None] = []
        self._class_stands: list[frozenset | None] = []
        self._class_size: list[int] = []
        self._slots_in_meld: dict[int, int] = {}
        for meld, stands in slots:
            # Every slot of an invalid meld is one class: a joker may always stay there, and
            # freeing a joker into it would only cost tiles, so its meld never matters.
            key = (None, None) if stands is None else (meld, stands)
            c = classes.get(key)
            if c is None:
                c = classes[key] = len(self._class_size)
                self._class_meld.append(key[0])
                self._class_stands.append(key[1])
                self._class_size.append(0)
            self._class_size[c] += 1
            self._slots_in_meld[meld] = self._slots_in_meld.get(meld, 0) + 1
        self._classes_of_meld: dict[int, list[int]] = {}
        for c, owner in enumerate(self._class_meld):
            if owner is not None:
                self._classes_of_meld.setdefault(owner, []).append(c)
        # (None: the class of the invalid melds' slots, which has no tiles of its own)
        self._meld_tiles: dict[int | None, dict[Key, int]] = {}
        for meld, tiles in meld_tiles.items():
            counts: dict[Key, int] = {}
            for tile in tiles:
                counts[tile] = counts.get(tile, 0) + 1
            self._meld_tiles[meld] = counts
        self._played = {k: n for k, n in played.items() if n > 0}

    # -- the question ------------------------------------------------------------------------------

    def possible(
        self,
        jokers: Sequence[frozenset],
        deficit: int = 0,
        step: Callable[[], None] | None = None,
        origins: Sequence[Hashable] | None = None,
    ) -> bool:
        """Whether the old jokers ``jokers`` (each the set of tiles it stood for) can all be kept
        or legally freed, leaving at most ``deficit`` of them unmatched. ``origins``: each joker's
        old meld (a key of ``origin_tiles``); then a kept joker needs a witness (module docstring),
        else none. ``step`` is called once per search state (it may raise to stop the search)."""
        if origins is None:
            order = sorted(range(len(jokers)), key=lambda j: sorted(jokers[j]))
        else:
            first: dict[Hashable, int] = {}
            for j, origin in enumerate(origins):
                first.setdefault(origin, j)
            # an origin's jokers side by side (its witnesses are chosen once they are all placed),
            # equal jokers side by side: their states coincide
            order = sorted(range(len(jokers)), key=lambda j: (first[origins[j]], sorted(jokers[j])))
        origin_list = None if origins is None else [origins[j] for j in order]
        jokers = [jokers[j] for j in order]
        need = len(jokers) - deficit
        if need <= 0:
            return True
        kept = self._kept_matching(jokers, origin_list)
        if kept >= need and (origin_list is None or self._no_competition(origin_list)):
            return True
        spare = sorted({r for stands in jokers for r in stands if r in self._played}, key=repr)
        if kept < need and not spare:
            return False  # no joker can be freed, and they cannot all be kept
        return _Search(self, jokers, spare, step, origin_list).run(deficit)

    def _no_competition(self, origins: Sequence[Hashable]) -> bool:
        """Whether witnesses cannot compete: one joker per origin, no tile shared by two origins."""
        if len(set(origins)) < len(origins):
            return False
        seen: set = set()
        for origin in origins:
            tiles = self._origin_tiles.get(origin, frozenset())
            if not seen.isdisjoint(tiles):
                return False
            seen |= tiles
        return True

    def _kept_matching(self, jokers: Sequence[frozenset], origins: Sequence[Hashable] | None = None) -> int:
        """How many of ``jokers`` can be kept at once (bipartite matching into slot classes), each
        with a witness of its origin in its slot's meld when ``origins`` are given (ignoring that
        witnesses may compete: an upper bound then)."""
        n_classes = len(self._class_size)
        taken: list[list[int]] = [[] for _ in range(n_classes)]  # class -> jokers in it

        def fits(j: int, c: int) -> bool:
            stands = self._class_stands[c]
            if stands is None:
                return True
            if stands.isdisjoint(jokers[j]):
                return False
            if origins is None:
                return True
            tiles = self._meld_tiles.get(self._class_meld[c], {})
            return any(k in tiles for k in self._origin_tiles.get(origins[j], ()))

        def augment(j: int, seen: set[int]) -> bool:
            for c in range(n_classes):
                if c in seen or not fits(j, c):
                    continue
                seen.add(c)
                if len(taken[c]) < self._class_size[c]:
                    taken[c].append(j)
                    return True
                for i, other in enumerate(taken[c]):
                    if augment(other, seen):
                        taken[c][i] = j
                        return True
            return False

        return sum(1 for j in range(len(jokers)) if augment(j, set()))


def _canonical(slot_class: tuple[frozenset, int]) -> tuple:
    stands, size = slot_class
    return sorted(map(repr, stands)), size


class _Search:
    """The memoised search of :meth:`JokerMatching.possible` once its shortcuts have failed.

    Melds whose joker slots stand for the same tiles and that hold the same real tiles are
    interchangeable, so a state lists, per kind of meld, the sorted states of its melds (slots
    taken per class, whether it hosts a freed joker): permutations of equal melds are one state."""

    def __init__(
        self,
        matching: JokerMatching,
        jokers: Sequence[frozenset],
        spare: list[Key],
        step: Callable[[], None] | None = None,
        origins: Sequence[Hashable] | None = None,
    ) -> None:
        m = matching
        self.step = step
        self.jokers = jokers
        # Witnesses (with origins): each joker's origin tiles, and whether it is its origin's last.
        self.witness = origins is not None
        self.origin_tiles = [m._origin_tiles.get(o, frozenset()) for o in origins] if origins is not None else []
        self.last_of_origin = (
            [j + 1 == len(origins) or origins[j + 1] != origins[j] for j in range(len(origins))]
            if origins is not None
            else []
        )
        self.spare = spare
        spare_index = {r: i for i, r in enumerate(spare)}
        self.replacements = [sorted(spare_index[r] for r in stands if r in spare_index) for stands in jokers]
        self.played = m._played
        self.none_size = sum(size for c, size in enumerate(m._class_size) if m._class_meld[c] is None)
        # Kinds of meld: their classes' stands and sizes, their real tiles, their joker slots.
        kinds: dict[tuple, int] = {}
        self.kind_stands: list[list[frozenset]] = []
        self.kind_sizes: list[tuple[int, ...]] = []
        self.kind_tiles: list[dict[Key, int]] = []
        self.kind_slots: list[int] = []
        counts: list[int] = []
        for meld, classes in m._classes_of_meld.items():
            # (cast: the classes of a valid meld stand for tiles)
            shape = sorted(((cast(frozenset, m._class_stands[c]), m._class_size[c]) for c in classes), key=_canonical)
            tiles = m._meld_tiles.get(meld, {})
            key = (tuple(shape), tuple(sorted(tiles.items(), key=repr)))
            kind = kinds.get(key)
            if kind is None:
                kind = kinds[key] = len(counts)
                self.kind_stands.append([stands for stands, _ in shape])
                self.kind_sizes.append(tuple(size for _, size in shape))
                self.kind_tiles.append(tiles)
                self.kind_slots.append(m._slots_in_meld[meld])
                counts.append(0)
            counts[kind] += 1
        # A meld's state: (slots taken per class, hosts a freed joker, witnesses given (sorted),
        # hosts a kept joker of the current origin).
        self.start_melds = tuple(
            (((0,) * len(self.kind_sizes[t]), False, (), False),) * n for t, n in enumerate(counts)
        )
        self.seen: set[tuple] = set()

    def run(self, deficit: int) -> bool:
        left = tuple(self.played[r] for r in self.spare)
        return self._rec(0, deficit, 0, left, self.start_melds)

    def _supplied(self, melds: tuple, left: tuple) -> bool:
        """Whether every meld hosting a freed joker can get its two further played tiles."""
        demand: list[tuple[int, dict]] = []
        for kind, states in enumerate(melds):
            for taken, freed, given, _ in states:
                if freed:
                    rack_jokers = self.kind_slots[kind] - sum(taken)
                    if rack_jokers < 2:
                        tiles = self.kind_tiles[kind]
                        if given:  # a witness came from the table: not one of the played tiles
                            tiles = {k: n - given.count(k) for k, n in tiles.items()}
                        demand.append((2 - rack_jokers, tiles))
        if not demand:
            return True
        supply = dict(self.played)
        for r, n in zip(self.spare, left):
            supply[r] = n
        return _transport(demand, supply)

    def _rec(self, k: int, deficit: int, none_taken: int, left: tuple, melds: tuple) -> bool:
        state = (k, deficit, none_taken, left, melds)
        if state in self.seen:
            return False  # visited: it failed (a success ends the search)
        self.seen.add(state)
        if self.step is not None:
            self.step()
        if k == len(self.jokers):
            return self._supplied(melds, left)
        stands = self.jokers[k]
        if none_taken < self.none_size and self._next(k, deficit, none_taken + 1, left, melds):
            return True  # kept in an invalid meld (never freed there: keeping it is as good)
        for kind, states in enumerate(melds):
            for at, meld in enumerate(states):
                if at and meld == states[at - 1]:
                    continue  # an equal meld was just tried
                taken, hosts_freed, given, current = meld
                for c, size in enumerate(self.kind_sizes[kind]):
                    if taken[c] == size:
                        continue
                    more = taken[:c] + (taken[c] + 1,) + taken[c + 1 :]
                    for freed, fewer in self._ways(k, stands, self.kind_stands[kind][c], left):
                        if not freed and self.witness and not self._witnesses(k, kind, given):
                            continue  # kept, but no tile of its old meld is left to be beside it
                        placed = (more, hosts_freed or freed, given, current or (self.witness and not freed))
                        changed = tuple(sorted(states[:at] + (placed,) + states[at + 1 :]))
                        after = melds[:kind] + (changed,) + melds[kind + 1 :]
                        # Fewer tiles, more hosts and fewer rack jokers only make the melds harder
                        # to supply: once they cannot be, no later choice helps.
                        if freed and not self._supplied(after, fewer):
                            continue
                        if self._next(k, deficit, none_taken, fewer, after):
                            return True
        return deficit > 0 and self._next(k, deficit - 1, none_taken, left, melds)

    def _witnesses(self, k: int, kind: int, given: tuple) -> list[Key]:
        """The tiles of joker ``k``'s origin that a meld of ``kind`` (having given ``given``) still holds."""
        tiles = self.kind_tiles[kind]
        return [r for r in self.origin_tiles[k] if tiles.get(r, 0) > given.count(r)]

    def _next(self, k: int, deficit: int, none_taken: int, left: tuple, melds: tuple) -> bool:
        """Go on to joker ``k + 1``; after an origin's last joker, first choose its witnesses."""
        if not (self.witness and self.last_of_origin[k]):
            return self._rec(k + 1, deficit, none_taken, left, melds)
        hosts = [(kind, at) for kind, states in enumerate(melds) for at, meld in enumerate(states) if meld[3]]
        if not hosts:
            return self._rec(k + 1, deficit, none_taken, left, melds)
        tried: set[tuple] = set()
        chosen: list[Key] = []

        def choose(h: int) -> bool:
            if h == len(hosts):
                states = [list(s) for s in melds]
                for (kind, at), r in zip(hosts, chosen):
                    taken, freed, given, _ = states[kind][at]
                    states[kind][at] = (taken, freed, tuple(sorted(given + (r,), key=repr)), False)
                after = tuple(tuple(sorted(s)) for s in states)
                if after in tried:
                    return False
                tried.add(after)
                return self._supplied(after, left) and self._rec(k + 1, deficit, none_taken, left, after)
            kind, at = hosts[h]
            for r in self._witnesses(k, kind, melds[kind][at][2]):
                if r in chosen:
                    continue  # the origin holds one copy of each tile
                chosen.append(r)
                if choose(h + 1):
                    return True
                chosen.pop()
            return False

        return choose(0)

    def _ways(
        self, k: int, stands: frozenset, slot_stands: frozenset, left: tuple[int, ...]
    ) -> Iterator[tuple[bool, tuple[int, ...]]]:
        """How joker ``k`` can take a slot standing for ``slot_stands``: (freed?, tiles left after)."""
        if not slot_stands.isdisjoint(stands):
            yield False, left
        for r in self.replacements[k]:
            if left[r]:
                yield True, left[:r] + (left[r] - 1,) + left[r + 1 :]


def _transport(demand: Sequence[tuple[int, Mapping[Key, int]]], supply: Mapping[Key, int]) -> bool:
    """Whether each meld ``(units, tiles)`` of ``demand`` can get ``units`` played tiles, at most
    ``tiles[k]`` of tile ``k``, and at most ``supply[k]`` of ``k`` over all melds (augmenting
    paths, one unit at a time)."""
    flow: list[dict[Key, int]] = [{} for _ in demand]
    used: dict[Key, int] = {}

    def augment(i: int, seen_tiles: set, seen_melds: set) -> bool:
        seen_melds.add(i)
        for k, cap in demand[i][1].items():
            if k in seen_tiles or flow[i].get(k, 0) >= cap or not supply.get(k, 0):
                continue
            seen_tiles.add(k)
            if used.get(k, 0) < supply[k]:
                used[k] = used.get(k, 0) + 1
                flow[i][k] = flow[i].get(k, 0) + 1
                return True
            for j in range(len(demand)):
                if j not in seen_melds and flow[j].get(k, 0) and augment(j, seen_tiles, seen_melds):
                    flow[j][k] -= 1  # j found another tile: hand its copy of k to i
                    flow[i][k] = flow[i].get(k, 0) + 1
                    return True
        return False

    for i, (units, _) in enumerate(demand):
        for _ in range(units):
            if not augment(i, set(), set()):
                return False
    return True
