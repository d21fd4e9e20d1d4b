"""Rollback as references (issue 18): a compensating event names the event whose
item it restores (seq + MAC) instead of embedding the item again.

On every backend (memory, SQLite, PostgreSQL): the compensating entries carry no
item; `records` / `history` resolve them; replay (`state_at`, from a snapshot
too) gives what is served; verify holds; the undo of a rollback points at the
original events again (one hop); an older log whose compensating events embed
their items still verifies, replays and rolls back. The plain structs the fast
path uses give the same bytes and columns as the pydantic models."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memgate.bootstrap import short_pool
from memgate.domain import Decision, Source
from memgate.domain.events import Event, LogRecord, Op, canonical_json
from memgate.domain.memory import MemoryItem, MemoryState, PoolName
from memgate.domain.raw import RawItem, Version, decode_item, encode
from memgate.domain.rollback import Action, Change
from memgate.domain.types import Category, Finding, Severity
from memgate.gateway import Gateway
from memgate.log.chain import entry_json, event_columns, reference_json
from memgate.log.integrity import encode as encode_values
from memgate.store.memory import MemoryStore
from memgate.store.postgres import PostgresStore
from memgate.store.served import item_fields, raw_item_fields, short_fields
from memgate.store.sqlite import SqliteStore
from memgate.trust import Inspector, Policy
from tests.pg_fixtures import PgServer, postgres  # noqa: F401 - the fixture

KEY = b"rollback-refs-test-key-000000000"
START = datetime(2026, 5, 1, tzinfo=UTC)
Store = MemoryStore | SqliteStore | PostgresStore


def an_item(i: int, *, pool: PoolName, state: MemoryState, at: datetime) -> MemoryItem:
    findings = ()
    if i % 3 == 0:
        findings = (
            Finding(
                rule_id="pii.email",
                category=Category.PII,
                severity=Severity.MEDIUM,
                confidence=0.9,
                weight=0.2,
                span=(0, 5),
                evidence="[REDACTED]",
                fingerprint="ab" * 8,
            ),
        )
    return MemoryItem(
        id=f"m{i:04d}",
        namespace=("t", f"team{i % 3}"),
        key=f"k{i}" if i % 4 == 0 else None,
        content=f"note {i}: the build uses make — ü {i}",
        pool=pool,
        state=state,
        trust_score=0.75,
        decision=Decision.APPROVE,
        findings=findings,
        source=Source.USER if i % 2 else Source.WEB,
        session_id=f"s{i % 5}",
        agent_id="a",
        call_id=f"c{i}",
        metadata={"lang": "en", "n": i, "nested": {"z": 1, "a": [1, 2]}},
        created_at=at,
        updated_at=at,
        scanned_at=at,
        expires_at=at + timedelta(days=9) if pool is PoolName.SHORT else None,
        rules_version="r1",
        fingerprint=f"{i:016x}",
        derived_from=(f"m{i - 1:04d}",) if i % 7 == 0 and i else (),
    )


def history_events(n: int) -> Iterator[Event]:
    """`n` memories written, a third of them approved or deleted later."""
    at = START
    kept: list[MemoryItem] = []
    for i in range(n):
        at += timedelta(seconds=1)
        pool = PoolName.SHORT if i % 5 == 0 else PoolName.LONG
        state = (
            MemoryState.TRANSIENT
            if pool is PoolName.SHORT
            else (MemoryState.PENDING_REVIEW if i % 2 == 0 else MemoryState.APPROVED)
        )
        item = an_item(i, pool=pool, state=state, at=at)
        kept.append(item)
        yield Event(
            op=Op.ADMITTED, memory_id=item.id, at=at, actor="a", state_after=state, item=item
        )
        if i % 3 == 2:
            old = kept[i // 2]
            if old.state is MemoryState.PENDING_REVIEW:
                new = old.model_copy(
                    update={"state": MemoryState.APPROVED, "updated_at": at, "version": 2}
                )
                op = Op.APPROVED
            else:
                new = old.model_copy(
                    update={"state": MemoryState.DELETED, "updated_at": at, "version": 2}
                )
                op = Op.DELETED
            kept[i // 2] = new
            yield Event(
                op=op,
                memory_id=new.id,
                at=at,
                actor="r",
                state_before=old.state,
                state_after=new.state,
                item=new,
            )


Opener = Callable[[], Awaitable[Store]]


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    if request.param == "memory":
        store = MemoryStore(KEY)

        async def memory() -> Store:
            return store

        return memory
    if request.param == "sqlite":

        async def sqlite_store() -> Store:
            return await SqliteStore.open(tmp_path / "m.sqlite3", KEY)

        return sqlite_store
    url = request.getfixturevalue("postgres").fresh_url()

    async def pg_store() -> Store:
        return await PostgresStore.open(url, KEY)

    return pg_store


class Clock:
    def __init__(self) -> None:
        self.now = START + timedelta(days=1)

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=3)
        return self.now


async def gateway(store: Store) -> Gateway:
    policy = Policy.load()
    clock = Clock()
    gw = Gateway(
        inspector=Inspector.default(fingerprint_key=b"t"),
        store=store,
        short=short_pool(policy, clock),
        policy=policy,
        clock=clock,
    )
    await gw.restore()
    return gw


def served_state(state: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The long-term items of a replayed state (what the items table serves)."""
    return {k: v for k, v in state.items() if v["pool"] == "long"}


async def long_rows(store: Store, ids: list[str]) -> dict[str, dict[str, Any]]:
    out = {}
    for memory_id in ids:
        item = await store.get(memory_id)
        if item is not None:
            out[memory_id] = item.model_dump(mode="json")
    return out


async def raw_entry(store: Store, seq: int) -> bytes:
    """The entry bytes as stored (what the MAC covers)."""
    if isinstance(store, MemoryStore):
        return store._records[seq - 1][1]
    if isinstance(store, SqliteStore):
        db = sqlite3.connect(store._path)
        try:
            return bytes(db.execute("SELECT entry FROM events WHERE seq = ?", (seq,)).fetchone()[0])
        finally:
            db.close()
    async with store._pool.connection() as conn:
        cur = await conn.execute("SELECT entry FROM events WHERE seq = %s", (seq,))
        row = await cur.fetchone()
        assert row is not None
        return bytes(row[0])


def test_rollback_writes_references_and_every_reader_resolves_them(opener: Opener) -> None:
    async def scenario() -> None:
        store = await opener()
        await store.append(list(history_events(60)))
        gw = await gateway(store)
        try:
            head = (await gw.checkpoint()).seq
            before = await store.state_at(head)
            plan = await gw.rollback(to=head // 2, reason="poison", actor="ops", dry_run=False)
            assert plan.applied and plan.changes
            records = await store.records(after_seq=head, limit=10_000)
            compensating = [r for r in records if r.event.restores is not None]
            assert len(compensating) == len(plan.changes)
            for record in compensating:
                stored = entry_json(record.event)
                assert b'"item"' not in stored and b'"restores":{' in stored
                # as `GET /v1/log` sends it and `memgate log verify --public-key
                # --url` hashes it again: the same bytes the chain covers
                sent = LogRecord.model_validate_json(record.model_dump_json())
                assert entry_json(sent.event) == stored
                assert event_columns(sent.event) == event_columns(record.event)
                assert stored == await raw_entry(store, record.seq)
                ref = record.event.restores
                assert ref is not None and ref.seq <= head  # names an original event
                (origin,) = [r for r in await store.records(ref.seq - 1, 1)]
                assert origin.mac == ref.mac and origin.event.restores is None
                item = record.event.item
                assert item is not None and item.id == record.event.memory_id
                assert item.state is ref.state and item.version == ref.version
                assert item.updated_at == record.event.at
                assert item.content == origin.event.item.content  # type: ignore[union-attr]
            # history resolves too
            some = compensating[0].event.memory_id
            last = (await store.history(some))[-1]
            assert last.event.item == compensating[0].event.item
            # replay gives what is served; verify holds
            after = (await gw.checkpoint()).seq
            state = await store.state_at(after)
            long_ids = sorted(served_state(state))
            assert await long_rows(store, long_ids) == {k: state[k] for k in long_ids}
            assert (await gw.verify()).ok
            # the undo points at the original events again and restores the state
            undo = await gw.rollback(to=head, reason="undo", actor="ops", dry_run=False)
            assert len(undo.changes) == len(plan.changes)
            undone = await store.records(after_seq=after, limit=10_000)
            for record in undone:
                if record.event.restores is not None:
                    assert record.event.restores.seq <= head
            final = await store.state_at((await gw.checkpoint()).seq)
            bookkeeping = {"updated_at", "version"}
            for memory_id, item in before.items():
                trimmed = {k: v for k, v in item.items() if k not in bookkeeping}
                assert {k: v for k, v in final[memory_id].items() if k not in bookkeeping} == (
                    trimmed
                ), memory_id
            assert (await gw.verify()).ok
            # a snapshot of resolved state replays to the same
            seq = await store.snapshot()
            assert await store.state_at(seq) == final
        finally:
            await gw.close()
        if not isinstance(store, MemoryStore):
            reopened = await opener()
            try:
                assert (await reopened.verify()).ok
                assert await reopened.state_at(seq) == final
            finally:
                await reopened.close()

    asyncio.run(scenario())


def test_an_old_log_with_embedded_compensating_events_verifies_replays_and_rolls_back(
    opener: Opener,
) -> None:
    """Before references, a compensating event embedded its whole item."""

    async def scenario() -> None:
        store = await opener()
        events = list(history_events(30))
        await store.append(events)
        mid = len(events)
        at_mid = await store.state_at(mid)
        served = [k for k, v in at_mid.items() if v["state"] in ("approved", "pending_review")]
        now = START + timedelta(hours=3)
        old_style = []
        for memory_id in served[:5]:
            item = MemoryItem.model_validate(at_mid[memory_id])
            gone = item.model_copy(
                update={"state": MemoryState.DELETED, "updated_at": now, "version": 9}
            )
            old_style.append(
                Event(
                    op=Op.ROLLED_BACK,
                    memory_id=item.id,
                    at=now,
                    actor="ops",
                    reason="old",
                    state_before=item.state,
                    state_after=gone.state,
                    item=gone,
                )
            )
        await store.append(old_style)
        head = (await store.checkpoint()).seq
        for record in await store.records(after_seq=mid, limit=100):
            assert b'"item":{' in entry_json(record.event)
            assert b'"restores"' not in entry_json(record.event)
        state = await store.state_at(head)
        assert all(state[e.memory_id]["state"] == "deleted" for e in old_style)
        gw = await gateway(store)
        try:
            assert (await gw.verify()).ok
            undo = await gw.rollback(to=mid, reason="undo old", actor="ops", dry_run=False)
            assert {c.memory_id for c in undo.changes} == {e.memory_id for e in old_style}
            back = await store.state_at((await gw.checkpoint()).seq)
            for memory_id in served[:5]:
                assert back[memory_id]["state"] == at_mid[memory_id]["state"]
                assert back[memory_id]["content"] == at_mid[memory_id]["content"]
            assert (await gw.verify()).ok
        finally:
            await gw.close()

    asyncio.run(scenario())


def test_an_items_row_put_back_after_a_rollback_is_refused_and_named(tmp_path: Path) -> None:
    """The stale-row check sees a reference as routing the memory's row (its
    pool is in the entry), as it does an embedded item."""

    async def scenario() -> None:
        path = tmp_path / "m.sqlite3"
        store = await SqliteStore.open(path, KEY)
        await store.append(list(history_events(12)))
        head = (await store.checkpoint()).seq
        gw = await gateway(store)
        try:
            victim = "m0003"
            old = sqlite3.connect(path).execute("SELECT * FROM items WHERE id = ?", (victim,))
            saved = old.fetchone()
            plan = await gw.rollback(to=1, reason="r", actor="ops", dry_run=False)
            assert victim in {c.memory_id for c in plan.changes}
            assert (await gw.verify()).ok
            db = sqlite3.connect(path)
            marks = ",".join("?" * len(saved))
            db.execute(f"INSERT OR REPLACE INTO items VALUES ({marks})", saved)  # noqa: S608
            db.commit()
            db.close()
            assert await store.get(victim) is None  # older than its last event: refused
            result = await gw.verify()
            assert not result.ok
            assert any(d.id == victim and d.kind == "stale_row" for d in result.divergences)
            assert head > 0
        finally:
            await gw.close()

    asyncio.run(scenario())


def test_plain_structs_give_the_models_bytes_and_columns() -> None:
    assert list(RawItem.__struct_fields__) == list(MemoryItem.model_fields)
    for i in range(12):
        pool = PoolName.SHORT if i % 2 else PoolName.LONG
        state = MemoryState.TRANSIENT if i % 2 else MemoryState.APPROVED
        item = an_item(i, pool=pool, state=state, at=START + timedelta(microseconds=i * 7))
        raw = decode_item(item.model_dump_json())
        assert encode(raw) == item.model_dump_json().encode()
        assert raw_item_fields(raw) == item_fields(item)
        assert short_fields(raw) == short_fields(item)
        # from an entry (canonical JSON: sorted keys) the body differs in key order
        # only: it is the same item
        from_entry = decode_item(json.dumps(item.model_dump(mode="json"), sort_keys=True))
        assert raw_item_fields(from_entry)[:-1] == item_fields(item)[:-1]
        assert MemoryItem.model_validate_json(raw_item_fields(from_entry)[-1]) == item


def test_a_reference_entry_is_the_models_own_json() -> None:
    item = an_item(3, pool=PoolName.LONG, state=MemoryState.APPROVED, at=START)
    raw = decode_item(item.model_dump_json())
    for at in (START + timedelta(seconds=5), START + timedelta(seconds=5, microseconds=12)):
        event = Event.restoring(
            at=at,
            actor='ops "quoted" ü',
            reason="why\nnot",
            state_before=MemoryState.APPROVED,
            origin=Version(7, "ab" * 32, raw),
            item=raw,
        )
        assert reference_json(event) == event.model_dump(mode="json", exclude={"item"})
        assert entry_json(event) == canonical_json(reference_json(event))
        parsed = Event.model_validate_json(entry_json(event))
        assert parsed.restores == event.restores and parsed.item is None
        assert entry_json(parsed) == entry_json(event)
        assert event.summary() == {}


def _old_encode(values: list[str | int | None]) -> bytes:
    """The row-MAC encoding as first written (bytes per value)."""
    parts = []
    for value in values:
        if value is None:
            parts.append(b"-")
        else:
            text = value if isinstance(value, str) else str(value)
            parts.append(b"%d:%s" % (len(text), text.encode("utf-8", "surrogatepass")))
    return b"|".join(parts)


@given(st.lists(st.one_of(st.none(), st.integers(), st.text()), max_size=20))
def test_the_row_mac_encoding_keeps_its_bytes(values: list[str | int | None]) -> None:
    assert encode_values(values) == _old_encode(values)


def test_models_built_without_validation_equal_the_validated_ones() -> None:
    fields: dict[str, Any] = {
        "memory_id": "m1",
        "namespace": ("a", "b"),
        "pool": PoolName.LONG,
        "action": Action.REVERTED,
        "state_before": MemoryState.DELETED,
        "state_after": MemoryState.APPROVED,
    }
    assert Change.built(**fields) == Change(**fields)
    item = an_item(2, pool=PoolName.LONG, state=MemoryState.APPROVED, at=START)
    raw = decode_item(item.model_dump_json())
    event = Event.restoring(
        at=START,
        actor="ops",
        reason=None,
        state_before=MemoryState.DELETED,
        origin=Version(4, "cd" * 32, raw),
        item=raw,
    )
    validated = Event.model_validate(event.model_dump())
    assert validated.model_dump() == event.model_dump()
    assert validated.model_fields_set == event.model_fields_set
    record = LogRecord.built(5, validated, "ab" * 32, "ef" * 32)
    assert record == LogRecord(seq=5, event=validated, prev_mac="ab" * 32, mac="ef" * 32)


def test_a_narrow_row_update_that_finds_another_row_rewrites_it_whole(tmp_path: Path) -> None:
    """Most compensating rows change only state, version and `updated_at`, and the
    SQLite store updates just those columns where the row holds what it should;
    an edited row (here its content) is not matched, and the whole row is
    written instead: after the rollback the row is the log's again."""

    async def scenario() -> None:
        path = tmp_path / "m.sqlite3"
        store = await SqliteStore.open(path, KEY)
        await store.append(list(history_events(12)))
        gw = await gateway(store)
        try:
            victim = "m0003"
            db = sqlite3.connect(path)
            db.execute("UPDATE items SET content = 'edited' WHERE id = ?", (victim,))
            db.commit()
            assert any(d.id == victim for d in (await gw.verify()).divergences)
            plan = await gw.rollback(to=1, reason="r", actor="ops", dry_run=False)
            assert victim in {c.memory_id for c in plan.changes}
            result = await gw.verify()
            assert result.ok, result.reason
            row = db.execute("SELECT content, state FROM items WHERE id = ?", (victim,))
            content, state = row.fetchone()
            db.close()
            assert content != "edited" and state == "deleted"
        finally:
            await gw.close()

    asyncio.run(scenario())


def test_compensating_rows_that_change_only_state_take_the_narrow_update(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = await SqliteStore.open(tmp_path / "m.sqlite3", KEY)
        await store.append(list(history_events(12)))
        gw = await gateway(store)
        seen: list[str] = []
        store._writer.set_trace_callback(seen.append)
        try:
            plan = await gw.rollback(to=1, reason="r", actor="ops", dry_run=False)
            assert any(c.state_after is MemoryState.DELETED for c in plan.changes)
            assert any(s.startswith("UPDATE items SET state=") for s in seen)
            assert (await gw.verify()).ok
        finally:
            store._writer.set_trace_callback(None)
            await gw.close()

    asyncio.run(scenario())
