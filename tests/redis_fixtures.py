"""Redis for tests: the server CI runs (127.0.0.1:6379, no persistence), or the one
MEMGATE_TEST_REDIS_URL names. Nothing is skipped: where Redis does not answer the
test fails saying how to start it. Each pool gets its own key prefix
(`fresh_prefix`) and deletes its keys afterwards (`RedisShortPool.clear`).
"""

from __future__ import annotations

import os

import pytest
import redis

REDIS_URL = os.environ.get("MEMGATE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
START = (
    "redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save ''"
    " --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log"
)


def require_redis() -> str:
    """The test Redis URL; fails the test (never skips) when nothing answers there."""
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=5)
    try:
        client.ping()
    except redis.RedisError as exc:
        pytest.fail(
            f"Redis is not reachable at {REDIS_URL} ({type(exc).__name__}: {exc}). "
            f"Start it with: {START}",
            pytrace=False,
        )
    finally:
        client.close()
    return REDIS_URL


@pytest.fixture(scope="session")
def redis_url() -> str:
    return require_redis()
