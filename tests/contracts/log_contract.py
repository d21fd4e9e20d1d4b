"""The EventLog port's contract (and the Store's projection of it).

A backend's test module subclasses `LogContract` and supplies `open_store`, a
fresh, empty store. Each test gets its own store.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from memgate.domain.events import Checkpoint, Event, LogRecord, Op
from memgate.domain.memory import MemoryState, PoolName
from memgate.domain.ports import PoolQuery, ReadRecord, Store
from memgate.log.chain import GENESIS
from tests.contracts import T0, event_for, long_item, run, short_item

Body = Callable[[Any, Store], Awaitable[None]]


def store_test(body: Body) -> Callable[[Any, Path], None]:
    """Turn `async def test_x(self, store)` into a sync test on a fresh store."""

    def test(self: LogContract, tmp_path: Path) -> None:
        async def go() -> None:
            store = await self.open_store(tmp_path)
            try:
                await body(self, store)
            finally:
                await store.close()

        run(go())

    test.__name__ = body.__name__
    test.__qualname__ = body.__qualname__
    test.__doc__ = body.__doc__
    return test


def some_events(n: int, *, memory_ids: int = 3) -> list[Event]:
    """`n` admitted-then-edited events over a few memories, times increasing."""
    events = []
    for i in range(n):
        item = long_item(
            id=f"mem-{i % memory_ids}",
            content=f"note number {i}",
            created_at=T0,
            updated_at=T0 + timedelta(seconds=i),
        )
        op = Op.ADMITTED if i < memory_ids else Op.EDITED
        before = None if i < memory_ids else MemoryState.APPROVED
        events.append(event_for(item, op, before=before, actor=f"agent-{i % 2}"))
    return events


def assert_chained(records: list[LogRecord], first_seq: int = 1, prev: str = GENESIS) -> None:
    assert [r.seq for r in records] == list(range(first_seq, first_seq + len(records)))
    for record in records:
        assert record.prev_mac == prev
        assert len(record.mac) == 64
        assert record.mac != prev
        prev = record.mac
    assert len({r.mac for r in records}) == len(records)


class LogContract(ABC):
    """What every EventLog (and Store projection) must do. Not collected itself."""

    @abstractmethod
    async def open_store(self, directory: Path) -> Store:
        """A fresh, empty store; `directory` is the test's own scratch space."""

    # -- append and the chain -----------------------------------------------------

    @store_test
    async def test_append_numbers_and_chains_records(self, store: Store) -> None:
        events = some_events(5)
        first = await store.append(events[:3])
        assert [r.event for r in first] == events[:3]
        assert_chained(first)
        second = await store.append(events[3:])
        assert [r.event for r in second] == events[3:]
        assert_chained(second, first_seq=4, prev=first[-1].mac)
        assert await store.records() == first + second

    @store_test
    async def test_append_nothing_is_a_no_op(self, store: Store) -> None:
        assert await store.append([]) == []
        assert await store.records() == []
        records = await store.append(some_events(1))
        assert_chained(records)

    @store_test
    async def test_equal_events_get_different_macs(self, store: Store) -> None:
        event = some_events(1)[0]
        records = await store.append([event, event])
        assert_chained(records)
        assert records[0].event == records[1].event

    @store_test
    async def test_records_pages_by_sequence(self, store: Store) -> None:
        stored = await store.append(some_events(10))
        assert await store.records() == stored
        assert await store.records(0, 3) == stored[0:3]
        assert await store.records(3, 3) == stored[3:6]
        assert await store.records(after_seq=8) == stored[8:]
        assert await store.records(after_seq=9, limit=5) == stored[9:]
        assert await store.records(after_seq=10) == []
        assert await store.records(after_seq=50) == []
        pages = [await store.records(after, 4) for after in (0, 4, 8)]
        assert [r for p in pages for r in p] == stored

    @store_test
    async def test_history_of_one_memory(self, store: Store) -> None:
        stored = await store.append(some_events(10, memory_ids=3))
        history = await store.history("mem-1")
        assert [r.seq for r in history] == [2, 5, 8]
        assert history == [stored[1], stored[4], stored[7]]
        assert await store.history("mem-unknown") == []

    # -- checkpoints and verify ------------------------------------------------------

    @store_test
    async def test_checkpoint_of_empty_log(self, store: Store) -> None:
        checkpoint = await store.checkpoint()
        assert (checkpoint.seq, checkpoint.head_mac, checkpoint.count) == (0, GENESIS, 0)
        result = await store.verify()
        assert result.ok
        assert (result.checked, result.last_seq, result.first_bad_seq) == (0, 0, None)
        assert (await store.verify(checkpoint)).ok

    @store_test
    async def test_checkpoint_names_the_head(self, store: Store) -> None:
        stored = await store.append(some_events(7))
        checkpoint = await store.checkpoint()
        assert (checkpoint.seq, checkpoint.head_mac, checkpoint.count) == (7, stored[-1].mac, 7)

    @store_test
    async def test_untouched_log_verifies(self, store: Store) -> None:
        await store.append(some_events(4))
        early = await store.checkpoint()
        await store.append(some_events(6))
        late = await store.checkpoint()
        result = await store.verify()
        assert result.ok
        assert (result.checked, result.last_seq, result.first_bad_seq, result.reason) == (
            10,
            10,
            None,
            None,
        )
        assert (await store.verify(early)).ok
        assert (await store.verify(late)).ok

    @store_test
    async def test_verify_refuses_a_checkpoint_the_log_does_not_contain(self, store: Store) -> None:
        stored = await store.append(some_events(5))
        forged = Checkpoint(seq=3, head_mac="f" * 64, count=3, at=T0)
        result = await store.verify(forged)
        assert not result.ok
        assert result.first_bad_seq == 3
        ahead = Checkpoint(seq=8, head_mac=stored[-1].mac, count=8, at=T0)
        result = await store.verify(ahead)
        assert not result.ok
        assert result.first_bad_seq == 6
        assert "truncated" in (result.reason or "")

    # -- the projection -------------------------------------------------------------------

    @store_test
    async def test_long_term_items_are_projected(self, store: Store) -> None:
        queued = long_item(state=MemoryState.PENDING_REVIEW, content="pending words")
        await store.append([event_for(queued, Op.QUEUED)])
        assert await store.get(queued.id) == queued
        assert await store.list(PoolQuery()) == [queued]

        approved = queued.model_copy(
            update={
                "state": MemoryState.APPROVED,
                "updated_at": queued.updated_at + timedelta(minutes=1),
                "reviewed_by": "rev-1",
            }
        )
        await store.append([event_for(approved, Op.APPROVED, before=MemoryState.PENDING_REVIEW)])
        assert await store.get(queued.id) == approved
        assert await store.list(PoolQuery()) == [approved]
        assert await store.search(PoolQuery(text="pending words")) == [approved]
        assert await store.short_term_items() == []

    @store_test
    async def test_items_routed_to_no_pool_are_never_visible(self, store: Store) -> None:
        rejected = long_item(pool=PoolName.NONE, state=MemoryState.REJECTED, key="k", content="bad")
        records = await store.append([event_for(rejected, Op.REJECTED)])
        assert records[0].event.item == rejected
        assert await store.get(rejected.id) is None
        assert await store.get_by_key(rejected.namespace, "k") is None
        assert await store.list(PoolQuery()) == []
        assert await store.search(PoolQuery(text="bad")) == []
        assert await store.short_term_items() == []
        assert await store.history(rejected.id) == records

    @store_test
    async def test_transient_items_are_kept_until_they_expire(self, store: Store) -> None:
        first, second = short_item(content="one"), short_item(content="two")
        await store.append([event_for(first), event_for(second)])
        assert sorted(i.id for i in await store.short_term_items()) == sorted([first.id, second.id])
        assert {i.id: i for i in await store.short_term_items()}[first.id] == first
        # The short-term pool is not the long-term pool.
        assert await store.get(first.id) is None
        assert await store.list(PoolQuery()) == []

        gone = first.model_copy(update={"state": MemoryState.EXPIRED, "updated_at": T0})
        await store.append(
            [
                event_for(
                    gone, Op.EXPIRED, before=MemoryState.TRANSIENT, actor="system", reason="ttl"
                )
            ]
        )
        assert await store.short_term_items() == [second]
        assert await store.get(first.id) is None

    @store_test
    async def test_promotion_moves_an_item_out_of_the_short_term_pool(self, store: Store) -> None:
        transient = short_item(content="promote me")
        await store.append([event_for(transient)])
        promoted = long_item(
            content="promote me", state=MemoryState.PENDING_REVIEW, derived_from=(transient.id,)
        )
        left = transient.model_copy(update={"state": MemoryState.PENDING_REVIEW})
        await store.append(
            [
                event_for(promoted, Op.PROMOTED),
                event_for(left, Op.PROMOTED, before=MemoryState.TRANSIENT),
            ]
        )
        assert await store.short_term_items() == []
        assert await store.get(promoted.id) == promoted

    @store_test
    async def test_events_without_an_item_change_no_pool(self, store: Store) -> None:
        item = long_item()
        await store.append([event_for(item)])
        bare = Event(
            op=Op.DELETED,
            memory_id=item.id,
            at=T0,
            actor="admin",
            state_before=MemoryState.APPROVED,
            state_after=MemoryState.DELETED,
        )
        records = await store.append([bare])
        assert records[0].event == bare
        assert await store.get(item.id) == item
        assert (await store.verify()).ok

    # -- replay ----------------------------------------------------------------------------

    @store_test
    async def test_state_at_and_changed_items_agree_with_the_log(self, store: Store) -> None:
        events = some_events(9, memory_ids=3)  # seq 1..9; mem-k written at k+1, k+4, k+7
        await store.append(events)
        full = await store.state_at(9)
        assert {k: v["content"] for k, v in full.items()} == {
            "mem-0": "note number 6",
            "mem-1": "note number 7",
            "mem-2": "note number 8",
        }
        assert {k: v["content"] for k, v in (await store.state_at(4)).items()} == {
            "mem-0": "note number 3",
            "mem-1": "note number 1",
            "mem-2": "note number 2",
        }
        assert await store.state_at(0) == {}
        # After seq 7 only mem-1 (seq 8) and mem-2 (seq 9) changed.
        then = await store.changed_items(7, 7)
        assert {k: v["content"] for k, v in then.items()} == {
            "mem-1": "note number 4",
            "mem-2": "note number 5",
        }
        assert await store.changed_items(7, 9) == {k: full[k] for k in ("mem-1", "mem-2")}
        # A memory created after the point has no item at it.
        late = long_item(id="mem-new", content="late")
        await store.append([event_for(late)])
        assert "mem-new" not in await store.changed_items(9, 9)
        assert (await store.changed_items(9, 10))["mem-new"]["content"] == "late"
        # Snapshots change nothing about the answers.
        await store.snapshot()
        assert await store.state_at(9) == full

    # -- reads linked to a write (provenance routing) ---------------------------------

    @store_test
    async def test_reads_linked_by_session_call_and_agent(self, store: Store) -> None:
        def read(n: int, **who: str | None) -> ReadRecord:
            return ReadRecord(memory_id=f"m{n}", at=T0 + timedelta(seconds=n), **who)

        reads = [
            read(0, session_id="s1", agent_id="a1"),  # before the window
            read(1, session_id="s1", call_id="c1", agent_id="a1"),
            read(2, session_id="s2", call_id="c1", agent_id="a1"),
            read(3, agent_id="a1"),  # no session: attributed to its agent
            read(4, session_id="s2", agent_id="a2"),
            read(5, session_id="s1", agent_id="a2"),
        ]
        await store.record_reads(reads[:4])
        flush = getattr(store, "flush", None)
        if flush is not None:
            await flush()
        await store.record_reads(reads[4:])  # still queued in a batching store
        since = T0 + timedelta(seconds=1)

        async def ids(**link: Any) -> list[str]:
            return [r.memory_id for r in await store.reads_linked(since, **link)]

        assert await ids(session_id="s1") == ["m5", "m1"]
        assert await ids(call_id="c1") == ["m2", "m1"]
        assert await ids(agent_id="a1") == ["m3"]
        assert await ids(agent_id="a1", agent_any_session=True) == ["m3", "m2", "m1"]
        assert await ids(session_id="s1", call_id="c1", agent_id="a1") == ["m5", "m3", "m2", "m1"]
        assert await ids(session_id="s9") == []
        assert await ids() == []
        linked = await store.reads_linked(since, session_id="s1", call_id="c1", limit=2)
        assert [r.memory_id for r in linked] == ["m5", "m2"]
        assert linked[0] == reads[5]
        if flush is not None:
            await flush()
        assert await ids(session_id="s1") == ["m5", "m1"]
