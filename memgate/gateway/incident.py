"""Incident response: rollback (planned by replay, applied as compensating events
with the write gate closed) and the investigations over the provenance graph
(readers, blast radius, provenance, exposure), its status and its rebuild."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import re
from collections.abc import Callable, Coroutine, Iterator, Sequence
from datetime import datetime
from typing import Any

from memgate.domain.events import Event, Op
from memgate.domain.graph import (
    MAX_DEPTH,
    GraphGap,
    Investigation,
    InvestigationKind,
    InvestigationStatus,
    ProjectionStatus,
    ProvenanceGraph,
)
from memgate.domain.memory import MemoryItem, MemoryState, PoolName
from memgate.domain.raw import encode
from memgate.domain.rollback import (
    AppendsCompensation,
    Compensation,
    PairsVersions,
    RollbackPlan,
    RollbackScope,
)
from memgate.errors import GraphUnavailable
from memgate.gateway.admission import log_evictions
from memgate.gateway.context import GatewayContext, new_id
from memgate.gateway.rollback import Planned, counts, plan

_FINGERPRINT = re.compile(r"^[0-9a-f]{8,64}$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _bad_id(memory_id: object) -> str | None:
    """Why a memory id cannot be one (None if it can): investigations answer
    INVALID_INPUT rather than searching for garbage."""
    if not isinstance(memory_id, str) or not memory_id.strip():
        return "memory id must be a non-empty string"
    if len(memory_id) > 200:
        return "memory id is longer than 200 characters"
    if _CONTROL.search(memory_id):
        return "memory id contains control characters"
    return None


class Incident:
    """rollback, readers / blast_radius / provenance / exposure, projection status, rebuild."""

    def __init__(self, ctx: GatewayContext) -> None:
        self.ctx = ctx

    # -- rollback --------------------------------------------------------------------

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
        sequence number, or the last event at or before a time).

        The target is computed by replay. Applying appends one compensating
        `rolled_back` event per changed memory plus a marker with the reason and
        actor, in one transaction, while the write gate is closed: writes in
        flight finish first, new ones wait (then fail with RollbackInProgress);
        reads go on. Nothing is deleted, so a rollback can itself be undone by
        rolling back to the sequence number just before its first event."""
        if not reason.strip() or not actor.strip():
            raise ValueError("a rollback needs a reason and an actor")
        ctx = self.ctx
        scope = scope or RollbackScope()
        async with ctx.gate.exclusive():
            with _collector_paused():
                return await self._rollback(to, reason, actor, scope, dry_run)

    async def _rollback(
        self,
        to: int | datetime,
        reason: str,
        actor: str,
        scope: RollbackScope,
        dry_run: bool,
    ) -> RollbackPlan:
        ctx = self.ctx
        await ctx.flush()
        head = (await ctx.store.checkpoint()).seq
        to_seq = to if isinstance(to, int) else await ctx.store.seq_at(to)
        if not 0 <= to_seq <= head:
            raise ValueError(f"target sequence {to_seq} is outside 0..{head}")
        now = ctx.clock()
        # Only memories with events after the target can differ: fetch their
        # items at the target and now (cost follows the change, not the store).
        # In one pass where the store can (each event decoded once); else both
        # queries at once: each is SQL (no GIL) then decoding (GIL), so one's SQL
        # runs beside the other's decoding.
        if isinstance(ctx.store, PairsVersions):
            target, current = await ctx.store.changed_versions_pair(to_seq, head)
        else:
            target, current = await asyncio.gather(
                ctx.store.changed_versions(to_seq, to_seq),
                ctx.store.changed_versions(to_seq, head),
            )
        lineage = await ctx.store.state_at(head) if scope.memory_id else None
        tainted, graph_status = await self._tainted(scope.memory_id)
        planned = plan(target, current, scope, now, lineage=lineage, tainted=tainted)
        changes = tuple(p.change for p in planned)
        result = RollbackPlan(
            to_seq=to_seq,
            head_seq=head,
            scope=scope,
            changes=changes,
            counts=counts(list(changes)),
        )
        # The evidence (who read what changes, what it flowed into) is taken
        # before applying, so the applied plan reports the graph as the dry run
        # did, instead of reading as if there were no graph.
        result = await self._with_graph_evidence(result, graph_status)
        if dry_run:
            return result
        # Each compensating event names the event whose item it puts back
        # (seq + MAC) instead of embedding the item again; the marker closes
        # the rollback. All in one append: one transaction.
        marker = Event(
            op=Op.ROLLED_BACK,
            memory_id=f"rollback:{new_id()}",
            at=now,
            actor=actor,
            reason=reason,
            detail={
                "to_seq": to_seq,
                "head_seq": head,
                "scope": scope.model_dump(mode="json"),
                "changed": len(planned),
            },
        )
        batch = Compensation(at=now, actor=actor, reason=reason, planned=planned, marker=marker)
        if isinstance(ctx.store, AppendsCompensation):
            marker_seq = await ctx.store.append_compensation(batch)
        else:
            marker_seq = (await ctx.store.append(batch.events()))[-1].seq
        for p in planned:
            if p.item.pool == PoolName.SHORT.value:
                if p.item.state == MemoryState.TRANSIENT.value:
                    await ctx.short.put(MemoryItem.model_validate_json(encode(p.item)))
                else:
                    await ctx.short.remove(p.item.id)
        # Rolled-back items are logged already; anything else that left the
        # short-term pool meanwhile (a TTL a read noticed, or capacity taken by
        # the restored items) still gets its `expired` event, after the marker.
        rolled = frozenset(p.item.id for p in planned)
        await log_evictions(ctx, logged=rolled)
        await self._recount_promotions(planned)
        return result.model_copy(update={"applied": True, "marker_seq": marker_seq})

    async def _tainted(
        self, memory_id: str | None
    ) -> tuple[set[str] | None, InvestigationStatus | None]:
        """For a memory scope with a graph: what the memory's content flowed into
        (derivations and writes after reading it, to the maximum depth). Writes
        are paused (the gate is closed), so the graph can catch up first."""
        graph = self.ctx.graph
        if memory_id is None or graph is None:
            return None, None
        try:
            await graph.sync(within=5.0)
            impact = await graph.impact_of([memory_id], MAX_DEPTH, limit=100_000)
            tainted = {row.memory_id for row in impact}
            gap = await graph.gap([memory_id, *tainted])
        except GraphUnavailable:
            return None, InvestigationStatus.GRAPH_UNAVAILABLE
        return tainted, _complete(gap)

    async def _with_graph_evidence(
        self, result: RollbackPlan, status: InvestigationStatus | None
    ) -> RollbackPlan:
        """A dry run's evidence from the graph: who read what would be reverted, and
        what their content flowed into (blast radius, depth 3)."""
        graph = self.ctx.graph
        if graph is None:
            return result
        if status is InvestigationStatus.GRAPH_UNAVAILABLE:
            return result.model_copy(update={"graph_status": status})
        ids = [change.memory_id for change in result.changes]
        try:
            await graph.sync(within=5.0)
            readers = await graph.readers_of(ids) if ids else ()
            derived = await graph.impact_of(ids, 3) if ids else ()
            gap = await graph.gap([*ids, *(d.memory_id for d in derived)]) if ids else None
        except GraphUnavailable:
            return result.model_copy(update={"graph_status": InvestigationStatus.GRAPH_UNAVAILABLE})
        # Behind on the scope's own taint walk, or on this evidence: either way
        # the lists may be short, and the plan must not read as complete.
        behind = status is InvestigationStatus.GRAPH_BEHIND or gap is not None
        return result.model_copy(
            update={
                "readers": readers,
                "derived": derived,
                "graph_status": (
                    InvestigationStatus.GRAPH_BEHIND if behind else InvestigationStatus.OK
                ),
            }
        )

    async def _recount_promotions(self, planned: Sequence[Planned]) -> None:
        """After a rollback, sightings count only the transient items still live (a
        rolled-back write must not help its content towards promotion), and content
        whose automatic promotion was rolled back may be promoted again."""
        ctx = self.ctx
        if any(p.item.pool == PoolName.SHORT.value for p in planned):
            now = ctx.clock()
            live = [
                item
                for item in sorted(await ctx.store.short_term_items(), key=lambda i: i.created_at)
                if item.expires_at is None or item.expires_at > now
            ]
            ctx.notes.recount(live, ctx.routing.promotion_sessions)
        served = (MemoryState.APPROVED.value, MemoryState.PENDING_REVIEW.value)
        for p in planned:
            item = p.item
            if item.pool == PoolName.LONG.value and item.derived_from:
                if item.state in served:
                    ctx.notes.promoted_fp.add(item.fingerprint)
                else:
                    ctx.notes.promoted_fp.discard(item.fingerprint)

    # -- investigations (the provenance graph) ------------------------------------------

    async def readers(
        self, memory_id: str, since: datetime | None = None, until: datetime | None = None
    ) -> Investigation:
        """Calls and sessions that read the memory (optionally within a window)."""
        problem = _bad_id(memory_id)
        if problem is None and since is not None and until is not None and since > until:
            problem = "since is after until"
        if problem is None and not all(
            t is None or isinstance(t, datetime) for t in (since, until)
        ):
            problem = "since and until must be datetimes"
        return await self._investigate(
            "readers", memory_id, problem, lambda g: g.readers(memory_id, since, until)
        )

    async def blast_radius(self, memory_id: str, depth: int = 3) -> Investigation:
        """Memories written by sessions after they read this one (and derived from
        it), transitively up to `depth` (an integer 1..6), with the paths."""
        problem = _bad_id(memory_id)
        if problem is None and (type(depth) is not int or not 1 <= depth <= MAX_DEPTH):
            problem = f"depth must be an integer 1..{MAX_DEPTH}"
        return await self._investigate(
            "blast_radius", memory_id, problem, lambda g: g.blast_radius(memory_id, depth)
        )

    async def provenance(self, memory_id: str) -> Investigation:
        """Where the memory came from: source, writing call and session, ancestors."""
        return await self._investigate(
            "provenance", memory_id, _bad_id(memory_id), lambda g: g.provenance(memory_id)
        )

    async def exposure(self, fingerprint: str) -> Investigation:
        """Every memory and call that carried the sensitive value with this keyed
        fingerprint (as findings report it), across sessions."""
        problem = None
        if not isinstance(fingerprint, str) or not _FINGERPRINT.match(fingerprint):
            problem = "a fingerprint is 8-64 lowercase hex characters"
        return await self._investigate(
            "exposure", fingerprint, problem, lambda g: g.exposure(fingerprint)
        )

    async def _investigate(
        self,
        kind: InvestigationKind,
        subject: str,
        problem: str | None,
        ask: Callable[[ProvenanceGraph], Coroutine[Any, Any, Investigation]],
    ) -> Investigation:
        """Never raises for graph trouble: the status says the graph could not
        answer, so an empty answer is never mistaken for a clean one."""
        ctx = self.ctx
        subject = subject[:200] if isinstance(subject, str) else repr(subject)[:200]
        if problem is not None:
            return Investigation(
                kind=kind,
                subject=subject,
                status=InvestigationStatus.INVALID_INPUT,
                message=problem,
            )
        if ctx.graph is None:
            return Investigation(
                kind=kind,
                subject=subject,
                status=InvestigationStatus.GRAPH_UNAVAILABLE,
                message="graph disabled",
            )
        await ctx.flush()
        try:
            result = await ask(ctx.graph)
        except GraphUnavailable as exc:
            return Investigation(
                kind=kind,
                subject=subject,
                status=InvestigationStatus.GRAPH_UNAVAILABLE,
                message=str(exc),
            )
        except ValueError as exc:
            return Investigation(
                kind=kind,
                subject=subject,
                status=InvestigationStatus.INVALID_INPUT,
                message=str(exc),
            )
        if (
            result.status is InvestigationStatus.UNKNOWN_MEMORY
            and kind != "exposure"
            and await ctx.lookup(subject) is not None
        ):
            return result.model_copy(
                update={
                    "status": InvestigationStatus.GRAPH_UNAVAILABLE,
                    "message": f"in the store but not in the graph yet (lag {result.lag})",
                }
            )
        return result

    async def projection_status(self) -> ProjectionStatus:
        if self.ctx.graph is None:
            return ProjectionStatus(enabled=False, available=False, last_error="graph disabled")
        await self.ctx.flush()
        return await self.ctx.graph.status()

    async def rebuild_graph(self) -> int:
        """Drop the graph and project it again from SQLite (`memgate graph rebuild`);
        returns the events projected. Raises GraphUnavailable if there is no graph
        or it cannot be reached."""
        if self.ctx.graph is None:
            raise GraphUnavailable("graph disabled")
        await self.ctx.flush()
        return await self.ctx.graph.rebuild()


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a rollback plans and applies (the
    write gate is closed; seconds at most). It allocates ~10 objects per changed
    memory, and each collection walked all of them: 12 us of a compensating
    event's construction was the collector, 3 us the work."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _complete(gap: GraphGap | None) -> InvestigationStatus:
    """`graph_behind` when the graph is missing rows that concern the evidence."""
    return InvestigationStatus.OK if gap is None else InvestigationStatus.GRAPH_BEHIND
