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
and a cap on rooms (:class:`StoreFull`). A room's ``data`` is the room as it is now
(:meth:`rummisolve.server.rooms.Room.to_json`, versioned by its own ``version`` field); a row in an
older form is rewritten in place when it is first loaded (:meth:`GameStore.rewrite_room`).

Each game and room also names its ``client`` (who made it: :func:`rummisolve.server.quotas.client_key`),
so a client's share is capped beside the server's (the checks and the write in one transaction:
a refused request writes nothing, not even its owner). :meth:`GameStore.purge` deletes what is
over and left alone (rooms over or archived, games nobody played) and the owners left with no
game. A room's AI turn taken by a process is leased under that process's name
(:meth:`GameStore.lease_room`), so a new process can take over the turns of one that died
(:meth:`GameStore.take_over_leases`). The file is watched: once replaced or removed under the
running server (``mv``), every request is refused (:class:`StoreUnavailable`) rather than
acknowledged and written to a file nobody will open again.
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
from rummisolve.server.store_upkeep import Upkeep, file_identity
from rummisolve.server.store_upkeep import transaction as _transaction

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
    "is_postgres",
    "shown",
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

_CLIENT_SCHEMA = (
    "CREATE INDEX IF NOT EXISTS games_by_client ON games (client, finished)",
    "CREATE INDEX IF NOT EXISTS rooms_by_client ON rooms (client, status)",
    "CREATE TABLE IF NOT EXISTS room_leases (code TEXT PRIMARY KEY, holder TEXT NOT NULL, until REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS task_leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, until REAL NOT NULL)",
)
"""Added to files of any age, after their tables have a ``client`` column."""


def default_db_path() -> str:
    """``$RUMMISOLVE_DB``, else ``$XDG_DATA_HOME/rummisolve/games.sqlite3`` (``~/.local/share`` by default)."""
    named = os.environ.get(DB_ENV)
    if named:
        return named
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "rummisolve" / "games.sqlite3")


def is_postgres(db: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database (a ``postgresql://`` or ``postgres://`` URL)."""
    return db.startswith(("postgresql://", "postgres://"))


def shown(db: str) -> str:
    """``--db`` as it may be printed: a URL's password hidden."""
    if not is_postgres(db):
        return db
    from urllib.parse import urlsplit

    parts = urlsplit(db)
    if parts.password is None:
        return db
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


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


class GameStore(Upkeep):
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
        self._identity: tuple[int, int] | None = None
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
            for table in ("games", "rooms"):  # who made each (files from before issue 47 lack it)
                if "client" not in [row[1] for row in db.execute(f"PRAGMA table_info({table})")]:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN client TEXT")
            for statement in _CLIENT_SCHEMA:
                db.execute(statement)
            self._identity = None if self._memory else file_identity(self.path)
        except sqlite3.DatabaseError as err:
            self.close()
            raise GameDatabaseError(f"--db {self.path}: not a usable SQLite database ({err})") from None
        except GameDatabaseError:
            self.close()
            raise

    def _check_file(self) -> None:
        """:class:`StoreUnavailable` if the file opened is no longer at its path (replaced or removed)."""
        if self._identity is not None and file_identity(self.path) != self._identity:
            raise StoreUnavailable(
                f"the database file {self.path} was replaced or removed while the server ran: "
                "nothing is written to a file that is gone; restart the server to use the file now there"
            )

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection; SQLite's refusals become :class:`StoreUnavailable`."""
        self._check_file()
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

    def _transaction(self, db: Any) -> contextlib.AbstractContextManager[None]:
        """A check and the write it allows, atomic across processes (``BEGIN IMMEDIATE``)."""
        return _transaction(db)

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

    def owners(self) -> int:
        """How many owners the store keeps."""
        with self._db() as db:
            return db.execute("SELECT COUNT(*) FROM owners").fetchone()[0]

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
            stored, live = db.execute(f"{_GAME_COUNTS} {where}", args).fetchone()
        return {"stored": stored, "live": live}

    def create(
        self,
        data: dict[str, Any],
        summary: dict[str, Any],
        finished: bool,
        owner: str,
        *,
        client: str | None = None,
        max_client_live: int | None = None,
        max_client_stored: int | None = None,
        new_owner: bool = False,
    ) -> str:
        """Save a new game of ``owner`` made by ``client``; its new id. :class:`StoreFull` past a
        limit of the server's or (``max_client_*``) of the client's. ``new_owner``: ``owner`` (a
        token's hash) is new, saved with the game (and only if the game is)."""
        ident = secrets.token_urlsafe(9)
        now = time.time()
        text, summary_text = json.dumps(data), json.dumps(summary)
        with self._db() as db, self._transaction(db):
            if client is not None:
                mine, mine_live = db.execute(f"{_GAME_COUNTS} WHERE client = ?", (client,)).fetchone()
                if max_client_stored is not None and mine >= max_client_stored:
                    raise StoreFull(
                        f"this client keeps {mine} saved games, the most one client may (max_client_stored_games): "
                        "delete one from the list of saved games first"
                    )
                if max_client_live is not None and mine_live >= max_client_live:
                    raise StoreFull(
                        f"this client has {mine_live} unfinished games, the most one client may "
                        "(max_client_live_games): finish or delete one first"
                    )
            stored, live = db.execute(_GAME_COUNTS).fetchone()
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
            if new_owner:
                db.execute("INSERT INTO owners (hash, created) VALUES (?, ?)", (owner, now))
            db.execute(
                "INSERT INTO games (id, owner, created, updated, finished, version, summary, data, client) "
                "VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)",
                (ident, owner, now, now, int(finished), summary_text, text, client),
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
                if "turn" in fields:  # a summary saved before the one game view (issue 48) named it so
                    fields["turn_number"] = fields.pop("turn")
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

    def room_counts(self, client: str | None = None) -> dict[str, int]:
        """Rooms kept (not archived), and those live (neither over nor archived): ``client``'s, or
        (``None``) all."""
        where, args = ("WHERE client = ?", (client,)) if client is not None else ("", ())
        with self._db() as db:
            stored, live = db.execute(f"{_ROOM_COUNTS} {where}", args).fetchone()
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
        client: str | None = None,
        max_client_live: int | None = None,
        max_client_stored: int | None = None,
    ) -> bool:
        """Save a new room made by ``client`` as version 1 (at time ``now``, default the clock's);
        ``False`` if ``code`` is taken. :class:`StoreFull` past a limit of the server's or
        (``max_client_*``) of the client's; archived rooms count against neither."""
        now = time.time() if now is None else now
        with self._db() as db, self._transaction(db):
            if client is not None:
                mine, mine_live = db.execute(f"{_ROOM_COUNTS} WHERE client = ?", (client,)).fetchone()
                if max_client_live is not None and mine_live >= max_client_live:
                    raise StoreFull(
                        f"this client has {mine_live} rooms whose round is not over, the most one client may "
                        "(max_client_live_rooms): play one to its end first"
                    )
                if max_client_stored is not None and mine >= max_client_stored:
                    raise StoreFull(
                        f"this client has {mine} rooms kept, the most one client may (max_client_stored_rooms): "
                        "rooms over are deleted after room_retention_seconds"
                    )
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
                "INSERT INTO rooms (code, created, updated, status, version, due, data, client) "
                "VALUES (?, ?, ?, ?, 1, ?, ?, ?)",
                (code, now, now, status, due, json.dumps(data), client),
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

    def rewrite_room(self, code: str, data: dict[str, Any], *, expected: int) -> bool:
        """Store version ``expected`` of a room in another form (the same room: its version, status,
        due time and times unchanged); whether the room was still at that version."""
        with self._db() as db:
            cursor = db.execute(
                "UPDATE rooms SET data = ? WHERE code = ? AND version = ?", (json.dumps(data), code, expected)
            )
        return cursor.rowcount == 1

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

    def room_versions(self, codes: list[str]) -> dict[str, int]:
        """The stored version of each room of ``codes`` still there."""
        if not codes:
            return {}
        with self._db() as db:
            marks = ", ".join("?" * len(codes))
            rows = db.execute(f"SELECT code, version FROM rooms WHERE code IN ({marks})", tuple(codes)).fetchall()
        return {code: version for code, version in rows}

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


_GAME_COUNTS = "SELECT COUNT(*), COALESCE(SUM(CASE WHEN finished = 0 THEN 1 ELSE 0 END), 0) FROM games"
"""Games stored and games whose round is still running."""

_ROOM_COUNTS = (
    "SELECT COALESCE(SUM(CASE WHEN status != 'archived' THEN 1 ELSE 0 END), 0), "
    "COALESCE(SUM(CASE WHEN status NOT IN ('over', 'archived') THEN 1 ELSE 0 END), 0) FROM rooms"
)
"""Rooms kept (archived ones do not count against the caps) and rooms live."""
