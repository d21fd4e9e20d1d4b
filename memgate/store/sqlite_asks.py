"""The ask store over the store's SQLite file (`db/memgate.sqlite3`).

Its table (schema/sqlite/guard_asks.sql) is created here, on a connection of its
own, in a worker thread; each method is one short transaction, so it never holds
the store's writer up for long. The ask is JSON in `body`; the columns are what
queries select on.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TypeVar

from memgate.domain.asks import AskState, GuardAsk
from memgate.errors import StorageError
from memgate.store.sqlite import schema_dir

__all__ = ["SqliteAsks"]

T = TypeVar("T")
SCHEMA_FILE = "guard_asks.sql"
_INSERT = (
    "INSERT OR IGNORE INTO guard_asks (id, digest, state, created_at, used_at, body)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
_ANSWER = (
    "SELECT body FROM guard_asks WHERE digest = ? AND (state != 'allowed' OR used_at IS NULL)"
    " ORDER BY created_at DESC, id DESC LIMIT 1"
)


class SqliteAsks:
    """Ask store on `path` (the store's database file, or any SQLite file)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA busy_timeout=5000")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            script = (schema_dir() / SCHEMA_FILE).read_text(encoding="utf-8")
            _migrate(db, script)
            db.executescript(script)
            self._db = db
        return self._db

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        def job() -> T:
            with self._lock:
                try:
                    return work(self._connect())
                except sqlite3.Error as exc:
                    raise StorageError(f"guard asks: {exc.__class__.__name__}: {exc}") from None

        return await asyncio.to_thread(job)

    async def add(self, ask: GuardAsk) -> GuardAsk:
        row = (
            ask.id,
            ask.digest,
            ask.state.value,
            ask.created_at.timestamp(),
            ask.used_at.timestamp() if ask.used_at else None,
            ask.model_dump_json(),
        )

        def work(db: sqlite3.Connection) -> GuardAsk:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(_INSERT, row)
                found = (
                    db.execute(
                        "SELECT body FROM guard_asks WHERE digest = ? AND state = 'pending'",
                        (ask.digest,),
                    ).fetchone()
                    or db.execute("SELECT body FROM guard_asks WHERE id = ?", (ask.id,)).fetchone()
                )
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            return GuardAsk.model_validate_json(found[0])

        return await self._run(work)

    async def get(self, ask_id: str) -> GuardAsk | None:
        def work(db: sqlite3.Connection) -> GuardAsk | None:
            row = db.execute("SELECT body FROM guard_asks WHERE id = ?", (ask_id,)).fetchone()
            return None if row is None else GuardAsk.model_validate_json(row[0])

        return await self._run(work)

    async def answer(self, digest: str) -> GuardAsk | None:
        def work(db: sqlite3.Connection) -> GuardAsk | None:
            row = db.execute(_ANSWER, (digest,)).fetchone()
            return None if row is None else GuardAsk.model_validate_json(row[0])

        return await self._run(work)

    async def pending(self, limit: int = 50, offset: int = 0) -> list[GuardAsk]:
        def work(db: sqlite3.Connection) -> list[GuardAsk]:
            rows = db.execute(
                "SELECT body FROM guard_asks WHERE state = 'pending'"
                " ORDER BY created_at, id LIMIT ? OFFSET ?",
                (limit, offset),
            ).fetchall()
            return [GuardAsk.model_validate_json(r[0]) for r in rows]

        return await self._run(work)

    async def resolve(
        self,
        ask_id: str,
        state: AskState,
        *,
        reviewer: str,
        note: str | None,
        at: datetime,
        review_seq: int | None,
    ) -> GuardAsk | None:
        if state is AskState.PENDING:
            return None

        def work(db: sqlite3.Connection) -> GuardAsk | None:
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute(
                    "SELECT body FROM guard_asks WHERE id = ? AND state = 'pending'", (ask_id,)
                ).fetchone()
                if row is None:
                    db.execute("ROLLBACK")
                    return None
                done = GuardAsk.model_validate_json(row[0]).model_copy(
                    update={
                        "state": state,
                        "reviewer": reviewer,
                        "note": note,
                        "reviewed_at": at,
                        "review_seq": review_seq,
                    }
                )
                db.execute(
                    "UPDATE guard_asks SET state = ?, body = ? WHERE id = ?",
                    (state.value, done.model_dump_json(), ask_id),
                )
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            return done

        return await self._run(work)

    async def use(self, ask_id: str, at: datetime) -> bool:
        stamp = at.isoformat()

        def work(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "UPDATE guard_asks SET used_at = ?, body = json_set(body, '$.used_at', ?)"
                " WHERE id = ? AND state = 'allowed' AND used_at IS NULL",
                (at.timestamp(), stamp, ask_id),
            )
            return cur.rowcount == 1

        return await self._run(work)

    async def close(self) -> None:
        def job() -> None:
            with self._lock:
                if self._db is not None:
                    self._db.close()
                    self._db = None

        await asyncio.to_thread(job)


def _migrate(db: sqlite3.Connection, script: str) -> None:
    """A table made before asks expired (its CHECK lacks 'expired', and SQLite
    cannot alter a CHECK): rebuilt with the schema file's definition, rows kept,
    in one transaction."""
    row = db.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'guard_asks'"
    ).fetchone()
    if row is None or "'expired'" in row[0]:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("ALTER TABLE guard_asks RENAME TO guard_asks_before_expiry")
        for name in ("guard_asks_pending", "guard_asks_digest", "guard_asks_waiting"):
            db.execute(f"DROP INDEX IF EXISTS {name}")
        code = "\n".join(ln for ln in script.splitlines() if not ln.lstrip().startswith("--"))
        for statement in code.split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute(
            "INSERT INTO guard_asks (id, digest, state, created_at, used_at, body)"
            " SELECT id, digest, state, created_at, used_at, body FROM guard_asks_before_expiry"
        )
        db.execute("DROP TABLE guard_asks_before_expiry")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
