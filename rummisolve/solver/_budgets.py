"""The staged search's default budgets (:func:`~rummisolve.solver._solve.staged_search`), which a
rule extension's own budgets (:meth:`~rummisolve.solver._draft.RuleExtension.search_efforts`)
are measured against."""

from __future__ import annotations

__all__ = ["QUICK_EFFORT", "TARGET_STEPS", "TARGET_EFFORT"]

QUICK_EFFORT = 0.008
"""Deterministic-time budget of the quick search (CP-SAT's work units, not seconds)."""
TARGET_STEPS = 1
"""How many objective values, from the proven bound up, the target stage tries (more tries cost
more than they save where the quick stage fails)."""
TARGET_EFFORT = 0.008
"""Deterministic-time budget of each target search."""
