"""The outbox port over the store's SQLite file.

Rows for events are written by a trigger on the log (schema/sqlite/006_outbox.sql)
inside the store's own commit; this adapter claims, settles and prunes them on a
connection of its own, in a worker thread (each statement is one short
autocommit transaction, so it never holds the store's writer up for long). A
claim is one UPDATE ... RETURNING: two workers (the server's, and `memgate notify
drain`) never lease the same row.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from memgate.domain.events import Event
from memgate.domain.memory import utcnow
from memgate.domain.notices import Notice, NoticeKind, notice_for
from memgate.domain.ports import OutboxEntry, OutboxStatus
from memgate.errors import StorageError

T = TypeVar("T")

_CLAIM = (
    "UPDATE outbox SET lease_until = ? WHERE rowid IN ("
    " SELECT rowid FROM outbox WHERE delivered_at IS NULL AND gave_up_at IS NULL"
    " AND (? OR next_at <= ?) AND (lease_until IS NULL OR lease_until <= ?)"
    " ORDER BY next_at, rowid LIMIT ?)"
    " RETURNING id, kind, event_seq, body, attempts, done, created_at"
)
_SETTLE = (
    "UPDATE outbox SET attempts = attempts + 1, lease_until = NULL, done = ?,"
    " delivered_at = ?, gave_up_at = ?, next_at = coalesce(?, next_at), last_error = ?"
    " WHERE id = ?"
)
_ENQUEUE = (
    "INSERT OR IGNORE INTO outbox (id, kind, event_seq, body, created_at, next_at)"
    " VALUES (?, ?, NULL, ?, ?, ?)"
)
_STATUS = (
    "SELECT"
    " count(*) FILTER (WHERE delivered_at IS NULL AND gave_up_at IS NULL),"
    " count(*) FILTER (WHERE delivered_at IS NOT NULL),"
    " count(*) FILTER (WHERE gave_up_at IS NOT NULL),"
    " min(created_at) FILTER (WHERE delivered_at IS NULL AND gave_up_at IS NULL)"
    " FROM outbox"
)
_LAST_ERROR = (
    "SELECT last_error FROM outbox WHERE last_error IS NOT NULL AND delivered_at IS NULL"
    " ORDER BY next_at DESC LIMIT 1"
)
_PRUNE = (
    "DELETE FROM outbox WHERE created_at < ?"
    " AND (delivered_at IS NOT NULL OR gave_up_at IS NOT NULL)"
)


class SqliteOutbox:
    """Outbox port on `path`, the store's database (migrated by `SqliteStore.open`)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            if not self._path.is_file():
                raise StorageError(f"no database at {self._path}")
            db = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA busy_timeout=5000")
            # As the store's writer: WAL with synchronous=NORMAL survives a process
            # crash without an fsync per commit (a claim or a settle each commit).
            db.execute("PRAGMA synchronous=NORMAL")
            found = db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'outbox'"
            ).fetchone()
            if found is None:
                db.close()
                raise StorageError(
                    f"{self._path} has no outbox table yet; open it once with this memgate"
                    " version (memgate serve) to migrate it"
                )
            self._db = db
        return self._db

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        def job() -> T:
            with self._lock:
                try:
                    return work(self._connect())
                except sqlite3.Error as exc:
                    raise StorageError(f"outbox: {exc.__class__.__name__}: {exc}") from None

        return await asyncio.to_thread(job)

    async def enqueue(self, notice: Notice) -> bool:
        now = utcnow().timestamp()
        body = notice.model_dump_json()

        def work(db: sqlite3.Connection) -> bool:
            cur = db.execute(_ENQUEUE, (notice.id, notice.kind.value, body, now, now))
            return cur.rowcount == 1

        return await self._run(work)

    async def claim(
        self, *, now: float, limit: int, lease: float, due_only: bool = True
    ) -> list[OutboxEntry]:
        def work(db: sqlite3.Connection) -> list[OutboxEntry]:
            rows = db.execute(_CLAIM, (now + lease, not due_only, now, now, limit)).fetchall()
            return [_entry(db, row) for row in sorted(rows, key=lambda r: r[6])]

        return await self._run(work)

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
        now = utcnow().timestamp()
        params = (
            json.dumps(sorted(done)),
            now if delivered else None,
            now if gave_up and not delivered else None,
            next_at,
            None if delivered else error,
            notice_id,
        )
        await self._run(lambda db: db.execute(_SETTLE, params))

    async def status(self) -> OutboxStatus:
        def work(db: sqlite3.Connection) -> OutboxStatus:
            pending, delivered, given_up, oldest = db.execute(_STATUS).fetchone()
            error = db.execute(_LAST_ERROR).fetchone()
            return OutboxStatus(
                pending=pending,
                delivered=delivered,
                given_up=given_up,
                oldest_pending=oldest,
                last_error=error[0] if error else None,
            )

        return await self._run(work)

    async def prune(self, before: float) -> int:
        return await self._run(lambda db: db.execute(_PRUNE, (before,)).rowcount)

    async def close(self) -> None:
        with self._lock:
            if self._db is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._db.close()
                self._db = None


def _entry(db: sqlite3.Connection, row: Any) -> OutboxEntry:
    notice_id, kind, seq, body, attempts, done, created = row
    return OutboxEntry(
        notice=_notice(db, notice_id, kind, seq, body),
        attempts=attempts,
        done=frozenset(json.loads(done)),
        created=created,
    )


def _notice(
    db: sqlite3.Connection, notice_id: str, kind: str, seq: int | None, body: Any
) -> Notice:
    """An event's notice is built from the event as the log holds it; one whose
    event cannot be read any more (a damaged row) still tells, with what is known."""
    if seq is None:
        return Notice.model_validate_json(body)
    found = db.execute("SELECT entry, at FROM events WHERE seq = ?", (seq,)).fetchone()
    if found is not None:
        with contextlib.suppress(ValidationError, ValueError):
            return notice_for(NoticeKind(kind), seq, Event.model_validate_json(found[0]))
    return Notice(
        id=notice_id,
        kind=NoticeKind(kind),
        at=utcnow(),
        seq=seq,
        reason=f"event {seq} could not be read from the log (run memgate log verify)",
    )
