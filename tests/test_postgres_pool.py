"""The lazily opened PostgreSQL pool behind the outbox and the guard's ask
store: callers racing to its first use share one pool, and closing it leaves
nothing running (before, each racer opened its own and the extra pools' workers
kept asyncio.run from returning)."""

from __future__ import annotations

import asyncio

import pytest

from memgate.store.postgres_pool import LazyPool
from tests.pg_fixtures import pg_server, postgres  # noqa: F401 - fixture

pytestmark = pytest.mark.usefixtures("postgres")


def test_racing_first_uses_share_one_pool_and_close_ends_it() -> None:
    async def scenario() -> None:
        setups: list[object] = []

        async def setup(conn: object) -> None:
            setups.append(conn)
            await asyncio.sleep(0.05)  # widen the window the racers arrive in

        lazy = LazyPool(pg_server().fresh_url(), name="test-lazy", what="test", setup=setup)
        pools = await asyncio.gather(*(lazy.get() for _ in range(8)))
        assert len({id(p) for p in pools}) == 1
        assert len(setups) == 1
        await lazy.close()
        assert pools[0].closed
        again = await lazy.get()  # reopened on the next use
        assert again is not pools[0] and not again.closed
        await lazy.close()

    asyncio.run(asyncio.wait_for(scenario(), timeout=60))
