"""The guard's value fingerprints on PostgreSQL (the store's database), shared by
every replica: a secret seen in a tool result reported to one replica is matched
when the next call goes to another (issue 17).

    values = PostgresValueStore.open(url, local=data_dir / "db" / "guard.sqlite3")

The tables come from the store's migrations (schema/postgres/004_*.sql). The
fingerprints, the decided calls, the memory feed's cursors and the call-chain
rate windows live in PostgreSQL. The guard's decision state (trust counters,
tool pins, depths, the breaker) is `PostgresGuardState`'s
(memgate/guard/state_postgres.py, migration 005) when the service runs on
PostgreSQL; `execute` / `fetch` still reach the data directory's SQLite file
`local`, for a `LocalGuardState` and for what a replica kept there before
(`PostgresGuardState.import_local`; see docs/scaling.md). One connection, serialized by a lock; a
lost connection is reopened once per call.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import psycopg

from memgate.errors import StorageError
from memgate.guard.values import CallRow, Sighting, ValueStore, WindowHits
from memgate.store.postgres import _migrate, where

T = TypeVar("T")

_COLUMNS = "fp, value_fp, form, rule_id, call_id, session_id, agent_id, tool, at, memory_id"
_INSERT_VALUE = (
    f"INSERT INTO guard_values ({_COLUMNS})"  # noqa: S608 - a constant column list
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING"
)
_LOOKUP = (
    f"SELECT {_COLUMNS} FROM (SELECT {_COLUMNS},"  # noqa: S608 - a constant column list
    " row_number() OVER (PARTITION BY fp ORDER BY at DESC) AS n"
    " FROM guard_values WHERE fp = ANY(%s)) AS s WHERE n <= %s ORDER BY at DESC"
)
_INSERT_CALL = (
    "INSERT INTO guard_calls VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (call_id)"
    " DO UPDATE SET session_id = excluded.session_id, agent_id = excluded.agent_id,"
    " tool = excluded.tool, at = excluded.at, decision = excluded.decision,"
    " layer = excluded.layer"
)
_CURSOR = (
    "INSERT INTO guard_feed VALUES (%s, %s) ON CONFLICT (name)"
    " DO UPDATE SET cursor = greatest(guard_feed.cursor, excluded.cursor)"
)
_HIT = (
    "WITH hit AS (INSERT INTO guard_chain_hits VALUES (%s, %s))"
    " SELECT count(*) + 1 FROM guard_chain_hits WHERE key = %s AND at > %s"
)
PRUNE_EVERY = 500
"""Hits between two deletions of timestamps older than every window."""


def _migrated(url: str) -> None:
    """The store's migrations (on a thread of its own: the caller may be on an
    event loop)."""

    async def go() -> None:
        conn = await psycopg.AsyncConnection.connect(url, autocommit=True, connect_timeout=10)
        try:
            await _migrate(conn)
        finally:
            await conn.close()

    with ThreadPoolExecutor(1, thread_name_prefix="memgate-values-migrate") as pool:
        pool.submit(asyncio.run, go()).result()


class PgLink:
    """One autocommit connection to the database at `url`, used under a lock by
    every thread and reconnected once when the server dropped it. `setup`: SQL
    run on each new connection."""

    def __init__(self, url: str, setup: Sequence[str] = ()) -> None:
        self.url = url
        self._setup = tuple(setup)
        self._lock = threading.Lock()
        self._conn = self._connect()

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            conn = psycopg.connect(self.url, autocommit=True, connect_timeout=10)
            for sql in self._setup:
                conn.execute(sql)
            return conn
        except psycopg.Error as exc:
            raise StorageError(
                f"cannot connect to PostgreSQL at {where(self.url)}: {exc.__class__.__name__}"
            ) from None

    def run(self, work: Callable[[psycopg.Connection[Any]], T]) -> T:
        """`work` on the connection, reconnecting once when it was lost."""
        with self._lock:
            try:
                return work(self._conn)
            except psycopg.OperationalError:
                if not self._conn.closed:
                    raise
            self._conn = self._connect()
            return work(self._conn)

    @property
    def backend_pid(self) -> int:
        """The server process of the current connection (what an operator, or a
        test, terminates)."""
        return self._conn.info.backend_pid

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _row(r: Sighting) -> tuple[Any, ...]:
    return (
        r.fp, r.value_fp, r.form, r.rule_id, r.call_id, r.session_id, r.agent_id, r.tool,
        r.at, r.memory_id,
    )  # fmt: skip


class PostgresValueStore(ValueStore):
    """Value fingerprints on the database at `url`; trust counters and pins in the
    SQLite file `local`."""

    def __init__(self, url: str, local: Path | str) -> None:
        super().__init__(local)
        self._hits = 0
        self._pg = PgLink(url)

    @classmethod
    def open(cls, url: str, local: Path | str) -> PostgresValueStore:
        """Migrate the database if it needs it and connect."""
        try:
            _migrated(url)
        except psycopg.Error as exc:
            raise StorageError(
                f"cannot open PostgreSQL at {where(url)}: {exc.__class__.__name__}"
            ) from None
        return cls(url, local)

    def _run(self, work: Callable[[psycopg.Connection[Any]], T]) -> T:
        return self._pg.run(work)

    def add(self, rows: Sequence[Sighting]) -> None:
        if not rows:
            return

        def go(conn: psycopg.Connection[Any]) -> None:
            with conn.transaction(), conn.cursor() as cur:
                cur.executemany(_INSERT_VALUE, [_row(r) for r in rows])

        self._run(go)

    def lookup(self, fps: Iterable[str], per_value: int = 5) -> list[Sighting]:
        wanted = sorted(set(fps))
        if not wanted:
            return []

        def go(conn: psycopg.Connection[Any]) -> list[Sighting]:
            rows = conn.execute(_LOOKUP, (wanted, per_value)).fetchall()
            return [Sighting(*row) for row in rows]

        return self._run(go)

    def memory_values(self, memory_ids: Sequence[str]) -> dict[str, list[tuple[str, str | None]]]:
        wanted = sorted(set(memory_ids))
        if not wanted:
            return {}

        def go(conn: psycopg.Connection[Any]) -> list[tuple[Any, ...]]:
            return conn.execute(
                "SELECT DISTINCT memory_id, value_fp, rule_id FROM guard_values"
                " WHERE memory_id = ANY(%s) AND tool = 'memory.write'",
                (wanted,),
            ).fetchall()

        out: dict[str, list[tuple[str, str | None]]] = {}
        for memory_id, value_fp, rule_id in self._run(go):
            out.setdefault(memory_id, []).append((value_fp, rule_id))
        return out

    def cursor(self, name: str) -> int:
        row = self._run(
            lambda conn: conn.execute(
                "SELECT cursor FROM guard_feed WHERE name = %s", (name,)
            ).fetchone()
        )
        return int(row[0]) if row else 0

    def add_fed(self, rows: Sequence[Sighting], cursors: dict[str, int]) -> None:
        def go(conn: psycopg.Connection[Any]) -> None:
            with conn.transaction(), conn.cursor() as cur:
                if rows:
                    cur.executemany(_INSERT_VALUE, [_row(r) for r in rows])
                cur.executemany(_CURSOR, list(cursors.items()))

        self._run(go)

    def record_call(
        self,
        call_id: str,
        session_id: str | None,
        agent_id: str | None,
        tool: str,
        at: float,
        decision: str,
        layer: str,
    ) -> None:
        self.record_calls([(call_id, session_id, agent_id, tool, at, decision, layer)])

    def record_calls(self, rows: Sequence[CallRow]) -> None:
        if not rows:
            return

        def go(conn: psycopg.Connection[Any]) -> None:
            with conn.transaction(), conn.cursor() as cur:
                cur.executemany(_INSERT_CALL, list(rows))

        self._run(go)

    def call(self, call_id: str) -> tuple[str | None, str | None, str] | None:
        row = self._run(
            lambda conn: conn.execute(
                "SELECT session_id, agent_id, tool FROM guard_calls WHERE call_id = %s",
                (call_id,),
            ).fetchone()
        )
        return None if row is None else (row[0], row[1], row[2])

    def decision(self, call_id: str) -> str | None:
        row = self._run(
            lambda conn: conn.execute(
                "SELECT decision FROM guard_calls WHERE call_id = %s", (call_id,)
            ).fetchone()
        )
        return None if row is None else str(row[0])

    def counts(self) -> tuple[int, int]:
        def go(conn: psycopg.Connection[Any]) -> tuple[int, int]:
            calls = conn.execute("SELECT count(*) FROM guard_calls").fetchone()
            values = conn.execute("SELECT count(*) FROM guard_values").fetchone()
            return int(calls[0]) if calls else 0, int(values[0]) if values else 0

        return self._run(go)

    def hit(self, key: str, now: float, span: float) -> int:
        """Record one call of `key` now; the calls of `key` within `span` seconds
        by every replica, this one included."""
        self._hits += 1
        prune = self._hits % PRUNE_EVERY == 0

        def go(conn: psycopg.Connection[Any]) -> int:
            row = conn.execute(_HIT, (key, now, key, now - span)).fetchone()
            if prune:
                conn.execute("DELETE FROM guard_chain_hits WHERE at <= %s", (now - 3600.0,))
            return int(row[0]) if row else 1

        return self._run(go)

    def window_hits(self) -> WindowHits:
        return self.hit

    def close(self) -> None:
        self._pg.close()
        super().close()
