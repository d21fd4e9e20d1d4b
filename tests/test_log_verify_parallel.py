"""verify in parallel ranges (large logs) finds the same first bad sequence as
the sequential walk. The threshold is lowered so a 20-event log takes that path."""

from __future__ import annotations

import sqlite3

import pytest

import memgate.store.sqlite as sqlite_store
from memgate.domain.events import Checkpoint
from tests.contracts import KEY, run
from tests.test_log_tamper import Log, entry, log, tamper, template, verify

__all__ = ["log", "template"]  # fixtures used by name below


@pytest.fixture(autouse=True)
def parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_store, "PARALLEL_VERIFY_MIN", 5)


def test_untouched_log_verifies_in_parallel(log: Log) -> None:
    result = verify(log.path)
    assert result.ok
    assert result.checked == 20
    assert verify(log.path, log.middle).ok


@pytest.mark.parametrize("k", [1, 9, 10, 11, 20])
def test_flipped_byte_found_in_any_range(log: Log, k: int) -> None:
    def edit(db: sqlite3.Connection) -> None:
        blob = bytearray(entry(db, k))
        blob[len(blob) // 2] ^= 0x01
        db.execute("UPDATE events SET entry = ? WHERE seq = ?", (bytes(blob), k))

    tamper(log.path, edit)
    result = verify(log.path)
    assert not result.ok
    assert result.first_bad_seq == k


def test_truncated_tail_caught_by_checkpoint(log: Log) -> None:
    async def checkpoint() -> Checkpoint:
        store = await sqlite_store.SqliteStore.open(log.path, KEY)
        try:
            return await store.checkpoint()
        finally:
            await store.close()

    head = run(checkpoint())
    tamper(log.path, lambda db: db.execute("DELETE FROM events WHERE seq > 15"))
    result = verify(log.path)
    assert result.first_bad_seq is None  # the chain alone holds up to the cut
    assert {d.kind for d in result.divergences} <= {"stale_row", "orphan_row"}
    assert result.divergences  # rows projected from the cut events name the cut
    result = verify(log.path, head)
    assert not result.ok
    assert result.first_bad_seq == 16
