"""The SQLite store: event log, long-term pool (with FTS5) and reads in one
database file, WAL mode, via aiosqlite.

Writes go through one committer task (group commit): concurrent `append` calls
are sealed into the MAC chain in arrival order and committed together in one
transaction, events and their pool projection side by side. An append returns
only after its transaction committed: an acknowledged write survives a crash.
Reads use a second connection, so they never see uncommitted rows.
"""

from __future__ import annotations

import asyncio
import builtins
import concurrent.futures
import contextlib
import fcntl
import json
import logging
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import IO, Any

import aiosqlite
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from memgate.domain.events import Checkpoint, Divergence, Event, LogRecord, VerifyResult
from memgate.domain.memory import MemoryItem, MemoryState, utcnow
from memgate.domain.ports import PoolQuery, ReadRecord, linked
from memgate.domain.raw import Version
from memgate.domain.rollback import Compensation
from memgate.errors import StorageError
from memgate.log.chain import GENESIS, Chain, verify_rows
from memgate.log.integrity import GENESIS_HASH, RowSeal, Signer, public_pem, signature_ok
from memgate.log.references import Noted, sqlite_first_fault, with_reference_fault
from memgate.log.replay import (
    SQLITE_BASE_JOIN,
    State,
    apply_rows,
    load_snapshot,
    resolve,
    resolved_record,
    snapshot_body,
    snapshot_mac,
    sqlite_base_join,
    version_of,
    version_pair,
)
from memgate.store.projection import namespace_key, prefix_bounds, projected
from memgate.store.served import served_items, served_verdict
from memgate.store.sqlite_integrity import (
    ITEM_SERVE,
    ROW_MAC_SCHEMA,
    SHORT_SERVE,
    Refusals,
    ServedCheck,
    backfill,
    check_served,
    check_served_since,
    event_rows,
    extend_hash,
    item_fields,
    read_only,
    schema_version,
    sealed,
    short_fields,
    verify_chain_range,
    verify_events,
)
from memgate.store.sqlite_integrity import instant as _instant
from memgate.store.sqlite_rollback import seal_compensation

log = logging.getLogger(__name__)
MAX_BATCH = 512
FTS_BATCH = 256
"""Rows indexed into FTS per transaction; the store indexes once this many wait."""
FTS_IDLE_SECONDS = 0.25
"""With fewer waiting, they are indexed after this long without writes."""
WAL_AUTOCHECKPOINT_PAGES = 16384
"""The writer checkpoints inline only past this many WAL pages (64 MiB): a bound
on the WAL should the background checkpointer fall behind."""
CHECKPOINT_PAUSE_SECONDS = 0.25
WRITER_CACHE_KIB = 65536
"""The writer's page cache (SQLite's default is 2 MiB, allocated as used). A
rollback of 43k memories touches ~65 MB of rows and index pages in one
transaction: with 2 MiB its SQL took 4.4 s on the loaded machine, 1.7-1.9 s
with 64 MiB (load ~3.5)."""
"""The background checkpointer runs at most one pass per pause."""
_READ_COLUMNS = "SELECT seq, memory_id, at, session_id, call_id, agent_id FROM reads"
_READS_OF_SESSION = _READ_COLUMNS + " WHERE session_id = ? AND at >= ?"
_READS_OF_CALL = _READ_COLUMNS + " WHERE call_id = ? AND at >= ?"
_READS_OF_AGENT = _READ_COLUMNS + " WHERE agent_id = ? AND at >= ?"
# NOTE: named, or the planner may walk every read of an agent id many sessions share.
_READS_OF_AGENT_ALONE = (
    "SELECT seq, memory_id, at, session_id, call_id, agent_id FROM reads"
    " INDEXED BY reads_agent_alone WHERE agent_id = ? AND at >= ? AND session_id IS NULL"
)
_TEXT_MARGIN = timedelta(days=1)
_MIGRATION = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")

_INSERT_EVENT = (
    "INSERT INTO events (seq, at, memory_id, op, actor, reason, state_before, state_after,"
    " summary, entry, prev_mac, mac) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
)
"""Column order matches `memgate.log.chain.event_columns`."""
_UPSERT_ITEM = (
    "INSERT INTO items (id, namespace, key, pool, state, source, session_id, created_at,"
    " updated_at, expires_at, fingerprint, categories, content, body, event_seq, event_mac,"
    " row_mac) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
    " ON CONFLICT(id) DO UPDATE SET namespace=excluded.namespace, key=excluded.key,"
    " pool=excluded.pool, state=excluded.state, source=excluded.source,"
    " session_id=excluded.session_id, created_at=excluded.created_at,"
    " updated_at=excluded.updated_at,"
    " expires_at=excluded.expires_at, fingerprint=excluded.fingerprint,"
    " categories=excluded.categories, content=excluded.content, body=excluded.body,"
    " event_seq=excluded.event_seq, event_mac=excluded.event_mac, row_mac=excluded.row_mac"
)
"""Every column is set from the item: the row MAC covers them all (created_at too)."""
_NARROW_ITEM = (
    "UPDATE items SET state=?, updated_at=?, body=?, event_seq=?, event_mac=?, row_mac=?"
    " WHERE id=? AND namespace=? AND key IS ? AND pool=? AND source=? AND session_id IS ?"
    " AND created_at=? AND expires_at IS ? AND fingerprint=? AND categories=? AND content=?"
)
"""A row whose new item differs from the stored one only in state, version and
`updated_at` (most of a rollback's): those columns set, and only where every other
column holds what the row is expected to hold (`_upsert_items`). It touches the three
indexes over `state` instead of all five and rewrites no content: a rollback's
36k rows took 0.71 s so, 1.56-1.68 s through the upsert."""
_NARROW_PARAMS = (4, 8, 13, 14, 15, 16, 0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 12)
"""Positions in a sealed items row (ITEM_COLUMNS, event_seq, event_mac, row_mac)."""
_UPSERT_SHORT = (
    "INSERT OR REPLACE INTO short_items (id, expires_at, body, event_seq, event_mac, row_mac)"
    " VALUES (?,?,?,?,?,?)"
)
_DELETE_SHORT = "DELETE FROM short_items WHERE id = ?"
_INSERT_READ = (
    "INSERT INTO reads (seq, memory_id, at, session_id, call_id, agent_id, mac)"
    " VALUES (?,?,?,?,?,?,?)"
)
_SET_READS_HEAD = "INSERT OR REPLACE INTO heads (name, seq, mac, tag) VALUES ('reads', ?, ?, ?)"
_FTS_MARK = "SELECT indexed_rowid FROM fts_state WHERE id = 1"
_FTS_UPTO = (
    "SELECT max(rowid) FROM (SELECT rowid FROM items WHERE rowid > ? ORDER BY rowid LIMIT ?)"
)
_FTS_MORE = "SELECT 1 FROM items WHERE rowid > ? LIMIT 1"
_FTS_INDEX = (
    "INSERT INTO items_fts (rowid, content)"
    " SELECT rowid, content FROM items WHERE rowid > ? AND rowid <= ?"
)
_FTS_SET_MARK = "UPDATE fts_state SET indexed_rowid = ? WHERE id = 1"


def schema_dir() -> Path:
    """The bundled SQL migrations (`memgate/_schema/sqlite` in a wheel,
    `schema/sqlite` in a checkout)."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "_schema" / "sqlite", package.parent / "schema" / "sqlite"):
        if candidate.is_dir():
            return candidate
    raise StorageError(f"no SQL schema directory found next to {package}")


def migrations() -> list[tuple[int, str]]:
    found = []
    for path in sorted(schema_dir().iterdir()):
        match = _MIGRATION.match(path.name)
        if match:
            found.append((int(match.group(1)), path.read_text(encoding="utf-8")))
    return found


def _fts_query(text: str) -> str | None:
    """Every word of the caller's text as a quoted FTS5 term (no FTS syntax leaks through)."""
    terms = re.findall(r"\w+", text, re.UNICODE)
    return " ".join(f'"{t}"' for t in terms) or None


Items = list[MemoryItem]
Records = list[LogRecord]
Reads = list[ReadRecord]


class _Checkpointer:
    """WAL checkpoints off the commit path, in a thread on its own connection.

    SQLite's automatic checkpoint runs inside the COMMIT that crosses the page
    threshold: that commit copies the WAL into the database and fsyncs both
    (milliseconds, the write p99). A PASSIVE checkpoint takes no write lock, so
    here it runs beside the writer (the sqlite3 module releases the GIL while
    SQLite works); the writer's own automatic checkpoint stays on, at a far
    higher threshold, as the bound on the WAL's size."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._wake = threading.Event()
        self._halt = threading.Event()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="memgate-checkpoint", daemon=True)
        self._thread.start()

    def poke(self) -> None:
        self._wake.set()

    def _run(self) -> None:
        try:
            db = sqlite3.connect(self._path, isolation_level=None)
        except sqlite3.Error:
            return  # the writer's automatic checkpoint still bounds the WAL
        try:
            db.execute("PRAGMA busy_timeout=1000")
            while True:
                self._wake.wait()
                # Clear, then look at _stop: close() sets _stop before waking us,
                # so a wake-up cleared here can never hide a close (checking first
                # and clearing after lost it, and close() waited out its timeout).
                self._wake.clear()
                if self._stop:
                    return
                with contextlib.suppress(sqlite3.Error):
                    row = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    if row is not None and row[1] > WAL_AUTOCHECKPOINT_PAGES:
                        # A writer that never pauses keeps the WAL from restarting
                        # (and makes the writer's own checkpoint find this one busy):
                        # past the bound, RESTART waits out the writer for one short
                        # pass (most frames are copied already) so the WAL restarts.
                        db.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
                if self._halt.wait(CHECKPOINT_PAUSE_SECONDS):
                    return  # closing: don't make close() wait out the pause
        finally:
            db.close()

    def close(self) -> None:
        self._stop = True
        self._halt.set()
        self._wake.set()
        self._thread.join(timeout=10)


class SqliteStore:
    """Store port over one SQLite file. Open with `await SqliteStore.open(path, key)`."""

    def __init__(
        self,
        writer: sqlite3.Connection,
        reader: aiosqlite.Connection,
        key: bytes,
        chain: Chain,
        path: Path,
        lock: IO[bytes] | None = None,
        *,
        signer: Signer | None = None,
        reads_head: tuple[int, str] = (0, GENESIS),
    ) -> None:
        self._lock = lock
        self._writer = writer
        self._reader = reader
        self._path = path
        self._key = key
        self._chain = chain
        self._seal = RowSeal(key)
        self._signer = signer or Signer.generate()
        self._reads_head = reads_head
        self._hashed: tuple[int, str] = (0, GENESIS_HASH)
        """(seq, public hash) as far as a signed checkpoint has hashed the log."""
        self.refusals = Refusals()
        """Rows not served because their MAC failed, since open."""
        self._queue: list[tuple[Sequence[Event], asyncio.Future[Records]]] = []
        self._reads: Reads = []
        self._committer: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self._closed = False
        self._fts_waiting = 1  # unknown at open: the first search or idle pass checks
        self._fts_timer: asyncio.TimerHandle | None = None
        self._checkpointer = _Checkpointer(path)
        self._listeners: builtins.list[Callable[[], None]] = []
        """Told after each commit (`on_commit`)."""
        # Point reads (one row by key) on a read-only connection on the loop
        # thread: the lookup costs a few microseconds, far less than aiosqlite's
        # hop to its thread and back; WAL readers never wait for the writer.
        self._point = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._point.execute("PRAGMA query_only=ON")
        self._point.execute("PRAGMA busy_timeout=5000")

    @classmethod
    async def open(
        cls, path: Path, key: bytes, *, signer: Signer | None = None, create: bool = True
    ) -> SqliteStore:
        """Open (migrating first) the store at `path`. With `create=False` a missing
        or zero-length file is refused instead of started as a new, empty store.
        A damaged file (`PRAGMA quick_check` fails) is refused with the reason.
        `signer` signs exported checkpoints (a fresh key pair if None)."""
        if not create:
            _refuse_missing(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = _hold_writer_lock(path)
        # NOTE: the writer is a plain sqlite3 connection used only on the event-loop
        # thread: a group commit is one short synchronous transaction (WAL,
        # synchronous=NORMAL: no fsync per commit, durable against process crashes),
        # where aiosqlite would cost a thread hop per statement. Reads, which can be
        # long (FTS, verify), go through aiosqlite on their own connection.
        writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            writer.execute("PRAGMA journal_mode=WAL")
            writer.execute("PRAGMA synchronous=NORMAL")
            writer.execute("PRAGMA busy_timeout=5000")
            writer.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT_PAGES:d}")
            writer.execute(f"PRAGMA journal_size_limit={WAL_AUTOCHECKPOINT_PAGES * 4096:d}")
            writer.execute(f"PRAGMA cache_size=-{WRITER_CACHE_KIB:d}")
            _check_pages(writer, path)
            cls._migrate(writer, key)
            row = writer.execute("SELECT seq, mac FROM events ORDER BY seq DESC LIMIT 1").fetchone()
            head = writer.execute("SELECT seq, mac FROM heads WHERE name = 'reads'").fetchone()
            reader = await aiosqlite.connect(path, isolation_level=None)
            await reader.execute("PRAGMA busy_timeout=5000")
            await reader.execute("PRAGMA query_only=ON")
        except sqlite3.DatabaseError as exc:
            writer.close()
            lock.close()
            raise StorageError(f"database {path} is unreadable: {exc}") from None
        except Exception:
            writer.close()
            lock.close()
            raise
        chain = Chain(key, row[0], row[1]) if row else Chain(key, 0, GENESIS)
        reads_head = (int(head[0]), str(head[1])) if head else (0, GENESIS)
        return cls(writer, reader, key, chain, path, lock, signer=signer, reads_head=reads_head)

    @staticmethod
    def _migrate(db: sqlite3.Connection, key: bytes) -> None:
        current = schema_version(db)
        for number, sql in migrations():
            if number <= current:
                continue
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in _split_sql(sql):
                    db.execute(statement)
                if number == ROW_MAC_SCHEMA:
                    backfill(db, key)
                db.execute(f"PRAGMA user_version = {number:d}")
                db.execute("COMMIT")
            except Exception:
                db.execute("ROLLBACK")
                raise

    # -- writing -------------------------------------------------------------

    async def append(self, events: Sequence[Event]) -> Records:
        if self._closed:
            raise StorageError("store is closed")
        future: asyncio.Future[Records] = asyncio.get_running_loop().create_future()
        self._queue.append((events, future))
        self._kick()
        return await future

    async def record_reads(self, reads: Sequence[ReadRecord]) -> None:
        """Queued, committed with the next batch (in order); `flush` waits for it."""
        self._reads.extend(reads)
        self._kick()

    def on_commit(self, listener: Callable[[], None]) -> None:
        """Call `listener` on the event loop after each commit of events or reads
        (the graph projector's wake-up: pushed, not polled). It must not block; an
        error it raises is logged and never fails the commit."""
        self._listeners.append(listener)

    def _committed(self) -> None:
        for listener in self._listeners:
            try:
                listener()
            except Exception:  # a listener's trouble is never the writer's
                log.exception("commit listener failed")

    def _kick(self) -> None:
        if self._committer is None or self._committer.done():
            self._idle.clear()
            self._committer = asyncio.get_running_loop().create_task(self._drain())

    async def flush(self) -> None:
        """Wait until everything queued so far is committed."""
        while self._queue or self._reads or (self._committer and not self._committer.done()):
            await self._idle.wait()
            if self._queue or self._reads:
                self._kick()

    async def _drain(self) -> None:
        try:
            # Let every writer that is ready enqueue first: they share one commit.
            await asyncio.sleep(0)
            while self._queue or self._reads:
                batch = self._queue[:MAX_BATCH]
                del self._queue[:MAX_BATCH]
                reads, self._reads = self._reads, []
                self._commit(batch, reads)
                self._committed()
                await asyncio.sleep(0)
            if self._fts_waiting >= FTS_BATCH:
                self._index_fts_quietly()
            elif self._fts_waiting and not self._closed:
                if self._fts_timer is not None:
                    self._fts_timer.cancel()
                loop = asyncio.get_running_loop()
                self._fts_timer = loop.call_later(FTS_IDLE_SECONDS, self._index_fts_quietly)
        finally:
            self._idle.set()

    def _index_fts_quietly(self) -> None:
        """Background passes: a failure leaves the rows waiting for the next pass
        (a search, which then reports it)."""
        with contextlib.suppress(StorageError):
            self._index_fts()

    def _index_fts(self) -> None:
        """Index the items rows added since the last pass into FTS5, in batches of
        FTS_BATCH rows per transaction (one FTS segment per batch instead of one
        per write). Runs on the writer connection between group commits, so it
        never interleaves with a commit; the mark moves in the same transaction."""
        if self._fts_timer is not None:
            self._fts_timer.cancel()
            self._fts_timer = None
        if self._closed or not self._fts_waiting:
            return
        db = self._writer
        while True:
            try:
                db.execute("BEGIN IMMEDIATE")
                (mark,) = db.execute(_FTS_MARK).fetchone()
                (upto,) = db.execute(_FTS_UPTO, (mark, FTS_BATCH)).fetchone()
                if upto is not None:
                    db.execute(_FTS_INDEX, (mark, upto))
                    db.execute(_FTS_SET_MARK, (upto,))
                db.execute("COMMIT")
            except sqlite3.Error as exc:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                raise StorageError(f"full-text indexing failed: {exc.__class__.__name__}") from exc
            if upto is None or db.execute(_FTS_MORE, (upto,)).fetchone() is None:
                self._fts_waiting = 0
                return

    def _commit(
        self,
        batch: list[tuple[Sequence[Event], asyncio.Future[Records]]],
        reads: Reads,
    ) -> None:
        last_seq, head = self._chain.last_seq, self._chain.head
        event_rows: builtins.list[tuple[Any, ...]] = []
        item_rows: builtins.list[tuple[Any, ...]] = []
        short_rows: builtins.list[tuple[Any, ...]] = []
        short_gone: builtins.list[tuple[str]] = []
        results: list[Records] = []
        accepted: list[tuple[Sequence[Event], asyncio.Future[Records]]] = []
        for events, future in batch:
            # One write whose events cannot be sealed or projected (a value that
            # is not UTF-8 text, say) fails alone: its rows are dropped, the chain
            # goes back to where it was before it, and the rest of the batch
            # commits. An escaping exception would leave every future unresolved.
            mark = (
                self._chain.last_seq,
                self._chain.head,
                len(event_rows),
                len(item_rows),
                len(short_rows),
                len(short_gone),
            )
            records: Records = []
            try:
                for event in events:
                    self._seal_event(event, records, event_rows, item_rows, short_rows, short_gone)
            except Exception as exc:  # any failure fails this write only
                self._chain.reset(mark[0], mark[1])
                del event_rows[mark[2] :], item_rows[mark[3] :]
                del short_rows[mark[4] :], short_gone[mark[5] :]
                if not future.done():
                    future.set_exception(
                        StorageError(f"write could not be sealed: {exc.__class__.__name__}")
                    )
                continue
            accepted.append((events, future))
            results.append(records)
        batch = accepted
        db = self._writer
        try:
            db.execute("BEGIN IMMEDIATE")
            if event_rows:
                db.executemany(_INSERT_EVENT, event_rows)
            if item_rows:
                _upsert_items(db, item_rows)
            if short_rows:
                db.executemany(_UPSERT_SHORT, short_rows)
            if short_gone:
                db.executemany(_DELETE_SHORT, short_gone)
            read_rows, reads_head = self._chain_reads(db, reads)
            if read_rows:
                db.executemany(_INSERT_READ, read_rows)
                seq, mac = reads_head
                db.execute(_SET_READS_HEAD, (seq, mac, self._seal.reads_head(seq, mac)))
            db.execute("COMMIT")
            self._reads_head = reads_head
        except (sqlite3.Error, ValueError) as exc:
            self._chain.reset(last_seq, head)
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            error = StorageError(f"commit failed: {exc.__class__.__name__}")
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        self._fts_waiting += len(item_rows)
        self._checkpointer.poke()
        for (_, future), records in zip(batch, results, strict=True):
            if not future.done():
                future.set_result(records)

    def _seal_event(
        self,
        event: Event,
        records: Records,
        event_rows: builtins.list[tuple[Any, ...]],
        item_rows: builtins.list[tuple[Any, ...]],
        short_rows: builtins.list[tuple[Any, ...]],
        short_gone: builtins.list[tuple[str]],
    ) -> None:
        """Seal `event` into the chain and add its log row and projection rows."""
        record, entry, columns = self._chain.seal(event)
        records.append(record)
        event_rows.append((record.seq, *columns, entry, record.prev_mac, record.mac))
        change = projected(event)
        if change.long is not None:
            fields = item_fields(change.long)
            row = sealed(self._seal, "items", fields, record.seq, record.mac)
            item_rows.append((row, event.narrow))
        if change.short is not None:
            fields = short_fields(change.short)
            short_rows.append(sealed(self._seal, "short_items", fields, record.seq, record.mac))
        if change.short_gone is not None:
            short_gone.append((change.short_gone,))

    async def append_compensation(self, batch: Compensation) -> int:
        """A rollback's events in one transaction: the rows `append(batch.events())`
        writes, sealed without a model per change (`memgate.store.sqlite_rollback`).
        Runs on the loop thread between group commits, as each commit does, so it
        never interleaves with one; returns the marker's sequence number."""
        if self._closed:
            raise StorageError("store is closed")
        await self.flush()
        last_seq, head = self._chain.last_seq, self._chain.head
        marker: Records = []
        try:
            rows = seal_compensation(self._key, self._seal, last_seq, head, batch)
            self._chain.reset(rows.last_seq, rows.head)  # the chain moves past them
            no_items: builtins.list[tuple[Any, ...]] = []
            self._seal_event(
                batch.marker, marker, rows.events, no_items, rows.short, rows.short_gone
            )
            if no_items:
                raise ValueError("a rollback's marker carries no item")
        except Exception as exc:  # nothing was written: the chain goes back
            self._chain.reset(last_seq, head)
            raise StorageError(f"rollback could not be sealed: {exc.__class__.__name__}") from exc
        db = self._writer
        try:
            db.execute("BEGIN IMMEDIATE")
            db.executemany(_INSERT_EVENT, rows.events)
            if rows.items:
                db.executemany(_UPSERT_ITEM, rows.items)
            if rows.narrow:
                before = db.total_changes
                db.executemany(_NARROW_ITEM, rows.narrow)
                if db.total_changes - before != len(rows.narrow):
                    db.executemany(_UPSERT_ITEM, rows.narrow_rows)  # as `_upsert_items`
            if rows.short:
                db.executemany(_UPSERT_SHORT, rows.short)
            if rows.short_gone:
                db.executemany(_DELETE_SHORT, rows.short_gone)
            db.execute("COMMIT")
        except (sqlite3.Error, ValueError) as exc:
            self._chain.reset(last_seq, head)
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise StorageError(f"commit failed: {exc.__class__.__name__}") from exc
        self._fts_waiting += len(rows.items) + len(rows.narrow_rows)
        self._checkpointer.poke()
        self._committed()
        return marker[-1].seq

    def _chain_reads(
        self, db: sqlite3.Connection, reads: Reads
    ) -> tuple[builtins.list[tuple[Any, ...]], tuple[int, str]]:
        """Rows for `reads`, numbered after the chain's head and MAC-chained to it.
        Numbered after any row already there too: a row inserted by hand must never
        make the commit fail (verify names it; writes go on)."""
        seq, prev = self._reads_head
        rows: builtins.list[tuple[Any, ...]] = []
        if not reads:
            return rows, (seq, prev)
        (top,) = db.execute("SELECT max(seq) FROM reads").fetchone()
        seq = max(seq, int(top or 0))
        for r in reads:
            seq += 1
            fields = (r.memory_id, r.at.isoformat(), r.session_id, r.call_id, r.agent_id)
            prev = self._seal.read(prev, seq, fields)
            rows.append((seq, *fields, prev))
        return rows, (seq, prev)

    # -- reader queries ------------------------------------------------------

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> builtins.list[Any]:
        """One query as ONE job on the reader's thread: execute and fetch together.

        With `execute` and `fetchall` as two jobs, a query queued between them ran
        inside the first statement's open read snapshot, so a read issued after an
        acknowledged write could miss it (seen ~1 in 300 reads with the graph
        projector polling). One job per query closes that window."""
        return list(await self._reader.execute_fetchall(sql, params))

    async def _row(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._rows(sql, params)
        return rows[0] if rows else None

    def _stream(
        self, sql: str, params: Sequence[Any], take: Callable[[builtins.list[Any]], None]
    ) -> None:
        """A long scan (replay) on its own read-only connection in a worker thread:
        memory stays flat, and it holds no snapshot open on the shared reader."""
        uri = _read_only_uri(self._path)
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
            cur = db.execute(sql, params)
            while rows := cur.fetchmany(4096):
                take(rows)

    # -- the log -------------------------------------------------------------

    async def records(self, after_seq: int = 0, limit: int = 1000) -> Records:
        sql = (
            "SELECT e.seq, e.entry, e.prev_mac, e.mac, r.entry, r.mac FROM events e"  # noqa: S608 - constants
            + SQLITE_BASE_JOIN
            + " WHERE e.seq > ? ORDER BY e.seq LIMIT ?"
        )
        rows = await self._rows(sql, (after_seq, limit))
        return [_record(row) for row in rows]

    async def history(self, memory_id: str) -> Records:
        sql = (
            "SELECT e.seq, e.entry, e.prev_mac, e.mac, r.entry, r.mac FROM events e"  # noqa: S608 - constants
            + SQLITE_BASE_JOIN
            + " WHERE e.memory_id = ? ORDER BY e.seq"
        )
        rows = await self._rows(sql, (memory_id,))
        return [_record(row) for row in rows]

    async def checkpoint(self) -> Checkpoint:
        row = await self._row(
            "SELECT seq, mac, (SELECT count(*) FROM events) FROM events ORDER BY seq DESC LIMIT 1"
        )
        if row is None:
            return Checkpoint(seq=0, head_mac=GENESIS, count=0, at=utcnow())
        return Checkpoint(seq=row[0], head_mac=row[1], count=row[2], at=utcnow())

    async def verify(
        self, checkpoint: Checkpoint | None = None, *, since: Checkpoint | None = None
    ) -> VerifyResult:
        """The chain, then everything served (projection rows and reads) against
        it, in a worker thread on read-only connections: nothing is written.
        `since`: incremental from a checkpoint an earlier verify vouched for, in
        time proportional to what changed after it (see `verify_file`)."""
        await self.flush()
        return await asyncio.to_thread(
            verify_file,
            self._path,
            self._key,
            checkpoint,
            public=self._signer.public,
            writer_here=True,
            since=since,
        )

    async def export_checkpoint(self) -> Checkpoint:
        """A signed checkpoint of the head (see `signed_checkpoint`); the chain is
        verified and hashed from where the last export left it."""
        await self.flush()
        point, self._hashed = await asyncio.to_thread(
            signed_checkpoint, self._path, self._key, self._signer, self._hashed, writer_here=True
        )
        return point

    def public_key_pem(self) -> str:
        """The PEM of the key that signs exported checkpoints."""
        return public_pem(self._signer.public)

    # -- the long-term pool ----------------------------------------------------

    async def put(self, item: MemoryItem) -> None:
        """The Pool port's direct write (contract tests; the gateway never calls it:
        its rows come from `append`). Sealed to no event, so `verify` names every
        such row as an orphan."""
        self._writer.execute(_UPSERT_ITEM, sealed(self._seal, "items", item_fields(item), 0, ""))
        self._fts_waiting += 1

    async def remove(self, memory_id: str) -> None:
        self._writer.execute("DELETE FROM items WHERE id = ?", (memory_id,))

    def _served(self, rows: builtins.list[Any], table: str = "items") -> Items:
        """The rows (read with ITEM_SERVE / SHORT_SERVE) that hold their MAC and
        that no later event replaced (`memgate.store.served.served_items`)."""
        return served_items(self._seal, self.refusals, rows, table)

    async def get(self, memory_id: str) -> MemoryItem | None:
        sql = f"SELECT {ITEM_SERVE} FROM items WHERE id = ?"  # noqa: S608 - constant
        found = self._served(self._point.execute(sql, (memory_id,)).fetchall())
        return found[0] if found else None

    async def get_by_key(self, namespace: tuple[str, ...], key: str) -> MemoryItem | None:
        sql = (
            f"SELECT {ITEM_SERVE} FROM items"  # noqa: S608 - constant
            " WHERE namespace = ? AND key = ? AND state != 'deleted'"
            " ORDER BY updated_at DESC, id DESC"
        )
        # NOTE: the newest row that holds its MAC: a forged newer row is refused and
        # never hides the real one.
        cur = self._point.execute(sql, (namespace_key(namespace), key))
        while batch := cur.fetchmany(8):
            found = self._served(batch)
            if found:
                return found[0]
        return None

    def _where(self, query: PoolQuery) -> tuple[builtins.list[str], list[Any]]:
        clauses: builtins.list[str] = []
        params: list[Any] = []
        bounds = prefix_bounds(query.namespace_prefix)
        if bounds is not None:
            clauses.append("items.namespace >= ? AND items.namespace < ?")
            params.extend(bounds)
        if query.states is not None:
            states = sorted(s.value for s in query.states)
            clauses.append(f"items.state IN ({','.join('?' * len(states))})")
            params.extend(states)
        if query.source is not None:
            clauses.append("items.source = ?")
            params.append(query.source.value)
        if query.category is not None:
            clauses.append("instr(items.categories, ?) > 0")
            params.append(f" {query.category.value} ")
        if query.session_id is not None:
            clauses.append("items.session_id = ?")
            params.append(query.session_id)
        if query.older_than is not None:
            clauses.append("items.created_at < ?")
            params.append(_instant(query.older_than))
        for name, value in query.metadata.items():
            # `->` yields JSON text ('"en"', 'true', '3'); json_extract would yield SQL
            # values, which never equal the JSON text json(?) makes of a scalar.
            clauses.append("(items.body -> ('$.metadata.' || json_quote(?))) = json(?)")
            params.extend([name, json.dumps(value, ensure_ascii=False)])
        return clauses, params

    async def list(self, query: PoolQuery) -> Items:
        return await self._select(query, None)

    async def search(self, query: PoolQuery) -> Items:
        return await self._select(query, _fts_query(query.text) if query.text else None)

    async def _select(self, query: PoolQuery, fts: str | None) -> Items:
        clauses, params = self._where(query)
        source = "items"
        if fts is not None:
            self._index_fts()  # rows committed but not yet indexed: exact results
            if query.states and not query.oldest_first:
                return await self._newest_matches(query, fts, clauses, params)
            source = "items_fts JOIN items ON items.rowid = items_fts.rowid"
            clauses.insert(0, "items_fts MATCH ?")
            params.insert(0, fts)
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        order = "ASC" if query.oldest_first else "DESC"
        # NOTE: the page is chosen on (rowid, sort keys) only, then its bodies are
        # read: sorting every match with its ~2 KB body made a common word's search
        # grow with the store (the sorter held all matching bodies).
        page = (
            f"SELECT items.rowid FROM {source}{where}"  # noqa: S608 - clauses are constants, values are ? parameters
            f" ORDER BY items.created_at {order}, items.id {order} LIMIT ? OFFSET ?"
        )
        sql = (
            f"SELECT {ITEM_SERVE} FROM items WHERE rowid IN ({page})"  # noqa: S608 - as above
            f" ORDER BY created_at {order}, id {order}"
        )
        params.extend([query.limit, query.offset])
        return self._served(await self._rows(sql, params))

    async def _newest_matches(
        self, query: PoolQuery, fts: str, clauses: builtins.list[str], params: builtins.list[Any]
    ) -> Items:
        """A search page, newest first, without sorting every match.

        A common word matches a large share of the store; ordering all of them
        by time grew with the store. Instead: (1) the first `k = offset + limit`
        matches in FTS rowid order, newest rowid first (FTS5 streams these and
        stops); (2) the k-th largest (created_at, id) among them is a lower bound
        of the k-th largest among all matches, so every row of the true page is
        at or above it: the page is the top k of the matches at or above that
        bound, found through the (state, created_at) index with a per-row FTS
        check. Exact whatever the order of rowids; fast when rowids follow time,
        as inserts do."""
        k = query.offset + query.limit
        where = " AND ".join(clauses) if clauses else "1"
        if query.session_id is not None:
            # one session's rows (index items_session), each checked against FTS
            return await self._page_of(where, params, fts, query)
        candidates = (
            "SELECT items.created_at, items.id FROM items_fts JOIN items"  # noqa: S608 - clauses are constants, values are ? parameters
            f" ON items.rowid = items_fts.rowid WHERE items_fts MATCH ? AND {where}"
            " ORDER BY items_fts.rowid DESC LIMIT ?"
        )
        found = await self._rows(candidates, [fts, *params, k])
        if not found:
            return []
        at, ident = min((str(r[0]), str(r[1])) for r in found)
        bound = " AND items.created_at >= ? AND NOT (items.created_at = ? AND items.id < ?)"
        return await self._page_of(where + bound, [*params, at, at, ident], fts, query)

    async def _page_of(
        self, where: str, params: builtins.list[Any], fts: str, query: PoolQuery
    ) -> Items:
        """Newest first, the rows that satisfy `where` and match `fts` (checked row by row)."""
        page = (
            f"SELECT items.rowid FROM items WHERE {where}"  # noqa: S608 - clauses are constants, values are ? parameters
            " AND EXISTS (SELECT 1 FROM items_fts WHERE items_fts MATCH ?"
            " AND items_fts.rowid = items.rowid)"
            " ORDER BY items.created_at DESC, items.id DESC LIMIT ? OFFSET ?"
        )
        sql = (
            f"SELECT {ITEM_SERVE} FROM items WHERE rowid IN ({page})"  # noqa: S608 - as above
            " ORDER BY created_at DESC, id DESC"
        )
        return self._served(await self._rows(sql, [*params, fts, query.limit, query.offset]))

    # -- reads and restore -------------------------------------------------------

    async def reads(self, memory_id: str) -> Reads:
        sql = (
            "SELECT memory_id, at, session_id, call_id, agent_id FROM reads"
            " WHERE memory_id = ? ORDER BY seq"
        )
        rows = await self._rows(sql, (memory_id,))
        return [
            ReadRecord(memory_id=r[0], at=r[1], session_id=r[2], call_id=r[3], agent_id=r[4])
            for r in rows
        ]

    async def reads_linked(
        self,
        since: datetime,
        *,
        session_id: str | None = None,
        call_id: str | None = None,
        agent_id: str | None = None,
        agent_any_session: bool = False,
        limit: int = 5000,
    ) -> Reads:
        queued = [
            r
            for r in reversed(self._reads)
            if r.at >= since
            and linked(r, session_id, call_id, agent_id, agent_any_session=agent_any_session)
        ]
        branches: builtins.list[str] = []
        params: builtins.list[Any] = []
        # One indexed branch per link (migration 007); UNION drops a read that two
        # links reach. `at` is stored as isoformat text: compared a day early (any
        # UTC offset, with or without microseconds), then exactly below.
        early = (since - _TEXT_MARGIN).isoformat()
        if session_id is not None:
            branches.append(_READS_OF_SESSION)
            params += [session_id, early]
        if call_id is not None:
            branches.append(_READS_OF_CALL)
            params += [call_id, early]
        if agent_id is not None:
            branches.append(_READS_OF_AGENT if agent_any_session else _READS_OF_AGENT_ALONE)
            params += [agent_id, early]
        stored: Reads = []
        if branches and len(queued) < limit:
            sql = " UNION ".join(branches) + " ORDER BY 1 DESC LIMIT ?"
            # NOTE: on the point connection, like `get`: an indexed lookup of one
            # session's reads costs less than the hop to the reader thread, where it
            # would queue behind searches (it runs before every agent write).
            rows = self._point.execute(sql, [*params, limit]).fetchall()
            stored = [
                ReadRecord(memory_id=r[1], at=r[2], session_id=r[3], call_id=r[4], agent_id=r[5])
                for r in rows
            ]
        if not queued:  # the usual case: no read waits for its commit
            # NOTE: without the `seen` test below: hashing each ReadRecord was a
            # quarter of this query's Python (2.7 -> 2.0 us a row over 5,000 rows).
            return [r for r in stored if r.at >= since][:limit]
        # A read committed while the query ran is in `queued` (taken before it) and
        # maybe in `stored`: each read counts once.
        seen = set(queued)
        return [*queued, *(r for r in stored if r.at >= since and r not in seen)][:limit]

    async def reads_after(
        self, after: int, limit: int = 500
    ) -> builtins.list[tuple[int, ReadRecord]]:
        sql = (
            "SELECT seq, memory_id, at, session_id, call_id, agent_id FROM reads"
            " WHERE seq > ? ORDER BY seq LIMIT ?"
        )
        rows = await self._rows(sql, (after, limit))
        return [
            (
                r[0],
                ReadRecord(memory_id=r[1], at=r[2], session_id=r[3], call_id=r[4], agent_id=r[5]),
            )
            for r in rows
        ]

    async def log_heads(self) -> tuple[int, int]:
        sql = "SELECT (SELECT max(seq) FROM events), (SELECT max(seq) FROM reads)"
        row = await self._row(sql)
        return (int(row[0] or 0), int(row[1] or 0)) if row else (0, 0)

    async def seq_at(self, at: datetime) -> int:
        sql = "SELECT max(seq) FROM events WHERE at <= ?"
        row = await self._row(sql, (_instant(at),))
        return int(row[0]) if row and row[0] is not None else 0

    async def state_at(self, seq: int) -> State:
        base, state = await self._nearest_snapshot(seq)
        sql = (
            "SELECT e.entry, r.entry, r.mac FROM events e"  # noqa: S608 - constants
            + SQLITE_BASE_JOIN
            + " WHERE e.seq > ? AND e.seq <= ? ORDER BY e.seq"
        )

        def take(rows: builtins.list[Any]) -> None:
            apply_rows(state, rows)

        await asyncio.to_thread(self._stream, sql, (base, seq), take)
        return state

    _CHANGED = (
        "SELECT e.memory_id, e.seq, e.mac, e.entry, r.entry, r.mac FROM events e JOIN ("  # noqa: S608 - constants
        " SELECT memory_id, max(seq) AS last FROM events"
        " WHERE seq <= ? AND memory_id IN (SELECT memory_id FROM events WHERE seq > ?)"
        " GROUP BY memory_id) m ON e.seq = m.last" + SQLITE_BASE_JOIN
    )
    """For every memory with an event after a point: its last event at or before
    another point, with the event it references (one indexed query, no replay)."""

    async def changed_items(self, since_seq: int, at_seq: int) -> State:
        """For every memory with an event after `since_seq`: its item as of event
        `at_seq` (absent if it had none yet). One indexed query, no full replay."""
        state: State = {}

        def take(rows: builtins.list[Any]) -> None:
            for memory_id, _seq, _mac, entry, base, base_mac in rows:
                item = resolve(json.loads(entry), base, base_mac)
                if item is not None:
                    state[memory_id] = item

        await asyncio.to_thread(self._stream, self._CHANGED, (at_seq, since_seq), take)
        return state

    async def changed_versions(self, since_seq: int, at_seq: int) -> dict[str, Version]:
        found: dict[str, Version] = {}

        def take(rows: builtins.list[Any]) -> None:
            for memory_id, seq, mac, entry, base, base_mac in rows:
                version = version_of(seq, mac, entry, base, base_mac)
                if version is not None:
                    found[memory_id] = version

        await asyncio.to_thread(self._stream, self._CHANGED, (at_seq, since_seq), take)
        return found

    _CHANGED_PAIR = (
        "SELECT m.memory_id, t.seq, t.mac, t.entry, rt.seq, rt.entry, rt.mac,"  # noqa: S608 - constants
        " c.seq, c.mac, c.entry, rc.seq,"
        " CASE WHEN rc.seq = t.seq OR rc.seq = rt.seq THEN NULL ELSE rc.entry END, rc.mac"
        " FROM (SELECT memory_id, max(seq) FILTER (WHERE seq <= ?) AS then_seq, max(seq) AS now_seq"
        " FROM events WHERE seq <= ? AND memory_id IN (SELECT memory_id FROM events WHERE seq > ?)"
        " GROUP BY memory_id) m"
        " JOIN events c ON c.seq = m.now_seq"
        " LEFT JOIN events t ON t.seq = m.then_seq"
        + sqlite_base_join("rt", "t")
        + sqlite_base_join("rc", "c")
    )
    """`_CHANGED` at two points in one pass: for every memory with an event after
    the first, its last event at or before it (`t`, absent if none) and at or
    before the second (`c`), each with the event it references; `c`'s is left
    out when it is `t` or `t`'s (the row is there already)."""

    async def changed_versions_pair(
        self, since_seq: int, at_seq: int
    ) -> tuple[dict[str, Version], dict[str, Version]]:
        """`changed_versions(since_seq, since_seq)` and `changed_versions(since_seq,
        at_seq)` from one query, each event decoded once: what a rollback compares.
        An undo's current versions are references to the very events its target
        versions are (43k of them, each decoded twice by the two queries)."""
        then: dict[str, Version] = {}
        now: dict[str, Version] = {}

        def take(rows: builtins.list[Any]) -> None:
            for row in rows:
                before, after = version_pair(row)
                if before is not None:
                    then[row[0]] = before
                if after is not None:
                    now[row[0]] = after

        await asyncio.to_thread(
            self._stream, self._CHANGED_PAIR, (since_seq, at_seq, since_seq), take
        )
        return then, now

    async def _nearest_snapshot(self, seq: int) -> tuple[int, State]:
        sql = (
            "SELECT s.seq, s.head_mac, e.mac FROM snapshots s"
            " LEFT JOIN events e ON e.seq = s.seq WHERE s.seq <= ? ORDER BY s.seq DESC"
        )
        for snap_seq, head_mac, event_mac in await self._rows(sql, (seq,)):
            if event_mac != head_mac:
                continue  # not tied to this chain any more
            row = await self._row("SELECT body, mac FROM snapshots WHERE seq = ?", (snap_seq,))
            if row is None:
                continue
            state = load_snapshot(self._key, snap_seq, head_mac, row[0], row[1])
            if state is not None:
                return int(snap_seq), state
        return 0, {}

    async def snapshot(self) -> int:
        """Snapshot the projection at the current head (compressed, MACed)."""
        await self.flush()
        checkpoint = await self.checkpoint()
        if checkpoint.seq == 0:
            return 0
        state = await self.state_at(checkpoint.seq)
        body = await asyncio.to_thread(snapshot_body, state)
        mac = snapshot_mac(self._key, checkpoint.seq, checkpoint.head_mac, body)
        self._writer.execute(
            "INSERT OR REPLACE INTO snapshots (seq, at, head_mac, body, mac) VALUES (?,?,?,?,?)",
            (checkpoint.seq, _instant(utcnow()), checkpoint.head_mac, body, mac),
        )
        return checkpoint.seq

    async def short_term_items(self) -> Items:
        """Transient items to restore; a row that fails its MAC is refused."""
        rows = await self._rows(f"SELECT {SHORT_SERVE} FROM short_items")  # noqa: S608 - constant
        items = self._served(rows, "short_items")
        return [i for i in items if i.state is MemoryState.TRANSIENT]

    async def close(self) -> None:
        if self._closed:
            return
        await self.flush()
        self._index_fts_quietly()  # a reopened store starts with everything indexed
        self._closed = True
        await asyncio.to_thread(self._checkpointer.close)
        await self._reader.close()
        self._point.close()
        self._writer.close()
        if self._lock is not None:
            self._lock.close()  # releases the writer lock


def _upsert_items(db: sqlite3.Connection, rows: builtins.list[tuple[Any, ...]]) -> None:
    """Store (sealed row, narrow) pairs: the last row of each memory counts (an
    earlier one in the same transaction is replaced by it anyway); narrow ones
    through `_NARROW_ITEM`, and if any of those found its row different from
    what was expected (or missing), all of them again through the upsert, which
    sets every column."""
    last: dict[str, tuple[tuple[Any, ...], bool]] = {}
    for row, narrow in rows:
        last[row[0]] = (row, narrow)
    full = [row for row, narrow in last.values() if not narrow]
    narrowed = [row for row, narrow in last.values() if narrow]
    if full:
        db.executemany(_UPSERT_ITEM, full)
    if narrowed:
        before = db.total_changes
        db.executemany(_NARROW_ITEM, [[r[i] for i in _NARROW_PARAMS] for r in narrowed])
        if db.total_changes - before != len(narrowed):
            db.executemany(_UPSERT_ITEM, narrowed)


def _read_only_uri(path: Path) -> str:
    """The URI of a read-only connection of its own (long scans: verify, replay;
    a string, so verify's worker processes can open it too)."""
    return path.resolve().as_uri() + "?mode=ro"


def _hold_writer_lock(path: Path) -> IO[bytes]:
    """One writing process per log. The chain head is cached in the writer, so a
    second process appending to the same file would fork the chain (two events
    with the same predecessor): refuse to open instead. A POSIX record lock on a
    sidecar file, released by the OS when the process dies, so a crash never
    leaves it held."""
    handle = (path.parent / (path.name + ".lock")).open("a+b")
    try:
        fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise StorageError(
            f"{path} is open for writing in another process; one process writes a log"
            " (stop it, or send requests to its HTTP API)"
        ) from None
    return handle


def _split_sql(script: str) -> builtins.list[str]:
    """Statements of a migration; trigger bodies (BEGIN ... END;) stay whole."""
    statements: builtins.list[str] = []
    current: builtins.list[str] = []
    depth = 0
    for line in script.splitlines():
        stripped = line.split("--", 1)[0].strip()
        if not stripped and not current:
            continue
        current.append(line)
        upper = stripped.upper()
        if re.search(r"\bBEGIN\b", upper) and "CREATE TRIGGER" in " ".join(current).upper():
            depth = 1
        if depth and re.search(r"\bEND;\s*$", upper):
            depth = 0
            statements.append("\n".join(current))
            current = []
        elif not depth and stripped.endswith(";"):
            statements.append("\n".join(current))
            current = []
    if current and "".join(current).strip():
        statements.append("\n".join(current))
    return statements


def _record(row: Any) -> LogRecord:
    """A record from (seq, entry, prev_mac, mac, referenced entry, its MAC): a
    reference event comes back with its item resolved."""
    return resolved_record(row[0], row[1], row[2], row[3], row[4], row[5])


PARALLEL_VERIFY_MIN = 300_000
"""Below this many events one thread verifies as fast as several."""


def _in_range(checkpoint: Checkpoint | None, lo: int, hi: int) -> Checkpoint | None:
    return checkpoint if checkpoint is not None and lo <= checkpoint.seq <= hi else None


def verify_rows_from(
    db: sqlite3.Connection, key: bytes, lo: int, hi: int, prev: str
) -> VerifyResult:
    return verify_rows(key, event_rows(db, lo, hi), None, start_seq=lo, start_prev=prev)


def signed_checkpoint(
    path: Path,
    key: bytes,
    signer: Signer,
    after: tuple[int, str] = (0, GENESIS_HASH),
    *,
    writer_here: bool = False,
) -> tuple[Checkpoint, tuple[int, str]]:
    """Sign the head of the log in the file at `path`, read-only: the MAC chain is
    verified first (a broken log is never signed) and the public hash chain
    computed to the head, both from `after` = (seq, hash) of an earlier export.
    Returns the checkpoint and the new (seq, hash) to resume from."""
    with read_only(path, writer_here=writer_here) as db:
        db.execute("BEGIN")
        head = db.execute(
            "SELECT seq, mac, (SELECT count(*) FROM events) FROM events ORDER BY seq DESC LIMIT 1"
        ).fetchone()
        if head is None:
            empty = Checkpoint(
                seq=0, head_mac=GENESIS, count=0, at=utcnow(), head_hash=GENESIS_HASH
            )
            return signer.sign(empty), (0, GENESIS_HASH)
        done = after[0]
        prev = GENESIS
        if done:
            row = db.execute("SELECT mac FROM events WHERE seq = ?", (done,)).fetchone()
            prev = row[0] if row else GENESIS
        result = verify_rows_from(db, key, done + 1, int(head[0]), prev)
        if not result.ok:
            raise StorageError(
                f"not signed: the log fails verification at seq {result.first_bad_seq}"
                f" ({result.reason})"
            )
        seq, mac, digest = extend_hash(db, after, int(head[0]))
    point = Checkpoint(seq=seq, head_mac=mac, count=int(head[2]), at=utcnow(), head_hash=digest)
    return signer.sign(point), (seq, digest)


def verify_file(
    path: Path,
    key: bytes,
    checkpoint: Checkpoint | None = None,
    *,
    public: Ed25519PublicKey | None = None,
    writer_here: bool = False,
    since: Checkpoint | None = None,
) -> VerifyResult:
    """Verify a store file strictly read-only (no store opened, nothing written,
    not even WAL files when no writer is running): the event chain (in parallel
    ranges past PARALLEL_VERIFY_MIN events), then every projection row and
    read against it. A signed checkpoint's signature is checked with `public`.

    `since`: incremental, O(what changed after it): a checkpoint an earlier
    verify vouched for (one exported after it, or its own head). The log must
    still hold it (the event at its seq carries its MAC; a signed one must hold
    for `public`); then only the events after it are verified, chained to its
    MAC, and the projection rows of the memories they touch (see
    `check_served_since`). Rows untouched since and the reads are left to the
    verify that vouched for `since`: the result's `scope` says so."""
    if since is not None:
        return _verify_since(path, key, since, checkpoint, public, writer_here)
    try:
        chain = _verify_chain(path, key, checkpoint, writer_here)
        with read_only(path, writer_here=writer_here) as db:
            version = schema_version(db)
            if version < ROW_MAC_SCHEMA:
                scope = (
                    f"events only: the database predates row MACs (schema {version});"
                    " open it once with memgate to migrate"
                )
                return chain.model_copy(update={"scope": scope})
            db.execute("BEGIN")
            noted = Noted()
            served = check_served(db, RowSeal(key), noted)
            chain = with_reference_fault(chain, sqlite_first_fault(db, noted=noted))
            pages = [str(r[0]) for r in db.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"database {path} is unreadable: {exc}") from None
    if pages != ["ok"]:
        # NOTE: a damaged page outside the log and the rows (an index, the FTS
        # index) serves wrong answers or errors later: verify says so too.
        damage = Divergence(
            table="database", id=path.name, kind="damaged", detail="; ".join(pages)[:300]
        )
        served = ServedCheck(
            served.rows_checked,
            served.reads_checked,
            (*served.divergences, damage),
            served.count + 1,
        )
    signed = None
    if checkpoint is not None and checkpoint.signature and public is not None:
        signed = signature_ok(checkpoint, public)
    return served_verdict(chain, served, signed)


def _verify_since(
    path: Path,
    key: bytes,
    since: Checkpoint,
    checkpoint: Checkpoint | None,
    public: Ed25519PublicKey | None,
    writer_here: bool,
) -> VerifyResult:
    """`verify_file(since=...)`."""
    scope = (
        f"incremental: events after {since.seq} and the projection rows they touch"
        " (older rows and the reads: the verify that vouched for the checkpoint)"
    )

    def bad(seq: int, reason: str, signed: bool | None = None) -> VerifyResult:
        return VerifyResult(
            ok=False,
            checked=0,
            last_seq=since.seq,
            first_bad_seq=seq,
            reason=reason,
            signature_ok=signed,
            scope=scope,
        )

    signed = None
    if since.signature and public is not None:
        signed = signature_ok(since, public)
        if not signed:
            return bad(
                since.seq,
                "the checkpoint's signature does not hold for this store's public key",
                False,
            )
    try:
        with read_only(path, writer_here=writer_here) as db:
            db.execute("BEGIN")
            if schema_version(db) < ROW_MAC_SCHEMA:
                raise StorageError(
                    "incremental verify needs row MACs: open the store once to migrate"
                )
            start_prev = GENESIS
            if since.seq:
                row = db.execute("SELECT mac FROM events WHERE seq = ?", (since.seq,)).fetchone()
                if row is None:
                    return bad(
                        since.seq,
                        f"log is shorter than the checkpoint at {since.seq} (truncated)",
                        signed,
                    )
                if row[0] != since.head_mac:
                    return bad(since.seq, "log diverges from the checkpoint (rewritten)", signed)
                start_prev = str(row[0])
            later = checkpoint if checkpoint is not None and checkpoint.seq > since.seq else None
            chain = verify_rows(
                key,
                event_rows(db, since.seq + 1),
                later,
                start_seq=since.seq + 1,
                start_prev=start_prev,
            )
            if checkpoint is not None and checkpoint.seq <= since.seq and checkpoint.seq:
                row = db.execute(
                    "SELECT mac FROM events WHERE seq = ?", (checkpoint.seq,)
                ).fetchone()
                if row is None or row[0] != checkpoint.head_mac:
                    return bad(
                        checkpoint.seq, "log diverges from the checkpoint (rewritten)", signed
                    )
            chain = with_reference_fault(chain, sqlite_first_fault(db, since.seq))
            served = check_served_since(db, RowSeal(key), since.seq)
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"database {path} is unreadable: {exc}") from None
    if checkpoint is not None and checkpoint.signature and public is not None:
        signed = signature_ok(checkpoint, public) and signed is not False
    verdict = served_verdict(chain, served, signed)
    return verdict.model_copy(update={"scope": scope})


def _verify_chain(
    path: Path, key: bytes, checkpoint: Checkpoint | None, writer_here: bool
) -> VerifyResult:
    with read_only(path, writer_here=writer_here) as db:
        row = db.execute("SELECT count(*), max(seq) FROM events").fetchone()
        count, head = int(row[0]), int(row[1] or 0)
        workers = min(os.cpu_count() or 1, 8)
        if head < PARALLEL_VERIFY_MIN or workers < 2 or count != head:
            # NOTE: a gap (count != head) is reported by the sequential walk, which
            # names the first missing record.
            db.execute("BEGIN")
            return verify_events(db, key, checkpoint=checkpoint)
    # Rows are immutable (append-only), so ranges up to `head` can be checked
    # in parallel; each range chains to the stored MAC of the row before it,
    # which the previous range verifies (so the borders are checked too).
    # NOTE: threads, not processes: SQLite's reads and the HMACs release the GIL,
    # and a spawned worker first imports memgate: on a loaded 2-core machine two
    # workers took 14.7 s for 100k events, where one thread took 3.8 s
    # (benchmarks/results/verify.md).
    uri = _read_only_uri(path)
    step = -(-head // workers)
    bounds = [(lo, min(lo + step - 1, head)) for lo in range(1, head + 1, step)]
    with concurrent.futures.ThreadPoolExecutor(len(bounds), "memgate-verify") as pool:
        futures = [
            pool.submit(verify_chain_range, uri, key, lo, hi, _in_range(checkpoint, lo, hi))
            for lo, hi in bounds
        ]
        results: builtins.list[VerifyResult] = [f.result() for f in futures]
    checked = 0
    for result in results:
        if not result.ok:
            return result.model_copy(update={"checked": checked + result.checked})
        checked += result.checked
    if checkpoint is not None and checkpoint.seq > head:
        return VerifyResult(
            ok=False,
            checked=checked,
            last_seq=head,
            first_bad_seq=head + 1,
            reason=f"log is shorter than the checkpoint at {checkpoint.seq} (truncated)",
        )
    return VerifyResult(ok=True, checked=checked, last_seq=head)


def _refuse_missing(path: Path) -> None:
    if not path.is_file() or path.stat().st_size == 0:
        state = "empty" if path.is_file() else "missing"
        raise StorageError(f"database {path} is {state}; `memgate init` creates a new one")


def _check_pages(db: sqlite3.Connection, path: Path) -> None:
    """Refuse a damaged file at open (a garbage page), rather than answer a later
    query with an error. `quick_check` reads every page once (O(size), ~1 s per
    GB here); it skips index-content checks, which verify covers for the log."""
    try:
        rows = db.execute("PRAGMA quick_check(5)").fetchall()
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"database {path} is damaged: {exc}") from None
    problems = [str(r[0]) for r in rows]
    if problems != ["ok"]:
        raise StorageError(
            f"database {path} is damaged ({'; '.join(problems)[:300]});"
            " restore it from a backup, or move it aside and run `memgate init`"
        )
