"""Which game store ``--db`` names: :func:`open_store` (a SQLite file, else a PostgreSQL URL, whose
store is imported only then)."""

from __future__ import annotations

from rummisolve.errors import GameDatabaseError
from rummisolve.server.store import GameStore, is_postgres, shown

__all__ = ["open_store"]


def open_store(db: str, *, max_live: int, max_stored: int) -> GameStore:
    """The store ``--db`` names: a SQLite file (or ``:memory:``), or a PostgreSQL URL (the
    ``postgres`` extra; :class:`GameDatabaseError` if it is not installed or cannot be reached)."""
    if not is_postgres(db):
        return GameStore(db, max_live=max_live, max_stored=max_stored)
    try:
        from rummisolve.server.store_postgres import PostgresStore
    except ImportError as err:
        raise GameDatabaseError(
            f"--db {shown(db)}: PostgreSQL needs the 'postgres' extra ({err.name} is missing): "
            "pip install 'rummisolve[postgres]'"
        ) from None
    return PostgresStore(db, max_live=max_live, max_stored=max_stored)
