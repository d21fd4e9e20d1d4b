"""The AskStore contract on every backend: the in-memory twin, SQLite (the
store's file) and PostgreSQL (the real server, a schema of our own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memgate.domain.asks import AskStore
from memgate.store.memory_asks import MemoryAsks
from memgate.store.postgres_asks import PostgresAsks
from memgate.store.sqlite_asks import SqliteAsks
from tests.contracts.ask_contract import AskContract
from tests.pg_fixtures import pg_server, postgres

__all__ = ["postgres"]


class TestMemoryAsks(AskContract):
    async def open_asks(self, tmp_path: Path) -> AskStore:
        return MemoryAsks()


class TestSqliteAsks(AskContract):
    async def open_asks(self, tmp_path: Path) -> AskStore:
        return SqliteAsks(tmp_path / "db" / "memgate.sqlite3")

    def test_durable_across_reopen(self, tmp_path: Path) -> None:
        from tests.contracts import run
        from tests.contracts.ask_contract import ask

        async def go() -> None:
            first = SqliteAsks(tmp_path / "asks.sqlite3")
            await first.add(ask(1))
            await first.close()
            second = SqliteAsks(tmp_path / "asks.sqlite3")
            try:
                assert await second.get("ask_1") == ask(1)
            finally:
                await second.close()

        run(go())


@pytest.mark.usefixtures("postgres")
class TestPostgresAsks(AskContract):
    async def open_asks(self, tmp_path: Path) -> AskStore:
        return PostgresAsks(pg_server().fresh_url())
