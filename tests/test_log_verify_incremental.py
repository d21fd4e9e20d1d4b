"""Incremental verify (`SqliteStore.verify(since=checkpoint)`): from a checkpoint
an earlier verify vouched for, only what came after it is checked, and every
tampering after it (or with the checkpoint's own event) is still named."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from memgate.domain.events import Checkpoint, VerifyResult
from memgate.store.sqlite import SqliteStore
from tests import test_log_tamper as tamper
from tests.contracts import KEY, run
from tests.contracts.log_contract import some_events
from tests.contracts.tamper_contract import Editor, entry, rechain
from tests.test_log_tamper import SqliteLog


class _Logs(tamper.TestSqliteTamper):
    """Only for its template log (20 events, checkpoints after 10 and 20)."""


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> SqliteLog:
    return _Logs.build_template(tmp_path_factory)


@pytest.fixture
def log(template: SqliteLog, tmp_path: Path) -> SqliteLog:
    return _Logs().copy(template, tmp_path)


def since(log: SqliteLog, point: Checkpoint, checkpoint: Checkpoint | None = None) -> VerifyResult:
    async def go() -> VerifyResult:
        store = await SqliteStore.open(log.path, KEY)
        try:
            return await store.verify(checkpoint, since=point)
        finally:
            await store.close()

    return run(go())


def test_only_what_came_after_the_checkpoint_is_checked(log: SqliteLog) -> None:
    result = since(log, log.middle)
    assert result.ok, result.reason
    assert result.checked == log.head.seq - log.middle.seq == 10
    assert result.last_seq == log.head.seq
    assert result.scope and "incremental" in result.scope
    assert 0 < result.rows_checked <= 4  # the memories the last 10 events touched
    assert result.reads_checked == 0
    assert since(log, log.head).checked == 0  # nothing new: nothing to do
    assert since(log, log.head).ok


@pytest.mark.parametrize("k", [11, 15, 20])
def test_a_flipped_byte_after_the_checkpoint_is_named(log: SqliteLog, k: int) -> None:
    def edit(db: Editor) -> None:
        blob = bytearray(entry(db, k))
        blob[len(blob) // 2] ^= 0x01
        db.execute("UPDATE events SET entry = ? WHERE seq = ?", (bytes(blob), k))

    log.tamper(edit)
    result = since(log, log.middle)
    assert not result.ok
    assert result.first_bad_seq == k


def test_a_rewritten_checkpoint_event_is_named_even_rechained(log: SqliteLog) -> None:
    """Someone with the key rewrites event 10 and rechains everything after it:
    each row holds its MAC, but event 10 no longer carries the checkpoint's."""

    def edit(db: Editor) -> None:
        data = json.loads(entry(db, 10))
        data["actor"] = "mallory"
        blob = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
        db.execute("UPDATE events SET entry = ?, actor = ? WHERE seq = 10", (blob, "mallory"))
        rechain(db, 10, KEY)

    log.tamper(edit)
    result = since(log, log.middle)
    assert not result.ok
    assert result.first_bad_seq == 10
    assert "diverges from the checkpoint" in (result.reason or "")


def test_a_log_cut_below_the_checkpoint_is_named(log: SqliteLog) -> None:
    log.tamper(lambda db: db.execute("DELETE FROM events WHERE seq > 8"))
    result = since(log, log.middle)
    assert not result.ok
    assert result.first_bad_seq == 10
    assert "truncated" in (result.reason or "")


def test_a_cut_tail_after_the_checkpoint_is_caught_by_a_later_checkpoint(
    log: SqliteLog,
) -> None:
    log.tamper(lambda db: db.execute("DELETE FROM events WHERE seq > 15"))
    result = since(log, log.middle, log.head)
    assert not result.ok
    assert result.first_bad_seq == 16


def test_an_edited_row_of_a_memory_touched_since_is_named(log: SqliteLog) -> None:
    (memory_id,) = [
        r[0]
        for r in sqlite3.connect(log.path).execute("SELECT memory_id FROM events WHERE seq = 20")
    ]
    db = sqlite3.connect(log.path)
    try:
        db.execute("UPDATE items SET content = 'edited' WHERE id = ?", (memory_id,))
        db.execute("UPDATE short_items SET body = body || ' ' WHERE id = ?", (memory_id,))
        db.commit()
    finally:
        db.close()
    result = since(log, log.middle)
    assert not result.ok
    assert result.divergence_count >= 1
    assert any(d.id == memory_id for d in result.divergences)


def test_a_row_that_claims_a_later_event_is_checked(log: SqliteLog) -> None:
    """A row moved onto an event after the checkpoint is looked at, whoever it is."""
    db = sqlite3.connect(log.path)
    try:
        row = db.execute("SELECT id FROM items ORDER BY id LIMIT 1").fetchone()
        table = "items"
        if row is None:
            row = db.execute("SELECT id FROM short_items ORDER BY id LIMIT 1").fetchone()
            table = "short_items"
        assert row is not None
        db.execute(f"UPDATE {table} SET event_seq = 19 WHERE id = ?", (row[0],))  # noqa: S608
        db.commit()
    finally:
        db.close()
    result = since(log, log.middle)
    assert not result.ok
    assert any(d.id == row[0] for d in result.divergences)


def test_a_forged_signed_checkpoint_is_refused(log: SqliteLog) -> None:
    # NOTE: each open makes a fresh signing key unless one is given; sign and
    # verify with the same store so the signature is the store's own.
    async def go() -> tuple[VerifyResult, VerifyResult]:
        store = await SqliteStore.open(log.path, KEY)
        try:
            point = await store.export_checkpoint()
            await store.append(some_events(3, memory_ids=2))
            good = await store.verify(since=point)
            forged = point.model_copy(update={"seq": point.seq - 1})
            return good, await store.verify(since=forged)
        finally:
            await store.close()

    good, forged = run(go())
    assert good.ok and good.checked == 3 and good.signature_ok is True
    assert not forged.ok and forged.signature_ok is False
