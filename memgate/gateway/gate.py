"""The write gate: writes pass side by side; a rollback closes the gate, waits for
the writes in flight, and holds it while it reads and appends. Reads never wait."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from memgate.errors import RollbackInProgress


class WriteGate:
    def __init__(self, wait_seconds: float) -> None:
        self._wait = wait_seconds
        self._writers = 0
        self._closed = False
        self._cond = asyncio.Condition()

    @property
    def closed(self) -> bool:
        return self._closed

    @asynccontextmanager
    async def write(self) -> AsyncIterator[None]:
        """Enter as a writer; waits at most `wait_seconds` for a rollback to end,
        then raises RollbackInProgress (retryable)."""
        async with self._cond:
            if self._closed:
                try:
                    async with asyncio.timeout(self._wait):
                        await self._cond.wait_for(lambda: not self._closed)
                except TimeoutError:
                    raise RollbackInProgress(self._wait) from None
            self._writers += 1
        try:
            yield
        finally:
            async with self._cond:
                self._writers -= 1
                self._cond.notify_all()

    @asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        """Close the gate (one rollback at a time) and wait until no write is in flight."""
        async with self._cond:
            await self._cond.wait_for(lambda: not self._closed)
            self._closed = True
            await self._cond.wait_for(lambda: self._writers == 0)
        try:
            yield
        finally:
            async with self._cond:
                self._closed = False
                self._cond.notify_all()
