"""The guard's decision state on PostgreSQL (the store's database), shared by
every replica (issue 17): a tool description pinned through replica A and
changed in a listing seen by replica B is a rug pull on both; trust earned
through A counts on B; a task's destructive calls, a parent call's depth and
same-tool bursts are counted once, not once per replica, and a masking-bypass
chain spread over replicas is one chain.

    state = PostgresGuardState.open(url, burst_seconds=policy.chain.burst_seconds)

Tables from the store's migrations (schema/postgres/005_guard_state.sql; the
windows in 004's guard_chain_hits). A decision is one statement (`begin`): it
records the call in its windows and its depth and reads the counts, the depth,
the task's breaker, the shape's trust and the tool's pin. One connection,
serialized by a lock (the guard decides one call at a time, off the event
loop); a lost connection is reopened once per call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import psycopg

from memgate.errors import StorageError
from memgate.guard.chain import WINDOW
from memgate.guard.state import DEPTH_TTL, Begin, Counts, PinStatus, Snapshot
from memgate.guard.values import ValueStore
from memgate.guard.values_postgres import PgLink, _migrated
from memgate.store.postgres import where

T = TypeVar("T")

_BEGIN = """
WITH k AS (
    SELECT key, span, n FROM unnest(%(keys)s::text[], %(spans)s::float8[])
        WITH ORDINALITY AS k(key, span, n)
), h AS (
    INSERT INTO guard_chain_hits (key, at) SELECT key, %(now)s FROM k
), d AS (
    INSERT INTO guard_depth (call_id, depth, at) VALUES (
        %(call)s,
        CASE WHEN %(parent)s::text IS NULL THEN 1 ELSE coalesce(
            (SELECT depth FROM guard_depth WHERE call_id = %(parent)s::text), 1) + 1 END,
        %(now)s)
    ON CONFLICT (call_id) DO UPDATE SET depth = excluded.depth, at = excluded.at
    RETURNING depth
)
SELECT
    ARRAY(SELECT (SELECT count(*) + 1 FROM guard_chain_hits g
                  WHERE g.key = k.key AND g.at > %(now)s - k.span) FROM k ORDER BY k.n),
    (SELECT depth FROM d),
    coalesce((SELECT n FROM guard_breaker WHERE scope = %(scope)s), 0),
    (SELECT ok FROM guard_trust WHERE shape = %(shape)s),
    (SELECT bad FROM guard_trust WHERE shape = %(shape)s),
    coalesce((SELECT pinned <> seen FROM guard_tools
              WHERE server = %(server)s::text AND tool = %(tool)s::text), false),
    (SELECT calls FROM guard_masking WHERE scope = %(scope)s)
"""
_TAKE = (
    "INSERT INTO guard_breaker AS b (scope, n, at) VALUES (%s, 1, %s)"
    " ON CONFLICT (scope) DO UPDATE SET n = b.n + 1, at = excluded.at WHERE b.n < %s"
    " RETURNING n"
)
_TRUST = (
    "INSERT INTO guard_trust AS t (shape, tool, ok, bad, at) VALUES (%s, %s, %s, %s, %s)"
    " ON CONFLICT (shape) DO UPDATE SET ok = t.ok + excluded.ok, bad = t.bad + excluded.bad,"
    " at = excluded.at RETURNING ok, bad"
)
# NOTE: the subquery in RETURNING reads the statement's snapshot, i.e. the pin
# before this listing (NULL for a tool inserted now). The first digest seen
# stays pinned whichever replica saw it: a listing never overwrites `pinned`
# unless it accepts.
_PIN = """
INSERT INTO guard_tools AS t (server, tool, pinned, seen, pinned_at, seen_at)
SELECT %(server)s, name, digest, digest, %(at)s, %(at)s
    FROM unnest(%(names)s::text[], %(digests)s::text[]) AS u(name, digest)
ON CONFLICT (server, tool) DO UPDATE SET
    seen = excluded.seen, seen_at = excluded.seen_at,
    pinned = CASE WHEN %(accept)s THEN excluded.seen ELSE t.pinned END,
    pinned_at = CASE WHEN %(accept)s AND t.pinned <> excluded.seen THEN excluded.seen_at
                ELSE t.pinned_at END
RETURNING tool, pinned, seen, xmax = 0,
    (SELECT o.pinned FROM guard_tools o WHERE o.server = t.server AND o.tool = t.tool)
"""
PRUNE_EVERY = 500
"""Decisions between two deletions of expired windows and depths."""
TASK_TTL = 7 * 86400.0
"""A task's breaker and masking chain untouched this long are dropped (in memory
they are an LRU of 50,000 tasks)."""


def _key(kind: str, key: str) -> str:
    # NOTE: PostgreSQL text holds no NUL, the in-memory keys' separator.
    return f"{kind}:{key}".replace("\x00", "\x1f")


class PostgresGuardState:
    """Trust counters, tool pins, the breaker, depths and windows in the
    database at `url`, for every replica on it."""

    def __init__(self, url: str, burst_seconds: float) -> None:
        self._burst = burst_seconds
        self._begun = 0
        # NOTE: a commit here does not wait for its WAL flush (the store's
        # events always do). Visible to every replica at once all the same;
        # what a crash of the database server (not of a replica) can lose is
        # the last few hundred ms of counts, depths and pins: windows and
        # depths are a hot window, and a lost pin is taken again at the
        # server's next listing.
        self._pg = PgLink(url, setup=("SET synchronous_commit = off",))

    @classmethod
    def open(cls, url: str, burst_seconds: float) -> PostgresGuardState:
        """Migrate the database if it needs it and connect."""
        try:
            _migrated(url)
        except psycopg.Error as exc:
            raise StorageError(
                f"cannot open PostgreSQL at {where(url)}: {exc.__class__.__name__}"
            ) from None
        return cls(url, burst_seconds)

    def _run(self, work: Callable[[psycopg.Connection[Any]], T]) -> T:
        return self._pg.run(work)

    def begin(self, ask: Begin) -> Snapshot:
        keys = [_key("calls", ask.agent_key), _key("tools", ask.tool_key)]
        spans = [WINDOW, self._burst]
        if ask.rule_key is not None:
            keys.append(_key("rules", ask.rule_key))
            spans.append(WINDOW)
        server, tool = ask.mcp if ask.mcp is not None else (None, None)
        params = {
            "keys": keys, "spans": spans, "now": ask.now, "call": ask.call_id,
            "parent": ask.parent, "scope": ask.scope, "shape": ask.shape,
            "server": server, "tool": tool,
        }  # fmt: skip
        self._begun += 1
        prune = self._begun % PRUNE_EVERY == 0

        def go(conn: psycopg.Connection[Any]) -> tuple[Any, ...]:
            row = conn.execute(_BEGIN, params).fetchone()
            if prune:
                conn.execute("DELETE FROM guard_chain_hits WHERE at <= %s", (ask.now - 3600.0,))
                conn.execute("DELETE FROM guard_depth WHERE at <= %s", (ask.now - DEPTH_TTL,))
                conn.execute("DELETE FROM guard_breaker WHERE at <= %s", (ask.now - TASK_TTL,))
                conn.execute("DELETE FROM guard_masking WHERE at <= %s", (ask.now - TASK_TTL,))
            assert row is not None  # noqa: S101 - a SELECT without FROM returns one row
            return tuple(row)

        counts, depth, destructive, ok, bad, changed, masking = self._run(go)
        return Snapshot(
            agent_count=int(counts[0]),
            tool_count=int(counts[1]),
            rule_count=int(counts[2]) if ask.rule_key is not None else 0,
            depth=int(depth),
            destructive=int(destructive),
            trust=Counts(int(ok or 0), int(bad or 0)),
            changed=bool(changed),
            masking=tuple(masking or ()),
        )

    def set_masking(self, scope: str, calls: Sequence[str], now: float) -> None:
        if calls:
            self._run(
                lambda conn: conn.execute(
                    "INSERT INTO guard_masking VALUES (%s, %s, %s) ON CONFLICT (scope)"
                    " DO UPDATE SET calls = excluded.calls, at = excluded.at",
                    (scope, list(calls), now),
                )
            )
        else:
            self._run(
                lambda conn: conn.execute("DELETE FROM guard_masking WHERE scope = %s", (scope,))
            )

    def take_destructive(self, scope: str, limit: int, now: float) -> int | None:
        row = self._run(lambda conn: conn.execute(_TAKE, (scope, now, limit)).fetchone())
        return None if row is None else int(row[0])

    def trust(self, shape: str) -> Counts:
        row = self._run(
            lambda conn: conn.execute(
                "SELECT ok, bad FROM guard_trust WHERE shape = %s", (shape,)
            ).fetchone()
        )
        return Counts() if row is None else Counts(int(row[0]), int(row[1]))

    def count_trust(self, shape: str, tool: str, at: float, *, ok: int = 0, bad: int = 0) -> Counts:
        row = self._run(lambda conn: conn.execute(_TRUST, (shape, tool, ok, bad, at)).fetchone())
        return Counts() if row is None else Counts(int(row[0]), int(row[1]))

    def pin(
        self, server: str, tools: Sequence[tuple[str, str]], accept: bool, at: float
    ) -> list[tuple[str, PinStatus]]:
        latest = dict(tools)  # one row per tool (a listing naming one twice: the last)
        if not latest:
            return []
        params = {
            "server": server, "at": at, "accept": accept,
            "names": list(latest), "digests": list(latest.values()),
        }  # fmt: skip
        rows = self._run(lambda conn: conn.execute(_PIN, params).fetchall())
        status: dict[str, PinStatus] = {}
        for name, pinned, seen, inserted, before in rows:
            if inserted:
                status[name] = PinStatus.NEW
            elif pinned != seen:
                status[name] = PinStatus.CHANGED
            elif accept and before is not None and before != seen:
                status[name] = PinStatus.ACCEPTED
            else:
                status[name] = PinStatus.UNCHANGED
        return [(name, status[name]) for name, _ in tools]

    def changed(self, server: str, tool: str) -> bool:
        row = self._run(
            lambda conn: conn.execute(
                "SELECT pinned <> seen FROM guard_tools WHERE server = %s AND tool = %s",
                (server, tool),
            ).fetchone()
        )
        return bool(row and row[0])

    def import_local(self, values: ValueStore) -> tuple[int, int]:
        """Take over the trust counters and pins a data directory's SQLite kept
        before its replica moved to this database: rows this database lacks only
        (a pin already here stays the first seen; counters are never added
        twice, so importing again, or from several replicas, is harmless and
        never makes more trust than one replica earned). (trust rows, pins) new."""
        tables = {
            str(r[0])
            for r in values.fetch(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name IN ('guard_trust', 'guard_tools')",
                (),
            )
        }
        trust = (
            values.fetch("SELECT shape, tool, ok, bad, at FROM guard_trust", ())
            if "guard_trust" in tables
            else []
        )
        pins = (
            values.fetch(
                "SELECT server, tool, pinned, seen, pinned_at, seen_at FROM guard_tools", ()
            )
            if "guard_tools" in tables
            else []
        )
        if not trust and not pins:
            return 0, 0

        def go(conn: psycopg.Connection[Any]) -> tuple[int, int]:
            with conn.transaction(), conn.cursor() as cur:
                before = _count(cur, "guard_trust"), _count(cur, "guard_tools")
                cur.executemany(
                    "INSERT INTO guard_trust VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                    trust,
                )
                cur.executemany(
                    "INSERT INTO guard_tools VALUES (%s, %s, %s, %s, %s, %s)"
                    " ON CONFLICT DO NOTHING",
                    pins,
                )
                return (
                    _count(cur, "guard_trust") - before[0],
                    _count(cur, "guard_tools") - before[1],
                )

        return self._run(go)

    def close(self) -> None:
        self._pg.close()


def _count(cur: psycopg.Cursor[Any], table: str) -> int:
    row = cur.execute(f"SELECT count(*) FROM {table}").fetchone()  # noqa: S608 - a constant
    return int(row[0]) if row else 0
