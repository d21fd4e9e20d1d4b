"""SqliteStore as an EventLog: the contract, plus group commit under concurrency,
reopening the file, and the append-only triggers."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from memgate.domain.events import Op
from memgate.domain.ports import Store
from memgate.errors import StorageError
from memgate.store.sqlite import SqliteStore
from tests.contracts import KEY, event_for, long_item, run
from tests.contracts.log_contract import LogContract, assert_chained, some_events


class TestSqliteStoreLog(LogContract):
    async def open_store(self, directory: Path) -> Store:
        return await SqliteStore.open(directory / "memgate.db", KEY)


def test_a_write_that_cannot_be_stored_fails_alone(tmp_path: Path) -> None:
    """A value that is not UTF-8 text (a lone surrogate in metadata, past the edge
    validator) fails its own append with an error instead of leaving the group
    commit's futures unresolved (every writer hung); a write committed in the same
    batch and every later one still land, chained as if the bad one was never sent."""

    async def go() -> None:
        store = await SqliteStore.open(tmp_path / "memgate.db", KEY)
        try:
            bad = long_item(id="mem-bad", content="fine", metadata={"k": "v\udc00"})
            good, later = some_events(2, memory_ids=2)
            outcomes = await asyncio.wait_for(
                asyncio.gather(
                    store.append([event_for(bad, Op.ADMITTED)]),
                    store.append([good]),
                    return_exceptions=True,
                ),
                timeout=10,
            )
            assert isinstance(outcomes[0], StorageError)
            assert "\udc00" not in str(outcomes[0])
            first = outcomes[1]
            assert not isinstance(first, BaseException)
            assert_chained(first)
            after = await asyncio.wait_for(store.append([later]), timeout=10)
            assert_chained(after, first_seq=2, prev=first[-1].mac)
            assert await store.records() == first + after
            assert (await store.verify()).ok
        finally:
            await store.close()

    run(go())


def test_concurrent_appends_commit_with_consecutive_sequence_numbers(tmp_path: Path) -> None:
    async def go() -> None:
        store = await SqliteStore.open(tmp_path / "memgate.db", KEY)
        try:
            events = some_events(200, memory_ids=20)
            results = await asyncio.gather(*(store.append([e]) for e in events))
            seqs = [records[0].seq for records in results]
            assert sorted(seqs) == list(range(1, 201))
            # Arrival order is sealing order.
            assert seqs == list(range(1, 201))
            assert [records[0].event for records in results] == events
            stored = await store.records()
            assert stored == [records[0] for records in results]
            assert_chained(stored)
            result = await store.verify()
            assert (result.ok, result.checked, result.last_seq) == (True, 200, 200)
        finally:
            await store.close()

    run(go())


def test_concurrent_multi_event_appends_stay_contiguous(tmp_path: Path) -> None:
    async def go() -> None:
        store = await SqliteStore.open(tmp_path / "memgate.db", KEY)
        try:
            events = some_events(90)
            batches = [
                events[i : i + n] for i, n in zip(range(0, 90, 3), [1, 2, 3] * 10, strict=True)
            ]
            results = await asyncio.gather(*(store.append(b) for b in batches))
            for batch, records in zip(batches, results, strict=True):
                assert [r.event for r in records] == batch
                seqs = [r.seq for r in records]
                assert seqs == list(range(seqs[0], seqs[0] + len(batch)))
            assert_chained(await store.records())
            assert (await store.verify()).ok
        finally:
            await store.close()

    run(go())


def test_reopening_the_file_continues_the_chain(tmp_path: Path) -> None:
    path = tmp_path / "memgate.db"

    async def go() -> None:
        store = await SqliteStore.open(path, KEY)
        first = await store.append(some_events(5))
        checkpoint = await store.checkpoint()
        await store.close()

        store = await SqliteStore.open(path, KEY)
        try:
            assert await store.records() == first
            more = await store.append(some_events(3))
            assert [r.seq for r in more] == [6, 7, 8]
            assert more[0].prev_mac == first[-1].mac
            assert_chained(await store.records())
            result = await store.verify(checkpoint)
            assert (result.ok, result.checked, result.last_seq) == (True, 8, 8)
        finally:
            await store.close()

    run(go())


def test_append_after_close_is_refused(tmp_path: Path) -> None:
    async def go() -> None:
        store = await SqliteStore.open(tmp_path / "memgate.db", KEY)
        await store.close()
        await store.close()  # closing twice is harmless
        with pytest.raises(StorageError, match="closed"):
            await store.append(some_events(1))

    run(go())


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET actor = 'mallory' WHERE seq = 2",
        "UPDATE events SET entry = entry WHERE seq = 1",
        "DELETE FROM events WHERE seq = 3",
        "DELETE FROM events",
    ],
)
def test_triggers_refuse_to_rewrite_events(tmp_path: Path, statement: str) -> None:
    path = tmp_path / "memgate.db"

    async def write() -> None:
        store = await SqliteStore.open(path, KEY)
        await store.append(some_events(3))
        await store.close()

    run(write())
    db = sqlite3.connect(path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(statement)
        db.rollback()
        assert db.execute("SELECT count(*) FROM events").fetchone() == (3,)
    finally:
        db.close()
    run(_verifies(path))


async def _verifies(path: Path) -> None:
    store = await SqliteStore.open(path, KEY)
    try:
        assert (await store.verify()).ok
    finally:
        await store.close()
