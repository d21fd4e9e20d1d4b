"""The embedded server's failure modes, for real: killed mid-run (SIGKILL), and
stale `.settings` files left behind by a crash."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from pathlib import Path

from graph_scenarios import Clock, incident, run, write

from memgate.bootstrap import open_gateway
from memgate.domain.graph import InvestigationStatus as S
from memgate.domain.memory import Reader
from memgate.gateway import Gateway
from memgate.graph import FalkorConnection, GraphProjection, clean_stale_settings
from memgate.graph.server import DB_FILE, settings_file


def projection(gateway: Gateway) -> GraphProjection:
    assert isinstance(gateway.graph, GraphProjection)
    return gateway.graph


def server_pid(gateway: Gateway) -> int:
    backend = projection(gateway).backend
    return backend.connection.server_pid  # type: ignore[attr-defined,no-any-return]


async def wait_until_caught_up(gateway: Gateway, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = await gateway.projection_status()
        if status.available and status.lag == 0:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"projection did not catch up: {await gateway.projection_status()}")


def test_server_killed_mid_run_writes_go_on_and_the_projection_catches_up(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        clock = Clock()
        gw = await open_gateway(tmp_path, graph="embedded", clock=clock)
        try:
            case = await incident(gw, clock)
            await wait_until_caught_up(gw)
            pid = server_pid(gw)
            assert pid > 0
            os.kill(pid, signal.SIGKILL)
            # The graph is gone: writes and reads neither fail nor wait for it.
            during = []
            for i in range(20):
                started = time.perf_counter()
                receipt = await gw.write(write(f"Fact {i} while the graph is down.", "s5", f"w{i}"))
                assert await gw.read(case.poison, Reader(session_id="s5", call_id=f"r{i}"))
                during.append(time.perf_counter() - started)
            assert max(during) < 1.0
            found = await gw.readers(case.poison)
            # Either the graph is still down (and says so), or it is back and complete.
            if found.status is S.GRAPH_UNAVAILABLE:
                assert found.readers == ()
            await wait_until_caught_up(gw)
            assert server_pid(gw) not in (0, pid)
            found = await gw.readers(case.poison)
            assert found.status is S.OK
            calls = [r.call_id for r in found.readers]
            assert calls == ["c1-read", *[f"r{i}" for i in range(20)]]
            blast = await gw.blast_radius(case.poison, 1)
            assert receipt.id in {r.memory_id for r in blast.impact}
        finally:
            await gw.close()

    run(scenario())


def _fake_settings(db_path: Path, pid: int, socket_path: str) -> Path:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    pidfile = db_path.parent / "fake.pid"
    pidfile.write_text(str(pid))
    path = settings_file(db_path)
    settings = {
        "pidfile": str(pidfile),
        "unixsocket": socket_path,
        "dbdir": str(db_path.parent),
        "dbfilename": db_path.name,
    }
    path.write_text(json.dumps(settings))
    return path


def test_stale_settings_naming_a_live_pid_and_a_dead_socket_are_cleaned(tmp_path: Path) -> None:
    """The pid in a stale file may belong to another process by now (here: this
    test itself). It must be neither trusted nor killed."""
    db_path = tmp_path / "graph" / DB_FILE
    stale = _fake_settings(db_path, os.getpid(), str(tmp_path / "gone.sock"))

    async def scenario() -> None:
        gw = await open_gateway(tmp_path, graph="embedded")
        try:
            receipt = await gw.write(write("After a crash.", "s1", "c1"))
            assert (await gw.provenance(receipt.id)).status is S.OK
            settings = json.loads(stale.read_text())
            assert settings["unixsocket"] != str(tmp_path / "gone.sock")
        finally:
            await gw.close()

    run(scenario())


def test_corrupt_settings_file_is_cleaned(tmp_path: Path) -> None:
    db_path = tmp_path / DB_FILE
    settings_file(db_path).write_text('{"pidfile": ')
    assert clean_stale_settings(db_path)
    assert not settings_file(db_path).exists()
    assert not clean_stale_settings(db_path)


def test_a_crashed_server_leaves_settings_that_a_restart_replaces(tmp_path: Path) -> None:
    first = FalkorConnection(graph_name="g", data_dir=tmp_path)
    first.connect()
    first.query("CREATE (:Memory {id: 'kept'})")
    first.query("RETURN 1")
    pid = first.server_pid
    # Persist, then crash without any cleanup.
    first._db.client.save()  # reaching the embedded server to force a save
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.02)
    assert settings_file(tmp_path / DB_FILE).exists()
    assert clean_stale_settings(tmp_path / DB_FILE)
    second = FalkorConnection(graph_name="g", data_dir=tmp_path)
    try:
        second.connect()
        assert second.server_pid not in (0, pid)
        assert second.query("MATCH (m:Memory) RETURN m.id") == [["kept"]]
    finally:
        second.close()
        first.close(shutdown=False)
