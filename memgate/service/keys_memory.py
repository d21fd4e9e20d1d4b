"""The key store's in-memory twin: the same rules as the SQLite and PostgreSQL
backends, for tests and throwaway apps (nothing survives the process).

    keys = MemoryKeyStore()
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import datetime
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

__all__ = ["MemoryKeyStore"]


class MemoryKeyStore(KeyStoreBase):
    """Keys and UI sessions in dicts, under one lock."""

    def __init__(self, *, cache_seconds: float = KEY_CACHE_SECONDS) -> None:
        super().__init__(cache_seconds=cache_seconds)
        self._lock = threading.Lock()
        # id -> [id, name, role, scopes, key_hash, hint, created_at, revoked_at, sources, roles]
        self._keys: dict[str, list[Any]] = {}
        self._sessions: dict[str, tuple[str, SessionRow]] = {}

    def close(self) -> None:
        """Nothing to release."""

    def _insert(self, row: KeyRow, *, only_if_empty: bool = False) -> bool:
        with self._lock:
            if only_if_empty and self._keys:
                return False
            if row[0] in self._keys or any(k[4] == row[4] for k in self._keys.values()):
                raise ValueError("duplicate key")
            key_id, name, role, scopes, digest, hint, created, sources, roles = row
            self._keys[key_id] = [key_id, name, role, scopes, digest, hint, created, None,
                                  sources, roles]  # fmt: skip
            return True

    @staticmethod
    def _listed(k: list[Any]) -> tuple[Any, ...]:
        return (k[0], k[1], k[2], k[3], k[5], k[6], k[7], k[8], k[9])

    def _rows(self, key_id: str | None, *, include_revoked: bool) -> list[Sequence[Any]]:
        with self._lock:
            if key_id is not None:
                found = self._keys.get(key_id)
                return [] if found is None else [self._listed(found)]
            keys = sorted(self._keys.values(), key=lambda k: (k[6], k[0]))
            return [self._listed(k) for k in keys if include_revoked or k[7] is None]

    def _active(self, digest: str) -> Sequence[Any] | None:
        with self._lock:
            for k in self._keys.values():
                if k[4] == digest and k[7] is None:
                    return (k[0], k[1], k[2], k[3], k[8], k[9])
        return None

    def _set(self, key_id: str, column: str, value: str) -> None:
        index = {"sources": 8, "guard_roles": 9}[column]
        with self._lock:
            if key_id in self._keys:
                self._keys[key_id][index] = value

    def _revoke(self, key_id: str, at: datetime) -> None:
        with self._lock:
            found = self._keys.get(key_id)
            if found is None:
                raise NotFound(f"no key {key_id}")
            if found[7] is None and found[2] == Role.ADMIN.value:
                admins = sum(
                    1 for k in self._keys.values() if k[2] == Role.ADMIN.value and k[7] is None
                )
                if admins <= 1:
                    raise KeyConflict(f"{key_id} is the last active admin key")
            if found[7] is None:
                found[7] = at.isoformat()
            for digest, (owner, _) in list(self._sessions.items()):
                if owner == key_id:
                    del self._sessions[digest]

    def put_session(self, digest: str, key_id: str, row: SessionRow) -> None:
        with self._lock:
            self._sessions[digest] = (key_id, row)

    def get_session(self, digest: str) -> SessionRow | None:
        with self._lock:
            found = self._sessions.get(digest)
        return None if found is None else found[1]

    def end_session(self, digest: str) -> None:
        with self._lock:
            self._sessions.pop(digest, None)

    def prune_sessions(self, idle_before: float, created_before: float) -> int:
        with self._lock:
            gone = [
                d
                for d, (_, (_, created, seen)) in self._sessions.items()
                if seen < idle_before or created < created_before
            ]
            for digest in gone:
                del self._sessions[digest]
        return len(gone)
