"""The short-term pool: per-namespace TTL caches in memory.

Each namespace holds at most `max_entries` items; each item expires at its own
`expires_at`. The whole pool holds at most `max_total_entries` items and
`max_total_bytes` (an estimate of what an item costs in memory: its content,
metadata and findings plus a fixed overhead), so writes over ever new namespaces
cannot grow the process without bound: past either cap the oldest items of the
pool leave first, whatever their namespace. Items that leave by time or by
capacity are collected with the reason (`ttl`, `capacity` for the namespace's
cap, `pool_capacity` / `pool_bytes` for the pool's) so the gateway records an
`expired` event for each (`drain_evicted`). Durability comes from the store,
which keeps transient items and restores them on start.
"""

from __future__ import annotations

import heapq
import json
import re
from collections import deque
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from memgate.domain.memory import MemoryItem, MemoryState, utcnow
from memgate.domain.ports import Eviction, PoolQuery
from memgate.domain.types import Finding, Source
from memgate.pools.query import matches, words

Clock = Callable[[], datetime]


Items = list[MemoryItem]
Evictions = list[tuple[MemoryItem, str]]
Claimed = list[Eviction]


Dropped = Callable[[MemoryItem, str], None]

ITEM_OVERHEAD_BYTES = 1024
"""What an item costs in memory besides its text: the model, ids, times, indexes."""
FINDING_BYTES = 256


def item_bytes(item: MemoryItem) -> int:
    """An estimate of the memory one item holds in the pool."""
    metadata = json.dumps(item.metadata, ensure_ascii=False, default=str) if item.metadata else ""
    return (
        ITEM_OVERHEAD_BYTES
        + len(item.content.encode("utf-8", "surrogatepass"))
        + len(metadata.encode("utf-8", "surrogatepass"))
        + FINDING_BYTES * len(item.findings)
    )


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICRO = timedelta(microseconds=1)
_HEX16 = re.compile(r"[0-9a-f]{16}")
_FIELDS = frozenset(MemoryItem.model_fields)
_ORDER = tuple(MemoryItem.model_fields)
_new = object.__new__
_set = object.__setattr__
_SHARED = (
    "namespace",
    "pool",
    "state",
    "trust_score",
    "decision",
    "findings",
    "source",
    "session_id",
    "agent_id",
    "rules_version",
    "version",
    "derived_from",
    "reviewed_by",
    "reason",
)
"""Fields most items of a namespace have in common: kept once per distinct
combination (`_Entry.shared`), not once per item."""
_SHARED_KEPT = 4096
"""Distinct shared combinations remembered for reuse (past it the table starts
over; entries keep theirs)."""


def _template(shared: tuple[Any, ...]) -> dict[str, Any]:
    """Every field of the model in declaration order: the shared values, and None
    where each item has its own."""
    values = dict(zip(_SHARED, shared, strict=True))
    return {name: values.get(name) for name in _ORDER}


def _micros(moment: datetime) -> int:
    return (moment - _EPOCH) // _MICRO


def _pack_time(moment: datetime) -> int | datetime:
    """A UTC instant as integer microseconds (32 bytes, not 48); any other zone
    is kept as it is, so an item comes back equal, zone and all."""
    return _micros(moment) if moment.tzinfo is UTC else moment


def _unpack_time(value: int | datetime) -> datetime:
    return value if isinstance(value, datetime) else _EPOCH + value * _MICRO


class _Entry:
    """One item as the pool holds it (~600 bytes for 256 B of text, where the
    model took ~2.3 KB): the fields an item has to itself, and a reference to the
    combination it shares with the other items of its namespace. The content is
    the item's own string, held once."""

    __slots__ = (
        "call_id",
        "content",
        "due",
        "expires",
        "fingerprint",
        "id",
        "key",
        "meta",
        "shared",
        "times",
    )

    id: str
    content: str
    key: str | None
    call_id: str | None
    fingerprint: str | int
    times: int | datetime | tuple[int | datetime, ...]
    """created_at, or (created_at, updated_at, scanned_at) when they differ."""
    expires: int | datetime | None
    due: int | None
    """Where the entry sits in the expiry heap: expires_at in microseconds when it
    was pushed (a sliding read moves `expires` on; the heap catches up lazily)."""
    shared: dict[str, Any]
    """The item's fields in declaration order, shared with the other items of
    the same combination (its own fields are placeholders there)."""
    meta: dict[str, Any] | None

    def __lt__(self, other: _Entry) -> bool:
        return (self.due or 0) < (other.due or 0)

    # What `memgate.pools.query.matches` reads (`Filterable`): a list or search
    # filters and orders entries, and rebuilds only the page it returns.
    @property
    def namespace(self) -> tuple[str, ...]:
        return self.shared["namespace"]  # type: ignore[no-any-return]

    @property
    def state(self) -> MemoryState:
        return self.shared["state"]  # type: ignore[no-any-return]

    @property
    def findings(self) -> tuple[Finding, ...]:
        return self.shared["findings"]  # type: ignore[no-any-return]

    @property
    def source(self) -> Source:
        return self.shared["source"]  # type: ignore[no-any-return]

    @property
    def session_id(self) -> str | None:
        return self.shared["session_id"]  # type: ignore[no-any-return]

    @property
    def metadata(self) -> dict[str, Any]:
        return self.meta or {}

    @property
    def created_at(self) -> datetime:
        times = self.times
        return _unpack_time(times[0] if isinstance(times, tuple) else times)

    def item(self) -> MemoryItem:
        """The item, as it was put (validated then; rebuilt without validating again)."""
        times = self.times
        if isinstance(times, tuple):
            created, updated, scanned = (_unpack_time(t) for t in times)
        else:
            created = updated = scanned = _unpack_time(times)
        fields = self.shared.copy()  # declaration order: the model's own
        fp = self.fingerprint
        fields["id"] = self.id
        fields["key"] = self.key
        fields["content"] = self.content
        fields["call_id"] = self.call_id
        fields["fingerprint"] = fp if isinstance(fp, str) else f"{fp:016x}"
        fields["metadata"] = {} if self.meta is None else self.meta
        fields["created_at"] = created
        fields["updated_at"] = updated
        fields["scanned_at"] = scanned
        fields["expires_at"] = None if self.expires is None else _unpack_time(self.expires)
        # NOTE: what `MemoryItem.model_construct` does, without its per-field
        # walk (about 10x the cost of a `get` here): the values were validated
        # when the item was put, and are the model's own field values.
        item = _new(MemoryItem)
        _set(item, "__dict__", fields)
        _set(item, "__pydantic_fields_set__", set(_FIELDS))
        _set(item, "__pydantic_extra__", None)
        _set(item, "__pydantic_private__", None)
        return item


class ShortTermPool:
    """Transient memories, per namespace, bounded, expiring.

    Held compactly (`_Entry`): each namespace is a dict in least-recently-used
    order, one heap orders expiries for the whole pool, one queue the puts (the
    pool's caps evict the oldest put). Items are rebuilt on the way out."""

    def __init__(
        self,
        *,
        max_entries: int = 1000,
        max_total_entries: int | None = None,
        max_total_bytes: int | None = None,
        sliding_ttl: timedelta | None = None,
        clock: Clock = utcnow,
    ) -> None:
        self._max = max_entries
        self._max_total = max_total_entries
        self._max_bytes = max_total_bytes
        self._sliding = sliding_ttl
        self._clock = clock
        self._spaces: dict[tuple[str, ...], dict[str, _Entry]] = {}
        """Per namespace, its entries, least recently used first."""
        self._entries: dict[str, _Entry] = {}
        self._heap: list[_Entry] = []
        """Entries with an expiry, by `due` (stale ones are skipped when popped)."""
        self._puts: deque[_Entry] = deque()
        """Entries oldest put first (stale ones are skipped)."""
        self._shared: dict[tuple[Any, ...], dict[str, Any]] = {}
        self._evicted: Evictions = []
        self._words: dict[str, tuple[str, frozenset[str]]] = {}
        self._bytes = 0

    @property
    def total_bytes(self) -> int:
        """The estimated memory held by the pool's items (see `item_bytes`)."""
        return self._bytes

    def _now(self) -> int:
        return _micros(self._clock())

    # -- entries -------------------------------------------------------------------

    def _pack(self, item: MemoryItem) -> _Entry:
        entry = _Entry()
        entry.id = item.id
        entry.content = item.content
        entry.key = item.key
        entry.call_id = item.call_id
        fp = item.fingerprint
        entry.fingerprint = int(fp, 16) if _HEX16.fullmatch(fp) else fp
        created = _pack_time(item.created_at)
        if item.updated_at == item.created_at == item.scanned_at:
            entry.times = created
        else:
            entry.times = (created, _pack_time(item.updated_at), _pack_time(item.scanned_at))
        exp = item.expires_at
        entry.expires = None if exp is None else _pack_time(exp)
        entry.due = None
        if exp is not None:
            entry.due = entry.expires if isinstance(entry.expires, int) else _micros(exp)
        entry.meta = item.metadata or None
        shared = tuple(getattr(item, name) for name in _SHARED)
        try:
            kept = self._shared.get(shared)
        except TypeError:  # an unhashable value: this item keeps its own
            entry.shared = _template(shared)
        else:
            if kept is None:
                if len(self._shared) >= _SHARED_KEPT:
                    self._shared.clear()
                self._shared[shared] = kept = _template(shared)
            entry.shared = kept
        return entry

    def _size(self, entry: _Entry) -> int:
        """`item_bytes` of the entry's item, from the entry."""
        metadata = entry.meta
        text = json.dumps(metadata, ensure_ascii=False, default=str) if metadata else ""
        content = entry.content
        return (
            ITEM_OVERHEAD_BYTES
            + (len(content) if content.isascii() else len(content.encode("utf-8", "surrogatepass")))
            + len(text.encode("utf-8", "surrogatepass"))
            + FINDING_BYTES * len(entry.shared["findings"])
        )

    def _live(self, entry: _Entry) -> bool:
        return self._entries.get(entry.id) is entry

    def _unlink(self, entry: _Entry) -> None:
        """Take a live entry out of every index (the heap and the queue forget it lazily)."""
        del self._entries[entry.id]
        self._bytes -= self._size(entry)
        namespace = entry.namespace
        space = self._spaces.get(namespace)
        if space is not None:
            space.pop(entry.id, None)
            if not space:
                # An empty namespace keeps nothing: writes over ever new
                # namespaces would otherwise leave a dict behind each.
                del self._spaces[namespace]

    def _drop(self, entry: _Entry, why: str) -> None:
        self._unlink(entry)
        self._evicted.append((entry.item(), why))

    def _compact(self) -> None:
        """Stale heap and queue slots (replaced or removed entries) kept bounded."""
        live = len(self._entries)
        if len(self._heap) > 2 * live + 64:
            self._heap = [e for e in self._entries.values() if e.due is not None]
            heapq.heapify(self._heap)
        if len(self._puts) > 2 * live + 64:
            self._puts = deque(self._entries.values())

    def _over(self) -> str | None:
        if self._max_total is not None and len(self._entries) > self._max_total:
            return "pool_capacity"
        if self._max_bytes is not None and self._bytes > self._max_bytes:
            return "pool_bytes"
        return None

    def _enforce_caps(self) -> None:
        """Past the pool's caps, its oldest items leave (reported as evicted)."""
        while (why := self._over()) is not None and self._puts:
            oldest = self._puts.popleft()
            if self._live(oldest):
                self._drop(oldest, why)

    async def put(self, item: MemoryItem) -> None:
        if item.state is not MemoryState.TRANSIENT:
            await self.remove(item.id)
            return
        if item.expires_at is not None and item.expires_at <= self._clock():
            # Report it so it gets its `expired` event (items restored after a
            # restart may have expired meanwhile).
            await self.remove(item.id)
            self._evicted.append((item, "ttl"))
            return
        self.expire()
        old = self._entries.get(item.id)
        if old is not None:
            self._unlink(old)
        entry = self._pack(item)
        space = self._spaces.setdefault(entry.namespace, {})
        if len(space) >= self._max:
            self._drop(space[next(iter(space))], "capacity")
            space = self._spaces.setdefault(entry.namespace, {})
        space[entry.id] = entry
        self._entries[entry.id] = entry
        self._bytes += self._size(entry)
        self._puts.append(entry)
        if entry.due is not None:
            heapq.heappush(self._heap, entry)
        self._enforce_caps()
        self._compact()

    async def remove(self, memory_id: str) -> None:
        self._words.pop(memory_id, None)
        entry = self._entries.get(memory_id)
        if entry is not None:
            self._unlink(entry)

    def _current(self, memory_id: str) -> _Entry | None:
        entry = self._entries.get(memory_id)
        if entry is None or self._expired(entry, self._now()):
            return None
        return entry

    @staticmethod
    def _expired(entry: _Entry, now: int) -> bool:
        exp = entry.expires
        if exp is None:
            return False
        return (exp if isinstance(exp, int) else _micros(exp)) <= now

    async def get(self, memory_id: str) -> MemoryItem | None:
        entry = self._current(memory_id)
        if entry is None:
            return None
        space = self._spaces[entry.namespace]
        space[memory_id] = space.pop(memory_id)  # most recently used
        if self._sliding is not None:
            entry.expires = _pack_time(self._clock() + self._sliding)
            if entry.due is None:
                entry.due = _micros(_unpack_time(entry.expires))
                heapq.heappush(self._heap, entry)
        return entry.item()

    async def get_by_key(self, namespace: tuple[str, ...], key: str) -> MemoryItem | None:
        self.expire()
        space = self._spaces.get(namespace)
        if space is None:
            return None
        keyed = [e.item() for e in space.values() if e.key == key]
        if not keyed:
            return None
        newest = max(keyed, key=lambda i: (i.updated_at, i.id))
        return await self.get(newest.id)

    def _candidates(self, query: PoolQuery) -> list[_Entry]:
        self.expire()
        prefix = query.namespace_prefix
        found: list[_Entry] = []
        for namespace, space in self._spaces.items():
            if namespace[: len(prefix)] != prefix:
                continue
            found.extend(e for e in space.values() if matches(e, query))
        return found

    @staticmethod
    def _page(entries: list[_Entry], query: PoolQuery) -> Items:
        """`page` over entries: ordered and cut first, only the page rebuilt."""
        ordered = sorted(
            entries, key=lambda e: (e.created_at, e.id), reverse=not query.oldest_first
        )
        return [e.item() for e in ordered[query.offset : query.offset + query.limit]]

    async def list(self, query: PoolQuery) -> Items:
        return self._page(self._candidates(query), query)

    def _word_set(self, entry: _Entry) -> frozenset[str]:
        """The entry's words, computed once per content (search is per query, not per item)."""
        cached = self._words.get(entry.id)
        if cached is not None and cached[0] is entry.content:
            return cached[1]
        found = frozenset(words(entry.content))
        self._words[entry.id] = (entry.content, found)
        return found

    async def search(self, query: PoolQuery) -> Items:
        candidates = self._candidates(query)
        if query.text:
            wanted = words(query.text)
            candidates = [e for e in candidates if all(w in self._word_set(e) for w in wanted)]
        return self._page(candidates, query)

    def expire(self) -> None:
        """Drop every item whose time has come (they are collected as evicted)."""
        heap = self._heap
        if not heap:
            return
        now = self._now()
        while heap and (heap[0].due or 0) <= now:
            entry = heapq.heappop(heap)
            if not self._live(entry):
                continue  # replaced or removed meanwhile
            if self._expired(entry, now):
                entry.due = None
                self._drop(entry, "ttl")
            elif (exp := entry.expires) is not None:
                # a sliding read moved it on: back in, at its new time
                entry.due = exp if isinstance(exp, int) else _micros(exp)
                heapq.heappush(heap, entry)

    def drain_evicted(self) -> Evictions:
        """Items dropped by time or capacity since the last call, with the reason."""
        drained, self._evicted[:] = list(self._evicted), []
        for item, _ in drained:
            if item.id not in self._entries:
                self._words.pop(item.id, None)
        return drained

    # -- the ShortPool port (one process: a claim is the drain, nothing to settle) --

    async def sweep(self) -> None:
        """`expire()`, as the port has it."""
        self.expire()

    async def claim_evicted(self) -> Claimed:
        """`drain_evicted()`, as the port has it: this pool lives in one process, so
        whoever drains has every eviction to itself."""
        return [Eviction(item, why) for item, why in self.drain_evicted()]

    async def settle_evicted(self, evictions: Sequence[Eviction]) -> None:
        """Nothing to settle: a drained eviction is gone from the pool already."""

    async def lost(self) -> bool:
        """Never: this pool lives and dies with its process (a restart restores it)."""
        return False

    async def filled(self) -> None:
        """Nothing to remember."""

    async def close(self) -> None:
        """Nothing to release (the items' durable copies are in the store)."""

    def __len__(self) -> int:
        return len(self._entries)
