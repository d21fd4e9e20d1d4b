"""One projector across replicas: the replicas' projections share one FalkorDB
server and one PostgreSQL store, and a lease (a PostgreSQL session advisory lock)
lets exactly one of them project. The leader going away (closed, or SIGKILLed in
a subprocess) hands the projection to another, which catches the graph up with
no duplicate effects (READ edges are CREATEd: a double projection would show)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from graph_scenarios import Clock, incident, run, write

from memgate.bootstrap import open_gateway
from memgate.domain.memory import Reader
from memgate.errors import GraphUnavailable
from memgate.gateway import Gateway
from memgate.graph import FalkorBackend, FalkorConnection, GraphProjection
from memgate.lease.postgres import PostgresLease
from memgate.pools.short import ShortTermPool
from memgate.store.postgres import PostgresStore
from memgate.trust import Inspector, Policy
from tests.contracts import KEY
from tests.graph_server import FalkorServerProcess, falkordb_process
from tests.pg_fixtures import PgServer, postgres  # noqa: F401 - fixture

POLL = 0.2
"""The tests' lease poll (the service's default is 1 s)."""

LEADER = """
import asyncio, sys
from memgate.graph import FalkorBackend, FalkorConnection, GraphProjection
from memgate.lease.postgres import PostgresLease
from memgate.store.postgres import PostgresStore
from tests.contracts import KEY

async def main() -> None:
    pg, graph_url, graph, lease_name = sys.argv[1:5]
    store = await PostgresStore.open(pg, KEY)
    backend = FalkorBackend(FalkorConnection(graph_name=graph, url=graph_url))
    projection = GraphProjection(
        store, backend, lease=PostgresLease(pg, lease_name), lease_poll=0.2
    )
    await projection.start()
    while not projection.leader:
        await asyncio.sleep(0.02)
    print("leading", flush=True)
    await asyncio.sleep(600)  # until killed

asyncio.run(main())
"""


def projection_on(
    store: PostgresStore, server: FalkorServerProcess, graph: str, lease: PostgresLease
) -> GraphProjection:
    backend = FalkorBackend(FalkorConnection(graph_name=graph, url=server.url))
    return GraphProjection(store, backend, lease=lease, lease_poll=POLL)


def count(server: FalkorServerProcess, graph: str, cypher: str) -> int:
    conn = FalkorConnection(graph_name=graph, url=server.url)
    try:
        return int(conn.query(cypher)[0][0])
    finally:
        conn.close()


async def until(predicate: Callable[[], bool], seconds: float) -> None:
    """Poll a flag the projector sets from its own task (there is no event for it)."""
    deadline = time.monotonic() + seconds
    while not predicate() and time.monotonic() < deadline:  # noqa: ASYNC110 - polled flag
        await asyncio.sleep(0.02)


async def caught_up(projection: GraphProjection, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = await projection.status()
        if status.available and status.lag == 0:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the graph did not catch up: {await projection.status()}")


async def no_duplicates(store: PostgresStore, server: FalkorServerProcess, graph: str) -> None:
    """The graph holds each read once and each memory once."""
    reads = await store.reads_after(0, 100_000)
    memories = {r.event.memory_id for r in await store.records(limit=100_000)}
    memories = {m for m in memories if not m.startswith("rollback:")}
    assert count(server, graph, "MATCH ()-[r:READ]->() RETURN count(r)") == len(reads)
    assert count(server, graph, "MATCH (m:Memory) RETURN count(m)") == len(memories)


@asynccontextmanager
async def replica_gateway(
    url: str, inspector: Inspector, projection: GraphProjection, store: PostgresStore
) -> AsyncIterator[Gateway]:
    policy = Policy.load()
    gateway = Gateway(
        inspector=Inspector(inspector.scanner, policy),
        store=store,
        short=ShortTermPool(),
        policy=policy,
        clock=Clock(),
        graph=projection,
    )
    await projection.start()
    try:
        yield gateway
    finally:
        await gateway.close()


def test_exactly_one_replica_projects_and_another_takes_over(
    tmp_path: Path,
    postgres: PgServer,  # noqa: F811 - fixture
    inspector: Inspector,
) -> None:
    graph, name = f"g_{uuid.uuid4().hex[:8]}", f"memgate:test:{uuid.uuid4().hex}"

    async def scenario(server: FalkorServerProcess) -> None:
        url = postgres.fresh_url()
        store_a = await PostgresStore.open(url, KEY)
        store_b = await PostgresStore.open(url, KEY)
        a = projection_on(store_a, server, graph, PostgresLease(url, name))
        b = projection_on(store_b, server, graph, PostgresLease(url, name))
        await b.start()  # replica b first: it takes the lease
        await until(lambda: b.leader, 10)
        assert b.leader
        async with replica_gateway(url, inspector, a, store_a) as gw:
            clock = Clock()
            case = await incident(gw, clock)
            await caught_up(a)
            await caught_up(b)
            assert (a.leader, b.leader) == (False, True)
            assert a.projected_events == 0 and a.projected_reads == 0
            assert b.projected_events > 0
            with pytest.raises(GraphUnavailable, match="another replica"):
                await a.rebuild()  # its marks would not follow: the leader's to do
            # The follower answers investigations from the graph the leader feeds.
            found = await gw.readers(case.poison)
            assert [r.call_id for r in found.readers] == ["c1-read"]

            await b.close()  # the leading replica shuts down
            for i in range(10):
                await gw.write(write(f"Fact {i} after the leader left.", "s7", f"w{i}"))
                assert await gw.read(case.poison, Reader(session_id="s7", call_id=f"r{i}"))
            await until(lambda: a.leader, 10)
            assert a.leader, "no replica took over the projection"
            await caught_up(a)
            assert a.projected_events > 0
            await no_duplicates(store_a, server, graph)
            found = await gw.readers(case.poison)
            assert len(found.readers) == 11
        await store_b.close()

    with falkordb_process(tmp_path / "falkor") as server:
        run(scenario(server))


def test_a_leader_sigkilled_mid_projection_is_replaced_without_duplicates(
    tmp_path: Path,
    postgres: PgServer,  # noqa: F811 - fixture
    inspector: Inspector,
) -> None:
    graph, name = f"g_{uuid.uuid4().hex[:8]}", f"memgate:test:{uuid.uuid4().hex}"

    async def scenario(server: FalkorServerProcess, url: str, child: Any) -> None:
        store = await PostgresStore.open(url, KEY)
        mine = projection_on(store, server, graph, PostgresLease(url, name))
        async with replica_gateway(url, inspector, mine, store) as gw:
            clock = Clock()
            case = await incident(gw, clock)
            await caught_up(mine)  # projected by the leader in the subprocess
            assert not mine.leader and mine.projected_events == 0
            # A burst, and the leader dies in the middle of projecting it.
            for i in range(60):
                await gw.write(write(f"Fact {i} of the burst.", f"s{i % 4}", f"w{i}"))
                assert await gw.read(case.poison, Reader(session_id=f"s{i % 4}", call_id=f"r{i}"))
            os.kill(child.pid, signal.SIGKILL)
            child.wait(timeout=10)
            for i in range(10):
                await gw.write(write(f"Fact {i} after the kill.", "s9", f"k{i}"))
            await until(lambda: mine.leader, 15)
            assert mine.leader, "no replica took over the projection"
            await caught_up(mine)
            assert mine.projected_events > 0
            await no_duplicates(store, server, graph)
            found = await gw.readers(case.poison)
            assert len(found.readers) == 61

    with falkordb_process(tmp_path / "falkor") as server:
        url = postgres.fresh_url()
        child = subprocess.Popen(
            [sys.executable, "-c", LEADER, url, server.url, graph, name],
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        try:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "leading"
            run(scenario(server, url, child))
        finally:
            if child.poll() is None:
                child.kill()
                child.wait(timeout=10)
            if child.stdout is not None:
                child.stdout.close()


def test_replicas_opened_on_postgres_elect_one_projector(
    tmp_path: Path,
    postgres: PgServer,  # noqa: F811 - fixture
) -> None:
    """Through the composition root: gateways on one PostgreSQL store and one
    FalkorDB server (replicas) take the lease `memgate:projector:<graph name>`."""
    graph = f"g_{uuid.uuid4().hex[:8]}"

    async def scenario(server: FalkorServerProcess, url: str) -> None:
        opened = [
            await open_gateway(tmp_path / "data", store_url=url, graph=server.url, graph_name=graph)
            for _ in range(2)
        ]
        try:
            clock = Clock()
            case = await incident(opened[0], clock)
            for i in range(5):
                await opened[1].write(write(f"Fact {i} from the other replica.", "s8", f"x{i}"))
                assert await opened[1].read(case.poison, Reader(session_id="s8", call_id=f"y{i}"))
            projections = [gw.graph for gw in opened]
            assert all(isinstance(p, GraphProjection) for p in projections)
            for p in projections:
                assert isinstance(p, GraphProjection)
                await caught_up(p)
            leaders = [p for p in projections if isinstance(p, GraphProjection) and p.leader]
            assert len(leaders) == 1
            (follower,) = [p for p in projections if p is not leaders[0]]
            assert isinstance(follower, GraphProjection) and follower.projected_events == 0
            store = opened[0].store
            assert isinstance(store, PostgresStore)
            await no_duplicates(store, server, graph)
        finally:
            for gw in opened:
                await gw.close()

    with falkordb_process(tmp_path / "falkor") as server:
        run(scenario(server, postgres.fresh_url()))
