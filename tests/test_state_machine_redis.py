"""The gateway state machine (tests/test_state_machine.py) with its short-term pool
on Redis: the same rules and invariants (every transition legal, nothing served
that should not be, each expiry logged once, the chain verifies) over the shared
pool. Each machine uses its own key prefix and deletes its keys afterwards."""

from __future__ import annotations

from memgate.bootstrap import short_pool
from memgate.pools.redis import RedisShortPool, fresh_prefix
from tests.redis_fixtures import require_redis
from tests.test_state_machine import _SETTINGS, GatewayMachine, policy


class RedisShortGatewayMachine(GatewayMachine):
    """The in-memory store, the short-term pool in Redis."""

    BACKEND = "memory"

    def __init__(self) -> None:
        url = require_redis()
        super().__init__()
        pool = short_pool(policy(), self.clock, url=url, prefix=fresh_prefix())
        assert isinstance(pool, RedisShortPool)
        self.pool = pool
        self.gateway.short = pool
        # Not restored (memory_gateway): the first expire_due finds the pool `lost`
        # and refills it from the store, a path this machine found a double expiry on.

    def teardown(self) -> None:
        try:
            self.run(self.pool.clear())
        finally:
            super().teardown()


class TestRedisShortGateway(RedisShortGatewayMachine.TestCase):  # type: ignore[name-defined,misc]
    settings = _SETTINGS
