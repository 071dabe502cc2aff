"""Strict joker retrieval (docs/rules.md, "Jokers on the table") as the solver's rule extensions:
its part of the model (:func:`~rummisolve.solver._strict.strict_jokers`), what decoding must keep
(each joker on the tile the model placed it on) and what the search needs (larger budgets; a
relaxed model first, whose moves the referee confirms, :class:`~rummisolve.solver._solve._RelaxedFirst`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rummisolve.melds import MeldKind
from rummisolve.position import Position
from rummisolve.solver._draft import ModelDraft, RuleExtension
from rummisolve.solver._layout import PositionModel
from rummisolve.solver._strict import strict_jokers
from rummisolve.tiles import Colour

__all__ = ["STRICT_EFFORTS", "StrictReadings", "StrictRetrieval", "may_miss"]


def may_miss(position: Position) -> bool:
    """Whether the kept hosts may miss a legal play of ``position`` other than through a host that
    must hold two tiles of its old meld (``built.doubled_hosts``): when two table runs of one
    colour hold jokers, which may end in one new run that cannot be cut into runs each holding one
    of them with a tile of its own old run (docs/rules.md, "Jokers on the table")."""
    seen: set[Colour] = set()
    for meld in position.table:
        if meld.kind is MeldKind.RUN and any(t.is_joker for t in meld.tiles):
            colours = {t.colour for t in meld.tiles if t.colour is not None}
            if not seen.isdisjoint(colours):
                return True
            seen |= colours
    return False


STRICT_EFFORTS = (0.05, 0.05, 1)
"""The staged search's budgets (quick, target, target steps) for strict joker retrieval with jokers
on a table that may be rearranged: the kept jokers' hosts make a first solution harder to find
within :data:`~rummisolve.solver._budgets.QUICK_EFFORT`, and at the default budgets xp positions
went to the full stage more often (``benchmarks/RESULTS.md``, "Strict jokers stay with their melds")."""


@dataclass(frozen=True, slots=True)
class StrictReadings(RuleExtension):
    """Strict joker retrieval's rule extension where no table joker can move (none on the table,
    or an official opening): nothing in the model, but decoding keeps each joker on the tile the
    model placed it on (:func:`~rummisolve.rule_facts.joker_reading_matters`)."""

    fixes_joker_readings: ClassVar[bool] = True

    def add(self, draft: ModelDraft, built: PositionModel) -> None:
        """Nothing: the model places every joker in a set already."""


@dataclass(frozen=True, slots=True)
class StrictRetrieval(RuleExtension):
    """Strict joker retrieval's rule extension, with jokers on a table that may be rearranged
    (:func:`strict_jokers`); decoding keeps each joker on the tile the model placed it on, and
    the search has budgets of its own (:data:`STRICT_EFFORTS`)."""

    fixes_joker_readings: ClassVar[bool] = True

    ub: list[int]
    """Each base set's upper bound on copies in the final layer (0: unusable)."""
    kept_hosts: bool = True
    """``False``: the relaxation without kept hosts (:func:`strict_jokers`)."""

    def add(self, draft: ModelDraft, built: PositionModel) -> None:
        """Add the strict jokers' variables and rows to ``draft``."""
        strict_jokers(
            built,
            draft.cat,
            draft.position,
            self.ub,
            draft.anchored,
            draft.variables,
            draft.constraints,
            self.kept_hosts,
        )
        if self.kept_hosts:
            built.may_miss = may_miss(draft.position) or built.doubled_hosts

    def search_efforts(self) -> tuple[float, float, int] | None:
        """:data:`STRICT_EFFORTS`."""
        return STRICT_EFFORTS
