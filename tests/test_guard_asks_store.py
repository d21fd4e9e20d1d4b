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

    def test_a_table_from_before_expiry_takes_expired_asks(self, tmp_path: Path) -> None:
        """A store file whose guard_asks CHECK lacks 'expired' (made before asks
        expired) is rebuilt on open, its rows kept."""
        import sqlite3

        from memgate.domain.asks import AskState
        from tests.contracts import run
        from tests.contracts.ask_contract import T0, ask

        path = tmp_path / "old.sqlite3"
        old = sqlite3.connect(path)
        old.executescript(
            "CREATE TABLE guard_asks (id TEXT PRIMARY KEY, digest TEXT NOT NULL,"
            " state TEXT NOT NULL CHECK (state IN ('pending', 'allowed', 'denied')),"
            " created_at REAL NOT NULL, used_at REAL, body TEXT NOT NULL) STRICT;"
            " CREATE UNIQUE INDEX guard_asks_pending ON guard_asks (digest)"
            " WHERE state = 'pending';"
        )
        old.execute(
            "INSERT INTO guard_asks VALUES (?, ?, 'pending', ?, NULL, ?)",
            ("ask_1", "d1", ask(1).created_at.timestamp(), ask(1).model_dump_json()),
        )
        old.commit()
        old.close()

        async def go() -> None:
            store = SqliteAsks(path)
            try:
                assert await store.get("ask_1") == ask(1)
                done = await store.resolve(
                    "ask_1", AskState.EXPIRED, reviewer="memgate:expiry", note=None, at=T0,
                    review_seq=None,
                )  # fmt: skip
                assert done is not None and done.state is AskState.EXPIRED
                assert await store.pending() == []
            finally:
                await store.close()

        run(go())


@pytest.mark.usefixtures("postgres")
class TestPostgresAsks(AskContract):
    async def open_asks(self, tmp_path: Path) -> AskStore:
        return PostgresAsks(pg_server().fresh_url())

    def test_a_table_from_before_expiry_takes_expired_asks(self, tmp_path: Path) -> None:
        """A guard_asks table whose state check lacks 'expired' (made before asks
        expired) gets the new check when the store first connects, rows kept."""
        import psycopg

        from memgate.domain.asks import AskState
        from tests.contracts import run
        from tests.contracts.ask_contract import T0, ask

        url = pg_server().fresh_url()
        with psycopg.connect(url, autocommit=True) as old:
            # fresh_url may hand out an emptied schema whose tables were kept
            old.execute("DROP TABLE IF EXISTS guard_asks")
            old.execute(
                "CREATE TABLE guard_asks (id text PRIMARY KEY, digest text NOT NULL,"
                " state text NOT NULL CHECK (state IN ('pending', 'allowed', 'denied')),"
                " created_at double precision NOT NULL, used_at double precision,"
                " body jsonb NOT NULL)"
            )
            old.execute(
                "INSERT INTO guard_asks VALUES (%s, %s, 'pending', %s, NULL, %s)",
                ("ask_1", "d1", ask(1).created_at.timestamp(), ask(1).model_dump_json()),
            )

        async def go() -> None:
            store = PostgresAsks(url)
            try:
                assert await store.get("ask_1") == ask(1)
                done = await store.resolve(
                    "ask_1", AskState.EXPIRED, reviewer="memgate:expiry", note=None, at=T0,
                    review_seq=None,
                )  # fmt: skip
                assert done is not None and done.state is AskState.EXPIRED
                assert await store.pending() == []
            finally:
                await store.close()

        run(go())
        with psycopg.connect(url, autocommit=True) as check:
            checks = check.execute(
                "SELECT count(*) FROM pg_constraint"
                " WHERE conrelid = 'guard_asks'::regclass AND contype = 'c'"
            ).fetchone()
            assert checks == (1,)
