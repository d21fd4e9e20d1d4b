"""The outbox contract on SQLite and on the in-memory twin."""

from __future__ import annotations

from pathlib import Path

from memgate.domain.ports import Outbox, Store
from memgate.store.memory import MemoryStore
from memgate.store.memory_outbox import MemoryOutbox
from memgate.store.sqlite import SqliteStore
from memgate.store.sqlite_outbox import SqliteOutbox
from tests.contracts import KEY
from tests.contracts.outbox_contract import OutboxContract


class TestSqliteOutbox(OutboxContract):
    async def open_pair(self, directory: Path) -> tuple[Store, Outbox]:
        path = directory / "memgate.db"
        store = await SqliteStore.open(path, KEY)
        return store, SqliteOutbox(path)


class TestMemoryOutbox(OutboxContract):
    async def open_pair(self, directory: Path) -> tuple[Store, Outbox]:
        store = MemoryStore(KEY)
        return store, MemoryOutbox(store)
