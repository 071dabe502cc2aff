"""A rule option as one unit (docs/architecture.md, "Adding a rule option"): the solver's decoding
and search ask the rule extensions' hooks, recorded on the built model, never the option flags."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from rummisolve import Position
from rummisolve.rules import STANDARD, TWIST, RuleSet
from rummisolve.solver import _strict_rule, _twist_model
from rummisolve.solver._candidates import model_catalogue
from rummisolve.solver._model import build_model
from rummisolve.solver._solve import search_efforts

SOLVER = Path(__file__).resolve().parents[2] / "rummisolve" / "solver"
FLAGS = frozenset(
    f.name
    for f in dataclasses.fields(RuleSet)
    if f.type in ("bool", "str") or f.name in ("joker_retrieval", "empty_pool_scoring")
)
"""The options that switch a rule on or pick its mode (``wraparound``, ``joker_retrieval``, ...)."""
STRICT = STANDARD.replace(joker_retrieval="strict")


def test_the_flags_are_the_switches():
    assert {"wraparound", "discard", "joker_retrieval", "open_then_manipulate", "dice"} <= FLAGS
    assert "numbers" not in FLAGS and "joker_penalty" not in FLAGS


@pytest.mark.parametrize("module", ["_decode.py", "_twist_decode.py", "_solve.py"])
def test_decoding_and_the_search_read_no_rule_option(module):
    tree = ast.parse((SOLVER / module).read_text(encoding="utf-8"))
    read = sorted(
        f"line {node.lineno}: .{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in FLAGS and _is_rules(node.value)
    )
    assert not read, f"{module} reads rule options itself (ask a rule extension's hook instead): {read}"


def _is_rules(node: ast.expr) -> bool:
    """Whether ``node`` is a rule set: ``rules``, ``x.rules`` (``position.rules``, ``cat.rules``)."""
    return (isinstance(node, ast.Name) and node.id == "rules") or (
        isinstance(node, ast.Attribute) and node.attr == "rules"
    )


def _built(position: Position, relaxed: bool = False):
    built = build_model(position, model_catalogue(position.rules), "tiles", relaxed=relaxed)
    assert built is not None
    return built


def test_no_extension_asks_for_anything_under_the_standard_rules():
    built = _built(Position.from_notation(["R1 R2 R3", "K7 B7 J"], "R4 O7 K9", opened=True))
    assert (built.fixes_joker_readings, built.efforts, built.widens, built.may_miss) == (False, None, False, False)
    assert search_efforts(model_catalogue(STANDARD), built) is None


def test_strict_retrieval_with_table_jokers_fixes_readings_and_has_its_budgets():
    position = Position.from_notation(["R1 R2 J", "K7 B7 O7"], "R3 R4 K9", opened=True, rules=STRICT)
    built = _built(position)
    assert built.fixes_joker_readings and built.efforts == _strict_rule.STRICT_EFFORTS and not built.widens
    assert not built.relaxed
    relaxed = _built(position, relaxed=True)
    assert relaxed.relaxed and relaxed.fixes_joker_readings


def test_strict_retrieval_without_a_movable_joker_still_fixes_readings():
    opening = _built(Position.from_notation(["R1 R2 J"], "R10 R11 R12 J", opened=False, rules=STRICT))
    assert opening.fixes_joker_readings and opening.efforts is None and not opening.relaxed
    no_table_joker = _built(Position.from_notation(["R1 R2 R3"], "R4 J K9", opened=True, rules=STRICT))
    assert no_table_joker.fixes_joker_readings and no_table_joker.efforts is None


def test_twist_pieces_widen_the_search():
    built = _built(Position.from_notation(["R1 R2 R3"], "R5 JD K9 B9", opened=True, rules=TWIST))
    assert built.twist is not None
    assert built.widens and built.efforts == _twist_model.TWIST_EFFORTS and not built.fixes_joker_readings


def test_a_patched_budget_reaches_the_model_built_next(monkeypatch):
    # benchmarks/strict.py compares budgets by patching the extension's module: it must take effect.
    monkeypatch.setattr(_strict_rule, "STRICT_EFFORTS", (1.0, 2.0, 3))
    built = _built(Position.from_notation(["R1 R2 J"], "R3 R4 K9", opened=True, rules=STRICT))
    assert built.efforts == (1.0, 2.0, 3)
