"""The tamper suite (tests/contracts/tamper_contract.py) on a real SQLite log
file, as an attacker with file access would: drop the append-only triggers,
edit rows with sqlite3, then see what `verify` names."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from memgate.domain.events import Checkpoint, Event, VerifyResult
from memgate.store.sqlite import SqliteStore
from tests.contracts import KEY, run
from tests.contracts.tamper_contract import Editor, TamperContract, write_template


class _SqliteEditor:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self._db.execute(sql, tuple(params))

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return list(self._db.execute(sql, tuple(params)).fetchall())


@dataclass(frozen=True)
class SqliteLog:
    path: Path
    middle: Checkpoint
    head: Checkpoint

    def tamper(self, edit: Callable[[Editor], None]) -> None:
        db = sqlite3.connect(self.path)
        try:
            db.execute("DROP TRIGGER events_no_update")
            db.execute("DROP TRIGGER events_no_delete")
            edit(_SqliteEditor(db))
            db.commit()
        finally:
            db.close()

    def verify(self, checkpoint: Checkpoint | None = None) -> VerifyResult:
        async def go() -> VerifyResult:
            store = await SqliteStore.open(self.path, KEY)
            try:
                return await store.verify(checkpoint)
            finally:
                await store.close()

        return run(go())

    def append(self, events: list[Event]) -> None:
        async def go() -> None:
            store = await SqliteStore.open(self.path, KEY)
            try:
                await store.append(events)
            finally:
                await store.close()

        run(go())


class TestSqliteTamper(TamperContract):
    @classmethod
    def build_template(cls, factory: pytest.TempPathFactory) -> SqliteLog:
        path = factory.mktemp("template") / "memgate.db"

        async def write() -> tuple[Checkpoint, Checkpoint]:
            store = await SqliteStore.open(path, KEY)
            try:
                return await write_template(store)
            finally:
                await store.close()

        return SqliteLog(path, *run(write()))

    def copy(self, template: Any, tmp_path: Path) -> SqliteLog:
        path = tmp_path / "memgate.db"
        shutil.copyfile(template.path, path)
        return SqliteLog(path, template.middle, template.head)
