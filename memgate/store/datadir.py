"""The on-disk layout of a data directory, and the checks made before opening it.

    data/db/memgate.sqlite3      the log, the long-term pool, the reads
    data/keys/log.key            the log's MAC key (mode 0600; or MEMGATE_LOG_KEY)
    data/keys/fingerprint.key    the keyed fingerprint of sensitive values
    data/keys/checkpoint.key     Ed25519 key that signs exported checkpoints (0600)
    data/keys/checkpoint.pub     its public key (PEM), for auditors

A data directory that lost part of itself is refused at start, rather than
started as a new empty store or under a new key (`check_data_dir`);
`init_data_dir` (the `memgate init` command) is the explicit way to make one.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from memgate.domain.memory import utcnow
from memgate.errors import StorageError
from memgate.log.integrity import (
    PUBLIC_KEY_FILE,
    SIGNING_KEY_FILE,
    Signer,
    load_or_create_signer,
)
from memgate.log.keys import load_or_create_key
from memgate.store.sqlite import SqliteStore
from memgate.store.sqlite_integrity import read_only

DB_FILE = Path("db") / "memgate.sqlite3"
KEYS_DIR = Path("keys")
LOG_KEY_FILE = "log.key"
FINGERPRINT_KEY_FILE = "fingerprint.key"
LOG_KEY_ENV = "MEMGATE_LOG_KEY"
FINGERPRINT_KEY_ENV = "MEMGATE_FINGERPRINT_KEY"
_SQLITE_MAGIC = b"SQLite format 3\x00"

__all__ = [
    "DB_FILE",
    "KEYS_DIR",
    "LOG_KEY_FILE",
    "PUBLIC_KEY_FILE",
    "SIGNING_KEY_FILE",
    "DatabaseState",
    "InitReport",
    "check_data_dir",
    "init_data_dir",
    "probe_database",
]


@dataclass(frozen=True)
class DatabaseState:
    """What is at the database path, found without writing anything."""

    kind: str
    """missing, empty (zero bytes), unreadable, or ok."""
    events: int = 0
    detail: str = ""


def probe_database(path: Path, *, pages: bool = False) -> DatabaseState:
    """Look at a database file read-only: is it there, a SQLite file, and how many
    events does its log hold; with `pages`, also whether every page reads
    (`PRAGMA quick_check`)."""
    if not path.exists():
        return DatabaseState("missing")
    try:
        with path.open("rb") as handle:
            head = handle.read(len(_SQLITE_MAGIC))
    except OSError as exc:
        return DatabaseState("unreadable", detail=exc.strerror or str(exc))
    if not head:
        return DatabaseState("empty")
    if head != _SQLITE_MAGIC:
        return DatabaseState("unreadable", detail="not a SQLite database")
    try:
        with read_only(path) as db:
            table = db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'"
            ).fetchone()
            count = db.execute("SELECT count(*) FROM events").fetchone()[0] if table else 0
            if pages:
                problems = [str(r[0]) for r in db.execute("PRAGMA quick_check(5)")]
                if problems != ["ok"]:
                    return DatabaseState("unreadable", detail="; ".join(problems)[:300])
    except (sqlite3.DatabaseError, StorageError) as exc:
        return DatabaseState("unreadable", detail=str(exc))
    return DatabaseState("ok", events=int(count))


def check_data_dir(data_dir: Path, *, pages: bool = False) -> bool:
    """Refuse a data directory that lost part of itself; True when it is new.

    Refused (StorageError, saying what to do): a missing, empty or unreadable
    database next to an existing log key file (the store had a log: starting
    empty would hide its loss), and a log with events whose key file is gone
    while MEMGATE_LOG_KEY is unset (a new key would chain new events under it
    and the old ones could never be verified). New: neither database nor key
    file. With the key in MEMGATE_LOG_KEY a missing database is taken as new:
    the environment cannot tell a first start from a lost file. With `pages`,
    a damaged page is refused here too (the store checks again when it opens)."""
    db = Path(data_dir) / DB_FILE
    key_file = Path(data_dir) / KEYS_DIR / LOG_KEY_FILE
    state = probe_database(db, pages=pages)
    fix = f"restore it from a backup, or run `memgate init --data-dir {data_dir}`"
    if state.kind in ("missing", "empty"):
        if key_file.exists():
            raise StorageError(
                f"refusing to start: the database {db} is {state.kind} but the log key"
                f" {key_file} exists, so this store had a log; {fix} to start a new,"
                " empty store (the old file is kept aside)"
            )
        return True
    if state.kind == "unreadable":
        raise StorageError(
            f"refusing to start: the database {db} is unreadable ({state.detail}); {fix}"
        )
    if state.events and not key_file.exists() and not os.environ.get(LOG_KEY_ENV):
        raise StorageError(
            f"refusing to start: the log in {db} holds {state.events} events but its key"
            f" {key_file} is missing; restore the key file (or set {LOG_KEY_ENV}). A new key"
            " would make the existing log unverifiable"
        )
    return False


@dataclass(frozen=True)
class InitReport:
    data_dir: Path
    created: tuple[str, ...]
    moved_aside: tuple[Path, ...]


async def init_data_dir(data_dir: Path, *, now: Callable[[], datetime] = utcnow) -> InitReport:
    """`memgate init`: make `data_dir` a working store. Creates what is missing
    (database, log key, fingerprint key, checkpoint signing key); an empty or
    unreadable database is moved aside (renamed, never deleted) and a new one
    created. Never replaces a readable log with events, and never makes a new
    key for one (StorageError): restore the key instead."""
    report, log_key, signer = _prepare(Path(data_dir), now)
    store = await SqliteStore.open(Path(data_dir) / DB_FILE, log_key, signer=signer)
    await store.close()
    return report


def _prepare(data_dir: Path, now: Callable[[], datetime]) -> tuple[InitReport, bytes, Signer]:
    db = data_dir / DB_FILE
    keys = data_dir / KEYS_DIR
    state = probe_database(db)
    key_known = (keys / LOG_KEY_FILE).exists() or bool(os.environ.get(LOG_KEY_ENV))
    if state.kind == "ok" and state.events and not key_known:
        raise StorageError(
            f"{db} holds a log of {state.events} events and its key {keys / LOG_KEY_FILE}"
            " is missing: restore the key; init never makes a new key for an existing log"
        )
    moved: list[Path] = []
    if state.kind in ("empty", "unreadable"):
        stamp = now().strftime("%Y%m%dT%H%M%SZ")
        for suffix in ("", "-wal", "-shm"):
            old = Path(str(db) + suffix)
            if old.exists():
                aside = old.with_name(f"{db.name}.broken-{stamp}{suffix}")
                old.rename(aside)
                moved.append(aside)
    created = [
        name
        for name, path in (
            ("database", db),
            ("log key", keys / LOG_KEY_FILE),
            ("fingerprint key", keys / FINGERPRINT_KEY_FILE),
            ("checkpoint signing key", keys / SIGNING_KEY_FILE),
        )
        if not path.exists()
    ]
    log_key = load_or_create_key(keys / LOG_KEY_FILE, env=LOG_KEY_ENV)
    load_or_create_key(keys / FINGERPRINT_KEY_FILE, env=FINGERPRINT_KEY_ENV)
    signer = load_or_create_signer(keys)
    return InitReport(data_dir, tuple(created), tuple(moved)), log_key, signer
