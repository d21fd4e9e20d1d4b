"""The GuardState contract on the local twin: windows, depth and breaker in
process memory, trust counters and pins in the guard's SQLite (a data
directory's file, and in memory)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memgate.guard.state import GuardState, LocalGuardState
from memgate.guard.values import ValueStore
from tests.contracts.guard_state_contract import BURST, GuardStateContract


class TestLocalGuardState(GuardStateContract):
    @pytest.fixture(autouse=True)
    def _values(self, tmp_path: Path) -> Iterator[None]:
        self._opened: list[ValueStore] = []
        self._path = tmp_path / "db" / "guard.sqlite3"
        yield
        for values in self._opened:
            values.close()

    def make(self) -> GuardState:
        values = ValueStore(self._path)
        self._opened.append(values)
        return LocalGuardState(values, BURST)


class TestInMemoryGuardState(GuardStateContract):
    @pytest.fixture(autouse=True)
    def _values(self) -> Iterator[None]:
        self._opened: list[ValueStore] = []
        yield
        for values in self._opened:
            values.close()

    def make(self) -> GuardState:
        values = ValueStore(":memory:")
        self._opened.append(values)
        return LocalGuardState(values, BURST)
