"""Stateless replicas, end to end: three real (REPLICAS) `memgate serve` processes on one
PostgreSQL store, one Redis short-term pool and one FalkorDB server, written to
at once over HTTP; the replica holding the projector lease is SIGKILLed in the
middle of the writes. Afterwards, through a surviving replica: every write that
was acknowledged (201) reads back, the chain verifies, and the graph caught up
under exactly one projector (one advisory lock held; each memory and each
recorded read once in the graph: a second projector would have doubled READ
edges, which are CREATEd).

Each replica has its own data directory (`memgate serve` locks it); what they
share comes from the environment (MEMGATE_LOG_KEY, MEMGATE_FINGERPRINT_KEY) and
the API keys file, copied into each data directory before start (each replica
imports its file's keys into the PostgreSQL key store, the migration path of
docs/scaling.md; tests/test_replicas_keys.py starts replicas with nothing copied)."""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psutil
import psycopg
import pytest
import redis

from memgate.graph import FalkorConnection
from memgate.service.keys_sqlite import SqliteKeyStore as KeyStore
from memgate.service.settings import KEYS_FILE
from tests.cli.serving import free_port, stop
from tests.graph_server import falkordb_process
from tests.pg_fixtures import PgServer, postgres  # noqa: F401 - fixture
from tests.redis_fixtures import redis_url  # noqa: F401 - fixture

REPLICAS = 3
WORKERS = 4
"""Concurrent writers per replica."""
KILL_AFTER = 30
"""Acknowledged writes on the victim before it is SIGKILLed."""
MORE_AFTER_KILL = 40
"""Acknowledged writes the survivors make after the kill."""


@dataclass
class Load:
    acked: dict[str, str] = field(default_factory=dict)
    """memory id -> content, for every 201."""
    receipts: dict[str, tuple[str, str, int]] = field(default_factory=dict)
    victim_acked: int = 0
    victim_failed: int = 0
    after_kill: int = 0
    killed: asyncio.Event = field(default_factory=asyncio.Event)
    kill_now: asyncio.Event = field(default_factory=asyncio.Event)
    enough: asyncio.Event = field(default_factory=asyncio.Event)


START_SECONDS = 150
"""A replica's start on the shared, loaded 2-core machine takes 10-40 s (imports,
the store, the lease, the graph); tests/cli/serving's 60 s is too tight for two
or three starting at once."""


def start_server(data_dir: Path, log: Path, *args: str) -> tuple[subprocess.Popen[bytes], str]:
    """`memgate serve` on a free port, once /healthz answers."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("MEMGATE_URL", "MEMGATE_KEY")}
    command = [sys.executable, "-m", "memgate.cli", "serve", "--data-dir", str(data_dir)]
    command += ["--port", str(port), "--log-level", "warning", *args]
    with open(log, "wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"memgate serve exited: {log.read_text()}")
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    process.wait()
    raise AssertionError(f"memgate serve did not answer in {START_SECONDS} s: {log.read_text()}")


def holder_pid(url: str, replicas: list[subprocess.Popen[bytes]]) -> tuple[int, int]:
    """(number of advisory locks held on the database, pid of the replica whose
    connection holds the projector lease): the lease connection's client port is
    matched against each replica's sockets."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT a.client_port FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.database ="
            " (SELECT oid FROM pg_database WHERE datname = current_database())"
        ).fetchall()
    ports = {int(str(r[0])) for r in rows}
    for process in replicas:
        if process.poll() is not None:
            continue
        local = {
            c.laddr.port for c in psutil.Process(process.pid).net_connections("tcp") if c.laddr
        }
        if ports & local:
            return len(rows), process.pid
    return len(rows), 0


async def writer(
    http: httpx.AsyncClient, load: Load, name: str, victim: bool, stop_at: asyncio.Event
) -> None:
    i = 0
    while not stop_at.is_set():
        i += 1
        content = f"Replica fact {name}-{i}: the build uses metric units."
        try:
            made = await http.post(
                "/v1/memories",
                json={
                    "content": content,
                    "namespace": ["acme", name],
                    "target": "long",
                    "source": "user",
                    "session_id": f"s-{name}",
                    "call_id": f"c{i}",
                },
            )
        except httpx.HTTPError:
            if victim:
                load.victim_failed += 1
                return
            raise
        assert made.status_code == 201, made.text
        receipt = made.json()
        memory_id = receipt["id"]
        load.acked[memory_id] = content
        load.receipts[memory_id] = (receipt["state"], receipt["pool"], receipt["seq"])
        if victim:
            load.victim_acked += 1
            if load.victim_acked >= KILL_AFTER:
                load.kill_now.set()
        elif load.killed.is_set():
            load.after_kill += 1
            if load.after_kill >= MORE_AFTER_KILL:
                load.enough.set()
        if i % 3 == 0:  # reads too, so the graph has READ edges to count
            try:
                got = await http.get(
                    f"/v1/memories/{memory_id}", headers={"X-Memgate-Session": f"s-{name}"}
                )
            except httpx.HTTPError:
                if victim:
                    return
                raise
            assert got.status_code == 200, got.text


def test_replicas_survive_a_sigkill_mid_write(
    tmp_path: Path,
    postgres: PgServer,  # noqa: F811 - fixture
    redis_url: str,  # noqa: F811 - fixture
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started = time.monotonic()
    store_url = postgres.fresh_database()
    prefix = f"memgate:test:replicas:{uuid.uuid4().hex[:8]}:"
    graph_name = f"replicas_{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("MEMGATE_LOG_KEY", secrets.token_hex(32))
    monkeypatch.setenv("MEMGATE_FINGERPRINT_KEY", secrets.token_hex(32))
    monkeypatch.setenv("MEMGATE_SHORT_PREFIX", prefix)
    monkeypatch.setenv("MEMGATE_GRAPH_NAME", graph_name)
    dirs = [tmp_path / f"replica{n}" for n in range(REPLICAS)]
    (dirs[0] / KEYS_FILE).parent.mkdir(parents=True)
    with KeyStore(dirs[0] / KEYS_FILE) as keys:
        admin = keys.ensure_admin()
    assert admin is not None
    for d in dirs[1:]:
        (d / KEYS_FILE).parent.mkdir(parents=True)
        shutil.copy(dirs[0] / KEYS_FILE, d / KEYS_FILE)

    processes: list[subprocess.Popen[bytes]] = []
    with falkordb_process(tmp_path / "falkor") as falkor:
        args = ("--store", store_url, "--short", redis_url, "--graph", falkor.url)
        try:
            # The first replica migrates the new database; then the others, at once
            # (on this loaded 2-core machine a replica takes 10-25 s to start).
            first = start_server(dirs[0], tmp_path / "r0.log", *args)
            processes.append(first[0])
            with ThreadPoolExecutor(REPLICAS - 1) as pool:
                rest = list(
                    pool.map(
                        lambda n: start_server(dirs[n], tmp_path / f"r{n}.log", *args),
                        range(1, REPLICAS),
                    )
                )
            processes += [p for p, _ in rest]
            urls = [first[1], *(u for _, u in rest)]
            print(f"replicas up after {time.monotonic() - started:.1f} s")
            locks, leader = holder_pid(store_url, processes)
            assert locks == 1 and leader, "exactly one replica holds the projector lease"
            victim = next(n for n, p in enumerate(processes) if p.pid == leader)
            survivor = urls[(victim + 1) % REPLICAS]

            load = Load()
            asyncio.run(drive(urls, victim, processes[victim], load, admin))
            assert load.victim_acked >= KILL_AFTER
            assert load.after_kill >= MORE_AFTER_KILL
            asyncio.run(check(survivor, load, admin))

            # The lease moved to a survivor; the graph caught up under it alone.
            asyncio.run(caught_up([u for n, u in enumerate(urls) if n != victim], admin))
            locks, leader = holder_pid(store_url, processes)
            assert locks == 1 and leader not in (0, processes[victim].pid)
            memories = postgres.execute(
                store_url,
                "SELECT count(DISTINCT memory_id) FROM events"
                " WHERE left(memory_id, 9) <> 'rollback:'",
            )[0][0]
            reads = postgres.execute(store_url, "SELECT count(*) FROM reads")[0][0]
            graph = FalkorConnection(graph_name=graph_name, url=falkor.url)
            try:
                in_graph = graph.query("MATCH (m:Memory) RETURN count(m)")[0][0]
                edges = graph.query("MATCH ()-[r:READ]->() RETURN count(r)")[0][0]
            finally:
                graph.close()
            assert (in_graph, edges) == (memories, reads)
            assert int(str(reads)) > 0
        finally:
            for process in processes:
                if process.poll() is None:
                    stop(process)
            client = redis.Redis.from_url(redis_url)
            for key in client.scan_iter(match=prefix + "*"):
                client.delete(key)
            client.close()
    print(f"done after {time.monotonic() - started:.1f} s")


async def drive(
    urls: list[str], victim: int, process: subprocess.Popen[bytes], load: Load, admin: str
) -> None:
    stop_at = asyncio.Event()
    headers = {"Authorization": f"Bearer {admin}"}
    clients = [httpx.AsyncClient(base_url=u, headers=headers, timeout=30) for u in urls]
    try:
        tasks = [
            asyncio.create_task(writer(clients[n], load, f"r{n}w{w}", n == victim, stop_at))
            for n in range(len(urls))
            for w in range(WORKERS)
        ]
        await asyncio.wait_for(load.kill_now.wait(), 30)
        process.send_signal(signal.SIGKILL)  # mid-write: its writers have requests in flight
        load.killed.set()
        await asyncio.wait_for(load.enough.wait(), 30)
        stop_at.set()
        await asyncio.gather(*tasks)
    finally:
        for c in clients:
            await c.aclose()
    process.wait(timeout=10)
    assert process.returncode == -signal.SIGKILL


async def check(url: str, load: Load, admin: str) -> None:
    """Every acknowledged write reads back through `url`; the chain verifies."""
    async with httpx.AsyncClient(
        base_url=url, headers={"Authorization": f"Bearer {admin}"}, timeout=30
    ) as http:
        for memory_id, content in load.acked.items():
            got = await http.get(f"/v1/memories/{memory_id}")
            assert got.status_code == 200, (memory_id, load.receipts[memory_id], got.text)
            assert got.json()["content"] == content
        verified = await http.get("/v1/log/verify")
        assert verified.status_code == 200 and verified.json()["ok"], verified.text


async def caught_up(urls: list[str], admin: str, seconds: float = 30.0) -> None:
    """Every surviving replica's /readyz says the graph is up with no lag."""
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {admin}"}) as http:
        deadline = time.monotonic() + seconds
        pending = list(urls)
        while pending and time.monotonic() < deadline:
            body = (await http.get(pending[0] + "/readyz")).json()
            if body.get("graph") == "ok" and body.get("projection_lag") == 0:
                pending.pop(0)
            else:
                await asyncio.sleep(0.1)
        assert not pending, f"the graph did not catch up: {body}"
