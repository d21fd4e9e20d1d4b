"""The whole tamper suite again, with verify on its parallel path (the log split
into ranges checked on threads, each chained to the stored MAC of the row before
it): it must name the same first bad sequence as the sequential walk. The
threshold is lowered so the 20-event template log takes that path."""

from __future__ import annotations

import pytest

import memgate.store.sqlite as sqlite_store
from tests import test_log_tamper as tamper


class TestParallelVerifyTamper(tamper.TestSqliteTamper):
    @pytest.fixture(autouse=True)
    def parallel(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sqlite_store, "PARALLEL_VERIFY_MIN", 5)
        monkeypatch.setattr(sqlite_store.os, "cpu_count", lambda: 3)  # 3 ranges: 1-7, 8-14, 15-20
