"""MemoryStore (the in-memory twin) as an EventLog."""

from __future__ import annotations

from pathlib import Path

from memgate.domain.ports import Store
from memgate.store.memory import MemoryStore
from tests.contracts import KEY
from tests.contracts.log_contract import LogContract


class TestMemoryStoreLog(LogContract):
    async def open_store(self, directory: Path) -> Store:
        return MemoryStore(KEY)
