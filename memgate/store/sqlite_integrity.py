"""Integrity of a SQLite store file beyond the event chain: projection rows and
reads checked against the log (`memgate.log.integrity` has the MACs), the public
hash chain for signed checkpoints, the one-time migration that MACs the rows of
an existing database, and opening a file strictly read-only.

Everything here works on plain `sqlite3` connections, so `memgate log verify`
can run on a data directory without opening a store (no migration, no lock
taken for writing, nothing appended).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from memgate.domain.events import Checkpoint, VerifyResult
from memgate.domain.memory import MemoryItem
from memgate.errors import StorageError
from memgate.log.chain import COLUMN_NAMES, GENESIS, Columns, Hmacs, column_bytes, verify_rows
from memgate.log.integrity import RowSeal, hash_step, verify_public_rows
from memgate.log.references import Noted
from memgate.store import served as _served
from memgate.store.projection import LONG, SHORT, SHORT_GONE, route
from memgate.store.served import (
    ITEM_COLUMNS,
    ITEM_SELECT,
    READ_SELECT,
    SHORT_COLUMNS,
    SHORT_SELECT,
    Expected,
    Refusals,
    ServedCheck,
    instant,
    item_fields,
    row_ok,
    sealed,
    short_fields,
)

log = logging.getLogger("memgate.integrity")

__all__ = [
    "ITEM_COLUMNS",
    "ITEM_SELECT",
    "ITEM_SERVE",
    "READ_SELECT",
    "ROW_MAC_SCHEMA",
    "SHORT_COLUMNS",
    "SHORT_SELECT",
    "SHORT_SERVE",
    "Expected",
    "Refusals",
    "ServedCheck",
    "backfill",
    "check_served",
    "check_served_since",
    "event_rows",
    "expected_projection",
    "extend_hash",
    "instant",
    "item_fields",
    "read_only",
    "row_ok",
    "schema_version",
    "sealed",
    "short_fields",
    "verify_chain_range",
    "verify_events",
    "verify_public",
]


def _superseded(table: str, pool: str) -> str:
    """A column that is 1 when a later event of the row's memory would have
    replaced the row (its item routes to this table): the row is an older genuine
    one put back. Evaluated in the query's own snapshot; an index probe on
    events (memory_id, seq) that finds no rows in the usual case."""
    return (
        "(SELECT max(coalesce(json_extract(CAST(e.entry AS TEXT), '$.item.pool'),"  # noqa: S608 - constants only
        " json_extract(CAST(e.entry AS TEXT), '$.restores.pool')) = '"
        + pool
        + f"') FROM events e WHERE e.memory_id = {table}.id"
        f" AND e.seq > coalesce({table}.event_seq, 0))"
    )


ITEM_SERVE = f"{ITEM_SELECT}, {_superseded('items', 'long')}"
"""What a served items row is read with: its columns, MAC, and the stale flag."""
SHORT_SERVE = f"{SHORT_SELECT}, {_superseded('short_items', 'short')}"
ROW_MAC_SCHEMA = 5
"""The schema version from which rows carry MACs (migration 005)."""
_EVENT_COLUMNS = (
    "seq, entry, prev_mac, mac, at, memory_id, op, actor, reason, state_before, state_after,"
    " summary"
)


class _Snapshot:
    """A SQLite connection's tables as `served.check_served` reads them (in the
    caller's read transaction)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def events(self) -> Iterator[Any]:
        cur = self._db.execute("SELECT seq, entry, mac FROM events ORDER BY seq")
        while rows := cur.fetchmany(4096):
            yield from rows

    def rows(self, table: str, select: str) -> Iterator[Any]:
        cur = self._db.execute(f"SELECT {select} FROM {table}")  # noqa: S608 - constants
        while batch := cur.fetchmany(1024):
            yield from batch

    def entry(self, seq: int) -> Any:
        found = self._db.execute("SELECT entry FROM events WHERE seq = ?", (seq,)).fetchone()
        return None if found is None else found[0]

    def reads(self) -> Iterator[Any]:
        cur = self._db.execute(f"SELECT {READ_SELECT} FROM reads ORDER BY seq")  # noqa: S608
        while batch := cur.fetchmany(4096):
            yield from batch

    def reads_head(self) -> Any:
        return self._db.execute("SELECT seq, mac, tag FROM heads WHERE name = 'reads'").fetchone()


class _Since(_Snapshot):
    """What changed after event `after_seq`, as `served.check_served` reads it: the
    memories later events touch and those whose row claims a later event (or no
    event), with their whole history and their rows; no reads (the incremental
    verify leaves them, and the rows untouched since, to the verify that vouched
    for `after_seq`). Replaying each touched memory's whole history, the check
    is the full one's, for those memories: O(changes), not O(log)."""

    CHUNK = 500

    def __init__(self, db: sqlite3.Connection, after_seq: int) -> None:
        super().__init__(db)
        touched = {
            str(r[0])
            for r in db.execute("SELECT DISTINCT memory_id FROM events WHERE seq > ?", (after_seq,))
        }
        for table in ("items", "short_items"):
            sql = f"SELECT id FROM {table} WHERE coalesce(event_seq, 0) > ? OR event_seq IS NULL"  # noqa: S608 - constants
            touched.update(str(r[0]) for r in db.execute(sql, (after_seq,)))
        self.touched = sorted(touched)

    def _chunks(self) -> Iterator[list[str]]:
        for start in range(0, len(self.touched), self.CHUNK):
            yield self.touched[start : start + self.CHUNK]

    def events(self) -> Iterator[Any]:
        for chunk in self._chunks():
            marks = ", ".join("?" * len(chunk))
            sql = f"SELECT seq, entry, mac FROM events WHERE memory_id IN ({marks}) ORDER BY seq"  # noqa: S608
            yield from self._db.execute(sql, chunk)

    def rows(self, table: str, select: str) -> Iterator[Any]:
        for chunk in self._chunks():
            marks = ", ".join("?" * len(chunk))
            sql = f"SELECT {select} FROM {table} WHERE id IN ({marks})"  # noqa: S608 - constants
            yield from self._db.execute(sql, chunk)

    def reads(self) -> Iterator[Any]:
        return iter(())

    def reads_head(self) -> Any:
        return None


def check_served_since(db: sqlite3.Connection, seal: RowSeal, after_seq: int) -> ServedCheck:
    """`check_served` for what changed after event `after_seq` (see `_Since`)."""
    return _served.check_served(_Since(db, after_seq), seal)


def expected_projection(db: sqlite3.Connection) -> Expected:
    """Replay the log's items into the two tables, by the commit's own rule."""
    return _served.expected_projection(_Snapshot(db).events())


def check_served(
    db: sqlite3.Connection, seal: RowSeal, references: Noted | None = None
) -> ServedCheck:
    """Every projection row and every read against the log, in the caller's read
    transaction (`memgate.store.served.check_served`): first over stored bytes
    (`_all_served_hold`); only when that finds anything off, the reference check,
    which names every divergence. `references`, if given, notes the seq of every
    entry with a `restores` key as the pass over stored bytes reads the log
    (verify then checks those against what they name without a scan of its
    own); `complete` says whether that pass read it all."""
    return _all_served_hold(db, seal, references) or _served.check_served(_Snapshot(db), seal)


# -- the event chain, and what a public key can check -------------------------------------


def event_rows(
    db: sqlite3.Connection, lo: int = 1, hi: int | None = None
) -> Iterator[tuple[int, bytes, str, str, Columns]]:
    sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE seq >= ? AND seq <= ? ORDER BY seq"  # noqa: S608
    for row in db.execute(sql, (lo, hi if hi is not None else 1 << 62)):
        seq, entry, prev_mac, mac, *columns = row
        if isinstance(entry, str):
            entry = entry.encode()
        yield seq, entry, prev_mac, mac, tuple(columns)


def verify_chain_range(
    uri: str, key: bytes, lo: int, hi: int | None, checkpoint: Checkpoint | None
) -> VerifyResult:
    """Verify events lo..hi (to the end if None) on a read-only connection, in one
    read transaction. Module-level so worker processes can run it."""
    with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
        db.execute("BEGIN")
        prev = GENESIS
        if lo > 1:
            row = db.execute("SELECT mac FROM events WHERE seq = ?", (lo - 1,)).fetchone()
            prev = row[0] if row else GENESIS
        return verify_events(db, key, lo, hi, checkpoint, prev)


# -- verify over stored bytes ---------------------------------------------------------
#
# Verify's hot loops with the MAC inputs built by SQLite from the stored bytes (in
# C, off the GIL), so Python only hashes them (`Hmacs`) and checks a batch of MACs
# with one string compare. The SQL spells `chain.column_bytes` / `integrity.encode`
# exactly: each value as `<length in characters>:<text>`, NULL as `-`, joined by
# `|` (SQLite's length() counts characters as len() does, up to a NUL character:
# a value holding one only fails the fast check). A batch that does not hold is
# walked again the exact way (`verify_rows`, `served.check_served`), which names
# what broke: the fast path only ever says "all of these hold", and a false "no"
# costs time, never a verdict. benchmarks/results/verify.md has the numbers.

_BATCH = 2048


_NULLABLE = frozenset(
    {"reason", "state_before", "state_after", "key", "session_id", "expires_at"}
    | {"event_seq", "event_mac", "call_id", "agent_id"}
)
"""The columns the schema lets be NULL. The others are spelled without the NULL
case (each mention of a column decodes it again: a third less work per items
row); a NULL in one anyway makes the whole input NULL, which fails the batch."""


def _prefixed(column: str) -> str:
    if column not in _NULLABLE:
        return f"length({column}) || ':' || {column}"
    return f"CASE WHEN {column} IS NULL THEN '-' ELSE length({column}) || ':' || {column} END"


def _encoded(*columns: str) -> str:
    return " || '|' || ".join(_prefixed(c) for c in columns)


_CHAIN_INPUT = (
    "SELECT seq, prev_mac, mac, CAST((prev_mac || '|' || seq || '|') || entry"  # noqa: S608 - constants
    f" || ('|' || {_encoded(*COLUMN_NAMES)}) AS BLOB)"
    " FROM events WHERE seq >= ? AND seq <= ? ORDER BY seq"
)
"""Per event: seq, prev_mac, mac and `chain.mac`'s message."""


def verify_events(
    db: sqlite3.Connection,
    key: bytes,
    lo: int = 1,
    hi: int | None = None,
    checkpoint: Checkpoint | None = None,
    prev: str = GENESIS,
) -> VerifyResult:
    """`verify_rows(key, event_rows(db, lo, hi), checkpoint, start_seq=lo,
    start_prev=prev)`, the same result, in the caller's read transaction: each
    batch is checked over stored bytes (seq contiguous, each prev_mac the MAC
    before it, the MACs), and one that fails is walked by `verify_rows`, which
    names its first broken record."""
    macs = Hmacs(key)
    cursor = db.execute(_CHAIN_INPUT, (lo, hi if hi is not None else 1 << 62))
    expected, checked = lo, 0
    seen = checkpoint is None or checkpoint.seq == 0
    while batch := cursor.fetchmany(_BATCH):
        seqs, prevs, stored, messages = zip(*batch, strict=True)
        end = expected + len(batch) - 1
        point = None if seen or not expected <= checkpoint.seq <= end else checkpoint  # type: ignore[union-attr]
        holds = (
            seqs[0] == expected
            and seqs[-1] == end  # seq is the primary key, in order: no gap
            and prevs[0] == prev
            and prevs[1:] == stored[:-1]
            and (point is None or stored[point.seq - expected] == point.head_mac)
        )
        try:
            holds = holds and macs.hexes(messages) == "".join(stored)
        except TypeError:  # a NULL where the schema has none: the walk says what
            holds = False
        if not holds:
            walked = verify_rows(
                key, event_rows(db, expected, seqs[-1]), point, start_seq=expected, start_prev=prev
            )
            if not walked.ok:
                return walked.model_copy(update={"checked": checked + walked.checked})
        seen = seen or point is not None
        prev, expected, checked = stored[-1], end + 1, checked + len(batch)
    if not seen:
        assert checkpoint is not None  # noqa: S101 - seen starts True without one
        return VerifyResult(
            ok=False,
            checked=checked,
            last_seq=expected - 1,
            first_bad_seq=expected,
            reason=f"log is shorter than the checkpoint at {checkpoint.seq} (truncated)",
        )
    return VerifyResult(ok=True, checked=checked, last_seq=expected - 1)


class _Place(msgspec.Struct):
    """What replay reads of an entry's item or reference (`expected_projection`)."""

    id: Any = None
    pool: Any = None
    state: Any = None


class _Entry(msgspec.Struct):
    memory_id: Any = None
    item: _Place | None = None
    restores: _Place | None = None


_ENTRY = msgspec.json.Decoder(_Entry)
_PROJECTING = (
    "SELECT seq, mac, entry FROM events WHERE instr(entry, CAST('\"item\":{' AS BLOB))"
    " OR instr(entry, CAST('\"restores\":' AS BLOB)) ORDER BY seq"
)
"""The events `expected_projection` replays (the others carry no item), and every
entry with a `restores` key (one that is no object fails the decode: the slow
path, and verify's reference check, name it)."""


def _fast_projection(db: sqlite3.Connection, references: Noted | None = None) -> Expected:
    """`expected_projection(db)`, reading only the fields replay needs (msgspec
    skips the rest of each entry; json.loads built all of it). Raises on an entry
    that is no JSON object of that shape, which replay would have skipped. Notes
    the seq of each reference in `references`."""
    out = Expected()
    long, short = out.long, out.short
    noted = references.seqs.append if references is not None else None
    cursor = db.execute(_PROJECTING)
    while batch := cursor.fetchmany(_BATCH):
        for seq, mac, entry in batch:
            data = _ENTRY.decode(entry)
            if data.restores is not None and noted is not None:
                noted(seq)
            place = data.restores if data.restores is not None else data.item
            if place is None:
                continue
            memory_id = str(data.memory_id if data.restores is not None else place.id)
            where = route(str(place.pool), str(place.state))
            if where == LONG:
                long[memory_id] = (seq, mac)
            elif where == SHORT:
                short[memory_id] = (seq, mac)
            elif where == SHORT_GONE:
                short.pop(memory_id, None)
    if references is not None:
        references.complete = True
    return out


def _rows_hold(
    db: sqlite3.Connection,
    seal: RowSeal,
    table: str,
    names: tuple[str, ...],
    want: dict[str, tuple[int, str]],
) -> int | None:
    """How many rows `table` holds, if every one holds its MAC and is the latest
    projection of its memory, and no memory the log projects lacks its row; else
    None."""
    sql = (
        f"SELECT id, event_seq, event_mac, row_mac, CAST('{len(table)}:{table}|' ||"  # noqa: S608 - constants
        f" {_encoded(*names, 'event_seq', 'event_mac')} AS BLOB) FROM {table}"
    )
    left = dict(want)
    count = 0
    cursor = db.execute(sql)
    while batch := cursor.fetchmany(_BATCH):
        ids, seqs, macs, tags, messages = zip(*batch, strict=True)
        if None in tags or seal.row_macs.hexes(messages) != "".join(tags):
            return None
        for memory_id, seq, mac in zip(ids, seqs, macs, strict=True):
            if left.pop(memory_id, None) != (seq, mac):
                return None
        count += len(batch)
    return None if left else count


_READ_INPUT = (
    "SELECT seq, mac, CAST('4:read|' || length(p) || ':' || p || '|' ||"  # noqa: S608 - constants
    f" {_encoded('seq', 'memory_id', 'at', 'session_id', 'call_id', 'agent_id')} AS BLOB)"
    f" FROM (SELECT *, lag(mac, 1, '{GENESIS}') OVER (ORDER BY seq) AS p FROM reads)"
    " ORDER BY seq"
)
"""Per read: seq, mac and `RowSeal.read`'s message, chained to the stored MAC
before it (a NULL one makes the message NULL: the reference check names it)."""


def _reads_hold(db: sqlite3.Connection, seal: RowSeal) -> int | None:
    """How many reads there are, if the read chain and its head hold; else None."""
    count = 0
    last_seq, last_mac = 0, GENESIS
    cursor = db.execute(_READ_INPUT)
    while batch := cursor.fetchmany(_BATCH):
        seqs, macs, messages = zip(*batch, strict=True)
        if None in macs or seal.read_macs.hexes(messages) != "".join(macs):
            return None
        count += len(batch)
        last_seq, last_mac = seqs[-1], macs[-1]
    head = db.execute("SELECT seq, mac, tag FROM heads WHERE name = 'reads'").fetchone()
    if head is None:
        return None if count else 0
    seq, mac, tag = head
    if tag != seal.reads_head(int(seq), str(mac)) or (int(seq), mac) != (last_seq, last_mac):
        return None
    return count


def _all_served_hold(
    db: sqlite3.Connection, seal: RowSeal, references: Noted | None = None
) -> ServedCheck | None:
    """`check_served`'s verdict when every row and read holds (no divergence);
    None when anything may not, or an entry is not what replay expects."""
    try:
        expected = _fast_projection(db, references)
        rows = 0
        for table, names, want in (
            ("items", ITEM_COLUMNS, expected.long),
            ("short_items", SHORT_COLUMNS, expected.short),
        ):
            count = _rows_hold(db, seal, table, names, want)
            if count is None:
                return None
            rows += count
        reads = _reads_hold(db, seal)
    except (sqlite3.Error, msgspec.DecodeError, TypeError, ValueError):
        return None
    if reads is None:
        return None
    return ServedCheck(rows, reads, (), 0)


def extend_hash(db: sqlite3.Connection, after: tuple[int, str], upto: int) -> tuple[int, str, str]:
    """The public hash chain from `after` = (seq, hash) to event `upto`:
    returns (seq, MAC, hash) at `upto` (or at the last event, if fewer)."""
    seq, digest = after
    mac = GENESIS
    if seq:
        row = db.execute("SELECT mac FROM events WHERE seq = ?", (seq,)).fetchone()
        mac = row[0] if row else GENESIS
    for number, entry, _prev, stored, columns in event_rows(db, seq + 1, upto):
        digest = hash_step(digest, number, entry, column_bytes(columns), stored)
        seq, mac = number, stored
    return seq, mac, digest


def verify_public(
    db: sqlite3.Connection, public: Ed25519PublicKey, checkpoint: Checkpoint
) -> VerifyResult:
    """`memgate.log.integrity.verify_public` over the events of a file."""
    return verify_public_rows(event_rows(db), public, checkpoint)


# -- reading a file without writing to it ----------------------------------------------


def schema_version(db: sqlite3.Connection) -> int:
    row = db.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row else 0


@contextlib.contextmanager
def read_only(path: Path, *, writer_here: bool = False) -> Iterator[sqlite3.Connection]:
    """A connection that writes nothing at all, not even SQLite's WAL files.

    With no `-wal` file and no writer (the store's writer lock is free: taken
    here shared, for the duration), the file is opened immutable, which creates
    no `-wal` / `-shm`. With a writer running (or a WAL left by a crash) it is
    opened `mode=ro`: the WAL files exist already and SQLite only reads them (it
    may rebuild its shared-memory index after a crash).

    `writer_here`: this process holds the store open (its WAL exists): plain
    `mode=ro`, and the lock file is left alone. NOTE: POSIX record locks belong
    to the process, and closing any descriptor of the file drops all of them, so
    touching the lock file here would release the store's own writer lock."""
    if not path.is_file():
        raise StorageError(f"no database at {path}")
    lock_path = path.parent / (path.name + ".lock")
    lock = None
    immutable = False
    if not writer_here and not Path(str(path) + "-wal").exists():
        if lock_path.exists():
            lock = lock_path.open("rb")
            try:
                fcntl.lockf(lock, fcntl.LOCK_SH | fcntl.LOCK_NB)
                immutable = not Path(str(path) + "-wal").exists()
            except OSError:
                immutable = False  # a writer holds it: its WAL files exist
        else:
            immutable = True  # never opened by a store: a copy, or an idle file
    uri = path.resolve().as_uri() + ("?immutable=1" if immutable else "?mode=ro")
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        if lock is not None:
            lock.close()
        raise StorageError(f"cannot open {path}: {exc}") from None
    try:
        db.execute("PRAGMA query_only=ON")
        yield db
    finally:
        db.close()
        if lock is not None:
            lock.close()


# -- the migration that MACs an existing database ---------------------------------------


def backfill(db: sqlite3.Connection, key: bytes) -> None:
    """Migration 005's second half, inside its transaction: give every row of a
    database written before row MACs its MAC, honestly.

    Rows are not trusted as found: the log is verified first (a broken log
    stops the migration; nothing is changed), then both projection tables are
    rebuilt from the log by replay, and every row is sealed to the event that
    produced it. A row that disagreed with the log (edited before this
    upgrade) is replaced by the log's version, one with no event is removed,
    each with a warning line. Reads recorded before the upgrade cannot be
    checked (they carried nothing); they are chained as found."""
    result = verify_rows(key, event_rows(db))
    if not result.ok:
        raise StorageError(
            f"cannot add row MACs: the log fails verification at seq {result.first_bad_seq}"
            f" ({result.reason}); restore the database before upgrading"
        )
    seal = RowSeal(key)
    expected = expected_projection(db)
    for table, want, select, build in (
        ("items", expected.long, ITEM_SELECT, item_fields),
        ("short_items", expected.short, SHORT_SELECT, short_fields),
    ):
        names = ITEM_COLUMNS if table == "items" else SHORT_COLUMNS
        present = {r[0]: r for r in db.execute(f"SELECT {select} FROM {table}")}  # noqa: S608
        for memory_id in sorted(present.keys() - want.keys()):
            log.warning("migration: %s row %s has no event in the log: removed", table, memory_id)
            db.execute(f"DELETE FROM {table} WHERE id = ?", (memory_id,))  # noqa: S608
        upsert = (
            f"INSERT OR REPLACE INTO {table} ({', '.join(names)}, event_seq, event_mac,"  # noqa: S608
            f" row_mac) VALUES ({', '.join('?' * (len(names) + 3))})"
        )
        if table == "items":
            # keep rowids (FTS is keyed by them): update in place, insert the missing
            upsert = (
                f"INSERT INTO items ({', '.join(names)}, event_seq, event_mac, row_mac)"  # noqa: S608
                f" VALUES ({', '.join('?' * (len(names) + 3))}) ON CONFLICT(id) DO UPDATE SET "
                + ", ".join(f"{n}=excluded.{n}" for n in (*names[1:], "event_seq", "event_mac"))
                + ", row_mac=excluded.row_mac"
            )
        for memory_id, (seq, mac) in want.items():
            entry = db.execute("SELECT entry FROM events WHERE seq = ?", (seq,)).fetchone()[0]
            item = MemoryItem.model_validate(json.loads(entry)["item"])
            fields = build(item)
            old = present.get(memory_id)
            if old is not None and tuple(old[: len(names)]) != fields:
                log.warning(
                    "migration: %s row %s differed from event %s: restored from the log",
                    table,
                    memory_id,
                    seq,
                )
            db.execute(upsert, sealed(seal, table, fields, seq, mac))
    prev = GENESIS
    last = 0
    for seq, *fields, _ in db.execute(f"SELECT {READ_SELECT} FROM reads ORDER BY seq").fetchall():  # noqa: S608
        prev = seal.read(prev, int(seq), fields)
        last = int(seq)
        db.execute("UPDATE reads SET mac = ? WHERE seq = ?", (prev, seq))
    if last:
        db.execute(
            "INSERT OR REPLACE INTO heads (name, seq, mac, tag) VALUES ('reads', ?, ?, ?)",
            (last, prev, seal.reads_head(last, prev)),
        )
