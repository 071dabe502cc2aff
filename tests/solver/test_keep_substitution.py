"""Kept melds substituted into the conservation rows (``rummisolve.solver._model._keep``) against the
rows ``kept <= x[s]`` they replace (``ModelVariant(substitute_kept=False)``).

Both models must find equally good moves: the same status, the same value of the objective and the
same number of table melds kept, for the best move and for each alternative; every answer passes
the referee. The sample holds opened tables with kept melds of every kind (simple melds, long runs,
melds with jokers), under the rule options that change the final layer, and stored game positions.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from benchmarks.build import position_of
from benchmarks.positions import random_position
from rummisolve import STANDARD, XP, Position, RuleSet, solve
from rummisolve.solver._candidates import catalogue
from rummisolve.solver._model import build_model
from rummisolve.solver.probe import ModelVariant, solve_variant
from tests.support.soundness import assert_sound

RULES: dict[str, RuleSet] = {
    "standard": STANDARD,
    "wraparound": STANDARD.replace(wraparound=True),
    "open_then_manipulate": STANDARD.replace(open_then_manipulate=True),
    "strict_retrieval": STANDARD.replace(joker_retrieval="strict"),
    "xp": XP,
    "four_jokers": STANDARD.replace(jokers=4),
    "six_colours": STANDARD.replace(colours=6),
    "discard": STANDARD.replace(discard=True),
    "runs_of_four": STANDARD.replace(min_meld_length=4),
}


def _key(solution, objective: str) -> tuple:
    primary = solution.value if objective == "value" else len(solution.played)
    return solution.status, primary, len(solution.kept)


def _both(position: Position, objective: str, **options):
    substituted = solve(position, objective, **options)
    rows = solve_variant(position, objective, ModelVariant(substitute_kept=False), **options)
    return substituted, rows


def _check(position: Position, objective: str, problems: list[str], alternatives: int = 0) -> None:
    substituted, rows = _both(position, objective, alternatives=alternatives)
    for solution in (substituted, *substituted.alternatives):
        assert_sound(position, solution, objective)
    got = [_key(s, objective) for s in (substituted, *substituted.alternatives)]
    want = [_key(s, objective) for s in (rows, *rows.alternatives)]
    if got != want:
        problems.append(f"{objective}: {got} != {want}: {position!r}")


@pytest.mark.parametrize("name", list(RULES))
def test_substituted_keep_finds_moves_as_good_as_the_keep_rows(name):
    rules = RULES[name]
    rng = random.Random(f"keep-substitution-{name}")
    problems: list[str] = []
    substituted_models = 0
    for i in range(10):
        opened = i % 5 != 4
        position = random_position(rng, rules, rng.randint(10, 70), rng.randint(2, 14), opened=opened)
        for objective in ("tiles", "value"):
            built = build_model(position, catalogue(rules), objective)
            substituted_models += built is not None and built.substituted
            _check(position, objective, problems, alternatives=1 if i % 3 == 0 else 0)
    assert not problems, "\n".join(problems)
    if name == "strict_retrieval":
        return  # substituted only where no table joker is in play
    assert substituted_models >= 8, f"only {substituted_models} substituted models in the sample"


def test_substituted_keep_on_game_positions():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "game.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    problems: list[str] = []
    for row in random.Random("keep-substitution-game").sample(rows, 50):
        position = position_of(row)
        for objective in ("tiles", "value"):
            _check(position, objective, problems)
    assert not problems, "\n".join(problems)


def test_the_substituted_model_has_no_keep_rows():
    """A rack that can copy a table meld: substituted, the model reads ``x[s]`` as the new copies
    only, so it is one row shorter per keep variable, and the kept melds still count."""
    position = Position.from_notation(["R1 R2 R3", "K5 B5 O5"], "R1 R2 R3 K9", opened=True)
    cat = catalogue(position.rules)
    substituted = build_model(position, cat, "tiles")
    rows = build_model(position, cat, "tiles", substitute_kept=False)
    assert substituted.substituted and not rows.substituted
    keep_vars = len(substituted.keep_terms)
    assert keep_vars >= 1
    assert len(rows.proto.constraints) - len(substituted.proto.constraints) == keep_vars
    best = solve(position, "tiles")
    assert_sound(position, best, "tiles")
    assert [str(t) for t in best.played] == ["R1", "R2", "R3"] and best.kept == (0, 1)


@pytest.mark.parametrize(
    ("table", "rack"),
    [
        (["R1 R2 R3 J J J"], "K5"),
        (["R1 R2 R3 J J J"], "R7 K1 K2 K3"),
        (["J J J R4 R5 R6", "K5 K6 J"], "K7 R7"),
        (["R1 R2 R3 J J J", "J B9 B10"], "B11 R7"),
    ],
)
def test_long_runs_with_a_piece_of_jokers_only(table, rack):
    """A long run split into base sets can leave a piece of jokers only (no copies of it can be
    laid alone): substituted or not, the same moves are found."""
    rules = STANDARD.replace(jokers=4)
    position = Position.from_notation(table, rack, opened=True, rules=rules)
    problems: list[str] = []
    for objective in ("tiles", "value"):
        _check(position, objective, problems, alternatives=1)
    assert not problems, "\n".join(problems)
