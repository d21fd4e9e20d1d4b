"""PostgresStore beyond the contracts: group commit under concurrency, several
stores (replicas) on one database sharing one chain, a write that cannot be
stored failing alone, reopening, migrations applied once, the append-only
triggers, and signed checkpoints."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from memgate.domain.events import Op, VerifyResult
from memgate.domain.ports import ReadRecord
from memgate.errors import StorageError
from memgate.log.integrity import Signer, signature_ok
from memgate.store.postgres import PostgresStore, migrations
from tests.contracts import KEY, event_for, long_item, run
from tests.contracts.log_contract import assert_chained, some_events
from tests.pg_fixtures import PgServer, postgres  # noqa: F401 - the fixture


def test_concurrent_appends_commit_with_consecutive_sequence_numbers(
    postgres: PgServer,  # noqa: F811
) -> None:
    async def go() -> None:
        store = await PostgresStore.open(postgres.fresh_url(), KEY)
        try:
            events = some_events(200, memory_ids=20)
            results = await asyncio.gather(*(store.append([e]) for e in events))
            seqs = [records[0].seq for records in results]
            assert seqs == list(range(1, 201))  # arrival order is sealing order
            assert [records[0].event for records in results] == events
            stored = await store.records()
            assert stored == [records[0] for records in results]
            assert_chained(stored)
            result = await store.verify()
            assert (result.ok, result.checked, result.last_seq) == (True, 200, 200)
        finally:
            await store.close()

    run(go())


def test_replicas_on_one_database_share_one_chain(postgres: PgServer) -> None:  # noqa: F811
    """Three stores append at once, multi-event writes included: one chain with
    no gap, no fork, every write contiguous, and each store sees all of it."""

    async def go() -> None:
        url = postgres.fresh_url()
        stores = [await PostgresStore.open(url, KEY, max_size=2) for _ in range(3)]
        try:
            events = some_events(180, memory_ids=30)
            writes = [events[i : i + 3] for i in range(0, 180, 3)]
            results = await asyncio.gather(
                *(stores[n % 3].append(batch) for n, batch in enumerate(writes))
            )
            for batch, records in zip(writes, results, strict=True):
                assert [r.event for r in records] == batch
                seqs = [r.seq for r in records]
                assert seqs == list(range(seqs[0], seqs[0] + 3))
            for store in stores:
                stored = await store.records(limit=1000)
                assert len(stored) == 180
                assert_chained(stored)
            assert (await stores[2].verify()).ok
        finally:
            for store in stores:
                await store.close()

    run(go())


def test_a_write_that_cannot_be_stored_fails_alone(postgres: PgServer) -> None:  # noqa: F811
    async def go() -> None:
        store = await PostgresStore.open(postgres.fresh_url(), KEY)
        try:
            bad = long_item(id="mem-bad", content="fine", metadata={"k": "v\udc00"})
            nul = event_for(long_item(content="x"), Op.ADMITTED, actor="agent\x00")
            good, later = some_events(2, memory_ids=2)
            outcomes = await asyncio.wait_for(
                asyncio.gather(
                    store.append([event_for(bad, Op.ADMITTED)]),
                    store.append([good]),
                    store.append([nul]),
                    return_exceptions=True,
                ),
                timeout=30,
            )
            assert isinstance(outcomes[0], StorageError)
            assert isinstance(outcomes[2], StorageError)
            assert "\udc00" not in str(outcomes[0])
            first = outcomes[1]
            assert not isinstance(first, BaseException)
            assert_chained(first)
            after = await store.append([later])
            assert_chained(after, first_seq=2, prev=first[-1].mac)
            assert await store.records() == first + after
            assert (await store.verify()).ok
        finally:
            await store.close()

    run(go())


def test_reopening_continues_the_chain_and_migrates_once(postgres: PgServer) -> None:  # noqa: F811
    url = postgres.fresh_url()

    async def go() -> None:
        store = await PostgresStore.open(url, KEY)
        first = await store.append(some_events(5))
        checkpoint = await store.checkpoint()
        await store.close()
        with pytest.raises(StorageError, match="closed"):
            await store.append(some_events(1))
        store = await PostgresStore.open(url, KEY)
        try:
            more = await store.append(some_events(3))
            assert [r.seq for r in more] == [6, 7, 8]
            assert more[0].prev_mac == first[-1].mac
            result = await store.verify(checkpoint)
            assert (result.ok, result.checked, result.last_seq) == (True, 8, 8)
        finally:
            await store.close()

    run(go())
    applied = postgres.execute(url, "SELECT version, name FROM memgate_migrations ORDER BY 1")
    assert applied == [(n, name) for n, name, _ in migrations()]


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET actor = 'mallory' WHERE seq = 2",
        "UPDATE events SET entry = entry WHERE seq = 1",
        "DELETE FROM events WHERE seq = 3",
        "DELETE FROM events",
        "TRUNCATE events CASCADE",
    ],
)
def test_triggers_refuse_to_rewrite_events(postgres: PgServer, statement: str) -> None:  # noqa: F811
    url = postgres.fresh_url()

    async def write() -> None:
        store = await PostgresStore.open(url, KEY)
        try:
            await store.append(some_events(3))
        finally:
            await store.close()

    run(write())
    with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="append-only"):
        postgres.execute(url, statement)
    assert postgres.execute(url, "SELECT count(*) FROM events") == [(3,)]

    async def verify() -> None:
        store = await PostgresStore.open(url, KEY)
        try:
            assert (await store.verify()).ok
        finally:
            await store.close()

    run(verify())


def test_signed_checkpoints_extend_and_verify(postgres: PgServer) -> None:  # noqa: F811
    signer = Signer.generate()

    async def go() -> None:
        store = await PostgresStore.open(postgres.fresh_url(), KEY, signer=signer)
        try:
            empty = await store.export_checkpoint()
            assert empty.seq == 0 and signature_ok(empty, signer.public)
            await store.append(some_events(4))
            first = await store.export_checkpoint()
            await store.append(some_events(3))
            second = await store.export_checkpoint()  # hashed on from the first
            assert (first.seq, second.seq) == (4, 7)
            assert signature_ok(second, signer.public) and first.head_hash != second.head_hash
            result = await store.verify(second)
            assert result.ok and result.signature_ok is True
            forged = second.model_copy(update={"count": 99})
            result = await store.verify(forged)
            assert not result.ok and result.signature_ok is False
            assert "-----BEGIN PUBLIC KEY-----" in store.public_key_pem()
        finally:
            await store.close()

    run(go())


def test_rows_put_back_or_forged_are_refused(postgres: PgServer) -> None:  # noqa: F811
    """A row edited with SQL is never served (its MAC fails), and verify names it."""
    url = postgres.fresh_url()

    async def go() -> None:
        store = await PostgresStore.open(url, KEY)
        try:
            item = long_item(content="the genuine words")
            await store.append([event_for(item)])
            postgres.execute(
                url,
                "UPDATE items SET content = convert_to('forged words', 'UTF8') WHERE id = %s",
                (item.id,),
            )
            assert await store.get(item.id) is None
            assert store.refusals.count == 1
            result = await store.verify()
            assert not result.ok
            assert [(d.table, d.id, d.kind) for d in result.divergences] == [
                ("items", item.id, "row_mac")
            ]
            assert "content" in result.divergences[0].detail
        finally:
            await store.close()

    run(go())


def test_commit_listeners_are_told_and_never_fail_a_commit(postgres: PgServer) -> None:  # noqa: F811
    async def go() -> None:
        store = await PostgresStore.open(postgres.fresh_url(), KEY)
        told: list[int] = []

        def broken() -> None:
            raise RuntimeError("listener trouble")

        store.on_commit(broken)
        store.on_commit(lambda: told.append(1))
        try:
            records = await store.append(some_events(2))
            assert told  # at least once: its own commit (and maybe its NOTIFY too)
            await store.record_reads([])
            await store.flush()
            assert_chained(records)
            assert (await store.verify()).ok
        finally:
            await store.close()

    run(go())


def test_commit_listeners_hear_other_replicas(postgres: PgServer) -> None:  # noqa: F811
    async def go() -> None:
        url = postgres.fresh_url()
        listening = await PostgresStore.open(url, KEY)
        writer = await PostgresStore.open(url, KEY)
        heard = asyncio.Event()
        try:
            listening.on_commit(heard.set)
            for _ in range(100):  # until its LISTEN is in place
                await writer.append(some_events(1))
                try:
                    await asyncio.wait_for(heard.wait(), timeout=0.2)
                    break
                except TimeoutError:
                    continue
            assert heard.is_set()
            assert (await listening.verify()).ok
        finally:
            await writer.close()
            await listening.close()

    run(go())


def test_reads_are_chained_and_edits_to_them_are_named(postgres: PgServer) -> None:  # noqa: F811
    url = postgres.fresh_url()
    at = long_item().created_at

    async def record(n: int, start: int) -> None:
        store = await PostgresStore.open(url, KEY)
        try:
            reads = [
                ReadRecord(memory_id=f"m{i}", at=at, session_id=f"s{i}")
                for i in range(start, start + n)
            ]
            await store.record_reads(reads)
            await store.flush()
        finally:
            await store.close()

    async def verify() -> VerifyResult:
        store = await PostgresStore.open(url, KEY)
        try:
            return await store.verify()
        finally:
            await store.close()

    run(record(3, 0))
    result = run(verify())
    assert result.ok and result.reads_checked == 3
    postgres.execute(url, "DELETE FROM reads WHERE seq = 2")
    kinds = {(d.table, d.id, d.kind) for d in run(verify()).divergences}
    assert ("reads", "3", "read_chain") in kinds
    # a read inserted by hand never makes later commits fail; verify names it
    postgres.execute(
        url, "INSERT INTO reads (seq, memory_id, at, mac) VALUES (100, 'x', 'now', 'forged')"
    )
    run(record(1, 10))
    result = run(verify())
    assert not result.ok
    assert ("reads", "100", "read_chain") in {(d.table, d.id, d.kind) for d in result.divergences}
