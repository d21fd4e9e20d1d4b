"""Provenance: what a session was served decides what an agent may keep.

A session is tainted by each memory it was served within the policy's window
(`[provenance]` in the policy file): the reads the gateway records durably for
read, read by key, search and list, linked to a write by its session id, its
call id, and (reads made without a session) its agent id. A served memory
taints when it is now pending review or rejected, comes from a tool, web page or
document, carries a finding, or is a short-term memory a tainted session wrote
(so a summary cannot launder a page through a second session). What a session
wrote itself counts too: an agent that stored a web page has read it, even when
the scan rejected the page and nothing was served.

A long-term write from an `auto_approve` source (by default `agent`) is then
routed by provenance: from a tainted session it waits for review with the reads
that tainted it as the reason ("session s7 read m_… (web, transient) 40 s
before"), recorded in the event, the item and the receipt; from a clean session
a write the scan approves is kept without a human. A short-term write from a
tainted session is kept as usual, marked, so whoever reads it is tainted in turn.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from memgate.domain import Decision, ScanReport, Severity
from memgate.domain.events import Op
from memgate.domain.memory import MemoryItem, MemoryState, MemoryWrite, PoolName
from memgate.domain.ports import ReadRecord
from memgate.gateway.context import GatewayContext
from memgate.trust import ProvenancePolicy

MARK = "provenance: "
"""How an item's `reason` starts when its writing session was tainted (the item
was held for review, or kept short-term marked)."""

SHOWN = 3
"""Tainting reads named in a reason; the rest are counted."""
WROTE_PER_SESSION = 16
"""Own tainting writes remembered per session (the newest)."""
WROTE_SESSIONS = 100_000
"""Sessions whose own tainting writes are remembered (the least recent leave)."""
VERDICTS = 65_536
"""Served memories whose verdict (`untrusted`) is remembered between writes."""
VERDICT_GAP = 256
"""Events committed since the last check beyond which every verdict is dropped
instead of only those of the memories the events name."""
_ID_CHARS = 80
_RANK = {severity: rank for rank, severity in enumerate(Severity)}

Route = tuple[PoolName, MemoryState, Op, str | None]


@dataclass(frozen=True, slots=True)
class Tainted:
    """One memory that tainted a session: served to it, or written by it."""

    memory_id: str
    what: str
    """Why it taints: its source and state, and the finding or mark if any."""
    via: str
    """`session s7 read`, `call c1 read`, `agent a1 read`, `session s7 wrote`."""
    at: datetime

    def describe(self, now: datetime) -> str:
        ago = _ago((now - self.at).total_seconds())
        return f"{self.via} {_short(self.memory_id)} ({self.what}) {ago} before"


def _short(text: str) -> str:
    return text if len(text) <= _ID_CHARS else text[: _ID_CHARS - 1] + "…"


def _ago(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def untrusted(item: MemoryItem, policy: ProvenancePolicy, *, own: bool = False) -> str | None:
    """Why being served `item` taints a session, or None if it does not. `own`:
    the session wrote it. Its own words held only for a secret or personal datum
    (pending, a sensitive finding) are no untrusted content, so they do not count."""
    marks: list[str] = []
    if item.state is not MemoryState.APPROVED and item.reason and item.reason.startswith(MARK):
        marks.append("written by a tainted session")
    floor = _RANK[policy.finding_severity]
    flagged = sorted(
        {
            f.rule_id
            for f in item.findings
            if _RANK[f.severity] >= floor and not (own and f.category.sensitive)
        }
    )
    if flagged:
        more = f" +{len(flagged) - 1}" if len(flagged) > 1 else ""
        marks.append(f"finding {flagged[0]}{more}")
    states = policy.taint_states - {MemoryState.PENDING_REVIEW} if own else policy.taint_states
    if marks or item.source in policy.taint_sources or item.state in states:
        return ", ".join([item.source.value, item.state.value, *marks])
    return None


class Provenance:
    """Taint of the session behind a write, and the route it implies."""

    def __init__(self, ctx: GatewayContext) -> None:
        self.ctx = ctx
        self._wrote: OrderedDict[str, deque[Tainted]] = OrderedDict()
        # NOTE: each write checks every memory its session was served in the window
        # (up to max_reads); looking each one up again (row, MAC, model) made a
        # session's n-th write cost O(n): 4 -> 12 ms CPU from its 100th to 500th
        # read. A verdict depends only on the memory's current item and the policy,
        # and every change of an item is an event, so a verdict stays valid until an
        # event names its memory: kept here, dropped by the events committed since
        # (any process's: the log's head is read before each check).
        self._verdicts: dict[str, str | None] = {}
        self._verdicts_seq = -1
        self._verdicts_policy: ProvenancePolicy | None = None

    @property
    def policy(self) -> ProvenancePolicy:
        return self.ctx.policy.provenance

    async def route(
        self, write: MemoryWrite, report: ScanReport, route: Route, derived_from: Sequence[str]
    ) -> Route:
        """The scan's route (`pool, state, op, note`) for `write`, as provenance
        changes it. Only writes from `auto_approve` sources are routed here."""
        pool, state, op, _ = route
        if write.source not in self.policy.auto_approve or pool is PoolName.NONE:
            return route
        reason = await self.taint(write, derived_from)
        if pool is PoolName.SHORT:
            return pool, state, op, reason
        if reason is not None:
            return pool, MemoryState.PENDING_REVIEW, Op.QUEUED, reason
        kept = (
            report.decision is Decision.APPROVE
            and not report.sensitive
            and report.trust_score >= self.ctx.policy.thresholds.approve
        )
        if kept:
            return pool, MemoryState.APPROVED, Op.ADMITTED, None
        return route

    async def taint(self, write: MemoryWrite, derived_from: Sequence[str] = ()) -> str | None:
        """Why the session behind `write` is tainted (a reason naming the reads),
        or None if it is clean."""
        policy = self.policy
        now = self.ctx.clock()
        agent_wide = policy.scope == "agent" and write.agent_id is not None
        anonymous = write.session_id is None and write.call_id is None and not agent_wide
        if anonymous and policy.require_session:
            return MARK + "no session or call id: what the writer was served is unknown"
        since = now - timedelta(seconds=policy.window_seconds)
        reads = await self.ctx.store.reads_linked(
            since,
            session_id=write.session_id,
            call_id=write.call_id,
            agent_id=write.agent_id,
            agent_any_session=policy.scope == "agent",
            limit=policy.max_reads + 1,
        )
        if len(reads) > policy.max_reads:
            return (
                MARK + f"served more than {policy.max_reads} memories in"
                f" {_ago(policy.window_seconds)}: not checked"
            )
        found = [*self._wrote_by(write.session_id, since), *await self._served(write, reads)]
        for memory_id in derived_from:
            item = await self._item(memory_id)
            why = untrusted(item, policy) if item is not None else "unknown"
            if why is not None:
                found.append(Tainted(memory_id, why, "derived from", now))
        if not found:
            return None
        found.sort(key=lambda t: t.at, reverse=True)
        shown = "; ".join(t.describe(now) for t in found[:SHOWN])
        rest = f" (+{len(found) - SHOWN} more)" if len(found) > SHOWN else ""
        return MARK + shown + rest

    async def _served(self, write: MemoryWrite, reads: Sequence[ReadRecord]) -> list[Tainted]:
        newest: dict[str, ReadRecord] = {}
        for read in reads:  # newest first: the first read of each memory stays
            newest.setdefault(read.memory_id, read)
        found = []
        if newest:
            await self._refresh_verdicts()
        epoch = self._verdicts_seq
        verdicts = self._verdicts
        for memory_id, read in newest.items():
            if memory_id in verdicts:
                why = verdicts[memory_id]
            else:
                item = await self._item(memory_id)
                why = untrusted(item, self.policy) if item is not None else "unknown memory"
                # A check that ran while another one moved the head on may hold an
                # item older than what that one dropped: not kept.
                if self._verdicts_seq == epoch and len(verdicts) < VERDICTS:
                    verdicts[memory_id] = why
            if why is not None:
                found.append(Tainted(memory_id, why, _via(write, read), read.at))
        return found

    async def _refresh_verdicts(self) -> None:
        """Drop the remembered verdicts that an event committed since the last
        check may have changed: those of the memories the events name, or all of
        them after a policy change, a gap over VERDICT_GAP or a log that does not
        line up. The head moves on only once they are dropped (no await between):
        a check running meanwhile sees the old head and drops them itself."""
        if self.policy is not self._verdicts_policy:
            self._verdicts.clear()
            self._verdicts_policy = self.policy
        head, _ = await self.ctx.store.log_heads()
        seen = self._verdicts_seq
        if head == seen:
            return
        if seen < 0 or head < seen or head - seen > VERDICT_GAP or not self._verdicts:
            self._verdicts.clear()
            self._verdicts_seq = head
            return
        records = await self.ctx.store.records(after_seq=seen, limit=head - seen)
        lined_up = len(records) == head - seen and records[-1].seq == head
        if not lined_up or self._verdicts_seq != seen:
            # Gaps, or another check moved the head while these were read.
            self._verdicts.clear()
        else:
            for record in records:
                self._verdicts.pop(record.event.memory_id, None)
        self._verdicts_seq = head

    async def _item(self, memory_id: str) -> MemoryItem | None:
        """The memory as it is now; one no pool holds any more (expired, rejected
        by the scan) as its last version in the log."""
        item = await self.ctx.lookup(memory_id)
        if item is not None:
            return item
        for record in reversed(await self.ctx.store.history(memory_id)):
            if record.event.item is not None:
                return record.event.item
        return None

    def _wrote_by(self, session_id: str | None, since: datetime) -> list[Tainted]:
        if session_id is None:
            return []
        return [t for t in self._wrote.get(session_id, ()) if t.at >= since]

    def note(self, item: MemoryItem) -> None:
        """Remember a write whose session now holds untrusted content (its own web
        page, rejected or not). Kept in this process: reads are the durable record."""
        if item.session_id is None:
            return
        why = untrusted(item, self.policy, own=True)
        if why is None:
            return
        wrote = self._wrote.get(item.session_id)
        if wrote is None:
            wrote = self._wrote[item.session_id] = deque(maxlen=WROTE_PER_SESSION)
            if len(self._wrote) > WROTE_SESSIONS:
                self._wrote.popitem(last=False)
        else:
            self._wrote.move_to_end(item.session_id)
        wrote.append(
            Tainted(item.id, why, f"session {_short(item.session_id)} wrote", item.updated_at)
        )


def _via(write: MemoryWrite, read: ReadRecord) -> str:
    if read.session_id is not None and read.session_id == write.session_id:
        return f"session {_short(read.session_id)} read"
    if read.call_id is not None and read.call_id == write.call_id:
        return f"call {_short(read.call_id)} read"
    return f"agent {_short(read.agent_id or '?')} read"
