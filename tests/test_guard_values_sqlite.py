"""The ValueStore contract on SQLite: a data directory's file, and in memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from memgate.guard.values import ValueStore
from tests.contracts.value_store_contract import ValueStoreContract


class TestSqliteValueStore(ValueStoreContract):
    @pytest.fixture(autouse=True)
    def _dir(self, tmp_path: Path) -> None:
        self._path = tmp_path / "db" / "guard.sqlite3"

    def make(self) -> ValueStore:
        return ValueStore(self._path)


class TestMemoryValueStore(ValueStoreContract):
    def make(self) -> ValueStore:
        return ValueStore(":memory:")


def test_a_process_s_own_store_shares_no_window() -> None:
    store = ValueStore(":memory:")
    try:
        assert store.window_hits() is None
    finally:
        store.close()
