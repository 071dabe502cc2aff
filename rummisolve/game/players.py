"""The built-in players by name: the AI levels and the human at the terminal."""

from __future__ import annotations

from rummisolve.errors import UnknownPlayerError
from rummisolve.game.actions import Player

__all__ = ["AI_LEVELS", "PLAYER_KINDS", "make_player"]

AI_LEVELS = ("easy", "medium", "hard", "expert")
"""The AI players, weakest first."""
PLAYER_KINDS = (*AI_LEVELS, "human")
"""Every built-in player kind."""


def make_player(kind: str, seed: int | None = None, think: float | None = None, clock: bool | None = None) -> Player:
    """A built-in player: ``easy``, ``medium``, ``hard``, ``expert`` or ``human`` (``seed`` fixes any
    randomness; ``think``: the expert's budget per move in seconds, default 0.5; ``clock``: whether
    the expert's moves are clocked, default yes, ``False`` for a counted budget)."""
    key = kind.strip().lower() if isinstance(kind, str) else kind
    if key == "easy":
        from rummisolve.game.ai.easy import EasyPlayer

        return EasyPlayer()
    if key == "medium":
        from rummisolve.game.ai.medium import MediumPlayer

        return MediumPlayer()
    if key == "hard":
        from rummisolve.game.ai.hard import HardPlayer

        return HardPlayer(seed=seed)
    if key == "expert":
        from rummisolve.game.ai.expert import DEFAULT_THINK, ExpertPlayer

        return ExpertPlayer(seed=seed, think=DEFAULT_THINK if think is None else think, clock=clock)
    if key == "human":
        from rummisolve.game.terminal.human import HumanPlayer

        return HumanPlayer()
    raise UnknownPlayerError(f"unknown player {kind!r} (known: {', '.join(PLAYER_KINDS)})")
