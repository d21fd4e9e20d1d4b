"""Which key store a service or command uses: the PostgreSQL store's database
when the store is PostgreSQL (shared by every replica), else the data
directory's SQLite key file.

    keys = open_keys(settings.keys_path, settings.store)
"""

from __future__ import annotations

from pathlib import Path

from memgate.bootstrap import POSTGRES_SCHEMES
from memgate.service.keys import KeyStoreBase
from memgate.service.keys_sqlite import SqliteKeyStore

__all__ = ["open_keys"]


def open_keys(keys_path: Path, store_url: str | None = None) -> KeyStoreBase:
    """The key store for a data directory's key file (`keys_path`) and store URL.
    On PostgreSQL the key file's keys are imported (memgate.service.keys_postgres:
    keys made before the store held them keep working)."""
    if store_url is not None and store_url.startswith(POSTGRES_SCHEMES):
        # NOTE: imported here so that memgate runs without the `postgres` extra.
        from memgate.service.keys_postgres import PostgresKeyStore

        return PostgresKeyStore.open(store_url, import_from=keys_path)
    return SqliteKeyStore(keys_path)
