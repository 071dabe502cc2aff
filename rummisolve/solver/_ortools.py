"""Check that the installed OR-Tools has the CP-SAT API the solver is written against."""

from __future__ import annotations

MINIMUM = (9, 15)
"""The solver writes models straight into ``cp_model_helper.CpModelProto`` (OR-Tools 9.15+)."""


def require_ortools() -> None:
    """Raise :class:`ImportError` naming the installed and the needed version if OR-Tools is too old."""
    import ortools

    version = getattr(ortools, "__version__", "0")
    try:
        found = tuple(int(part) for part in version.split(".")[:2])
    except ValueError:
        found = (0, 0)
    if found < MINIMUM:
        needed = ".".join(map(str, MINIMUM))
        raise ImportError(
            f"rummisolve's solver needs OR-Tools >= {needed}, but {version} is installed; "
            f"upgrade with: pip install 'ortools>={needed},<10'"
        )
