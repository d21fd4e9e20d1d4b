"""The Store additions the projection pages with (`reads_after`, `log_heads`),
on SQLite and on the in-memory twin: a stable, gap-free cursor in read order."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memgate.domain.ports import ReadRecord, Store
from memgate.store.memory import MemoryStore
from memgate.store.sqlite import SqliteStore

KEY = b"graph-feed-tests-key-0000000000000"


async def _store(kind: str, tmp_path: Path) -> Store:
    if kind == "sqlite":
        return await SqliteStore.open(tmp_path / "db.sqlite3", KEY)
    return MemoryStore(KEY)


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
def test_reads_after_pages_every_read_once_in_order(kind: str, tmp_path: Path) -> None:
    async def scenario() -> None:
        store = await _store(kind, tmp_path)
        try:
            assert await store.log_heads() == (0, 0)
            t0 = datetime(2026, 1, 1, tzinfo=UTC)
            reads = [
                ReadRecord(memory_id=f"m{i}", at=t0 + timedelta(seconds=i), session_id=f"s{i % 3}")
                for i in range(23)
            ]
            await store.record_reads(reads[:10])
            await store.record_reads(reads[10:])
            flush = getattr(store, "flush", None)
            if flush is not None:
                await flush()
            seen: list[ReadRecord] = []
            cursor = 0
            while page := await store.reads_after(cursor, 5):
                cursors = [c for c, _ in page]
                assert cursors == sorted(cursors) and cursors[0] > cursor
                seen.extend(r for _, r in page)
                cursor = cursors[-1]
            assert [r.memory_id for r in seen] == [r.memory_id for r in reads]
            assert [r.at for r in seen] == [r.at for r in reads]
            assert (await store.log_heads())[1] == cursor
            assert await store.reads_after(cursor, 5) == []
        finally:
            await store.close()

    asyncio.run(scenario())
