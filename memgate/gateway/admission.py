"""Admission: a write is normalized, scanned, routed and appended; transient
content seen in enough sessions is promoted; the short-term pool's expiries and
evictions are logged."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from datetime import timedelta

from pydantic import BaseModel, ConfigDict

from memgate.domain import Decision, Finding, ScanReport
from memgate.domain.events import Event, Op
from memgate.domain.memory import (
    MemoryItem,
    MemoryState,
    MemoryWrite,
    PoolName,
    Target,
    check_transition,
    check_write,
)
from memgate.domain.ports import Eviction
from memgate.errors import NotFound, OversizedWrite, WriteForbidden, WriteRefused
from memgate.gateway.context import (
    SURROGATES,
    SYSTEM_ACTOR,
    GatewayContext,
    content_fingerprint,
    gated,
    new_id,
    state_event,
)
from memgate.gateway.ownership import Route, settle
from memgate.gateway.provenance import Provenance
from memgate.gateway.scanpool import ScanLost, ScanPool, default_processes
from memgate.trust.inspector import KeyedVerdict


class FindingSummary(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    rule_id: str
    category: str
    severity: str


class WriteReceipt(BaseModel):
    """What the writer learns: where its memory went and why."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    state: MemoryState
    pool: PoolName
    trust_score: float
    decision: Decision
    findings: tuple[FindingSummary, ...]
    seq: int
    version: int = 1
    promoted_id: str | None = None
    """Set when this write made its content a promotion candidate and it was promoted."""
    provenance: str | None = None
    """Why provenance held the write for review (or marked a short-term one): the
    reads that tainted its session, e.g. "session s7 read m_… (web, transient)
    40 s before". None: its session was clean, or provenance does not route it."""


def _summary(findings: Sequence[Finding]) -> tuple[FindingSummary, ...]:
    return tuple(
        FindingSummary(rule_id=f.rule_id, category=f.category.value, severity=f.severity.value)
        for f in findings
    )


async def log_evictions(
    ctx: GatewayContext,
    claimed: Sequence[Eviction] | None = None,
    *,
    logged: frozenset[str] = frozenset(),
) -> int:
    """An `expired` event for each item that left the short-term pool (`claimed`,
    or what the pool hands this replica now), then the claims are settled; returns
    how many events. Items in `logged` have their event already (a rollback's).

    A claim another replica took and never settled (it died) comes back `retried`:
    it is logged only if the log does not hold its expiry yet."""
    if claimed is None:
        claimed = await ctx.short.claim_evicted()
    if not claimed:
        return 0
    now = ctx.clock()
    events = []
    for item, why, _, retried in claimed:
        if item.id in logged or (retried and await _left_already(ctx, item)):
            continue
        gone = item.model_copy(update={"state": MemoryState.EXPIRED, "updated_at": now})
        events.append(
            state_event(
                Op.EXPIRED, gone, MemoryState.TRANSIENT, actor=SYSTEM_ACTOR, reason=why, at=now
            )
        )
    if events:
        async with ctx.lock:
            await ctx.store.append(events)
    await ctx.short.settle_evicted(claimed)
    return len(events)


async def _left_already(ctx: GatewayContext, item: MemoryItem) -> bool:
    """Whether the log moved `item` out of the transient state since this version
    (its expiry logged by a replica that died before settling, or promoted, ...)."""
    for record in reversed(await ctx.store.history(item.id)):
        logged = record.event.item
        if logged is None or logged.version < item.version:
            continue
        return record.event.state_after is not MemoryState.TRANSIENT
    return False


START_POOL_AFTER = 64
"""Overlapping write scans after which the scanner processes start (each costs
about a second of CPU to build its scanner, and ~90 MB)."""


class Admission:
    """normalize → scan → route → append, promotion, expiry."""

    def __init__(self, ctx: GatewayContext) -> None:
        self.ctx = ctx
        self.provenance = Provenance(ctx)
        self._pool: ScanPool | None = None
        self._pool_of: object = None
        """The inspector the pool's children were built from."""
        self._scanning = 0
        """Write scans in flight."""
        self._overlapped = 0
        """Write scans that started while another was in flight (see START_POOL_AFTER)."""
        self._closing: set[asyncio.Task[None]] = set()

    async def restore(self) -> None:
        """Unexpired transient items back into the short-term pool; the expired
        ones are recorded as expired now."""
        await self._refill()
        await self.expire_due()

    async def _refill(self) -> None:
        ctx = self.ctx
        for item in sorted(await ctx.store.short_term_items(), key=lambda i: i.created_at):
            await ctx.short.put(item)
            ctx.notes.note(item, ctx.routing.promotion_sessions)
            self.provenance.note(item)
        await ctx.short.filled()

    def _maybe_snapshot(self, seq: int) -> None:
        """Every `snapshot_every` events, snapshot the projection in the background
        so that replay (rollback) never has to start further back than that."""
        ctx = self.ctx
        if seq - ctx.snapshot_seq < ctx.routing.snapshot_every:
            return
        if ctx.snapshotting is not None and not ctx.snapshotting.done():
            return
        ctx.snapshot_seq = seq
        ctx.snapshotting = asyncio.get_running_loop().create_task(ctx.store.snapshot())

    @gated
    async def write(self, write: MemoryWrite) -> WriteReceipt:
        """Scan, route, log. Raises OversizedWrite (nothing stored) above max_bytes,
        WriteRefused when the key carries a secret or personal datum, and
        WriteForbidden when a credentialed writer's key names another writer's
        memory (see gateway/ownership.py). Secrets in metadata are redacted like
        those in content, and metadata's findings count toward the route."""
        ctx = self.ctx
        check_write(write)  # InvalidInput naming the field; nothing stored
        content = SURROGATES.sub("\ufffd", write.content)
        size = len(content.encode("utf-8"))
        if size > ctx.routing.max_bytes:
            raise OversizedWrite(size, ctx.routing.max_bytes)
        # The scan (key, content, metadata) runs off the event loop: a large write
        # delays only the scans queued behind it, never other requests.
        rules, report, metadata = await self._scan(write, content)
        if rules:
            raise WriteRefused(
                f"the key contains sensitive data ({', '.join(rules)}); keys are identifiers:"
                " put the value in the content, where it is redacted"
            )
        write = write.model_copy(update={"content": content, "metadata": metadata})
        receipt = await self._admit(write, report, derived_from=())
        if receipt.state is MemoryState.TRANSIENT:
            promoted = await self._maybe_promote(receipt.id)
            if promoted is not None:
                receipt = receipt.model_copy(update={"promoted_id": promoted.id})
        await log_evictions(ctx)
        return receipt

    async def _scan(self, write: MemoryWrite, content: str) -> KeyedVerdict:
        """`Inspector.inspect_keyed` of the write: in a scanner process when the
        pool is up (concurrent writers then scan on every core), else in the scan
        thread. The pool starts once START_POOL_AFTER scans have overlapped
        another, so a lone writer, or a short-lived process, never pays for
        processes it cannot use."""
        ctx = self.ctx
        if self._scanning:
            self._overlapped += 1
        self._scanning += 1
        try:
            pool = self._pool_now()
            if pool is not None:
                try:
                    verdict = await pool.inspect(write.key, content, write.metadata, write.source)
                except ScanLost:
                    verdict = None  # its child died: scanned here instead
                if verdict is not None:
                    return verdict
            return await ctx.off_loop(
                ctx.inspector.inspect_keyed, write.key, content, write.metadata, write.source
            )
        finally:
            self._scanning -= 1

    def _pool_now(self) -> ScanPool | None:
        """The pool for the current inspector, started when scans overlap."""
        inspector = self.ctx.inspector
        pool = self._pool
        if pool is not None and self._pool_of is inspector:
            return pool
        if pool is not None:  # the inspector was replaced: the children scan for the old one
            self._stop_pool()
        if self._overlapped < START_POOL_AFTER or inspector.recipe is None:
            return None
        processes = default_processes(self.ctx.routing.scan_processes)
        if processes < 1:
            return None
        self._pool, self._pool_of = ScanPool(inspector.recipe, processes), inspector
        self._pool.start()
        return self._pool

    def _stop_pool(self) -> None:
        pool, self._pool, self._pool_of = self._pool, None, None
        if pool is not None:
            task = asyncio.get_running_loop().create_task(pool.close())
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    @property
    def scan_processes(self) -> int:
        """Scanner processes ready for writes now (0: scans run in the scan thread)."""
        return self._pool.ready if self._pool is not None else 0

    async def close(self) -> None:
        """Stop the scanner processes."""
        pool, self._pool, self._pool_of = self._pool, None, None
        if pool is not None:
            await pool.close()
        if self._closing:
            await asyncio.gather(*self._closing)

    def _route(self, write: MemoryWrite, report: ScanReport) -> tuple[PoolName, MemoryState, Op]:
        routing = self.ctx.routing
        if report.decision is Decision.REJECT:
            return PoolName.NONE, MemoryState.REJECTED, Op.REJECTED
        target = write.target
        if target is Target.AUTO:
            target = Target.LONG if write.source in routing.long_term_sources else Target.SHORT
        # Held, not rejected, for want of a quorum (trust.score): its trust is below
        # `review`, so it waits for a person in the long-term queue instead of being
        # served from the short-term pool meanwhile.
        held = (
            report.decision is Decision.REVIEW
            and report.trust_score < self.ctx.policy.thresholds.review
        )
        if target is Target.SHORT and not held:
            return PoolName.SHORT, MemoryState.TRANSIENT, Op.ADMITTED
        approved = (
            report.decision is Decision.APPROVE
            and not report.sensitive
            and routing.trusted(write.source)
            and report.trust_score >= self.ctx.policy.thresholds.approve
        )
        if approved:
            return PoolName.LONG, MemoryState.APPROVED, Op.ADMITTED
        return PoolName.LONG, MemoryState.PENDING_REVIEW, Op.QUEUED

    async def _admit(
        self,
        write: MemoryWrite,
        report: ScanReport,
        *,
        derived_from: tuple[str, ...],
        op: Op | None = None,
        actor: str | None = None,
    ) -> WriteReceipt:
        ctx = self.ctx
        pool, state, route_op, taint = await self.provenance.route(
            write, report, (*self._route(write, report), None), derived_from
        )
        keyed = write.key is not None and pool is not PoolName.NONE
        # Keyed writes read the previous version, so they take the lock for the
        # read-modify-append; unkeyed writes don't, and share group commits.
        async with ctx.lock if keyed else contextlib.nullcontext():
            previous = None
            if keyed and write.key is not None:
                previous = await self._by_key(pool, write.namespace, write.key)
                # A keyed memory is its writer's: another credential's version is
                # refused, or held for review where the namespace is shared.
                route = await settle(ctx, write, Route(pool, state, route_op, previous))
                pool, state, route_op, previous = route.pool, route.state, route.op, route.previous
                if route.hold:
                    report = report.model_copy(update={"reasons": (*report.reasons, route.hold)})
            item, event = self._new_version(
                write, report, pool, state, op or route_op, actor, previous, derived_from, taint
            )
            (record,) = await ctx.store.append([event])
            self._maybe_snapshot(record.seq)
            if pool is PoolName.SHORT:
                await ctx.short.put(item)
        if pool is PoolName.SHORT:
            ctx.notes.note(item, ctx.routing.promotion_sessions)
        self.provenance.note(item)
        return WriteReceipt(
            id=item.id,
            state=state,
            pool=pool,
            trust_score=report.trust_score,
            decision=report.decision,
            findings=_summary(report.findings),
            seq=record.seq,
            version=item.version,
            provenance=taint,
        )

    def _new_version(
        self,
        write: MemoryWrite,
        report: ScanReport,
        pool: PoolName,
        state: MemoryState,
        op: Op,
        actor: str | None,
        previous: MemoryItem | None,
        derived_from: tuple[str, ...],
        taint: str | None = None,
    ) -> tuple[MemoryItem, Event]:
        now = self.ctx.clock()
        expires = None
        if pool is PoolName.SHORT:
            ttl = write.ttl_seconds or self.ctx.routing.short_ttl_seconds
            expires = now + timedelta(seconds=ttl)
        item = MemoryItem(
            id=previous.id if previous else new_id(),
            namespace=write.namespace,
            key=write.key,
            content=report.redacted,
            pool=pool,
            state=state,
            trust_score=report.trust_score,
            decision=report.decision,
            findings=report.findings,
            source=write.source,
            session_id=write.session_id,
            agent_id=write.agent_id,
            call_id=write.call_id,
            metadata=write.metadata,
            created_at=previous.created_at if previous else now,
            updated_at=now,
            scanned_at=now,
            expires_at=expires,
            rules_version=report.rules_version,
            fingerprint=content_fingerprint(report.redacted),
            version=previous.version + 1 if previous else 1,
            derived_from=derived_from,
            reason=taint,
        )
        # NOTE: a new version of a keyed memory enters afresh (routing decides its
        # state), so it is checked as an entry, not as an edge from the old state.
        check_transition(None, state, item.id)
        actor = actor or write.agent_id or write.session_id or write.source.value
        reason = "; ".join([*report.reasons, *([taint] if taint else [])]) or None
        before = previous.state if previous else None
        return item, state_event(op, item, before, actor=actor, reason=reason, at=now)

    async def _by_key(
        self, pool: PoolName, namespace: tuple[str, ...], key: str
    ) -> MemoryItem | None:
        if pool is PoolName.SHORT:
            return await self.ctx.short.get_by_key(namespace, key)
        found = await self.ctx.store.get_by_key(namespace, key)
        if found is not None and found.state.final:
            return None
        return found

    async def _maybe_promote(self, memory_id: str) -> WriteReceipt | None:
        ctx = self.ctx
        item = await ctx.short.get(memory_id)
        if item is None or item.fingerprint in ctx.notes.promoted_fp:
            return None
        sessions = ctx.notes.sessions_by_fp.get(item.fingerprint, set())
        if len(sessions) < ctx.routing.promotion_sessions:
            return None
        ctx.notes.promoted_fp.add(item.fingerprint)
        try:
            return await self.promote(memory_id, by=SYSTEM_ACTOR, reason="seen in several sessions")
        except WriteForbidden:
            # Its key now names another writer's long-term memory: it stays transient.
            return None

    @gated
    async def promote(self, memory_id: str, *, by: str, reason: str | None = None) -> WriteReceipt:
        """Rescan a transient memory and route it as a long-term write. The new item
        records what it derived from; the transient one stays until it expires."""
        item = await self.ctx.short.get(memory_id)
        if item is None:
            raise NotFound(f"no transient memory {memory_id}")
        write = MemoryWrite(
            content=item.content,
            namespace=item.namespace,
            key=item.key,
            source=item.source,
            session_id=item.session_id,
            agent_id=item.agent_id,
            call_id=item.call_id,
            metadata=item.metadata,
            target=Target.LONG,
        )
        report, _ = await self.ctx.off_loop(
            self.ctx.inspector.inspect_write, item.content, item.metadata, item.source
        )
        return await self._admit(write, report, derived_from=(item.id,), op=Op.PROMOTED, actor=by)

    @gated
    async def expire_due(self) -> int:
        """Expire transient items whose TTL has passed; each gets an `expired` event."""
        if await self.ctx.short.lost():
            # A shared pool that lost its data (Redis restarted without persistence):
            # the store still holds every transient item; put them back, so they are
            # served again and their expiries logged (once: see pools/redis.py).
            await self._refill()
        await self.ctx.short.sweep()
        return await log_evictions(self.ctx)
