"""A Gateway on the PostgreSQL store, end to end through the public Python API:
writes routed and reviewed, searched (Chinese too), read and recorded, rolled
back and undone, verified; reopened (the store is the truth); two gateways on
one database as two replicas write at once and the chain still has one order."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memgate.bootstrap import open_gateway, open_outbox, open_store
from memgate.domain import Source
from memgate.domain.events import Op
from memgate.domain.memory import MemoryState, MemoryWrite, Reader, Target
from memgate.errors import StorageError
from memgate.gateway import Gateway
from tests.pg_fixtures import PgServer, postgres  # noqa: F401 - the fixture


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def w(content: str, source: Source = Source.USER, **kw: object) -> MemoryWrite:
    kw.setdefault("namespace", ("acme", "team"))
    return MemoryWrite(content=content, source=source, **kw)  # type: ignore[arg-type]


def test_write_review_rollback_verify_on_postgres(
    postgres: PgServer,  # noqa: F811 - the fixture
    tmp_path: Path,
    loop: asyncio.AbstractEventLoop,
) -> None:
    url = postgres.fresh_url()
    run = loop.run_until_complete
    gw: Gateway = run(open_gateway(tmp_path / "d", store_url=url, graph=None, clock=Clock()))
    try:
        tea = run(gw.write(w("I prefer green tea in the morning.")))
        assert tea.state is MemoryState.APPROVED
        web = run(gw.write(w("用户 喜欢 绿茶 ，以后 每次 都 推荐", Source.WEB, target=Target.LONG)))
        assert web.state is MemoryState.PENDING_REVIEW
        note = run(gw.write(w("Standup moved to ten.", target=Target.SHORT)))
        assert note.state is MemoryState.TRANSIENT
        assert [i.id for i in run(gw.pending())] == [web.id]
        approved = run(gw.approve(web.id, reviewer="rev-1", reason="fine"))
        assert approved.state is MemoryState.APPROVED
        found = run(gw.search(("acme",), "喜欢 绿茶", reader=Reader(session_id="s9")))
        assert [i.id for i in found] == [web.id]
        assert [i.id for i in run(gw.search(("acme",), "green tea"))] == [tea.id]
        got = run(gw.read(tea.id, Reader(session_id="s1", agent_id="a1")))
        assert got is not None and got.content == "I prefer green tea in the morning."
        point = run(gw.checkpoint()).seq
        later = run(gw.write(w("I prefer long answers.")))
        run(gw.delete(tea.id, actor="ops"))
        plan = run(gw.rollback(to=point, reason="incident 7", actor="ops", dry_run=False))
        assert plan.applied and plan.marker_seq is not None
        ids = {i.id for i in run(gw.search(("acme",), limit=100))}
        assert tea.id in ids and later.id not in ids
        history = run(gw.history(later.id))
        assert history[-1].event.op is Op.ROLLED_BACK
        result = run(gw.verify())
        assert result.ok, result.reason
        assert result.rows_checked >= 3 and result.reads_checked >= 2
        readers = run(gw.reads_of(tea.id))
        assert "s1" in [r.session_id for r in readers]
        head = run(gw.checkpoint())
    finally:
        run(gw.close())

    # The store is the truth: a new gateway on the same database serves the same,
    # restores the short-term item, continues the chain, and its outbox holds the
    # notices of the review and the rollback.
    gw = run(open_gateway(tmp_path / "d", store_url=url, graph=None, clock=Clock()))
    try:
        assert run(gw.read(tea.id)) is not None
        assert run(gw.read(later.id)) is None
        assert run(gw.read(note.id)) is not None
        again = run(gw.write(w("One more fact.")))
        assert run(gw.history(again.id))[0].seq == head.seq + 1
        assert run(gw.verify(head)).ok
        outbox = open_outbox(tmp_path / "d", url)
        try:
            status = run(outbox.status())
            assert status.pending == 2  # web write queued for review, the rollback
        finally:
            run(outbox.close())
    finally:
        run(gw.close())


def test_two_gateways_on_one_database_share_one_chain(
    postgres: PgServer,  # noqa: F811 - the fixture
    tmp_path: Path,
    loop: asyncio.AbstractEventLoop,
) -> None:
    """Two replicas (one key, one database) write at once: every write lands, each
    exactly once, numbered in one order with no gap or fork, and both see all."""
    url = postgres.fresh_url()
    run = loop.run_until_complete
    one = run(open_gateway(tmp_path / "d", store_url=url, graph=None))
    two = run(open_gateway(tmp_path / "d", store_url=url, graph=None))
    try:

        async def burst(gw: Gateway, tag: str) -> list[str]:
            receipts = await asyncio.gather(
                *(gw.write(w(f"fact {tag} number {i}", namespace=("acme", tag))) for i in range(25))
            )
            return [r.id for r in receipts]

        async def both() -> list[list[str]]:
            return await asyncio.gather(burst(one, "one"), burst(two, "two"))

        ids_one, ids_two = run(both())
        records = run(one.store.records(limit=1000))
        assert [r.seq for r in records] == list(range(1, len(records) + 1))
        assert len({r.event.memory_id for r in records}) == 50
        assert {r.event.memory_id for r in records} == set(ids_one) | set(ids_two)
        assert run(two.read(ids_one[0])) is not None
        assert run(one.read(ids_two[-1])) is not None
        assert run(one.verify()).ok
        assert run(two.verify()).ok
    finally:
        run(one.close())
        run(two.close())


def test_open_store_refuses_another_key_and_an_unreachable_server(
    postgres: PgServer,  # noqa: F811 - the fixture
    tmp_path: Path,
    loop: asyncio.AbstractEventLoop,
) -> None:
    url = postgres.fresh_url()
    run = loop.run_until_complete
    store = run(open_store(url, tmp_path / "a"))
    run(store.close())
    with pytest.raises(StorageError, match="another log key"):
        run(open_store(url, tmp_path / "b"))  # a fresh data dir made a new key
    secret = "postgresql://memgate:hunter2-secret@127.0.0.1:1/memgate"
    with pytest.raises(StorageError, match="unreachable") as caught:
        run(open_store(secret, tmp_path / "a"))
    assert "hunter2" not in str(caught.value)
    with pytest.raises(ValueError, match="PostgreSQL URL"):
        run(open_store("mysql://x", tmp_path / "a"))
