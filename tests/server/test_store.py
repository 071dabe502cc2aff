"""The game store's guarantees, each checked on SQLite and on a real PostgreSQL (a throwaway server the
suite starts: tests/support/postgres.py): versioned saves, caps checked with the write, a refused
write changing nothing, leases taken by one process, and (PostgreSQL) the schema's version and the
changes told to every process."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("fastapi")

from rummisolve.errors import GameDatabaseError  # noqa: E402
from rummisolve.server.store import (  # noqa: E402
    GameStore,
    StaleGame,
    StoreFull,
    StoreUnavailable,
    is_postgres,
    shown,
)
from rummisolve.server.stores import open_store  # noqa: E402


@pytest.fixture(params=["sqlite", "postgres"])
def db(request, tmp_path) -> str:
    """Where a store is opened: a SQLite file, or a new database on the throwaway PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return request.getfixturevalue("postgres_url")


def opened(db: str, **limits: int) -> GameStore:
    return open_store(db, max_live=limits.get("max_live", 100), max_stored=limits.get("max_stored", 100))


@pytest.fixture
def store(db):
    opened_store = opened(db)
    yield opened_store
    opened_store.close()


def test_a_game_saved_is_read_back_and_a_save_from_an_older_copy_changes_nothing(store):
    owner = store.owner_of(store.new_owner())
    ident = store.create({"moves": [1]}, {"title": "one"}, False, owner)
    assert store.load(ident, owner) == (1, {"moves": [1]})
    assert store.save(ident, {"moves": [1, 2]}, {"title": "two"}, True, expected=1) == 2
    with pytest.raises(StaleGame):
        store.save(ident, {"moves": ["stale"]}, {"title": "stale"}, False, expected=1)
    assert store.load(ident, owner) == (2, {"moves": [1, 2]})
    assert store.load(ident, "someone else") is None
    games, damaged = store.listing(owner)
    assert [(g["id"], g["title"], g["finished"]) for g in games] == [(ident, "two", True)] and damaged == []
    assert store.counts() == {"stored": 1, "live": 0}
    assert store.save("no-such-game", {}, {}, False, expected=1) == 0
    assert store.delete(ident, owner) and store.load(ident, owner) is None


def test_a_game_past_a_cap_is_refused_and_writes_nothing_not_even_its_owner(db):
    store = opened(db, max_live=2, max_stored=3)
    try:
        owner = store.owner_of(store.new_owner())
        for _ in range(2):
            store.create({}, {}, False, owner, client="c")
        with pytest.raises(StoreFull, match="max_live_games"):
            store.create({}, {}, False, "new-owner-hash", client="d", new_owner=True)
        assert store.owners() == 1
        with pytest.raises(StoreFull, match="max_client_live_games"):
            store.create({}, {}, False, owner, client="c", max_client_live=2)
        assert store.counts() == {"stored": 2, "live": 2}
    finally:
        store.close()


def test_two_stores_creating_at_once_never_pass_the_cap(db):
    """Two stores (as two server processes would have) race to fill the last places."""
    stores = [opened(db, max_live=1000, max_stored=1000) for _ in range(2)]
    made, refused = [], []

    def fill(store: GameStore, side: int) -> None:
        for number in range(15):
            try:
                store.create_room(f"R{side}{number:04d}", {}, "waiting", None, max_live=20, max_stored=20)
                made.append(1)
            except StoreFull:
                refused.append(1)

    threads = [threading.Thread(target=fill, args=(s, i)) for i, s in enumerate(stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert len(made) == 20 and len(refused) == 10
        assert stores[0].room_counts() == {"stored": 20, "live": 20}
    finally:
        for store in stores:
            store.close()


def test_a_room_is_saved_by_version_and_its_code_taken_once(store):
    assert store.create_room("ABCDEF", {"n": 1}, "waiting", None, max_live=5, max_stored=5, client="c")
    assert not store.create_room("ABCDEF", {"n": 9}, "waiting", None, max_live=5, max_stored=5)
    assert store.load_room("ABCDEF") == (1, {"n": 1})
    assert store.save_room("ABCDEF", {"n": 2}, "playing", 50.0, expected=1) == 2
    with pytest.raises(StaleGame):
        store.save_room("ABCDEF", {"n": "stale"}, "over", None, expected=1)
    assert store.load_room("ABCDEF") == (2, {"n": 2})
    assert store.room_versions(["ABCDEF", "NOSUCH"]) == {"ABCDEF": 2}
    assert store.room_counts("c") == {"stored": 1, "live": 1}
    assert store.rooms_due(49.0) == [] and store.rooms_due(50.0) == ["ABCDEF"]
    assert store.rewrite_room("ABCDEF", {"n": 2, "form": 2}, expected=2)  # another form, the same version
    assert not store.rewrite_room("ABCDEF", {"n": "stale"}, expected=1)
    assert store.load_room("ABCDEF") == (2, {"n": 2, "form": 2})


def test_an_ai_turn_is_leased_by_one_process_and_taken_over_when_it_dies(store):
    store.create_room("ABCDEF", {}, "playing", 10.0, max_live=5, max_stored=5)
    store.beat("host/1/a")  # alive (PostgreSQL judges other machines' processes by their heartbeat)
    assert store.lease_room("ABCDEF", 1, 40.0, "host/1/a", now=10.0)
    assert not store.lease_room("ABCDEF", 1, 41.0, "host/2/b", now=11.0)  # the other process finds it leased
    assert store.rooms_due(39.0) == []
    assert store.take_over_leases(12.0, lambda holder: False) == []
    assert store.take_over_leases(12.0, lambda holder: holder == "host/1/a") == ["ABCDEF"]
    assert store.rooms_due(12.0) == ["ABCDEF"]
    assert store.lease_room("ABCDEF", 1, 42.0, "host/2/b", now=12.0)
    assert not store.lease_room("ABCDEF", 2, 42.0, "host/2/b", now=12.0)  # no such version


def test_the_sweepers_chores_are_claimed_by_one_process_at_a_time(store):
    assert store.claim_task("chores", "a", 0.0, 60.0)
    assert not store.claim_task("chores", "b", 30.0, 90.0)
    assert store.claim_task("chores", "a", 30.0, 90.0)  # its own claim, renewed
    assert store.claim_task("chores", "b", 90.0, 150.0)


def test_retention_deletes_what_is_over_and_left_alone(store):
    owner = store.owner_of(store.new_owner())
    store.create({}, {}, True, owner)
    store.create_room("OVERAB", {}, "over", None, max_live=5, max_stored=5, now=1.0)
    store.create_room("LIVEAB", {}, "playing", None, max_live=5, max_stored=5, now=1.0)
    assert sorted(store.idle_rooms(3.0)) == ["LIVEAB", "OVERAB"]
    store.touch_rooms(["LIVEAB"], 5.0)  # watched: not idle
    assert store.idle_rooms(3.0) == ["OVERAB"]
    gone = store.purge(rooms_before=3.0, games_before=2e12)
    assert gone == {"rooms": 1, "games": 1, "owners": 1}
    assert store.load_room("OVERAB") is None and store.load_room("LIVEAB") is not None


# -- PostgreSQL only --------------------------------------------------------------------------------


def test_the_schema_is_made_once_with_its_version_and_a_newer_one_refused(postgres_url):
    import psycopg

    from rummisolve.server.store_postgres import SCHEMA_VERSION

    first = opened(postgres_url)
    second = opened(postgres_url)  # a second process finds it made
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT version FROM rummisolve_schema").fetchall() == [(SCHEMA_VERSION,)]
        conn.execute("UPDATE rummisolve_schema SET version = version + 1")
    first.close()
    second.close()
    with pytest.raises(GameDatabaseError, match="newer rummisolve"):
        opened(postgres_url)


def test_a_database_of_other_tables_is_refused(postgres_url):
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE games (id TEXT)")
    with pytest.raises(GameDatabaseError, match="not a rummisolve game database"):
        opened(postgres_url)


def test_every_new_version_of_a_room_is_told_to_every_process(postgres_url):
    writer, reader = opened(postgres_url), opened(postgres_url)
    told: list[tuple[str | None, int]] = []
    seen = threading.Condition()

    def changed(code: str | None, version: int) -> None:
        with seen:
            told.append((code, version))
            seen.notify_all()

    try:
        assert reader.watch_rooms(changed)
        with seen:
            assert seen.wait_for(lambda: (None, 0) in told, timeout=30)  # listening
        writer.create_room("ABCDEF", {}, "waiting", None, max_live=5, max_stored=5)
        writer.save_room("ABCDEF", {"n": 2}, "playing", None, expected=1)
        with pytest.raises(StaleGame):
            writer.save_room("ABCDEF", {"n": "stale"}, "playing", None, expected=1)
        writer.lease_room("ABCDEF", 2, 99.0, "h")  # no new version: nothing told
        writer.save_room("ABCDEF", {"n": 3}, "playing", None, expected=2)
        with seen:
            assert seen.wait_for(lambda: ("ABCDEF", 3) in told, timeout=30)
        assert [t for t in told if t[0] is not None] == [("ABCDEF", 1), ("ABCDEF", 2), ("ABCDEF", 3)]
    finally:
        writer.close()
        reader.close()


def test_a_heartbeat_gone_quiet_frees_another_machines_lease(postgres_url):
    import psycopg

    store = opened(postgres_url)
    try:
        store.create_room("ABCDEF", {}, "playing", 1.0, max_live=5, max_stored=5)
        store.beat("elsewhere/7/x")
        assert store.lease_room("ABCDEF", 1, 31.0, "elsewhere/7/x", now=1.0)
        assert store.take_over_leases(2.0, lambda holder: False) == []  # alive: it beat just now
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute("UPDATE processes SET beat = beat - 60")
        assert store.take_over_leases(2.0, lambda holder: False) == ["ABCDEF"]
    finally:
        store.close()


def test_an_unreachable_database_is_one_line_and_a_refused_write_changes_nothing(postgres_cluster, postgres_url):
    with pytest.raises(GameDatabaseError, match="cannot use the PostgreSQL database"):
        open_store(postgres_cluster.url("no_such_database"), max_live=1, max_stored=1)
    store = opened(postgres_url)
    import psycopg

    try:
        owner = store.owner_of(store.new_owner())
        ident = store.create({"n": 1}, {}, False, owner)
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute("REVOKE UPDATE ON games FROM PUBLIC")
            conn.execute("ALTER TABLE games ADD CONSTRAINT small CHECK (length(data) < 20)")
        with pytest.raises(StoreUnavailable):
            store.save(ident, {"n": "x" * 50}, {}, False, expected=1)
        assert store.load(ident, owner) == (1, {"n": 1})
    finally:
        store.close()


def test_a_password_is_never_printed():
    assert shown("postgresql://me:s3cret@db.example/games") == "postgresql://me:***@db.example/games"
    assert shown("games.sqlite3") == "games.sqlite3"
    assert is_postgres("postgres://x/y") and not is_postgres("postgres.sqlite3")


def test_the_default_store_imports_nothing_of_postgresql():
    import subprocess
    import sys

    code = (
        "import sys; from rummisolve.server.app import create_app; create_app(db=':memory:'); "
        "print(sorted(m for m in sys.modules if m.startswith(('psycopg', 'rummisolve.server.store_postgres'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
