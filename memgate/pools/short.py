"""The short-term pool: per-namespace TTL caches in memory (cachetools).

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

import json
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from cachetools import TLRUCache

from memgate.domain.memory import MemoryItem, MemoryState, utcnow
from memgate.domain.ports import PoolQuery
from memgate.pools.query import matches, page, text_matches, words

Clock = Callable[[], datetime]


Items = list[MemoryItem]
Evictions = list[tuple[MemoryItem, str]]


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


class _NamespaceCache(TLRUCache[str, MemoryItem]):
    """A TLRU cache that reports what it dropped, and why."""

    def __init__(self, maxsize: int, timer: Callable[[], float], dropped: Dropped):
        super().__init__(maxsize=maxsize, ttu=_ttu, timer=timer)
        self._dropped = dropped

    def expire(self, time: Any = None) -> list[tuple[str, MemoryItem]]:
        expired: list[tuple[str, MemoryItem]] = list(super().expire(time))
        for _, item in expired:
            self._dropped(item, "ttl")
        return expired

    def popitem(self) -> tuple[str, MemoryItem]:
        key, item = super().popitem()
        self._dropped(item, "capacity")
        return key, item


def _ttu(_key: str, item: MemoryItem, _now: float) -> float:
    if item.expires_at is None:
        return float("inf")
    return item.expires_at.timestamp()


class ShortTermPool:
    """Transient memories, per namespace, bounded, expiring."""

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
        self._spaces: dict[tuple[str, ...], _NamespaceCache] = {}
        self._where: dict[str, tuple[str, ...]] = {}
        self._evicted: Evictions = []
        self._words: dict[str, tuple[str, frozenset[str]]] = {}
        self._sizes: OrderedDict[str, int] = OrderedDict()
        """Every held item's estimated bytes, oldest put first."""
        self._bytes = 0

    @property
    def total_bytes(self) -> int:
        """The estimated memory held by the pool's items (see `item_bytes`)."""
        return self._bytes

    def _timer(self) -> float:
        return self._clock().timestamp()

    def _space(self, namespace: tuple[str, ...]) -> _NamespaceCache:
        space = self._spaces.get(namespace)
        if space is None:
            space = _NamespaceCache(self._max, self._timer, self._dropped)
            self._spaces[namespace] = space
        return space

    def _forget(self, memory_id: str) -> None:
        size = self._sizes.pop(memory_id, None)
        if size is not None:
            self._bytes -= size

    def _dropped(self, item: MemoryItem, why: str) -> None:
        self._forget(item.id)
        self._evicted.append((item, why))

    def _tidy(self, namespace: tuple[str, ...]) -> None:
        # An empty namespace keeps no cache: writes over ever new namespaces would
        # otherwise leave one behind each.
        space = self._spaces.get(namespace)
        if space is not None and not space:
            del self._spaces[namespace]

    def _over(self) -> str | None:
        if self._max_total is not None and len(self._sizes) > self._max_total:
            return "pool_capacity"
        if self._max_bytes is not None and self._bytes > self._max_bytes:
            return "pool_bytes"
        return None

    def _enforce_caps(self) -> None:
        """Past the pool's caps, its oldest items leave (reported as evicted)."""
        while (why := self._over()) is not None and self._sizes:
            oldest = next(iter(self._sizes))
            namespace = self._where.get(oldest)
            space = self._spaces.get(namespace) if namespace is not None else None
            item = space.pop(oldest, None) if space is not None else None
            self._forget(oldest)
            if item is None:
                continue
            self._evicted.append((item, why))
            if namespace is not None:
                self._tidy(namespace)

    async def put(self, item: MemoryItem) -> None:
        if item.state is not MemoryState.TRANSIENT:
            await self.remove(item.id)
            return
        if item.expires_at is not None and item.expires_at <= self._clock():
            # The cache would drop it silently; report it so it gets its `expired`
            # event (items restored after a restart may have expired meanwhile).
            await self.remove(item.id)
            self._evicted.append((item, "ttl"))
            return
        old = self._where.get(item.id)
        if old is not None and old != item.namespace:
            self._spaces[old].pop(item.id, None)
            self._tidy(old)
        self._forget(item.id)
        self._space(item.namespace)[item.id] = item
        self._where[item.id] = item.namespace
        size = item_bytes(item)
        self._sizes[item.id] = size
        self._bytes += size
        self._enforce_caps()

    async def remove(self, memory_id: str) -> None:
        self._words.pop(memory_id, None)
        self._forget(memory_id)
        namespace = self._where.pop(memory_id, None)
        if namespace is not None and namespace in self._spaces:
            self._spaces[namespace].pop(memory_id, None)
            self._tidy(namespace)

    async def get(self, memory_id: str) -> MemoryItem | None:
        namespace = self._where.get(memory_id)
        space = self._spaces.get(namespace) if namespace is not None else None
        if space is None:
            return None
        item = space.get(memory_id)
        if item is None:
            return None
        if self._sliding is not None:
            item = item.model_copy(update={"expires_at": self._clock() + self._sliding})
            space[memory_id] = item
        return item

    async def get_by_key(self, namespace: tuple[str, ...], key: str) -> MemoryItem | None:
        space = self._spaces.get(namespace)
        if space is None:
            return None
        space.expire()
        keyed = [item for item in space.values() if item.key == key]
        if not keyed:
            return None
        newest = max(keyed, key=lambda i: (i.updated_at, i.id))
        return await self.get(newest.id)

    def _candidates(self, query: PoolQuery) -> Items:
        prefix = query.namespace_prefix
        found: Items = []
        for namespace, space in self._spaces.items():
            if namespace[: len(prefix)] != prefix:
                continue
            space.expire()
            found.extend(i for i in space.values() if matches(i, query))
        return found

    async def list(self, query: PoolQuery) -> Items:
        return page(self._candidates(query), query)

    def _word_set(self, item: MemoryItem) -> frozenset[str]:
        """The item's words, computed once per content (search is per query, not per item)."""
        cached = self._words.get(item.id)
        if cached is not None and cached[0] is item.content:
            return cached[1]
        found = frozenset(words(item.content))
        self._words[item.id] = (item.content, found)
        return found

    async def search(self, query: PoolQuery) -> Items:
        if not query.text:
            return page(self._candidates(query), query)
        return page(
            [i for i in self._candidates(query) if text_matches(i, query.text, self._word_set(i))],
            query,
        )

    def expire(self) -> None:
        """Drop every item whose time has come (they are collected as evicted)."""
        for namespace, space in list(self._spaces.items()):
            space.expire()
            self._tidy(namespace)

    def drain_evicted(self) -> Evictions:
        """Items dropped by time or capacity since the last call, with the reason."""
        drained, self._evicted[:] = list(self._evicted), []
        for item, _ in drained:
            space = self._spaces.get(item.namespace)
            if self._where.get(item.id) == item.namespace and (
                space is None or item.id not in space
            ):
                del self._where[item.id]
                self._words.pop(item.id, None)
            self._tidy(item.namespace)
        return drained

    def __len__(self) -> int:
        return sum(len(s) for s in self._spaces.values())
