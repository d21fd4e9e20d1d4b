"""The pending journal of `MemgateStore(ack="journaled")`: puts acknowledged
before their scan, one SQLite row each until the gateway admitted them.

A put is one short autocommit INSERT (WAL, synchronous=NORMAL: durable against a
process crash or a kill, as memgate's own log is; a power cut may lose the last
commits, the same as there). A row is deleted once its put reached the gateway's
log (admitted, held for review or rejected: the log has it from then on), so
whatever is left at the next open is exactly what was acknowledged and not yet
admitted, in put order. Only values the sensitive rules found nothing in are
written here (the store checks before it appends): a secret never persists in
clear, here or anywhere.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from memgate.domain.memory import MemoryWrite

__all__ = ["Journal", "JournalRow"]

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS pending ("
    " seq INTEGER PRIMARY KEY AUTOINCREMENT,"
    " write TEXT NOT NULL,"  # the MemoryWrite as JSON, as it will reach the gateway
    " at TEXT NOT NULL"  # when it was acknowledged (the value's updated_at until admitted)
    ")"
)


@dataclass(frozen=True, slots=True)
class JournalRow:
    seq: int
    write: MemoryWrite
    at: datetime


class Journal:
    """One SQLite file; its calls are short and run in place on the caller's
    thread (an INSERT is ~50 µs: cheaper than the hop to a worker thread)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA busy_timeout=5000")
        db.execute(_SCHEMA)
        self._db: sqlite3.Connection | None = db

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError(f"journal {self.path} is closed")
        return self._db

    def append(self, write: MemoryWrite, at: datetime) -> int:
        """Durably record an acknowledged put; its sequence number."""
        body = write.model_dump_json()
        with self._lock:
            cur = self._conn().execute(
                "INSERT INTO pending (write, at) VALUES (?, ?)", (body, at.isoformat())
            )
        seq = cur.lastrowid
        assert seq is not None  # noqa: S101 - an INSERT into a rowid table sets it
        return seq

    def done(self, seq: int) -> None:
        """The put reached the gateway's log: nothing to recover for it any more."""
        with self._lock:
            self._conn().execute("DELETE FROM pending WHERE seq = ?", (seq,))

    def rows(self) -> list[JournalRow]:
        """What was acknowledged and not admitted, in put order."""
        with self._lock:
            found = (
                self._conn().execute("SELECT seq, write, at FROM pending ORDER BY seq").fetchall()
            )
        return [
            JournalRow(seq, MemoryWrite.model_validate_json(w), datetime.fromisoformat(a))
            for seq, w, a in found
        ]

    def count(self) -> int:
        with self._lock:
            (n,) = self._conn().execute("SELECT count(*) FROM pending").fetchone()
        return int(n)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
