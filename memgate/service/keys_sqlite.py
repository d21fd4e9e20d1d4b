"""API keys (and UI sessions) in a data directory's SQLite file, db/keys.sqlite3:
the key store of a deployment on SQLite (one process per data directory).

    with SqliteKeyStore(data_dir / "db" / "keys.sqlite3") as keys:
        info, raw = keys.create("ci", "agent", [("acme",)])
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from memgate.errors import NotFound
from memgate.service.keys import (
    KEY_CACHE_SECONDS,
    KeyConflict,
    KeyRow,
    KeyStoreBase,
    Role,
    SessionRow,
)

__all__ = ["COLUMNS", "SqliteKeyStore", "read_key_rows"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    role        TEXT NOT NULL,
    namespaces  TEXT NOT NULL,
    key_hash    TEXT NOT NULL UNIQUE,
    hint        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    revoked_at  TEXT,
    sources     TEXT,
    guard_roles TEXT
);
CREATE TABLE IF NOT EXISTS ui_sessions (
    digest      TEXT PRIMARY KEY,
    key_id      TEXT NOT NULL,
    created     REAL NOT NULL,
    seen        REAL NOT NULL,
    body        TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ui_sessions_key ON ui_sessions (key_id);
"""
_MIGRATIONS = (
    # Keys made before sources were a property of the key: NULL = the role's default.
    ("sources", "ALTER TABLE api_keys ADD COLUMN sources TEXT"),
    # Keys made before guard roles were a property of the key: NULL = none held.
    ("guard_roles", "ALTER TABLE api_keys ADD COLUMN guard_roles TEXT"),
)
COLUMNS = "id, name, role, namespaces, hint, created_at, revoked_at, sources, guard_roles"
_SETTABLE = frozenset({"sources", "guard_roles"})


def read_key_rows(path: Path) -> list[tuple[Any, ...]]:
    """Every key of an SQLite key file, with its hash, read-only (the import into
    the PostgreSQL key store): (id, name, role, scopes, key_hash, hint,
    created_at, revoked_at, sources, guard_roles). [] when there is no file."""
    if not path.is_file():
        return []
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        have = {row[1] for row in db.execute("PRAGMA table_info(api_keys)")}
        if not have:
            return []
        extra = ", ".join(c if c in have else "NULL" for c in ("sources", "guard_roles"))
        return list(
            db.execute(
                "SELECT id, name, role, namespaces, key_hash, hint, created_at, revoked_at, "  # noqa: S608 - constant
                + extra
                + " FROM api_keys ORDER BY created_at, id"
            )
        )
    finally:
        db.close()


class SqliteKeyStore(KeyStoreBase):
    """API keys in their own SQLite file (data_dir/db/keys.sqlite3). Thread-safe."""

    def __init__(self, path: Path, *, cache_seconds: float = KEY_CACHE_SECONDS) -> None:
        super().__init__(cache_seconds=cache_seconds)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)
        self._migrate()
        self._lock = threading.Lock()

    def _migrate(self) -> None:
        """Add the columns newer versions keep to a key store made by an older one."""
        have = {row[1] for row in self._db.execute("PRAGMA table_info(api_keys)")}
        for column, sql in _MIGRATIONS:
            if column not in have:
                try:
                    self._db.execute(sql)
                except sqlite3.OperationalError as exc:
                    # NOTE: another process opening the same store may have added it.
                    if "duplicate column" not in str(exc):
                        raise

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _insert(self, row: KeyRow, *, only_if_empty: bool = False) -> bool:
        sql = (
            "INSERT INTO api_keys"
            " (id, name, role, namespaces, key_hash, hint, created_at, sources, guard_roles)"
        )
        with self._lock:
            if not only_if_empty:
                self._db.execute(sql + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
                return True
            cur = self._db.execute(
                sql + " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?"  # noqa: S608 - constants
                " WHERE NOT EXISTS (SELECT 1 FROM api_keys)",
                row,
            )
            return cur.rowcount == 1

    def _rows(self, key_id: str | None, *, include_revoked: bool) -> list[Sequence[Any]]:
        sql = f"SELECT {COLUMNS} FROM api_keys"  # noqa: S608 - constant column list
        params: tuple[str, ...] = ()
        if key_id is not None:
            sql += " WHERE id = ?"
            params = (key_id,)
        elif not include_revoked:
            sql += " WHERE revoked_at IS NULL"
        with self._lock:
            return list(self._db.execute(sql + " ORDER BY created_at, id", params).fetchall())

    def _active(self, digest: str) -> Sequence[Any] | None:
        with self._lock:
            row: Sequence[Any] | None = self._db.execute(
                "SELECT id, name, role, namespaces, sources, guard_roles FROM api_keys"
                " WHERE key_hash = ? AND revoked_at IS NULL",
                (digest,),
            ).fetchone()
        return row

    def _set(self, key_id: str, column: str, value: str) -> None:
        if column not in _SETTABLE:
            raise ValueError(f"cannot set {column}")
        with self._lock:
            self._db.execute(
                f"UPDATE api_keys SET {column} = ? WHERE id = ?",  # noqa: S608 - checked above
                (value, key_id),
            )

    def _revoke(self, key_id: str, at: datetime) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                row = self._db.execute(
                    "SELECT role, revoked_at FROM api_keys WHERE id = ?", (key_id,)
                ).fetchone()
                if row is None:
                    raise NotFound(f"no key {key_id}")
                if row[1] is None and row[0] == Role.ADMIN.value:
                    (admins,) = self._db.execute(
                        "SELECT count(*) FROM api_keys WHERE role = ? AND revoked_at IS NULL",
                        (Role.ADMIN.value,),
                    ).fetchone()
                    if admins <= 1:
                        raise KeyConflict(f"{key_id} is the last active admin key")
                self._db.execute(
                    "UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?",
                    (at.isoformat(), key_id),
                )
                self._db.execute("DELETE FROM ui_sessions WHERE key_id = ?", (key_id,))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def put_session(self, digest: str, key_id: str, row: SessionRow) -> None:
        body, created, seen = row
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO ui_sessions (digest, key_id, created, seen, body)"
                " VALUES (?, ?, ?, ?, ?)",
                (digest, key_id, created, seen, body),
            )

    def get_session(self, digest: str) -> SessionRow | None:
        with self._lock:
            row = self._db.execute(
                "SELECT body, created, seen FROM ui_sessions WHERE digest = ?", (digest,)
            ).fetchone()
        return None if row is None else (row[0], float(row[1]), float(row[2]))

    def end_session(self, digest: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM ui_sessions WHERE digest = ?", (digest,))

    def prune_sessions(self, idle_before: float, created_before: float) -> int:
        with self._lock:
            cur = self._db.execute(
                "DELETE FROM ui_sessions WHERE seen < ? OR created < ?",
                (idle_before, created_before),
            )
        return cur.rowcount
