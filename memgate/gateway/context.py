"""What the gateway's use cases share: the ports, the policy, the clock, the locks
and the session notes, in one object each use case receives; plus the helpers
they all build events and ids with. No use case keeps state of its own."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Concatenate, Protocol

import xxhash

from memgate.domain.events import Event, Op
from memgate.domain.graph import ProvenanceGraph
from memgate.domain.memory import MemoryItem, MemoryState, utcnow
from memgate.domain.ports import ShortPool, Store
from memgate.domain.recall import Recall
from memgate.gateway.gate import WriteGate
from memgate.trust import Inspector, Policy, RoutingPolicy

Clock = Callable[[], datetime]
SYSTEM_ACTOR = "memgate"
SURROGATES = re.compile("[\ud800-\udfff]")
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_id() -> str:
    """Time-ordered id (ULID layout): 48-bit milliseconds + 80 random bits."""
    value = (time.time_ns() // 1_000_000) << 80 | secrets.randbits(80)
    chars = []
    for _ in range(26):
        value, rem = divmod(value, 32)
        chars.append(_CROCKFORD[rem])
    return "m_" + "".join(reversed(chars))


def content_fingerprint(text: str) -> str:
    """Equal after normalization (NFKC, case, whitespace) => equal fingerprint."""
    norm = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    return xxhash.xxh3_128_hexdigest(norm.encode("utf-8", "replace"))


def state_event(
    op: Op,
    item: MemoryItem,
    before: MemoryState | None,
    *,
    actor: str,
    reason: str | None,
    at: datetime,
) -> Event:
    """The event that puts `item` (in its new state) into the log."""
    return Event(
        op=op,
        memory_id=item.id,
        at=at,
        actor=actor,
        reason=reason,
        state_before=before,
        state_after=item.state,
        item=item,
    )


@dataclass
class SessionNotes:
    """In which sessions each content fingerprint was seen in the short-term pool
    (up to the promotion threshold), and which fingerprints were promoted already."""

    sessions_by_fp: dict[str, set[str]] = field(default_factory=dict)
    promoted_fp: set[str] = field(default_factory=set)

    def note(self, item: MemoryItem, limit: int) -> None:
        if item.session_id:
            sessions = self.sessions_by_fp.setdefault(item.fingerprint, set())
            if len(sessions) < limit:
                sessions.add(item.session_id)

    def recount(self, items: Iterable[MemoryItem], limit: int) -> None:
        """Forget every sighting, then note `items` (the live transient ones)."""
        self.sessions_by_fp = {}
        for item in items:
            self.note(item, limit)


@dataclass
class GatewayContext:
    """The shared state of one gateway. Use cases read and change it; the
    `Gateway` facade builds it once."""

    inspector: Inspector
    store: Store
    short: ShortPool
    policy: Policy
    routing: RoutingPolicy
    gate: WriteGate
    """Writers pass side by side; a rollback closes it."""
    clock: Clock = utcnow
    graph: ProvenanceGraph | None = None
    """The provenance graph (a projection of the log), or None: disabled."""
    recall: Recall | None = None
    """Semantic recall (vector / hybrid search; a projection of the log), or None: off."""
    recall_wait: float = 10.0
    """Seconds a vector or hybrid search waits at most for the index to reach the
    log's head as of the search (a moment after a write; the first search after a
    large import serves what is indexed by then)."""
    lock: AbstractAsyncContextManager[Any] = field(default_factory=asyncio.Lock)
    """Held for a read-modify-append (keyed writes, state changes, expiry events).
    An asyncio lock for one process; replicas sharing a store share a lock across
    processes (`memgate.lease.mutex.PostgresMutex`, given by the composition root)."""
    notes: SessionNotes = field(default_factory=SessionNotes)
    snapshot_seq: int = 0
    snapshotting: asyncio.Task[int] | None = None
    scans: ThreadPoolExecutor | None = None
    """The scan thread, started on first use (`off_loop`)."""

    async def off_loop[**P, R](
        self, work: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs
    ) -> R:
        """Run CPU-bound `work` (a scan) in the gateway's scan thread, so the event
        loop keeps serving other requests meanwhile. One thread: scans run one at a
        time, in order (the scanner's caches are not shared between threads)."""
        if self.scans is None:
            self.scans = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memgate-scan")
        call = functools.partial(work, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self.scans, call)

    def stop_scans(self) -> None:
        """Let the scan thread end once the scans queued on it are done."""
        if self.scans is not None:
            self.scans.shutdown(wait=False)
            self.scans = None

    async def flush(self) -> None:
        """Make batched reads durable (stores that batch them have `flush`)."""
        flush = getattr(self.store, "flush", None)
        if flush is not None:
            await flush()

    async def lookup(self, memory_id: str) -> MemoryItem | None:
        """The item in whatever state, from either pool. Not a read."""
        return await self.short.get(memory_id) or await self.store.get(memory_id)


class HasContext(Protocol):
    ctx: GatewayContext


_IN_GATE: contextvars.ContextVar[bool] = contextvars.ContextVar("memgate_in_gate", default=False)


def gated[S: HasContext, **P, R](
    method: Callable[Concatenate[S, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, R]]:
    """Run a state-changing method as a writer of the gate (once per call chain:
    nested gated calls, like a write that triggers a promotion, don't re-enter)."""

    @functools.wraps(method)
    async def wrapper(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        if _IN_GATE.get():
            return await method(self, *args, **kwargs)
        async with self.ctx.gate.write():
            token = _IN_GATE.set(True)
            try:
                return await method(self, *args, **kwargs)
            finally:
                _IN_GATE.reset(token)

    return wrapper
