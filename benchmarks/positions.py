"""Seeded position generators: random positions of every size, self-play game positions, traps.

Every generator takes an explicit seed (or a :class:`random.Random`), so a set is reproduced
exactly by re-running it. Records are plain dicts: the position in the JSON contract plus
``"id"``, ``"source"`` and ``"tiles_in_play"`` (the optimum is added by :mod:`benchmarks.build`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from rummisolve.jsonio import position_to_json
from rummisolve.melds import Meld, meld_problem
from rummisolve.position import Position
from rummisolve.rules import STANDARD, RuleSet
from rummisolve.tiles import JOKER, Tile

__all__ = [
    "random_meld",
    "random_table",
    "random_position",
    "random_positions",
    "small_position",
    "dense_playable_position",
    "game_positions",
    "trap_positions",
    "record",
]

Bag = Counter  # tile -> count


def record(position: Position, source: str, ident: str, **extra: Any) -> dict[str, Any]:
    """A JSON Lines record for ``position`` (the contract's fields first)."""
    obj = position_to_json(position)
    obj.update(id=ident, source=source, tiles_in_play=position.tiles_in_play)
    obj.update(extra)
    return obj


# -- random melds and tables ----------------------------------------------------------------------


def _take(pool: Bag, tiles: tuple[Tile, ...]) -> bool:
    need = Counter(tiles)
    if any(pool[t] < n for t, n in need.items()):
        return False
    pool.subtract(need)
    return True


def random_meld(
    rng: random.Random, pool: Bag, rules: RuleSet, joker_rate: float = 0.15, max_run: int | None = None
) -> tuple[Tile, ...] | None:
    """A random valid meld taken out of ``pool`` (which is reduced), or ``None`` if the try failed."""
    m = rules.min_meld_length
    max_run = min(rules.numbers, max_run or 2 * m + 2)
    if rng.random() < 0.5 and rules.colours >= m:
        number = rng.randint(1, rules.numbers)
        size = rng.randint(m, rules.colours)
        colours = rng.sample(rules.colour_list, size)
        tiles = [Tile(c, number) for c in colours]
    else:
        length = rng.randint(m, max_run)
        colour = rng.choice(rules.colour_list)
        top = rules.numbers - length + 1 + (1 if rules.wraparound else 0)
        start = rng.randint(1, max(1, top))
        tiles = [Tile(colour, (start + i - 1) % rules.numbers + 1) for i in range(length)]
    jokers = pool[JOKER]
    for i in range(len(tiles)):
        if jokers and rng.random() < joker_rate and sum(not t.is_joker for t in tiles) > 1:
            tiles[i] = JOKER
            jokers -= 1
    meld = tuple(tiles)
    if meld_problem(meld, rules) is not None:
        return None
    return meld if _take(pool, meld) else None


def _fill_runs(rng: random.Random, pool: Bag, rules: RuleSet, room: int) -> list[tuple[Tile, ...]]:
    """Greedy dense fill: the longest same-colour stretches left in the pool, cut at random."""
    m = rules.min_meld_length
    melds = []
    colours = list(rules.colour_list)
    rng.shuffle(colours)
    for colour in colours:
        while room >= m:
            numbers = [n for n in range(1, rules.numbers + 1) if pool[Tile(colour, n)] > 0]
            stretch: list[int] = []
            best: list[int] = []
            for n in numbers:
                stretch = stretch + [n] if stretch and n == stretch[-1] + 1 else [n]
                if len(stretch) > len(best):
                    best = stretch
            if len(best) < m:
                break
            length = min(len(best), room, rng.randint(m, max(m, len(best))))
            if len(best) - length and len(best) - length < m:
                length = len(best) if len(best) <= room else length
            if length < m:
                break
            start = rng.randint(0, len(best) - length)
            meld = tuple(Tile(colour, n) for n in best[start : start + length])
            _take(pool, meld)
            melds.append(meld)
            room -= length
    return melds


def random_table(
    rng: random.Random, pool: Bag, rules: RuleSet, target: int, joker_rate: float = 0.15, dense: bool = False
) -> list[tuple[Tile, ...]]:
    """Random valid melds taken from ``pool`` until about ``target`` tiles are on the table."""
    melds: list[tuple[Tile, ...]] = []
    size = 0
    failures = 0
    while size < target and failures < 200:
        meld = random_meld(rng, pool, rules, joker_rate)
        if meld is None or size + len(meld) > target + 2:
            if meld is not None:
                pool.update(meld)
            failures += 1
            continue
        melds.append(meld)
        size += len(meld)
    if dense and size < target:
        melds += _fill_runs(rng, pool, rules, target - size)
    rng.shuffle(melds)
    return melds


def _pool(rules: RuleSet, jokers: bool, kinds: list[Tile] | None = None) -> Bag:
    pool = Counter({k: rules.copies for k in (kinds if kinds is not None else rules.tile_kinds)})
    if jokers and rules.jokers:
        pool[JOKER] = rules.jokers
    return pool


def _draw(rng: random.Random, pool: Bag, count: int) -> list[Tile]:
    tiles = sorted(pool.elements())
    rng.shuffle(tiles)
    chosen = tiles[:count]
    pool.subtract(chosen)
    return chosen


def random_position(
    rng: random.Random,
    rules: RuleSet = STANDARD,
    table_size: int = 30,
    rack_size: int = 14,
    opened: bool = True,
    jokers: bool = True,
    dense: bool = False,
    joker_rate: float = 0.15,
    kinds: list[Tile] | None = None,
) -> Position:
    """A random position: a table of about ``table_size`` tiles in valid melds and a random rack."""
    pool = _pool(rules, jokers, kinds)
    table = random_table(rng, pool, rules, table_size, joker_rate if jokers else 0.0, dense)
    rack = _draw(rng, pool, rack_size)
    return Position(tuple(table), tuple(rack), opened, rules)


def small_position(rng: random.Random, rules: RuleSet = STANDARD, max_tiles: int = 12) -> Position:
    """A small, dense position for exhaustive checks: few colours and numbers, so tiles interact."""
    colours = rules.colour_list[: rng.randint(min(2, rules.colours), min(4, rules.colours))]
    low = rng.randint(1, max(1, rules.numbers - 6))
    numbers = range(low, min(rules.numbers, low + rng.randint(3, 6)) + 1)
    if rules.wraparound and rng.random() < 0.5:
        numbers = [*range(rules.numbers - 2, rules.numbers + 1), 1, 2, 3]
    kinds = [Tile(c, n) for c in colours for n in numbers]
    pool = _pool(rules, rng.random() < 0.6, kinds)
    table_target = rng.choice([0, 0, 3, 3, 4, 6, 7])
    table = random_table(rng, pool, rules, min(table_target, max_tiles - 1), joker_rate=0.25)
    size = sum(map(len, table))
    rack = _draw(rng, pool, rng.randint(min(3, max_tiles - size), max(1, min(8, max_tiles - size))))
    return Position(tuple(table), tuple(rack), rng.random() < 0.7, rules)


def _full_arrangement(rng: random.Random, rules: RuleSet) -> list[list[Tile]]:
    """Every tile of the set in valid melds: groups at numbers at least ``2m - 1`` apart (or at
    the ends) of each copy, the rest of each colour's line cut into runs, the jokers added to
    groups (or runs) with room for them."""
    m = rules.min_meld_length
    top = rules.numbers
    melds: list[list[Tile]] = []
    for _copy in range(rules.copies):
        numbers, n = [], rng.choice([1, m + 1, m + 2])
        while n <= top - m or n == top:
            if rng.random() < 0.7:
                numbers.append(n)
            n += rng.randint(m + 1, m + 3)
        if numbers and numbers[-1] != top and top - numbers[-1] < m + 1 and rng.random() < 0.5:
            numbers.pop()
        in_group: dict[int, set] = {}
        for number in numbers:
            colours = rng.sample(rules.colour_list, rng.randint(m, rules.colours))
            in_group[number] = set(colours)
            melds.append([Tile(c, number) for c in colours])
        for colour in rules.colour_list:
            line = [n for n in range(1, top + 1) if colour not in in_group.get(n, ())]
            segment: list[int] = []
            for n in [*line, None]:
                if n is not None and (not segment or n == segment[-1] + 1):
                    segment.append(n)
                    continue
                while len(segment) >= 2 * m:  # cut off a random run of m or more, leaving m or more
                    cut = rng.randint(m, len(segment) - m)
                    melds.append([Tile(colour, k) for k in segment[:cut]])
                    segment = segment[cut:]
                if segment:
                    melds.append([Tile(colour, k) for k in segment])
                segment = [] if n is None else [n]
    for _joker in range(rules.jokers):
        room = [meld for meld in melds if meld_problem((*meld, JOKER), rules) is None]
        rng.choice(room).append(JOKER)
    return melds


def dense_playable_position(rng: random.Random, rules: RuleSet = STANDARD, rack_size: int = 16) -> Position:
    """A dense position whose whole rack goes down: every tile of the set (``rules.total_tiles``)
    in valid melds, then ``rack_size`` real tiles taken off them onto the rack (a run's end, a
    tile of a group larger than ``min_meld_length``, a tile in the middle of a long run, which
    leaves two, or a whole joker-free meld), each meld left valid. Putting them back is a legal move, so the best move plays the whole rack.

    With the standard rules and 16 tiles: 90 on the table. (A test of the search's bounds: any
    other move plays part of the rack, and there are very many.)"""
    melds = _full_arrangement(rng, rules)
    if any(meld_problem(tuple(meld), rules) is not None for meld in melds):
        raise AssertionError("the full arrangement holds an invalid meld")
    m = rules.min_meld_length
    rack: list[Tile] = []
    while len(rack) < rack_size:
        i = rng.randrange(len(melds))
        meld = melds[i]
        if len(meld) > 2 * m and rng.random() < 0.5:  # from the middle of a run: two runs left
            j = rng.randint(m, len(meld) - m - 1)
            left, right = meld[:j], meld[j + 1 :]
            if all(meld_problem(tuple(part), rules) is None for part in (left, right)):
                melds[i : i + 1] = [left, right]
                rack.append(meld[j])
        elif len(meld) > m:
            j = rng.choice([0, len(meld) - 1])
            rest = meld[:j] + meld[j + 1 :]
            if meld_problem(tuple(rest), rules) is None:
                melds[i] = rest
                rack.append(meld[j])
        elif len(rack) + len(meld) <= rack_size and rng.random() < 0.1 and not any(t.is_any_joker for t in meld):
            rack += melds.pop(i)
    rng.shuffle(melds)
    return Position(tuple(tuple(meld) for meld in melds), tuple(sorted(rack, key=lambda t: t.sort_key)), True, rules)


def random_positions(seed: int, count: int, rules: RuleSet = STANDARD) -> Iterator[dict[str, Any]]:
    """``count`` random positions over all sizes up to the full set, with and without jokers,
    opened and not; a quarter are dense (tables filled to near the full set)."""
    rng = random.Random(seed)
    total = rules.total_tiles
    for i in range(count):
        dense = i % 4 == 3
        jokers = i % 3 != 2
        opened = i % 5 != 4
        if dense:
            rack_size = rng.randint(14, 30)
            table_size = total - rack_size
        else:
            table_size = rng.randint(0, total - 20)
            rack_size = rng.randint(1, 24)
        position = random_position(rng, rules, table_size, rack_size, opened, jokers, dense)
        kind = "dense" if dense else "random"
        yield record(position, f"{kind}:seed={seed}", f"{kind}-{seed}-{i}")


# -- self-play game positions -----------------------------------------------------------------------


class OraclePlayer:
    """A self-play player for position generation: the oracle's optimum for its objective."""

    def __init__(self, objective: str = "tiles", draw_rate: float = 0.0, seed: int = 0) -> None:
        self.objective = objective
        self.name = f"oracle-{objective}"
        self._rng = random.Random(seed)
        self._draw_rate = draw_rate

    def choose(self, view):
        from benchmarks.oracle import solve
        from rummisolve.game import Draw, Play

        if self._draw_rate and self._rng.random() < self._draw_rate:
            return Draw()
        answer = solve(view.position, self.objective)
        if answer.optimum is None:
            return Draw()
        return Play(answer.table)


def _fallback_referee(position: Position, table) -> Any:
    """Used only while rummisolve.referee is missing: tile conservation and valid melds."""
    from types import SimpleNamespace

    melds = [tuple(m.tiles if isinstance(m, Meld) else m) for m in table]
    after = Counter(t for m in melds for t in m)
    before = position.table_counts()
    played = after - before
    ok = not (before - after) and played and not (played - position.rack_counts())
    ok = bool(ok) and all(meld_problem(m, position.rules) is None for m in melds)
    return SimpleNamespace(legal=ok, reasons=(), played=tuple(sorted(played.elements())), __bool__=lambda: ok)


def _players(kinds: list[str], seed: int):
    players = []
    for i, kind in enumerate(kinds):
        if kind.startswith("oracle"):
            objective = kind.split("-", 1)[1] if "-" in kind else "tiles"
            players.append(OraclePlayer(objective, draw_rate=0.05, seed=seed * 10 + i))
        else:
            from rummisolve.game import make_player

            players.append(make_player(kind, seed=seed * 10 + i))
    return players


def game_positions(
    seed: int,
    players: int,
    per_game: int,
    rules: RuleSet = STANDARD,
    kinds: list[str] | None = None,
) -> list[dict[str, Any]]:
    """Positions met by the movers of one self-play round (``rummisolve.game``), sampled evenly
    over the game (every stage; opened and not). Players are the built-in AIs when the solver is
    available (``kinds``, default easy/medium/hard mixed), else oracle-driven players."""
    from rummisolve.game import play_game

    if kinds is None:
        try:
            import rummisolve.referee  # noqa: F401
            import rummisolve.solver  # noqa: F401

            kinds = ["hard", "medium", "easy", "hard"][:players]
        except ImportError:
            kinds = ["oracle-tiles", "oracle-value", "oracle-tiles", "oracle-value"][:players]
    try:
        import rummisolve.referee  # noqa: F401

        referee = None
    except ImportError:
        referee = _fallback_referee
    seen: list[tuple[int, Position]] = []
    play_game(
        _players(kinds, seed),
        rules=rules,
        seed=seed,
        on_turn=lambda info: seen.append((info.turn, info.position)),
        referee=referee,
    )
    rng = random.Random(seed)
    chosen = seen if len(seen) <= per_game else sorted(rng.sample(seen, per_game), key=lambda s: s[0])
    source = f"game:{players}p:{'/'.join(kinds)}:seed={seed}"
    return [
        record(pos, source, f"game-{players}p-{seed}-t{turn}", turn=turn, stage=round(turn / max(1, len(seen)), 2))
        for turn, pos in chosen
    ]


# -- trap positions ---------------------------------------------------------------------------------


def trap_positions() -> list[dict[str, Any]]:
    """Hand-made positions where a solver typically goes wrong (docs/rules.md and the peer failures in benchmarks/RESULTS.md)."""
    std = STANDARD
    traps: list[tuple[str, list[str], str, bool, RuleSet]] = [
        ("opening: a group of 13s", [], "K13 B13 O13 R2 B5", False, std),
        ("opening: two groups", [], "K5 B5 O5 K6 B6 O6 R1", False, std),
        ("opening: exactly 30", [], "K9 K10 K11 B1 O4", False, std),
        ("opening: 29 is not enough", [], "K2 B2 O2 R2 R6 R7 R8", False, std),
        ("opening: joker in the opening", [], "K12 K13 J B4", False, std),
        (
            "opening: joker forbidden in the opening",
            [],
            "K12 K13 J B4",
            False,
            std.replace(joker_in_initial_meld=False),
        ),
        ("opening: table must not be touched", ["R1 R2 R3"], "R4 R5 K10 B10 O10", False, std),
        (
            "opening: then manipulate (option)",
            ["R1 R2 R3"],
            "R4 R5 K10 B10 O10",
            False,
            std.replace(open_then_manipulate=True),
        ),
        ("opening: threshold 10 with a table", ["R1 R2 R3"], "R4 K13 B1", False, std.replace(initial_threshold=10)),
        ("opening: threshold 13", ["K1 K2 K3"], "K4 B4 O4 R4 K5", False, std.replace(initial_threshold=13)),
        ("opening: threshold 0", ["K1 K2 K3"], "K4 B1 O1 R1", False, std.replace(initial_threshold=0)),
        ("opening: threshold 50", [], "K10 K11 K12 K13 B9 O9 R9", False, std.replace(initial_threshold=50)),
        ("opening: joker value counts what it stands for", [], "B9 B10 J K1", False, std),
        ("joker at the end of a run of 4", ["B5 B6 B7"], "R10 R11 R12 J", True, std),
        ("joker at the start of a run of 5", [], "J R3 R4 R5 R6", True, std),
        ("joker in a group of 4", [], "K7 B7 O7 J", True, std),
        ("joker on the table at the end of a run", ["K3 K4 K5 J"], "B9 O9", True, std),
        ("joker freed by replacing it", ["R5 J R7"], "R6 B9 O9", True, std),
        ("two jokers in one meld", ["O1 O2 O3"], "K5 J J", True, std),
        ("joker in the middle of a run of 7 splits", ["B1 B2 B3 J B5 B6 B7"], "B4 K11 O11", True, std),
        ("long table run split to take its middle", ["K1 K2 K3 K4 K5 K6 K7"], "B4 O4", True, std),
        ("objectives disagree: joker in a run or in a group of 13s", ["R9 R10 R11"], "K1 K2 K4 J B13 O13", True, std),
        ("no move at all", ["K1 K2 K3"], "B7 O9 R11", True, std),
        ("wraparound: 12-13-1", [], "R12 R13 R1", True, std.replace(wraparound=True)),
        ("wraparound off: 12-13-1 is not a run", [], "R12 R13 R1", True, std),
        ("wraparound: never through 1", ["R12 R13 R1"], "R2 R3", True, std.replace(wraparound=True)),
        ("xp: four jokers", ["K1 K2 K3"], "J J J J B7", True, RuleSet.preset("xp")),
        ("xp: three copies", ["R5 R6 R7", "R5 B5 O5"], "R5 K5 R4 R8", True, RuleSet.preset("xp")),
        ("six colours: a group of 6 with a joker", [], "K8 B8 O8 R8 G8 J", True, std.replace(colours=6)),
        ("eight colours: only the group of 8 reaches 30", [], "K4 B4 O4 R4 G4 P4 W4 C4", False, std.replace(colours=8)),
        ("min meld length 4", ["K1 K2 K3 K4"], "K5 B9 O9 R9", True, std.replace(min_meld_length=4)),
    ]
    out = []
    for i, (name, table, rack, opened, rules) in enumerate(traps):
        position = Position.from_notation(table, rack, opened, rules)
        out.append(record(position, f"trap:{name}", f"trap-{i}"))
    return out
