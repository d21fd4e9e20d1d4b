"""The Lease port on PostgreSQL: a session-level advisory lock on a dedicated
connection (psycopg 3).

    lease = PostgresLease("postgresql://host/memgate", "memgate:projector:memgate")

`pg_try_advisory_lock(key)` is held by the connection's server session, not by
a row or a transaction: when the holder's process dies its connection closes and
the server frees the lock at once; no expiry to wait out, no clock to trust.
The holder checks its connection on every `held()` (the projector asks about
once a second). A holder that stops asking (a frozen host, a partition) is cut
off by the server after `idle_timeout` (`idle_session_timeout`), which frees
the lock for another replica, and its next `held()` says it lost it.
"""

from __future__ import annotations

import contextlib
import hashlib
from datetime import timedelta
from typing import Any

import psycopg


def lock_key(name: str) -> int:
    """The advisory lock's 64-bit key for a lease name (stable across processes)."""
    digest = hashlib.blake2b(name.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class PostgresLease:
    """Held while this instance's own connection holds the advisory lock of `name`."""

    def __init__(
        self,
        dsn: str,
        name: str,
        *,
        idle_timeout: timedelta = timedelta(seconds=10),
        connect_timeout: float = 5.0,
    ) -> None:
        self.name = name
        self.key = lock_key(name)
        self._dsn = dsn
        self._idle_ms = max(int(idle_timeout.total_seconds() * 1000), 1000)
        self._connect_timeout = connect_timeout
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self._holding = False

    async def _connection(self) -> psycopg.AsyncConnection[Any]:
        if self._conn is None or self._conn.closed:
            self._conn = await psycopg.AsyncConnection.connect(
                self._dsn,
                autocommit=True,
                connect_timeout=max(int(self._connect_timeout), 1),
                application_name="memgate-lease",
            )
            await self._conn.execute(f"SET idle_session_timeout = {self._idle_ms}")
        return self._conn

    async def _drop(self) -> None:
        conn, self._conn, self._holding = self._conn, None, False
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()

    async def acquire(self) -> bool:
        if self._holding:
            return await self.held()
        try:
            conn = await self._connection()
            cur = await conn.execute("SELECT pg_try_advisory_lock(%s)", (self.key,))
            row = await cur.fetchone()
        except psycopg.Error:
            await self._drop()
            return False
        self._holding = bool(row and row[0])
        return self._holding

    async def held(self) -> bool:
        if not self._holding or self._conn is None:
            return False
        try:
            # The lock lives as long as this session: a round trip proves both.
            cur = await self._conn.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                " AND pid = pg_backend_pid() AND granted AND objsubid = 1"
                " AND ((classid::bigint << 32) | objid::bigint) = %s",
                (self.key,),
            )
            row = await cur.fetchone()
        except psycopg.Error:
            await self._drop()
            return False
        self._holding = bool(row and row[0])
        return self._holding

    async def release(self) -> None:
        if not self._holding or self._conn is None:
            return
        self._holding = False
        try:
            await self._conn.execute("SELECT pg_advisory_unlock(%s)", (self.key,))
        except psycopg.Error:
            await self._drop()

    async def close(self) -> None:
        # Unlock before closing: the server ends the session (and frees its
        # locks) only after the client has gone, so a replica trying right
        # after a bare close could still find the lock taken.
        if self._holding and self._conn is not None and not self._conn.closed:
            with contextlib.suppress(psycopg.Error):
                await self._conn.execute("SELECT pg_advisory_unlock_all()")
        await self._drop()
