"""The ask store over the PostgreSQL store's database, shared by every replica:
an ask raised on one replica is reviewed on any, and the answer is read on any.

Its table (schema/postgres/guard_asks.sql) is created on first use, under an
advisory lock (replicas starting together do not race on CREATE). Every method
is one statement (or one transaction), so two reviewers answering at once leave
the first answer standing.

    asks = PostgresAsks("postgresql://user@host/memgate")   # the store's URL
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from memgate.domain.asks import AskState, GuardAsk
from memgate.errors import StorageError
from memgate.store.postgres import schema_dir
from memgate.store.postgres_pool import LazyPool

__all__ = ["PostgresAsks"]

SCHEMA_FILE = "guard_asks.sql"
LOCK = "memgate:guard_asks:schema"
_INSERT = (
    "INSERT INTO guard_asks (id, digest, state, created_at, used_at, body)"
    " VALUES (%s, %s, %s, %s, %s, %s::jsonb) ON CONFLICT DO NOTHING"
)
_ANSWER = (
    "SELECT body::text FROM guard_asks WHERE digest = %s"
    " AND (state <> 'allowed' OR used_at IS NULL) ORDER BY created_at DESC, id DESC LIMIT 1"
)
_RESOLVE = (
    "UPDATE guard_asks SET state = %s, body = body || %s::jsonb"
    " WHERE id = %s AND state = 'pending' RETURNING body::text"
)
_USE = (
    "UPDATE guard_asks SET used_at = %s, body = jsonb_set(body, '{used_at}', to_jsonb(%s::text))"
    " WHERE id = %s AND state = 'allowed' AND used_at IS NULL"
)


async def _schema(conn: Any) -> None:
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (LOCK,))
        await conn.execute((schema_dir() / SCHEMA_FILE).read_text(encoding="utf-8"))


class PostgresAsks:
    """Ask store on the database at `url` (the store's)."""

    def __init__(self, url: str, *, max_size: int = 2) -> None:
        self._url = url
        self._pool = LazyPool(
            url, name="memgate-guard-asks", what="guard asks", max_size=max_size, setup=_schema
        )

    async def _connection_pool(self) -> AsyncConnectionPool[Any]:
        return await self._pool.get()

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, list[Any]]:
        pool = await self._connection_pool()
        try:
            async with pool.connection() as conn:
                cur = await conn.execute(sql, params)
                rows = list(await cur.fetchall()) if cur.description else []
                return cur.rowcount, rows
        except psycopg.Error as exc:
            raise StorageError(f"guard asks: {exc.__class__.__name__}") from None

    async def add(self, ask: GuardAsk) -> GuardAsk:
        params = (
            ask.id,
            ask.digest,
            ask.state.value,
            ask.created_at.timestamp(),
            ask.used_at.timestamp() if ask.used_at else None,
            ask.model_dump_json(),
        )
        await self._rows(_INSERT, params)
        _, rows = await self._rows(
            "SELECT body::text FROM guard_asks WHERE digest = %s AND state = 'pending'",
            (ask.digest,),
        )
        if not rows:
            _, rows = await self._rows("SELECT body::text FROM guard_asks WHERE id = %s", (ask.id,))
        return GuardAsk.model_validate_json(rows[0][0])

    async def get(self, ask_id: str) -> GuardAsk | None:
        _, rows = await self._rows("SELECT body::text FROM guard_asks WHERE id = %s", (ask_id,))
        return GuardAsk.model_validate_json(rows[0][0]) if rows else None

    async def answer(self, digest: str) -> GuardAsk | None:
        _, rows = await self._rows(_ANSWER, (digest,))
        return GuardAsk.model_validate_json(rows[0][0]) if rows else None

    async def pending(self, limit: int = 50, offset: int = 0) -> list[GuardAsk]:
        _, rows = await self._rows(
            "SELECT body::text FROM guard_asks WHERE state = 'pending'"
            " ORDER BY created_at, id LIMIT %s OFFSET %s",
            (limit, offset),
        )
        return [GuardAsk.model_validate_json(r[0]) for r in rows]

    async def resolve(
        self,
        ask_id: str,
        state: AskState,
        *,
        reviewer: str,
        note: str | None,
        at: datetime,
        review_seq: int | None,
    ) -> GuardAsk | None:
        if state is AskState.PENDING:
            return None
        patch = GuardAsk.model_construct(
            state=state, reviewer=reviewer, note=note, reviewed_at=at, review_seq=review_seq
        ).model_dump_json(include={"state", "reviewer", "note", "reviewed_at", "review_seq"})
        _, rows = await self._rows(_RESOLVE, (state.value, patch, ask_id))
        return GuardAsk.model_validate_json(rows[0][0]) if rows else None

    async def use(self, ask_id: str, at: datetime) -> bool:
        count, _ = await self._rows(_USE, (at.timestamp(), at.isoformat(), ask_id))
        return count == 1

    async def close(self) -> None:
        await self._pool.close()
