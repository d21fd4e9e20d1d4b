"""Full-text search stays exact while indexing runs off the commit path: rows
committed but not yet indexed, rows indexed and then edited or removed, a
reused rowid, and a store reopened with rows left unindexed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memgate.domain.ports import PoolQuery
from memgate.store.sqlite import FTS_BATCH, SqliteStore
from tests.contracts import KEY, event_for, long_item, run


def _unindexed(path: Path) -> int:
    with sqlite3.connect(path) as db:
        (mark,) = db.execute("SELECT indexed_rowid FROM fts_state").fetchone()
        (count,) = db.execute("SELECT count(*) FROM items WHERE rowid > ?", (mark,)).fetchone()
    return int(count)


def test_search_finds_every_committed_row_before_and_after_indexing(tmp_path: Path) -> None:
    path = tmp_path / "memgate.db"
    n = FTS_BATCH * 2 + 7

    async def go() -> None:
        store = await SqliteStore.open(path, KEY)
        items = [long_item(content=f"orchid word{i} common") for i in range(n)]
        # one event per append: each is its own commit, as single writers make them
        for item in items[:20]:
            await store.append([event_for(item)])
        assert _unindexed(path) == 20  # not indexed at commit time
        found = await store.search(PoolQuery(text="orchid", limit=1000))
        assert {i.id for i in found} == {i.id for i in items[:20]}
        assert _unindexed(path) == 0
        await store.append([event_for(item) for item in items[20:]])
        assert await store.search(PoolQuery(text="word5")) == [items[5]]
        found = await store.search(PoolQuery(text="common", limit=1000))
        assert len(found) == n
        await store.close()

    run(go())


def test_edits_and_removals_of_indexed_and_unindexed_rows(tmp_path: Path) -> None:
    path = tmp_path / "memgate.db"

    async def go() -> None:
        store = await SqliteStore.open(path, KEY)
        old = long_item(content="granite tower")
        await store.append([event_for(old)])
        assert [i.id for i in await store.search(PoolQuery(text="granite"))] == [old.id]
        # indexed row, content changes: the old words go, the new ones come
        edited = old.model_copy(update={"content": "marble tower", "version": 2})
        fresh = long_item(content="granite bridge")
        await store.append([event_for(edited), event_for(fresh)])
        assert await store.search(PoolQuery(text="granite")) == [fresh]
        assert await store.search(PoolQuery(text="marble")) == [edited]
        # unindexed row removed before any pass: never found, index stays consistent
        doomed = long_item(content="granite cellar")
        await store.append([event_for(doomed)])
        await store.remove(doomed.id)
        assert await store.search(PoolQuery(text="cellar")) == []
        # the last (indexed) row removed: its rowid is reused by the next insert,
        # which sits at or below the mark and must be indexed right away
        await store.remove(fresh.id)
        reused = long_item(content="granite harbour")
        await store.append([event_for(reused)])
        assert await store.search(PoolQuery(text="harbour")) == [reused]
        assert await store.search(PoolQuery(text="bridge")) == []
        with sqlite3.connect(path) as db:
            assert db.execute("INSERT INTO items_fts(items_fts) VALUES ('integrity-check')")
        await store.close()

    run(go())


def test_reopened_store_indexes_what_a_crash_left_unindexed(tmp_path: Path) -> None:
    path = tmp_path / "memgate.db"
    item = long_item(content="lantern festival")

    async def go_write() -> None:
        store = await SqliteStore.open(path, KEY)
        await store.append([event_for(item)])
        # as after a crash: the row is committed, no indexing pass ran
        store._closed = True  # simulate a process that died here
        await store._reader.close()

    async def go_read() -> None:
        store = await SqliteStore.open(path, KEY)
        assert [i.id for i in await store.search(PoolQuery(text="lantern"))] == [item.id]
        await store.close()

    run(go_write())
    assert _unindexed(path) == 1
    run(go_read())
    assert _unindexed(path) == 0
