"""A model being built (:class:`ModelDraft`) and the rule extensions that add to it
(:class:`RuleExtension`): the core of :func:`~rummisolve.solver._model.build_model` writes the
layers and their rows, then hands the draft to each extension its rules call for, in one loop."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ortools.sat.python import cp_model_helper as cmh

from rummisolve.position import Position
from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._layout import Counts, PositionModel, Rows
from rummisolve.solver._protos import Protos

__all__ = ["ModelDraft", "RuleExtension"]


@dataclass
class ModelDraft:
    """A model being built: what its parts read, and the variables, constraints and rows they write."""

    position: Position
    cat: Catalogue
    counts: Counts
    protos: Protos
    anchored: dict[int, int]
    """Base set -> the real tiles each of its copies must hold (see ``build_model``)."""
    variables: list[cmh.IntegerVariableProto] = field(default_factory=list)
    constraints: list[cmh.ConstraintProto] = field(default_factory=list)
    rows: Rows = field(default_factory=Rows)

    @property
    def opening_jokers(self) -> int:
        """Rack jokers an opening may play (none where jokers may not open)."""
        rules = self.position.rules
        return 0 if not self.position.opened and not rules.joker_in_initial_meld else self.counts.rack_jokers


class RuleExtension(Protocol):
    """A rule's share of a position's model: its variables and rows, and its terms in the core's
    rows (:class:`~rummisolve.solver._layout.Rows`), added once the core layer is built."""

    def add(self, draft: ModelDraft, built: PositionModel) -> None:
        """Add this rule's part to ``draft`` (and what decoding needs to ``built``)."""
        ...
