"""The call-chain tracker's parts: windows of who called what when, and
masking-bypass chains. The pipeline keeps their state in its `GuardState`
(memgate/guard/state.py: in memory, or shared by every replica on PostgreSQL);
`ChainTracker` is the in-memory tracker on its own.

Per-agent rate, per-rule rate (the matrix's `max_calls_per_minute`), same-tool
bursts, nesting depth under parent calls, a circuit breaker on destructive
calls per task, and chains that bypass masking (export → read → extract →
write with no masking step between: each step allowed, the whole a warning).
Bounded: old timestamps fall out of the window, and the maps are LRU caches,
so a flood of agents or tasks cannot grow it without limit.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable

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


class SharedWindow:
    """A `Window` every replica counts in (the value store's `window_hits`, e.g. a
    PostgreSQL table): a limit of N calls a minute stays N, not N × replicas."""

    def __init__(
        self, name: str, hits: Callable[[str, float, float], int], span: float = WINDOW
    ) -> None:
        self._name = name
        self._hits = hits
        self._span = span

    def hit(self, key: str, now: float) -> int:
        # NOTE: PostgreSQL text holds no NUL, the in-memory keys' separator.
        return self._hits(f"{self._name}:{key}".replace("\x00", "\x1f"), now, self._span)


class ChainTracker:
    """The chain's windows and counters on their own. With `shared` (a window
    every replica counts in), the per-minute windows (per agent, per matrix rule)
    are shared; the rest stays in this process. The pipeline uses a `GuardState`
    instead (`PostgresGuardState` shares all of it)."""

    def __init__(
        self, burst_seconds: float, shared: Callable[[str, float, float], int] | None = None
    ) -> None:
        self.calls: Window | SharedWindow = (
            Window() if shared is None else SharedWindow("calls", shared)
        )
        self.rules: Window | SharedWindow = (
            Window() if shared is None else SharedWindow("rules", shared)
        )
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


STEPS = ("export", "read", "extract", "write")


class MaskingChains:
    """Per scope (task, else session, else agent): how far a chain export →
    read → extract → write has come since the last masking step, and the call
    that started it. `step` returns the chain's calls when a write completes it."""

    def __init__(self, patterns: dict[str, tuple[str, ...]]) -> None:
        self._patterns = {
            name: [re.compile(p) for p in patterns.get(name, ())] for name in (*STEPS, "mask")
        }
        self._progress: LRUCache[str, list[str]] = LRUCache(maxsize=MAX_KEYS)

    def _is(self, name: str, text: str) -> bool:
        return any(p.search(text) for p in self._patterns[name])

    def advance(
        self, done: list[str], call_id: str, text: str
    ) -> tuple[list[str], list[str] | None]:
        """(the chain's progress after this call, the chain's calls if it
        completed it), from the progress `done` before it."""
        if self._is("mask", text):
            return [], None
        nxt = len(done)
        # a call may be several steps at once (read a CSV and regex it in one command)
        while nxt < len(STEPS) and self._is(STEPS[nxt], text):
            done = [*done, call_id]
            nxt += 1
        if nxt == len(STEPS):
            return [], done
        return done, None

    def step(self, scope: str, call_id: str, text: str) -> list[str] | None:
        progress, chain = self.advance(self._progress.get(scope, []), call_id, text)
        if progress:
            self._progress[scope] = progress
        else:
            self._progress.pop(scope, None)
        return chain
