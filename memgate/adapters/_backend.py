"""What the adapters need from memgate: a subset of the Gateway's methods.

The async `Gateway` satisfies `Backend` as it is; the HTTP client
(`memgate.client.MemgateClient`) is wrapped so it does too. Adapters code against
this protocol only, so each runs in-process or against a remote server alike.

Helpers here are the few things every adapter does the same way: turning a
JSON value into memory content and back, naming the writer's source, and
listing a namespace without recording reads of what the caller never sees.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Coroutine
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict

from memgate.domain.events import LogRecord
from memgate.domain.memory import MemoryItem, MemoryState, MemoryWrite, PoolName, Reader
from memgate.domain.ports import PoolQuery
from memgate.domain.types import Decision
from memgate.errors import WriteRefused
from memgate.gateway import Gateway
from memgate.gateway.core import WriteReceipt

if TYPE_CHECKING:
    from memgate.client import AsyncMemgateClient

T = TypeVar("T")
PAGE = 1000
"""The gateway's largest page (PoolQuery.limit)."""


@runtime_checkable
class Backend(Protocol):
    """The agent-side calls: write, read, search, delete, history. Pending items
    are served only to the session that wrote them (read-your-writes)."""

    async def write(self, write: MemoryWrite) -> WriteReceipt: ...

    async def read(self, memory_id: str, reader: Reader | None = None) -> MemoryItem | None: ...

    async def read_key(
        self, namespace: tuple[str, ...], key: str, reader: Reader | None = None
    ) -> MemoryItem | None: ...

    async def search(
        self,
        namespace_prefix: tuple[str, ...] = (),
        query: str | None = None,
        *,
        metadata: dict[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        reader: Reader | None = None,
        mode: str = "text",
    ) -> list[MemoryItem]: ...

    async def delete(
        self, memory_id: str, *, actor: str, reason: str | None = None
    ) -> MemoryItem: ...

    async def history(self, memory_id: str) -> list[LogRecord]: ...


def canonical_json(value: Any) -> str:
    """The exact JSON text of a value: key order kept, no NaN, no lossy defaults.
    Raises ValueError for values JSON cannot carry (they would not come back as written)."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"memgate stores JSON values only: {exc}") from None


def parse_object(content: str) -> dict[str, Any] | None:
    """The JSON object in `content`, or None when it is not one (text written by
    another client, or a redaction that broke the JSON)."""
    if not content.startswith("{"):
        return None
    try:
        value = json.loads(content)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def redacted(item: MemoryItem) -> bool:
    """Whether the served content had a secret or personal datum cut out."""
    return any(f.category.sensitive for f in item.findings)


async def scan_namespace(
    backend: Backend, prefix: tuple[str, ...], reader: Reader
) -> list[MemoryItem]:
    """Every item under `prefix` the reader may see, without recording reads when
    the backend is an in-process Gateway (listing namespaces or finding an id to
    delete is not reading content). A remote backend can only list through the
    read API, which records the reads: a conservative over-count."""
    if isinstance(backend, Gateway):
        return await _unrecorded(backend, prefix, reader)
    out: list[MemoryItem] = []
    offset = 0
    while True:
        page = await backend.search(prefix, None, limit=PAGE, offset=offset, reader=reader)
        out.extend(page)
        if len(page) < PAGE:
            return out
        offset += PAGE


async def _unrecorded(
    gateway: Gateway, prefix: tuple[str, ...], reader: Reader
) -> list[MemoryItem]:
    # Expiry is judged on the gateway's own clock (tests drive it).
    now = gateway._clock()
    out: list[MemoryItem] = []
    for pool in (gateway.short, gateway.store):
        offset = 0
        while True:
            page = await pool.list(PoolQuery(namespace_prefix=prefix, limit=PAGE, offset=offset))
            for item in page:
                if item.expires_at is not None and item.expires_at <= now:
                    continue
                if item.state.served or (
                    item.state is MemoryState.PENDING_REVIEW
                    and reader.session_id is not None
                    and item.session_id == reader.session_id
                ):
                    out.append(item)
            if len(page) < PAGE:
                break
            offset += PAGE
    return out


async def record_reads(
    backend: Backend, items: list[MemoryItem], reader: Reader
) -> list[MemoryItem]:
    """Serve `items` (found by `scan_namespace`) to the reader, recording each
    read. In-process each is read through the gateway (still visible? recorded);
    remotely the scan already read and recorded them."""
    if not isinstance(backend, Gateway):
        return items
    out = []
    for item in items:
        served = await backend.read(item.id, reader)
        if served is not None:
            out.append(served)
    return out


async def find_key(
    backend: Backend, namespace: tuple[str, ...], key: str, reader: Reader
) -> list[MemoryItem]:
    """The live versions of a key (a key can live in both pools), to delete or
    describe them. In-process this is not a read; remotely it is (recorded)."""
    if isinstance(backend, Gateway):
        found = [
            await backend.short.get_by_key(namespace, key),
            await backend.store.get_by_key(namespace, key),
        ]
        return [i for i in found if i is not None and not i.state.final]
    item = await backend.read_key(namespace, key, reader)
    return [item] if item is not None else []


class MemoryStatus(BaseModel):
    """memgate's view of a stored value: kept beside the value, never inside it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    state: MemoryState
    pool: PoolName
    trust_score: float
    decision: Decision
    categories: tuple[str, ...]
    rule_ids: tuple[str, ...]
    redacted: bool
    """A secret or personal datum was cut out of the stored value."""
    version: int

    @classmethod
    def of_item(cls, item: MemoryItem) -> MemoryStatus:
        return cls(
            id=item.id,
            state=item.state,
            pool=item.pool,
            trust_score=item.trust_score,
            decision=item.decision,
            categories=tuple(sorted({f.category.value for f in item.findings})),
            rule_ids=tuple(sorted({f.rule_id for f in item.findings})),
            redacted=redacted(item),
            version=item.version,
        )

    @classmethod
    def of_receipt(cls, receipt: WriteReceipt) -> MemoryStatus:
        return cls(
            id=receipt.id,
            state=receipt.state,
            pool=receipt.pool,
            trust_score=receipt.trust_score,
            decision=receipt.decision,
            categories=tuple(sorted({f.category for f in receipt.findings})),
            rule_ids=tuple(sorted({f.rule_id for f in receipt.findings})),
            redacted=any(f.category in ("secret", "pii") for f in receipt.findings),
            version=receipt.version,
        )


class MemoryHeld(WriteRefused):
    """Strict mode: the write was taken but is not served (queued for review or
    rejected). The receipt says where it went and why."""

    def __init__(self, receipt: WriteReceipt) -> None:
        rules = ", ".join(sorted({f.rule_id for f in receipt.findings})) or "no findings"
        super().__init__(f"memory {receipt.id} is {receipt.state.value} ({rules})")
        self.receipt = receipt


class LoopRunner:
    """Runs backend coroutines on the loop that owns the backend (a SyncGateway's
    thread), from sync code or from another loop; or in place when there is no
    such loop (the backend lives on the caller's loop)."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.loop = loop

    def _foreign(self) -> bool:
        if self.loop is None:
            return False
        try:
            return asyncio.get_running_loop() is not self.loop
        except RuntimeError:
            return True

    async def arun(self, coro: Coroutine[Any, Any, T]) -> T:
        if not self._foreign() or self.loop is None:
            return await coro
        future: Future[T] = asyncio.run_coroutine_threadsafe(coro, self.loop)
        return await asyncio.wrap_future(future)

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        if self.loop is None:
            coro.close()
            raise RuntimeError(
                "synchronous calls need a backend on its own loop thread: build the adapter"
                " from a SyncGateway (e.g. open_sync_gateway) or use the async methods"
            )
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            coro.close()
            raise asyncio.InvalidStateError(
                "synchronous call on the backend's own event loop would deadlock;"
                " use the async method (e.g. `await store.aget(...)`)"
            )
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()


class LoopThread:
    """An event loop on a daemon thread, for backends used from sync code (a
    remote client under a sync LangGraph graph)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self.loop.run_forever, name="memgate-adapter", daemon=True
        )
        self._thread.start()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)
        self.loop.close()


async def running_loop() -> asyncio.AbstractEventLoop:
    """Run on a SyncGateway (`sync.run(running_loop())`) to learn its loop."""
    return asyncio.get_running_loop()


class RemoteBackend:
    """A remote memgate server as a Backend: the HTTP client under the gateway's
    method shapes. The server knows the caller from its API key, so `actor` (who
    deletes) is the key's identity there, not the argument."""

    def __init__(self, client: AsyncMemgateClient) -> None:
        self.client = client

    @classmethod
    def connect(cls, url: str, key: str | None = None) -> RemoteBackend:
        from memgate.client import AsyncMemgateClient

        return cls(AsyncMemgateClient(url, key=key))

    async def write(self, write: MemoryWrite) -> WriteReceipt:
        return await self.client.write(write)

    async def read(self, memory_id: str, reader: Reader | None = None) -> MemoryItem | None:
        return await self.client.read(memory_id, reader)

    async def read_key(
        self, namespace: tuple[str, ...], key: str, reader: Reader | None = None
    ) -> MemoryItem | None:
        return await self.client.read_key(namespace, key, reader)

    async def search(
        self,
        namespace_prefix: tuple[str, ...] = (),
        query: str | None = None,
        *,
        metadata: dict[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        reader: Reader | None = None,
        mode: str = "text",
    ) -> list[MemoryItem]:
        return await self.client.search(
            namespace_prefix or None,
            query,
            metadata=metadata,
            limit=limit,
            offset=offset,
            reader=reader,
            mode=mode,
        )

    async def delete(self, memory_id: str, *, actor: str, reason: str | None = None) -> MemoryItem:
        del actor  # the server records the key's identity
        return await self.client.delete(memory_id, reason=reason)

    async def history(self, memory_id: str) -> list[LogRecord]:
        return await self.client.history(memory_id)

    async def scopes(self) -> tuple[tuple[str, ...], ...]:
        """The namespace scopes of the key (empty: every namespace)."""
        return tuple(tuple(scope) for scope in (await self.client.my_key()).namespaces)

    async def close(self) -> None:
        await self.client.close()
