"""Judging an answer: legal by the referee, and as good as the stored optimum (proved by the oracle)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

__all__ = ["judge", "score"]


def score(position, objective: str, played: Sequence) -> int:
    return len(played) if objective == "tiles" else position.rules.rack_value(played)


def judge(position, objective: str, optimum: int | None, moved: bool, played, table) -> tuple[str, str]:
    """``(outcome, detail)``: outcome is ``optimal``, ``suboptimal``, ``illegal`` or ``beats_oracle``."""
    from rummisolve import verify
    from rummisolve.tiles import parse_tiles

    if not moved:
        return ("optimal", "") if optimum is None else ("suboptimal", f"no move; optimum {optimum}")
    played = parse_tiles(played)
    verdict = verify(position, table)
    if not verdict.legal:
        return "illegal", "; ".join(f"{r.code}: {r.message}" for r in verdict.reasons)[:300]
    if Counter(verdict.played) != Counter(played):
        return "illegal", "claimed played tiles differ from the referee's"
    got = score(position, objective, played)
    if optimum is None or got > optimum:
        return "beats_oracle", f"{got} > stored optimum {optimum}"
    if got < optimum:
        return "suboptimal", f"{got} < optimum {optimum}"
    return "optimal", ""
