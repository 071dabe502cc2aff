"""The definition of a valid Twist meld (docs/rules.md, "Twist"), by enumeration.

Independent of rummisolve's classifier (it uses only tiles and the rule set's numbers): every
valid meld is *built* from the definition, never recognised. :func:`twist_melds` yields each
reading of each valid meld of up to ``max_tiles`` physical tiles:

- a run: ``S`` consecutive number slots; colour-change slots (``JC``) at interior slots, never
  two side by side; each single-colour segment between them a tiling by numbered tiles, ``J``
  (one slot) and ``JD`` (two slots) holding at least one numbered tile; neighbouring segments of
  different colours;
- a group: one number, a set of distinct colours, each covered by a numbered tile or a ``J``, or
  two of them by a ``JD``, the pieces in any order;
- a mirror meld: a side ``L`` of at least 2 slots (a run fragment or a group fragment), each slot
  of both sides a numbered tile or a ``J`` standing for it, read ``L JM reverse(L)``;

and every meld holds at least ``min_meld_length`` physical tiles and a numbered tile.
A reading is ``(tiles, kind, value, stands_for)`` with ``kind`` ``"run"``, ``"group"``,
``"mirror run"`` or ``"mirror group"`` and ``stands_for`` as :attr:`rummisolve.melds.Meld.stands_for`
(a ``JD`` pair in ascending order for runs, canonical colour order for groups).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator

from rummisolve.rules import RuleSet
from rummisolve.tiles import COLOUR_CHANGE_JOKER, DOUBLE_JOKER, JOKER, MIRROR_JOKER, Tile

Reading = tuple[tuple[Tile, ...], str, int, tuple]


def _spans(rules: RuleSet, slots: int) -> Iterator[list[int]]:
    """The numbers of ``slots`` consecutive slots, for every start (a wrap ends on 1 after the top)."""
    top = rules.numbers
    for start in range(1, top + 1):
        end = start + slots - 1
        if end <= top or (rules.wraparound and end == top + 1 and start > 1):
            yield [(start + k - 1) % top + 1 for k in range(slots)]


def _tilings(length: int, budget: int) -> Iterator[tuple[str, ...]]:
    """Sequences of pieces ``T`` (numbered tile), ``J`` (1 slot), ``D`` (2 slots) filling ``length``
    slots with at most ``budget`` pieces."""
    if length == 0:
        yield ()
        return
    if budget == 0:
        return
    for piece, width in (("T", 1), ("J", 1), ("D", 2)):
        if width <= length:
            for rest in _tilings(length - width, budget - 1):
                yield (piece, *rest)


def _runs(rules: RuleSet, max_tiles: int) -> Iterator[Reading]:
    colours = rules.colour_list
    for slots in range(1, 2 * max_tiles + 1):
        for numbers in _spans(rules, slots):
            interior = range(1, slots - 1)
            for count in range(0, max_tiles):
                for changes in itertools.combinations(interior, count):
                    if any(b - a == 1 for a, b in zip(changes, changes[1:])):
                        continue
                    bounds = [-1, *changes, slots]
                    segments = [(bounds[k] + 1, bounds[k + 1]) for k in range(len(bounds) - 1)]
                    yield from _fill_segments(segments, changes, numbers, colours, max_tiles)


def _fill_segments(segments, changes, numbers, colours, max_tiles, fixed=None, colouring=None) -> Iterator[Reading]:
    """Every run on these segments; ``fixed`` and ``colouring``: just the one they give."""
    budget = max_tiles - len(changes)
    per_segment = []
    for k, (lo, hi) in enumerate(segments):
        options = [fixed[k]] if fixed is not None else [t for t in _tilings(hi - lo, budget) if "T" in t]
        if not options:
            return
        per_segment.append(options)
    colourings = [tuple(colouring)] if colouring is not None else itertools.product(colours, repeat=len(segments))
    for colouring in colourings:
        if any(a is b for a, b in zip(colouring, colouring[1:])):
            continue
        for fills in itertools.product(*per_segment):
            if sum(len(f) for f in fills) + len(changes) > max_tiles:
                continue
            tiles: list[Tile] = []
            stands: list = []
            for k, ((lo, _), fill, colour) in enumerate(zip(segments, fills, colouring)):
                if k:
                    tiles.append(COLOUR_CHANGE_JOKER)
                    stands.append(numbers[lo - 1])
                slot = lo
                for piece in fill:
                    if piece == "D":
                        tiles.append(DOUBLE_JOKER)
                        stands.append((Tile(colour, numbers[slot]), Tile(colour, numbers[slot + 1])))
                        slot += 2
                        continue
                    tile = Tile(colour, numbers[slot])
                    tiles.append(tile if piece == "T" else JOKER)
                    stands.append(tile)
                    slot += 1
            yield tuple(tiles), "run", sum(numbers), tuple(stands)


def _groups(rules: RuleSet, max_tiles: int) -> Iterator[Reading]:
    colours = rules.colour_list
    for number in range(1, rules.numbers + 1):
        for size in range(1, len(colours) + 1):
            for chosen in itertools.combinations(colours, size):
                for pieces in _cover(list(chosen)):
                    if len(pieces) > max_tiles:
                        continue
                    for order in set(itertools.permutations(pieces)):
                        tiles, stands = [], []
                        for kind, cs in order:
                            if kind == "D":
                                tiles.append(DOUBLE_JOKER)
                                stands.append((Tile(cs[0], number), Tile(cs[1], number)))
                            else:
                                tile = Tile(cs[0], number)
                                tiles.append(tile if kind == "T" else JOKER)
                                stands.append(tile)
                        yield tuple(tiles), "group", number * size, tuple(stands)


def _cover(colours: list) -> Iterator[tuple]:
    """Ways to cover the colours (canonical order) by pieces: T or J one colour, D two."""
    if not colours:
        yield ()
        return
    first, rest = colours[0], colours[1:]
    for kind in ("T", "J"):
        for more in _cover(rest):
            yield ((kind, (first,)), *more)
    for k, other in enumerate(rest):
        for more in _cover(rest[:k] + rest[k + 1 :]):
            yield (("D", (first, other)), *more)


def _mirrors(rules: RuleSet, max_tiles: int) -> Iterator[Reading]:
    sides: list[tuple[str, list[Tile]]] = []
    for length in range(2, (max_tiles - 1) // 2 + 1):
        for colour in rules.colour_list:
            for numbers in _spans(rules, length):
                sides.append(("mirror run", [Tile(colour, n) for n in numbers]))
        for number in range(1, rules.numbers + 1):
            for colours in itertools.permutations(rules.colour_list, length):
                sides.append(("mirror group", [Tile(c, number) for c in colours]))
    for kind, side in sides:
        full = side + side[::-1]
        value = sum(t.number for t in full)
        for mask in itertools.product((True, False), repeat=len(full)):
            placed = [t if real else JOKER for t, real in zip(full, mask)]
            half = len(side)
            tiles = (*placed[:half], MIRROR_JOKER, *placed[half:])
            stands = (*full[:half], None, *full[half:])
            yield tiles, kind, value, stands


def twist_melds(rules: RuleSet, max_tiles: int) -> Iterator[Reading]:
    """Every reading of every valid meld of ``min_meld_length .. max_tiles`` physical tiles."""
    for reading in itertools.chain(_runs(rules, max_tiles), _groups(rules, max_tiles), _mirrors(rules, max_tiles)):
        tiles = reading[0]
        if len(tiles) >= rules.min_meld_length and any(not t.is_any_joker for t in tiles):
            yield reading


_PREFERENCE = {"run": 1, "mirror run": 1, "group": 0, "mirror group": 0}


@functools.cache
def best_readings(rules: RuleSet, max_tiles: int) -> dict[tuple[Tile, ...], tuple[str, int, set]]:
    """For every valid meld, the reading the rules pick (the most valuable; on a tie, a run):
    ``tiles -> (kind, value, every stands_for that reading allows)``. Cached: treat it as read-only."""
    best: dict[tuple[Tile, ...], tuple[str, int, set]] = {}
    for tiles, kind, value, stands in twist_melds(rules, max_tiles):
        rank = (value, _PREFERENCE[kind])
        current = best.get(tiles)
        if current is None or rank > (current[1], _PREFERENCE[current[0]]):
            best[tiles] = (kind, value, {stands})
        elif rank == (current[1], _PREFERENCE[current[0]]) and kind == current[0]:
            current[2].add(stands)
    return best


def random_reading(rules: RuleSet, rng) -> Reading:
    """One valid meld built at random from the definition (any length the rules allow), with its
    reading: for the seeded sample of melds longer than the enumeration reaches."""
    colours = rules.colour_list
    top = rules.numbers
    while True:
        kind = rng.choice(("run", "run", "group", "mirror"))
        if kind == "run":
            slots = rng.randint(3, top)
            numbers = next(iter(_spans(rules, slots)))  # from 1
            shift = rng.randint(0, top - slots)
            numbers = [n + shift for n in numbers]
            changes: list[int] = []
            for s in range(1, slots - 1):
                if (not changes or s - changes[-1] > 1) and rng.random() < 0.2:
                    changes.append(s)
            if changes and changes[-1] == slots - 2 and rng.random() < 0.5:
                changes.pop()
            bounds = [-1, *changes, slots]
            segments = [(bounds[k] + 1, bounds[k + 1]) for k in range(len(bounds) - 1)]
            colouring = [rng.choice(colours)]
            for _ in segments[1:]:
                colouring.append(rng.choice([c for c in colours if c is not colouring[-1]] or [None]))
            if None in colouring:
                continue
            fills = []
            for lo, hi in segments:
                options = [t for t in _random_tilings(hi - lo, rng) if "T" in t]
                if not options:
                    break
                fills.append(options[0])
            else:
                reading = next(_fill_segments(segments, tuple(changes), numbers, [], 10**6, fills, colouring))
                if len(reading[0]) >= rules.min_meld_length:
                    return reading
        elif kind == "group":
            size = rng.randint(3, len(colours))
            chosen = sorted(rng.sample(list(colours), size), key=lambda c: c.index)
            covers = list(_cover(chosen))
            pieces = list(rng.choice(covers))
            rng.shuffle(pieces)
            number = rng.randint(1, top)
            tiles, stands = [], []
            for piece, cs in pieces:
                if piece == "D":
                    tiles.append(DOUBLE_JOKER)
                    stands.append((Tile(cs[0], number), Tile(cs[1], number)))
                else:
                    tile = Tile(cs[0], number)
                    tiles.append(tile if piece == "T" else JOKER)
                    stands.append(tile)
            if len(tiles) >= rules.min_meld_length and any(not t.is_any_joker for t in tiles):
                return tuple(tiles), "group", number * size, tuple(stands)
        else:
            if rng.random() < 0.5:
                length = rng.randint(2, top)
                colour = rng.choice(colours)
                start = rng.randint(1, top - length + 1)
                side = [Tile(colour, n) for n in range(start, start + length)]
                name = "mirror run"
            else:
                length = rng.randint(2, len(colours))
                number = rng.randint(1, top)
                side = [Tile(c, number) for c in rng.sample(list(colours), length)]
                name = "mirror group"
            full = side + side[::-1]
            placed = [t if rng.random() < 0.7 else JOKER for t in full]
            if all(t is JOKER for t in placed):
                continue
            half = len(side)
            tiles = (*placed[:half], MIRROR_JOKER, *placed[half:])
            return tiles, name, sum(t.number for t in full), (*full[:half], None, *full[half:])


def _random_tilings(length: int, rng) -> list[tuple[str, ...]]:
    """One random tiling of ``length`` slots by T, J, D (as a one-element list; empty if none)."""
    pieces: list[str] = []
    left = length
    while left:
        piece = rng.choice(("T", "T", "T", "J", "D") if left >= 2 else ("T", "T", "J"))
        pieces.append(piece)
        left -= 2 if piece == "D" else 1
    return [tuple(pieces)]
