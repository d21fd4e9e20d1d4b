"""The call-chain tracker: a hot window in memory of who called what when.

Per-agent rate, per-rule rate (the matrix's `max_calls_per_minute`), same-tool
bursts, nesting depth under parent calls, and a circuit breaker on destructive
calls per task. Bounded: old timestamps fall out of the window, and the maps
are LRU caches, so a flood of agents or tasks cannot grow it without limit.
"""

from __future__ import annotations

from collections import deque

from cachetools import LRUCache

WINDOW = 60.0
MAX_KEYS = 50_000


class Window:
    """Event times per key within the last `span` seconds."""

    def __init__(self, span: float = WINDOW, max_keys: int = MAX_KEYS) -> None:
        self._span = span
        self._times: LRUCache[str, deque[float]] = LRUCache(maxsize=max_keys)

    def hit(self, key: str, now: float) -> int:
        """Record one event now; the count within the window, this one included."""
        times = self._times.get(key)
        if times is None:
            times = deque()
            self._times[key] = times
        times.append(now)
        floor = now - self._span
        while times and times[0] <= floor:
            times.popleft()
        return len(times)


class ChainTracker:
    def __init__(self, burst_seconds: float) -> None:
        self.calls = Window()
        self.rules = Window()
        self.tools = Window(span=burst_seconds)
        self._depth: LRUCache[str, int] = LRUCache(maxsize=MAX_KEYS)
        self._destructive: LRUCache[str, int] = LRUCache(maxsize=MAX_KEYS)

    def depth(self, call_id: str, parent: str | None) -> int:
        """This call's nesting depth (1 at the top), remembered for its children."""
        depth = 1 if parent is None else self._depth.get(parent, 1) + 1
        self._depth[call_id] = depth
        return depth

    def destructive_count(self, scope: str) -> int:
        return self._destructive.get(scope, 0)

    def count_destructive(self, scope: str) -> None:
        self._destructive[scope] = self._destructive.get(scope, 0) + 1
