"""The short-term pool: per-namespace TTL caches in memory (cachetools).

Each namespace holds at most `max_entries` items; each item expires at its own
`expires_at`. Items that leave by time or by capacity are collected so the
gateway can record an `expired` event for each (`drain_evicted`). Durability
comes from the store, which keeps transient items and restores them on start.
"""

from __future__ import annotations

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


class _NamespaceCache(TLRUCache[str, MemoryItem]):
    """A TLRU cache that remembers what it dropped, and why."""

    def __init__(self, maxsize: int, timer: Callable[[], float], sink: Evictions):
        super().__init__(maxsize=maxsize, ttu=_ttu, timer=timer)
        self._sink = sink

    def expire(self, time: Any = None) -> list[tuple[str, MemoryItem]]:
        expired: list[tuple[str, MemoryItem]] = list(super().expire(time))
        self._sink.extend((item, "ttl") for _, item in expired)
        return expired

    def popitem(self) -> tuple[str, MemoryItem]:
        key, item = super().popitem()
        self._sink.append((item, "capacity"))
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
        sliding_ttl: timedelta | None = None,
        clock: Clock = utcnow,
    ) -> None:
        self._max = max_entries
        self._sliding = sliding_ttl
        self._clock = clock
        self._spaces: dict[tuple[str, ...], _NamespaceCache] = {}
        self._where: dict[str, tuple[str, ...]] = {}
        self._evicted: Evictions = []
        self._words: dict[str, tuple[str, frozenset[str]]] = {}

    def _timer(self) -> float:
        return self._clock().timestamp()

    def _space(self, namespace: tuple[str, ...]) -> _NamespaceCache:
        space = self._spaces.get(namespace)
        if space is None:
            space = _NamespaceCache(self._max, self._timer, self._evicted)
            self._spaces[namespace] = space
        return space

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
        self._space(item.namespace)[item.id] = item
        self._where[item.id] = item.namespace

    async def remove(self, memory_id: str) -> None:
        self._words.pop(memory_id, None)
        namespace = self._where.pop(memory_id, None)
        if namespace is not None:
            self._spaces[namespace].pop(memory_id, None)

    async def get(self, memory_id: str) -> MemoryItem | None:
        namespace = self._where.get(memory_id)
        if namespace is None:
            return None
        item = self._spaces[namespace].get(memory_id)
        if item is None:
            return None
        if self._sliding is not None:
            item = item.model_copy(update={"expires_at": self._clock() + self._sliding})
            self._spaces[namespace][memory_id] = item
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
        for space in self._spaces.values():
            space.expire()

    def drain_evicted(self) -> Evictions:
        """Items dropped by time or capacity since the last call, with the reason."""
        drained, self._evicted[:] = list(self._evicted), []
        for item, _ in drained:
            if (
                self._where.get(item.id) == item.namespace
                and item.id not in self._spaces[item.namespace]
            ):
                del self._where[item.id]
                self._words.pop(item.id, None)
        return drained

    def __len__(self) -> int:
        return sum(len(s) for s in self._spaces.values())
