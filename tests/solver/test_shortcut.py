"""The exact shortcut before CP-SAT (``rummisolve.solver._shortcut``) against the model itself.

On a seeded sample of several hundred positions under every rule option (game positions, random
ones, and positions built so that the shortcut fires: a table of random melds and a rack made of
melds, sometimes with a stray tile), both objectives, the answer with the shortcut and the answer
with it switched off (``ModelVariant(shortcut=False)``) must agree on what the shortcut guarantees: the
status, the tiles played (sorted), the value and the melds kept; and every answer passes the
referee. The alternatives (searched by the model after the shortcut's best move) agree the same
way.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from benchmarks.build import position_of
from benchmarks.positions import _pool, random_meld, random_position, random_table, small_position
from rummisolve import STANDARD, XP, Position, RuleSet, solve
from rummisolve.rules import TWIST
from rummisolve.solver import StopSignal
from rummisolve.solver._candidates import catalogue
from rummisolve.solver._shortcut import lay_down_all
from rummisolve.solver.probe import ModelVariant, solve_variant
from tests.support.soundness import assert_sound

RULES: dict[str, RuleSet] = {
    "standard": STANDARD,
    "wraparound": STANDARD.replace(wraparound=True),
    "threshold_0": STANDARD.replace(initial_threshold=0),
    "threshold_50": STANDARD.replace(initial_threshold=50),
    "no_joker_in_opening": STANDARD.replace(joker_in_initial_meld=False),
    "open_then_manipulate": STANDARD.replace(open_then_manipulate=True),
    "strict_retrieval": STANDARD.replace(joker_retrieval="strict"),
    "xp": XP,
    "six_colours": STANDARD.replace(colours=6),
    "discard": STANDARD.replace(discard=True),
    "discard_open_then_manipulate": STANDARD.replace(discard=True, open_then_manipulate=True),
    "twist_without_specials_in_play": TWIST,
}

BUILT = 16  # positions per rule set built so that the shortcut fires
RANDOM = 6  # other random positions per rule set


def _built(rng: random.Random, rules: RuleSet) -> Position:
    """A random table beside a rack of one to three whole melds (and, half the time, a stray tile)."""
    pool = _pool(rules, jokers=True)
    table = random_table(rng, pool, rules, rng.choice((0, 6, 15, 30, 50)), joker_rate=0.15)
    rack: list = []
    while not rack or (len(rack) < 9 and rng.random() < 0.5):
        meld = random_meld(rng, pool, rules, joker_rate=0.2, max_run=5)
        if meld is not None:
            rack += meld
    opened = rng.random() < 0.6
    strays = sorted(pool.elements())
    if rules.discard:  # a tile must stay: look for a stray that fits no meld
        for stray in rng.sample(strays, min(20, len(strays))):
            position = Position(tuple(table), (*rack, stray), opened, rules)
            if lay_down_all(position, catalogue(rules)) is not None:
                return position
    if rng.random() < 0.5:
        rack.append(rng.choice(strays))
    return Position(tuple(table), tuple(rack), opened, rules)


def _positions(name: str, rules: RuleSet) -> list[Position]:
    rng = random.Random(f"shortcut-{name}")
    out = [_built(rng, rules) for _ in range(BUILT)]
    out += [small_position(rng, rules) for _ in range(RANDOM // 2)]
    out += [random_position(rng, rules, rng.randint(0, 60), rng.randint(3, 16), opened=i % 2 == 0) for i in range(3)]
    return out


def _key(solution) -> tuple:
    return solution.status, solution.played, solution.value, solution.kept


def _both(position: Position, objective: str, **options):
    fast = solve(position, objective, **options)
    model = solve_variant(position, objective, ModelVariant(shortcut=False), **options)
    return fast, model


@pytest.mark.parametrize("name", list(RULES))
def test_shortcut_answers_equal_the_models(name):
    rules = RULES[name]
    fired = mismatches = 0
    problems = []
    for position in _positions(name, rules):
        took = lay_down_all(position, catalogue(rules)) is not None
        for objective in ("tiles", "value"):
            fast, model = _both(position, objective)
            assert_sound(position, fast, objective)
            fired += took
            if took:
                assert fast.status == "optimal" and fast.timings["solve"] == 0.0
                assert set(fast.kept) == set(range(len(position.table)))
            if _key(fast) != _key(model):
                mismatches += 1
                problems.append(f"{objective}: {_key(fast)} != {_key(model)}: {position!r}")
    assert not mismatches, "\n".join(problems)
    assert fired >= 8, f"the shortcut fired {fired} times only"  # the sample exercises it


def test_shortcut_on_game_positions_equals_the_model():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "game.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for row in random.Random("shortcut-game").sample(rows, 60):
        position = position_of(row)
        for objective in ("tiles", "value"):
            fast, model = _both(position, objective)
            assert _key(fast) == _key(model), row["id"]


def test_alternatives_time_limit_and_stop_after_the_shortcut():
    rng = random.Random("shortcut-alternatives")
    firing = [p for p in (_built(rng, STANDARD) for _ in range(40)) if lay_down_all(p, catalogue(STANDARD))]
    assert len(firing) >= 10
    for position in firing[:12]:
        fast, model = _both(position, "tiles", alternatives=2)
        assert _key(fast) == _key(model)
        assert [_key(a) for a in fast.alternatives] == [_key(a) for a in model.alternatives]
        for alt in fast.alternatives:
            assert_sound(position, alt, "tiles")
        fast, model = _both(position, "value", time_limit=30)
        assert _key(fast) == _key(model)
    stop = StopSignal()
    stop.set()
    # a stop set before the solve still ends it unproven, shortcut or not
    assert solve(firing[0], stop=stop).status == "unknown"


def test_no_shortcut_where_it_is_not_proven():
    cat = catalogue(TWIST)
    special = Position.from_notation([], "R10 R11 R12 R13 JD", opened=True, rules=TWIST)
    assert lay_down_all(special, cat) is None  # special jokers in play: the model decides
    discard = STANDARD.replace(discard=True)
    whole = Position.from_notation([], "R10 R11 R12", opened=True, rules=discard)
    assert lay_down_all(whole, catalogue(discard)) is None  # a tile must stay to discard
    assert lay_down_all(Position.from_notation([], "R10 R11 R12 B1", opened=True, rules=discard), catalogue(discard))
    low = Position.from_notation([], "R1 R2 R3", opened=False)
    assert lay_down_all(low, catalogue(STANDARD)) is None  # below the 30-point opening
    assert lay_down_all(Position.from_notation([], "R9 R10 R11", opened=False), catalogue(STANDARD))
    no_joker = STANDARD.replace(joker_in_initial_meld=False)
    opening = Position.from_notation([], "R9 R10 R11 J", opened=False, rules=no_joker)
    played, _ = lay_down_all(opening, catalogue(no_joker))
    assert [str(t) for t in played] == ["R9", "R10", "R11"]  # the joker may not join the opening
