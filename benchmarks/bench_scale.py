"""Durable writes/s over HTTP with 1, 2 and 4 gateway replicas on PostgreSQL +
Redis + a FalkorDB server, and one replica on SQLite for comparison.

Each cell starts its replicas afresh (uvicorn, one worker each, its
default loop and HTTP parser, their own data directories; the shared MEMGATE_LOG_KEY and
MEMGATE_FINGERPRINT_KEY; the same API keys file copied into each), on a new
PostgreSQL database, a new Redis key prefix and a new graph on one FalkorDB
server (tests/graph_server.py: falkordblite's engine on a TCP port). SQLite runs
the same, with its store under the data directory and the in-process short-term
pool. The load generator is one process of raw asyncio keep-alive HTTP/1.1
connections (bench_http's RawConnection: a fraction of httpx's CPU), `--conns`
per replica, each writing one memory at a time (POST /v1/memories, `user`
source, long-term: durable, one log event each), round robin over nothing: a
connection stays on its replica, as behind a load balancer with keep-alive.

After every cell: the log verifies (GET /v1/log/verify on one replica), the
writes the clients saw acknowledged (201) equal the replicas' own counters
(memgate_writes_total summed) and the growth of the log's head, and the graph
caught up (projection lag 0).

    .venv/bin/python benchmarks/bench_scale.py [--duration 10] [--conns 8]
        [--replicas 1 2 4] [--no-sqlite] [--out scale]

Targets (issue 17): >= 800 durable writes/s per replica; >= 1.6x from 1 to 2
replicas. Writes benchmarks/results/<out>.md and .json with machine info.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
import redis
from psycopg import sql

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_http import RawConnection, free_port, percentile, process_cpu  # noqa: E402
from bench_scan import machine  # noqa: E402

from memgate.service.keys_sqlite import SqliteKeyStore as KeyStore  # noqa: E402
from memgate.service.settings import KEYS_FILE  # noqa: E402
from tests.graph_server import FalkorServerProcess  # noqa: E402

RESULTS = HERE / "results"
ADMIN_URL = os.environ.get("MEMGATE_TEST_POSTGRES", "postgresql://root@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("MEMGATE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
PER_REPLICA_TARGET = 800.0
SCALING_TARGET = 1.6


@dataclass
class Cell:
    store: str
    replicas: int
    acked: int = 0
    errors: int = 0
    seconds: float = 0.0
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    counted: float = 0.0
    head_growth: int = 0
    verified: bool = False
    graph_lag: int | None = None
    server_cpu_s: float = 0.0

    @property
    def writes_per_s(self) -> float:
        return self.acked / self.seconds if self.seconds else 0.0

    @property
    def matched(self) -> bool:
        return self.counted == self.acked == self.head_growth


def start_replica(data_dir: Path, port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "--factory",
        "memgate.service.app:app_from_env",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--no-access-log",
        "--loop",
        "auto",
        "--http",
        "auto",
    ]
    return subprocess.Popen(command, env={**env, "MEMGATE_DATA_DIR": str(data_dir)})


def wait_up(base: str, process: subprocess.Popen[bytes], within: float = 180.0) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"replica on {base} exited ({process.returncode})")
        try:
            if httpx.get(base + "/readyz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"replica on {base} did not become ready")


def head(base: str, admin: str) -> tuple[int, int | None]:
    body = httpx.get(base + "/readyz", headers={"Authorization": f"Bearer {admin}"}).json()
    return int(body.get("log_head_seq") or 0), body.get("projection_lag")


async def load(
    ports: list[int], admin: str, conns: int, duration: float
) -> tuple[int, int, list[float]]:
    stop_at = time.monotonic() + duration
    latencies: list[float] = []
    counts = [0, 0]  # acked, errors

    async def one(port: int, n: int) -> None:
        conn = RawConnection("127.0.0.1", port, admin)
        i = 0
        try:
            while time.monotonic() < stop_at:
                i += 1
                body = {
                    "content": f"Scale fact {port}-{n}-{i}: the team ships on Tuesdays.",
                    "namespace": ["bench", f"p{port}", f"c{n}"],
                    "source": "user",
                    "target": "long",
                }
                t0 = time.perf_counter()
                try:
                    status, _ = await conn.request("POST", "/v1/memories", body)
                except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
                    counts[1] += 1
                    await conn.close()
                    continue
                latencies.append(time.perf_counter() - t0)
                counts[0 if status == 201 else 1] += 1
        finally:
            await conn.close()

    await asyncio.gather(*(one(p, n) for p in ports for n in range(conns)))
    return counts[0], counts[1], latencies


def run_cell(
    store: str, replicas: int, conns: int, duration: float, falkor: FalkorServerProcess
) -> Cell:
    cell = Cell(store=store, replicas=replicas)
    work = Path(tempfile.mkdtemp(prefix=f"mg-scale-{store}-{replicas}-"))
    database = f"mg_bench_scale_{uuid.uuid4().hex[:10]}"
    prefix = f"memgate:bench:scale:{uuid.uuid4().hex[:8]}:"
    env = {
        **os.environ,
        "MEMGATE_LOG_KEY": secrets.token_hex(32),
        "MEMGATE_FINGERPRINT_KEY": secrets.token_hex(32),
        "MEMGATE_GRAPH": falkor.url,
        "MEMGATE_GRAPH_NAME": f"scale_{uuid.uuid4().hex[:8]}",
    }
    if store == "postgres":
        with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
        env["MEMGATE_STORE"] = ADMIN_URL.rsplit("/", 1)[0] + "/" + database
        env["MEMGATE_SHORT"] = REDIS_URL
        env["MEMGATE_SHORT_PREFIX"] = prefix
    dirs = [work / f"r{n}" for n in range(replicas)]
    for d in dirs:
        (d / KEYS_FILE).parent.mkdir(parents=True)
    with KeyStore(dirs[0] / KEYS_FILE) as keys:
        admin = keys.ensure_admin()
    assert admin is not None
    for d in dirs[1:]:
        shutil.copy(dirs[0] / KEYS_FILE, d / KEYS_FILE)
    ports = [free_port() for _ in dirs]
    processes: list[subprocess.Popen[bytes]] = []
    try:
        processes.append(start_replica(dirs[0], ports[0], env))  # migrates first
        wait_up(f"http://127.0.0.1:{ports[0]}", processes[0])
        processes += [start_replica(d, p, env) for d, p in zip(dirs[1:], ports[1:], strict=True)]
        for p, process in zip(ports, processes, strict=True):
            wait_up(f"http://127.0.0.1:{p}", process)
        base = f"http://127.0.0.1:{ports[0]}"
        asyncio.run(load(ports, admin, 2, 1.0))  # warm-up (not counted)
        time.sleep(0.5)
        before, _ = head(base, admin)
        counted_before = sum(writes_total(f"http://127.0.0.1:{p}") for p in ports)
        cpu_before = sum(process_cpu(p.pid) for p in processes)
        t0 = time.perf_counter()
        cell.acked, cell.errors, latencies = asyncio.run(load(ports, admin, conns, duration))
        cell.seconds = time.perf_counter() - t0
        cell.server_cpu_s = sum(process_cpu(p.pid) for p in processes) - cpu_before
        cell.p50_ms, cell.p99_ms = percentile(latencies, 0.5), percentile(latencies, 0.99)
        after, _ = head(base, admin)
        cell.head_growth = after - before
        cell.counted = sum(writes_total(f"http://127.0.0.1:{p}") for p in ports) - counted_before
        verified = httpx.get(
            base + "/v1/log/verify", headers={"Authorization": f"Bearer {admin}"}, timeout=300
        ).json()
        cell.verified = bool(verified["ok"])
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            _, cell.graph_lag = head(base, admin)
            if cell.graph_lag == 0:
                break
            time.sleep(0.5)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if store == "postgres":
            with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
                conn.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                        sql.Identifier(database)
                    )
                )
            client = redis.Redis.from_url(REDIS_URL)
            for key in client.scan_iter(match=prefix + "*"):
                client.delete(key)
            client.close()
        shutil.rmtree(work, ignore_errors=True)
    return cell


def writes_total(base: str) -> float:
    text = httpx.get(base + "/metrics", timeout=30).text
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("memgate_writes_total{")
    )


def report(cells: list[Cell], args: argparse.Namespace, info: dict[str, Any]) -> str:
    pg = {c.replicas: c for c in cells if c.store == "postgres"}
    lines = [
        "# Scale: durable writes/s over HTTP, replicas on shared engines",
        "",
        f"`{' '.join(['python', 'benchmarks/bench_scale.py', *sys.argv[1:]])}`: "
        f"{args.duration:g} s per cell, {args.conns} keep-alive connections per replica "
        "(raw asyncio client, one process), each POST /v1/memories a durable long-term "
        "write (user source). Graph on a FalkorDB server in every cell.",
        "",
        f"Machine: {info['cpu']}, {info['cores']} cores, load average "
        f"{info['load_avg_1_5_15']} before the run (other jobs share it).",
        "",
        "| store | replicas | writes/s | per replica | p50 ms | p99 ms | errors "
        "| server CPU s/s | acked = counted = log growth | chain | graph lag |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in cells:
        lines.append(
            f"| {c.store} | {c.replicas} | {c.writes_per_s:.0f} | "
            f"{c.writes_per_s / c.replicas:.0f} | {c.p50_ms:.1f} | {c.p99_ms:.1f} | {c.errors} | "
            f"{c.server_cpu_s / c.seconds:.2f} | {c.acked} = {c.counted:.0f} = {c.head_growth} "
            f"{'ok' if c.matched else 'MISMATCH'} | {'verified' if c.verified else 'FAILED'} | "
            f"{c.graph_lag} |"
        )
    lines += ["", "| target | measured | met |", "|---|---|---|"]
    for c in cells:
        if c.store == "postgres":
            per = c.writes_per_s / c.replicas
            lines.append(
                f"| >= {PER_REPLICA_TARGET:.0f} durable writes/s per replica ({c.replicas}) | "
                f"{per:.0f} | {'met' if per >= PER_REPLICA_TARGET else 'missed'} |"
            )
    if 1 in pg and 2 in pg and pg[1].writes_per_s:
        ratio = pg[2].writes_per_s / pg[1].writes_per_s
        lines.append(
            f"| >= {SCALING_TARGET}x from 1 to 2 replicas | {ratio:.2f}x | "
            f"{'met' if ratio >= SCALING_TARGET else 'missed'} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--conns", type=int, default=8, help="connections per replica")
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--no-sqlite", action="store_true")
    parser.add_argument("--out", default="scale")
    args = parser.parse_args()
    info = machine()
    cells: list[Cell] = []
    with tempfile.TemporaryDirectory(prefix="mg-scale-falkor-") as falkor_dir:
        falkor = FalkorServerProcess.start(Path(falkor_dir))
        try:
            if not args.no_sqlite:
                cells.append(run_cell("sqlite", 1, args.conns, args.duration, falkor))
                print(cells[-1], flush=True)
            for n in args.replicas:
                cells.append(run_cell("postgres", n, args.conns, args.duration, falkor))
                print(cells[-1], flush=True)
        finally:
            falkor.stop()
    text = report(cells, args, info)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.out}.md").write_text(text)
    payload = {
        "machine": info,
        "load_avg_after": os.getloadavg(),
        "args": vars(args),
        "cells": [
            {
                **c.__dict__,
                "writes_per_s": c.writes_per_s,
                "per_replica": c.writes_per_s / c.replicas,
                "matched": c.matched,
            }
            for c in cells
        ],
    }
    (RESULTS / f"{args.out}.json").write_text(json.dumps(payload, indent=2) + "\n")
    ok = all(c.verified and c.matched and c.graph_lag == 0 for c in cells)
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
