"""Ports: what the gateway needs from storage. Each has an in-memory twin and a
contract test suite (tests/contracts/)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from pydantic import BaseModel, ConfigDict, Field

from memgate.domain.events import Checkpoint, Event, LogRecord, VerifyResult
from memgate.domain.memory import MemoryItem, MemoryState
from memgate.domain.notices import Notice
from memgate.domain.raw import Version
from memgate.domain.types import Category, Source

Items = list[MemoryItem]
Records = list[LogRecord]


class PoolQuery(BaseModel):
    """Which items to list or search. Namespace matching is by label prefix."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    namespace_prefix: tuple[str, ...] = ()
    text: str | None = None
    """Full-text query (search only): every word must occur."""
    states: frozenset[MemoryState] | None = None
    source: Source | None = None
    category: Category | None = None
    session_id: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    """Equality on top-level metadata keys."""
    older_than: datetime | None = None
    limit: int = Field(default=50, ge=1, le=1000)
    offset: int = Field(default=0, ge=0)
    oldest_first: bool = False


class ReadRecord(BaseModel):
    """One served item, for provenance: who read what, when."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    memory_id: str
    at: datetime
    session_id: str | None = None
    call_id: str | None = None
    agent_id: str | None = None


Reads = list[ReadRecord]


def linked(
    read: ReadRecord,
    session_id: str | None,
    call_id: str | None,
    agent_id: str | None,
    *,
    agent_any_session: bool = False,
) -> bool:
    """Whether `read` belongs to a write's provenance (`Store.reads_linked`)."""
    if session_id is not None and read.session_id == session_id:
        return True
    if call_id is not None and read.call_id == call_id:
        return True
    return (
        agent_id is not None
        and read.agent_id == agent_id
        and (agent_any_session or read.session_id is None)
    )


class Pool(Protocol):
    """A pool of memories. Mutations come from the log projection (`put`, `remove`)."""

    async def put(self, item: MemoryItem) -> None: ...

    async def remove(self, memory_id: str) -> None: ...

    async def get(self, memory_id: str) -> MemoryItem | None: ...

    async def get_by_key(self, namespace: tuple[str, ...], key: str) -> MemoryItem | None: ...

    async def list(self, query: PoolQuery) -> Items: ...

    async def search(self, query: PoolQuery) -> Items: ...


class Eviction(NamedTuple):
    """An item that left the short-term pool, and why (`ttl`, `capacity`,
    `pool_capacity`, `pool_bytes`), as a claim the gateway settles once logged."""

    item: MemoryItem
    why: str
    token: str = ""
    """The pool's handle on the claim (`settle_evicted`); empty where there is none."""
    retried: bool = False
    """Claimed before by someone who never settled it (a replica that died): it may
    be logged already, so the log is checked first."""


class ShortPool(Pool, Protocol):
    """The short-term pool: a Pool whose items leave by time or capacity. What left
    is handed over so the gateway can log an `expired` event for each, exactly once
    even when several gateway replicas share the pool (a network backend)."""

    async def sweep(self) -> None:
        """Move every item whose time has come out of the pool (each becomes an
        eviction, `ttl`)."""
        ...

    async def claim_evicted(self) -> list[Eviction]:
        """The items that left since the last claim, each handed to one caller only
        (across every process sharing the pool)."""
        ...

    async def settle_evicted(self, evictions: Sequence[Eviction]) -> None:
        """The claimed evictions are logged (or need no event): forget them. An
        eviction claimed and never settled is claimed again later, `retried`."""
        ...

    async def lost(self) -> bool:
        """Whether the pool lost what it held since it was last `filled` (a shared
        pool's server restarted without persistence): the gateway then puts the
        store's transient items back."""
        ...

    async def filled(self) -> None:
        """The store's transient items are in (what `lost` compares against)."""
        ...

    async def close(self) -> None: ...


class Lease(Protocol):
    """Leadership of one job among replicas (the graph projector): at most one
    holder at a time, and a holder that dies frees it (its process, connection or
    file lock goes with it). Holders poll: `acquire` never waits."""

    async def acquire(self) -> bool:
        """Try once; True if this instance holds the lease now (already or newly)."""
        ...

    async def held(self) -> bool:
        """Whether this instance still holds it, asking the backend (a lost
        connection is a lost lease)."""
        ...

    async def release(self) -> None:
        """Give it up (another instance may take it at its next try)."""
        ...

    async def close(self) -> None: ...


class EventLog(Protocol):
    """Append-only, MAC-chained log of events."""

    async def append(self, events: Sequence[Event]) -> Records:
        """Append atomically, in order; returns the stored records."""
        ...

    async def records(self, after_seq: int = 0, limit: int = 1000) -> Records: ...

    async def history(self, memory_id: str) -> Records: ...

    async def checkpoint(self) -> Checkpoint: ...

    async def verify(self, checkpoint: Checkpoint | None = None) -> VerifyResult: ...


class Store(EventLog, Pool, Protocol):
    """The log and the long-term pool in one unit: `append` applies each event's
    item to the pool in the same transaction (the pool is a projection of the log)."""

    async def record_reads(self, reads: Sequence[ReadRecord]) -> None: ...

    async def reads(self, memory_id: str) -> Reads: ...

    async def reads_after(self, after: int, limit: int = 500) -> list[tuple[int, ReadRecord]]:
        """Recorded reads in order, with a stable cursor (the reads table's rowid):
        those after `after`, at most `limit`. The graph projection pages with it."""
        ...

    async def reads_linked(
        self,
        since: datetime,
        *,
        session_id: str | None = None,
        call_id: str | None = None,
        agent_id: str | None = None,
        agent_any_session: bool = False,
        limit: int = 5000,
    ) -> Reads:
        """Reads at or after `since` made in session `session_id`, or by call
        `call_id`, or by agent `agent_id` without a session (with any session when
        `agent_any_session`); newest first, at most `limit`, reads still queued for
        the next commit included. Provenance routing asks it before each write."""
        ...

    async def log_heads(self) -> tuple[int, int]:
        """(last event seq, last read cursor): where the log and reads end now."""
        ...

    async def seq_at(self, at: datetime) -> int:
        """The last sequence number whose event happened at or before `at` (0: none)."""
        ...

    async def state_at(self, seq: int) -> dict[str, dict[str, Any]]:
        """Every memory's latest item (as JSON) after event `seq`, by replay from
        the nearest valid snapshot at or before it."""
        ...

    async def changed_items(self, since_seq: int, at_seq: int) -> dict[str, dict[str, Any]]:
        """For every memory with an event after `since_seq`, its item (as JSON) as
        of event `at_seq`; memories without an item by then are absent."""
        ...

    async def changed_versions(self, since_seq: int, at_seq: int) -> dict[str, Version]:
        """`changed_items` as plain structs (no model validated per item), each
        with the event that embeds it (a reference resolved to the event it
        names): what a rollback plans on and points back at."""
        ...

    async def snapshot(self) -> int:
        """Store a snapshot of the projection at the head; returns its seq."""
        ...

    async def short_term_items(self) -> Items:
        """Transient items, to restore the short-term pool after a restart."""
        ...

    async def close(self) -> None: ...


class OutboxEntry(BaseModel):
    """A notice waiting in the outbox, as a delivery worker claimed it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    notice: Notice
    attempts: int = 0
    """Delivery attempts settled so far."""
    done: frozenset[str] = frozenset()
    """Targets (by id, never by URL) that took it already."""
    created: float
    """When it was written (Unix seconds)."""


class OutboxStatus(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pending: int
    delivered: int
    given_up: int
    oldest_pending: float | None = None
    """Unix seconds of the oldest notice not yet delivered."""
    last_error: str | None = None


class Outbox(Protocol):
    """Durable notices. A store's outbox gets a notice for every event `kind_of`
    names in the same transaction as the event (so an appended event is never
    left untold); `enqueue` adds the ones no event carries (verify failures).
    Times are Unix seconds. Delivery is at least once: a claim is a lease, and a
    worker that dies holding one leaves it to be claimed again."""

    async def enqueue(self, notice: Notice) -> bool:
        """Add a notice; False if one with its id is there already."""
        ...

    async def claim(
        self, *, now: float, limit: int, lease: float, due_only: bool = True
    ) -> list[OutboxEntry]:
        """Lease up to `limit` undelivered notices that are due (all undelivered
        ones with `due_only=False`) and not leased by another worker."""
        ...

    async def settle(
        self,
        notice_id: str,
        *,
        done: frozenset[str],
        delivered: bool,
        next_at: float | None = None,
        error: str | None = None,
        gave_up: bool = False,
    ) -> None:
        """Record one attempt: delivered, to be retried at `next_at`, or given up."""
        ...

    async def status(self) -> OutboxStatus: ...

    async def prune(self, before: float) -> int:
        """Forget delivered and given-up notices written before `before`."""
        ...

    async def close(self) -> None: ...
