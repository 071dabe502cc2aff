"""The store's upkeep, mixed into :class:`rummisolve.server.store.GameStore`: retention (what is
over and left alone is deleted, owners with no game left too), what the processes sharing the
store coordinate by (an AI's turn leased by one process, those of a process that died taken over,
the chores claimed by one, rooms' changes told), and the helpers the store shares (a transaction,
a file's identity)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

__all__ = ["Upkeep", "transaction", "file_identity"]


class Upkeep:
    """Retention, leases and the processes' coordination over the store's connection (``_db``)."""

    _db: Callable[[], AbstractContextManager[sqlite3.Connection]]
    _transaction: Callable[[sqlite3.Connection], AbstractContextManager[None]]

    def lease_room(
        self, code: str, version: int, until: float, holder: str | None = None, *, now: float | None = None
    ) -> bool:
        """Put off version ``version`` of a room's due time to ``until`` (a process takes its AI's
        turn: the others leave it alone until then), under the name of process ``holder``; whether
        the room is still at that version. With ``now``, only a room due by then is leased: of two
        processes looking at one turn, one takes it (the other finds it leased)."""
        query = "UPDATE rooms SET due = ? WHERE code = ? AND version = ?"
        args: tuple[Any, ...] = (until, code, version)
        if now is not None:
            query, args = f"{query} AND due IS NOT NULL AND due <= ?", (*args, now)
        with self._db() as db, self._transaction(db):
            cursor = db.execute(query, args)
            if cursor.rowcount == 1 and holder is not None:
                db.execute(
                    "INSERT INTO room_leases (code, holder, until) VALUES (?, ?, ?) "
                    "ON CONFLICT (code) DO UPDATE SET holder = excluded.holder, until = excluded.until",
                    (code, holder, until),
                )
        return cursor.rowcount == 1

    def watch_rooms(self, changed: Callable[[str | None, int], object]) -> bool:
        """Call ``changed(code, version)`` (from another thread) for every new version of a room saved
        by any process, and ``changed(None, 0)`` when some may have been missed; whether this store
        tells (SQLite does not: the hub looks at the versions of the rooms it serves instead)."""
        return False

    def beat(self, holder: str) -> None:
        """Note that process ``holder`` is alive (a store shared by machines judges leases by it)."""

    def take_over_leases(self, now: float, dead: Callable[[str], bool]) -> list[str]:
        """Make due at ``now`` the rooms whose AI turn a process that is ``dead`` leased (it died
        thinking); their codes. Leases of turns since taken are forgotten. (Read first: the write
        lock is taken only when there is something to change.)"""
        with self._db() as db:
            if db.execute(f"SELECT COUNT(*) FROM ({_LEASES}) AS leases").fetchone()[0] == 0:
                return []
            with self._transaction(db):
                resumed, spent = [], []
                for code, holder, until, due in db.execute(_LEASES).fetchall():
                    if due != until:  # the turn was played, or the room is gone
                        spent.append(code)
                    elif dead(holder):
                        db.execute("UPDATE rooms SET due = ? WHERE code = ? AND due = ?", (now, code, until))
                        resumed.append(code)
                for code in spent + resumed:
                    db.execute("DELETE FROM room_leases WHERE code = ?", (code,))
        return resumed

    def claim_task(self, name: str, holder: str, now: float, until: float) -> bool:
        """Whether process ``holder`` may do task ``name`` (the sweeper's chores) now: no other
        process claimed it until a time after ``now``. Claimed until ``until``: of several processes
        sharing the store, one does it."""
        with self._db() as db:
            cursor = db.execute(
                "INSERT INTO task_leases (name, holder, until) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE "
                "SET holder = excluded.holder, until = excluded.until WHERE task_leases.until <= ? "
                "OR task_leases.holder = excluded.holder",
                (name, holder, until, now),
            )
            return cursor.rowcount == 1

    def purge(self, *, rooms_before: float, games_before: float, limit: int = 500) -> dict[str, int]:
        """Delete (at most ``limit`` of each at a time) the rooms over or archived that nobody
        changed or watched since ``rooms_before``, the games nobody played since ``games_before``
        (finished or abandoned), and the owners made before it who have no game left; how many of
        each. (Read first: the write lock is taken only when there is something to delete.)"""
        args = {"rooms_before": rooms_before, "games_before": games_before, "limit": limit}
        with self._db() as db:
            if not any(db.execute(f"SELECT EXISTS ({query})", args).fetchone()[0] for query in _PAST.values()):
                return dict.fromkeys(_PAST, 0)
            with self._transaction(db):
                gone = {}
                for name, query in _PAST.items():
                    key = {"rooms": "code", "games": "id", "owners": "hash"}[name]
                    gone[name] = db.execute(f"DELETE FROM {name} WHERE {key} IN ({query})", args).rowcount
                db.execute("DELETE FROM room_leases WHERE code NOT IN (SELECT code FROM rooms)")
        return gone


_LEASES = "SELECT l.code, l.holder, l.until, r.due FROM room_leases l LEFT JOIN rooms r ON r.code = l.code"

_PAST = {
    "rooms": "SELECT code FROM rooms WHERE status IN ('over', 'archived') AND updated < :rooms_before "
    "AND COALESCE(seen, 0) < :rooms_before LIMIT :limit",
    "games": "SELECT id FROM games WHERE updated < :games_before LIMIT :limit",
    "owners": "SELECT hash FROM owners WHERE created < :games_before AND NOT EXISTS "
    "(SELECT 1 FROM games WHERE games.owner = owners.hash) LIMIT :limit",
}
"""What retention deletes, each its table's keys (games before owners: an owner goes with its last game)."""


def file_identity(path: str) -> tuple[int, int] | None:
    """The file at ``path`` (device, inode), ``None`` if there is none."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


@contextlib.contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``: a check and the write it allows, atomic across processes."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
