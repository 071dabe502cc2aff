"""Classification of melds holding Twist special jokers (docs/rules.md, "Twist").

:mod:`rummisolve.melds` calls :func:`classify_twist` for a sequence holding a ``JD``, ``JC`` or
``JM``; it returns ``(kind, stands_for)`` or a ``(reason_code, explanation)`` pair of strings.
``kind`` is ``"run"``, ``"group"``, ``"mirror run"`` or ``"mirror group"``; ``stands_for`` holds,
per physical tile: the tile itself (a numbered tile), a :class:`Tile` (``J``), a pair of tiles
(``JD``), the slot's number (``JC``), or ``None`` (``JM``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from rummisolve.rule_facts import run_end
from rummisolve.rules import RuleSet
from rummisolve.tiles import Colour, Tile

__all__ = ["classify_twist", "twist_run_reading", "TWIST_MELD_REASONS", "StandsFor"]

StandsFor = Tile | tuple[Tile, Tile] | int | None
"""What one physical tile of a meld stands for (see :attr:`rummisolve.melds.Meld.stands_for`)."""

Problem = tuple[str, str]
"""``(reason_code, explanation)``: why a sequence is no meld."""
Shape = tuple[str, tuple[Tile, ...]]
"""``(kind, represents)``: a meld without special jokers."""
_Stands = tuple[StandsFor, ...]

TWIST_MELD_REASONS: dict[str, str] = {
    "jc_at_end": "a colour-change joker may not stand at either end of a run",
    "jc_adjacent": "two colour-change jokers may not stand side by side",
    "jc_same_colour": "the run segments either side of a colour-change joker must differ in colour",
    "jc_segment_without_number": "each single-colour segment of a colour-changing run needs a numbered tile",
    "jc_in_group": "a colour-change joker fits runs only, not groups",
    "jd_out_of_range": "a double joker would stand for a number outside the rule set's range",
    "jd_overfull": "a group over-full once the double joker's two colours are counted",
    "mirror_asymmetric": "a mirror meld must read the same backwards around its mirror joker",
    "mirror_short": "each side of a mirror meld must fill at least 2 slots",
    "mirror_twice": "a meld holds at most one mirror joker",
    "mirror_special": "a mirror meld may not hold a double or colour-change joker",
}
"""The reason codes only melds with special jokers produce, with their meanings."""


def _numbered(tile: Tile) -> bool:
    return not tile.is_any_joker


def classify_twist(
    seq: tuple[Tile, ...], rules: RuleSet, classify_plain: Callable[[tuple[Tile, ...]], Shape | Problem]
) -> tuple[str, _Stands] | Problem:
    """``(kind, stands_for)`` for a valid meld holding a special joker, else ``(code, detail)``.

    ``classify_plain(seq)`` is the standard classifier (no special jokers), returning
    ``(kind, represents)`` or ``(code, detail)``; mirror sides are read with it.
    The caller has checked the length, the tiles' existence and that a numbered tile is present.
    """
    codes = [t.joker_kind.value if t.joker_kind is not None else "" for t in seq]
    if "JM" in codes:
        return _mirror(seq, codes, rules, classify_plain)
    run = _run(seq, codes, rules)
    group = _group(seq, codes, rules)
    run_ok, group_ok = not isinstance(run[0], str), not isinstance(group[0], str)
    # (casts: which side of each union a result is, its first item's type tells)
    if run_ok and group_ok:
        run_for, group_for = cast(_Stands, run), cast(_Stands, group)
        return ("group", group_for) if stands_for_value(group_for) > stands_for_value(run_for) else ("run", run_for)
    if run_ok:
        return "run", cast(_Stands, run)
    if group_ok:
        return "group", cast(_Stands, group)
    run_problem, group_problem = cast(Problem, run), cast(Problem, group)
    real = [t for t in seq if _numbered(t)]
    same_number = all(t.number == real[0].number for t in real)
    same_colour = all(t.colour is real[0].colour for t in real)
    if "JC" in codes and not (same_number and len(real) > 1 and len({t.colour for t in real}) == len(real)):
        return run_problem
    if same_number and len(real) > 1:
        return group_problem
    if same_colour or "JC" in codes:
        return run_problem
    return "mixed_colours", "tiles differ in colour and number: neither a run (one colour) nor a group (one number)"


def stands_for_value(stands_for: tuple[StandsFor, ...]) -> int:
    """The initial-meld value of what a meld's tiles stand for (JD two numbers, JC its number, JM 0)."""
    total = 0
    for s in stands_for:
        if isinstance(s, Tile):
            total += s.value
        elif isinstance(s, tuple):
            total += s[0].value + s[1].value
        elif isinstance(s, int):
            total += s
    return total


# -- groups -------------------------------------------------------------------------------------


def group_tiles_problem(real: list[Tile]) -> tuple[str, str] | None:
    """Why a group's numbered tiles ``real`` cannot share a group (one number, distinct colours), or None."""
    number = real[0].number
    if any(t.number != number for t in real):
        return "mixed_colours", "a group's tiles must all have the same number"
    colours = [t.colour for t in real]
    if len(set(colours)) != len(colours):
        dup = next(c for c in colours if colours.count(c) > 1)
        assert dup is not None  # numbered tiles
        return "duplicate_colour", f"colour {dup.name.lower()} appears twice in a group"
    return None


def _group(seq: tuple[Tile, ...], codes: list[str], rules: RuleSet) -> _Stands | Problem:
    if "JC" in codes:
        return "jc_in_group", "a colour-change joker fits runs only, not groups"
    real = [t for t in seq if _numbered(t)]
    number = real[0].number
    problem = group_tiles_problem(real)
    if problem is not None:
        return problem
    colours = [t.colour for t in real]
    doubles = codes.count("JD")
    size = len(seq) + doubles
    if size > rules.colours:
        return (
            "jd_overfull",
            f"the group stands for {size} tiles once each double joker counts two, "
            f"but holds at most {rules.colours} (one per colour)",
        )
    missing = iter([Tile(c, number) for c in rules.colour_list if c not in colours])
    out: list[StandsFor] = []
    for tile, code in zip(seq, codes):
        if code == "":
            out.append(tile)
        elif code == "J":
            out.append(next(missing))
        else:  # JD
            out.append((next(missing), next(missing)))
    return tuple(out)


# -- runs (with double and colour-change jokers) --------------------------------------------------


def _run(seq: tuple[Tile, ...], codes: list[str], rules: RuleSet) -> _Stands | Problem:
    n = len(seq)
    if codes[0] == "JC" or codes[-1] == "JC":
        return "jc_at_end", "a colour-change joker may not stand at either end of a run"
    for i in range(n - 1):
        if codes[i] == "JC" and codes[i + 1] == "JC":
            return "jc_adjacent", f"two colour-change jokers side by side at slots {i} and {i + 1}"
    # Segments between colour changes, their colours, and every physical tile's first number slot.
    widths = [2 if c == "JD" else 1 for c in codes]
    first_slot = []
    slot = 0
    for w in widths:
        first_slot.append(slot)
        slot += w
    slots = slot
    segments = _segments(seq, codes)
    if isinstance(segments[0], str):
        return segments
    segment_colour, segment_of = segments
    # Numbers: consecutive through every slot.
    top = rules.numbers
    first = next(i for i, c in enumerate(codes) if c == "")
    first_number = seq[first].number
    assert first_number is not None  # a numbered tile
    starts = [first_number - first_slot[first]]
    if rules.wraparound:
        starts.append(starts[0] + top)
    problem: Problem | None = None
    chosen: int | None = None
    for candidate in starts:
        found = _numbers_fit(seq, codes, first_slot, candidate, slots, rules)
        if found is None:
            chosen = candidate
            break
        problem = problem or found
    if chosen is None:
        assert problem is not None  # every start failed, each with its problem
        if rules.wraparound and _circular(seq, codes, first_slot, starts[0], slots, top):
            return (
                "wrap_through_one",
                f"the run would go {top}-1-2: 1 may follow {top} or precede 2, not both in one run",
            )
        return problem
    start = chosen

    def number(s: int) -> int:
        return (start + s - 1) % top + 1

    out: list[StandsFor] = []
    for i, tile in enumerate(seq):
        code = codes[i]
        if code == "":
            out.append(tile)
        elif code == "J":
            out.append(Tile(segment_colour[segment_of[i]], number(first_slot[i])))
        elif code == "JD":
            c = segment_colour[segment_of[i]]
            out.append((Tile(c, number(first_slot[i])), Tile(c, number(first_slot[i] + 1))))
        else:  # JC
            out.append(number(first_slot[i]))
    return tuple(out)


def twist_run_reading(seq: tuple[Tile, ...], rules: RuleSet) -> _Stands | Problem:
    """What ``seq`` (a meld holding a ``JD`` or ``JC``, no ``JM``) stands for read as a run (a run
    has one reading), or ``(code, detail)`` if it is no run. The caller has checked what
    :func:`classify_twist` assumes."""
    return _run(seq, [t.joker_kind.value if t.joker_kind is not None else "" for t in seq], rules)


def _segments(seq: tuple[Tile, ...], codes: list[str]) -> tuple[list[Colour], list[int]] | Problem:
    """The colour of each run segment between colour changes and each tile's segment, or why not."""
    segment_colour: list[Colour] = []
    segment_of: list[int] = []  # -1 for a colour-change joker (in no segment)
    colour: Colour | None = None
    has_number = False
    for i, tile in enumerate(seq):
        if codes[i] == "JC":
            if not has_number:
                return (
                    "jc_segment_without_number",
                    f"the segment before the colour-change joker at slot {i} holds no numbered tile",
                )
            assert colour is not None  # has_number: the segment's colour is known
            segment_colour.append(colour)
            colour, has_number = None, False
            segment_of.append(-1)
            continue
        segment_of.append(len(segment_colour))
        if codes[i] == "":
            if colour is not None and tile.colour is not colour:
                what = "a run segment's" if "JC" in codes else "a run's"
                return "mixed_colours", f"{what} tiles must all have the same colour ({colour.name.lower()} and {tile})"
            colour, has_number = tile.colour, True
    if not has_number:
        return "jc_segment_without_number", "the segment after the last colour-change joker holds no numbered tile"
    assert colour is not None  # has_number
    segment_colour.append(colour)
    for k in range(len(segment_colour) - 1):
        if segment_colour[k] is segment_colour[k + 1]:
            return (
                "jc_same_colour",
                f"the segments either side of a colour-change joker are both {segment_colour[k].name.lower()}",
            )
    return segment_colour, segment_of


def _circular(seq: tuple[Tile, ...], codes: list[str], first_slot: list[int], start: int, slots: int, top: int) -> bool:
    """Whether the run's numbered tiles fit numbers counted round the top (``... top 1 2 ...``)
    from ``start`` or ``start + top``, over at most ``top`` slots: a run through 1 both ways."""
    if slots > top:
        return False
    for base in (start, start + top):
        if 1 <= base <= top and all(
            (base + first_slot[i] - 1) % top + 1 == tile.number for i, tile in enumerate(seq) if codes[i] == ""
        ):
            return True
    return False


def _numbers_fit(
    seq: tuple[Tile, ...], codes: list[str], first_slot: list[int], start: int, slots: int, rules: RuleSet
) -> Problem | None:
    """``None`` if numbering the slots from ``start`` fits every numbered tile and the range."""
    top, wrap = rules.numbers, rules.wraparound
    limit = run_end(rules, start)
    for i, tile in enumerate(seq):
        if codes[i] != "":
            continue
        expected = start + first_slot[i]
        if tile.number == expected or (wrap and expected == top + 1 and tile.number == 1):
            continue
        if expected == top + 1 and tile.number == 1:
            return "wrap_not_allowed", f"{top} followed by 1 wraps around, which these rules forbid"
        shown: int | str = expected if 1 <= expected <= top else "nothing"
        if wrap and top < expected <= 2 * top:
            shown = expected - top
        assert tile.colour is not None  # a numbered tile
        return "gap", f"expected {tile.colour.value}{shown} at slot {i} (number {expected}), found {tile}"
    end = start + slots - 1
    if start >= 1 and end <= limit:
        return None
    # Out of range: name the joker that would stand outside the numbers.
    for i, code in enumerate(codes):
        low = start + first_slot[i]
        high = low + (1 if code == "JD" else 0)
        if code != "" and (low < 1 or high > limit):
            name = {"JD": "a double joker", "JC": "a colour-change joker"}.get(code, "a joker")
            reason = "jd_out_of_range" if code == "JD" else "out_of_range"
            what = f"{low} and {high}" if code == "JD" else f"{low}"
            bound = "numbers start at 1" if low < 1 else f"numbers end at {top}"
            return reason, f"{name} at slot {i} would stand for {what} ({bound})"
    return "out_of_range", f"the run would span {start}..{end} (numbers run from 1 to {top})"


# -- mirror melds -----------------------------------------------------------------------------------


def _mirror(
    seq: tuple[Tile, ...],
    codes: list[str],
    rules: RuleSet,
    classify_plain: Callable[[tuple[Tile, ...]], Shape | Problem],
) -> tuple[str, _Stands] | Problem:
    if codes.count("JM") > 1:
        return "mirror_twice", f"{codes.count('JM')} mirror jokers; a meld holds at most one"
    if "JD" in codes or "JC" in codes:
        return "mirror_special", "a mirror meld may not hold a double or colour-change joker"
    n = len(seq)
    middle = codes.index("JM")
    if 2 * middle + 1 != n:
        return (
            "mirror_asymmetric",
            f"the mirror joker stands at slot {middle} with {middle} tile(s) before it and {n - middle - 1} after",
        )
    if middle < 2:
        return "mirror_short", f"each side fills {middle} slot(s); a mirror meld's side fills at least 2"
    left, right = seq[:middle], seq[middle + 1 :][::-1]
    side = []
    for k, (a, b) in enumerate(zip(left, right)):
        if _numbered(a) and _numbered(b) and a is not b:
            return (
                "mirror_asymmetric",
                f"slot {k} holds {a} but its mirror image, slot {n - 1 - k}, holds {b}",
            )
        side.append(a if _numbered(a) else b)
    result = classify_plain(tuple(side))
    if isinstance(result[1], str):
        code, detail = result
        return code, f"the mirror meld's side {' '.join(map(str, side))} is no run or group fragment: {detail}"
    kind, represents = result
    return f"mirror {kind}", tuple(represents) + (None,) + tuple(represents[::-1])
