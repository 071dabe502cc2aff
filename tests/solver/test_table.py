"""Many racks against one table: ``TableSolver``/``solve_racks`` answer exactly as ``solve`` does.

On seeded tables (stored game positions, random tables) under several rule sets, with many racks
each (racks drawn from the tiles not in play, the table's own rack plus a tile, racks of whole
melds that make the exact shortcut fire, racks with no move), opened and not, both objectives
and with alternatives: every field of the ``Solution`` but its timings equals ``solve``'s on the
same ``Position``. ``goes_out`` equals what ``solve``'s answer says about going out, and
``counted_out`` never says "no" where it goes out. Bad input
raises the errors ``Position`` and ``solve`` raise, with the same messages.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from benchmarks.build import position_of
from benchmarks.positions import _pool, random_meld, random_table
from rummisolve import STANDARD, XP, Position, RuleSet, TableSolver, solve, solve_racks
from rummisolve.errors import InvalidMeldError, OptionError, RuleSetError, TileCountError, TileRangeError
from rummisolve.rules import TWIST
from rummisolve.solver import probe

DATA = Path(__file__).resolve().parents[2] / "benchmarks"

RULES: dict[str, RuleSet] = {
    "standard": STANDARD,
    "xp": XP,
    "discard": STANDARD.replace(discard=True),
    "open_then_manipulate": STANDARD.replace(open_then_manipulate=True),
    "strict_retrieval": STANDARD.replace(joker_retrieval="strict"),
    "no_joker_in_opening": STANDARD.replace(joker_in_initial_meld=False),
    "threshold_0": STANDARD.replace(initial_threshold=0),
    # grouped catalogues (6 colours on): solve and goes_out search the grouped model
    "six_colours_discard": STANDARD.replace(colours=6, max_players=6, discard=True),
    "eight_colours_open_then_manipulate": STANDARD.replace(colours=8, max_players=8, open_then_manipulate=True),
}
TABLES = 3  # random tables per rule set (beside two stored game tables)
RACKS = 10  # racks per table


def _records(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text().splitlines() if line.strip()]


def _racks(rng: random.Random, position: Position, count: int) -> list[tuple[tuple, bool]]:
    """Racks (with ``opened``) on ``position``'s table: drawn from the unseen tiles, the position's
    rack plus one tile, whole melds (the shortcut), and one tile (often no move)."""
    rules = position.rules
    unseen = sorted(position.unseen_counts().elements())
    out = []
    for i in range(count):
        opened = i % 3 != 2
        kind = i % 4
        if kind == 0 or not unseen:
            rack = tuple(rng.sample(unseen, min(len(unseen), rng.randint(2, 9))))
        elif kind == 1:
            rack = position.rack + (rng.choice(unseen),)
        elif kind == 2:
            pool = position.unseen_counts()
            rack = ()
            for _ in range(3):
                meld = random_meld(rng, pool, rules, joker_rate=0.2, max_run=5)
                if meld is not None:
                    rack += meld
            if rng.random() < 0.5 and +pool:
                rack += (rng.choice(sorted(pool.elements())),)
        else:
            rack = (rng.choice(unseen),)
        out.append((rack, opened))
    return out


def _tables(name: str, rules: RuleSet) -> list[Position]:
    """Stored game tables (with their racks) and random tables with a random rack."""
    rng = random.Random(f"table-solver-{name}")
    games = _records("game")
    out = []
    for record in rng.sample(games, 2):
        stored = position_of(record)
        out.append(Position(stored.table, stored.rack, stored.opened, rules))
    for size in rng.sample((0, 9, 20, 35, 50), TABLES):
        pool = _pool(rules, jokers=True)
        table = random_table(rng, pool, rules, size, joker_rate=0.15)
        rack = tuple(rng.sample(sorted(pool.elements()), 10))
        out.append(Position(tuple(table), rack, True, rules))
    return out


def _plain(solution):
    return dataclasses.replace(solution, timings={})


def _out(solution) -> bool:
    rack = solution.position.rack
    return bool(solution) and len(solution.played) >= len(rack) - solution.position.rules.discard


def _check_table(position: Position, racks, seed: int) -> dict[str, int]:
    seen = {"moves": 0, "no_move": 0, "shortcut": 0, "out": 0, "counted_out": 0}
    solver = TableSolver(position.table, position.rules)
    for i, (rack, opened) in enumerate(racks):
        target = Position(position.table, rack, opened, position.rules)
        for objective in ("tiles", "value"):
            alternatives = 2 if i % 4 == 1 and objective == "tiles" else 0
            expected = solve(target, objective, alternatives=alternatives)
            got = solver.solve(rack, opened, objective, alternatives=alternatives)
            assert _plain(got) == _plain(expected), (target, objective)
            assert got.position == target
        expected = solve(target, "tiles")
        assert solver.goes_out(rack, opened) is _out(expected), target
        counted = solver.counted_out(rack, opened)
        assert not (counted and _out(expected)), target  # counting's "no" is the solver's
        seen["counted_out"] += counted
        seen["moves" if expected else "no_move"] += 1
        seen["out"] += _out(expected)
        seen["shortcut"] += probe.shortcut_fires(target)
    return seen


@pytest.mark.parametrize("name", RULES)
def test_table_solver_answers_as_solve(name):
    rules = RULES[name]
    rng = random.Random(f"racks-{name}")
    seen = {"moves": 0, "no_move": 0, "shortcut": 0, "out": 0, "counted_out": 0}
    for seed, position in enumerate(_tables(name, rules)):
        for key, n in _check_table(position, _racks(rng, position, RACKS), seed).items():
            seen[key] += n
    # The sample reaches every kind of answer (else the comparison proves little).
    assert seen["moves"] and seen["no_move"] and seen["out"] and seen["counted_out"], seen
    if not rules.discard:
        assert seen["shortcut"], seen


def test_table_solver_on_twist_tables_with_special_jokers():
    rng = random.Random("table-solver-twist")
    records = [r for r in _records("twist") if r["tiles_in_play"] <= 30]
    specials = 0
    for record in rng.sample(records, 3):
        position = position_of(record)
        assert position.rules == TWIST
        racks = [(rack[:5], opened) for rack, opened in _racks(rng, position, 6)]
        specials += sum(t.is_special_joker for rack, _ in racks for t in rack)
        specials += sum(t.is_special_joker for m in position.table for t in m.tiles)
        _check_table(position, racks, 0)
    assert specials


@pytest.mark.parametrize(
    ("rack", "out"),
    [("R5 B5 G5", True), ("R5 B5 G5 P5 K5 O5", True), ("R5 B5", False), ("R5 R6 K9", False), ("R5 B5 J", True)],
)
def test_goes_out_on_a_grouped_catalogue_sees_groups(rack, out):
    """Under 6 colours the catalogue lists runs only: goes_out's screen must still see that a rack
    tile fits a group (of 3 to 6 colours, jokers counted), and its answer is solve's."""
    rules = STANDARD.replace(colours=6, max_players=6)
    solver = TableSolver([], rules)
    assert solver.goes_out(rack) is out
    assert _out(solve(Position.from_notation([], rack, opened=True, rules=rules))) is out


def test_solve_racks_is_table_solver_on_each_rack_in_order():
    record = _records("game")[40]
    position = position_of(record)
    racks = [position.rack, position.rack[:3], "R1", position.rack[1:]]
    got = solve_racks(" | ".join(str(m) for m in position.table), racks, True, "value")
    solver = TableSolver(position.table)
    assert [_plain(s) for s in got] == [_plain(solver.solve(r, True, "value")) for r in racks]
    assert [s.position.rack for s in got] == [Position(position.table, r).rack for r in racks]


def _same_error(make_expected, make_got, kind: type[Exception]) -> None:
    with pytest.raises(kind) as expected:
        make_expected()
    with pytest.raises(kind) as got:
        make_got()
    assert str(got.value) == str(expected.value)
    assert isinstance(got.value, ValueError) or kind is TypeError


def test_bad_tables_and_racks_raise_what_position_and_solve_raise():
    table = ["R1 R2 R3", "K7 B7 O7"]
    solver = TableSolver(table)
    # A table that is not legal melds, or that holds more copies than the set has.
    _same_error(
        lambda: Position.from_notation(["R1 R2 R3", "R4 R6 R5 K1"]),
        lambda: TableSolver(["R1 R2 R3", "R4 R6 R5 K1"]),
        InvalidMeldError,
    )
    _same_error(
        lambda: Position.from_notation(["R1 R2 R3", "R1 R2 R3", "R1 R2 R3"]),
        lambda: TableSolver(["R1 R2 R3", "R1 R2 R3", "R1 R2 R3"]),
        TileCountError,
    )
    # A rack tile the rules do not have; copies beyond the set with the table's.
    small = STANDARD.replace(numbers=9)
    _same_error(
        lambda: Position.from_notation(table, "R12", rules=small),
        lambda: TableSolver(table, small).solve("R12"),
        TileRangeError,
    )
    _same_error(lambda: Position.from_notation(table, "R1 R1"), lambda: solver.solve("R1 R1"), TileCountError)
    _same_error(lambda: Position.from_notation(table, "R1 R1"), lambda: solver.goes_out("R1 R1"), TileCountError)
    # Options.
    target = Position.from_notation(table, "R4")
    _same_error(lambda: solve(target, "most"), lambda: solver.solve("R4", objective="most"), OptionError)
    _same_error(lambda: solve(target, seed=-1), lambda: solver.solve("R4", seed=-1), OptionError)
    _same_error(lambda: solve(target, time_limit=0), lambda: solver.solve("R4", time_limit=0), OptionError)
    _same_error(
        lambda: Position(target.table, target.rack, True, "standard"), lambda: TableSolver(table, "standard"), TypeError
    )
    # A position beyond the solver (too many jokers for melds of two).
    pairs = STANDARD.replace(min_meld_length=2, jokers=4)
    jokers = Position.from_notation(["R1 R2"], "J J J", rules=pairs)
    _same_error(lambda: solve(jokers), lambda: TableSolver(["R1 R2"], pairs).solve("J J J"), RuleSetError)
    _same_error(lambda: solve(jokers), lambda: TableSolver(["R1 R2"], pairs).goes_out("J J J"), RuleSetError)


def test_a_table_solver_keeps_no_state_between_racks():
    # The same rack before and after others gets the same answer (no model state carried over).
    position = position_of(_records("game")[120])
    solver = TableSolver(position.table)
    first = _plain(solver.solve(position.rack))
    for rack in (position.rack[:2], position.rack[2:], ("J",), position.rack):
        solver.solve(rack, False)
    assert _plain(solver.solve(position.rack)) == first
    assert repr(solver).startswith("TableSolver([")


def test_the_model_with_the_table_counted_once_is_the_same_proto():
    from rummisolve.solver._candidates import catalogue
    from rummisolve.solver._layout import count_table
    from rummisolve.solver._model import build_model

    rng = random.Random("same-proto")
    built = 0
    for name in ("standard", "strict_retrieval", "open_then_manipulate"):
        for position in _tables(name, RULES[name])[:3]:
            cat = catalogue(position.rules)
            counts = count_table(position.table, cat)
            for rack, opened in _racks(rng, position, 6):
                target = Position(position.table, rack, opened, position.rules)
                for objective in ("tiles", "value"):
                    fresh = build_model(target, cat, objective)
                    reused = build_model(target, cat, objective, None, counts)
                    assert (fresh is None) == (reused is None)
                    if fresh is not None:
                        assert str(reused.proto) == str(fresh.proto)
                        built += 1
    assert built > 20


def test_time_limit_and_stop_pass_through():
    from rummisolve.solver import StopSignal

    position = position_of(_records("game")[60])
    solver = TableSolver(position.table)
    expected = _plain(solve(position))
    assert _plain(solver.solve(position.rack, position.opened, time_limit=30)) == expected
    assert _plain(solver.solve(position.rack, position.opened, stop=StopSignal())) == expected
    stopped = StopSignal()
    stopped.set()
    assert _plain(solver.solve(position.rack, position.opened, stop=stopped)) == _plain(solve(position, stop=stopped))
