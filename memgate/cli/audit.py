"""Local `memgate log verify` / `log checkpoint`: strictly read-only on the data
directory. No gateway is opened (opening one expires due short-term items,
which appends events), no lock file is written, the database is opened
read-only (immutable when no writer is running), so verifying can never change
what it verifies, and it may run beside a server on the same directory."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from memgate.client import MemgateClient
from memgate.domain.events import Checkpoint, VerifyResult
from memgate.errors import KeyFileError, StorageError
from memgate.log.chain import Columns, entry_json, event_columns
from memgate.log.integrity import (
    PUBLIC_KEY_FILE,
    SIGNING_KEY_FILE,
    load_or_create_signer,
    load_public_key,
    verify_public_rows,
)
from memgate.log.keys import load_key
from memgate.store.datadir import DB_FILE, KEYS_DIR, LOG_KEY_ENV, LOG_KEY_FILE
from memgate.store.sqlite import signed_checkpoint, verify_file
from memgate.store.sqlite_integrity import read_only, verify_public


def _database(data_dir: Path) -> Path:
    db = data_dir / DB_FILE
    if not db.is_file() or db.stat().st_size == 0:
        raise StorageError(f"no database to verify at {db}")
    return db


def verify_local(
    data_dir: Path, checkpoint: Checkpoint | None, since: Checkpoint | None = None
) -> VerifyResult:
    """The whole check with the log key: chain, projection rows, reads, and a
    signed checkpoint's signature (with `keys/checkpoint.pub`). With `since`,
    incremental: what came after that checkpoint (`verify_file(since=...)`)."""
    db = _database(data_dir)
    key = load_key(data_dir / KEYS_DIR / LOG_KEY_FILE, env=LOG_KEY_ENV)
    public = None
    public_path = data_dir / KEYS_DIR / PUBLIC_KEY_FILE
    if public_path.exists():
        public = load_public_key(public_path.read_bytes())
    return verify_file(db, key, checkpoint, public=public, since=since)


def verify_store(
    data_dir: Path, store_url: str, checkpoint: Checkpoint | None, since: Checkpoint | None = None
) -> VerifyResult:
    """`verify_local` on a PostgreSQL store (`--store`): the store alone is opened,
    no gateway (nothing expires, no event is appended); the log key from the data
    directory or MEMGATE_LOG_KEY, the checkpoint public key from keys/ when there.
    Opening migrates a database that needs it, as any replica would."""
    # NOTE: imported here so that memgate runs without the `postgres` extra.
    from memgate.store.postgres import PostgresStore

    keys = data_dir / KEYS_DIR
    key = load_key(keys / LOG_KEY_FILE, env=LOG_KEY_ENV)
    signer = load_or_create_signer(keys) if (keys / SIGNING_KEY_FILE).exists() else None

    async def go() -> VerifyResult:
        store = await PostgresStore.open(store_url, key, signer=signer, max_size=2)
        try:
            return await store.verify(checkpoint, since=since)
        finally:
            await store.close()

    return asyncio.run(go())


def verify_with_public_key(
    data_dir: Path, public_key: bytes, checkpoint: Checkpoint
) -> VerifyResult:
    """What an auditor with read access and the public key can check (no MAC key)."""
    public = load_public_key(public_key)
    db = _database(data_dir)
    try:
        with read_only(db) as conn:
            conn.execute("BEGIN")
            return verify_public(conn, public, checkpoint)
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"database {db} is unreadable: {exc}") from None


def verify_remote_with_public_key(
    client: MemgateClient, public_key: bytes, checkpoint: Checkpoint
) -> VerifyResult:
    """The same check over the server's log pages (`GET /v1/log`)."""
    public = load_public_key(public_key)

    def rows() -> Iterator[tuple[int, bytes, str, str, Columns]]:
        # NOTE: the entry bytes are the event as the server sends it, in canonical
        # JSON again: the same bytes the server hashed (a round trip is exact).
        after = 0
        while True:
            page = client.log_page(after_seq=after, limit=1000)
            for r in page.records:
                yield r.seq, entry_json(r.event), r.prev_mac, r.mac, event_columns(r.event)
            if page.next_after_seq is None:
                return
            after = page.next_after_seq

    return verify_public_rows(rows(), public, checkpoint)


def checkpoint_local(data_dir: Path) -> Checkpoint:
    """A signed checkpoint of the local log (read-only on the database; creates
    the signing key pair beside the log key if it is missing)."""
    db = _database(data_dir)
    keys = data_dir / KEYS_DIR
    key = load_key(keys / LOG_KEY_FILE, env=LOG_KEY_ENV)
    try:
        signer = load_or_create_signer(keys)
    except OSError as exc:
        raise KeyFileError(f"cannot create the signing key in {keys}: {exc.strerror}") from None
    point, _ = signed_checkpoint(db, key, signer)
    return point
