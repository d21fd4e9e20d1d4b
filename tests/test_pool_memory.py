"""MemoryStore (the in-memory twin) as a long-term Pool."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memgate.domain.memory import MemoryItem, MemoryState
from memgate.domain.ports import Pool
from memgate.store.memory import MemoryStore
from tests.contracts import KEY, long_item
from tests.contracts.pool_contract import PoolContract


class TestMemoryStorePool(PoolContract):
    states = (MemoryState.APPROVED, MemoryState.PENDING_REVIEW)

    async def open_pool(self, directory: Path) -> Pool:
        return MemoryStore(KEY)

    def make_item(self, **fields: Any) -> MemoryItem:
        return long_item(**fields)
