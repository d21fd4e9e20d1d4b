"""PostgresStore against the contract suites (log, pool, outbox): each class only
supplies a factory. Every store is a fresh schema in this session's own database
on the real server (tests/pg_fixtures.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memgate.domain.memory import MemoryItem, MemoryState
from memgate.domain.ports import Outbox, Pool, Store
from memgate.store.postgres import PostgresStore
from memgate.store.postgres_outbox import PostgresOutbox
from tests.contracts import KEY, long_item
from tests.contracts.log_contract import LogContract
from tests.contracts.outbox_contract import OutboxContract
from tests.contracts.pool_contract import PoolContract
from tests.pg_fixtures import pg_server, postgres  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("postgres")


class TestPostgresStoreLog(LogContract):
    async def open_store(self, directory: Path) -> Store:
        return await PostgresStore.open(pg_server().fresh_url(), KEY)


class TestPostgresStorePool(PoolContract):
    states = (MemoryState.APPROVED, MemoryState.PENDING_REVIEW)

    async def open_pool(self, directory: Path) -> Pool:
        return await PostgresStore.open(pg_server().fresh_url(), KEY)

    def make_item(self, **fields: Any) -> MemoryItem:
        return long_item(**fields)


class TestPostgresOutbox(OutboxContract):
    async def open_pair(self, directory: Path) -> tuple[Store, Outbox]:
        url = pg_server().fresh_url()
        store = await PostgresStore.open(url, KEY)
        return store, PostgresOutbox(url)
