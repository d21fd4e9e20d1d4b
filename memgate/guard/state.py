"""The guard's decision state behind one port: what a decision reads and what it
leaves for the next one, wherever that next one is decided.

    state = LocalGuardState(values, burst_seconds=10.0)      # one process
    state = PostgresGuardState.open(url, burst_seconds=10.0)  # every replica (issue 17)

Per decision the pipeline asks once (`begin`): record the call in its windows
(per agent, per matrix rule, same-tool bursts), its nesting depth under its
parent, and read what the decision needs: the window counts, the depth, how many
destructive calls its task has had, how far its task's masking-bypass chain has
come, its shape's trust counters and whether its MCP tool's description changed
since it was pinned. On PostgreSQL that is one
statement, one round trip. A destructive call let through takes one unit of its
task's breaker (`take_destructive`, atomic against the limit: two replicas
cannot both take the last one). Trust counters move as results arrive
(`count_trust`), tool listings pin descriptions (`pin`), and a call that is a
step of a masking-bypass chain (or a masking step) moves it (`set_masking`).

The local twin keeps the windows, depth, breaker and masking chains in process
memory (LRU bounded) and trust counters and pins in the guard's SQLite file, as before.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from cachetools import LRUCache

from memgate.guard.chain import MAX_KEYS, SharedWindow, Window
from memgate.guard.values import ValueStore, WindowHits

DEPTH_TTL = 3600.0
"""How long a decided call's depth is kept for its children (PostgreSQL)."""


class PinStatus(StrEnum):
    NEW = "new"
    UNCHANGED = "unchanged"
    CHANGED = "changed"
    ACCEPTED = "accepted"


@dataclass(frozen=True, slots=True)
class Counts:
    """A shape's trust: results of allowed calls, denied calls."""

    ok: int = 0
    bad: int = 0


@dataclass(frozen=True, slots=True)
class Begin:
    """What one decision records and reads."""

    now: float
    call_id: str
    parent: str | None
    agent_key: str
    """Per-agent window key (calls a minute)."""
    rule_key: str | None
    """Per-rule window key (the matrix's `max_calls_per_minute`), None without a rule."""
    tool_key: str
    """Same-tool burst window key."""
    scope: str
    """The breaker's scope (task, else session, else agent)."""
    shape: str
    mcp: tuple[str, str] | None
    """(server, tool) of an MCP call, whose pin is looked at."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    agent_count: int
    rule_count: int
    tool_count: int
    depth: int
    destructive: int
    trust: Counts
    changed: bool
    masking: tuple[str, ...] = ()
    """The scope's masking-bypass chain so far (its calls), empty for none."""


class GuardState(Protocol):
    """The port (see the module's docstring)."""

    def begin(self, ask: Begin) -> Snapshot: ...

    def take_destructive(self, scope: str, limit: int, now: float) -> int | None:
        """One more destructive call of `scope`: its count now, or None (nothing
        taken) when `limit` calls were already let through."""
        ...

    def set_masking(self, scope: str, calls: Sequence[str], now: float) -> None:
        """The scope's masking-bypass chain so far (empty: none)."""
        ...

    def trust(self, shape: str) -> Counts: ...

    def count_trust(self, shape: str, tool: str, at: float, *, ok: int = 0, bad: int = 0) -> Counts:
        """Add to a shape's counters; the counters after."""
        ...

    def pin(
        self, server: str, tools: Sequence[tuple[str, str]], accept: bool, at: float
    ) -> list[tuple[str, PinStatus]]:
        """Record a listing of (tool, digest): pin new tools, mark changed ones
        (re-pin them when `accept`); each tool's status, in order."""
        ...

    def changed(self, server: str, tool: str) -> bool: ...

    def close(self) -> None: ...


TRUST_SCHEMA = """
CREATE TABLE IF NOT EXISTS guard_trust (
    shape   TEXT PRIMARY KEY,   -- digest of the (tool, argument shape)
    tool    TEXT NOT NULL,
    ok      INTEGER NOT NULL,   -- results reported for allowed / approved calls
    bad     INTEGER NOT NULL,   -- denied calls
    at      REAL NOT NULL
) WITHOUT ROWID;
"""
_TRUST_UPSERT = (
    "INSERT INTO guard_trust (shape, tool, ok, bad, at) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT(shape) DO UPDATE SET ok = ok + excluded.ok, bad = bad + excluded.bad,"
    " at = excluded.at"
)
PINS_SCHEMA = """
CREATE TABLE IF NOT EXISTS guard_tools (
    server     TEXT NOT NULL,
    tool       TEXT NOT NULL,
    pinned     TEXT NOT NULL,   -- digest of the trusted description and schema
    seen       TEXT NOT NULL,   -- digest of the latest listing
    pinned_at  REAL NOT NULL,
    seen_at    REAL NOT NULL,
    PRIMARY KEY (server, tool)
) WITHOUT ROWID;
"""
_PIN_UPSERT = (
    "INSERT INTO guard_tools VALUES (?, ?, ?, ?, coalesce(?, 0), ?)"
    " ON CONFLICT(server, tool) DO UPDATE SET pinned = excluded.pinned,"
    " seen = excluded.seen, seen_at = excluded.seen_at,"
    " pinned_at = CASE WHEN excluded.pinned_at > 0 THEN excluded.pinned_at"
    " ELSE guard_tools.pinned_at END"
)
HOT_SHAPES = 100_000


class LocalGuardState:
    """One process's guard state: windows, depth and breaker in memory; trust
    counters and pins durable in the guard's SQLite (`values`), hot in memory.
    With `shared` (a window every replica counts in, e.g. the value store's on
    PostgreSQL) the per-minute windows are shared."""

    def __init__(
        self,
        values: ValueStore,
        burst_seconds: float,
        *,
        shared: WindowHits | None = None,
        hot: int = HOT_SHAPES,
    ) -> None:
        self._values = values
        self._lock = threading.Lock()
        self._calls: Window | SharedWindow = (
            Window() if shared is None else SharedWindow("calls", shared)
        )
        self._rules: Window | SharedWindow = (
            Window() if shared is None else SharedWindow("rules", shared)
        )
        self._tools = Window(span=burst_seconds)
        self._depth: LRUCache[str, int] = LRUCache(maxsize=MAX_KEYS)
        self._destructive: LRUCache[str, int] = LRUCache(maxsize=MAX_KEYS)
        self._masking: LRUCache[str, tuple[str, ...]] = LRUCache(maxsize=MAX_KEYS)
        self._hot: LRUCache[str, Counts] = LRUCache(maxsize=hot)
        values.executescript(TRUST_SCHEMA)
        values.executescript(PINS_SCHEMA)
        rows = values.fetch("SELECT server, tool FROM guard_tools WHERE pinned != seen", ())
        self._changed: set[tuple[str, str]] = {(str(r[0]), str(r[1])) for r in rows}

    def begin(self, ask: Begin) -> Snapshot:
        with self._lock:
            agent = self._calls.hit(ask.agent_key, ask.now)
            rule = self._rules.hit(ask.rule_key, ask.now) if ask.rule_key is not None else 0
            tool = self._tools.hit(ask.tool_key, ask.now)
            depth = 1 if ask.parent is None else self._depth.get(ask.parent, 1) + 1
            self._depth[ask.call_id] = depth
            destructive = self._destructive.get(ask.scope, 0)
            masking = self._masking.get(ask.scope, ())
        return Snapshot(
            agent_count=agent,
            rule_count=rule,
            tool_count=tool,
            depth=depth,
            destructive=destructive,
            trust=self.trust(ask.shape),
            changed=ask.mcp is not None and self.changed(*ask.mcp),
            masking=masking,
        )

    def set_masking(self, scope: str, calls: Sequence[str], now: float) -> None:
        with self._lock:
            if calls:
                self._masking[scope] = tuple(calls)
            else:
                self._masking.pop(scope, None)

    def take_destructive(self, scope: str, limit: int, now: float) -> int | None:
        with self._lock:
            used = self._destructive.get(scope, 0)
            if used >= limit:
                return None
            self._destructive[scope] = used + 1
            return used + 1

    def trust(self, shape: str) -> Counts:
        counts = self._hot.get(shape)
        if counts is None:
            rows = self._values.fetch("SELECT ok, bad FROM guard_trust WHERE shape = ?", (shape,))
            counts = Counts(int(rows[0][0]), int(rows[0][1])) if rows else Counts()
            self._hot[shape] = counts
        return counts

    def count_trust(self, shape: str, tool: str, at: float, *, ok: int = 0, bad: int = 0) -> Counts:
        with self._lock:
            before = self.trust(shape)
            counts = Counts(before.ok + ok, before.bad + bad)
            self._hot[shape] = counts
            self._values.execute(_TRUST_UPSERT, (shape, tool, ok, bad, at))
            return counts

    def pin(
        self, server: str, tools: Sequence[tuple[str, str]], accept: bool, at: float
    ) -> list[tuple[str, PinStatus]]:
        with self._lock:
            rows = self._values.fetch(
                "SELECT tool, pinned FROM guard_tools WHERE server = ?", (server,)
            )
            pinned = {str(r[0]): str(r[1]) for r in rows}
            out: list[tuple[str, PinStatus]] = []
            writes: list[tuple[Any, ...]] = []
            for name, now in tools:
                before = pinned.get(name)
                if before is None:
                    status = PinStatus.NEW
                elif before == now:
                    status = PinStatus.UNCHANGED
                elif accept:
                    status = PinStatus.ACCEPTED
                else:
                    status = PinStatus.CHANGED
                if status is PinStatus.CHANGED:
                    self._changed.add((server, name))
                    writes.append((server, name, before, now, None, at))
                else:
                    self._changed.discard((server, name))
                    writes.append((server, name, now, now, at, at))
                pinned[name] = now if before is None else pinned[name]
                out.append((name, status))
            self._values.executemany(_PIN_UPSERT, writes)
            return out

    def changed(self, server: str, tool: str) -> bool:
        return (server, tool) in self._changed

    def close(self) -> None:
        """Nothing of its own to close (the value store is closed by its owner)."""
