"""The web app's saved games: one SQLite file (``rummisolve serve --db PATH``), standard library only.

Each game is a row: its id, when it was made and last changed, whether its current round is
over, a short summary for the list of saved games, and the session itself as JSON
(:meth:`rummisolve.game.session.Session.to_json`). ``version`` goes up by one on every save, so
a worker process holding an older copy in memory knows to reload it. The store is bounded: past
``max_stored`` games, or ``max_live`` games whose round is still running, a new game is refused
with :class:`StoreFull` naming the limit.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

__all__ = ["GameStore", "StoreFull", "default_db_path", "DB_ENV"]

DB_ENV = "RUMMISOLVE_DB"
"""The environment variable that names the database file (``rummisolve serve --db`` sets it)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    finished INTEGER NOT NULL,
    version INTEGER NOT NULL,
    summary TEXT NOT NULL,
    data TEXT NOT NULL
)
"""


def default_db_path() -> str:
    """``$RUMMISOLVE_DB``, else ``$XDG_DATA_HOME/rummisolve/games.sqlite3`` (``~/.local/share`` by default)."""
    named = os.environ.get(DB_ENV)
    if named:
        return named
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "rummisolve" / "games.sqlite3")


class StoreFull(Exception):
    """A new game past one of the store's limits; the message names it."""


class GameStore:
    """Saved games in SQLite; safe to share between threads (one connection behind a lock)."""

    def __init__(self, path: str, *, max_live: int, max_stored: int) -> None:
        self.path = path
        self.max_live = max_live
        self.max_stored = max_stored
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10)
        if path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def counts(self) -> dict[str, int]:
        """Games stored, and those whose round is still running."""
        with self._lock:
            stored, live = self._db.execute("SELECT COUNT(*), COALESCE(SUM(finished = 0), 0) FROM games").fetchone()
        return {"stored": stored, "live": live}

    def create(self, data: dict[str, Any], summary: dict[str, Any], finished: bool) -> str:
        """Save a new game; its new id. :class:`StoreFull` past a limit."""
        ident = secrets.token_urlsafe(9)
        now = time.time()
        with self._lock:
            stored, live = self._db.execute("SELECT COUNT(*), COALESCE(SUM(finished = 0), 0) FROM games").fetchone()
            if stored >= self.max_stored:
                raise StoreFull(
                    f"this server stores at most {self.max_stored} games (max_stored_games) and has {stored}: "
                    "delete one from the list of saved games, or start it with a larger --max-stored-games"
                )
            if live >= self.max_live:
                raise StoreFull(
                    f"this server runs at most {self.max_live} unfinished games (max_live_games) and has {live}: "
                    "finish or delete one, or start it with a larger --max-live-games"
                )
            self._db.execute(
                "INSERT INTO games (id, created, updated, finished, version, summary, data) VALUES (?, ?, ?, ?, 1, ?, ?)",
                (ident, now, now, int(finished), json.dumps(summary), json.dumps(data)),
            )
        return ident

    def save(self, ident: str, data: dict[str, Any], summary: dict[str, Any], finished: bool) -> int:
        """Overwrite a game; its new version (0 if it is gone)."""
        with self._lock:
            cursor = self._db.execute(
                "UPDATE games SET updated = ?, finished = ?, version = version + 1, summary = ?, data = ? WHERE id = ?",
                (time.time(), int(finished), json.dumps(summary), json.dumps(data), ident),
            )
            if cursor.rowcount == 0:
                return 0
            return self._db.execute("SELECT version FROM games WHERE id = ?", (ident,)).fetchone()[0]

    def load(self, ident: str) -> tuple[int, dict[str, Any]] | None:
        """A game's version and data, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT version, data FROM games WHERE id = ?", (ident,)).fetchone()
        return None if row is None else (row[0], json.loads(row[1]))

    def version(self, ident: str) -> int | None:
        with self._lock:
            row = self._db.execute("SELECT version FROM games WHERE id = ?", (ident,)).fetchone()
        return None if row is None else row[0]

    def delete(self, ident: str) -> bool:
        with self._lock:
            return self._db.execute("DELETE FROM games WHERE id = ?", (ident,)).rowcount > 0

    def listing(self, limit: int = 100) -> list[dict[str, Any]]:
        """The most recently changed games first: id, times, finished and summary."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, created, updated, finished, summary FROM games ORDER BY updated DESC LIMIT ?", (limit,)
            ).fetchall()
        return [{"id": i, "created": c, "updated": u, "finished": bool(f), **json.loads(s)} for i, c, u, f, s in rows]
