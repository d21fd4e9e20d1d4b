"""The Gateway: the one place that composes inspector, pools and log.

Every state change is an event appended to the log; the long-term pool is the
log's projection (same transaction), the short-term pool is an in-memory TTL
cache fed by the same events and restored from the store on start.

`Gateway` is a thin facade over four use cases that share one `GatewayContext`
(ports, policy, clock, locks, session notes): `admission` (writes, promotion,
expiry), `review` (human and system state changes), `incident` (rollback and
the graph investigations) and `reads` (what is served, the log, verification).
"""

from __future__ import annotations

import asyncio
import builtins
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any

from memgate.domain import ScanReport, Source
from memgate.domain.events import Checkpoint, LogRecord, VerifyResult
from memgate.domain.graph import Investigation, ProjectionStatus, ProvenanceGraph
from memgate.domain.memory import MemoryItem, MemoryWrite, Reader, utcnow
from memgate.domain.ports import ReadRecord, ShortPool, Store
from memgate.domain.recall import Recall, RecallStatus, SearchHit, SearchMode
from memgate.domain.rollback import RollbackPlan, RollbackScope
from memgate.gateway.admission import Admission, FindingSummary, WriteReceipt
from memgate.gateway.context import (
    SYSTEM_ACTOR,
    Clock,
    GatewayContext,
    content_fingerprint,
    new_id,
)
from memgate.gateway.gate import WriteGate
from memgate.gateway.incident import Incident
from memgate.gateway.reads import Reads as ReadUseCase
from memgate.gateway.reads import render_context
from memgate.gateway.review import Review
from memgate.trust import Inspector, Policy, RoutingPolicy

__all__ = [
    "SYSTEM_ACTOR",
    "Clock",
    "FindingSummary",
    "Gateway",
    "WriteReceipt",
    "content_fingerprint",
    "new_id",
    "render_context",
]

Items = list[MemoryItem]
Records = list[LogRecord]
Reads = list[ReadRecord]


class Gateway:
    """Async memory gateway. Build with `memgate.bootstrap.open_gateway(data_dir)` (SQLite) or
    `memgate.bootstrap.memory_gateway()`; use `SyncGateway` from synchronous code."""

    def __init__(
        self,
        *,
        inspector: Inspector,
        store: Store,
        short: ShortPool,
        policy: Policy,
        clock: Clock = utcnow,
        graph: ProvenanceGraph | None = None,
        recall: Recall | None = None,
        lock: AbstractAsyncContextManager[Any] | None = None,
    ) -> None:
        """`lock`: the read-modify-append lock, when replicas share the store (see
        GatewayContext.lock); one process's asyncio lock if None."""
        self.ctx = GatewayContext(
            inspector=inspector,
            store=store,
            short=short,
            policy=policy,
            routing=policy.routing,
            gate=WriteGate(policy.routing.rollback_wait_seconds),
            clock=clock,
            graph=graph,
            recall=recall,
        )
        if lock is not None:
            self.ctx.lock = lock
        self.admission = Admission(self.ctx)
        self.review = Review(self.ctx)
        self.incident = Incident(self.ctx)
        self.reads = ReadUseCase(self.ctx)

    # -- the shared state, as attributes (assignable, as before the split) ------------

    @property
    def inspector(self) -> Inspector:
        return self.ctx.inspector

    @inspector.setter
    def inspector(self, value: Inspector) -> None:
        self.ctx.inspector = value

    @property
    def graph(self) -> ProvenanceGraph | None:
        """The provenance graph (a projection of the log), or None: disabled."""
        return self.ctx.graph

    @graph.setter
    def graph(self, value: ProvenanceGraph | None) -> None:
        self.ctx.graph = value

    @property
    def recall(self) -> Recall | None:
        """Semantic recall (vector and hybrid search), or None: off."""
        return self.ctx.recall

    @recall.setter
    def recall(self, value: Recall | None) -> None:
        self.ctx.recall = value

    @property
    def store(self) -> Store:
        return self.ctx.store

    @store.setter
    def store(self, value: Store) -> None:
        self.ctx.store = value

    @property
    def short(self) -> ShortPool:
        return self.ctx.short

    @short.setter
    def short(self, value: ShortPool) -> None:
        self.ctx.short = value

    @property
    def policy(self) -> Policy:
        return self.ctx.policy

    @policy.setter
    def policy(self, value: Policy) -> None:
        self.ctx.policy = value

    @property
    def routing(self) -> RoutingPolicy:
        return self.ctx.routing

    @routing.setter
    def routing(self, value: RoutingPolicy) -> None:
        self.ctx.routing = value

    # NOTE: private, but tests, benchmarks and the in-process adapters use these.
    @property
    def _clock(self) -> Clock:
        return self.ctx.clock

    @property
    def _gate(self) -> WriteGate:
        return self.ctx.gate

    @property
    def _snapshotting(self) -> asyncio.Task[int] | None:
        return self.ctx.snapshotting

    # -- lifecycle ---------------------------------------------------------------------

    async def restore(self) -> None:
        """Unexpired transient items back into the short-term pool; the expired
        ones are recorded as expired now."""
        await self.admission.restore()

    async def close(self) -> None:
        self.ctx.stop_scans()
        await self.admission.close()
        if self.ctx.snapshotting is not None:
            await self.ctx.snapshotting
        if self.ctx.graph is not None:
            await self.ctx.graph.close()
        if self.ctx.recall is not None:
            await self.ctx.recall.close()
        await self.ctx.short.close()
        closing = getattr(self.ctx.lock, "aclose", None)
        if closing is not None:
            await closing()
        await self.ctx.store.close()

    async def scan(self, content: str, source: Source = Source.TOOL) -> ScanReport:
        """The verdict on `content` as a write would get it; nothing is stored. Runs
        in the scan thread, off the event loop."""
        return await self.ctx.off_loop(self.ctx.inspector.inspect, content, source)

    # -- writes (admission) -----------------------------------------------------------

    async def write(self, write: MemoryWrite) -> WriteReceipt:
        """Scan, route, log. Raises OversizedWrite (nothing stored) above max_bytes,
        and WriteRefused when the key carries a secret or personal datum. Secrets in
        metadata string values are redacted like those in content."""
        return await self.admission.write(write)

    async def promote(self, memory_id: str, *, by: str, reason: str | None = None) -> WriteReceipt:
        """Rescan a transient memory and route it as a long-term write. The new item
        records what it derived from; the transient one stays until it expires."""
        return await self.admission.promote(memory_id, by=by, reason=reason)

    async def expire_due(self) -> int:
        """Expire transient items whose TTL has passed; each gets an `expired` event."""
        return await self.admission.expire_due()

    # -- state changes (review) -------------------------------------------------------

    async def approve(
        self, memory_id: str, *, reviewer: str, reason: str | None = None
    ) -> MemoryItem:
        return await self.review.approve(memory_id, reviewer=reviewer, reason=reason)

    async def reject(self, memory_id: str, *, reviewer: str, reason: str) -> MemoryItem:
        return await self.review.reject(memory_id, reviewer=reviewer, reason=reason)

    async def edit_and_approve(
        self, memory_id: str, *, reviewer: str, new_content: str, reason: str | None = None
    ) -> MemoryItem:
        """Replace a pending item's content; the new content is rescanned. If the
        scan rejects it, the item is rejected instead (the reviewer sees why)."""
        return await self.review.edit_and_approve(
            memory_id, reviewer=reviewer, new_content=new_content, reason=reason
        )

    async def approve_many(
        self, ids: Sequence[str], *, reviewer: str, reason: str | None = None
    ) -> dict[str, MemoryItem | str]:
        """Bulk approve: per id the new item, or why it was refused."""
        return await self.review.approve_many(ids, reviewer=reviewer, reason=reason)

    async def reject_many(
        self, ids: Sequence[str], *, reviewer: str, reason: str
    ) -> dict[str, MemoryItem | str]:
        """Bulk reject: per id the new item, or why it was refused."""
        return await self.review.reject_many(ids, reviewer=reviewer, reason=reason)

    async def delete(self, memory_id: str, *, actor: str, reason: str | None = None) -> MemoryItem:
        """Tombstone: never served again; history stays in the log."""
        return await self.review.delete(memory_id, actor=actor, reason=reason)

    async def expire_reviews(self) -> int:
        """Items pending review for longer than the review timeout are rejected
        (fail closed), counted from when the item entered review."""
        return await self.review.expire_reviews()

    async def rescan(self) -> builtins.list[str]:
        """Rescan approved items scanned under another rules version; demote those
        that no longer pass to pending review. Returns the demoted ids."""
        return await self.review.rescan()

    # -- rollback (incident) ----------------------------------------------------------

    async def rollback(
        self,
        *,
        to: int | datetime,
        reason: str,
        actor: str,
        scope: RollbackScope | None = None,
        dry_run: bool = True,
    ) -> RollbackPlan:
        """Return the store (or a scope of it) to how it was after event `to` (a
        sequence number, or the last event at or before a time), by replay, as
        compensating events appended with the write gate closed. Dry run by default."""
        return await self.incident.rollback(
            to=to, reason=reason, actor=actor, scope=scope, dry_run=dry_run
        )

    # -- reads ------------------------------------------------------------------------

    async def read(self, memory_id: str, reader: Reader | None = None) -> MemoryItem | None:
        """The memory if it is served to this reader (pending ones only to the
        writer's session), else None. Every served item is recorded as read."""
        return await self.reads.read(memory_id, reader)

    async def read_key(
        self, namespace: tuple[str, ...], key: str, reader: Reader | None = None
    ) -> MemoryItem | None:
        return await self.reads.read_key(namespace, key, reader)

    async def search(
        self,
        namespace_prefix: tuple[str, ...] = (),
        query: str | None = None,
        *,
        metadata: dict[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        reader: Reader | None = None,
        mode: SearchMode | str = SearchMode.TEXT,
    ) -> Items:
        """Served items under a namespace prefix. `mode`: `text` (every word of
        `query` occurs; short-term first, newest first), `vector` (approved
        memories nearest to `query` by embedding, best first) or `hybrid`
        (reciprocal rank fusion of both). Vector and hybrid raise
        RecallUnavailable when semantic recall is off or its extra is missing."""
        return await self.reads.search(
            namespace_prefix,
            query,
            metadata=metadata,
            limit=limit,
            offset=offset,
            reader=reader,
            mode=mode,
        )

    async def search_hits(
        self,
        namespace_prefix: tuple[str, ...] = (),
        query: str | None = None,
        *,
        metadata: dict[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        reader: Reader | None = None,
        mode: SearchMode | str = SearchMode.TEXT,
    ) -> builtins.list[SearchHit]:
        """`search` with each item's score (cosine similarity for `vector`, the
        fusion score for `hybrid`, None for `text`)."""
        return await self.reads.search_hits(
            namespace_prefix,
            query,
            metadata=metadata,
            limit=limit,
            offset=offset,
            reader=reader,
            mode=mode,
        )

    async def recall_status(self) -> RecallStatus:
        """What semantic recall can answer now (off: available False, with why)."""
        return await self.reads.recall_status()

    async def list(
        self,
        namespace_prefix: tuple[str, ...] = (),
        *,
        metadata: dict[str, Any] | None = None,
        limit: int = 50,
        offset: int = 0,
        reader: Reader | None = None,
    ) -> Items:
        return await self.reads.list(
            namespace_prefix, metadata=metadata, limit=limit, offset=offset, reader=reader
        )

    async def pending(
        self,
        *,
        namespace_prefix: tuple[str, ...] = (),
        category: Any = None,
        source: Source | None = None,
        older_than: datetime | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> Items:
        """The review queue, oldest first."""
        return await self.reads.pending(
            namespace_prefix=namespace_prefix,
            category=category,
            source=source,
            older_than=older_than,
            limit=limit,
            offset=offset,
        )

    async def get_any(self, memory_id: str) -> MemoryItem | None:
        """The item in whatever state (operators, reviewers). Not recorded as a read."""
        return await self.reads.get_any(memory_id)

    # -- the log ----------------------------------------------------------------------

    async def history(self, memory_id: str) -> Records:
        return await self.reads.history(memory_id)

    async def reads_of(self, memory_id: str) -> Reads:
        return await self.reads.reads_of(memory_id)

    async def verify(self, checkpoint: Checkpoint | None = None) -> VerifyResult:
        return await self.reads.verify(checkpoint)

    async def checkpoint(self) -> Checkpoint:
        return await self.reads.checkpoint()

    async def flush(self) -> None:
        await self.ctx.flush()

    # -- investigations (incident) ----------------------------------------------------

    async def readers(
        self, memory_id: str, since: datetime | None = None, until: datetime | None = None
    ) -> Investigation:
        """Calls and sessions that read the memory (optionally within a window)."""
        return await self.incident.readers(memory_id, since, until)

    async def blast_radius(self, memory_id: str, depth: int = 3) -> Investigation:
        """Memories written by sessions after they read this one (and derived from
        it), transitively up to `depth` (an integer 1..6), with the paths."""
        return await self.incident.blast_radius(memory_id, depth)

    async def provenance(self, memory_id: str) -> Investigation:
        """Where the memory came from: source, writing call and session, ancestors."""
        return await self.incident.provenance(memory_id)

    async def exposure(self, fingerprint: str) -> Investigation:
        """Every memory and call that carried the sensitive value with this keyed
        fingerprint (as findings report it), across sessions."""
        return await self.incident.exposure(fingerprint)

    async def projection_status(self) -> ProjectionStatus:
        return await self.incident.projection_status()

    async def rebuild_graph(self) -> int:
        """Drop the graph and project it again from SQLite (`memgate graph rebuild`);
        returns the events projected. Raises GraphUnavailable if there is no graph
        or it cannot be reached."""
        return await self.incident.rebuild_graph()
