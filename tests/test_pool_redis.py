"""RedisShortPool: the Pool and ShortPool contracts on a real Redis, and what only a
shared pool has to get right: two replicas sweeping at once hand each expiry to
one of them, a claim whose replica died comes back, a version that left is not
put back, and through two gateways each expiry is logged exactly once.

Each pool uses its own key prefix and deletes its keys afterwards.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from memgate.domain.events import Op
from memgate.domain.memory import MemoryItem, MemoryState, MemoryWrite, Target
from memgate.domain.ports import Eviction, Pool, ShortPool
from memgate.domain.types import Source
from memgate.gateway import Gateway
from memgate.pools.redis import RedisShortPool, fresh_prefix
from memgate.store.memory import MemoryStore
from memgate.trust import Inspector, Policy
from tests.contracts import KEY, T0, FakeClock, run, short_item
from tests.contracts.pool_contract import PoolContract
from tests.contracts.short_pool_contract import ShortPoolContract
from tests.redis_fixtures import require_redis


@pytest.fixture(autouse=True)
def _redis_up(redis_url: str) -> None:
    """Every test here needs the server: fail (with the start command) without it."""


def redis_pool(
    clock: FakeClock | None = None, prefix: str | None = None, **caps: Any
) -> RedisShortPool:
    # claim_interval 0: every claim asks Redis (the tests move a fake clock, and
    # look for what another instance left at once).
    caps.setdefault("claim_interval", 0.0)
    return RedisShortPool.from_url(
        require_redis(), prefix=prefix or fresh_prefix(), clock=clock or FakeClock(), **caps
    )


async def drop(pool: RedisShortPool) -> None:
    try:
        await pool.clear()
    finally:
        await pool.close()


class TestRedisShortPool(PoolContract):
    states = (MemoryState.TRANSIENT,)

    async def open_pool(self, directory: Path) -> Pool:
        return redis_pool()

    async def close_pool(self, pool: Pool) -> None:
        assert isinstance(pool, RedisShortPool)
        await drop(pool)

    def make_item(self, **fields: Any) -> MemoryItem:
        return short_item(**fields)


class TestRedisShortPoolLeaving(ShortPoolContract):
    async def open_short(self, clock: FakeClock, **caps: Any) -> ShortPool:
        return redis_pool(clock, **caps)

    async def close_short(self, pool: ShortPool) -> None:
        assert isinstance(pool, RedisShortPool)
        await drop(pool)


def expiring(seconds: float, **fields: Any) -> MemoryItem:
    return short_item(expires_at=T0 + timedelta(seconds=seconds), **fields)


def test_two_replicas_sweeping_at_once_hand_each_expiry_to_one_of_them() -> None:
    async def go() -> None:
        clock = FakeClock()
        prefix = fresh_prefix()
        a, b = redis_pool(clock, prefix), redis_pool(clock, prefix)
        try:
            items = [
                expiring(1 + i % 7, namespace=("t", f"n{i % 13}"), content=f"note {i}")
                for i in range(600)
            ]
            await asyncio.gather(*(a.put(i) for i in items[::2]), *(b.put(i) for i in items[1::2]))
            assert await a.count() == 600
            clock.advance(seconds=10)

            async def replica(pool: RedisShortPool) -> list[Eviction]:
                got: list[Eviction] = []
                for _ in range(5):
                    await pool.sweep()
                    claimed = await pool.claim_evicted()
                    await pool.settle_evicted(claimed)
                    got.extend(claimed)
                    await asyncio.sleep(0)
                return got

            got_a, got_b = await asyncio.gather(replica(a), replica(b))
            ids_a = [e.item.id for e in got_a]
            ids_b = [e.item.id for e in got_b]
            assert len(ids_a) + len(ids_b) == 600
            assert set(ids_a).isdisjoint(ids_b)
            assert set(ids_a) | set(ids_b) == {i.id for i in items}
            assert {e.why for e in [*got_a, *got_b]} == {"ttl"}
            assert await a.count() == 0 and await b.total_bytes() == 0
            assert await a.claim_evicted() == [] and await b.claim_evicted() == []
        finally:
            await drop(a)
            await b.close()

    run(go())


def test_a_claim_never_settled_comes_back_retried_after_its_lease() -> None:
    async def go() -> None:
        clock = FakeClock()
        prefix = fresh_prefix()
        lease = timedelta(seconds=30)
        dead = redis_pool(clock, prefix, claim_lease=lease)
        alive = redis_pool(clock, prefix, claim_lease=lease)
        try:
            item = expiring(5)
            await dead.put(item)
            clock.advance(seconds=6)
            await dead.sweep()
            (claimed,) = await dead.claim_evicted()  # ...and the replica dies here
            assert not claimed.retried
            assert await alive.claim_evicted() == []
            clock.advance(seconds=29)
            assert await alive.claim_evicted() == []
            clock.advance(seconds=2)
            (again,) = await alive.claim_evicted()
            assert (again.item, again.why, again.retried) == (item, "ttl", True)
            await alive.settle_evicted([again])
            clock.advance(seconds=60)
            assert await alive.claim_evicted() == []
        finally:
            await drop(dead)
            await alive.close()

    run(go())


def test_a_version_that_left_is_not_put_back_but_a_newer_one_is() -> None:
    """A replica restoring from a store snapshot taken before another replica logged
    the expiry must not bring the expired version back (it would expire twice)."""

    async def go() -> None:
        clock = FakeClock()
        pool = redis_pool(clock)
        try:
            item = expiring(5)
            await pool.put(item)
            clock.advance(seconds=6)
            await pool.sweep()
            assert [e.item.id for e in await pool.claim_evicted()] == [item.id]
            fresh = item.model_copy(update={"expires_at": clock() + timedelta(minutes=5)})
            await pool.put(fresh)  # same version: stale
            assert await pool.get(item.id) is None
            restored = fresh.model_copy(update={"version": item.version + 1})
            await pool.put(restored)  # a rollback's new version
            assert await pool.get(item.id) == restored
        finally:
            await drop(pool)

    run(go())


class DiesBeforeSettling(RedisShortPool):
    """A replica whose connection drops after it logged its claims, before it
    settled them (the window a crash can hit)."""

    async def settle_evicted(self, evictions: Any) -> None:
        raise ConnectionError("connection lost")


def _gateway(
    store: MemoryStore, pool: ShortPool, clock: FakeClock, inspector: Inspector
) -> Gateway:
    policy = Policy.load()
    return Gateway(
        inspector=Inspector(inspector.scanner, policy),
        store=store,
        short=pool,
        policy=policy,
        clock=clock,
    )


def test_two_gateway_replicas_log_each_expiry_exactly_once(inspector: Inspector) -> None:
    async def go() -> None:
        clock = FakeClock()
        prefix = fresh_prefix()
        store = MemoryStore(KEY)  # the replicas' shared store
        lease = timedelta(seconds=30)
        pools = [redis_pool(clock, prefix, claim_lease=lease) for _ in range(2)]
        dying = DiesBeforeSettling.from_url(
            require_redis(), prefix=prefix, clock=clock, claim_lease=lease, claim_interval=0.0
        )
        one, two = (_gateway(store, p, clock, inspector) for p in pools)
        crashed = _gateway(store, dying, clock, inspector)
        try:
            receipts = await asyncio.gather(
                *(
                    (one if n % 2 else two).write(
                        MemoryWrite(
                            content=f"build {n} passed",
                            namespace=("ci", f"job{n % 5}"),
                            source=Source.TOOL,
                            target=Target.SHORT,
                            ttl_seconds=60 + n % 3,
                        )
                    )
                    for n in range(40)
                )
            )
            assert {r.state for r in receipts} == {MemoryState.TRANSIENT}
            await two.restore()  # a replica (re)starting puts the store's items back
            clock.advance(seconds=61)
            # Some expire now; the crashed replica logs those and dies before settling.
            with pytest.raises(ConnectionError):
                await crashed.expire_due()
            first = await store.records(limit=1000)
            expired_first = [r for r in first if r.event.op is Op.EXPIRED]
            assert expired_first, "the crashing replica logged nothing"
            clock.advance(seconds=2)  # everything is due now
            counts = await asyncio.gather(one.expire_due(), two.expire_due())
            clock.advance(seconds=31)  # the dead replica's claims come back, retried
            counts += await asyncio.gather(one.expire_due(), two.expire_due())
            await two.restore()  # a late restart brings nothing back to expire again
            counts += await asyncio.gather(one.expire_due(), two.expire_due())

            records = await store.records(limit=1000)
            expired = [r.event.memory_id for r in records if r.event.op is Op.EXPIRED]
            assert sorted(expired) == sorted(r.id for r in receipts)  # each once
            assert sum(counts) + len(expired_first) == 40
            assert (await store.verify()).ok
            assert await pools[0].count() == 0
            assert await pools[0].claim_evicted() == []
            assert await one.list(("ci",)) == [] and await two.list(("ci",)) == []
        finally:
            await pools[0].clear()
            for pool in (*pools, dying):
                await pool.close()

    run(go())


def test_a_replica_claims_what_others_left_only_after_its_interval_or_its_own_change() -> None:
    """A long-term write asks the pool for evictions too: an instance that changed
    nothing answers from memory within `claim_interval`, without a round trip."""

    async def go() -> None:
        clock = FakeClock()
        prefix = fresh_prefix()
        other = redis_pool(clock, prefix)
        idle = redis_pool(clock, prefix, claim_interval=3600.0)
        try:
            assert await idle.claim_evicted() == []  # the first claim asks
            stale = short_item(expires_at=T0 - timedelta(seconds=1))
            await other.put(stale)  # reported as expired by the put, left unclaimed
            assert await idle.claim_evicted() == []  # idle, within its interval
            await idle.sweep()  # its own change: the next claim asks again
            assert [e.item.id for e in await idle.claim_evicted()] == [stale.id]
        finally:
            await drop(other)
            await idle.close()

    run(go())


def test_a_redis_that_lost_its_data_is_refilled_from_the_store(inspector: Inspector) -> None:
    """Redis restarted without persistence (here: its keys deleted): the next
    maintenance run puts the store's transient items back, they are served again,
    and each still expires once."""

    async def go() -> None:
        clock = FakeClock()
        store = MemoryStore(KEY)
        pool = redis_pool(clock)
        gw = _gateway(store, pool, clock, inspector)
        try:
            await gw.restore()
            receipts = [
                await gw.write(
                    MemoryWrite(
                        content=f"build {n} passed",
                        namespace=("ci",),
                        source=Source.TOOL,
                        target=Target.SHORT,
                        ttl_seconds=60,
                    )
                )
                for n in range(3)
            ]
            assert await pool.count() == 3
            await pool.clear()  # the Redis restarted empty
            assert await gw.read(receipts[0].id) is None
            assert await gw.expire_due() == 0
            assert await pool.count() == 3
            assert await gw.read(receipts[0].id) is not None
            clock.advance(seconds=61)
            assert await gw.expire_due() == 3
            records = await store.records(limit=100)
            expired = [r.event.memory_id for r in records if r.event.op is Op.EXPIRED]
            assert sorted(expired) == sorted(r.id for r in receipts)
        finally:
            await pool.clear()
            await gw.close()

    run(go())


def test_putting_a_held_item_again_after_its_deadline_reports_it_once() -> None:
    """A refill or restore puts back an item the pool still holds but whose time has
    come: the sweep inside the put reports it, and the put itself must not again
    (the gateway state machine found this double expiry)."""

    async def go() -> None:
        clock = FakeClock()
        pool = redis_pool(clock)
        try:
            item = expiring(5)
            await pool.put(item)
            clock.advance(seconds=6)
            await pool.put(item)
            await pool.sweep()
            claimed = await pool.claim_evicted()
            assert [(e.item.id, e.why) for e in claimed] == [(item.id, "ttl")]
        finally:
            await drop(pool)

    run(go())
