"""The tamper suite (tests/contracts/tamper_contract.py) on PostgreSQL, as an
attacker holding a superuser connection would: triggers skipped for the session
(`session_replication_role = replica`), rows edited with SQL, then the store's
own `verify`. Each test gets the 20-event template back, restored from pristine
copies of its tables (no DDL per test, so the suite stays fast)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from memgate.domain.events import Checkpoint, Event, VerifyResult
from memgate.store.postgres import PostgresStore
from tests.contracts import KEY, run
from tests.contracts.tamper_contract import Editor, TamperContract, write_template
from tests.pg_fixtures import pg_server, postgres  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("postgres")

TABLES = ("events", "items", "short_items", "reads", "heads", "snapshots", "outbox")


class _PgEditor:
    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self._conn.execute(sql.replace("?", "%s").encode(), tuple(params))

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return list(self._conn.execute(sql.replace("?", "%s").encode(), tuple(params)).fetchall())


@dataclass(frozen=True)
class PgLog:
    url: str
    middle: Checkpoint
    head: Checkpoint

    def tamper(self, edit: Callable[[Editor], None]) -> None:
        with psycopg.connect(self.url) as conn, conn.transaction():
            conn.execute("SET LOCAL session_replication_role = replica")  # no triggers
            edit(_PgEditor(conn))

    def verify(self, checkpoint: Checkpoint | None = None) -> VerifyResult:
        async def go() -> VerifyResult:
            store = await PostgresStore.open(self.url, KEY)
            try:
                return await store.verify(checkpoint)
            finally:
                await store.close()

        return run(go())

    def append(self, events: list[Event]) -> None:
        async def go() -> None:
            store = await PostgresStore.open(self.url, KEY)
            try:
                await store.append(events)
            finally:
                await store.close()

        run(go())


class TestPostgresTamper(TamperContract):
    @classmethod
    def build_template(cls, factory: pytest.TempPathFactory) -> PgLog:
        url = pg_server().fresh_url(keep=True)  # the class's template

        async def write() -> tuple[Checkpoint, Checkpoint]:
            store = await PostgresStore.open(url, KEY)
            try:
                return await write_template(store)
            finally:
                await store.close()

        middle, head = run(write())
        with psycopg.connect(url) as conn, conn.transaction():
            for table in TABLES:
                conn.execute(f"CREATE TABLE pristine_{table} AS SELECT * FROM {table}".encode())  # noqa: S608
        return PgLog(url, middle, head)

    def copy(self, template: Any, tmp_path: Path) -> PgLog:
        with psycopg.connect(template.url) as conn, conn.transaction():
            conn.execute("SET LOCAL session_replication_role = replica")
            for table in TABLES:
                conn.execute(f"DELETE FROM {table}".encode())  # noqa: S608
                conn.execute(f"INSERT INTO {table} SELECT * FROM pristine_{table}".encode())  # noqa: S608
        return template  # type: ignore[no-any-return]
