"""A lock shared by every replica on one PostgreSQL database: the gateway's
read-modify-append lock (review decisions, keyed writes, expiry events) when
the store is PostgreSQL.

    lock = PostgresMutex("postgresql://host/memgate", "memgate:gateway:lock")
    async with lock:
        ...   # no other replica (and no other task here) is inside

Inside one process an asyncio lock orders the tasks; across processes a
session-level advisory lock (`pg_advisory_lock`) on a connection of its own,
taken after the local lock and released before it. A replica that dies inside
loses its connection and the server frees the lock at once. Without it each
replica's lock orders only its own decisions: two reviewers on two replicas
could both decide one pending memory (both read it pending, both append).
"""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType
from typing import Any

import psycopg

from memgate.errors import StorageError
from memgate.lease.postgres import lock_key

__all__ = ["PostgresMutex"]


class PostgresMutex:
    """An async context manager held by one task of one replica at a time."""

    def __init__(self, dsn: str, name: str, *, connect_timeout: float = 10.0) -> None:
        self.name = name
        self.key = lock_key(name)
        self._dsn = dsn
        self._connect_timeout = connect_timeout
        self._local = asyncio.Lock()
        self._conn: psycopg.AsyncConnection[Any] | None = None

    async def _connection(self) -> psycopg.AsyncConnection[Any]:
        if self._conn is None or self._conn.closed:
            self._conn = await psycopg.AsyncConnection.connect(
                self._dsn,
                autocommit=True,
                connect_timeout=max(int(self._connect_timeout), 1),
                application_name="memgate-mutex",
            )
        return self._conn

    async def __aenter__(self) -> None:
        await self._local.acquire()
        try:
            for attempt in (1, 2):
                try:
                    conn = await self._connection()
                    await conn.execute("SELECT pg_advisory_lock(%s)", (self.key,))
                    return
                except psycopg.OperationalError:
                    await self._drop()
                    if attempt == 2:
                        raise
        except psycopg.Error as exc:
            self._local.release()
            raise StorageError(
                f"the replicas' shared lock is unavailable ({exc.__class__.__name__})"
            ) from None
        except BaseException:
            self._local.release()
            raise

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            conn = self._conn
            if conn is not None and not conn.closed:
                try:
                    await conn.execute("SELECT pg_advisory_unlock(%s)", (self.key,))
                except psycopg.Error:
                    await self._drop()  # a closed session holds no lock
        finally:
            self._local.release()

    async def _drop(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                await self._conn.close()
            self._conn = None

    async def aclose(self) -> None:
        """Close the lock's connection (held by nobody now)."""
        async with self._local:
            await self._drop()
