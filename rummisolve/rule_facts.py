"""Facts of the rules that several layers need, each written once (docs/architecture.md, "Adding a
rule option"): the referee, the solver, the meld readers and the game ask these helpers, never
the option flags behind them.

A run's numbers are counted in *slots*: slot ``n`` holds number ``n``; under ``wraparound`` slot
``top + 1`` holds the 1 after the top number, which ends the run (``R12 R13 R1``, never
``R13 R1 R2``: 1 may follow the top number or precede 2, not both in one run).

>>> from rummisolve.rules import RuleSet
>>> wrap = RuleSet(wraparound=True)
>>> run_numbers(wrap, 12, 3), run_numbers(wrap, 1, 13), run_numbers(RuleSet(), 12, 3)
((12, 13, 1), (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13), None)
>>> list(run_starts(wrap, 13)), list(run_starts(RuleSet(), 13))
([1, 2], [1])
"""

from __future__ import annotations

from rummisolve.rules import RuleSet

__all__ = ["run_end", "slot_number", "number_slots", "run_starts", "run_numbers", "joker_reading_matters"]


def run_end(rules: RuleSet, start: int) -> int:
    """The highest slot a run from number ``start`` may reach: the top number, or under
    ``wraparound`` the 1 after it (slot ``top + 1``), unless the run starts at 1."""
    return rules.numbers + 1 if rules.wraparound and start > 1 else rules.numbers


def slot_number(slot: int, top: int) -> int:
    """The number in a run's slot ``slot`` (1 .. ``top + 1``): slot ``top + 1`` is the 1 after ``top``."""
    return slot - top if slot > top else slot


def number_slots(rules: RuleSet, number: int) -> tuple[int, ...]:
    """The slots a tile of ``number`` may take in a run: its own, and for a 1 under ``wraparound``
    also slot ``top + 1`` (the 1 that ends a run after the top number)."""
    return (number, rules.numbers + 1) if number == 1 and rules.wraparound else (number,)


def run_starts(rules: RuleSet, length: int) -> range:
    """Every number a run of ``length`` tiles may start from, lowest first (under ``wraparound``
    one more: the run that ends on the 1 after the top number)."""
    top = rules.numbers
    return range(1, top - length + 2 + (rules.wraparound and 1 < length <= top))


def run_numbers(rules: RuleSet, start: int, length: int) -> tuple[int, ...] | None:
    """The numbers of the run of ``length`` tiles from ``start``, or ``None`` if the rules have no
    such run."""
    if start < 1 or length < 1 or start + length - 1 > run_end(rules, start):
        return None
    top = rules.numbers
    return tuple(slot_number(slot, top) for slot in range(start, start + length))


def joker_reading_matters(rules: RuleSet) -> bool:
    """Whether what a table joker stands for constrains a turn (strict joker retrieval: a joker is
    freed only by the tile it stands for, docs/rules.md, "Jokers on the table"); elsewhere any
    valid reading of a meld will do."""
    return rules.joker_retrieval == "strict"
