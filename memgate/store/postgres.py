"""The PostgreSQL store: event log, long-term pool, reads, snapshots and the
notification outbox in one database, over psycopg 3 and its async pool.

    store = await PostgresStore.open("postgresql://user@host:5432/memgate", log_key)
    ...
    await store.close()

or through the composition root: `open_store("postgresql://...", data_dir)` and
`open_gateway(data_dir, store_url="postgresql://...")`
(keys still come from the data directory or MEMGATE_LOG_KEY), and
`memgate serve --store postgresql://...` / MEMGATE_STORE. Needs the `postgres`
extra (`pip install 'memgate-customs[postgres]'`). The schema is migrated at open
from `schema/postgres/NNN_*.sql`, each file applied once, in order, under an
advisory lock and recorded in `memgate_migrations`.

Any number of stores (processes, replicas) may append to one database: the
chain has one order because every commit takes one transaction-scoped advisory
lock (`pg_advisory_xact_lock`) and only then reads the head (sequence number and
MAC of the last event, the read chain's head) in that transaction; a serial
column would hand out numbers that commit out of order. Each store group-commits
what its writers queued (as `SqliteStore` does): concurrent `append` calls are
sealed in arrival order under one lock hold and committed in one transaction,
events and their projection side by side. An append returns only after its
transaction committed (PostgreSQL's synchronous commit: durable).

The rows, their MACs and what `verify` checks are the SQLite store's
(`memgate.store.served`, `memgate.log`); triggers refuse UPDATE, DELETE and
TRUNCATE on the log. Full-text search is PostgreSQL's: a `tsvector` of the
content's words (the same Unicode `\\w+` rule as the other backends, so Chinese,
Greek or accented words match as they do there) behind a GIN index.
"""

from __future__ import annotations

import asyncio
import builtins
import contextlib
import hmac
import json
import logging
import re
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar, cast

import psycopg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from psycopg import IsolationLevel
from psycopg.conninfo import conninfo_to_dict
from psycopg.pq import TransactionStatus
from psycopg_pool import AsyncConnectionPool

from memgate.domain.events import Checkpoint, Event, LogRecord, VerifyResult
from memgate.domain.memory import MemoryItem, MemoryState, utcnow
from memgate.domain.ports import PoolQuery, ReadRecord, linked
from memgate.domain.raw import RawItem, Version
from memgate.errors import StorageError
from memgate.log.chain import GENESIS, Chain, verify_rows
from memgate.log.integrity import GENESIS_HASH, RowSeal, Signer, public_pem, signature_ok
from memgate.log.references import POSTGRES_REFERENCES, first_fault, with_reference_fault
from memgate.log.replay import (
    POSTGRES_BASE_JOIN,
    State,
    apply_rows,
    load_snapshot,
    resolve,
    resolved_record,
    snapshot_body,
    snapshot_mac,
    version_of,
)
from memgate.pools.query import words
from memgate.store.projection import namespace_key, prefix_bounds, projected
from memgate.store.served import (
    EVENT_COLUMNS,
    ITEM_SELECT,
    READ_SELECT,
    SHORT_SELECT,
    Refusals,
    check_served,
    empty_checkpoint,
    event_row,
    instant,
    item_fields,
    sealed,
    served_items,
    served_verdict,
    short_fields,
    verify_and_hash,
)

T = TypeVar("T")
log = logging.getLogger("memgate.store.postgres")
Items = list[MemoryItem]
Records = list[LogRecord]
Reads = list[ReadRecord]

__all__ = [
    "CHAIN_LOCK",
    "URL_SCHEMES",
    "PostgresStore",
    "is_postgres_url",
    "migrations",
    "schema_dir",
    "where",
]

URL_SCHEMES = ("postgresql://", "postgres://")
CHAIN_LOCK = 0x6D656D67617465
"""The advisory lock every commit of every store on a database takes first."""
MIGRATION_LOCK = CHAIN_LOCK + 1
MAX_BATCH = 512
WORD_BYTES = 2000
"""Longer words are not indexed (PostgreSQL's lexeme limit is 2047 bytes)."""
WORDS_TOTAL = 900_000
"""Indexed words per item, in bytes (a tsvector holds at most 1 MB)."""
_TEXT_MARGIN = timedelta(days=1)
_MIGRATION = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")
_BYTE_COLUMNS = (1, 2, 6, 12)
"""namespace, key, session_id, content of ITEM_COLUMNS: any text, kept as UTF-8 bytes."""

_INSERT_EVENT = (
    "INSERT INTO events (seq, at, memory_id, op, actor, reason, state_before, state_after,"
    " summary, entry, prev_mac, mac) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
)
"""Column order matches `memgate.log.chain.event_columns`."""
_UPSERT_ITEM = (
    "INSERT INTO items (id, namespace, key, pool, state, source, session_id, created_at,"
    " updated_at, expires_at, fingerprint, categories, content, body, event_seq, event_mac,"
    " row_mac, words, meta) VALUES"
    " (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,array_to_tsvector(%s::text[]),%s::jsonb)"
    " ON CONFLICT (id) DO UPDATE SET namespace=excluded.namespace, key=excluded.key,"
    " pool=excluded.pool, state=excluded.state, source=excluded.source,"
    " session_id=excluded.session_id, created_at=excluded.created_at,"
    " updated_at=excluded.updated_at, expires_at=excluded.expires_at,"
    " fingerprint=excluded.fingerprint, categories=excluded.categories,"
    " content=excluded.content, body=excluded.body, event_seq=excluded.event_seq,"
    " event_mac=excluded.event_mac, row_mac=excluded.row_mac, words=excluded.words,"
    " meta=excluded.meta"
)
_UPSERT_SHORT = (
    "INSERT INTO short_items (id, expires_at, body, event_seq, event_mac, row_mac)"
    " VALUES (%s,%s,%s,%s,%s,%s) ON CONFLICT (id) DO UPDATE SET"
    " expires_at=excluded.expires_at, body=excluded.body, event_seq=excluded.event_seq,"
    " event_mac=excluded.event_mac, row_mac=excluded.row_mac"
)
_DELETE_SHORT = "DELETE FROM short_items WHERE id = %s"
_INSERT_READ = (
    "INSERT INTO reads (seq, memory_id, at, session_id, call_id, agent_id, mac)"
    " VALUES (%s,%s,%s,%s,%s,%s,%s)"
)
_SET_READS_HEAD = (
    "INSERT INTO heads (name, seq, mac, tag) VALUES ('reads', %s, %s, %s)"
    " ON CONFLICT (name) DO UPDATE SET seq=excluded.seq, mac=excluded.mac, tag=excluded.tag"
)
_HEADS = (
    "SELECT (SELECT seq FROM events ORDER BY seq DESC LIMIT 1),"
    " (SELECT mac FROM events ORDER BY seq DESC LIMIT 1),"
    " (SELECT seq FROM heads WHERE name = 'reads'),"
    " (SELECT mac FROM heads WHERE name = 'reads'),"
    " (SELECT max(seq) FROM reads)"
)
"""Read after the chain lock is held, in its own statement: the snapshot is taken
when this statement starts, so it sees every commit made under the lock before."""
_CHANNEL = "memgate_commit"
_NOTIFY = f"NOTIFY {_CHANNEL}"
_BEGIN_LOCKED = f"BEGIN; SELECT pg_advisory_xact_lock({CHAIN_LOCK:d}); {_HEADS}"
"""One message (the simple protocol: no parameters); READ COMMITTED gives each
statement its own snapshot."""
_READ_COLUMNS = "SELECT seq, memory_id, at, session_id, call_id, agent_id FROM reads"
_READS_OF_SESSION = _READ_COLUMNS + " WHERE session_id = %s AND at >= %s"
_READS_OF_CALL = _READ_COLUMNS + " WHERE call_id = %s AND at >= %s"
_READS_OF_AGENT = _READ_COLUMNS + " WHERE agent_id = %s AND at >= %s"
_READS_OF_AGENT_ALONE = _READ_COLUMNS + " WHERE agent_id = %s AND at >= %s AND session_id IS NULL"


def _superseded(table: str, pool: str) -> str:
    """True when a later event of the row's memory would have replaced the row
    (its item routes to this table): an older genuine row put back. `json`, not
    `jsonb`: an entry may hold an escaped NUL, which jsonb refuses."""
    return (
        "(SELECT coalesce(bool_or(coalesce(convert_from(e.entry, 'UTF8')::json #>> '{item,pool}',"  # noqa: S608 - constants only
        " convert_from(e.entry, 'UTF8')::json #>> '{restores,pool}') = '"
        + pool
        + f"'), false) FROM events e WHERE e.memory_id = {table}.id"
        f" AND e.seq > coalesce({table}.event_seq, 0))"
    )


ITEM_SERVE = f"{ITEM_SELECT}, {_superseded('items', 'long')}"
SHORT_SERVE = f"{SHORT_SELECT}, {_superseded('short_items', 'short')}"


def is_postgres_url(value: str) -> bool:
    return value.startswith(URL_SCHEMES)


def schema_dir() -> Path:
    """The bundled PostgreSQL migrations (`memgate/_schema/postgres` in a wheel,
    `schema/postgres` in a checkout)."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "_schema" / "postgres", package.parent / "schema" / "postgres"):
        if candidate.is_dir():
            return candidate
    raise StorageError(f"no PostgreSQL schema directory found next to {package}")


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every migration, in order."""
    found = []
    for path in sorted(schema_dir().iterdir()):
        match = _MIGRATION.match(path.name)
        if match:
            found.append((int(match.group(1)), path.name, path.read_text(encoding="utf-8")))
    return found


def where(url: str) -> str:
    """host:port/dbname of a connection URL, for messages (never its password)."""
    try:
        info = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "(an unparsable PostgreSQL URL)"
    return f"{info.get('host', 'localhost')}:{info.get('port', 5432)}/{info.get('dbname', '')}"


# -- values in and out ---------------------------------------------------------------


def _text_ok(value: Any) -> None:
    """PostgreSQL text holds no NUL and only valid UTF-8: refused here, per write,
    rather than failing the whole group commit in the driver."""
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError("NUL in a text column")
        value.encode("utf-8")
    elif isinstance(value, bytes):
        value.decode("utf-8")


LongRow = tuple[tuple[Any, ...], list[Any], list[str], str]
"""An items row before its event is known: the fields the row MAC covers, the
same as stored (free text as bytes), the search words, the metadata JSON."""


@dataclass(frozen=True, slots=True)
class _Projected:
    """What one event writes beside its log row, worked out before the chain lock
    is taken (only the MACs need the event's place in the chain)."""

    event: Event
    long: LongRow | None
    short: tuple[Any, ...] | None
    short_gone: str | None


def _long(item: MemoryItem | RawItem) -> LongRow:
    fields = item_fields(item)
    stored = list(fields)
    for i in _BYTE_COLUMNS:
        if stored[i] is not None:
            stored[i] = stored[i].encode("utf-8")
    for i, value in enumerate(stored):
        if i not in _BYTE_COLUMNS:
            _text_ok(value)
    meta = json.dumps(_no_nul(item.metadata), ensure_ascii=False)
    return fields, stored, _lexemes(item.content), meta


def _project(event: Event) -> _Projected:
    """Raises (ValueError, UnicodeError, ...) for an event that cannot be stored."""
    change = projected(event)
    short = None
    if change.short is not None:
        short = short_fields(change.short)
        for value in short:
            _text_ok(value)
    long = _long(change.long) if change.long is not None else None
    return _Projected(event, long, short, change.short_gone)


def _long_row(long: LongRow, seq: int, mac: str, seal: RowSeal) -> tuple[Any, ...]:
    """The items row of `long`, sealed to event (`seq`, `mac`)."""
    fields, stored, lexemes, meta = long
    return (*stored, seq, mac, seal.row("items", fields, seq, mac), lexemes, meta)


def _from_db(row: Sequence[Any]) -> list[Any]:
    """An items row as read (ITEM_SELECT...) with its free-text columns as text."""
    out = list(row)
    for i in _BYTE_COLUMNS:
        if isinstance(out[i], (bytes, memoryview)):
            out[i] = bytes(out[i]).decode("utf-8")
    return out


def _lexemes(content: str) -> list[str]:
    """The distinct words of `content`, as the other backends match them."""
    found = dict.fromkeys(words(content))
    if len(content) * 4 <= WORDS_TOTAL and max(map(len, found), default=0) * 4 <= WORD_BYTES:
        return list(found)  # the usual case: no word or total near the limits
    kept: list[str] = []
    total = 0
    for word in found:
        size = len(word.encode("utf-8"))
        if size > WORD_BYTES:
            continue
        total += size + 8
        if total > WORDS_TOTAL:
            break
        kept.append(word)
    return kept


def _tsquery(text: str) -> str | None:
    """Every word of the caller's text as a quoted lexeme, all required (no
    tsquery syntax leaks through: a word has no quote or backslash)."""
    terms = list(dict.fromkeys(words(text)))
    if not terms:
        return None
    return " & ".join(f"'{t}'" for t in terms)


def _no_nul(value: Any) -> Any:
    """`value` with NUL in strings replaced (jsonb cannot hold U+0000), applied to
    stored metadata and to filter values alike."""
    if isinstance(value, str):
        return value.replace("\x00", "\ufffd")
    if isinstance(value, dict):
        return {_no_nul(k): _no_nul(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_no_nul(v) for v in value]
    return value


def _record(row: Any) -> LogRecord:
    """A record from (seq, entry, prev_mac, mac, referenced entry, its MAC): a
    reference event comes back with its item resolved."""
    return resolved_record(row[0], bytes(row[1]), row[2], row[3], _bytes(row[4]), row[5])


def _read(r: Sequence[Any]) -> ReadRecord:
    return ReadRecord(memory_id=r[0], at=r[1], session_id=r[2], call_id=r[3], agent_id=r[4])


class PostgresStore:
    """Store port over one PostgreSQL database. Open with
    `await PostgresStore.open(url, key)`; several stores (replicas) may share it."""

    def __init__(
        self,
        url: str,
        pool: AsyncConnectionPool[Any],
        key: bytes,
        *,
        signer: Signer | None = None,
    ) -> None:
        self._url = url
        self._pool = pool
        self._key = key
        self._seal = RowSeal(key)
        self._signer = signer or Signer.generate()
        self._hashed: tuple[int, str] = (0, GENESIS_HASH)
        """(seq, public hash) as far as a signed checkpoint has hashed the log."""
        self.refusals = Refusals()
        """Rows not served because their MAC failed, since open."""
        self._queue: list[tuple[Sequence[_Projected], asyncio.Future[Records]]] = []
        self._reads: Reads = []
        self._reads_committing: Reads = []
        """Reads taken from the queue for the commit under way: not in the table
        yet, no longer in `_reads`; `reads_linked` counts them as queued."""
        self._committer: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self._closed = False
        self._scan: psycopg.Connection[Any] | None = None
        self._scan_lock = threading.Lock()
        self._listeners: builtins.list[Callable[[], None]] = []
        """Told after each commit of this store and of every other on the database."""
        self._listening: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return self._url

    @classmethod
    async def open(
        cls,
        url: str,
        key: bytes,
        *,
        signer: Signer | None = None,
        min_size: int = 1,
        max_size: int = 8,
    ) -> PostgresStore:
        """Connect, migrate, and open a pool of `min_size`..`max_size` connections.
        An unreachable server is refused with where it was looked for (never the
        URL's password). `signer` signs exported checkpoints (a fresh pair if None)."""
        Chain(key)  # refuses a short key before anything connects
        try:
            # One plain connection first: a server that is down or a wrong URL fails
            # at once here (the pool would retry until its timeout).
            conn = await psycopg.AsyncConnection.connect(url, autocommit=True, connect_timeout=10)
        except psycopg.Error as exc:
            raise StorageError(
                f"PostgreSQL at {where(url)} is unreachable ({exc.__class__.__name__});"
                " is the server running and the URL right?"
            ) from None
        try:
            await _migrate(conn)
            await _check_key(conn, key, url)
        finally:
            await conn.close()
        pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            kwargs={"autocommit": True, "connect_timeout": 10},
            open=False,
            name="memgate-store",
        )
        try:
            await pool.open(wait=True, timeout=30)
        except Exception as exc:
            await pool.close()
            raise StorageError(
                f"PostgreSQL at {where(url)}: the connection pool did not open"
                f" ({exc.__class__.__name__})"
            ) from None
        return cls(url, pool, key, signer=signer)

    # -- writing -------------------------------------------------------------

    async def append(self, events: Sequence[Event]) -> Records:
        if self._closed:
            raise StorageError("store is closed")
        if not events:
            return []
        try:
            # NOTE: rows are built here, by the writer, before the commit: only the
            # MACs are computed while the chain lock is held.
            prepared = [_project(event) for event in events]
        except Exception as exc:  # this write fails alone, before it is queued
            raise StorageError(f"write could not be sealed: {exc.__class__.__name__}") from None
        future: asyncio.Future[Records] = asyncio.get_running_loop().create_future()
        self._queue.append((prepared, future))
        self._kick()
        return await future

    async def record_reads(self, reads: Sequence[ReadRecord]) -> None:
        """Queued, committed with the next batch (in order); `flush` waits for it."""
        if self._closed:
            raise StorageError("store is closed")
        self._reads.extend(reads)
        self._kick()

    def on_commit(self, listener: Callable[[], None]) -> None:
        """Call `listener` on the event loop after each commit of events or reads,
        this store's and (through LISTEN/NOTIFY) every other replica's on the
        database: the graph projector's wake-up. It must not block; an error it
        raises is logged and never fails the commit."""
        self._listeners.append(listener)
        if self._listening is None and not self._closed:
            with contextlib.suppress(RuntimeError):  # no loop running: this store's only
                loop = asyncio.get_running_loop()
                self._listening = loop.create_task(self._listen(), name="memgate-pg-listen")

    async def _listen(self) -> None:
        """Commits of other replicas, as they happen (a lost connection is opened
        again; the listeners' own polling covers the gap)."""
        while not self._closed:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self._url, autocommit=True, connect_timeout=10
                )
                try:
                    await conn.execute(f"LISTEN {_CHANNEL}")
                    async for _ in conn.notifies():
                        self._committed()
                finally:
                    await conn.close()
            except psycopg.Error:
                await asyncio.sleep(1.0)

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
                # NOTE: the commit awaits the server; a provenance check meanwhile
                # found these reads neither queued nor stored, and a session that had
                # just read a web page wrote as if clean (test_provenance[postgres]).
                self._reads_committing = reads
                try:
                    await self._commit(batch, reads)
                finally:
                    self._reads_committing = []
        finally:
            self._idle.set()

    async def _commit(
        self,
        batch: list[tuple[Sequence[_Projected], asyncio.Future[Records]]],
        reads: Reads,
    ) -> None:
        results: list[tuple[asyncio.Future[Records], Records]] = []
        try:
            async with self._pool.connection() as conn:
                try:
                    await self._write_locked(conn, batch, reads, results)
                except BaseException:
                    if not conn.closed and conn.info.transaction_status != TransactionStatus.IDLE:
                        with contextlib.suppress(psycopg.Error):
                            await conn.execute("ROLLBACK")
                    raise
        except BaseException as exc:
            error = StorageError(f"commit failed: {exc.__class__.__name__}")
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            if not isinstance(exc, Exception):
                raise
            return
        for future, records in results:
            if not future.done():
                future.set_result(records)
        self._committed()

    async def _write_locked(
        self,
        conn: psycopg.AsyncConnection[Any],
        batch: list[tuple[Sequence[_Projected], asyncio.Future[Records]]],
        reads: Reads,
        results: list[tuple[asyncio.Future[Records], Records]],
    ) -> None:
        """One group commit in two round trips (and the WAL flush): BEGIN, the
        chain lock and the heads in one message (each statement of it takes its
        own snapshot, so the heads are read after the lock is held); then every
        row and the COMMIT in one pipeline."""
        cur = conn.cursor()
        await cur.execute(_BEGIN_LOCKED)
        while cur.nextset():
            pass  # the heads are the last statement's result
        heads = await cur.fetchone()
        assert heads is not None  # noqa: S101 - a SELECT of scalars has one row
        last_seq, last_mac, reads_seq, reads_mac, reads_top = heads
        chain = Chain(self._key, int(last_seq or 0), str(last_mac or GENESIS))
        rows = _Rows()
        for events, future in batch:
            records = self._seal_write(chain, rows, events, future)
            if records is not None:
                results.append((future, records))
        read_rows, head = self._chain_reads(
            reads, int(reads_seq or 0), str(reads_mac or GENESIS), int(reads_top or 0)
        )
        async with conn.pipeline():
            if rows.events:
                await cur.executemany(_INSERT_EVENT, rows.events)
            if rows.items:
                await cur.executemany(_UPSERT_ITEM, rows.items)
            if rows.short:
                await cur.executemany(_UPSERT_SHORT, rows.short)
            if rows.short_gone:
                await cur.executemany(_DELETE_SHORT, rows.short_gone)
            if read_rows:
                await cur.executemany(_INSERT_READ, read_rows)
                seq, mac = head
                await cur.execute(_SET_READS_HEAD, (seq, mac, self._seal.reads_head(seq, mac)))
            await cur.execute(_NOTIFY)  # delivered at COMMIT, to every replica listening
            await cur.execute("COMMIT")

    def _seal_write(
        self,
        chain: Chain,
        rows: _Rows,
        events: Sequence[_Projected],
        future: asyncio.Future[Records],
    ) -> Records | None:
        """Seal one write's events into `chain` and `rows`. A write whose events
        cannot be sealed or stored (a value that is not UTF-8 text, a NUL in a
        text column) fails alone: its rows are dropped and the chain goes back to
        where it was before it; the rest of the batch commits."""
        mark = (chain.last_seq, chain.head, *rows.marks())
        records: Records = []
        try:
            for p in events:
                record, entry, columns = chain.seal(p.event)
                for value in columns:
                    _text_ok(value)
                entry.decode("utf-8")
                records.append(record)
                rows.events.append((record.seq, *columns, entry, record.prev_mac, record.mac))
                if p.long is not None:
                    rows.items.append(_long_row(p.long, record.seq, record.mac, self._seal))
                if p.short is not None:
                    rows.short.append(
                        sealed(self._seal, "short_items", p.short, record.seq, record.mac)
                    )
                if p.short_gone is not None:
                    rows.short_gone.append((p.short_gone,))
        except Exception as exc:  # any failure fails this write only
            chain.reset(mark[0], mark[1])
            rows.cut(mark[2:])
            if not future.done():
                future.set_exception(
                    StorageError(f"write could not be sealed: {exc.__class__.__name__}")
                )
            return None
        return records

    def _chain_reads(
        self, reads: Reads, seq: int, prev: str, top: int
    ) -> tuple[builtins.list[tuple[Any, ...]], tuple[int, str]]:
        """Rows for `reads`, MAC-chained to the read chain's head (read under the
        lock), numbered after any row already there too: a row inserted by hand
        must never make the commit fail (verify names it; writes go on)."""
        rows: builtins.list[tuple[Any, ...]] = []
        seq = max(seq, top)
        for r in reads:
            fields = (r.memory_id, r.at.isoformat(), r.session_id, r.call_id, r.agent_id)
            try:
                for value in fields:
                    _text_ok(value)
            except ValueError:
                continue  # not storable as text: never served either (no row, no read)
            seq += 1
            prev = self._seal.read(prev, seq, fields)
            rows.append((seq, *fields, prev))
        return rows, (seq, prev)

    # -- queries -------------------------------------------------------------

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> builtins.list[Any]:
        try:
            async with self._pool.connection() as conn:
                cur = await conn.execute(sql, params)
                return list(await cur.fetchall())
        except psycopg.Error as exc:
            raise StorageError(f"query failed: {exc.__class__.__name__}") from None

    async def _row(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._rows(sql, params)
        return rows[0] if rows else None

    async def _execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        try:
            async with self._pool.connection() as conn:
                await conn.execute(sql, params)
        except psycopg.Error as exc:
            raise StorageError(f"write failed: {exc.__class__.__name__}") from None

    async def _in_snapshot(self, work: Callable[[psycopg.Connection[Any]], T]) -> T:
        """`work` in a worker thread, on a connection of its own in one read-only
        REPEATABLE READ transaction: a long scan (verify, replay) sees one state of
        the database, holds no pool connection, and never blocks the event loop."""

        def job() -> T:
            # One scan at a time per store, on one kept connection (a new backend
            # per verify cost more than most verifies); dropped when it fails.
            with self._scan_lock:
                try:
                    if self._scan is None or self._scan.closed:
                        conn = psycopg.connect(self._url, connect_timeout=10)
                        conn.isolation_level = IsolationLevel.REPEATABLE_READ
                        conn.read_only = True
                        self._scan = conn
                    with self._scan.transaction():
                        return work(self._scan)
                except psycopg.Error as exc:
                    if self._scan is not None:
                        self._scan.close()
                        self._scan = None
                    raise StorageError(
                        f"PostgreSQL at {where(self._url)}: {exc.__class__.__name__}"
                    ) from None

        return await asyncio.to_thread(job)

    # -- the log -------------------------------------------------------------

    async def records(self, after_seq: int = 0, limit: int = 1000) -> Records:
        sql = (
            "SELECT e.seq, e.entry, e.prev_mac, e.mac, r.entry, r.mac FROM events e"  # noqa: S608 - constants
            + POSTGRES_BASE_JOIN
            + " WHERE e.seq > %s ORDER BY e.seq LIMIT %s"
        )
        return [_record(row) for row in await self._rows(sql, (after_seq, limit))]

    async def history(self, memory_id: str) -> Records:
        sql = (
            "SELECT e.seq, e.entry, e.prev_mac, e.mac, r.entry, r.mac FROM events e"  # noqa: S608 - constants
            + POSTGRES_BASE_JOIN
            + " WHERE e.memory_id = %s ORDER BY e.seq"
        )
        return [_record(row) for row in await self._rows(sql, (memory_id,))]

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
        it, in one snapshot on a read-only connection: nothing is written.
        `since`: incremental from a checkpoint an earlier verify vouched for
        (memgate.store.postgres_verify), as the SQLite store's."""
        await self.flush()
        key, public = self._key, self._signer.public
        if since is not None:
            from memgate.store.postgres_verify import verify_since  # it imports this module

            return await self._in_snapshot(
                lambda conn: verify_since(conn, key, since, checkpoint, public)
            )
        return await self._in_snapshot(lambda conn: _verify(conn, key, checkpoint, public))

    async def export_checkpoint(self) -> Checkpoint:
        """A signed checkpoint of the head: the chain is verified (a broken log is
        never signed) and the public hash chain extended from the last export."""
        await self.flush()
        key, after = self._key, self._hashed
        point, self._hashed = await self._in_snapshot(
            lambda conn: _signed_checkpoint(conn, key, self._signer, after)
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
        try:
            row = _long_row(_long(item), 0, "", self._seal)
        except ValueError as exc:
            raise StorageError(f"item could not be stored: {exc.__class__.__name__}") from None
        await self._execute(_UPSERT_ITEM, row)

    async def remove(self, memory_id: str) -> None:
        await self._execute("DELETE FROM items WHERE id = %s", (memory_id,))

    def _served(self, rows: builtins.list[Any], table: str = "items") -> Items:
        if table == "items":
            rows = [_from_db(r) for r in rows]
        return served_items(self._seal, self.refusals, rows, table)

    async def get(self, memory_id: str) -> MemoryItem | None:
        sql = f"SELECT {ITEM_SERVE} FROM items WHERE id = %s"  # noqa: S608 - constant
        found = self._served(await self._rows(sql, (memory_id,)))
        return found[0] if found else None

    async def get_by_key(self, namespace: tuple[str, ...], key: str) -> MemoryItem | None:
        sql = (
            f"SELECT {ITEM_SERVE} FROM items"  # noqa: S608 - constant
            " WHERE namespace = %s AND key = %s AND state <> 'deleted'"
            " ORDER BY updated_at DESC, id DESC LIMIT 64"
        )
        # NOTE: the newest row that holds its MAC: a forged newer row is refused and
        # never hides the real one.
        try:
            encoded = (namespace_key(namespace).encode("utf-8"), key.encode("utf-8"))
        except UnicodeEncodeError:
            return None
        found = self._served(await self._rows(sql, encoded))
        return found[0] if found else None

    def _where(self, query: PoolQuery) -> tuple[builtins.list[str], builtins.list[Any]]:
        clauses: builtins.list[str] = []
        params: builtins.list[Any] = []
        bounds = prefix_bounds(query.namespace_prefix)
        if bounds is not None:
            clauses.append("items.namespace >= %s AND items.namespace < %s")
            params.extend(b.encode("utf-8", "surrogatepass") for b in bounds)
        if query.states is not None:
            clauses.append("items.state = ANY(%s)")
            params.append(sorted(s.value for s in query.states))
        if query.source is not None:
            clauses.append("items.source = %s")
            params.append(query.source.value)
        if query.category is not None:
            clauses.append("strpos(items.categories, %s) > 0")
            params.append(f" {query.category.value} ")
        if query.session_id is not None:
            clauses.append("items.session_id = %s")
            params.append(query.session_id.encode("utf-8", "surrogatepass"))
        if query.older_than is not None:
            clauses.append("items.created_at < %s")
            params.append(instant(query.older_than))
        for name, value in query.metadata.items():
            clauses.append("(items.meta -> %s::text) = %s::jsonb")
            params.extend([_no_nul(name), json.dumps(_no_nul(value), ensure_ascii=False)])
        return clauses, params

    async def list(self, query: PoolQuery) -> Items:
        return await self._select(query, None)

    async def search(self, query: PoolQuery) -> Items:
        return await self._select(query, _tsquery(query.text) if query.text else None)

    async def _select(self, query: PoolQuery, text: str | None) -> Items:
        clauses, params = self._where(query)
        if text is not None:
            clauses.insert(0, "items.words @@ %s::tsquery")
            params.insert(0, text)
        where_sql = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        order = "ASC" if query.oldest_first else "DESC"
        sql = (
            f"SELECT {ITEM_SERVE} FROM items{where_sql}"  # noqa: S608 - clauses are constants, values are parameters
            f" ORDER BY items.created_at {order}, items.id {order} LIMIT %s OFFSET %s"
        )
        params.extend([query.limit, query.offset])
        return self._served(await self._rows(sql, params))

    # -- reads and restore -------------------------------------------------------

    async def reads(self, memory_id: str) -> Reads:
        sql = (
            "SELECT memory_id, at, session_id, call_id, agent_id FROM reads"
            " WHERE memory_id = %s ORDER BY seq"
        )
        return [_read(r) for r in await self._rows(sql, (memory_id,))]

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
            for r in (*reversed(self._reads), *reversed(self._reads_committing))
            if r.at >= since
            and linked(r, session_id, call_id, agent_id, agent_any_session=agent_any_session)
        ]
        branches: builtins.list[str] = []
        params: builtins.list[Any] = []
        # `at` is stored as isoformat text: compared a day early (any UTC offset,
        # with or without microseconds), then exactly below.
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
            sql = " UNION ".join(branches) + " ORDER BY 1 DESC LIMIT %s"
            rows = await self._rows(sql, [*params, limit])
            stored = [_read(r[1:]) for r in rows]
        # A read committed while the query ran is in `queued` (taken before it) and
        # maybe in `stored`: each read counts once.
        seen = set(queued)
        return [*queued, *(r for r in stored if r.at >= since and r not in seen)][:limit]

    async def reads_after(
        self, after: int, limit: int = 500
    ) -> builtins.list[tuple[int, ReadRecord]]:
        sql = (
            "SELECT seq, memory_id, at, session_id, call_id, agent_id FROM reads"
            " WHERE seq > %s ORDER BY seq LIMIT %s"
        )
        return [(r[0], _read(r[1:])) for r in await self._rows(sql, (after, limit))]

    async def log_heads(self) -> tuple[int, int]:
        sql = "SELECT (SELECT max(seq) FROM events), (SELECT max(seq) FROM reads)"
        row = await self._row(sql)
        return (int(row[0] or 0), int(row[1] or 0)) if row else (0, 0)

    async def seq_at(self, at: datetime) -> int:
        row = await self._row("SELECT max(seq) FROM events WHERE at <= %s", (instant(at),))
        return int(row[0]) if row and row[0] is not None else 0

    async def state_at(self, seq: int) -> State:
        key = self._key
        return await self._in_snapshot(lambda conn: _state_at(conn, key, seq))

    _CHANGED = (
        "SELECT e.memory_id, e.seq, e.mac, e.entry, r.entry, r.mac FROM events e JOIN ("  # noqa: S608 - constants
        " SELECT memory_id, max(seq) AS last FROM events"
        " WHERE seq <= %s AND memory_id IN (SELECT memory_id FROM events WHERE seq > %s)"
        " GROUP BY memory_id) m ON e.seq = m.last" + POSTGRES_BASE_JOIN
    )
    """For every memory with an event after a point: its last event at or before
    another point, with the event it references (one indexed query, no replay)."""

    async def changed_items(self, since_seq: int, at_seq: int) -> State:
        """For every memory with an event after `since_seq`: its item as of event
        `at_seq` (absent if it had none yet). One indexed query, no full replay."""

        def work(conn: psycopg.Connection[Any]) -> State:
            state: State = {}
            for memory_id, _seq, _mac, entry, base, base_mac in _stream(
                conn, self._CHANGED, (at_seq, since_seq)
            ):
                item = resolve(json.loads(bytes(entry)), _bytes(base), base_mac)
                if item is not None:
                    state[memory_id] = item
            return state

        return await self._in_snapshot(work)

    async def changed_versions(self, since_seq: int, at_seq: int) -> dict[str, Version]:
        def work(conn: psycopg.Connection[Any]) -> dict[str, Version]:
            found: dict[str, Version] = {}
            for memory_id, seq, mac, entry, base, base_mac in _stream(
                conn, self._CHANGED, (at_seq, since_seq)
            ):
                version = version_of(int(seq), mac, bytes(entry), _bytes(base), base_mac)
                if version is not None:
                    found[memory_id] = version
            return found

        return await self._in_snapshot(work)

    async def snapshot(self) -> int:
        """Snapshot the projection at the current head (compressed, MACed)."""
        await self.flush()
        checkpoint = await self.checkpoint()
        if checkpoint.seq == 0:
            return 0
        state = await self.state_at(checkpoint.seq)
        body = await asyncio.to_thread(snapshot_body, state)
        mac = snapshot_mac(self._key, checkpoint.seq, checkpoint.head_mac, body)
        await self._execute(
            "INSERT INTO snapshots (seq, at, head_mac, body, mac) VALUES (%s,%s,%s,%s,%s)"
            " ON CONFLICT (seq) DO UPDATE SET at=excluded.at, head_mac=excluded.head_mac,"
            " body=excluded.body, mac=excluded.mac",
            (checkpoint.seq, instant(utcnow()), checkpoint.head_mac, body, mac),
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
        self._closed = True
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listening
        await self._pool.close()
        await asyncio.to_thread(self._close_scan)

    def _close_scan(self) -> None:
        with self._scan_lock:  # waits out a scan still running in its thread
            if self._scan is not None:
                self._scan.close()
                self._scan = None


class _Rows:
    """The rows one group commit writes, per table."""

    def __init__(self) -> None:
        self.events: builtins.list[tuple[Any, ...]] = []
        self.items: builtins.list[tuple[Any, ...]] = []
        self.short: builtins.list[tuple[Any, ...]] = []
        self.short_gone: builtins.list[tuple[str]] = []

    def marks(self) -> tuple[int, int, int, int]:
        return len(self.events), len(self.items), len(self.short), len(self.short_gone)

    def cut(self, marks: Sequence[Any]) -> None:
        del self.events[marks[0] :], self.items[marks[1] :]
        del self.short[marks[2] :], self.short_gone[marks[3] :]


# -- work on a snapshot connection (worker threads) -----------------------------------


def _stream(conn: psycopg.Connection[Any], sql: str, params: Sequence[Any] = ()) -> Iterator[Any]:
    """Rows of `sql` through a server-side cursor: memory stays flat."""
    with conn.cursor(name="memgate_scan") as cur:
        cur.itersize = 4096
        cur.execute(sql, params)
        yield from cur


class _Snapshot:
    """A snapshot connection's tables as `served.check_served` reads them."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    def events(self) -> Iterator[Any]:
        return _stream(self._conn, "SELECT seq, entry, mac FROM events ORDER BY seq")

    def rows(self, table: str, select: str) -> Iterator[Any]:
        rows = _stream(self._conn, f"SELECT {select} FROM {table}")  # noqa: S608 - constants
        if table != "items":
            return iter(rows)
        return (_from_db(r) for r in rows)

    def entry(self, seq: int) -> bytes | None:
        cur = self._conn.execute("SELECT entry FROM events WHERE seq = %s", (seq,))
        found = cur.fetchone()
        return None if found is None else bytes(found[0])

    def reads(self) -> Iterator[Any]:
        return _stream(self._conn, f"SELECT {READ_SELECT} FROM reads ORDER BY seq")  # noqa: S608

    def reads_head(self) -> Any:
        cur = self._conn.execute("SELECT seq, mac, tag FROM heads WHERE name = 'reads'")
        return cur.fetchone()


def _event_rows(conn: psycopg.Connection[Any], lo: int = 1) -> Iterator[Any]:
    sql = f"SELECT {EVENT_COLUMNS} FROM events WHERE seq >= %s ORDER BY seq"  # noqa: S608
    return (event_row(r) for r in _stream(conn, sql, (lo,)))


def _verify(
    conn: psycopg.Connection[Any],
    key: bytes,
    checkpoint: Checkpoint | None,
    public: Ed25519PublicKey,
) -> VerifyResult:
    chain = with_reference_fault(
        verify_rows(key, _event_rows(conn), checkpoint), reference_fault_after(conn)
    )
    served = check_served(_Snapshot(conn), RowSeal(key))
    signed = None
    if checkpoint is not None and checkpoint.signature:
        signed = signature_ok(checkpoint, public)
    return served_verdict(chain, served, signed)


def reference_fault_after(
    conn: psycopg.Connection[Any], after_seq: int = 0
) -> tuple[int, str] | None:
    """The first reference after `after_seq` that does not hold (memgate.log.references)."""
    rows = cast("Generator[Any, None, None]", _stream(conn, POSTGRES_REFERENCES, (after_seq + 1,)))
    try:
        return first_fault(
            (int(seq), bytes(entry), None if base is None else bytes(base), mac)
            for seq, entry, base, mac in rows
        )
    finally:
        rows.close()  # the named cursor, before the next scan opens its own


def _signed_checkpoint(
    conn: psycopg.Connection[Any], key: bytes, signer: Signer, after: tuple[int, str]
) -> tuple[Checkpoint, tuple[int, str]]:
    head = conn.execute(
        "SELECT seq, mac, (SELECT count(*) FROM events) FROM events ORDER BY seq DESC LIMIT 1"
    ).fetchone()
    if head is None:
        return signer.sign(empty_checkpoint(utcnow())), (0, GENESIS_HASH)
    prev = GENESIS
    if after[0]:
        found = conn.execute("SELECT mac FROM events WHERE seq = %s", (after[0],)).fetchone()
        prev = str(found[0]) if found else GENESIS
    result, seq, mac, digest = verify_and_hash(key, _event_rows(conn, after[0] + 1), after, prev)
    if not result.ok:
        raise StorageError(
            f"not signed: the log fails verification at seq {result.first_bad_seq}"
            f" ({result.reason})"
        )
    point = Checkpoint(seq=seq, head_mac=mac, count=int(head[2]), at=utcnow(), head_hash=digest)
    return signer.sign(point), (seq, digest)


def _state_at(conn: psycopg.Connection[Any], key: bytes, seq: int) -> State:
    """Every memory's item after event `seq`: the nearest valid snapshot at or
    before it (tied to this chain, its MAC holding), then replay."""
    base, state = 0, {}
    snaps = conn.execute(
        "SELECT s.seq, s.head_mac, e.mac FROM snapshots s"
        " LEFT JOIN events e ON e.seq = s.seq WHERE s.seq <= %s ORDER BY s.seq DESC",
        (seq,),
    ).fetchall()
    for snap_seq, head_mac, event_mac in snaps:
        if event_mac != head_mac:
            continue  # not tied to this chain any more
        row = conn.execute("SELECT body, mac FROM snapshots WHERE seq = %s", (snap_seq,)).fetchone()
        if row is None:
            continue
        loaded = load_snapshot(key, int(snap_seq), head_mac, bytes(row[0]), row[1])
        if loaded is not None:
            base, state = int(snap_seq), loaded
            break
    sql = (
        "SELECT e.entry, r.entry, r.mac FROM events e"  # noqa: S608 - constants
        + POSTGRES_BASE_JOIN
        + " WHERE e.seq > %s AND e.seq <= %s ORDER BY e.seq"
    )
    rows = _stream(conn, sql, (base, seq))
    return apply_rows(state, ((bytes(r[0]), _bytes(r[1]), r[2]) for r in rows))


def _bytes(value: Any) -> bytes | None:
    return None if value is None else bytes(value)


async def _applied(conn: psycopg.AsyncConnection[Any]) -> set[int]:
    cur = await conn.execute("SELECT to_regclass('memgate_migrations') IS NOT NULL")
    found = await cur.fetchone()
    if found is None or not found[0]:
        return set()
    cur = await conn.execute("SELECT version FROM memgate_migrations")
    return {int(r[0]) for r in await cur.fetchall()}


async def _migrate(conn: psycopg.AsyncConnection[Any]) -> None:
    """Apply the migrations this database lacks, in order, in one transaction, one
    opener at a time (an advisory lock: replicas starting together). An up to date
    database is only looked at."""
    applied = await _applied(conn)
    if all(number in applied for number, _, _ in migrations()):
        return
    await conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        done = await _applied(conn)  # again, under the lock: another opener may have
        pending = [m for m in migrations() if m[0] not in done]
        if not pending:
            return
        try:
            async with conn.transaction():
                # NOTE: safe without waiting for the WAL flush: any later durable
                # commit flushes this one first (the WAL is one sequence).
                await conn.execute("SET LOCAL synchronous_commit = off")
                await conn.execute(_MIGRATIONS_TABLE)
                for number, name, sql in pending:
                    await conn.execute(sql.encode("utf-8"))  # several statements, no parameters
                    await conn.execute(
                        "INSERT INTO memgate_migrations (version, name) VALUES (%s, %s)",
                        (number, name),
                    )
        except psycopg.Error as exc:
            names = ", ".join(name for _, name, _ in pending)
            raise StorageError(
                f"PostgreSQL migration ({names}) failed: {exc.__class__.__name__}: {exc}"
            ) from None
    finally:
        with contextlib.suppress(psycopg.Error):
            await conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))


async def _check_key(conn: psycopg.AsyncConnection[Any], key: bytes, url: str) -> None:
    """Refuse a key other than the one the database's log was first opened with."""
    tag = hmac.digest(key, b"memgate/postgres/key-check/v1", "sha256").hex()
    cur = await conn.execute("SELECT value FROM memgate_meta WHERE name = 'log_key_check'")
    row = await cur.fetchone()
    if row is None:  # the first open: this key is the log's (a racing opener's wins)
        await conn.execute(
            "INSERT INTO memgate_meta (name, value) VALUES ('log_key_check', %s)"
            " ON CONFLICT (name) DO NOTHING",
            (tag,),
        )
        cur = await conn.execute("SELECT value FROM memgate_meta WHERE name = 'log_key_check'")
        row = await cur.fetchone()
    if row is None or not hmac.compare_digest(str(row[0]), tag):
        raise StorageError(
            f"refusing to open PostgreSQL at {where(url)}: its log was written under another"
            " log key (every replica needs the same MEMGATE_LOG_KEY or keys/log.key)"
        )


_MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS memgate_migrations (version integer PRIMARY KEY,"
    " name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
)
