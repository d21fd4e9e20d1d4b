"""A rollback's two sides read in one pass (`SqliteStore.changed_versions_pair`):
the versions at the target and now are exactly what the two `changed_versions`
queries give, on a log with rollbacks, their undo and the undo of that (whose
target versions are references themselves), and with a reference that does not
hold; the shared rows are decoded once. Through the Gateway, a rollback and its
undo on SQLite plan and apply the same changes as on the in-memory store."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import timedelta
from pathlib import Path

from memgate.domain.events import Event
from memgate.domain.memory import MemoryState
from memgate.domain.raw import Version
from memgate.domain.rollback import PairsVersions
from memgate.store.memory import MemoryStore
from memgate.store.sqlite import SqliteStore
from tests.test_rollback_refs import KEY, START, gateway, history_events


async def same_as_two_queries(store: SqliteStore, points: list[int]) -> None:
    head = (await store.checkpoint()).seq
    for since in points:
        for at in sorted({since, (since + head) // 2, head}):
            pair = await store.changed_versions_pair(since, at)
            two = (
                await store.changed_versions(since, since),
                await store.changed_versions(since, at),
            )
            assert pair == two, (since, at)


def shared_rows(path: Path, since: int, at: int) -> tuple[int, int]:
    """How many current versions name the target's own event, or the event the
    target's reference names: the rows the query leaves out and reuses."""
    db = sqlite3.connect(path)
    try:
        rows = db.execute(SqliteStore._CHANGED_PAIR, (since, at, since)).fetchall()
    finally:
        db.close()
    own = sum(1 for r in rows if r[10] is not None and r[10] == r[1] and r[11] is None)
    based = sum(1 for r in rows if r[10] is not None and r[10] == r[4] and r[11] is None)
    return own, based


def test_the_paired_query_reads_what_the_two_queries_read(tmp_path: Path) -> None:
    async def scenario() -> None:
        path = tmp_path / "m.sqlite3"
        store = await SqliteStore.open(path, KEY)
        assert isinstance(store, PairsVersions)
        await store.append(list(history_events(60)))
        gw = await gateway(store)
        try:
            first = (await gw.checkpoint()).seq
            await gw.rollback(to=first // 2, reason="poison", actor="ops", dry_run=False)
            second = (await gw.checkpoint()).seq
            await gw.rollback(to=first, reason="undo", actor="ops", dry_run=False)
            third = (await gw.checkpoint()).seq
            # The undo's current versions name the target's own events; seen from
            # the rollback's head, the target versions are references and the
            # current ones name the same events those do.
            assert shared_rows(path, first, third)[0] > 20
            assert shared_rows(path, second, third)[1] > 20
            await gw.rollback(to=second, reason="redo", actor="ops", dry_run=False)
            fourth = (await gw.checkpoint()).seq
            await same_as_two_queries(store, [0, 1, first // 2, first, second, third, fourth])
            assert (await gw.verify()).ok
        finally:
            await gw.close()

    asyncio.run(scenario())


def test_a_reference_that_does_not_hold_resolves_to_nothing_either_way(tmp_path: Path) -> None:
    """A compensating event naming the right event with another MAC, or an event
    of another memory: both queries drop the memory, and so does the pair, also
    where the event it names is the target's own row (left out of the query)."""

    async def scenario() -> None:
        store = await SqliteStore.open(tmp_path / "m.sqlite3", KEY)
        try:
            await store.append(list(history_events(20)))
            head = (await store.checkpoint()).seq
            versions = await store.changed_versions(0, head)
            ids = sorted(versions)
            at = START + timedelta(days=3)
            wrong_mac, wrong_memory = versions[ids[1]], versions[ids[2]]
            forged = [
                Event.restoring(
                    at=at,
                    actor="x",
                    reason="forged",
                    state_before=MemoryState(wrong_mac.item.state),
                    origin=Version(wrong_mac.seq, "0" * 64, wrong_mac.item),
                    item=wrong_mac.item,
                ),
                Event.restoring(
                    at=at,
                    actor="x",
                    reason="forged",
                    state_before=MemoryState(wrong_memory.item.state),
                    origin=versions[ids[3]],
                    item=wrong_memory.item,
                ),
            ]
            await store.append(forged)
            now = (await store.checkpoint()).seq
            then, current = await store.changed_versions_pair(head, now)
            assert ids[1] not in current and ids[2] not in current
            assert ids[1] in then and ids[2] in then
            await same_as_two_queries(store, [0, head // 2, head])
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_rollback_and_its_undo_plan_the_same_on_sqlite_as_in_memory(tmp_path: Path) -> None:
    async def scenario() -> None:
        plans = []
        for store in (await SqliteStore.open(tmp_path / "m.sqlite3", KEY), MemoryStore(KEY)):
            await store.append(list(history_events(45)))
            gw = await gateway(store)
            try:
                head = (await gw.checkpoint()).seq
                applied = await gw.rollback(to=head // 3, reason="r", actor="o", dry_run=False)
                undo = await gw.rollback(to=head, reason="u", actor="o", dry_run=False)
                again = await gw.rollback(to=head // 3, reason="r", actor="o")
                plans.append((applied.changes, undo.changes, again.changes))
                assert (await gw.verify()).ok
                final = await store.state_at((await gw.checkpoint()).seq)
                before = await store.state_at(head)
                for memory_id, item in before.items():
                    assert final[memory_id]["state"] == item["state"], memory_id
                    assert final[memory_id]["content"] == item["content"], memory_id
            finally:
                await gw.close()
        assert plans[0] == plans[1]
        assert all(len(changes) > 10 for changes in plans[0])

    asyncio.run(scenario())
