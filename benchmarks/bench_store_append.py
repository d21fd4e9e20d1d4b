"""Durable appends per second of one store, in one process: the log and its
projection only (no scanning), so the store is what is measured.

Each write is one `append` of one event that admits a ~300-byte long-term item
(an event row, an items row with its row MAC and search words, in one
transaction). `--writers` coroutines append in a loop; the store group-commits
what they queued together. PostgreSQL: every commit takes the chain's advisory
lock and waits for its WAL flush (synchronous_commit on: durable against a
server crash). SQLite: WAL with synchronous=NORMAL (durable against a process
crash). The chain is verified after each run.

    .venv/bin/python benchmarks/bench_store_append.py \
        --store postgresql://root@127.0.0.1:5432/postgres --seconds 5 --writers 1 16 64

A PostgreSQL run uses a new database of its own (created and dropped).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from memgate.domain.events import Event, Op
from memgate.domain.memory import MemoryItem, MemoryState, PoolName
from memgate.domain.ports import Store
from memgate.domain.types import Decision, Source

KEY = b"bench-store-append-key-0123456789"
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def event(n: int) -> Event:
    at = T0 + timedelta(microseconds=n)
    item = MemoryItem(
        id=f"m-{n:08d}",
        namespace=("bench", f"ns{n % 16}"),
        key=None,
        content=f"benchmark note {n}: the deploy window moved to Thursday " * 5,
        pool=PoolName.LONG,
        state=MemoryState.APPROVED,
        trust_score=0.95,
        decision=Decision.APPROVE,
        source=Source.USER,
        created_at=at,
        updated_at=at,
        scanned_at=at,
        rules_version="bench",
        fingerprint=f"{n:016x}",
    )
    return Event(
        op=Op.ADMITTED,
        memory_id=item.id,
        at=at,
        actor="bench",
        state_after=item.state,
        item=item,
    )


async def cell(store: Store, writers: int, seconds: float, start: int) -> dict[str, Any]:
    counter = iter(range(start, 1 << 40))
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds

    async def writer() -> None:
        while time.perf_counter() < deadline:
            began = time.perf_counter()
            await store.append([event(next(counter))])
            latencies.append(time.perf_counter() - began)

    began = time.perf_counter()
    await asyncio.gather(*(writer() for _ in range(writers)))
    elapsed = time.perf_counter() - began
    latencies.sort()
    return {
        "writers": writers,
        "appends": len(latencies),
        "per_second": len(latencies) / elapsed,
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
    }


async def run(store_url: str | None, writers: list[int], seconds: float) -> list[dict[str, Any]]:
    rows = []
    if store_url is None:
        from memgate.store.sqlite import SqliteStore

        directory = Path(tempfile.mkdtemp(prefix="bench-append-"))
        store: Store = await SqliteStore.open(directory / "memgate.db", KEY)
        cleanup = None
    else:
        import psycopg

        from memgate.store.postgres import PostgresStore

        name = f"mg_bench_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(store_url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}".encode())
        url = urlunsplit(urlsplit(store_url)._replace(path="/" + name))
        store = await PostgresStore.open(url, KEY)

        def cleanup() -> None:
            with psycopg.connect(store_url, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)".encode())

    try:
        done = 0
        for n in writers:
            row = await cell(store, n, seconds, done)
            done += row["appends"]
            rows.append(row)
        result = await store.verify()
        assert result.ok, result
        assert result.last_seq == done, result
    finally:
        await store.close()
        if cleanup is not None:
            cleanup()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", default=None, help="a PostgreSQL admin URL; none: SQLite")
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 16, 64])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    rows = asyncio.run(run(args.store, args.writers, args.seconds))
    backend = "postgres" if args.store else "sqlite"
    load = os.getloadavg()[0]
    print(f"| backend | writers | appends/s | p50 ms | p99 ms |  (load avg {load:.1f})")
    print("|---|---:|---:|---:|---:|")
    for row in rows:
        print(
            f"| {backend} | {row['writers']} | {row['per_second']:.0f} |"
            f" {row['p50_ms']:.2f} | {row['p99_ms']:.2f} |"
        )


if __name__ == "__main__":
    main()
