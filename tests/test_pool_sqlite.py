"""SqliteStore as a long-term Pool: a real SQLite file (WAL, FTS5) per test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memgate.domain.memory import MemoryItem, MemoryState
from memgate.domain.ports import Pool
from memgate.store.sqlite import SqliteStore
from tests.contracts import KEY, long_item
from tests.contracts.pool_contract import PoolContract


class TestSqliteStorePool(PoolContract):
    states = (MemoryState.APPROVED, MemoryState.PENDING_REVIEW)

    async def open_pool(self, directory: Path) -> Pool:
        return await SqliteStore.open(directory / "memgate.db", KEY)

    def make_item(self, **fields: Any) -> MemoryItem:
        return long_item(**fields)
