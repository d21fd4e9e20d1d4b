"""API keys (and UI sessions) in the PostgreSQL store's database, shared by every
replica: a key created, changed or revoked through one replica is so on all.

    keys = PostgresKeyStore.open("postgresql://user@host/memgate",
                                 import_from=data_dir / "db" / "keys.sqlite3")

Its tables come from the store's migrations (schema/postgres/003_*.sql), applied
here too when the key store opens first (`memgate serve` makes the first admin
key before the gateway opens). Authentication is served from a per-replica cache
(`KEY_CACHE_SECONDS`); every change NOTIFYs `memgate_keys`, and each replica's
listener thread drops its cache when one arrives, so a revoked key stops working
everywhere within milliseconds, and within the cache's TTL on a replica whose
listening connection was down.

Migration from per-data-directory keys: `import_from` names the data directory's
SQLite key file; its keys (their hashes: raw keys are never stored anywhere) are
copied in once, by id, and an import never un-revokes a key (a key revoked in
either place stays revoked).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg

from memgate.errors import NotFound, StorageError
from memgate.service.keys import (
    KEY_CACHE_SECONDS,
    KeyConflict,
    KeyRow,
    KeyStoreBase,
    Role,
    SessionRow,
)
from memgate.service.keys_sqlite import read_key_rows
from memgate.store.postgres import _migrate, where

__all__ = ["CHANNEL", "PostgresKeyStore"]

log = logging.getLogger("memgate.service")
CHANNEL = "memgate_keys"
_LOCK = "memgate:api_keys"
_COLUMNS = "id, name, role, namespaces, hint, created_at, revoked_at, sources, guard_roles"
_SETTABLE = frozenset({"sources", "guard_roles"})
_INSERT = (
    "INSERT INTO api_keys"
    " (id, name, role, namespaces, key_hash, hint, created_at, sources, guard_roles)"
)
_IMPORT = (
    "INSERT INTO api_keys (id, name, role, namespaces, key_hash, hint, created_at, revoked_at,"
    " sources, guard_roles) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
    " ON CONFLICT (id) DO UPDATE SET revoked_at = coalesce(api_keys.revoked_at,"
    " excluded.revoked_at)"
)


def _migrated(url: str) -> None:
    """The store's migrations (on a thread of its own: the caller may or may not be
    on an event loop)."""

    async def go() -> None:
        conn = await psycopg.AsyncConnection.connect(url, autocommit=True, connect_timeout=10)
        try:
            await _migrate(conn)
        finally:
            await conn.close()

    with ThreadPoolExecutor(1, thread_name_prefix="memgate-keys-migrate") as pool:
        pool.submit(asyncio.run, go()).result()


class PostgresKeyStore(KeyStoreBase):
    """Key store on the database at `url` (the store's). Thread-safe: one
    connection under a lock (keys are read on cache misses only), and one more
    that LISTENs for other replicas' changes."""

    def __init__(self, url: str, *, cache_seconds: float = KEY_CACHE_SECONDS) -> None:
        super().__init__(cache_seconds=cache_seconds)
        self._url = url
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._conn = self._connect()
        self._listening = threading.Event()
        self._listener = threading.Thread(
            target=self._listen, name="memgate-keys-listen", daemon=True
        )
        self._listener.start()
        self._listening.wait(10)

    @classmethod
    def open(
        cls,
        url: str,
        *,
        import_from: Path | None = None,
        cache_seconds: float = KEY_CACHE_SECONDS,
    ) -> PostgresKeyStore:
        """Migrate the database if it needs it, connect, and import the keys of an
        SQLite key file (`import_from`, see the module docstring)."""
        try:
            _migrated(url)
        except psycopg.Error as exc:
            raise StorageError(
                f"keys: PostgreSQL at {where(url)} is unreachable ({exc.__class__.__name__})"
            ) from None
        store = cls(url, cache_seconds=cache_seconds)
        if import_from is not None:
            store.import_rows(read_key_rows(import_from))
        return store

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            return psycopg.connect(self._url, autocommit=True, connect_timeout=10)
        except psycopg.Error as exc:
            raise StorageError(
                f"keys: PostgreSQL at {where(self._url)} is unreachable ({exc.__class__.__name__})"
            ) from None

    def _listen(self) -> None:
        """Drop the cache on every change NOTIFYd by any replica; a lost connection
        is opened again (the cache's TTL covers the gap)."""
        while not self._closed.is_set():
            try:
                conn = psycopg.connect(self._url, autocommit=True, connect_timeout=10)
            except psycopg.Error:
                self._listening.set()
                self._closed.wait(1.0)
                continue
            try:
                conn.execute(f"LISTEN {CHANNEL}")
                self.invalidate()  # whatever changed while not listening
                self._listening.set()
                while not self._closed.is_set():
                    for _ in conn.notifies(timeout=0.5, stop_after=1):
                        self.invalidate()
            except psycopg.Error:
                self._closed.wait(0.2)
            finally:
                with contextlib.suppress(psycopg.Error):
                    conn.close()

    def close(self) -> None:
        self._closed.set()
        self._listener.join(5)
        with self._lock:
            self._conn.close()

    def _run(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, list[Any]]:
        with self._lock:
            for attempt in (1, 2):
                try:
                    cur = self._conn.execute(sql, params)
                    rows = list(cur.fetchall()) if cur.description else []
                    return cur.rowcount, rows
                except psycopg.OperationalError:
                    if attempt == 2 or not self._conn.closed:
                        raise StorageError("keys: the PostgreSQL connection failed") from None
                    self._conn = self._connect()  # a dropped connection: once more
                except psycopg.Error as exc:
                    raise StorageError(f"keys: {exc.__class__.__name__}") from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _changed(self) -> None:
        self._run(f"NOTIFY {CHANNEL}")

    def import_rows(self, rows: Sequence[Sequence[Any]]) -> int:
        """Copy keys read from an SQLite key file (`read_key_rows`) in: new ids are
        added, a revocation there revokes here; nothing is un-revoked. Returns how
        many rows were looked at."""
        if not rows:
            return 0
        with self._lock, self._conn.transaction():
            self._conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (_LOCK,))
            with self._conn.cursor() as cur:
                cur.executemany(_IMPORT, [tuple(r) for r in rows])
        self._after_change()
        return len(rows)

    def _insert(self, row: KeyRow, *, only_if_empty: bool = False) -> bool:
        if not only_if_empty:
            self._run(_INSERT + " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)", row)
            return True
        with self._lock, self._conn.transaction():
            self._conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (_LOCK,))
            cur = self._conn.execute(
                _INSERT + " SELECT %s, %s, %s, %s, %s, %s, %s, %s, %s"  # noqa: S608 - constants
                " WHERE NOT EXISTS (SELECT 1 FROM api_keys)",
                row,
            )
            return cur.rowcount == 1

    def _rows(self, key_id: str | None, *, include_revoked: bool) -> list[Sequence[Any]]:
        sql = f"SELECT {_COLUMNS} FROM api_keys"  # noqa: S608 - constant column list
        params: tuple[str, ...] = ()
        if key_id is not None:
            sql += " WHERE id = %s"
            params = (key_id,)
        elif not include_revoked:
            sql += " WHERE revoked_at IS NULL"
        return self._run(sql + " ORDER BY created_at, id", params)[1]

    def _active(self, digest: str) -> Sequence[Any] | None:
        _, rows = self._run(
            "SELECT id, name, role, namespaces, sources, guard_roles FROM api_keys"
            " WHERE key_hash = %s AND revoked_at IS NULL",
            (digest,),
        )
        return rows[0] if rows else None

    def _set(self, key_id: str, column: str, value: str) -> None:
        if column not in _SETTABLE:
            raise ValueError(f"cannot set {column}")
        self._run(
            f"UPDATE api_keys SET {column} = %s WHERE id = %s",  # noqa: S608 - checked above
            (value, key_id),
        )

    def _revoke(self, key_id: str, at: datetime) -> None:
        try:
            with self._lock, self._conn.transaction():
                self._conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (_LOCK,))
                row = self._conn.execute(
                    "SELECT role, revoked_at FROM api_keys WHERE id = %s", (key_id,)
                ).fetchone()
                if row is None:
                    raise NotFound(f"no key {key_id}")
                if row[1] is None and row[0] == Role.ADMIN.value:
                    found = self._conn.execute(
                        "SELECT count(*) FROM api_keys WHERE role = %s AND revoked_at IS NULL",
                        (Role.ADMIN.value,),
                    ).fetchone()
                    if found is None or found[0] <= 1:
                        raise KeyConflict(f"{key_id} is the last active admin key")
                self._conn.execute(
                    "UPDATE api_keys SET revoked_at = coalesce(revoked_at, %s) WHERE id = %s",
                    (at, key_id),
                )
                self._conn.execute("DELETE FROM ui_sessions WHERE key_id = %s", (key_id,))
        except psycopg.Error as exc:
            raise StorageError(f"keys: {exc.__class__.__name__}") from None

    def put_session(self, digest: str, key_id: str, row: SessionRow) -> None:
        body, created, seen = row
        self._run(
            "INSERT INTO ui_sessions (digest, key_id, created, seen, body)"
            " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (digest) DO UPDATE"
            " SET seen = excluded.seen, body = excluded.body",
            (digest, key_id, created, seen, body),
        )

    def get_session(self, digest: str) -> SessionRow | None:
        _, rows = self._run(
            "SELECT body, created, seen FROM ui_sessions WHERE digest = %s", (digest,)
        )
        return None if not rows else (rows[0][0], float(rows[0][1]), float(rows[0][2]))

    def end_session(self, digest: str) -> None:
        self._run("DELETE FROM ui_sessions WHERE digest = %s", (digest,))

    def prune_sessions(self, idle_before: float, created_before: float) -> int:
        count, _ = self._run(
            "DELETE FROM ui_sessions WHERE seen < %s OR created < %s", (idle_before, created_before)
        )
        return count
