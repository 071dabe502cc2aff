"""Server limits, read from ``RUMMISOLVE_*`` environment variables (so every worker process agrees)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

__all__ = ["Settings", "ENV_PREFIX"]

ENV_PREFIX = "RUMMISOLVE_"


@dataclass(frozen=True)
class Settings:
    """Limits the service enforces on every request."""

    max_body_bytes: int = 256 * 1024
    """Largest request body accepted; larger ones get 413 before the rest is read."""
    max_time_limit: float = 10.0
    """Server-side cap on one solve, in seconds; a request's ``time_limit`` is clamped to it."""
    absurd_time_limit: float = 86_400.0
    """A ``time_limit`` above this is rejected as absurd (400) rather than clamped."""
    solver_threads: int = 4
    """Solves running at once in one worker process (the others queue)."""
    max_verify_steps: int = 20_000
    """Search steps one /verify may take: up to about 1 s of CPU on the development machine.
    Real turns take a handful; crafted ones with dozens of tiles or jokers under
    ``open_then_manipulate`` or strict joker retrieval could otherwise take many seconds."""

    def __post_init__(self) -> None:
        if isinstance(self.max_body_bytes, bool) or not isinstance(self.max_body_bytes, int):
            raise ValueError(f"max_body_bytes must be an integer, not {self.max_body_bytes!r}")
        if not 1024 <= self.max_body_bytes <= 64 * 1024 * 1024:
            raise ValueError(f"max_body_bytes must be between 1 KiB and 64 MiB, not {self.max_body_bytes}")
        if not (math.isfinite(self.max_time_limit) and 0 < self.max_time_limit <= self.absurd_time_limit):
            raise ValueError(f"max_time_limit must be a positive number of seconds, not {self.max_time_limit!r}")
        if isinstance(self.solver_threads, bool) or not isinstance(self.solver_threads, int):
            raise ValueError(f"solver_threads must be an integer, not {self.solver_threads!r}")
        if not 1 <= self.solver_threads <= 256:
            raise ValueError(f"solver_threads must be between 1 and 256, not {self.solver_threads}")
        if isinstance(self.max_verify_steps, bool) or not isinstance(self.max_verify_steps, int):
            raise ValueError(f"max_verify_steps must be an integer, not {self.max_verify_steps!r}")
        if not 1 <= self.max_verify_steps <= 10**9:
            raise ValueError(f"max_verify_steps must be between 1 and 10**9, not {self.max_verify_steps}")

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        """Defaults overridden by ``RUMMISOLVE_MAX_BODY_BYTES``, ``RUMMISOLVE_MAX_TIME_LIMIT``,
        ``RUMMISOLVE_SOLVER_THREADS``, ``RUMMISOLVE_MAX_VERIFY_STEPS``."""
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for name, kind in (
            ("max_body_bytes", int),
            ("max_time_limit", float),
            ("solver_threads", int),
            ("max_verify_steps", int),
        ):
            raw = env.get(ENV_PREFIX + name.upper())
            if raw is None or raw == "":
                continue
            try:
                values[name] = kind(raw)
            except ValueError:
                raise ValueError(f"{ENV_PREFIX}{name.upper()}: expected {kind.__name__}, got {raw!r}") from None
        return cls(**values)

    def to_env(self) -> dict[str, str]:
        """The environment variables that reproduce these settings in another process."""
        return {
            ENV_PREFIX + "MAX_BODY_BYTES": str(self.max_body_bytes),
            ENV_PREFIX + "MAX_TIME_LIMIT": repr(self.max_time_limit),
            ENV_PREFIX + "SOLVER_THREADS": str(self.solver_threads),
            ENV_PREFIX + "MAX_VERIFY_STEPS": str(self.max_verify_steps),
        }
