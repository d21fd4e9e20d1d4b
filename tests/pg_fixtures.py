"""PostgreSQL for tests: the real server on 127.0.0.1:5432 (MEMGATE_TEST_POSTGRES
overrides the admin URL), one database of our own per test session
(`mg_pg_<random>`, dropped at the end), and a fresh schema in it per store, so a
test never sees another's rows and pays no CREATE DATABASE per test.

    from tests.pg_fixtures import pg_server, postgres  # noqa: F401 - fixtures

    def test_something(postgres):
        store = await PostgresStore.open(postgres.fresh_url(), KEY)

Contract suites that hypothesis drives (no function-scoped fixtures there) mark
their module `pytestmark = pytest.mark.usefixtures("postgres")` and call
`pg_server().fresh_url()` in their factory. A server that is not reachable fails
the test with what to start; nothing is skipped.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from urllib.parse import quote, urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql

from memgate.store.postgres import where

ADMIN_URL = os.environ.get("MEMGATE_TEST_POSTGRES", "postgresql://root@127.0.0.1:5432/postgres")
START_HINT = "start PostgreSQL: pg_ctlcluster --skip-systemctl-redirect 15 main start"


class PgServer:
    """One test database on the server; `fresh_url()` hands out empty schemas in it."""

    def __init__(self, admin_url: str = ADMIN_URL) -> None:
        self.admin_url = admin_url
        self.database = f"mg_pg_{uuid.uuid4().hex[:12]}"
        self._schemas = 0
        self._extra: list[str] = []
        self._lent: list[str] = []
        with self._admin() as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.database)))
        self.url = with_database(admin_url, self.database)
        self._db = psycopg.connect(self.url, autocommit=True)

    def _admin(self) -> psycopg.Connection[object]:
        return psycopg.connect(self.admin_url, autocommit=True, connect_timeout=5)

    def fresh_url(self, *, keep: bool = False) -> str:
        """A URL whose connections use an empty schema of their own.

        Creating and dropping a migrated schema is most of a store test's time, so
        a schema handed out before is emptied and handed out again once nothing
        is connected to it (its URL names it as the connections' application
        name). A test that leaves a schema idle and comes back to it after asking
        for another (a class-wide template) asks with `keep=True`."""
        schema = None if keep else self._idle_schema()
        if schema is None:
            self._schemas += 1
            schema = f"s{self._schemas}_{uuid.uuid4().hex[:6]}"
            self._db.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        if not keep:
            self._lent.append(schema)
        return url_with_schema(self.url, schema)

    def _idle_schema(self) -> str | None:
        """A lent schema nobody is connected to, emptied (its tables kept)."""
        busy = {
            row[0]
            for row in self._db.execute(
                "SELECT application_name FROM pg_stat_activity WHERE datname = %s",
                (self.database,),
            )
        }
        for schema in self._lent:
            if schema in busy:
                continue
            self._lent.remove(schema)
            tables = [
                row[0]
                for row in self._db.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = %s", (schema,)
                )
                if row[0] != "memgate_migrations"
            ]
            with self._db.transaction():
                self._db.execute("SET LOCAL session_replication_role = replica")  # no triggers
                for table in tables:
                    self._db.execute(
                        sql.SQL("DELETE FROM {}.{}").format(
                            sql.Identifier(schema), sql.Identifier(table)
                        )
                    )
            return schema
        return None

    def fresh_database(self) -> str:
        """A URL of a new database of its own (dropped with the session's)."""
        name = f"{self.database}_{uuid.uuid4().hex[:6]}"
        with self._admin() as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        self._extra.append(name)
        return with_database(self.admin_url, name)

    def execute(
        self, url: str, statement: str, params: tuple[object, ...] = ()
    ) -> list[tuple[object, ...]]:
        """Run one statement on `url` as the admin would (tests tampering with rows)."""
        with psycopg.connect(url, autocommit=True) as conn:
            cur = conn.execute(statement.encode(), params)
            return list(cur.fetchall()) if cur.description else []

    def close(self) -> None:
        self._db.close()
        with self._admin() as conn:
            for name in [*self._extra, self.database]:
                conn.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )


def with_database(url: str, name: str) -> str:
    """The postgresql:// URL `url` with its database replaced by `name`."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def url_with_schema(url: str, schema: str) -> str:
    """`url` with `search_path` set to `schema` for every connection made from it,
    and the schema as the connections' application name."""
    parts = urlsplit(url)
    options = "options=" + quote(f"-csearch_path={schema}") + f"&application_name={schema}"
    query = "&".join(q for q in (parts.query, options) if q)
    return urlunsplit(parts._replace(query=query))


_CURRENT: list[PgServer] = []


def pg_server() -> PgServer:
    """The session's server (for factories that cannot take a fixture)."""
    if not _CURRENT:
        pytest.fail("no PostgreSQL for this test: use the `postgres` fixture")
    return _CURRENT[-1]


@pytest.fixture(scope="session")
def postgres() -> Iterator[PgServer]:
    try:
        server = PgServer()
    except psycopg.OperationalError as exc:
        pytest.fail(f"PostgreSQL is not reachable at {where(ADMIN_URL)} ({exc}); {START_HINT}")
    _CURRENT.append(server)
    try:
        yield server
    finally:
        _CURRENT.remove(server)
        server.close()
