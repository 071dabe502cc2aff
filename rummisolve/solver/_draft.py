"""A model being built (:class:`ModelDraft`) and the rule extensions that add to it
(:class:`RuleExtension`): the core of :func:`~rummisolve.solver._model.build_model` writes the
layers and their rows, then hands the draft to each extension its rules call for, in one loop."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ortools.sat.python import cp_model_helper as cmh

from rummisolve.position import Position
from rummisolve.solver._candidates import Catalogue
from rummisolve.solver._layout import Counts, PositionModel, Rows
from rummisolve.solver._protos import Protos

__all__ = ["ModelDraft", "RuleExtension", "add_extensions"]


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


class RuleExtension:
    """A rule's share of the solver, beside the core's: its part of a position's model
    (:meth:`add`), how decoding reads the melds back (:attr:`fixes_joker_readings`) and how the
    model is searched (:meth:`search_efforts`, :attr:`widens`). The model builder picks the
    extensions a position's rules call for (:func:`~rummisolve.solver._model.build_model`), keeps
    them on the built model, and decoding and the search ask them, never the rule options
    (docs/architecture.md, "Adding a rule option")."""

    __slots__ = ()

    fixes_joker_readings: ClassVar[bool] = False
    """Decoding: each joker must stand for the tile the model placed it on (a laid-out run must
    read as a run, a group as a group), else its set is anchored and the model searched again;
    without, any valid reading of a meld will do."""
    widens: ClassVar[bool] = False
    """Search: the target stage keeps cuts and widens its ranges
    (:func:`~rummisolve.solver._solve.staged_search`)."""

    def add(self, draft: ModelDraft, built: PositionModel) -> None:
        """Add this rule's part to ``draft`` (and what decoding needs to ``built``), once the core
        layer is built: its variables and rows, and its terms in the core's rows
        (:class:`~rummisolve.solver._layout.Rows`)."""
        raise NotImplementedError

    def search_efforts(self) -> tuple[float, float, int] | None:
        """Search: the staged search's budgets (quick, target, target steps) this rule's models
        need, or ``None`` for the defaults (:func:`~rummisolve.solver._solve.search_efforts`)."""
        return None


def add_extensions(draft: ModelDraft, built: PositionModel, extensions: list[RuleExtension]) -> None:
    """Hand ``draft`` to each extension in turn, then record on ``built`` what decoding and the
    search are to ask of them (the first extension with budgets of its own sets them)."""
    for extension in extensions:
        extension.add(draft, built)
    built.fixes_joker_readings = any(extension.fixes_joker_readings for extension in extensions)
    built.widens = any(extension.widens for extension in extensions)
    built.efforts = next((e for e in (x.search_efforts() for x in extensions) if e is not None), None)
