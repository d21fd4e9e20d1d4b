"""Full-text search stays exact while indexing runs off the commit path: rows
committed but not yet indexed, rows indexed and then edited or removed, a
reused rowid, and a store reopened with rows left unindexed."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from memgate.domain.memory import MemoryState
from memgate.domain.ports import PoolQuery
from memgate.store.sqlite import FTS_BATCH, SqliteStore
from tests.contracts import KEY, T0, event_for, long_item, run


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


_CRASH = """
import asyncio, os, sys
from pathlib import Path
from memgate.store.sqlite import SqliteStore
from tests.contracts import KEY, event_for, long_item

async def main():
    store = await SqliteStore.open(Path(sys.argv[1]), KEY)
    await store.append([event_for(long_item(id="m-lantern", content="lantern festival"))])
    os._exit(0)  # the process dies after the commit, before any indexing pass

asyncio.run(main())
"""


def test_reopened_store_indexes_what_a_crash_left_unindexed(tmp_path: Path) -> None:
    path = tmp_path / "memgate.db"
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-c", _CRASH, str(path)], cwd=root, check=True, timeout=60)
    assert _unindexed(path) == 1

    async def go_read() -> None:
        store = await SqliteStore.open(path, KEY)
        assert [i.id for i in await store.search(PoolQuery(text="lantern"))] == ["m-lantern"]
        await store.close()

    run(go_read())
    assert _unindexed(path) == 0


def test_newest_first_pages_match_a_full_sort_whatever_the_insert_order(tmp_path: Path) -> None:
    """Search pages come from the first matches in rowid order plus a time bound:
    they must equal a full sort even when insert order and created_at disagree."""
    rng = random.Random(11)
    words = ["amber", "basil", "cedar", "dune"]
    states = [MemoryState.APPROVED, MemoryState.PENDING_REVIEW]
    items = []
    for i in range(300):
        # created_at in shuffled order, with ties (same second) broken by id
        at = T0 + timedelta(seconds=rng.randrange(120))
        items.append(
            long_item(
                id=f"m-eq-{rng.randrange(10**6):06d}-{i}",
                content=" ".join(rng.sample(words, rng.randint(1, 3))),
                namespace=("team", rng.choice(["a", "b"])),
                session_id=rng.choice(["s1", "s2", None]),
                state=rng.choice(states),
                created_at=at,
            )
        )

    async def go() -> None:
        store = await SqliteStore.open(tmp_path / "memgate.db", KEY)
        for start in range(0, len(items), 37):
            await store.append([event_for(i) for i in items[start : start + 37]])
        for word in words:
            for wanted, session in (({states[0]}, None), (set(states), None), ({states[1]}, "s1")):
                for prefix in ((), ("team", "a")):
                    expected = sorted(
                        (
                            i
                            for i in items
                            if word in i.content.split()
                            and i.state in wanted
                            and i.namespace[: len(prefix)] == prefix
                            and (session is None or i.session_id == session)
                        ),
                        key=lambda i: (i.created_at, i.id),
                        reverse=True,
                    )
                    for offset, limit in ((0, 1), (0, 10), (7, 5), (40, 50), (0, 1000)):
                        query = PoolQuery(
                            text=word,
                            states=frozenset(wanted),
                            namespace_prefix=prefix,
                            session_id=session,
                            limit=limit,
                            offset=offset,
                        )
                        found = [i.id for i in await store.search(query)]
                        assert found == [i.id for i in expected[offset : offset + limit]]
        await store.close()

    run(go())
