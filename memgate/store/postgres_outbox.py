"""The outbox port over the PostgreSQL store's database.

Rows for events are written by a trigger on the log (schema/postgres/001_init.sql)
inside the store's own commit, whichever replica appended; this adapter claims,
settles and prunes them on connections of its own. A claim is one UPDATE over
rows taken `FOR UPDATE SKIP LOCKED`: two workers (on two replicas, or `memgate
notify drain`) never lease the same row, and neither waits for the other.

    outbox = PostgresOutbox("postgresql://user@host/memgate")   # the store's URL
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool
from pydantic import ValidationError

from memgate.domain.events import Event
from memgate.domain.memory import utcnow
from memgate.domain.notices import Notice, NoticeKind, notice_for
from memgate.domain.ports import OutboxEntry, OutboxStatus
from memgate.errors import StorageError
from memgate.store.postgres import where
from memgate.store.postgres_pool import LazyPool

__all__ = ["PostgresOutbox"]

_CLAIM = (
    "UPDATE outbox SET lease_until = %s WHERE id IN ("
    " SELECT id FROM outbox WHERE delivered_at IS NULL AND gave_up_at IS NULL"
    " AND (%s OR next_at <= %s) AND (lease_until IS NULL OR lease_until <= %s)"
    " ORDER BY next_at, created_at, id LIMIT %s FOR UPDATE SKIP LOCKED)"
    " RETURNING id, kind, event_seq, body, attempts, done, created_at"
)
_SETTLE = (
    "UPDATE outbox SET attempts = attempts + 1, lease_until = NULL, done = %s,"
    " delivered_at = %s, gave_up_at = %s, next_at = coalesce(%s, next_at), last_error = %s"
    " WHERE id = %s"
)
_ENQUEUE = (
    "INSERT INTO outbox (id, kind, event_seq, body, created_at, next_at)"
    " VALUES (%s, %s, NULL, %s, %s, %s) ON CONFLICT (id) DO NOTHING"
)
_STATUS = (
    "SELECT"
    " count(*) FILTER (WHERE delivered_at IS NULL AND gave_up_at IS NULL),"
    " count(*) FILTER (WHERE delivered_at IS NOT NULL),"
    " count(*) FILTER (WHERE gave_up_at IS NOT NULL),"
    " min(created_at) FILTER (WHERE delivered_at IS NULL AND gave_up_at IS NULL)"
    " FROM outbox"
)
_LAST_ERROR = (
    "SELECT last_error FROM outbox WHERE last_error IS NOT NULL AND delivered_at IS NULL"
    " ORDER BY next_at DESC LIMIT 1"
)
_PRUNE = (
    "DELETE FROM outbox WHERE created_at < %s"
    " AND (delivered_at IS NOT NULL OR gave_up_at IS NOT NULL)"
)


class PostgresOutbox:
    """Outbox port on the database at `url` (migrated by `PostgresStore.open`)."""

    def __init__(self, url: str, *, max_size: int = 2) -> None:
        self._url = url
        self._pool = LazyPool(url, name="memgate-outbox", what="outbox", max_size=max_size)

    async def _connection_pool(self) -> AsyncConnectionPool[Any]:
        return await self._pool.get()

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, list[Any]]:
        pool = await self._connection_pool()
        try:
            async with pool.connection() as conn:
                cur = await conn.execute(sql, params)
                rows = list(await cur.fetchall()) if cur.description else []
                return cur.rowcount, rows
        except psycopg.errors.UndefinedTable:
            raise StorageError(
                f"PostgreSQL at {where(self._url)} has no outbox table yet; open the store"
                " once with this memgate version (memgate serve) to migrate it"
            ) from None
        except psycopg.Error as exc:
            raise StorageError(f"outbox: {exc.__class__.__name__}") from None

    async def enqueue(self, notice: Notice) -> bool:
        now = utcnow().timestamp()
        params = (notice.id, notice.kind.value, notice.model_dump_json(), now, now)
        count, _ = await self._rows(_ENQUEUE, params)
        return count == 1

    async def claim(
        self, *, now: float, limit: int, lease: float, due_only: bool = True
    ) -> list[OutboxEntry]:
        _, rows = await self._rows(_CLAIM, (now + lease, not due_only, now, now, limit))
        entries = []
        for row in sorted(rows, key=lambda r: (r[6], r[0])):
            entries.append(await self._entry(row))
        return entries

    async def _entry(self, row: Any) -> OutboxEntry:
        notice_id, kind, seq, body, attempts, done, created = row
        return OutboxEntry(
            notice=await self._notice(notice_id, kind, seq, body),
            attempts=attempts,
            done=frozenset(json.loads(done)),
            created=created,
        )

    async def _notice(self, notice_id: str, kind: str, seq: int | None, body: Any) -> Notice:
        """An event's notice is built from the event as the log holds it; one whose
        event cannot be read any more (a damaged row) still tells, with what is known."""
        if seq is None:
            return Notice.model_validate_json(body)
        _, found = await self._rows("SELECT entry FROM events WHERE seq = %s", (seq,))
        if found:
            with contextlib.suppress(ValidationError, ValueError):
                event = Event.model_validate_json(bytes(found[0][0]))
                return notice_for(NoticeKind(kind), seq, event)
        return Notice(
            id=notice_id,
            kind=NoticeKind(kind),
            at=utcnow(),
            seq=seq,
            reason=f"event {seq} could not be read from the log (run memgate log verify)",
        )

    async def settle(
        self,
        notice_id: str,
        *,
        done: frozenset[str],
        delivered: bool,
        next_at: float | None = None,
        error: str | None = None,
        gave_up: bool = False,
    ) -> None:
        now = utcnow().timestamp()
        params = (
            json.dumps(sorted(done)),
            now if delivered else None,
            now if gave_up and not delivered else None,
            next_at,
            None if delivered else error,
            notice_id,
        )
        await self._rows(_SETTLE, params)

    async def status(self) -> OutboxStatus:
        _, rows = await self._rows(_STATUS)
        pending, delivered, given_up, oldest = rows[0]
        _, error = await self._rows(_LAST_ERROR)
        return OutboxStatus(
            pending=pending,
            delivered=delivered,
            given_up=given_up,
            oldest_pending=oldest,
            last_error=error[0][0] if error else None,
        )

    async def prune(self, before: float) -> int:
        count, _ = await self._rows(_PRUNE, (before,))
        return count

    async def close(self) -> None:
        await self._pool.close()
