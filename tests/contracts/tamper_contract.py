"""The tamper suite: what `verify` names when someone with write access to the
database edits the log behind memgate's back, on every SQL backend.

A backend's test module subclasses `TamperContract` and supplies how to build
the 20-event template log once (`build_template`, with `write_template`), how to
give each test a private copy of it (`copy`), and through the copy: an editor
with the append-only guard off (SQLite: the triggers dropped; PostgreSQL:
triggers skipped for the session), the store's own `verify`, and appends.
Without the key every edit is caught at its row; with the key only a
checkpoint exported before catches the rewrite.

SQL in the edits uses `?` placeholders; the backend's editor translates them.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import pytest

from memgate.domain.events import Checkpoint, Event, VerifyResult, canonical_json
from memgate.domain.ports import Store
from memgate.log.chain import GENESIS, column_bytes, mac
from tests.contracts import KEY, OTHER_KEY
from tests.contracts.log_contract import some_events

N = 20


class Editor(Protocol):
    """A raw connection to the store's database, as an attacker would hold one."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None: ...

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...


class TamperLog(Protocol):
    """A private copy of the template log."""

    middle: Checkpoint
    head: Checkpoint

    def tamper(self, edit: Callable[[Editor], None]) -> None:
        """Run `edit` with the append-only guard off and commit it."""
        ...

    def verify(self, checkpoint: Checkpoint | None = None) -> VerifyResult:
        """Open the store on the copy and verify it (the store's own `verify`)."""
        ...

    def append(self, events: list[Event]) -> None:
        """Open the store on the copy and append `events`."""
        ...


async def write_template(store: Store) -> tuple[Checkpoint, Checkpoint]:
    """The template log: 20 events over 4 memories, the first 10 one commit each;
    returns the checkpoints after event 10 and after event 20."""
    events = some_events(N, memory_ids=4)
    for event in events[:10]:
        await store.append([event])
    middle = await store.checkpoint()
    await store.append(events[10:])
    head = await store.checkpoint()
    assert (middle.seq, head.seq) == (10, N)
    return middle, head


def entry(db: Editor, seq: int) -> bytes:
    (row,) = db.fetchall("SELECT entry FROM events WHERE seq = ?", (seq,))
    return bytes(row[0])


def rechain(db: Editor, start: int, key: bytes) -> None:
    """Recompute prev_mac and mac of every row from `start` on, with `key`."""
    prev = GENESIS
    if start > 1:
        prev = db.fetchall("SELECT mac FROM events WHERE seq = ?", (start - 1,))[0][0]
    rows = db.fetchall(
        "SELECT seq, entry, at, memory_id, op, actor, reason, state_before, state_after, summary"
        " FROM events WHERE seq >= ? ORDER BY seq",
        (start,),
    )
    for seq, blob, *columns in rows:
        new = mac(key, prev, seq, bytes(blob), column_bytes(tuple(columns)))  # type: ignore[arg-type]
        db.execute("UPDATE events SET prev_mac = ?, mac = ? WHERE seq = ?", (prev, new, seq))
        prev = new


def rewrite_actor(db: Editor, seq: int, actor: str) -> None:
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
COLUMN_EDITS = [
    ("op", "deleted"),
    ("actor", "mallory"),
    ("state_after", "rejected"),
    ("state_before", "pending_review"),
    ("memory_id", "mem-other"),
    ("reason", "approved by admin"),
    ("at", "2020-01-01T00:00:00+00:00"),
    ("summary", '{"rules": [], "rules_version": "x", "trust_score": 1.0}'),
]


class TamperContract(ABC):
    """Not collected itself (no `Test` prefix)."""

    @classmethod
    @abstractmethod
    def build_template(cls, factory: pytest.TempPathFactory) -> Any:
        """Build the template log once per class (with `write_template`)."""

    @abstractmethod
    def copy(self, template: Any, tmp_path: Path) -> TamperLog:
        """A private, untouched copy of the template for one test."""

    @pytest.fixture(scope="class")
    @classmethod
    def template(cls, tmp_path_factory: pytest.TempPathFactory) -> Any:
        return cls.build_template(tmp_path_factory)

    @pytest.fixture
    def log(self, template: Any, tmp_path: Path) -> TamperLog:
        return self.copy(template, tmp_path)

    def test_untouched_copy_verifies(self, log: TamperLog) -> None:
        assert log.verify().ok
        assert log.verify(log.middle).ok
        assert log.verify(log.head).ok

    @pytest.mark.parametrize("k", SEQS)
    @pytest.mark.parametrize("offset", [0, 0.5, -1])
    def test_flipped_byte_in_entry(self, log: TamperLog, k: int, offset: float) -> None:
        def edit(db: Editor) -> None:
            blob = bytearray(entry(db, k))
            blob[int(len(blob) * offset)] ^= 0x01
            db.execute("UPDATE events SET entry = ? WHERE seq = ?", (bytes(blob), k))

        log.tamper(edit)
        assert_bad(log.verify(), k)

    @pytest.mark.parametrize("k", SEQS)
    @pytest.mark.parametrize(("column", "value"), COLUMN_EDITS)
    def test_edited_column(self, log: TamperLog, k: int, column: str, value: str) -> None:
        log.tamper(
            lambda db: db.execute(f"UPDATE events SET {column} = ? WHERE seq = ?", (value, k))  # noqa: S608
        )
        result = log.verify()
        assert_bad(result, k)
        assert column in (result.reason or "")

    @pytest.mark.parametrize("k", [1, 2, 10, 19])
    def test_deleted_row(self, log: TamperLog, k: int) -> None:
        log.tamper(lambda db: db.execute("DELETE FROM events WHERE seq = ?", (k,)))
        result = log.verify()
        assert_bad(result, k)
        assert "missing" in (result.reason or "")

    @pytest.mark.parametrize(("j", "k"), [(1, 2), (3, 17), (19, N), (1, N)])
    def test_swapped_entries(self, log: TamperLog, j: int, k: int) -> None:
        def edit(db: Editor) -> None:
            a, b = entry(db, j), entry(db, k)
            db.execute("UPDATE events SET entry = ? WHERE seq = ?", (b, j))
            db.execute("UPDATE events SET entry = ? WHERE seq = ?", (a, k))

        log.tamper(edit)
        assert_bad(log.verify(), j)

    def test_truncated_tail_is_caught_by_a_checkpoint_and_by_the_rows_it_left(
        self, log: TamperLog
    ) -> None:
        log.tamper(lambda db: db.execute("DELETE FROM events WHERE seq > ?", (N - 5,)))
        result = log.verify()
        # The chain alone is consistent up to the cut...
        assert (result.checked, result.last_seq, result.first_bad_seq) == (N - 5, N - 5, None)
        # ...but the served rows were projected from events that are gone.
        assert not result.ok
        assert result.divergences
        assert {d.table for d in result.divergences} == {"items"}
        assert {d.kind for d in result.divergences} <= {"orphan_row", "stale_row"}
        result = log.verify(log.middle)
        assert result.first_bad_seq is None
        result = log.verify(log.head)
        assert not result.ok
        assert result.first_bad_seq == N - 4
        assert "truncated" in (result.reason or "")

    def test_truncated_tail_then_new_appends_diverge_from_the_checkpoint(
        self, log: TamperLog
    ) -> None:
        """Cut the tail, then let the store append again: the sequence numbers come
        back, but the MAC at the checkpoint's seq is not the one exported."""
        log.tamper(lambda db: db.execute("DELETE FROM events WHERE seq > ?", (N - 5,)))
        log.append(some_events(5))
        result = log.verify()
        assert result.first_bad_seq is None  # the chain is consistent again
        # rows bound to the cut events no longer match the events now at their seq
        assert any(d.kind == "stale_row" or d.kind == "orphan_row" for d in result.divergences)
        result = log.verify(log.head)
        assert not result.ok
        assert result.first_bad_seq == N
        assert "checkpoint" in (result.reason or "")

    @pytest.mark.parametrize("k", SEQS)
    def test_rechained_with_a_wrong_key(self, log: TamperLog, k: int) -> None:
        def edit(db: Editor) -> None:
            rewrite_actor(db, k, "mallory")
            rechain(db, k, OTHER_KEY)

        log.tamper(edit)
        assert_bad(log.verify(), k)

    @pytest.mark.parametrize("k", SEQS)
    def test_rechained_with_the_right_key_is_caught_by_a_checkpoint(
        self, log: TamperLog, k: int
    ) -> None:
        def edit(db: Editor) -> None:
            rewrite_actor(db, k, "mallory")
            rechain(db, k, KEY)

        log.tamper(edit)
        # The attacker holds the key: the chain itself is consistent again (rows bound
        # to the old MACs show as stale unless the attacker re-seals them too)...
        result = log.verify()
        assert result.first_bad_seq is None
        assert {d.kind for d in result.divergences} <= {"stale_row"}
        # ...but it no longer extends the checkpoint exported before the rewrite.
        result = log.verify(log.head)
        assert not result.ok
        assert result.first_bad_seq == log.head.seq
        assert "checkpoint" in (result.reason or "")
        # A checkpoint from before the rewritten row still holds.
        assert (log.verify(log.middle).first_bad_seq is None) is (k > log.middle.seq)

    def test_rechained_untouched_with_the_right_key_still_verifies(self, log: TamperLog) -> None:
        """Recomputing the MACs without changing anything reproduces them exactly."""
        log.tamper(lambda db: rechain(db, 1, KEY))
        assert log.verify().ok
        assert log.verify(log.head).ok
