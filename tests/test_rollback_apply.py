"""A rollback's fast apply on SQLite (`SqliteStore.append_compensation`) writes
exactly what the generic append of its events writes: the same log rows (entry
bytes, columns, MACs), projection rows and row MACs, for the rollback and for
its undo; verify holds on both; a failure leaves the chain where it was."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from memgate.domain.events import Event, Op
from memgate.domain.rollback import AppendsCompensation, Compensation, RollbackScope
from memgate.errors import StorageError
from memgate.gateway.rollback import plan
from memgate.store.sqlite import SqliteStore
from tests.test_rollback_refs import KEY, START, history_events

ACTOR = 'ops "ü" \\ team'
REASON = "poisoned memory\n— rolled back «now»"


async def compensation(store: SqliteStore, to_seq: int, offset: int) -> Compensation:
    """The plan of a whole-store rollback to `to_seq`, as the gateway builds it."""
    head = (await store.checkpoint()).seq
    now = START + timedelta(days=2, seconds=offset, microseconds=123457)
    target = await store.changed_versions(to_seq, to_seq)
    current = await store.changed_versions(to_seq, head)
    planned = plan(target, current, RollbackScope(), now)
    marker = Event(
        op=Op.ROLLED_BACK,
        memory_id=f"rollback:{offset}",
        at=now,
        actor=ACTOR,
        reason=REASON,
        detail={"to_seq": to_seq, "head_seq": head, "changed": len(planned)},
    )
    return Compensation(at=now, actor=ACTOR, reason=REASON, planned=planned, marker=marker)


def tables(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    db = sqlite3.connect(path)
    try:
        return {
            "events": db.execute("SELECT * FROM events ORDER BY seq").fetchall(),
            "items": db.execute("SELECT * FROM items ORDER BY id").fetchall(),
            "short_items": db.execute("SELECT * FROM short_items ORDER BY id").fetchall(),
        }
    finally:
        db.close()


def test_the_fast_apply_writes_the_generic_appends_rows(tmp_path: Path) -> None:
    asyncio.run(_fast_and_generic(tmp_path))


async def _fast_and_generic(tmp_path: Path) -> None:
    fast = await SqliteStore.open(tmp_path / "fast.sqlite3", KEY)
    slow = await SqliteStore.open(tmp_path / "slow.sqlite3", KEY)
    assert isinstance(fast, AppendsCompensation)
    try:
        for store in (fast, slow):
            await store.append(list(history_events(90)))
        head = (await fast.checkpoint()).seq
        undo_to = 0
        for step, to_seq in enumerate((head // 2, None)):
            target = undo_to if to_seq is None else to_seq
            undo_to = (await fast.checkpoint()).seq
            batch = await compensation(fast, target, step)
            assert batch == await compensation(slow, target, step)
            kinds = {(p.item.pool, p.item.state, p.narrow) for p in batch.planned}
            assert len(batch.planned) > 20 and len(kinds) >= 3, kinds
            seq = await fast.append_compensation(batch)
            records = await slow.append(batch.events())
            assert seq == records[-1].seq
            assert tables(fast._path) == tables(slow._path)
            for store in (fast, slow):
                result = await store.verify()
                assert result.ok, result.reason
                assert result.rows_checked > 0
    finally:
        await fast.close()
        await slow.close()


def test_a_batch_that_cannot_be_stored_leaves_the_chain_as_it_was(tmp_path: Path) -> None:
    asyncio.run(_cannot_be_stored(tmp_path))


async def _cannot_be_stored(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "m.sqlite3", KEY)
    try:
        await store.append(list(history_events(30)))
        before = await store.checkpoint()
        batch = await compensation(store, before.seq // 2, 0)
        # A lone surrogate cannot be stored as UTF-8 text: the commit fails.
        broken = Compensation(
            at=batch.at,
            actor="\ud800",
            reason=batch.reason,
            planned=batch.planned,
            marker=batch.marker,
        )
        with pytest.raises(StorageError):
            await store.append_compensation(broken)
        after = await store.checkpoint()
        assert (after.seq, after.head_mac) == (before.seq, before.head_mac)
        assert (store._chain.last_seq, store._chain.head) == (before.seq, before.head_mac)
        await store.append_compensation(batch)
        result = await store.verify()
        assert result.ok, result.reason
    finally:
        await store.close()
