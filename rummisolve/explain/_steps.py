"""The steps of an explanation for a given meld map: which copy of each moving tile comes from
where, the order a person can follow at the table, and the sentence of each action."""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import cast

from rummisolve.errors import InternalError
from rummisolve.melds import Meld, MeldKind
from rummisolve.tiles import Tile, format_tiles

__all__ = ["plan"]


def plan(
    old: Sequence[Meld], new: Sequence[Meld], mapping: list[int | None], played: Sequence[Tile]
) -> list[tuple[Tile, int | None, int, str]]:
    """The steps, in order, as (tile, source: old meld index or ``None`` for the rack, target: new
    meld index, text), for the turn from ``old`` to ``new`` that played ``played`` from the rack,
    with each old meld continuing into ``mapping[i]``."""
    return _Plan(old, new, mapping, played).steps()


_Source = tuple[int, int] | None
"""Where a moving tile comes from: ``(old meld, slot)``, or ``None`` for the rack."""
_Arrival = tuple[int, Tile, _Source]
"""A tile moving into a new meld: ``(new slot, tile, source)``."""
_Group = tuple[tuple[int, int], list[_Arrival]]
"""Arrivals from one source (see :meth:`_Plan._key`)."""


def _old_slot(arrival: _Arrival) -> int:
    """The slot of its old meld that an arrival from an old meld leaves (a group keyed ``(0, meld)``)."""
    return cast("tuple[int, int]", arrival[2])[1]


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
        final = cast(int, entry.final)  # an entry put into a pile has its new slot
        for k, e in enumerate(self.entries):
            if e.final is not None and e.final < final:
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

    def __init__(
        self, old: Sequence[Meld], new: Sequence[Meld], mapping: list[int | None], played: Sequence[Tile]
    ) -> None:
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

    def _sources(self, filled: list[set[int]], played: Sequence[Tile]) -> None:
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

    def steps(self) -> list[tuple[Tile, int | None, int, str]]:
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
        steps: list[tuple[Tile, int | None, int, str]] = []
        last = None
        for action in self.actions:
            text = action.sentence()
            if text == last:  # the same action twice in a row (e.g. two equal new melds)
                text += " again"
            last = text
            steps.extend((tile, source, target, text) for tile, source, target in action.steps)
        if len(steps) != sum(len(m) for m in self.new) - sum(
            1 for entries in self.entries for e in entries if e.final is not None
        ):
            raise InternalError("explain: the steps do not account for every tile that moves")
        return steps

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
                    if tile not in old.joker_options(s):
                        continue
                    moves_on = joker.final is None
                    if joker.final is not None and not (
                        new.kind is MeldKind.RUN and new.represents[joker.final] != tile
                    ):
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
        action.notes.extend(f"{the} now stands for {_meaning(self.new[j], cast(int, joker.final))}" for joker in jokers)

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

    def _groups(self, arrivals: list[_Arrival]) -> list[_Group]:
        """Arrivals by source, in order: old melds by index, then jokers lifted out, then the rack."""
        groups: dict[tuple[int, int], list[_Arrival]] = {}
        for arrival in arrivals:
            groups.setdefault(self._key(arrival[2]), []).append(arrival)
        return sorted(groups.items())

    def _key(self, source: tuple[int, int] | None) -> tuple[int, int]:
        if source is None:
            return _RACK
        return _FREED if source in self.freed else (0, source[0])

    def _take(self, arrivals: list[_Arrival]) -> None:
        """Lift the arrivals' tiles out of the old melds they come from."""
        for _, _, source in arrivals:
            if source is not None and source not in self.freed:
                self._source(source[0]).remove(self.entries[source[0]][source[1]])

    def _steps_of(self, j: int, arrivals: list[_Arrival]) -> list[tuple[Tile, int | None, int]]:
        return [(tile, None if source is None else source[0], j) for _, tile, source in arrivals]

    def _fresh(self, j: int, arrivals: list[_Arrival]) -> None:
        """A new meld that continues no old one: split off an old meld's end, or made outright."""
        new = self.new[j]
        groups = self._groups(arrivals)
        split = self._split(j, groups)
        if split is not None:
            key, part = split
            k = key[1]
            source = self.old_piles[k]
            before = source.show()
            moving = [e for e in source.entries if any(self.entries[k][_old_slot(a)] is e for a in part)]
            first = source.entries[0] is moving[0]
            for e in moving:
                source.remove(e)
            finals = {self.entries[k][_old_slot(a)]: a[0] for a in part}
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
        kind = {MeldKind.RUN: "run", MeldKind.GROUP: "group", MeldKind.MIRROR: "mirror meld"}[new.kind]
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

    def _split(self, j: int, groups: list[_Group]) -> _Group | None:
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
            at = sorted((pile.index(self.entries[k][_old_slot(a)]), a[0]) for a in group)
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

    def _add(self, j: int, pile: _Pile, arrivals: list[_Arrival]) -> None:
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

    def _joker_moves(self, j: int, arrivals: list[_Arrival]) -> list[str]:
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


def _pair_copies(
    sources: list[_Source],
    targets: list[tuple[int, int]],
    entries: list[list[_Entry]],
    kinds_into: dict[int, set[Tile]],
) -> list[tuple[_Source, tuple[int, int]]]:
    """Pair the copies of one tile kind (sources: (old meld, slot) or ``None`` for the rack) with
    the slots they fill, preferring an old meld whose other moving tiles go to the same new meld."""

    def affinity(source: _Source, target: tuple[int, int]) -> int:
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


def _meaning(meld: Meld, slot: int) -> str:
    """What the joker in ``slot`` stands for, in words: ``R5``, ``O7 or R7``, ``any missing 7``."""
    options = meld.joker_options(slot)
    if len(options) > 3:
        return f"any missing {options[0].number}"
    return _or([str(t) for t in options])


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
