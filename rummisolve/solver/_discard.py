"""The discard rule (docs/rules.md, "The discard variant") in a position's model: a tile stays on
the rack to discard, so a turn plays at most the rack size less one."""

from __future__ import annotations

from dataclasses import dataclass

from rummisolve.solver._draft import ModelDraft, RuleExtension
from rummisolve.solver._groups import tile_terms
from rummisolve.solver._layout import PositionModel
from rummisolve.solver._protos import linear

__all__ = ["DiscardRule"]


@dataclass(frozen=True, slots=True)
class DiscardRule(RuleExtension):
    """The discard rule's extension. In an official opening every tile of the layer is played: a
    row ``sum_s |s| x[s] <= rack - 1`` (:attr:`~rummisolve.solver._layout.Rows.discard`, which
    Twist pieces extend, so this extension comes before theirs). On a table that may be
    rearranged the row that a tile is played (:attr:`~rummisolve.solver._layout.Rows.plays`)
    gets the same upper bound, counted as that row counts: with the table's jokers where it holds
    the final layer's jokers."""

    def add(self, draft: ModelDraft, built: PositionModel) -> None:
        """Add the rule's row, or its bound, to ``draft``."""
        cat, constraints, rows = draft.cat, draft.constraints, draft.rows
        if built.kept_by_rule:
            xs = list(built.final.xs)
            sizes = [len(base.kinds) for base in cat.sets]
            groups = tile_terms(cat, built.final.offset, [1] * len(cat.kinds), 1)
            rows.discard = len(constraints)
            variables = xs + [v for v, _ in groups]
            constraints.append(linear(variables, sizes + [c for _, c in groups], 0, built.rack_size - 1))
            return
        assert rows.plays is not None, "a table that may be rearranged has its row that a tile is played"
        table_jokers = built.counts.table_jokers if draft.opening_jokers else 0
        constraints[rows.plays].linear.domain[1] = built.rack_size - 1 + table_jokers
