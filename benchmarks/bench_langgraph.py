"""LangGraph store overhead: memgate's MemgateStore against langgraph's own
InMemoryStore and SqliteStore, in the same run, on the same values.

One op pair = `put(namespace, key, value)` then `get(namespace, key)` of a small
JSON value (~200 bytes of prose). For memgate a put is scan + score + route +
MAC-chained log append + SQLite commit; a get is a pool lookup plus the
recorded read (provenance). SqliteStore runs with WAL and synchronous=NORMAL,
the durability memgate's store uses, so the comparison is like for like.

Rows:
  InMemoryStore                 langgraph, sync, dict
  SqliteStore                   langgraph, sync, one file (WAL, NORMAL)
  MemgateStore sync (sqlite)    MemgateStore.open(dir): calls hop to the gateway's loop thread
  MemgateStore async (sqlite)   await aput/aget on the gateway's own loop
  MemgateStore async (twins)    in-memory twins: the gateway's cost without SQLite
  MemgateStore sync queued      MemgateStore.open(dir, ack="queued"): put returns once parked
  MemgateStore async queued     the same on the gateway's own loop (get served from the park)
  MemgateStore sync journaled   MemgateStore.open(dir, ack="journaled"): put returns once the
                                value is a durable row of the pending journal (after the
                                sensitive-rules check); scanned and admitted when the store is
                                quiet, or by the final flush()
  MemgateStore async journaled  the same on the gateway's own loop
  MemgateStore abatch (sqlite)  abatch of all n PutOps, then of all n GetOps (put/get = per op)
  Gateway only (sqlite)         Gateway.write + read_key of the same JSON text, no adapter:
                                the adapter's own overhead is the difference to the row above it

    .venv/bin/python benchmarks/bench_langgraph.py [--n 1000] [--source agent]

A queued or journaled put's scan and commit happen after it returned, so those rows also
give `drain` (the time the final flush() waited) and `end-to-end` = (all puts +
all gets + drain) / n, the per-op cost until every value is durable; for the other
rows end-to-end is put+get. CPU time of the whole process (every thread) is
printed beside wall time, the machine being shared: `put+get cpu` for the puts and
gets (before the final flush), `cpu/op` including the drain.

Prints a table (mean and p95 per op, ratio of put+get to SqliteStore) and writes
benchmarks/results/langgraph.{md,json} (langgraph-<source>.* for another --source).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scan import machine
from langgraph.store.base import BaseStore, GetOp, PutOp
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore

from memgate.adapters._backend import canonical_json
from memgate.adapters.langgraph import MemgateStore
from memgate.bootstrap import memory_gateway, open_gateway
from memgate.domain import Source
from memgate.domain.memory import MemoryWrite, Reader, Target

RESULTS = Path(__file__).resolve().parent / "results"
NS = ("users", "bench", "facts")
WORDS = [
    "the",
    "user",
    "prefers",
    "tea",
    "in",
    "the",
    "morning",
    "and",
    "coffee",
    "after",
    "lunch,",
    "works",
    "remotely",
    "on",
    "tuesdays,",
    "likes",
    "short",
    "answers",
    "with",
    "examples,",
    "reads",
    "in",
    "german",
    "and",
    "english,",
    "and",
    "keeps",
    "a",
    "weekly",
    "planning",
    "session",
    "on",
    "friday",
    "afternoons",
    "with",
    "the",
    "team",
]

Timings = dict[str, list[float]]
"""put / get: per-op wall seconds; drain, cpu: one total each (seconds)."""


def values(n: int) -> list[dict[str, Any]]:
    out = []
    for i in range(n):
        words = [WORDS[(i * 7 + j) % len(WORDS)] for j in range(30)]
        out.append({"text": " ".join(words), "n": i, "tags": ["pref", f"t{i % 5}"]})
    return out


def run_sync(store: BaseStore, data: list[dict[str, Any]]) -> Timings:
    put: list[float] = []
    get: list[float] = []
    cpu = time.process_time()
    for i, value in enumerate(data):
        t0 = time.perf_counter()
        store.put(NS, f"k{i}", value)
        t1 = time.perf_counter()
        item = store.get(NS, f"k{i}")
        t2 = time.perf_counter()
        if item is None or item.value != value:
            raise AssertionError(f"{type(store).__name__} lost k{i}")
        put.append(t1 - t0)
        get.append(t2 - t1)
    ops_cpu = time.process_time() - cpu
    t0 = time.perf_counter()
    if isinstance(store, MemgateStore):
        store.flush()
    drain = time.perf_counter() - t0
    return {
        "put": put,
        "get": get,
        "drain": [drain],
        "cpu": [time.process_time() - cpu],
        "ops_cpu": [ops_cpu],
    }


async def run_async(store: BaseStore, data: list[dict[str, Any]]) -> Timings:
    put: list[float] = []
    get: list[float] = []
    cpu = time.process_time()
    for i, value in enumerate(data):
        t0 = time.perf_counter()
        await store.aput(NS, f"k{i}", value)
        t1 = time.perf_counter()
        item = await store.aget(NS, f"k{i}")
        t2 = time.perf_counter()
        if item is None or item.value != value:
            raise AssertionError(f"{type(store).__name__} lost k{i}")
        put.append(t1 - t0)
        get.append(t2 - t1)
    ops_cpu = time.process_time() - cpu
    t0 = time.perf_counter()
    if isinstance(store, MemgateStore):
        await store.aflush()
    drain = time.perf_counter() - t0
    return {
        "put": put,
        "get": get,
        "drain": [drain],
        "cpu": [time.process_time() - cpu],
        "ops_cpu": [ops_cpu],
    }


async def run_batch(store: MemgateStore, data: list[dict[str, Any]]) -> Timings:
    """One abatch of every put, then one of every get: per-op = total / n."""
    n = len(data)
    cpu = time.process_time()
    t0 = time.perf_counter()
    await store.abatch([PutOp(NS, f"k{i}", value) for i, value in enumerate(data)])
    t1 = time.perf_counter()
    items = await store.abatch([GetOp(NS, f"k{i}") for i in range(n)])
    t2 = time.perf_counter()
    for i, (value, item) in enumerate(zip(data, items, strict=True)):
        if item is None or item.value != value:
            raise AssertionError(f"abatch lost k{i}")
    return {
        "put": [(t1 - t0) / n] * n,
        "get": [(t2 - t1) / n] * n,
        "drain": [0.0],
        "cpu": [time.process_time() - cpu],
    }


def stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "mean_us": sum(ordered) / len(ordered) * 1e6,
        "p50_us": ordered[len(ordered) // 2] * 1e6,
        "p95_us": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1e6,
    }


def sqlite_store(path: Path) -> SqliteStore:
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    store = SqliteStore(conn)
    store.setup()
    return store


def measure(n: int, source: Source, tmp: Path) -> dict[str, Timings]:
    data = values(n)
    warm = values(50)
    room = n + 64  # the queued rows never wait for room: what a burst of n puts sees
    out: dict[str, Timings] = {}

    store: BaseStore = InMemoryStore()
    run_sync(store, warm)
    out["InMemoryStore"] = run_sync(InMemoryStore(), data)

    lite = sqlite_store(tmp / "lg.sqlite")
    run_sync(lite, warm)
    out["SqliteStore"] = run_sync(lite, data)
    lite.conn.close()

    for ack, name in (
        ("scanned", "MemgateStore sync (sqlite)"),
        ("queued", "MemgateStore sync queued"),
        ("journaled", "MemgateStore sync journaled"),
    ):
        sync_store = MemgateStore.open(
            tmp / f"mg-sync-{ack}", source=source, session_id="bench", ack=ack, queue_size=room
        )
        try:
            run_sync(sync_store, warm)
            out[name] = run_sync(sync_store, data)
        finally:
            sync_store.close()

    async def on_loop(
        make: Callable[[], Awaitable[MemgateStore]],
        run: Callable[[MemgateStore, list[dict[str, Any]]], Awaitable[Timings]] = run_async,
    ) -> Timings:
        store = await make()
        try:
            await run_async(store, warm)
            return await run(store, data)
        finally:
            if hasattr(store.backend, "close"):
                await store.backend.close()

    def sqlite_gateway(name: str, **kwargs: Any) -> Callable[[], Awaitable[MemgateStore]]:
        async def make() -> MemgateStore:
            gateway = await open_gateway(tmp / name, graph=None)
            return MemgateStore(gateway, source=source, session_id="b", **kwargs)

        return make

    async def twins() -> MemgateStore:
        return MemgateStore(memory_gateway(), source=source, session_id="b")

    out["MemgateStore async (sqlite)"] = asyncio.run(on_loop(sqlite_gateway("mg-async")))
    out["MemgateStore async queued"] = asyncio.run(
        on_loop(sqlite_gateway("mg-queued", ack="queued", queue_size=room))
    )
    out["MemgateStore async journaled"] = asyncio.run(
        on_loop(
            sqlite_gateway(
                "mg-journaled",
                ack="journaled",
                journal=tmp / "mg-journaled.sqlite",
                queue_size=room,
            )
        )
    )
    out["MemgateStore abatch (sqlite)"] = asyncio.run(
        on_loop(sqlite_gateway("mg-batch"), run_batch)
    )
    out["MemgateStore async (twins)"] = asyncio.run(on_loop(twins))
    out["Gateway only (sqlite)"] = asyncio.run(gateway_only(tmp / "mg-raw", data, source))
    return out


async def gateway_only(path: Path, data: list[dict[str, Any]], source: Source) -> Timings:
    gateway = await open_gateway(path, graph=None)
    reader = Reader(session_id="b")
    put: list[float] = []
    get: list[float] = []
    cpu = time.process_time()
    try:
        for i, value in enumerate(data):
            write = MemoryWrite(
                content=canonical_json(value),
                namespace=NS,
                key=f"k{i}",
                source=source,
                session_id="b",
                target=Target.LONG,
            )
            t0 = time.perf_counter()
            await gateway.write(write)
            t1 = time.perf_counter()
            item = await gateway.read_key(NS, f"k{i}", reader)
            t2 = time.perf_counter()
            if item is None:
                raise AssertionError(f"gateway lost k{i}")
            put.append(t1 - t0)
            get.append(t2 - t1)
    finally:
        await gateway.close()
    return {"put": put, "get": get, "drain": [0.0], "cpu": [time.process_time() - cpu]}


def table(results: dict[str, Timings]) -> tuple[str, dict[str, Any]]:
    base = results["SqliteStore"]
    base_pair = (sum(base["put"]) + sum(base["get"])) / len(base["put"])
    base_e2e = base_pair + sum(base["drain"]) / len(base["put"])
    base_cpu = sum(base.get("ops_cpu", base["cpu"])) / len(base["put"])
    rows = [
        "| store | put mean µs | put p95 µs | get mean µs | get p95 µs | put+get µs |"
        " × SqliteStore | put+get cpu µs | × SqliteStore | drain ms | end-to-end µs/op |"
        " × SqliteStore | cpu µs/op |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    summary: dict[str, Any] = {}
    for name, timing in results.items():
        n = len(timing["put"])
        put, get = stats(timing["put"]), stats(timing["get"])
        pair = (sum(timing["put"]) + sum(timing["get"])) / n
        ratio = pair / base_pair
        drain = sum(timing["drain"])
        e2e = pair + drain / n
        cpu = sum(timing["cpu"]) / n
        ops_cpu = sum(timing.get("ops_cpu", timing["cpu"])) / n
        summary[name] = {
            "pair_cpu_us": ops_cpu * 1e6,
            "pair_cpu_ratio": ops_cpu / base_cpu,
            "put": put,
            "get": get,
            "pair_us": pair * 1e6,
            "ratio_sqlite": ratio,
            "drain_ms": drain * 1e3,
            "end_to_end_us": e2e * 1e6,
            "end_to_end_ratio": e2e / base_e2e,
            "cpu_us": cpu * 1e6,
        }
        rows.append(
            f"| {name} | {put['mean_us']:.0f} | {put['p95_us']:.0f} | {get['mean_us']:.0f}"
            f" | {get['p95_us']:.0f} | {pair * 1e6:.0f} | {ratio:.2f} | {ops_cpu * 1e6:.0f}"
            f" | {ops_cpu / base_cpu:.2f} | {drain * 1e3:.0f}"
            f" | {e2e * 1e6:.0f} | {e2e / base_e2e:.2f} | {cpu * 1e6:.0f} |"
        )
    return "\n".join(rows), summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="put+get pairs per store")
    parser.add_argument("--source", default="agent", choices=[s.value for s in Source])
    parser.add_argument(
        "--out", default=None, help="results file stem (default langgraph[-<source>])"
    )
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-langgraph-"))
    try:
        results = measure(args.n, Source(args.source), tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    text, summary = table(results)
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else []
    header = (
        f"# LangGraph store: put+get, n={args.n}, memgate source={args.source}\n\n"
        "Target: MemgateStore ≤ 2× SqliteStore for put+get.\n"
        f"Load average after the run: {' '.join(load)}\n\n"
    )
    print(header + text)
    RESULTS.mkdir(exist_ok=True)
    stem = args.out or ("langgraph" if args.source == "agent" else f"langgraph-{args.source}")
    (RESULTS / f"{stem}.md").write_text(header + text + "\n")
    (RESULTS / f"{stem}.json").write_text(
        json.dumps(
            {"n": args.n, "source": args.source, "results": summary, "machine": machine()},
            indent=2,
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
