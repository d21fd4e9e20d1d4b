"""CrewAI memory storage behind memgate: `MemgateStorage` wraps any CrewAI
`StorageBackend` (LanceDB by default) and is one itself.

    from crewai.memory.unified_memory import Memory
    from memgate.adapters.crewai import MemgateStorage
    storage = MemgateStorage.open(Path("data"), embedder=embed)
    memory = Memory(storage=storage, embedder=embed, llm=llm)

or for every `Memory` built afterwards, `MemgateStorage.install(...)` (CrewAI's
`set_memory_storage_factory`).

- `save` and `update` write each record to memgate first (namespace `("crewai",)`,
  the record id as the key, scope, categories, importance, source and privacy in
  metadata). Only records memgate approves reach the inner store, with memgate's
  content (secrets and personal data redacted; re-embedded with `embedder` when
  redaction changed the text). Pending and rejected records never reach it; an
  update that is held takes the record out of the inner store until it is approved.
- `search`, `get_record` and `list_records` return a record only while memgate
  serves it to this reader, with memgate's content; each check is a read recorded
  in memgate (the reader: `session_id`, `agent_id`). A rollback or delete in
  memgate hides the record at once.
- `delete` and `reset` tombstone the records in memgate too.
- `sync()` follows memgate's log: records a reviewer approved enter the inner
  store (embedded with `embedder`), records no longer served leave it. Against a
  server it needs an admin key (it reads `GET /v1/log`).
- Counts, scopes and categories come from the inner store (they serve no content).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from crewai.memory.storage.backend import StorageBackend  # type: ignore[import-not-found]
from crewai.memory.storage.factory import (  # type: ignore[import-not-found]
    set_memory_storage_factory,
)
from crewai.memory.types import (  # type: ignore[import-not-found]
    MemoryRecord,
    ScopeInfo,
    embed_texts,
)

from memgate.adapters._backend import Backend, LoopThread, RemoteBackend, running_loop
from memgate.adapters._guard import ID_KEY, Guard, SyncReport
from memgate.domain.memory import MemoryItem, MemoryWrite, Reader, Target
from memgate.domain.types import Source
from memgate.gateway import SyncGateway

__all__ = ["MemgateStorage", "SyncReport"]

RECORD_KEY = "crewai"
"""memgate metadata: the record's CrewAI fields (scope, categories, ...)."""
_ALL = 10_000

Embedder = Callable[[list[str]], Any]


class MemgateStorage:
    """A CrewAI `StorageBackend` whose writes pass memgate's gate and whose reads
    are checked against it (and recorded)."""

    def __init__(
        self,
        backend: Backend,
        *,
        embedder: Embedder,
        inner: StorageBackend | None = None,
        path: Path | None = None,
        namespace: tuple[str, ...] = ("crewai",),
        source: Source = Source.AGENT,
        session_id: str | None = None,
        agent_id: str | None = None,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        """`backend` on `loop` (CrewAI calls storage from worker threads: use
        `open`, `from_sync` or `connect`). `embedder` is the callable given to
        CrewAI's `Memory` (it embeds what memgate redacted or approved later).
        `inner` is the store guarded (default: `LanceDBStorage(path)`)."""
        if inner is None:
            from crewai.memory.storage.lancedb_storage import (  # type: ignore[import-not-found]
                LanceDBStorage,
            )

            inner = LanceDBStorage(path=path)
        self.inner = inner
        self.embedder = embedder
        self.namespace = tuple(namespace)
        self.source = source
        self.session_id = session_id
        self.agent_id = agent_id
        self.guard = Guard(backend, store="crewai", loop=loop)
        self._closer: Callable[[], None] | None = None

    # -- construction ---------------------------------------------------------------

    @classmethod
    def from_sync(cls, gateway: SyncGateway, **kwargs: Any) -> MemgateStorage:
        return cls(gateway.gateway, loop=gateway.run(running_loop()), **kwargs)

    @classmethod
    def open(cls, data_dir: Path, **kwargs: Any) -> MemgateStorage:
        """memgate in-process on a data directory (with its provenance graph); the
        inner LanceDB store under `data_dir / "crewai"` unless `inner` / `path`."""
        from memgate.bootstrap import open_sync_gateway

        gateway = open_sync_gateway(Path(data_dir), graph="embedded")
        if "inner" not in kwargs and "path" not in kwargs:
            kwargs["path"] = Path(data_dir) / "crewai"
        storage = cls.from_sync(gateway, **kwargs)
        storage._closer = gateway.close
        return storage

    @classmethod
    def connect(cls, url: str, key: str | None = None, **kwargs: Any) -> MemgateStorage:
        thread = LoopThread()
        backend = RemoteBackend.connect(url, key)
        storage = cls(backend, loop=thread.loop, **kwargs)

        def close() -> None:
            thread.run(backend.close())
            thread.stop()

        storage._closer = close
        return storage

    def install(self) -> None:
        """Make every CrewAI `Memory` built afterwards with a storage name (the
        default "lancedb") use this storage; `uninstall()` restores CrewAI's."""
        set_memory_storage_factory(lambda spec: self)

    @staticmethod
    def uninstall() -> None:
        set_memory_storage_factory(None)

    def close(self) -> None:
        """Close the inner store (if it closes) and what `open` / `connect` opened."""
        closer = getattr(self.inner, "close", None)
        if callable(closer):
            closer()
        if self._closer is not None:
            self._closer()
            self._closer = None

    @property
    def backend(self) -> Backend:
        return self.guard.backend

    @property
    def reader(self) -> Reader:
        return Reader(session_id=self.session_id, agent_id=self.agent_id)

    # -- writes ---------------------------------------------------------------------

    def _write(self, record: MemoryRecord) -> MemoryWrite:
        fields = {
            "scope": record.scope,
            "categories": list(record.categories),
            "importance": record.importance,
            "source": record.source,
            "private": record.private,
            "metadata": {k: v for k, v in record.metadata.items() if k != ID_KEY},
            "created_at": record.created_at.isoformat(),
        }
        return MemoryWrite(
            content=record.content,
            namespace=self.namespace,
            key=record.id,
            source=self.source,
            session_id=self.session_id,
            agent_id=self.agent_id,
            metadata={RECORD_KEY: fields},
            target=Target.LONG,
        )

    def _stored(self, record: MemoryRecord, item: MemoryItem) -> MemoryRecord:
        """The record as the inner store gets it: memgate's content and id."""
        embedding = record.embedding
        if item.content != record.content or not embedding:
            (embedding,) = embed_texts(self.embedder, [item.content])
        return record.model_copy(
            update={
                "content": item.content,
                "metadata": {**record.metadata, ID_KEY: item.id},
                "embedding": embedding,
            }
        )

    async def _admit(self, records: Sequence[MemoryRecord]) -> list[tuple[MemoryRecord, bool]]:
        """Each record through memgate: (the record to store, served now)."""
        out = []
        for record in records:
            admitted = await self.guard.admit(self._write(record), self.reader)
            if admitted.item is None:
                out.append((record, False))
            else:
                out.append((self._stored(record, admitted.item), True))
        return out

    def save(self, records: list[MemoryRecord]) -> None:
        """Save the records memgate approves (redacted); hold back the rest."""
        admitted = self.guard.run(self._admit(records))
        self.inner.save([r for r, served in admitted if served])

    def update(self, record: MemoryRecord) -> None:
        """A new version through memgate: stored if approved; held for review, it is
        taken out of the inner store until approved; rejected, the previous stays."""
        ((stored, served),) = self.guard.run(self._admit([record]))
        if served:
            self.inner.update(stored)
        elif self.guard.run(self.guard.current(self.namespace, record.id, self.reader)) is None:
            # Held for review: out until approved. (A rejected rewrite leaves the
            # previous version served, and in the inner store.)
            self.inner.delete(record_ids=[record.id])

    async def asave(self, records: list[MemoryRecord]) -> None:
        admitted = await self.guard.arun(self._admit(records))
        await asyncio.to_thread(self.inner.save, [r for r, served in admitted if served])

    # -- reads ----------------------------------------------------------------------

    async def _check(self, records: Sequence[MemoryRecord], limit: int) -> list[MemoryRecord]:
        """The records memgate serves this reader (each check a recorded read), in
        order, up to `limit`, with memgate's content."""
        out: list[MemoryRecord] = []
        for record in records:
            if len(out) >= limit:
                break
            if not record.metadata.get(ID_KEY):
                continue  # never passed the gate
            item = await self.guard.served_key(self.namespace, record.id, self.reader)
            if item is None or item.id != record.metadata.get(ID_KEY):
                continue
            out.append(record.model_copy(update={"content": item.content}))
        return out

    async def _check_hits(
        self, hits: Sequence[tuple[MemoryRecord, float]], limit: int
    ) -> list[tuple[MemoryRecord, float]]:
        scores = {r.id: s for r, s in hits}
        kept = await self._check([r for r, _ in hits], limit)
        return [(r, scores[r.id]) for r in kept]

    def search(
        self,
        query_embedding: list[float],
        scope_prefix: str | None = None,
        categories: list[str] | None = None,
        metadata_filter: dict[str, Any] | None = None,
        limit: int = 10,
        min_score: float = 0.0,
    ) -> list[tuple[MemoryRecord, float]]:
        hits = self.inner.search(
            query_embedding, scope_prefix, categories, metadata_filter, limit * 2, min_score
        )
        return self.guard.run(self._check_hits(hits, limit))

    async def asearch(
        self,
        query_embedding: list[float],
        scope_prefix: str | None = None,
        categories: list[str] | None = None,
        metadata_filter: dict[str, Any] | None = None,
        limit: int = 10,
        min_score: float = 0.0,
    ) -> list[tuple[MemoryRecord, float]]:
        hits = await asyncio.to_thread(
            self.inner.search,
            query_embedding,
            scope_prefix,
            categories,
            metadata_filter,
            limit * 2,
            min_score,
        )
        return await self.guard.arun(self._check_hits(hits, limit))

    def get_record(self, record_id: str) -> MemoryRecord | None:
        record = self.inner.get_record(record_id)
        if record is None:
            return None
        kept = self.guard.run(self._check([record], 1))
        return kept[0] if kept else None

    def list_records(
        self, scope_prefix: str | None = None, limit: int = 200, offset: int = 0
    ) -> list[MemoryRecord]:
        records = self.inner.list_records(scope_prefix, limit, offset)
        return self.guard.run(self._check(records, limit))

    def get_scope_info(self, scope: str) -> ScopeInfo:
        return self.inner.get_scope_info(scope)

    def list_scopes(self, parent: str = "/") -> list[str]:
        return [str(s) for s in self.inner.list_scopes(parent)]

    def list_categories(self, scope_prefix: str | None = None) -> dict[str, int]:
        return {str(k): int(v) for k, v in self.inner.list_categories(scope_prefix).items()}

    def count(self, scope_prefix: str | None = None) -> int:
        return int(self.inner.count(scope_prefix))

    def touch_records(self, record_ids: list[str]) -> None:
        touch = getattr(self.inner, "touch_records", None)
        if callable(touch):
            touch(record_ids)

    # -- deletes --------------------------------------------------------------------

    def _matching(
        self,
        scope_prefix: str | None,
        categories: list[str] | None,
        record_ids: list[str] | None,
        older_than: datetime | None,
        metadata_filter: dict[str, Any] | None,
    ) -> list[MemoryRecord]:
        if record_ids and not (categories or metadata_filter or older_than or scope_prefix):
            found = [self.inner.get_record(i) for i in record_ids]
            return [r for r in found if r is not None]
        out = []
        for record in self.inner.list_records(scope_prefix, _ALL, 0):
            if record_ids and record.id not in record_ids:
                continue
            if categories and not any(c in record.categories for c in categories):
                continue
            if metadata_filter and not all(
                record.metadata.get(k) == v for k, v in metadata_filter.items()
            ):
                continue
            if older_than and record.created_at >= older_than:
                continue
            out.append(record)
        return out

    async def _tombstone(self, records: Sequence[MemoryRecord], reason: str) -> None:
        actor = self.agent_id or self.session_id or "crewai"
        for record in records:
            memory_id = record.metadata.get(ID_KEY)
            if isinstance(memory_id, str):
                await self.guard.tombstone(memory_id, actor=actor, reason=reason)

    def delete(
        self,
        scope_prefix: str | None = None,
        categories: list[str] | None = None,
        record_ids: list[str] | None = None,
        older_than: datetime | None = None,
        metadata_filter: dict[str, Any] | None = None,
    ) -> int:
        """Delete from the inner store; the records are tombstoned in memgate."""
        matching = self._matching(scope_prefix, categories, record_ids, older_than, metadata_filter)
        self.guard.run(self._tombstone(matching, "crewai delete"))
        return int(
            self.inner.delete(scope_prefix, categories, record_ids, older_than, metadata_filter)
        )

    async def adelete(
        self,
        scope_prefix: str | None = None,
        categories: list[str] | None = None,
        record_ids: list[str] | None = None,
        older_than: datetime | None = None,
        metadata_filter: dict[str, Any] | None = None,
    ) -> int:
        return await asyncio.to_thread(
            self.delete, scope_prefix, categories, record_ids, older_than, metadata_filter
        )

    def reset(self, scope_prefix: str | None = None) -> None:
        """Reset the inner store (or a scope); its records are tombstoned in memgate."""
        matching = self.inner.list_records(scope_prefix, _ALL, 0)
        self.guard.run(self._tombstone(matching, "crewai reset"))
        self.inner.reset(scope_prefix)

    # -- sync -----------------------------------------------------------------------

    def _record(self, item: MemoryItem) -> MemoryRecord | None:
        fields = item.metadata.get(RECORD_KEY)
        if not isinstance(fields, dict) or item.key is None:
            return None
        (embedding,) = embed_texts(self.embedder, [item.content])
        return MemoryRecord(
            id=item.key,
            content=item.content,
            scope=str(fields.get("scope") or "/"),
            categories=list(fields.get("categories") or []),
            importance=float(fields.get("importance", 0.5)),
            source=fields.get("source"),
            private=bool(fields.get("private")),
            metadata={**(fields.get("metadata") or {}), ID_KEY: item.id},
            created_at=datetime.fromisoformat(str(fields["created_at"]))
            if fields.get("created_at")
            else item.created_at,
            embedding=embedding,
        )

    def sync(self) -> SyncReport:
        """Apply memgate's log since the last sync to the inner store: approved
        records enter, records no longer served leave."""
        changed, last = self.guard.run(self.guard.changes())
        report = SyncReport(last_seq=last)
        for change in changed:
            item = change.item
            if item.key is None or item.namespace != self.namespace:
                continue
            if change.enters:
                record = self._record(item)
                if record is None:
                    continue
                if self.inner.get_record(item.key) is None:
                    self.inner.save([record])
                else:
                    self.inner.update(record)
                report.added.append(item.id)
            elif change.leaves and self.inner.get_record(item.key) is not None:
                with contextlib.suppress(KeyError):
                    self.inner.delete(record_ids=[item.key])
                report.removed.append(item.id)
        self.guard.cursor = last
        return report
