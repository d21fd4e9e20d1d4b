"""HTTP throughput and latency of the memgate service over loopback.

The service runs in its own process (uvicorn, one worker: the gateway owns the
SQLite writer and the short-term pool) on a fresh data directory, with the
embedded FalkorDB projection on by default. Client processes each run asyncio
tasks with their own keep-alive httpx client, for a fixed duration or until a
bounded number of requests, whichever comes first. The mix: `--write-ratio` of
requests are writes (POST /v1/memories, ~`--size` B generated texts, half from
`user` -> long-term approved, half from `tool` -> short-term transient); the
rest are reads: GET /v1/memories/{id} of an id the task wrote (2 in 3) or a
one-word search under the task's namespace (1 in 3). Every read carries
session and call ids, so it is recorded (and projected) like a real one.

An error is any answer other than the expected 201 / 200, or no answer. After
the run the service's own counters (/metrics) must agree with the writes the
clients saw acknowledged, and /v1/log/verify must pass.

    .venv/bin/python benchmarks/bench_http.py [--duration 10] [--max-requests 20000]
        [--procs 2] [--tasks 16] [--write-ratio 0.8] [--size 512] [--graph embedded|none]

Prints a table; writes benchmarks/results/http.md and http.json with machine info.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scan import machine
from corpus_gen import generate

from memgate.service.keys import Role
from memgate.service.keys_sqlite import SqliteKeyStore as KeyStore
from memgate.service.settings import KEYS_FILE

RESULTS = Path(__file__).resolve().parent / "results"
WORDS = ("deploy", "latency", "invoices", "rotation", "search", "retry", "cron", "user")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(
    data_dir: Path, port: int, graph: str, profile: str | None = None
) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "MEMGATE_DATA_DIR": str(data_dir),
        "MEMGATE_GRAPH": graph,
    }
    prefix = []
    if profile:  # sample the server with py-spy (collapsed stacks)
        spy = str(Path(sys.executable).with_name("py-spy"))
        prefix = [
            spy,
            "record",
            "--nonblocking",
            "--threads",
            "--format",
            "raw",
            "--rate",
            "100",
            "-o",
            profile,
            "--",
        ]
    command = [
        *prefix,
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
        "uvloop",
        "--http",
        "httptools",
    ]
    return subprocess.Popen(command, env=env)


def wait_ready(base: str, within: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            answer = httpx.get(base + "/readyz", timeout=2)
            if answer.status_code == 200:
                body: dict[str, Any] = answer.json()
                if body["status"] == "ready":
                    return body
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit("the service did not become ready")


class RawConnection:
    """A minimal HTTP/1.1 keep-alive client on asyncio streams (`--client raw`): it
    costs the load generator a fraction of httpx's CPU, so on a small machine the
    server, not the clients, is what gets measured."""

    def __init__(self, host: str, port: int, key: str) -> None:
        self.host, self.port = host, port
        self.fixed = f"Host: {host}:{port}\r\nAuthorization: Bearer {key}\r\n"
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        payload = b"" if body is None else json.dumps(body).encode()
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        head = (
            f"{method} {path} HTTP/1.1\r\n{self.fixed}{extra}"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        )
        self.writer.write(head.encode() + payload)
        await self.writer.drain()
        status = int((await self.reader.readline()).split(b" ", 2)[1])
        length, close = 0, False
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection" and value.strip().lower() == b"close":
                close = True
        data = await self.reader.readexactly(length) if length else b""
        if close:
            await self.close()
        return status, data

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


async def run_tasks(
    base: str,
    key: str,
    worker: int,
    pool: list[list[str]],
    deadline: float,
    budget: int,
    args: Any,
) -> list[tuple[str, float, int]]:
    """(kind, seconds, status) per request; status 0 = no answer."""
    results: list[tuple[str, float, int]] = []
    remaining = [budget]
    tasks = len(pool)
    limits = httpx.Limits(max_connections=tasks, max_keepalive_connections=tasks)
    headers = {"Authorization": f"Bearer {key}"}
    host, port = base.removeprefix("http://").split(":")
    async with httpx.AsyncClient(
        base_url=base, headers=headers, limits=limits, timeout=30
    ) as client:

        async def task(number: int) -> None:
            rng = random.Random(worker * 1000 + number)
            texts = pool[number]
            namespace = ["bench", f"w{worker}", f"t{number}"]
            session = f"s-{worker}-{number}"
            raw = RawConnection(host, int(port), key) if args.client == "raw" else None

            async def send(
                method: str, path: str, body: Any = None, extra: dict[str, str] | None = None
            ) -> tuple[int, bytes]:
                if raw is not None:
                    return await raw.request(method, path, body, extra)
                answer = await client.request(method, path, json=body, headers=extra)
                return answer.status_code, answer.content

            written: list[str] = []
            seq = 0
            while time.monotonic() < deadline and remaining[0] > 0:
                remaining[0] -= 1
                seq += 1
                write = not written or rng.random() < args.write_ratio
                started = time.perf_counter()
                if write:
                    kind, expect = "write", 201
                    body = {
                        "content": texts[seq % len(texts)],
                        "namespace": namespace,
                        "source": "user" if seq % 2 else "tool",
                        "session_id": session,
                        "call_id": f"c{seq}",
                    }
                    request = send("POST", "/v1/memories", body)
                elif rng.random() < 2 / 3:
                    kind, expect = "get", 200
                    request = send(
                        "GET",
                        f"/v1/memories/{rng.choice(written)}",
                        extra={"X-Memgate-Session": session, "X-Memgate-Call": f"c{seq}"},
                    )
                else:
                    kind, expect = "search", 200
                    search = {
                        "namespace": namespace,
                        "query": rng.choice(WORDS),
                        "limit": 10,
                        "session_id": session,
                        "call_id": f"c{seq}",
                    }
                    request = send("POST", "/v1/memories/search", search)
                try:
                    status, data = await request
                except (httpx.HTTPError, OSError, asyncio.IncompleteReadError, ValueError):
                    status, data = 0, b""
                    if raw is not None:
                        await raw.close()
                results.append((kind, time.perf_counter() - started, status))
                if write and status == expect:
                    written.append(json.loads(data)["id"])
            if raw is not None:
                await raw.close()

        await asyncio.gather(*(task(n) for n in range(tasks)))
    return results


def client_process(
    base: str,
    key: str,
    worker: int,
    tasks: int,
    start_at: float,
    duration: float,
    budget: int,
    args: Any,
    out: Any,
) -> None:
    # Texts are generated before the clock starts (the clients share the cores with
    # the server: their work should be the HTTP calls). Unique per task and index.
    per_task = max(1, budget // tasks + 1)
    pool = [
        [
            generate(args.size, args.kind, (worker * 1000 + n) * 1_000_003 + i)
            for i in range(per_task)
        ]
        for n in range(tasks)
    ]
    delay = start_at - time.time()
    if delay > 0:
        time.sleep(delay)
    deadline = time.monotonic() + duration
    before = resource.getrusage(resource.RUSAGE_SELF)
    began = time.time()
    results = asyncio.run(run_tasks(base, key, worker, pool, deadline, budget, args))
    ended = time.time()
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    out.put((results, cpu, began, ended))


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def server_counters(base: str, admin: str) -> tuple[float, bool]:
    text = httpx.get(base + "/metrics", timeout=30).text
    writes = sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("memgate_writes_total{")
    )
    verified = httpx.get(
        base + "/v1/log/verify", headers={"Authorization": f"Bearer {admin}"}, timeout=120
    ).json()
    return writes, bool(verified["ok"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--max-requests", type=int, default=20_000)
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--tasks", type=int, default=16, help="concurrent tasks per process")
    parser.add_argument("--write-ratio", type=float, default=0.8)
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--kind", default="prose", choices=["prose", "mixed", "code", "hostile"])
    parser.add_argument("--graph", default="embedded", help="embedded, none, or a FalkorDB URL")
    parser.add_argument(
        "--client",
        default="httpx",
        choices=["httpx", "raw"],
        help="httpx.AsyncClient, or a minimal keep-alive HTTP/1.1 client (cheaper)",
    )
    parser.add_argument("--out", default="http")
    parser.add_argument("--profile", help="write py-spy collapsed stacks of the server here")
    args = parser.parse_args()

    load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    data_dir = Path(tempfile.mkdtemp(prefix="memgate-bench-http-"))
    with KeyStore(data_dir / KEYS_FILE) as keys:
        admin = keys.ensure_admin()
        assert admin is not None
        _, agent = keys.create("bench", Role.AGENT, [("bench",)])
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(data_dir, port, args.graph, args.profile)
    try:
        ready = wait_ready(base)
        ctx = mp.get_context("spawn")
        out = ctx.Queue()
        start_at = time.time() + 5.0
        budget = args.max_requests // args.procs
        workers = [
            ctx.Process(
                target=client_process,
                args=(base, agent, n, args.tasks, start_at, args.duration, budget, args, out),
            )
            for n in range(args.procs)
        ]
        for worker in workers:
            worker.start()
        results: list[tuple[str, float, int]] = []
        client_cpu = 0.0
        server_before = process_cpu(server.pid)
        windows: list[tuple[float, float]] = []
        for _ in workers:
            got, cpu, began, ended = out.get()
            results.extend(got)
            client_cpu += cpu
            windows.append((began, ended))
        server_cpu = process_cpu(server.pid) - server_before
        for worker in workers:
            worker.join()
        # The measured window: first client start to last client end.
        elapsed = max(e for _, e in windows) - min(b for b, _ in windows)
        server_writes, chain_ok = server_counters(base, admin)
    finally:
        server.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
        server.wait(60)
        shutdown_ok = server.returncode == 0
        shutil.rmtree(data_dir, ignore_errors=True)

    expected = {"write": 201, "get": 200, "search": 200}
    rows = []
    for kind in ("write", "get", "search"):
        mine = [r for r in results if r[0] == kind]
        ok = [r[1] for r in mine if r[2] == expected[kind]]
        rows.append(
            {
                "op": kind,
                "requests": len(mine),
                "per_s": round(len(ok) / elapsed, 1),
                "p50_ms": round(percentile(ok, 0.50), 2),
                "p99_ms": round(percentile(ok, 0.99), 2),
                "errors": len(mine) - len(ok),
            }
        )
    every = [r[1] for r in results if r[2] == expected[r[0]]]
    errors = sum(row["errors"] for row in rows)
    statuses: dict[str, int] = {}
    for _, _, status in results:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    acked = sum(1 for r in results if r[0] == "write" and r[2] == 201)
    summary = {
        "requests": len(results),
        "seconds": round(elapsed, 2),
        "requests_per_s": round(len(every) / elapsed, 1),
        "writes_per_s": rows[0]["per_s"],
        "p50_ms": round(percentile(every, 0.50), 2),
        "p99_ms": round(percentile(every, 0.99), 2),
        "errors": errors,
        "statuses": statuses,
        "acknowledged_writes": acked,
        "server_counted_writes": int(server_writes),
        "log_verified": chain_ok,
        "graph": ready.get("graph"),
        "clean_shutdown": shutdown_ok,
        "server_cpu_s": round(server_cpu, 2),
        "client_cpu_s": round(client_cpu, 2),
        "server_cpu_ms_per_request": round(server_cpu / max(1, len(results)) * 1000, 3),
    }
    config = {
        k: getattr(args, k)
        for k in (
            "duration",
            "max_requests",
            "procs",
            "tasks",
            "write_ratio",
            "size",
            "kind",
            "graph",
            "client",
        )
    }
    header = "| op | requests | per_s | p50_ms | p99_ms | errors |\n|---|---|---|---|---|---|"
    table = "\n".join(
        f"| {r['op']} | {r['requests']} | {r['per_s']} | {r['p50_ms']} | {r['p99_ms']} |"
        f" {r['errors']} |"
        for r in rows
    )
    total = (
        f"| all | {summary['requests']} | {summary['requests_per_s']} | {summary['p50_ms']} |"
        f" {summary['p99_ms']} | {errors} |"
    )
    text = (
        "# bench_http\n\n"
        f"memgate service over loopback: uvicorn (1 worker, uvloop, httptools), graph "
        f"`{args.graph}`; {args.procs} client processes x {args.tasks} asyncio tasks "
        f"({args.client} client, keep-alive), {args.duration:g} s or {args.max_requests} "
        "requests; "
        f"{args.write_ratio:.0%} writes of ~{args.size} B `{args.kind}` texts (half user -> "
        "long-term, half tool -> short-term), reads = 2/3 GET by id, 1/3 one-word search. "
        "Server and clients share the machine's cores.\n\n"
        f"{header}\n{table}\n{total}\n\n"
        f"acknowledged writes {acked}, counted by the service {int(server_writes)}; "
        f"log verified: {chain_ok}; statuses {statuses}\n\n"
        f"CPU during the run: server {server_cpu:.1f} s "
        f"({summary['server_cpu_ms_per_request']} ms a request), clients {client_cpu:.1f} s; "
        f"load average before {load_before}\n"
    )
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.out}.md").write_text(text, encoding="utf-8")
    payload = {"config": config, "summary": summary, "rows": rows, "machine": machine()}
    (RESULTS / f"{args.out}.json").write_text(
        json.dumps(payload, indent=2) + "\n", encoding="utf-8"
    )
    if errors or acked != int(server_writes) or not chain_ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
