"""The web app's saved games and game rooms: one SQLite file (``rummisolve serve --db PATH``), standard library only.

Each game is a row: its id, its owner, when it was made and last changed, whether its current
round is over, a short summary for the owner's list of games, and the session itself as JSON
(:meth:`rummisolve.server.session.Session.to_json`). Owners are the clients that made games: each
has a random secret token (:func:`secrets.token_urlsafe`), stored only as its SHA-256 hash, and
every read, change and delete names the owner, so another client's game is simply not there.

``version`` goes up by one on every save, and a save names the version it changes: a write
made from an older copy (another worker process saved first) is refused with :class:`StaleGame`,
never silently applied. Each thread has its own connection, so a write waiting on a lock
(``busy_timeout``) holds up no other game; a write the database refuses (locked by another
process, read-only, full) raises :class:`StoreUnavailable` and changes nothing. A row that cannot
be decoded is that one game's :class:`DamagedGame`, and the list skips it. Opening checks the file
(``PRAGMA integrity_check``, the table's columns) and names what is wrong in one line
(:class:`~rummisolve.errors.GameDatabaseError`). The store is bounded: past ``max_stored`` games,
or ``max_live`` games whose round is still running, a new game is refused with :class:`StoreFull`.

Game rooms (:mod:`rummisolve.server.rooms`) have a table of their own: a row per room, by its
code, with its status, version and ``due`` (when the server must act on it unasked: a turn
timer's deadline, or now for an AI seat's turn), so a restarted server finds what is due with
one query. They follow the same rules: versioned saves (:class:`StaleGame`), the same refusals,
and a cap on rooms (:class:`StoreFull`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rummisolve.errors import GameDatabaseError

__all__ = [
    "GameStore",
    "StoreFull",
    "StoreUnavailable",
    "StaleGame",
    "DamagedGame",
    "RoomRow",
    "default_db_path",
    "hash_token",
    "DB_ENV",
]

DB_ENV = "RUMMISOLVE_DB"
"""The environment variable that names the database file (``rummisolve serve --db`` sets it)."""

BUSY_TIMEOUT = 2.0
"""Seconds a write waits for a lock held by another connection or process before it is refused."""

_COLUMNS = ("id", "owner", "created", "updated", "finished", "version", "summary", "data")

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    finished INTEGER NOT NULL,
    version INTEGER NOT NULL,
    summary TEXT NOT NULL,
    data TEXT NOT NULL,
    owner TEXT
)""",
    "CREATE TABLE IF NOT EXISTS owners (hash TEXT PRIMARY KEY, created REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS games_by_owner ON games (owner, updated)",
    """CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    status TEXT NOT NULL,
    version INTEGER NOT NULL,
    due REAL,
    seen REAL,
    data TEXT NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS rooms_by_due ON rooms (due)",
)


def default_db_path() -> str:
    """``$RUMMISOLVE_DB``, else ``$XDG_DATA_HOME/rummisolve/games.sqlite3`` (``~/.local/share`` by default)."""
    named = os.environ.get(DB_ENV)
    if named:
        return named
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "rummisolve" / "games.sqlite3")


def hash_token(token: str) -> str:
    """What the store keeps of a token: its SHA-256, hex (tokens are random, so no salt is needed)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class StoreFull(Exception):
    """A new game past one of the store's limits; the message names it."""


class StoreUnavailable(Exception):
    """The database refused a read or write (locked, read-only, full, an I/O error); nothing changed."""


class StaleGame(Exception):
    """A save made from an older copy of the game: someone else saved it first; nothing changed."""


class DamagedGame(Exception):
    """A stored game that cannot be decoded; the message names it."""


RoomRow = tuple[int, dict[str, Any]]
"""A stored room: its version and its data."""


class GameStore:
    """Saved games in SQLite, safe to share between threads: each thread has its own connection
    (``:memory:``: one shared connection behind a lock, for tests and throw-away servers)."""

    def __init__(self, path: str, *, max_live: int, max_stored: int, busy_timeout: float = BUSY_TIMEOUT) -> None:
        self.path = path
        self.max_live = max_live
        self.max_stored = max_stored
        self.busy_timeout = busy_timeout
        self._memory = path == ":memory:"
        self._local = threading.local()
        self._lock = threading.Lock()  # guards _connections (and, in memory, the one connection)
        self._connections: list[sqlite3.Connection] = []
        if not self._memory:
            where = Path(path)
            if where.is_dir():
                raise GameDatabaseError(f"--db {path}: is a directory, not a database file")
            try:
                where.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise GameDatabaseError(f"--db {path}: cannot create its folder: {err.strerror}") from None
        self._open()

    # -- connections ------------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=self.busy_timeout)
        self._connections.append(db)
        return db

    def _open(self) -> None:
        """Open the file, check it and bring its tables up to date; :class:`GameDatabaseError` if it is not usable."""
        try:
            with self._lock:
                db = self._connect()
            if self._memory:
                self._shared = db
            else:
                self._local.db = db
            # The first read is where SQLite finds out that a file is not a database.
            check = db.execute("PRAGMA integrity_check").fetchall()
            if check != [("ok",)]:
                problem = "; ".join(str(row[0]) for row in check[:3])
                raise GameDatabaseError(f"--db {self.path}: the database is damaged ({problem})")
            if not self._memory:
                db.execute("PRAGMA journal_mode=WAL")
            columns = [row[1] for row in db.execute("PRAGMA table_info(games)")]
            if columns and "owner" not in columns:  # a file from before owners: its games keep no owner
                db.execute("ALTER TABLE games ADD COLUMN owner TEXT")
                columns.append("owner")
            missing = [c for c in _COLUMNS if c not in columns]
            if columns and missing:
                raise GameDatabaseError(
                    f"--db {self.path}: not a rummisolve game database (its table 'games' lacks {', '.join(missing)})"
                )
            for statement in _SCHEMA:
                db.execute(statement)
        except sqlite3.DatabaseError as err:
            self.close()
            raise GameDatabaseError(f"--db {self.path}: not a usable SQLite database ({err})") from None
        except GameDatabaseError:
            self.close()
            raise

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection; SQLite's refusals become :class:`StoreUnavailable`."""
        try:
            if self._memory:
                with self._lock:
                    yield self._shared
            else:
                db = getattr(self._local, "db", None)
                if db is None:
                    with self._lock:
                        db = self._local.db = self._connect()
                yield db
        except sqlite3.DatabaseError as err:
            raise StoreUnavailable(f"the game database refused the request: {err}") from None

    def close(self) -> None:
        with self._lock:
            for db in self._connections:
                with contextlib.suppress(sqlite3.Error):
                    db.close()
            self._connections.clear()

    # -- owners -----------------------------------------------------------------------------------

    def new_owner(self) -> str:
        """A new owner's secret token (the store keeps only its hash)."""
        token = secrets.token_urlsafe(32)
        with self._db() as db:
            db.execute("INSERT INTO owners (hash, created) VALUES (?, ?)", (hash_token(token), time.time()))
        return token

    def owner_of(self, token: str | None) -> str | None:
        """The owner a token proves (its hash), or ``None`` for a missing or unknown token."""
        if not token:
            return None
        digest = hash_token(token)
        with self._db() as db:
            row = db.execute("SELECT 1 FROM owners WHERE hash = ?", (digest,)).fetchone()
        return None if row is None else digest

    # -- games ------------------------------------------------------------------------------------

    def counts(self, owner: str | None = None) -> dict[str, int]:
        """Games stored, and those whose round is still running: the owner's, or (``None``) all."""
        where, args = ("WHERE owner = ?", (owner,)) if owner is not None else ("", ())
        with self._db() as db:
            stored, live = db.execute(
                f"SELECT COUNT(*), COALESCE(SUM(finished = 0), 0) FROM games {where}", args
            ).fetchone()
        return {"stored": stored, "live": live}

    def create(self, data: dict[str, Any], summary: dict[str, Any], finished: bool, owner: str) -> str:
        """Save a new game of ``owner``; its new id. :class:`StoreFull` past a limit."""
        ident = secrets.token_urlsafe(9)
        now = time.time()
        text, summary_text = json.dumps(data), json.dumps(summary)
        with self._db() as db, _transaction(db):
            stored, live = db.execute("SELECT COUNT(*), COALESCE(SUM(finished = 0), 0) FROM games").fetchone()
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
            db.execute(
                "INSERT INTO games (id, owner, created, updated, finished, version, summary, data) "
                "VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                (ident, owner, now, now, int(finished), summary_text, text),
            )
        return ident

    def save(self, ident: str, data: dict[str, Any], summary: dict[str, Any], finished: bool, *, expected: int) -> int:
        """Overwrite version ``expected`` of a game; its new version. :class:`StaleGame` if the stored
        version is another, 0 if the game is gone."""
        text, summary_text = json.dumps(data), json.dumps(summary)
        with self._db() as db:
            cursor = db.execute(
                "UPDATE games SET updated = ?, finished = ?, version = version + 1, summary = ?, data = ? "
                "WHERE id = ? AND version = ?",
                (time.time(), int(finished), summary_text, text, ident, expected),
            )
            if cursor.rowcount == 1:
                return expected + 1
            row = db.execute("SELECT version FROM games WHERE id = ?", (ident,)).fetchone()
        if row is None:
            return 0
        raise StaleGame(f"game {ident!r} was changed by another request (version {row[0]}, not {expected})")

    def load(self, ident: str, owner: str | None) -> tuple[int, dict[str, Any]] | None:
        """A game's version and data if ``owner`` owns it, else ``None``; :class:`DamagedGame` for a bad row."""
        with self._db() as db:
            row = db.execute("SELECT version, data FROM games WHERE id = ? AND owner = ?", (ident, owner)).fetchone()
        if row is None:
            return None
        try:
            data = json.loads(row[1])
        except (TypeError, ValueError) as err:
            raise DamagedGame(f"saved game {ident!r} is damaged and cannot be loaded ({err})") from None
        if not isinstance(row[0], int) or not isinstance(data, dict):
            raise DamagedGame(f"saved game {ident!r} is damaged and cannot be loaded (not a saved session)")
        return row[0], data

    def version(self, ident: str, owner: str | None) -> int | None:
        """A game's version if ``owner`` owns it, else ``None``."""
        with self._db() as db:
            row = db.execute("SELECT version FROM games WHERE id = ? AND owner = ?", (ident, owner)).fetchone()
        return None if row is None else row[0]

    def delete(self, ident: str, owner: str | None) -> bool:
        with self._db() as db:
            return db.execute("DELETE FROM games WHERE id = ? AND owner = ?", (ident, owner)).rowcount > 0

    def listing(self, owner: str | None, limit: int = 100) -> tuple[list[dict[str, Any]], list[str]]:
        """The owner's most recently changed games first (id, times, finished and summary), and the
        ids of those whose row cannot be read (skipped)."""
        with self._db() as db:
            rows = db.execute(
                "SELECT id, created, updated, finished, summary FROM games WHERE owner = ? "
                "ORDER BY updated DESC LIMIT ?",
                (owner, limit),
            ).fetchall()
        games, damaged = [], []
        for ident, created, updated, finished, summary in rows:
            try:
                fields = json.loads(summary)
                if not isinstance(fields, dict):
                    raise ValueError("not an object")
                games.append(
                    {
                        **fields,
                        "id": ident,
                        "created": float(created),
                        "updated": float(updated),
                        "finished": bool(finished),
                    }
                )
            except (TypeError, ValueError):
                damaged.append(str(ident))
        return games, damaged

    # -- rooms ------------------------------------------------------------------------------------

    def room_counts(self) -> dict[str, int]:
        """Rooms stored, and those live (neither over nor archived)."""
        with self._db() as db:
            stored, live = db.execute(_ROOM_COUNTS).fetchone()
        return {"stored": stored, "live": live}

    def create_room(
        self,
        code: str,
        data: dict[str, Any],
        status: str,
        due: float | None,
        *,
        max_live: int,
        max_stored: int,
        now: float | None = None,
    ) -> bool:
        """Save a new room as version 1 (at time ``now``, default the clock's); ``False`` if ``code``
        is taken. :class:`StoreFull` past a limit."""
        now = time.time() if now is None else now
        with self._db() as db, _transaction(db):
            stored, live = db.execute(_ROOM_COUNTS).fetchone()
            if stored >= max_stored:
                raise StoreFull(
                    f"this server keeps at most {max_stored} game rooms (max_stored_rooms) and has {stored}: "
                    "try again later, or start it with a larger --max-stored-rooms"
                )
            if live >= max_live:
                raise StoreFull(
                    f"this server runs at most {max_live} game rooms at once (max_live_rooms) and has {live}: "
                    "try again once a game is over, or start it with a larger --max-live-rooms"
                )
            if db.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone() is not None:
                return False
            db.execute(
                "INSERT INTO rooms (code, created, updated, status, version, due, data) VALUES (?, ?, ?, ?, 1, ?, ?)",
                (code, now, now, status, due, json.dumps(data)),
            )
        return True

    def save_room(
        self,
        code: str,
        data: dict[str, Any],
        status: str,
        due: float | None,
        *,
        expected: int,
        now: float | None = None,
    ) -> int:
        """Overwrite version ``expected`` of a room (at time ``now``); its new version.
        :class:`StaleGame` if the stored version is another, 0 if the room is gone."""
        with self._db() as db:
            cursor = db.execute(
                "UPDATE rooms SET updated = ?, status = ?, version = version + 1, due = ?, data = ? "
                "WHERE code = ? AND version = ?",
                (time.time() if now is None else now, status, due, json.dumps(data), code, expected),
            )
            if cursor.rowcount == 1:
                return expected + 1
            row = db.execute("SELECT version FROM rooms WHERE code = ?", (code,)).fetchone()
        if row is None:
            return 0
        raise StaleGame(f"room {code!r} was changed by another request (version {row[0]}, not {expected})")

    def room_version(self, code: str) -> int | None:
        with self._db() as db:
            row = db.execute("SELECT version FROM rooms WHERE code = ?", (code,)).fetchone()
        return None if row is None else row[0]

    def load_room(self, code: str) -> RoomRow | None:
        """A room's version and data, or ``None``; :class:`DamagedGame` for a row that cannot be read."""
        with self._db() as db:
            row = db.execute("SELECT version, data FROM rooms WHERE code = ?", (code,)).fetchone()
        if row is None:
            return None
        try:
            data = json.loads(row[1])
        except (TypeError, ValueError) as err:
            raise DamagedGame(f"room {code!r} is damaged and cannot be loaded ({err})") from None
        if not isinstance(row[0], int) or not isinstance(data, dict):
            raise DamagedGame(f"room {code!r} is damaged and cannot be loaded (not a saved room)")
        return row[0], data

    def lease_room(self, code: str, version: int, until: float) -> bool:
        """Put off version ``version`` of a room's due time to ``until`` (a process takes its AI's
        turn: the others leave it alone until then); whether the room is still at that version."""
        with self._db() as db:
            cursor = db.execute("UPDATE rooms SET due = ? WHERE code = ? AND version = ?", (until, code, version))
        return cursor.rowcount == 1

    def rooms_due(self, now: float, limit: int = 100) -> list[str]:
        """The codes of rooms the server must act on by ``now`` (a timer run out, an AI seat to move)."""
        with self._db() as db:
            rows = db.execute(
                "SELECT code FROM rooms WHERE due IS NOT NULL AND due <= ? ORDER BY due LIMIT ?", (now, limit)
            ).fetchall()
        return [row[0] for row in rows]

    def touch_rooms(self, codes: list[str], now: float) -> None:
        """Note that someone watched rooms ``codes`` at ``now`` (an open WebSocket)."""
        if codes:
            with self._db() as db:
                marks = ", ".join("?" * len(codes))
                db.execute(f"UPDATE rooms SET seen = ? WHERE code IN ({marks})", (now, *codes))

    def idle_rooms(self, before: float, limit: int = 100) -> list[str]:
        """Rooms not archived that nobody changed or watched since ``before``."""
        with self._db() as db:
            rows = db.execute(
                "SELECT code FROM rooms WHERE status != 'archived' AND updated < ? AND COALESCE(seen, 0) < ? LIMIT ?",
                (before, before, limit),
            ).fetchall()
        return [row[0] for row in rows]


_ROOM_COUNTS = "SELECT COUNT(*), COALESCE(SUM(status NOT IN ('over', 'archived')), 0) FROM rooms"


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``: a check and the write it allows, atomic across processes."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
