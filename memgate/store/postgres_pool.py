"""A connection pool opened on first use, once, however many callers race to it.

The outbox and the guard's ask store open their pool lazily. Without a lock, N
coroutines arriving together each opened a pool of their own and N-1 of them
were never closed: their workers kept `asyncio.run` from returning (seen as a
hung `asyncio.gather` of eight concurrent adds)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from psycopg_pool import AsyncConnectionPool

from memgate.errors import StorageError
from memgate.store.postgres import where

__all__ = ["LazyPool"]


class LazyPool:
    """`await pool.get()` opens the pool the first time (and runs `setup` on one
    connection of it), under a lock; `close()` closes it."""

    def __init__(
        self,
        url: str,
        *,
        name: str,
        what: str,
        max_size: int = 2,
        setup: Callable[[Any], Awaitable[None]] | None = None,
    ) -> None:
        self._url = url
        self._name = name
        self._what = what
        self._max_size = max_size
        self._setup = setup
        self._pool: AsyncConnectionPool[Any] | None = None
        self._lock = asyncio.Lock()

    async def get(self) -> AsyncConnectionPool[Any]:
        if self._pool is not None:
            return self._pool
        async with self._lock:
            if self._pool is None:
                self._pool = await self._open()
            return self._pool

    async def _open(self) -> AsyncConnectionPool[Any]:
        pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
            self._url,
            min_size=1,
            max_size=self._max_size,
            kwargs={"autocommit": True},
            open=False,
            name=self._name,
        )
        try:
            await pool.open(wait=True, timeout=30)
            if self._setup is not None:
                async with pool.connection() as conn:
                    await self._setup(conn)
        except Exception as exc:
            await pool.close()
            raise StorageError(
                f"{self._what}: PostgreSQL at {where(self._url)} is unreachable"
                f" ({exc.__class__.__name__})"
            ) from None
        return pool

    async def close(self) -> None:
        async with self._lock:
            if self._pool is not None:
                await self._pool.close()
                self._pool = None
