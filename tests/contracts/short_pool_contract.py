"""The ShortPool port's contract: how items leave the short-term pool.

Every short-term backend passes it (besides the Pool contract). A backend's test
module subclasses `ShortPoolContract` and supplies `open_short`: a fresh, empty
pool on the given clock with the given caps. Everything goes through the port:
`sweep`, `claim_evicted`, `settle_evicted`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from memgate.domain.memory import MemoryItem, MemoryState, PoolName
from memgate.domain.ports import PoolQuery, ShortPool
from memgate.pools.short import ITEM_OVERHEAD_BYTES
from tests.contracts import T0, FakeClock, run, short_item

Body = Callable[[Any], Awaitable[None]]


def short_test(body: Body) -> Callable[[Any], None]:
    """Turn `async def test_x(self)` into a sync test; the body opens its pools
    with `self.pool(...)`, and every pool it opened is closed afterwards."""

    def test(self: ShortPoolContract) -> None:
        async def go() -> None:
            self._opened = []
            try:
                await body(self)
            finally:
                for pool in self._opened:
                    await self.close_short(pool)

        run(go())

    test.__name__ = body.__name__
    test.__qualname__ = body.__qualname__
    test.__doc__ = body.__doc__
    return test


def expiring(seconds: float, **fields: Any) -> MemoryItem:
    return short_item(expires_at=T0 + timedelta(seconds=seconds), **fields)


async def left(pool: ShortPool) -> list[tuple[str, str]]:
    """(id, why) of what the pool hands over now, settled."""
    claimed = await pool.claim_evicted()
    await pool.settle_evicted(claimed)
    return [(e.item.id, e.why) for e in claimed]


class ShortPoolContract(ABC):
    """What every ShortPool must do. Not collected itself (no `Test` prefix)."""

    _opened: list[ShortPool]

    @abstractmethod
    async def open_short(self, clock: FakeClock, **caps: Any) -> ShortPool:
        """A fresh, empty pool on `clock`; `caps` are ShortTermPool's keyword
        arguments (max_entries, max_total_entries, max_total_bytes, sliding_ttl)."""

    async def close_short(self, pool: ShortPool) -> None:
        await pool.close()

    async def pool(self, clock: FakeClock, **caps: Any) -> ShortPool:
        pool = await self.open_short(clock, **caps)
        self._opened.append(pool)
        return pool

    @short_test
    async def test_a_due_item_is_not_served_and_is_handed_over_once_as_ttl(self) -> None:
        clock = FakeClock()
        pool = await self.pool(clock)
        soon = expiring(10, key="k", content="short lived")
        later = expiring(100, content="long lived")
        await pool.put(soon)
        await pool.put(later)
        clock.advance(seconds=9.999)
        assert await pool.get(soon.id) == soon
        await pool.sweep()
        assert await left(pool) == []

        clock.advance(seconds=0.001)  # exactly expires_at: gone
        assert await pool.get(soon.id) is None
        assert await pool.get_by_key(soon.namespace, "k") is None
        assert await pool.list(PoolQuery()) == [later]
        assert await pool.search(PoolQuery(text="lived")) == [later]
        await pool.sweep()
        claimed = await pool.claim_evicted()
        assert [(e.item, e.why, e.retried) for e in claimed] == [(soon, "ttl", False)]
        await pool.settle_evicted(claimed)
        await pool.sweep()
        assert await left(pool) == []
        assert await pool.get(soon.id) is None

    @short_test
    async def test_sweep_collects_every_due_item_across_namespaces(self) -> None:
        clock = FakeClock()
        pool = await self.pool(clock)
        a = expiring(5, namespace=("a",))
        b = expiring(6, namespace=("b", "c"))
        c = expiring(60, namespace=("b", "c"))
        undying = short_item(namespace=("d",), expires_at=None)
        for item in (a, b, c, undying):
            await pool.put(item)
        clock.advance(seconds=30)
        await pool.sweep()
        assert sorted(await left(pool)) == sorted([(a.id, "ttl"), (b.id, "ttl")])
        assert await pool.get(c.id) == c
        assert await pool.get(undying.id) == undying
        assert {i.id for i in await pool.list(PoolQuery())} == {c.id, undying.id}

    @short_test
    async def test_putting_an_already_expired_item_hands_it_over_as_ttl(self) -> None:
        """A restart restores transient items by `put`: one that expired meanwhile
        must come out as an eviction, to get its `expired` event."""
        pool = await self.pool(FakeClock())
        stale = short_item(expires_at=T0 - timedelta(minutes=1))
        await pool.put(stale)
        assert await pool.get(stale.id) is None
        await pool.sweep()
        assert await left(pool) == [(stale.id, "ttl")]
        assert await pool.list(PoolQuery()) == []

    @short_test
    async def test_a_namespace_past_its_cap_loses_its_least_recently_used(self) -> None:
        pool = await self.pool(FakeClock(), max_entries=2)
        first, second, third = (short_item(namespace=("a",)) for _ in range(3))
        other = [short_item(namespace=("b",)) for _ in range(2)]
        for item in (first, second, *other):
            await pool.put(item)
        assert await left(pool) == []
        await pool.put(third)
        assert await left(pool) == [(first.id, "capacity")]
        assert await pool.get(first.id) is None
        assert {i.id for i in await pool.list(PoolQuery(namespace_prefix=("a",)))} == {
            second.id,
            third.id,
        }
        assert {i.id for i in await pool.list(PoolQuery(namespace_prefix=("b",)))} == {
            o.id for o in other
        }
        # A read makes an item recently used: the other one goes next.
        assert await pool.get(second.id) == second
        await pool.put(short_item(namespace=("a",)))
        assert await left(pool) == [(third.id, "capacity")]
        assert await pool.get(second.id) == second

    @short_test
    async def test_the_pool_cap_holds_over_every_namespace_oldest_first(self) -> None:
        pool = await self.pool(FakeClock(), max_entries=10, max_total_entries=3)
        items = [short_item(namespace=("tenant", f"n{i}"), content=f"note {i}") for i in range(5)]
        for item in items:
            await pool.put(item)
        assert await left(pool) == [(items[0].id, "pool_capacity"), (items[1].id, "pool_capacity")]
        assert [await pool.get(i.id) for i in items] == [None, None, *items[2:]]
        assert await pool.list(PoolQuery(namespace_prefix=("tenant", "n0"))) == []
        assert len(await pool.list(PoolQuery())) == 3

    @short_test
    async def test_the_byte_cap_evicts_until_the_estimate_fits(self) -> None:
        pool = await self.pool(FakeClock(), max_total_bytes=3 * (ITEM_OVERHEAD_BYTES + 1000))
        items = [short_item(namespace=(f"n{i}",), content="x" * 1000) for i in range(4)]
        for item in items:
            await pool.put(item)
        assert await left(pool) == [(items[0].id, "pool_bytes")]
        big = short_item(namespace=("big",), content="y" * 2500)
        await pool.put(big)
        assert [i for i, _ in await left(pool)] == [items[1].id, items[2].id]
        assert {i.id for i in await pool.list(PoolQuery())} == {items[3].id, big.id}

    @short_test
    async def test_a_new_version_replaces_its_size_and_place(self) -> None:
        pool = await self.pool(FakeClock(), max_total_entries=2)
        c = short_item(namespace=("c",), content="first")
        await pool.put(c)
        longer = c.model_copy(update={"content": "second, longer", "version": 2})
        await pool.put(longer)
        d = short_item(namespace=("d",), content="d")
        await pool.put(d)
        assert await left(pool) == []
        assert {i.id for i in await pool.list(PoolQuery())} == {c.id, d.id}
        assert await pool.get(c.id) == longer

    @short_test
    async def test_sliding_expiry_extends_on_get(self) -> None:
        clock = FakeClock()
        pool = await self.pool(clock, sliding_ttl=timedelta(seconds=60))
        item = expiring(10)
        await pool.put(item)
        clock.advance(seconds=5)
        got = await pool.get(item.id)
        assert got is not None
        assert got.expires_at == T0 + timedelta(seconds=65)
        assert got.model_copy(update={"expires_at": item.expires_at}) == item
        clock.advance(seconds=50)  # past the original expiry, within the slide
        assert await pool.get(item.id) is not None
        clock.advance(seconds=59)
        assert await pool.get(item.id) is not None
        await pool.sweep()
        assert await left(pool) == []
        clock.advance(seconds=61)  # untouched for 61 s
        assert await pool.get(item.id) is None
        await pool.sweep()
        assert await left(pool) == [(item.id, "ttl")]

    @short_test
    async def test_without_sliding_expiry_get_does_not_extend(self) -> None:
        clock = FakeClock()
        pool = await self.pool(clock)
        item = expiring(10)
        await pool.put(item)
        clock.advance(seconds=9)
        assert await pool.get(item.id) == item
        clock.advance(seconds=2)
        assert await pool.get(item.id) is None

    @short_test
    async def test_a_non_transient_put_removes_the_item_without_an_eviction(self) -> None:
        """A promotion or an expiry event projected onto the pool takes the item out;
        nothing is handed over (its event is the one being projected)."""
        pool = await self.pool(FakeClock())
        for state in (MemoryState.PENDING_REVIEW, MemoryState.EXPIRED):
            item = short_item()
            await pool.put(item)
            await pool.put(item.model_copy(update={"state": state, "pool": PoolName.LONG}))
            assert await pool.get(item.id) is None
            assert await pool.list(PoolQuery()) == []
        await pool.sweep()
        assert await left(pool) == []
