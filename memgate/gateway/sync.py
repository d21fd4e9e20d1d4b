"""A thin synchronous facade: the async Gateway on a private event-loop thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from memgate.domain.memory import MemoryItem, MemoryWrite, Reader
from memgate.gateway.core import Gateway, WriteReceipt

T = TypeVar("T")


class SyncGateway:
    """Blocking calls into a Gateway that lives on its own loop thread, so it can
    be used from plain code and from inside another running event loop alike."""

    def __init__(
        self, gateway: Gateway, loop: asyncio.AbstractEventLoop, thread: threading.Thread
    ) -> None:
        self.gateway = gateway
        self._loop = loop
        self._thread = thread

    @classmethod
    def start(cls, factory: Callable[[], Coroutine[Any, Any, Gateway]]) -> SyncGateway:
        """Run `factory()` (e.g. `lambda: open_gateway(path)`) on a new loop thread."""
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="memgate-gateway", daemon=True)
        thread.start()
        try:
            gateway = asyncio.run_coroutine_threadsafe(factory(), loop).result()
        except BaseException:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=5)
            loop.close()
            raise
        return cls(gateway, loop, thread)

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run any Gateway coroutine and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def write(self, write: MemoryWrite) -> WriteReceipt:
        return self.run(self.gateway.write(write))

    def read(self, memory_id: str, reader: Reader | None = None) -> MemoryItem | None:
        return self.run(self.gateway.read(memory_id, reader))

    def search(
        self, namespace_prefix: tuple[str, ...] = (), query: str | None = None, **kwargs: Any
    ) -> list[MemoryItem]:
        return self.run(self.gateway.search(namespace_prefix, query, **kwargs))

    def close(self) -> None:
        try:
            self.run(self.gateway.close())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
            self._loop.close()

    def __enter__(self) -> SyncGateway:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
