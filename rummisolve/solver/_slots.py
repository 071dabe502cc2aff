"""The slots of a set copy while a solution is decoded: which kind, and whether a real tile or a
joker fills it (:mod:`rummisolve.solver._decode`, :mod:`rummisolve.solver._twist_decode`)."""

from __future__ import annotations

__all__ = ["REAL_SLOT", "JOKER_SLOT", "Slot"]

REAL_SLOT = False
JOKER_SLOT = True
Slot = tuple[int, bool | None]
"""A slot of a set copy: (kind index, JOKER_SLOT, REAL_SLOT or None while undecided)."""
