"""memgate in front of another memory store: what the mem0, LlamaIndex and CrewAI
wrappers share.

The pool is the gate, the other store is the warehouse, and the gate comes first:

- Every write goes to memgate first (scanned, routed, logged). Only what memgate
  serves at once (approved, secrets and personal data already redacted) is handed
  to the warehouse, tagged with its memgate id. Pending and rejected content never
  reaches it.
- Every read of the warehouse is checked against memgate: a hit is returned only
  when memgate still serves its memory to this reader, with memgate's content
  (so an edit by a reviewer wins), and that check is memgate's read, recorded in
  its reads and provenance graph. A memory rolled back, deleted, rejected or
  demoted is filtered out at once, whether or not the warehouse was synced.
- `changes()` reads the log after a cursor for the memories written for this
  store; the wrappers' `sync()` applies them: a memory approved by a reviewer
  enters the warehouse, one that stopped being served leaves it. Against a
  server this reads `GET /v1/log`, which needs an admin key.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from memgate.adapters._backend import Backend, LoopRunner, MemoryStatus, RemoteBackend, find_key
from memgate.domain.events import Op
from memgate.domain.memory import MemoryItem, MemoryState, MemoryWrite, Reader
from memgate.gateway import Gateway
from memgate.gateway.core import WriteReceipt

T = TypeVar("T")

ORIGIN_KEY = "memgate_store"
"""memgate metadata: which guarded store a memory was written for."""
ID_KEY = "memgate_id"
"""Warehouse metadata: the memgate memory an entry holds."""
_LOG_PAGE = 1000


@dataclass(frozen=True)
class Admitted:
    """One write's fate: the receipt, and the stored memory when memgate serves it
    now (approved or transient, content redacted); None while held or rejected."""

    receipt: WriteReceipt
    item: MemoryItem | None

    @property
    def status(self) -> MemoryStatus:
        return MemoryStatus.of_receipt(self.receipt)


@dataclass(frozen=True)
class Change:
    """A memory's last change since the cursor: the event's op and the memory after."""

    op: Op
    item: MemoryItem

    @property
    def enters(self) -> bool:
        """Served now through a change the writer did not see (a review, an edit, a
        rollback restoring it): the warehouse does not have it yet. A write approved
        at once was handed over by the wrapper when it was written."""
        return self.item.state is MemoryState.APPROVED and self.op is not Op.ADMITTED

    @property
    def leaves(self) -> bool:
        """No longer served: its warehouse entries go."""
        return not self.item.state.served


@dataclass
class SyncReport:
    """What one `sync()` did to the warehouse."""

    added: list[str] = field(default_factory=list)
    """memgate ids that entered the warehouse (approved since the last sync)."""
    removed: list[str] = field(default_factory=list)
    """memgate ids whose entries left it (rolled back, deleted, rejected, demoted)."""
    last_seq: int = 0
    """The log position synced up to (the next sync starts after it)."""


class Guard:
    """The gate's side of a guarded store: admit, check what is served, follow
    the log. `store` names the warehouse in memgate's metadata (e.g. "mem0")."""

    def __init__(
        self,
        backend: Backend,
        *,
        store: str,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.backend = backend
        self.store = store
        self.runner = LoopRunner(loop)
        self.cursor = 0

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run on the backend's loop from sync code."""
        return self.runner.run(coro)

    async def arun(self, coro: Coroutine[Any, Any, T]) -> T:
        return await self.runner.arun(coro)

    async def admit(self, write: MemoryWrite, reader: Reader) -> Admitted:
        """Write through memgate, tagged for this store."""
        tagged = write.model_copy(update={"metadata": {**write.metadata, ORIGIN_KEY: self.store}})
        receipt = await self.backend.write(tagged)
        item = None
        if receipt.state.served:
            item = await self.stored(receipt.id, reader)
        return Admitted(receipt, item)

    async def stored(self, memory_id: str, reader: Reader) -> MemoryItem | None:
        """The memory as memgate keeps it, to hand to the warehouse. In-process this
        is not a read; remotely it is one (by the writer, recorded)."""
        if isinstance(self.backend, Gateway):
            item = await self.backend.get_any(memory_id)
            return item if item is not None and item.state.served else None
        return await self.backend.read(memory_id, reader)

    async def current(
        self, namespace: tuple[str, ...], key: str, reader: Reader
    ) -> MemoryItem | None:
        """The version of a key memgate serves now, if any (a rejected rewrite
        leaves the previous version served). In-process this is not a read;
        remotely it is one (recorded)."""
        if isinstance(self.backend, Gateway):
            for item in await find_key(self.backend, namespace, key, reader):
                if item.state.served:
                    return item
            return None
        return await self.backend.read_key(namespace, key, reader)

    async def served(self, memory_id: str, reader: Reader) -> MemoryItem | None:
        """The memory if memgate serves it to this reader (recorded as read)."""
        return await self.backend.read(memory_id, reader)

    async def served_key(
        self, namespace: tuple[str, ...], key: str, reader: Reader
    ) -> MemoryItem | None:
        """The served version of a key (recorded as read), or None."""
        return await self.backend.read_key(namespace, key, reader)

    async def tombstone(self, memory_id: str, *, actor: str, reason: str) -> MemoryItem | None:
        """Delete in memgate (a tombstone; the log keeps the history). None when it
        was already gone."""
        from memgate.errors import IllegalTransition, NotFound

        try:
            return await self.backend.delete(memory_id, actor=actor, reason=reason)
        except (NotFound, IllegalTransition):
            return None

    async def changes(self) -> tuple[list[Change], int]:
        """The memories of this store changed in the log after the cursor (each
        once, as it is now), and the last sequence number read. Moves no cursor:
        the caller does once it applied them."""
        latest: dict[str, Change] = {}
        after = self.cursor
        while True:
            records = await self._records(after)
            for record in records:
                item = record.event.item
                if item is not None and item.metadata.get(ORIGIN_KEY) == self.store:
                    latest.pop(item.id, None)
                    latest[item.id] = Change(record.event.op, item)
                after = record.seq
            if len(records) < _LOG_PAGE:
                return list(latest.values()), after

    async def _records(self, after: int) -> Sequence[Any]:
        if isinstance(self.backend, Gateway):
            return await self.backend.store.records(after, _LOG_PAGE)
        if isinstance(self.backend, RemoteBackend):
            page = await self.backend.client.log_page(after_seq=after, limit=_LOG_PAGE)
            return page.records
        raise TypeError(
            f"sync needs the log: an in-process Gateway or a RemoteBackend, not"
            f" {type(self.backend).__name__}"
        )


def memgate_status(item: MemoryItem) -> dict[str, Any]:
    """memgate's view of a served memory, as plain JSON for a warehouse's results."""
    return MemoryStatus.of_item(item).model_dump(mode="json")
