"""The KeyStore contract on a data directory's SQLite key file; and what the file
holds: hashes, never a raw key."""

from __future__ import annotations

import tempfile
from pathlib import Path

from memgate.service.keys import KeyStoreBase
from memgate.service.keys_sqlite import SqliteKeyStore
from tests.contracts.key_store_contract import KeyStoreContract


class TestSqliteKeyStore(KeyStoreContract):
    def make(self, *, cache_seconds: float = 5.0) -> KeyStoreBase:
        folder = Path(tempfile.mkdtemp(prefix="mg-keys-"))
        return SqliteKeyStore(folder / "db" / "keys.sqlite3", cache_seconds=cache_seconds)


def test_the_file_holds_the_hash_never_the_key(tmp_path: Path) -> None:
    path = tmp_path / "keys.sqlite3"
    with SqliteKeyStore(path) as keys:
        _, raw = keys.create("ci", "agent")
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert raw.encode() not in data
    assert raw[len("mgk_") + 4 :].encode() not in data
