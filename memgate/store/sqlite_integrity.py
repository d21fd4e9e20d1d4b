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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from memgate.domain.events import (
    MAX_DIVERGENCES,
    Checkpoint,
    Divergence,
    VerifyResult,
)
from memgate.domain.memory import MemoryItem
from memgate.errors import StorageError
from memgate.log.chain import GENESIS, Columns, column_bytes, verify_rows
from memgate.log.integrity import RowSeal, hash_step, verify_public_rows
from memgate.store.projection import LONG, SHORT, SHORT_GONE, namespace_key, route

log = logging.getLogger("memgate.integrity")

ITEM_COLUMNS = (
    "id",
    "namespace",
    "key",
    "pool",
    "state",
    "source",
    "session_id",
    "created_at",
    "updated_at",
    "expires_at",
    "fingerprint",
    "categories",
    "content",
    "body",
)
"""The stored columns of an items row, in the order the row MAC covers them."""
ITEM_SELECT = ", ".join(ITEM_COLUMNS) + ", event_seq, event_mac, row_mac"
SHORT_COLUMNS = ("id", "expires_at", "body")
SHORT_SELECT = ", ".join(SHORT_COLUMNS) + ", event_seq, event_mac, row_mac"
READ_SELECT = "seq, memory_id, at, session_id, call_id, agent_id, mac"


def _superseded(table: str, pool: str) -> str:
    """A column that is 1 when a later event of the row's memory would have
    replaced the row (its item routes to this table): the row is an older genuine
    one put back. Evaluated in the query's own snapshot; an index probe on
    events (memory_id, seq) that finds no rows in the usual case."""
    return (
        "(SELECT max(json_extract(CAST(e.entry AS TEXT), '$.item.pool') = '"  # noqa: S608 - constants only
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


def instant(moment: datetime) -> str:
    """A time as fixed-width UTC text, so that SQL compares and sorts instants:
    `isoformat()` keeps the offset, and 09:00+08:00 would sort after 02:00+00:00."""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).isoformat(timespec="microseconds")


def item_fields(item: MemoryItem) -> tuple[Any, ...]:
    """An items row's stored columns (ITEM_COLUMNS) for `item`."""
    categories = " " + " ".join(sorted({f.category.value for f in item.findings})) + " "
    return (
        item.id,
        namespace_key(item.namespace),
        item.key,
        item.pool.value,
        item.state.value,
        item.source.value,
        item.session_id,
        instant(item.created_at),
        instant(item.updated_at),
        instant(item.expires_at) if item.expires_at else None,
        item.fingerprint,
        categories,
        item.content,
        item.model_dump_json(),
    )


def short_fields(item: MemoryItem) -> tuple[Any, ...]:
    exp = item.expires_at
    return (item.id, exp.isoformat() if exp else None, item.model_dump_json())


def sealed(
    seal: RowSeal, table: str, fields: tuple[Any, ...], seq: int, mac: str
) -> tuple[Any, ...]:
    """A row ready to store: its fields, its event, its MAC."""
    return (*fields, seq, mac, seal.row(table, fields, seq, mac))


def row_ok(seal: RowSeal, table: str, row: Sequence[Any]) -> bool:
    """Whether a row selected with ITEM_SELECT / SHORT_SELECT holds its MAC."""
    *fields, seq, mac, tag = row
    if seq is None or mac is None:
        return False
    return seal.row_ok(table, fields, int(seq), str(mac), tag)


@dataclass
class Refusals:
    """Rows the store would not serve because their MAC failed (counted, logged)."""

    count: int = 0
    recent: list[str] = field(default_factory=list)

    def note(self, table: str, memory_id: str, why: str = "fails its MAC") -> None:
        self.count += 1
        self.recent = [*self.recent[-19:], memory_id]
        # NOTE: a line per refused row: an operator sees it in the service log,
        # and /metrics counts it; the row id is no secret (content never logged).
        log.error(
            "integrity: %s row %s %s (edited outside memgate?): not served;"
            " run `memgate log verify`",
            table,
            memory_id,
            why,
        )


# -- replaying the projection --------------------------------------------------------


@dataclass
class Expected:
    """What the log says the projection tables hold: memory id -> (seq, MAC) of
    the event whose item is the row."""

    long: dict[str, tuple[int, str]] = field(default_factory=dict)
    short: dict[str, tuple[int, str]] = field(default_factory=dict)


def expected_projection(db: sqlite3.Connection) -> Expected:
    """Replay the log's items into the two tables, by the commit's own rule."""
    out = Expected()
    cur = db.execute("SELECT seq, entry, mac FROM events ORDER BY seq")
    while rows := cur.fetchmany(4096):
        for seq, entry, mac in rows:
            raw = entry if isinstance(entry, bytes) else str(entry).encode()
            if b'"item":{' not in raw:
                continue  # a marker: no item (exact: canonical JSON spells an item so)
            try:
                item = json.loads(raw).get("item")
            except ValueError:
                continue  # the chain check names an unreadable entry
            if not isinstance(item, dict):
                continue
            memory_id = str(item.get("id"))
            where = route(str(item.get("pool")), str(item.get("state")))
            if where == LONG:
                out.long[memory_id] = (int(seq), str(mac))
            elif where == SHORT:
                out.short[memory_id] = (int(seq), str(mac))
            elif where == SHORT_GONE:
                out.short.pop(memory_id, None)
    return out


class _Found:
    def __init__(self) -> None:
        self.count = 0
        self.listed: list[Divergence] = []

    def add(self, table: str, ident: str, kind: str, detail: str) -> None:
        self.count += 1
        if len(self.listed) < MAX_DIVERGENCES:
            self.listed.append(Divergence(table=table, id=ident, kind=kind, detail=detail))


@dataclass(frozen=True)
class ServedCheck:
    rows_checked: int
    reads_checked: int
    divergences: tuple[Divergence, ...]
    count: int


def check_served(db: sqlite3.Connection, seal: RowSeal) -> ServedCheck:
    """Every projection row and every read against the log, in the caller's read
    transaction: MACs, each row's event is its memory's latest projection, each
    memory the log projects has its row, the read chain and its head."""
    expected = expected_projection(db)
    found = _Found()
    rows = 0
    for table, select, want in (
        ("items", ITEM_SELECT, expected.long),
        ("short_items", SHORT_SELECT, expected.short),
    ):
        seen: set[str] = set()
        cur = db.execute(f"SELECT {select} FROM {table}")  # noqa: S608 - constants
        while batch := cur.fetchmany(1024):
            for row in batch:
                rows += 1
                memory_id = str(row[0])
                seen.add(memory_id)
                _check_row(db, seal, table, row, want.get(memory_id), found)
        for memory_id in sorted(want.keys() - seen):
            seq, _ = want[memory_id]
            found.add(table, memory_id, "missing_row", f"event {seq} projects it; no row")
    reads = _check_reads(db, seal, found)
    return ServedCheck(rows, reads, tuple(found.listed), found.count)


def _check_row(
    db: sqlite3.Connection,
    seal: RowSeal,
    table: str,
    row: Sequence[Any],
    latest: tuple[int, str] | None,
    found: _Found,
) -> None:
    memory_id = str(row[0])
    *_, seq, mac, _tag = row
    if not row_ok(seal, table, row):
        found.add(table, memory_id, "row_mac", _diagnose(db, table, row))
        return
    if latest is None:
        found.add(table, memory_id, "orphan_row", f"no live event projects it (row claims {seq})")
    elif int(seq) != latest[0]:
        found.add(
            table,
            memory_id,
            "stale_row",
            f"row is the projection of event {seq}; the latest is event {latest[0]}",
        )
    elif str(mac) != latest[1]:
        found.add(
            table, memory_id, "stale_row", f"row is bound to another event {seq} (log rewritten)"
        )


def _diagnose(db: sqlite3.Connection, table: str, row: Sequence[Any]) -> str:
    """Which stored columns differ from what the row's event projects."""
    *fields, seq, _mac, tag = row
    if tag is None or seq is None:
        return "row has no MAC (written outside memgate)"
    found = db.execute("SELECT entry FROM events WHERE seq = ?", (seq,)).fetchone()
    if found is None:
        return f"row MAC fails; its event {seq} does not exist"
    try:
        item = MemoryItem.model_validate(json.loads(found[0])["item"])
    except (ValueError, KeyError, TypeError):
        return f"row MAC fails; event {seq} carries no item"
    names = ITEM_COLUMNS if table == "items" else SHORT_COLUMNS
    want = item_fields(item) if table == "items" else short_fields(item)
    differ = [n for n, a, b in zip(names, want, fields, strict=True) if a != b and n != "body"]
    if not differ and want[-1] != fields[-1]:
        differ = ["body"]
    if differ:
        return f"column {', '.join(differ)} differs from event {seq}"
    return f"row MAC fails (the MAC or event columns were changed; event {seq})"


def _check_reads(db: sqlite3.Connection, seal: RowSeal, found: _Found) -> int:
    prev = GENESIS
    last_seq, last_mac = 0, GENESIS
    checked = 0
    cur = db.execute(f"SELECT {READ_SELECT} FROM reads ORDER BY seq")  # noqa: S608 - constant
    while batch := cur.fetchmany(4096):
        for seq, *fields, stored in batch:
            checked += 1
            want = seal.read(prev, int(seq), fields)
            if stored is None or want != stored:
                found.add(
                    "reads",
                    str(seq),
                    "read_chain",
                    f"read {seq} fails its chain MAC: it was edited or inserted, or a read"
                    " before it was deleted",
                )
            prev = stored if stored is not None else want
            last_seq, last_mac = int(seq), prev
    head = db.execute("SELECT seq, mac, tag FROM heads WHERE name = 'reads'").fetchone()
    if head is None:
        if checked:
            found.add("reads", str(last_seq), "reads_head", "the read chain's head is missing")
        return checked
    seq, mac, tag = head
    if tag != seal.reads_head(int(seq), str(mac)):
        found.add("reads", str(seq), "reads_head", "the read chain's head fails its MAC")
    elif int(seq) != last_seq or mac != last_mac:
        found.add(
            "reads",
            str(seq),
            "reads_head",
            f"reads end at {last_seq} but the chain's head is read {seq}: reads were removed"
            if int(seq) > last_seq
            else f"reads after the chain's head ({seq}) were added outside memgate",
        )
    return checked


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
        return verify_rows(key, event_rows(db, lo, hi), checkpoint, start_seq=lo, start_prev=prev)


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
