"""The game store in PostgreSQL (``rummisolve serve --db postgresql://user@host/db``, the ``postgres``
extra: psycopg 3 and its pool), shared by server processes on one machine or several.

The queries are :class:`~rummisolve.server.store.GameStore`'s own, written once in the SQL both
databases read; :class:`PostgresStore` gives them a PostgreSQL connection from a pool (each
statement committed on its own, as SQLite's) and makes each check-then-write one transaction
under a lock every process takes (``pg_advisory_xact_lock``), so that two processes never both
pass a cap. The same guarantees follow: every write committed before the server answers, saves
refused when made from an older version (:class:`~rummisolve.server.store.StaleGame`), and a
write the database refuses (unreachable, read-only, full) a
:class:`~rummisolve.server.store.StoreUnavailable` that changed nothing.

The schema is made, or brought up to date, at start: ``rummisolve_schema`` holds its version, and
each migration runs once, in one transaction, whichever process starts first. A new version of a
room is told to every process (``NOTIFY rummisolve_rooms``, sent by a trigger when the row's
version changes, so at commit and only then): :meth:`PostgresStore.watch_rooms`. Each process notes
that it is alive (:meth:`PostgresStore.beat`, by the database's clock), so an AI turn leased by a
process of any machine that stopped is taken over after :data:`STALE_BEAT` seconds.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from rummisolve.errors import GameDatabaseError
from rummisolve.server.store import BUSY_TIMEOUT, GameStore, StoreUnavailable, shown

__all__ = ["PostgresStore", "SCHEMA_VERSION", "CHANNEL", "STALE_BEAT", "POOL_SIZE"]

log = logging.getLogger("rummisolve.server")

CHANNEL = "rummisolve_rooms"
"""The channel that tells every process a room's new version (``code version``)."""

STALE_BEAT = 6.0
"""Seconds without a heartbeat after which a process is taken for dead (its AI turns taken over)."""

POOL_SIZE = 10
"""Connections one server process keeps at most (its game and quick threads, the sweeper)."""

_LOCK = 0x72756D6D
"""The advisory lock every check-then-write (and every migration) holds: one at a time, all processes."""

_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 1: the tables of the SQLite store, typed for PostgreSQL
        """CREATE TABLE games (
    id TEXT PRIMARY KEY,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    finished INTEGER NOT NULL,
    version INTEGER NOT NULL,
    summary TEXT NOT NULL,
    data TEXT NOT NULL,
    owner TEXT,
    client TEXT
)""",
        "CREATE TABLE owners (hash TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL)",
        "CREATE INDEX games_by_owner ON games (owner, updated)",
        "CREATE INDEX games_by_client ON games (client, finished)",
        """CREATE TABLE rooms (
    code TEXT PRIMARY KEY,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL,
    version INTEGER NOT NULL,
    due DOUBLE PRECISION,
    seen DOUBLE PRECISION,
    data TEXT NOT NULL,
    client TEXT
)""",
        "CREATE INDEX rooms_by_due ON rooms (due)",
        "CREATE INDEX rooms_by_client ON rooms (client, status)",
        "CREATE TABLE room_leases (code TEXT PRIMARY KEY, holder TEXT NOT NULL, until DOUBLE PRECISION NOT NULL)",
        "CREATE TABLE task_leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, until DOUBLE PRECISION NOT NULL)",
        "CREATE TABLE processes (holder TEXT PRIMARY KEY, beat DOUBLE PRECISION NOT NULL)",
        f"""CREATE FUNCTION rummisolve_room_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{CHANNEL}', NEW.code || ' ' || NEW.version);
    RETURN NULL;
END $$""",
        "CREATE TRIGGER rooms_changed AFTER INSERT OR UPDATE OF version ON rooms "
        "FOR EACH ROW EXECUTE FUNCTION rummisolve_room_changed()",
    ),
)
"""Each version's statements, in order: a database at version ``n`` runs those after the ``n``-th."""

SCHEMA_VERSION = len(_MIGRATIONS)
"""The schema version this code reads and writes."""

_CLOCK = "EXTRACT(EPOCH FROM clock_timestamp())"
"""The database's clock, in seconds: heartbeats are judged by one clock whichever machine sent them."""


@functools.lru_cache(maxsize=256)
def _dialect(sql: str, named: bool) -> str:
    """A shared query with PostgreSQL's placeholders: ``?`` becomes ``%s``, ``:name`` ``%(name)s``."""
    if named:
        return re.sub(r"(?<![:\w]):(\w+)", r"%(\1)s", sql)
    return sql.replace("?", "%s")


class _Connection:
    """A pooled connection that runs the store's shared queries (SQLite's placeholders)."""

    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, args: Any = ()) -> psycopg.Cursor:
        return self.conn.execute(_dialect(sql, isinstance(args, dict)), args)


class PostgresStore(GameStore):
    """Saved games and rooms in PostgreSQL (see the module's docstring): safe to share between threads
    (a pool of connections) and between processes on any machine."""

    def __init__(
        self,
        url: str,
        *,
        max_live: int,
        max_stored: int,
        busy_timeout: float = BUSY_TIMEOUT,
        pool_size: int = POOL_SIZE,
    ) -> None:
        self.path = url
        self.max_live = max_live
        self.max_stored = max_stored
        self.busy_timeout = busy_timeout
        self._closed = threading.Event()
        self._listeners: list[Callable[[str | None, int], object]] = []
        self._listening: threading.Thread | None = None
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=pool_size,
            kwargs={"autocommit": True, "connect_timeout": max(1, round(busy_timeout * 5))},
            timeout=busy_timeout * 5,
            open=False,
            name="rummisolve",
        )
        try:
            self._migrate()  # on a connection of its own first: a database it cannot use is named at once
            self._pool.open(wait=True, timeout=busy_timeout * 5)
        except psycopg.Error as err:
            self._pool.close()
            raise GameDatabaseError(
                f"--db {shown(url)}: cannot use the PostgreSQL database ({_first_line(err)})"
            ) from None
        except GameDatabaseError:
            self._pool.close()
            raise

    # -- schema -----------------------------------------------------------------------------------

    def _migrate(self) -> None:
        """Make the tables, or run the migrations the database has not had; one process at a time."""
        timeout = max(1, round(self.busy_timeout * 5))
        with psycopg.connect(self.path, autocommit=True, connect_timeout=timeout) as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS rummisolve_schema (version INTEGER NOT NULL)")
            row = conn.execute("SELECT MAX(version) FROM rummisolve_schema").fetchone()
            version = 0 if row is None or row[0] is None else int(row[0])
            if version > SCHEMA_VERSION:
                raise GameDatabaseError(
                    f"--db {shown(self.path)}: the database's schema is version {version}, made by a newer "
                    f"rummisolve (this one reads version {SCHEMA_VERSION}): upgrade rummisolve"
                )
            if version == 0:
                other = conn.execute(
                    "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() "
                    "AND table_name IN ('games', 'rooms', 'owners')"
                ).fetchone()
                if other is not None:
                    raise GameDatabaseError(
                        f"--db {shown(self.path)}: not a rummisolve game database (it has tables named as "
                        "rummisolve's, but no rummisolve_schema): use a database of its own"
                    )
            for number in range(version, SCHEMA_VERSION):
                for statement in _MIGRATIONS[number]:
                    conn.execute(statement)  # no arguments: nothing in it is read as a placeholder
            if version < SCHEMA_VERSION:
                conn.execute("DELETE FROM rummisolve_schema")
                conn.execute("INSERT INTO rummisolve_schema (version) VALUES (%s)", (SCHEMA_VERSION,))
                log.info("game store: PostgreSQL schema brought from version %d to %d", version, SCHEMA_VERSION)

    # -- connections ------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _db(self) -> Iterator[Any]:
        """A pooled connection; the database's refusals become :class:`StoreUnavailable`."""
        try:
            with self._pool.connection() as conn:
                yield _Connection(conn)
        except psycopg.Error as err:
            raise StoreUnavailable(f"the game database refused the request: {_first_line(err)}") from None

    @contextlib.contextmanager
    def _transaction(self, db: Any) -> Iterator[None]:
        """One transaction holding the lock every check-then-write takes, in every process."""
        with db.conn.transaction():
            db.conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
            yield

    def close(self) -> None:
        self._closed.set()
        listening = self._listening
        if listening is not None and listening is not threading.current_thread():
            listening.join(timeout=5)
        self._pool.close()

    # -- processes --------------------------------------------------------------------------------

    def beat(self, holder: str) -> None:
        with self._db() as db:
            db.conn.execute(
                f"INSERT INTO processes (holder, beat) VALUES (%s, {_CLOCK}) "
                "ON CONFLICT (holder) DO UPDATE SET beat = excluded.beat",
                (holder,),
            )

    def take_over_leases(self, now: float, dead: Callable[[str], bool]) -> list[str]:
        """As :meth:`GameStore.take_over_leases`, a holder also dead when its last heartbeat is older
        than :data:`STALE_BEAT` seconds (a process of another machine), and the heartbeats of
        processes long gone forgotten."""
        with self._db() as db:
            rows = db.conn.execute(
                f"SELECT holder, {_CLOCK} - beat FROM processes WHERE holder IN (SELECT holder FROM room_leases)"
            ).fetchall()
            db.conn.execute(f"DELETE FROM processes WHERE beat < {_CLOCK} - 86400")
        quiet = {holder: float(age) for holder, age in rows}
        return super().take_over_leases(now, lambda h: dead(h) or quiet.get(h, STALE_BEAT) >= STALE_BEAT)

    # -- pushes -----------------------------------------------------------------------------------

    def watch_rooms(self, changed: Callable[[str | None, int], object]) -> bool:
        self._listeners.append(changed)
        if self._listening is None:
            self._listening = threading.Thread(target=self._listen, name="rummisolve-listen", daemon=True)
            self._listening.start()
        return True

    def _listen(self) -> None:
        """Hand each room's new version to the listeners; after a connection lost, connect again and
        tell them some may have been missed."""
        failures = 0
        while not self._closed.is_set():
            try:
                with psycopg.connect(self.path, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    failures = 0
                    self._tell(None, 0)
                    while not self._closed.is_set():
                        for note in conn.notifies(timeout=0.5):
                            code, _, version = note.payload.partition(" ")
                            self._tell(code, int(version))
            except psycopg.Error as err:
                failures += 1
                if failures == 1:
                    log.warning("game store: listening for other processes' changes failed (%s)", _first_line(err))
                self._closed.wait(min(5.0, 0.5 * failures))

    def _tell(self, code: str | None, version: int) -> None:
        for listener in list(self._listeners):
            try:
                listener(code, version)
            except Exception:  # a listener's bug must not stop the others' pushes
                log.exception("game store: a listener of room changes failed")


def _first_line(err: BaseException) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0]
