"""Review: the human decisions on long-term memories (approve, reject, edit, in
bulk), tombstones, and the system's own: review timeouts and rescans under new
rules. Every one is a checked state transition appended under the lock."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from datetime import timedelta
from typing import Any

from memgate.domain import Decision
from memgate.domain.events import Op
from memgate.domain.memory import (
    REPLACES_KEY,
    MemoryItem,
    MemoryState,
    PoolName,
    check_content,
    check_transition,
)
from memgate.domain.notices import REVIEW_TIMEOUT_REASON
from memgate.domain.ports import PoolQuery
from memgate.errors import IllegalTransition, NotFound, OversizedWrite, ReviewRefused
from memgate.gateway.context import (
    SURROGATES,
    SYSTEM_ACTOR,
    GatewayContext,
    content_fingerprint,
    gated,
    state_event,
)
from memgate.gateway.ownership import writer_of, wrote


async def _each(
    ids: Sequence[str], action: Callable[[str], Coroutine[Any, Any, MemoryItem]]
) -> dict[str, MemoryItem | str]:
    """Run a review action per id; a refusal is that id's result, not the batch's end."""
    out: dict[str, MemoryItem | str] = {}
    for memory_id in ids:
        try:
            out[memory_id] = await action(memory_id)
        except (NotFound, ReviewRefused, IllegalTransition, ValueError) as exc:
            out[memory_id] = str(exc)
    return out


class Review:
    """approve / reject / edit (one or many), delete, expire reviews, rescan."""

    def __init__(self, ctx: GatewayContext) -> None:
        self.ctx = ctx

    async def _change(
        self,
        item: MemoryItem,
        op: Op,
        state: MemoryState,
        *,
        actor: str,
        reason: str | None,
        **updates: Any,
    ) -> MemoryItem:
        ctx = self.ctx
        async with ctx.lock:
            # Re-read under the lock: a concurrent change may have moved it already.
            current = await self._current(item)
            if current is None:
                raise NotFound(f"no memory {item.id}")
            check_transition(current.state, state, current.id)
            now = ctx.clock()
            changed = current.model_copy(
                update={
                    "state": state,
                    "updated_at": now,
                    "version": current.version + 1,
                    **updates,
                }
            )
            event = state_event(op, changed, current.state, actor=actor, reason=reason, at=now)
            replaced = await self._replaced(changed) if state is MemoryState.APPROVED else None
            events = [event]
            if replaced is not None:
                gone = replaced.model_copy(
                    update={
                        "state": MemoryState.DELETED,
                        "updated_at": now,
                        "version": replaced.version + 1,
                    }
                )
                why = f"replaced by {changed.id}, approved by {actor}"
                events.append(
                    state_event(Op.DELETED, gone, replaced.state, actor=actor, reason=why, at=now)
                )
            # One transaction: the replacement is never served beside its original.
            await ctx.store.append(events)
            if current.pool is PoolName.SHORT:
                await ctx.short.remove(current.id)
            if replaced is not None and replaced.pool is PoolName.SHORT:
                await ctx.short.remove(replaced.id)
        return changed

    async def _replaced(self, item: MemoryItem) -> MemoryItem | None:
        """The memory an approved `item` replaces (its metadata's REPLACES_KEY), if
        it is still live, in the same namespace and from the same writer (who may
        delete it anyway); else None and nothing else changes."""
        target = item.metadata.get(REPLACES_KEY)
        if not isinstance(target, str) or target == item.id:
            return None
        original = await self.ctx.lookup(target)
        if (
            original is None
            or original.namespace != item.namespace
            or writer_of(original.agent_id) != writer_of(item.agent_id)
            or original.state.final
        ):
            return None
        return original

    async def _current(self, item: MemoryItem) -> MemoryItem | None:
        if item.pool is PoolName.SHORT:
            return await self.ctx.short.get(item.id)
        return await self.ctx.store.get(item.id)

    async def _long(self, memory_id: str) -> MemoryItem:
        item = await self.ctx.store.get(memory_id)
        if item is None:
            raise NotFound(f"no long-term memory {memory_id}")
        return item

    def _check_reviewer(self, item: MemoryItem, reviewer: str) -> None:
        if not reviewer:
            raise ReviewRefused("a reviewer identity is required")
        if wrote(reviewer, item):
            raise ReviewRefused(f"{reviewer} wrote {item.id} and cannot review it")

    async def _review(
        self, memory_id: str, reviewer: str, op: Op, state: MemoryState, reason: str | None
    ) -> MemoryItem:
        item = await self._long(memory_id)
        self._check_reviewer(item, reviewer)
        return await self._change(
            item, op, state, actor=reviewer, reason=reason, reviewed_by=reviewer
        )

    @gated
    async def approve(
        self, memory_id: str, *, reviewer: str, reason: str | None = None
    ) -> MemoryItem:
        return await self._review(memory_id, reviewer, Op.APPROVED, MemoryState.APPROVED, reason)

    @gated
    async def reject(self, memory_id: str, *, reviewer: str, reason: str) -> MemoryItem:
        if not reason or not reason.strip():
            raise ReviewRefused("a reason is required to reject")
        return await self._review(memory_id, reviewer, Op.REJECTED, MemoryState.REJECTED, reason)

    @gated
    async def edit_and_approve(
        self, memory_id: str, *, reviewer: str, new_content: str, reason: str | None = None
    ) -> MemoryItem:
        """Replace a pending item's content; the new content is rescanned. If the
        scan rejects it, the item is rejected instead (the reviewer sees why)."""
        ctx = self.ctx
        item = await self._long(memory_id)
        self._check_reviewer(item, reviewer)
        content = SURROGATES.sub("\ufffd", check_content(new_content))
        if len(content.encode("utf-8")) > ctx.routing.max_bytes:
            raise OversizedWrite(len(content.encode("utf-8")), ctx.routing.max_bytes)
        report, _ = await ctx.off_loop(
            ctx.inspector.inspect_write, content, item.metadata, item.source
        )
        updates = {
            "content": report.redacted,
            "findings": report.findings,
            "trust_score": report.trust_score,
            "decision": report.decision,
            "rules_version": report.rules_version,
            "scanned_at": ctx.clock(),
            "fingerprint": content_fingerprint(report.redacted),
            "reviewed_by": reviewer,
        }
        if report.decision is Decision.REJECT:
            why = "edited content rejected by the scan: " + "; ".join(report.reasons)
            return await self._change(
                item, Op.REJECTED, MemoryState.REJECTED, actor=reviewer, reason=why, **updates
            )
        return await self._change(
            item, Op.EDITED, MemoryState.APPROVED, actor=reviewer, reason=reason, **updates
        )

    async def approve_many(
        self, ids: Sequence[str], *, reviewer: str, reason: str | None = None
    ) -> dict[str, MemoryItem | str]:
        """Bulk approve: per id the new item, or why it was refused."""
        return await _each(ids, lambda i: self.approve(i, reviewer=reviewer, reason=reason))

    async def reject_many(
        self, ids: Sequence[str], *, reviewer: str, reason: str
    ) -> dict[str, MemoryItem | str]:
        """Bulk reject: per id the new item, or why it was refused."""
        return await _each(ids, lambda i: self.reject(i, reviewer=reviewer, reason=reason))

    @gated
    async def delete(self, memory_id: str, *, actor: str, reason: str | None = None) -> MemoryItem:
        """Tombstone: never served again; history stays in the log."""
        item = await self.ctx.lookup(memory_id)
        if item is None:
            raise NotFound(f"no memory {memory_id}")
        return await self._change(item, Op.DELETED, MemoryState.DELETED, actor=actor, reason=reason)

    @gated
    async def expire_reviews(self) -> int:
        """Items pending review for longer than the review timeout are rejected
        (fail closed). The time counts from when the item entered review
        (`updated_at`), so one demoted by a rescan gets the full timeout however
        old it is; `older_than` (on `created_at`) only narrows the candidates."""
        ctx = self.ctx
        cutoff = ctx.clock() - timedelta(seconds=ctx.routing.review_timeout_seconds)
        stale: list[MemoryItem] = []
        offset = 0
        while True:
            page = await ctx.store.list(
                PoolQuery(
                    states=frozenset({MemoryState.PENDING_REVIEW}),
                    older_than=cutoff,
                    limit=500,
                    offset=offset,
                    oldest_first=True,
                )
            )
            if not page:
                break
            offset += len(page)
            stale.extend(item for item in page if item.updated_at < cutoff)
        for item in stale:
            await self._change(
                item,
                Op.REJECTED,
                MemoryState.REJECTED,
                actor=SYSTEM_ACTOR,
                reason=REVIEW_TIMEOUT_REASON,  # the outbox tells people on this reason
            )
        return len(stale)

    @gated
    async def rescan(self) -> list[str]:
        """Rescan approved items scanned under another rules version; demote those
        that no longer pass to pending review. Returns the demoted ids."""
        ctx = self.ctx
        version = ctx.inspector.rules_version
        demoted: list[str] = []
        offset = 0
        while True:
            page = await ctx.store.list(
                PoolQuery(
                    states=frozenset({MemoryState.APPROVED}),
                    limit=500,
                    offset=offset,
                    oldest_first=True,
                )
            )
            if not page:
                break
            offset += len(page)
            for item in page:
                if item.rules_version == version:
                    continue
                report, _ = await ctx.off_loop(
                    ctx.inspector.inspect_write, item.content, item.metadata, item.source
                )
                if report.decision is Decision.APPROVE and not report.sensitive:
                    continue
                await self._change(
                    item,
                    Op.DEMOTED,
                    MemoryState.PENDING_REVIEW,
                    actor=SYSTEM_ACTOR,
                    reason=f"rescan under rules {version}: " + "; ".join(report.reasons),
                    findings=report.findings,
                    trust_score=report.trust_score,
                    decision=report.decision,
                    rules_version=version,
                    scanned_at=ctx.clock(),
                )
                demoted.append(item.id)
                offset -= 1
        return demoted
