"""The vector indexes against the VectorIndex contract: the in-memory twin and
the SQLite table in the data directory (a real file per test)."""

from __future__ import annotations

from pathlib import Path

from memgate.domain.recall import VectorIndex
from memgate.recall import MemoryVectorIndex, SqliteVectorIndex
from tests.contracts.vector_index_contract import VectorIndexContract


class TestMemoryVectorIndex(VectorIndexContract):
    def open_index(self, directory: Path) -> VectorIndex:
        return MemoryVectorIndex()

    def reopen(self, index: VectorIndex, directory: Path) -> VectorIndex:
        return index


class TestSqliteVectorIndex(VectorIndexContract):
    persistent = True

    def open_index(self, directory: Path) -> VectorIndex:
        return SqliteVectorIndex(directory / "recall" / "vectors.sqlite3")

    def reopen(self, index: VectorIndex, directory: Path) -> VectorIndex:
        index.close()
        return SqliteVectorIndex(directory / "recall" / "vectors.sqlite3")


def test_sqlite_index_creates_no_file_until_used(tmp_path: Path) -> None:
    path = tmp_path / "recall" / "vectors.sqlite3"
    index = SqliteVectorIndex(path)
    index.close()
    assert not path.exists()
    index = SqliteVectorIndex(path)
    assert index.count() == 0
    index.close()
    assert path.exists()
