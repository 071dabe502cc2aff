""":class:`ModelVariant`: how the solver builds and searches its model, as a value passed down."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ModelVariant", "SHIPPED"]


@dataclass(frozen=True, slots=True)
class ModelVariant:
    """A choice between two equivalent ways the solver works; :data:`SHIPPED` is what
    :func:`rummisolve.solve` uses, the others exist so that differential tests and benchmarks can
    compare (:func:`rummisolve.solver.probe.solve_variant`). Every variant gives equally good
    answers (same status, objective and melds kept); only speed and the split of the played
    tiles into melds may differ."""

    shortcut: bool = True
    """Answer without CP-SAT where every rack tile that could be played at all lays down in melds
    of its own (:mod:`~rummisolve.solver._shortcut`); ``False`` sends every position to the model."""
    substitute_kept: bool = True
    """Substitute the kept melds' variables into the conservation rows; ``False`` writes the rows
    ``kept <= x[s]`` instead (:func:`~rummisolve.solver._model.build_model`)."""


SHIPPED = ModelVariant()
"""The variant the solver ships with."""
