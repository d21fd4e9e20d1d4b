"""The Redis short-term pool on the real server: put / get latency, concurrent
puts, and how fast two replicas sweep, claim and settle a burst of expiries.

    python benchmarks/bench_short_redis.py [--url redis://127.0.0.1:6379/0] [--n 10000]

Uses its own key prefix and deletes its keys. Wall-clock numbers: on a shared
machine they measure the load as much as Redis (INFO commandstats has Redis's
own time per script).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from datetime import UTC, datetime, timedelta

from memgate.domain.memory import MemoryItem, MemoryState, PoolName
from memgate.domain.ports import Eviction, PoolQuery
from memgate.domain.types import Decision, Source
from memgate.pools.redis import RedisShortPool, fresh_prefix

T0 = datetime(2026, 1, 1, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def item(i: int) -> MemoryItem:
    return MemoryItem(
        id=f"m-{i:07d}",
        namespace=("tenant", f"n{i % 100}"),
        key=None,
        content=f"note {i} with a few words in it",
        pool=PoolName.SHORT,
        state=MemoryState.TRANSIENT,
        trust_score=0.9,
        decision=Decision.APPROVE,
        source=Source.TOOL,
        created_at=T0,
        updated_at=T0,
        scanned_at=T0,
        rules_version="bench",
        fingerprint=f"{i:016x}",
        expires_at=T0 + timedelta(seconds=10),
    )


def pct(xs: list[float], p: float) -> float:
    return sorted(xs)[min(int(len(xs) * p), len(xs) - 1)] * 1000


async def main(url: str, n: int) -> None:
    clock = Clock()
    prefix = fresh_prefix("memgate:bench:")
    a = RedisShortPool.from_url(url, prefix=prefix, clock=clock, max_total_entries=10 * n)
    b = RedisShortPool.from_url(url, prefix=prefix, clock=clock, max_total_entries=10 * n)
    try:
        items = [item(i) for i in range(n)]
        seq = min(2000, n // 5)
        puts = []
        for it in items[:seq]:
            t = time.perf_counter()
            await a.put(it)
            puts.append(time.perf_counter() - t)
        t = time.perf_counter()
        await asyncio.gather(*(a.put(it) for it in items[seq:]))
        burst = (n - seq) / (time.perf_counter() - t)
        gets = []
        for it in items[:seq]:
            t = time.perf_counter()
            await a.get(it.id)
            gets.append(time.perf_counter() - t)
        t = time.perf_counter()
        await a.list(PoolQuery(namespace_prefix=("tenant", "n1"), limit=50))
        listed = (time.perf_counter() - t) * 1000
        clock.now += timedelta(seconds=11)

        async def replica(pool: RedisShortPool) -> list[Eviction]:
            await pool.sweep()
            claimed = await pool.claim_evicted()
            await pool.settle_evicted(claimed)
            return claimed

        t = time.perf_counter()
        got = await asyncio.gather(replica(a), replica(b))
        swept = time.perf_counter() - t
        ids = [e.item.id for part in got for e in part]
        assert len(ids) == len(set(ids)) == n, "an expiry was claimed twice or lost"
        print(f"put (sequential, {seq}): p50 {pct(puts, 0.5):.2f} ms, p99 {pct(puts, 0.99):.2f} ms")
        print(f"put (concurrent, {n - seq}): {burst:.0f}/s")
        print(f"get: p50 {pct(gets, 0.5):.2f} ms, p99 {pct(gets, 0.99):.2f} ms")
        print(f"list one namespace ({n // 100} items): {listed:.1f} ms")
        print(
            f"{n} due items swept, claimed, settled by two replicas: {swept * 1000:.0f} ms"
            f" (split {[len(part) for part in got]}, each exactly once)"
        )
    finally:
        await a.clear()
        await a.close()
        await b.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--n", type=int, default=10_000)
    args = parser.parse_args()
    asyncio.run(main(args.url, args.n))
