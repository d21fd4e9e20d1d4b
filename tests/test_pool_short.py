"""ShortTermPool: the Pool contract, plus expiry, capacity and sliding TTL on a fake clock."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from memgate.domain.memory import MemoryItem, MemoryState, PoolName
from memgate.domain.ports import Pool, PoolQuery
from memgate.pools.short import ITEM_OVERHEAD_BYTES, ShortTermPool, item_bytes
from tests.contracts import T0, FakeClock, run, short_item
from tests.contracts.pool_contract import PoolContract
from tests.contracts.short_pool_contract import ShortPoolContract


class TestShortTermPool(PoolContract):
    states = (MemoryState.TRANSIENT,)

    async def open_pool(self, directory: Path) -> Pool:
        return ShortTermPool(clock=FakeClock())

    def make_item(self, **fields: Any) -> MemoryItem:
        return short_item(**fields)


class TestShortTermPoolLeaving(ShortPoolContract):
    async def open_short(self, clock: FakeClock, **caps: Any) -> ShortTermPool:
        return ShortTermPool(clock=clock, **caps)


def expiring(seconds: float, **fields: Any) -> MemoryItem:
    return short_item(expires_at=T0 + timedelta(seconds=seconds), **fields)


def test_item_is_not_served_after_it_expires_and_is_reported_as_ttl() -> None:
    async def go() -> None:
        clock = FakeClock()
        pool = ShortTermPool(clock=clock)
        soon = expiring(10, key="k", content="short lived")
        later = expiring(100, content="long lived")
        await pool.put(soon)
        await pool.put(later)

        clock.advance(seconds=9.999)
        assert await pool.get(soon.id) == soon
        assert pool.drain_evicted() == []

        clock.advance(seconds=0.001)  # exactly expires_at: gone
        assert await pool.get(soon.id) is None
        assert await pool.get_by_key(soon.namespace, "k") is None
        assert await pool.list(PoolQuery()) == [later]
        assert await pool.search(PoolQuery(text="lived")) == [later]
        assert pool.drain_evicted() == [(soon, "ttl")]
        assert pool.drain_evicted() == []
        assert len(pool) == 1
        assert await pool.get(soon.id) is None

    run(go())


def test_expire_collects_every_due_item_across_namespaces() -> None:
    async def go() -> None:
        clock = FakeClock()
        pool = ShortTermPool(clock=clock)
        a = expiring(5, namespace=("a",))
        b = expiring(6, namespace=("b", "c"))
        c = expiring(60, namespace=("b", "c"))
        for item in (a, b, c):
            await pool.put(item)
        clock.advance(seconds=30)
        pool.expire()
        evicted = pool.drain_evicted()
        assert sorted(evicted, key=lambda e: e[0].id) == [(a, "ttl"), (b, "ttl")]
        assert await pool.get(c.id) == c
        assert len(pool) == 1

    run(go())


def test_putting_an_already_expired_item_reports_it_as_ttl() -> None:
    """The gateway restores transient items after a restart by `put`, then drains:
    an item that expired while it was down must come out as evicted, so that it
    gets its `expired` event instead of lingering in the store forever."""

    async def go() -> None:
        clock = FakeClock()
        pool = ShortTermPool(clock=clock)
        stale = short_item(expires_at=T0 - timedelta(minutes=1))
        await pool.put(stale)
        assert await pool.get(stale.id) is None
        pool.expire()
        assert pool.drain_evicted() == [(stale, "ttl")]
        assert len(pool) == 0

    run(go())


def test_capacity_evicts_least_recently_used_per_namespace() -> None:
    async def go() -> None:
        clock = FakeClock()
        pool = ShortTermPool(max_entries=2, clock=clock)
        first, second, third = (short_item(namespace=("a",)) for _ in range(3))
        other = [short_item(namespace=("b",)) for _ in range(2)]
        for item in (first, second, *other):
            await pool.put(item)
        assert pool.drain_evicted() == []

        await pool.put(third)
        assert pool.drain_evicted() == [(first, "capacity")]
        assert await pool.get(first.id) is None
        assert {i.id for i in await pool.list(PoolQuery(namespace_prefix=("a",)))} == {
            second.id,
            third.id,
        }
        # The other namespace keeps its own two entries.
        assert {i.id for i in await pool.list(PoolQuery(namespace_prefix=("b",)))} == {
            o.id for o in other
        }
        assert len(pool) == 4

        # A read makes an item recently used: the other one goes next.
        assert await pool.get(second.id) == second
        fourth = short_item(namespace=("a",))
        await pool.put(fourth)
        assert pool.drain_evicted() == [(third, "capacity")]
        assert await pool.get(second.id) == second

    run(go())


def test_sliding_expiry_extends_on_get() -> None:
    async def go() -> None:
        clock = FakeClock()
        pool = ShortTermPool(sliding_ttl=timedelta(seconds=60), clock=clock)
        item = expiring(10)
        await pool.put(item)

        clock.advance(seconds=5)
        got = await pool.get(item.id)
        assert got is not None
        assert got.expires_at == T0 + timedelta(seconds=65)
        assert got.model_copy(update={"expires_at": item.expires_at}) == item

        clock.advance(seconds=50)  # T0+55: past the original expiry, within the slide
        assert await pool.get(item.id) is not None  # and slides again, to T0+115
        clock.advance(seconds=59)
        assert await pool.get(item.id) is not None
        assert pool.drain_evicted() == []

        clock.advance(seconds=61)  # untouched for 61 s
        assert await pool.get(item.id) is None
        pool.expire()
        assert [(i.id, why) for i, why in pool.drain_evicted()] == [(item.id, "ttl")]

    run(go())


def test_without_sliding_expiry_get_does_not_extend() -> None:
    async def go() -> None:
        clock = FakeClock()
        pool = ShortTermPool(clock=clock)
        item = expiring(10)
        await pool.put(item)
        clock.advance(seconds=9)
        assert await pool.get(item.id) == item
        clock.advance(seconds=2)
        assert await pool.get(item.id) is None

    run(go())


def test_non_transient_put_removes_the_item() -> None:
    """The short pool holds transient items only: a promotion or an expiry event
    projected onto it takes the item out, and nothing is reported as evicted."""

    async def go() -> None:
        pool = ShortTermPool(clock=FakeClock())
        item = short_item()
        await pool.put(item)
        for state in (MemoryState.PENDING_REVIEW, MemoryState.EXPIRED):
            await pool.put(item)
            await pool.put(item.model_copy(update={"state": state, "pool": PoolName.LONG}))
            assert await pool.get(item.id) is None
            assert await pool.list(PoolQuery()) == []
        assert pool.drain_evicted() == []

    run(go())


def test_moving_an_item_to_another_namespace() -> None:
    async def go() -> None:
        pool = ShortTermPool(clock=FakeClock())
        item = short_item(namespace=("a",), key="k")
        moved = item.model_copy(update={"namespace": ("b",)})
        await pool.put(item)
        await pool.put(moved)
        assert await pool.get(item.id) == moved
        assert await pool.list(PoolQuery(namespace_prefix=("a",))) == []
        assert await pool.get_by_key(("a",), "k") is None
        assert await pool.get_by_key(("b",), "k") == moved
        assert len(pool) == 1

    run(go())


def test_the_pool_cap_holds_over_every_namespace_and_reports_the_oldest() -> None:
    async def go() -> None:
        pool = ShortTermPool(max_entries=10, max_total_entries=3, clock=FakeClock())
        items = [short_item(namespace=("tenant", f"n{i}"), content=f"note {i}") for i in range(5)]
        for item in items:
            await pool.put(item)
        assert len(pool) == 3
        assert pool.drain_evicted() == [(items[0], "pool_capacity"), (items[1], "pool_capacity")]
        assert [await pool.get(i.id) for i in items] == [None, None, *items[2:]]
        # The namespaces that emptied keep nothing behind.
        assert await pool.list(PoolQuery(namespace_prefix=("tenant", "n0"))) == []
        assert len(pool._spaces) == 3

    run(go())


def test_the_pool_byte_cap_evicts_until_the_estimate_fits() -> None:
    async def go() -> None:
        pool = ShortTermPool(max_total_bytes=3 * (ITEM_OVERHEAD_BYTES + 1000), clock=FakeClock())
        items = [short_item(namespace=(f"n{i}",), content="x" * 1000) for i in range(4)]
        for item in items:
            await pool.put(item)
        assert pool.total_bytes == 3 * item_bytes(items[0]) <= 3 * (ITEM_OVERHEAD_BYTES + 1000)
        assert pool.drain_evicted() == [(items[0], "pool_bytes")]
        big = short_item(namespace=("big",), content="y" * 2500)
        await pool.put(big)
        assert [i for i, _ in pool.drain_evicted()] == [items[1], items[2]]
        assert pool.total_bytes == item_bytes(items[3]) + item_bytes(big)

    run(go())


def test_accounting_follows_removal_expiry_and_replacement() -> None:
    async def go() -> None:
        clock = FakeClock()
        pool = ShortTermPool(max_total_entries=2, clock=clock)
        a = expiring(5, namespace=("a",), content="a")
        b = short_item(namespace=("b",), content="b")
        await pool.put(a)
        await pool.put(b)
        clock.advance(seconds=6)
        pool.expire()
        assert pool.drain_evicted() == [(a, "ttl")]
        await pool.remove(b.id)
        assert pool.total_bytes == 0 and len(pool) == 0 and pool._spaces == {}
        # A new version of the same memory replaces its size, it does not add one.
        c = short_item(namespace=("c",), content="first")
        await pool.put(c)
        await pool.put(c.model_copy(update={"content": "second, longer"}))
        d = short_item(namespace=("d",), content="d")
        await pool.put(d)
        assert pool.drain_evicted() == []
        assert pool.total_bytes == item_bytes(d) + item_bytes(
            c.model_copy(update={"content": "second, longer"})
        )

    run(go())
