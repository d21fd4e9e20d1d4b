"""A FalkorDB server process over TCP (tests/graph_server.py): its outage, and
one projector across replicas elected by a lease."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from graph_scenarios import Clock, incident, run, write

from memgate.bootstrap import open_gateway
from memgate.domain.graph import InvestigationStatus as S
from memgate.domain.memory import Reader
from memgate.gateway import Gateway
from memgate.graph import FalkorConnection, GraphProjection, open_graph
from tests.graph_server import FalkorServerProcess, falkordb_process


def projection(gateway: Gateway) -> GraphProjection:
    assert isinstance(gateway.graph, GraphProjection)
    return gateway.graph


async def wait_until_caught_up(gateway: Gateway, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = await gateway.projection_status()
        if status.available and status.lag == 0:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"projection did not catch up: {await gateway.projection_status()}")


def test_the_server_process_answers_and_stops_without_orphans(tmp_path: Path) -> None:
    with falkordb_process(tmp_path) as server:
        pid = server.pid
        assert server.url.startswith("redis://127.0.0.1:")
        assert Path(f"/proc/{pid}").exists()
    assert server.process is None
    deadline = time.monotonic() + 5
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not Path(f"/proc/{pid}").exists() or "zombie" in _state(pid)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return "zombie"


def test_a_server_killed_and_restarted_empty_is_projected_again(tmp_path: Path) -> None:
    """SIGKILL the server (no persistence: it comes back empty): writes and reads go
    on meanwhile, and once it is back the projection rebuilds it from the log."""

    async def scenario(server: FalkorServerProcess) -> None:
        clock = Clock()
        gw = await open_gateway(tmp_path / "data", graph=server.url, graph_name="g", clock=clock)
        try:
            case = await incident(gw, clock)
            await wait_until_caught_up(gw)
            server.kill()
            for i in range(10):
                await gw.write(write(f"Fact {i} while the graph is down.", "s5", f"w{i}"))
                assert await gw.read(case.poison, Reader(session_id="s5", call_id=f"r{i}"))
            server.launch()  # same port, empty
            await wait_until_caught_up(gw)
            found = await gw.readers(case.poison)
            assert found.status is S.OK
            assert [r.call_id for r in found.readers] == ["c1-read", *[f"r{i}" for i in range(10)]]
        finally:
            await gw.close()

    with falkordb_process(tmp_path / "server") as server:
        run(scenario(server))


def test_two_projectors_without_a_lease_never_duplicate_an_effect(tmp_path: Path) -> None:
    """The lease is what keeps a second projector idle; the graph's marks are what
    keeps one that runs anyway (a deposed leader still writing) from doubling
    anything: its batches are refused, it re-reads the marks and goes on from
    there. READ edges are CREATEd, so a double projection would show in them."""

    async def scenario(server: FalkorServerProcess) -> None:
        clock = Clock()
        gw = await open_gateway(tmp_path / "data", graph=server.url, graph_name="g", clock=clock)
        second = open_graph(gw.store, url=server.url, graph_name="g")
        await second.start()
        try:
            case = await incident(gw, clock)
            for i in range(30):
                await gw.write(write(f"Fact {i}.", f"s{i % 3}", f"w{i}"))
                assert await gw.read(case.poison, Reader(session_id=f"s{i % 3}", call_id=f"r{i}"))
            await wait_until_caught_up(gw)
            assert await second.sync(within=60)  # a loaded 2-core CI machine
            reads = await gw.store.reads_after(0, 10_000)
            edges = server_count(server, "MATCH ()-[r:READ]->() RETURN count(r)")
            assert edges == len(reads)
            found = await gw.readers(case.poison)
            assert len(found.readers) == 31
        finally:
            await second.close()
            await gw.close()

    with falkordb_process(tmp_path / "server") as server:
        run(scenario(server))


def server_count(server: FalkorServerProcess, cypher: str) -> int:
    conn = FalkorConnection(graph_name="g", url=server.url)
    try:
        return int(conn.query(cypher)[0][0])
    finally:
        conn.close()
