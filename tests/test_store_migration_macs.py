"""Migration 005 on a database written before row MACs: the log is verified
first, the projection rebuilt from it and sealed; a row edited before the
upgrade is restored from the log, one without an event removed; a broken log
stops the migration with nothing changed. The old database is built the way
memgate before 005 wrote it: migrations 001-004, chained events, plain rows."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from memgate.errors import StorageError
from memgate.log.chain import Chain
from memgate.store.sqlite import SqliteStore, migrations
from memgate.store.sqlite_integrity import item_fields
from tests.contracts import KEY, run
from tests.contracts.log_contract import some_events

OLD_ITEMS = (
    "INSERT OR REPLACE INTO items (id, namespace, key, pool, state, source, session_id,"
    " created_at, updated_at, expires_at, fingerprint, categories, content, body)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)
EVENTS = (
    "INSERT INTO events (seq, at, memory_id, op, actor, reason, state_before, state_after,"
    " summary, entry, prev_mac, mac) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
)


def old_database(path: Path) -> dict[str, str]:
    """A schema-4 store with 6 events over 3 memories and 2 reads; returns each
    memory's latest content."""
    db = sqlite3.connect(path)
    for number, sql in migrations():
        if number <= 4:
            db.executescript(sql)
    db.execute("PRAGMA user_version = 4")
    chain = Chain(KEY)
    latest = {}
    for event in some_events(6, memory_ids=3):
        record, entry, columns = chain.seal(event)
        db.execute(EVENTS, (record.seq, *columns, entry, record.prev_mac, record.mac))
        assert event.item is not None
        db.execute(OLD_ITEMS, item_fields(event.item))
        latest[event.item.id] = event.item.content
    for session in ("s1", "s2"):
        db.execute(
            "INSERT INTO reads (memory_id, at, session_id) VALUES ('mem-0', '2025-01-01', ?)",
            (session,),
        )
    db.commit()
    db.close()
    return latest


def test_rows_are_sealed_from_the_log_and_pre_upgrade_edits_undone(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    latest = old_database(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE items SET content = 'forged before upgrade' WHERE id = 'mem-0'")
        db.execute(
            "INSERT INTO items (id, namespace, pool, state, source, created_at, updated_at,"
            " fingerprint, categories, content, body) SELECT 'mem-x', namespace, pool, state,"
            " source, created_at, updated_at, fingerprint, categories, content, body"
            " FROM items WHERE id = 'mem-1'"
        )

    async def go() -> None:
        store = await SqliteStore.open(path, KEY)
        try:
            for memory_id, content in latest.items():
                item = await store.get(memory_id)
                assert item is not None and item.content == content
            assert await store.get("mem-x") is None
            result = await store.verify()
            assert result.ok, result
            assert (result.rows_checked, result.reads_checked) == (3, 2)
        finally:
            await store.close()

    run(go())
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM items WHERE id = 'mem-x'").fetchone() == (0,)


def test_a_broken_log_stops_the_migration_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old_database(path)
    with sqlite3.connect(path) as db:
        db.execute("DROP TRIGGER events_no_update")
        db.execute("UPDATE events SET actor = 'mallory' WHERE seq = 2")
    before = dump(path)

    async def go() -> None:
        await SqliteStore.open(path, KEY)

    with pytest.raises(StorageError, match="fails verification at seq 2"):
        run(go())
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (4,)
        columns = {r[1] for r in db.execute("PRAGMA table_info(items)")}
    assert "row_mac" not in columns
    assert dump(path) == before  # (the file is in WAL mode now: only its header differs)


def dump(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return list(db.iterdump())
