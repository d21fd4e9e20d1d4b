"""Choosing the short-term pool: Settings / MEMGATE_SHORT, open_gateway(short=...)
and `memgate serve --short`. In-process stays the default."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from memgate.bootstrap import open_gateway, short_pool
from memgate.cli.main import app
from memgate.domain import Source
from memgate.domain.memory import MemoryWrite, Target
from memgate.pools.redis import RedisShortPool, fresh_prefix
from memgate.pools.short import ShortTermPool
from memgate.service.settings import Settings, SettingsError
from memgate.trust import Policy
from tests.contracts import run


def test_settings_take_the_short_pool_from_the_environment() -> None:
    assert Settings.from_env({}).short is None
    assert Settings.from_env({"MEMGATE_SHORT": "memory"}).short is None
    url = "redis://127.0.0.1:6379/0"
    got = Settings.from_env({"MEMGATE_SHORT": url, "MEMGATE_SHORT_PREFIX": "mg:a:"})
    assert (got.short, got.short_prefix) == (url, "mg:a:")
    with pytest.raises(SettingsError, match="MEMGATE_SHORT"):
        Settings.from_env({"MEMGATE_SHORT": "http://127.0.0.1:6379"})


def test_the_default_short_pool_is_in_process() -> None:
    assert isinstance(short_pool(Policy.load()), ShortTermPool)
    with pytest.raises(ValueError, match="Redis URL"):
        short_pool(Policy.load(), url="memcached://x")


def test_open_gateway_with_a_redis_short_pool(tmp_path: Path, redis_url: str) -> None:
    async def go() -> None:
        prefix = fresh_prefix()
        gw = await open_gateway(tmp_path, graph=None, short=redis_url, short_prefix=prefix)
        pool = gw.short
        assert isinstance(pool, RedisShortPool) and pool.prefix == prefix
        try:
            receipt = await gw.write(
                MemoryWrite(
                    content="build 7 passed",
                    namespace=("ci",),
                    source=Source.TOOL,
                    target=Target.SHORT,
                    ttl_seconds=600,
                )
            )
            assert await pool.count() == 1
            assert (await pool.get(receipt.id)) is not None
        finally:
            await pool.clear()
            await gw.close()

    run(go())


def test_serve_refuses_a_short_pool_that_is_not_redis(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["serve", "--data-dir", str(tmp_path), "--short", "http://127.0.0.1:1"]
    )
    assert result.exit_code != 0
    assert "MEMGATE_SHORT" in result.output or "short" in result.output
