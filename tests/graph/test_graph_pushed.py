"""Projection is pushed, not polled: a store that says when it commits
(`on_commit`) wakes the projector, so a write and a read reach the graph without
waiting out the poll (set here to a minute) and without anyone asking (`sync`)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from graph_scenarios import run

from memgate.domain.ports import ReadRecord, Store
from memgate.graph import GraphProjection, MemoryBackend
from memgate.store.memory import MemoryStore
from memgate.store.sqlite import SqliteStore
from tests.contracts import KEY, T0
from tests.contracts.log_contract import some_events

POLL = 60.0


async def projected(graph: GraphProjection, events: int, reads: int) -> None:
    """Until the projector has applied this much (it notifies after each batch)."""
    async with graph._progress:
        await graph._progress.wait_for(
            lambda: graph.projected_events >= events and graph.projected_reads >= reads
        )


async def scenario(store: Store) -> None:
    graph = GraphProjection(store, MemoryBackend(), poll_seconds=POLL)
    await graph.start()
    try:
        await asyncio.wait_for(graph._attempted.wait(), 10)  # connected, pulling, idle
        await asyncio.sleep(0.1)  # the puller is waiting now (on the wake or the poll)
        await store.append(some_events(3))
        await store.record_reads(
            [ReadRecord(memory_id="mem-0", at=T0 + timedelta(minutes=1), session_id="s1")]
        )
        if isinstance(store, SqliteStore):
            await store.flush()
        # far sooner than the poll: the commit woke it
        await asyncio.wait_for(projected(graph, 3, 1), 10)
        found = await graph.readers("mem-0")
        assert [r.session_id for r in found.readers] == ["s1"]
    finally:
        await graph.close()


def test_a_commit_wakes_the_projector_sqlite(tmp_path: Path) -> None:
    async def go() -> None:
        store = await SqliteStore.open(tmp_path / "memgate.db", KEY)
        try:
            await scenario(store)
        finally:
            await store.close()

    run(go())


def test_a_commit_wakes_the_projector_memory_store() -> None:
    run(scenario(MemoryStore(KEY)))


def test_a_listener_that_fails_never_fails_the_commit(tmp_path: Path) -> None:
    async def go() -> None:
        store = await SqliteStore.open(tmp_path / "memgate.db", KEY)
        calls: list[int] = []

        def broken() -> None:
            calls.append(1)
            raise RuntimeError("listener down")

        try:
            store.on_commit(broken)
            records = await store.append(some_events(2))
            assert [r.seq for r in records] == [1, 2]
            assert calls
        finally:
            await store.close()

    run(go())
