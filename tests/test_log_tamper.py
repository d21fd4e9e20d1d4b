"""Tampering with a real SQLite log file, as an attacker with file access would:
drop the append-only triggers, edit rows with sqlite3, then see what `verify`
names. Without the key every edit is caught at its row; with the key only an
exported checkpoint catches the rewrite."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from memgate.domain.events import Checkpoint, VerifyResult, canonical_json
from memgate.log.chain import GENESIS, column_bytes, mac
from memgate.store.sqlite import SqliteStore
from tests.contracts import KEY, OTHER_KEY, run
from tests.contracts.log_contract import some_events

N = 20


@dataclass(frozen=True)
class Log:
    path: Path
    middle: Checkpoint
    """Exported after event 10."""
    head: Checkpoint
    """Exported after event 20, before any tampering."""


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Log:
    path = tmp_path_factory.mktemp("template") / "memgate.db"

    async def write() -> tuple[Checkpoint, Checkpoint]:
        store = await SqliteStore.open(path, KEY)
        try:
            events = some_events(N, memory_ids=4)
            for event in events[:10]:
                await store.append([event])
            middle = await store.checkpoint()
            await store.append(events[10:])
            return middle, await store.checkpoint()
        finally:
            await store.close()

    middle, head = run(write())
    assert (middle.seq, head.seq) == (10, N)
    return Log(path, middle, head)


@pytest.fixture
def log(template: Log, tmp_path: Path) -> Log:
    """A private copy of the 20-event log."""
    path = tmp_path / "memgate.db"
    shutil.copyfile(template.path, path)
    return Log(path, template.middle, template.head)


def tamper(path: Path, edit: Callable[[sqlite3.Connection], None]) -> None:
    db = sqlite3.connect(path)
    try:
        db.execute("DROP TRIGGER events_no_update")
        db.execute("DROP TRIGGER events_no_delete")
        edit(db)
        db.commit()
    finally:
        db.close()


def verify(path: Path, checkpoint: Checkpoint | None = None) -> VerifyResult:
    async def go() -> VerifyResult:
        store = await SqliteStore.open(path, KEY)
        try:
            return await store.verify(checkpoint)
        finally:
            await store.close()

    return run(go())


def entry(db: sqlite3.Connection, seq: int) -> bytes:
    row = db.execute("SELECT entry FROM events WHERE seq = ?", (seq,)).fetchone()
    return bytes(row[0])


def rechain(db: sqlite3.Connection, start: int, key: bytes) -> None:
    """Recompute prev_mac and mac of every row from `start` on, with `key`."""
    prev = GENESIS
    if start > 1:
        prev = db.execute("SELECT mac FROM events WHERE seq = ?", (start - 1,)).fetchone()[0]
    rows = db.execute(
        "SELECT seq, entry, at, memory_id, op, actor, reason, state_before, state_after, summary"
        " FROM events WHERE seq >= ? ORDER BY seq",
        (start,),
    ).fetchall()
    for seq, blob, *columns in rows:
        new = mac(key, prev, seq, bytes(blob), column_bytes(tuple(columns)))  # type: ignore[arg-type]
        db.execute("UPDATE events SET prev_mac = ?, mac = ? WHERE seq = ?", (prev, new, seq))
        prev = new


def rewrite_actor(db: sqlite3.Connection, seq: int, actor: str) -> None:
    """Change who did event `seq`, in the MACed entry and its column alike."""
    data = json.loads(entry(db, seq))
    data["actor"] = actor
    db.execute(
        "UPDATE events SET entry = ?, actor = ? WHERE seq = ?", (canonical_json(data), actor, seq)
    )


def assert_bad(result: VerifyResult, seq: int) -> None:
    assert not result.ok
    assert result.first_bad_seq == seq, result.reason
    assert result.reason
    assert result.checked == seq - 1
    assert result.last_seq == seq - 1


SEQS = [1, 2, 10, 19, N]


def test_untouched_copy_verifies(log: Log) -> None:
    assert verify(log.path).ok
    assert verify(log.path, log.middle).ok
    assert verify(log.path, log.head).ok


@pytest.mark.parametrize("k", SEQS)
@pytest.mark.parametrize("offset", [0, 0.5, -1])
def test_flipped_byte_in_entry(log: Log, k: int, offset: float) -> None:
    def edit(db: sqlite3.Connection) -> None:
        blob = bytearray(entry(db, k))
        blob[int(len(blob) * offset)] ^= 0x01
        db.execute("UPDATE events SET entry = ? WHERE seq = ?", (bytes(blob), k))

    tamper(log.path, edit)
    assert_bad(verify(log.path), k)


@pytest.mark.parametrize("k", SEQS)
@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("op", "deleted"),
        ("actor", "mallory"),
        ("state_after", "rejected"),
        ("state_before", "pending_review"),
        ("memory_id", "mem-other"),
        ("reason", "approved by admin"),
        ("at", "2020-01-01T00:00:00+00:00"),
        ("summary", '{"rules": [], "rules_version": "x", "trust_score": 1.0}'),
    ],
)
def test_edited_column(log: Log, k: int, column: str, value: str) -> None:
    tamper(
        log.path,
        lambda db: db.execute(f"UPDATE events SET {column} = ? WHERE seq = ?", (value, k)),  # noqa: S608
    )
    result = verify(log.path)
    assert_bad(result, k)
    assert column in (result.reason or "")


@pytest.mark.parametrize("k", [1, 2, 10, 19])
def test_deleted_row(log: Log, k: int) -> None:
    tamper(log.path, lambda db: db.execute("DELETE FROM events WHERE seq = ?", (k,)))
    result = verify(log.path)
    assert_bad(result, k)
    assert "missing" in (result.reason or "")


@pytest.mark.parametrize(("j", "k"), [(1, 2), (3, 17), (19, N), (1, N)])
def test_swapped_entries(log: Log, j: int, k: int) -> None:
    def edit(db: sqlite3.Connection) -> None:
        a, b = entry(db, j), entry(db, k)
        db.execute("UPDATE events SET entry = ? WHERE seq = ?", (b, j))
        db.execute("UPDATE events SET entry = ? WHERE seq = ?", (a, k))

    tamper(log.path, edit)
    assert_bad(verify(log.path), j)


def test_truncated_tail_is_caught_by_a_checkpoint_and_by_the_rows_it_left(log: Log) -> None:
    tamper(log.path, lambda db: db.execute("DELETE FROM events WHERE seq > ?", (N - 5,)))
    result = verify(log.path)
    # The chain alone is consistent up to the cut...
    assert (result.checked, result.last_seq, result.first_bad_seq) == (N - 5, N - 5, None)
    # ...but the served rows were projected from events that are gone.
    assert not result.ok
    assert result.divergences
    assert {d.table for d in result.divergences} == {"items"}
    assert {d.kind for d in result.divergences} <= {"orphan_row", "stale_row"}
    result = verify(log.path, log.middle)
    assert result.first_bad_seq is None
    result = verify(log.path, log.head)
    assert not result.ok
    assert result.first_bad_seq == N - 4
    assert "truncated" in (result.reason or "")


def test_truncated_tail_then_new_appends_diverge_from_the_checkpoint(log: Log) -> None:
    """Cut the tail, then let the store append again: the sequence numbers come
    back, but the MAC at the checkpoint's seq is not the one exported."""
    tamper(log.path, lambda db: db.execute("DELETE FROM events WHERE seq > ?", (N - 5,)))

    async def append_more() -> None:
        store = await SqliteStore.open(log.path, KEY)
        try:
            await store.append(some_events(5))
        finally:
            await store.close()

    run(append_more())
    result = verify(log.path)
    assert result.first_bad_seq is None  # the chain is consistent again
    # rows bound to the cut events no longer match the events now at their seq
    assert any(d.kind == "stale_row" or d.kind == "orphan_row" for d in result.divergences)
    result = verify(log.path, log.head)
    assert not result.ok
    assert result.first_bad_seq == N
    assert "checkpoint" in (result.reason or "")


@pytest.mark.parametrize("k", SEQS)
def test_rechained_with_a_wrong_key(log: Log, k: int) -> None:
    def edit(db: sqlite3.Connection) -> None:
        rewrite_actor(db, k, "mallory")
        rechain(db, k, OTHER_KEY)

    tamper(log.path, edit)
    assert_bad(verify(log.path), k)


@pytest.mark.parametrize("k", SEQS)
def test_rechained_with_the_right_key_is_caught_by_a_checkpoint(log: Log, k: int) -> None:
    def edit(db: sqlite3.Connection) -> None:
        rewrite_actor(db, k, "mallory")
        rechain(db, k, KEY)

    tamper(log.path, edit)
    # The attacker holds the key: the chain itself is consistent again (rows bound
    # to the old MACs show as stale unless the attacker re-seals them too)...
    result = verify(log.path)
    assert result.first_bad_seq is None
    assert {d.kind for d in result.divergences} <= {"stale_row"}
    # ...but it no longer extends the checkpoint exported before the rewrite.
    result = verify(log.path, log.head)
    assert not result.ok
    assert result.first_bad_seq == log.head.seq
    assert "checkpoint" in (result.reason or "")
    # A checkpoint from before the rewritten row still holds.
    assert (verify(log.path, log.middle).first_bad_seq is None) is (k > log.middle.seq)


def test_rechained_untouched_with_the_right_key_still_verifies(log: Log) -> None:
    """Recomputing the MACs without changing anything reproduces them exactly."""
    tamper(log.path, lambda db: rechain(db, 1, KEY))
    assert verify(log.path).ok
    assert verify(log.path, log.head).ok
