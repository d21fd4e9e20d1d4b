"""Composition root: builds a Gateway on concrete backends. The gateway itself
only knows the ports (STYLE.md #4); this module picks SQLite or the in-memory
twins, loads keys and policy.

    gateway = await open_gateway(Path("data"))        # SQLite + keys under data/
    gateway = memory_gateway()                        # in-memory twins
    with open_sync_gateway(Path("data")) as gateway:  # blocking facade
        ...
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from memgate.domain.memory import utcnow
from memgate.gateway import Gateway, SyncGateway
from memgate.log.keys import load_or_create_key
from memgate.pools.short import ShortTermPool
from memgate.store.memory import MemoryStore
from memgate.store.sqlite import SqliteStore
from memgate.trust import Inspector, Policy

Clock = Callable[[], datetime]
LOG_KEY_ENV = "MEMGATE_LOG_KEY"
FINGERPRINT_KEY_ENV = "MEMGATE_FINGERPRINT_KEY"
DB_FILE = Path("db") / "memgate.sqlite3"


def short_pool(policy: Policy, clock: Clock = utcnow) -> ShortTermPool:
    routing = policy.routing
    sliding = timedelta(seconds=routing.short_ttl_seconds) if routing.sliding_expiry else None
    return ShortTermPool(max_entries=routing.short_max_entries, sliding_ttl=sliding, clock=clock)


async def open_gateway(
    data_dir: Path,
    *,
    policy: Policy | None = None,
    rules_paths: list[Path] | None = None,
    clock: Clock = utcnow,
) -> Gateway:
    """Open (or create) a data directory: `db/memgate.sqlite3` and `keys/`. The log
    key comes from MEMGATE_LOG_KEY or `keys/log.key` (mode 0600), outside the
    database directory; the fingerprint key likewise."""
    data_dir = Path(data_dir)
    keys = data_dir / "keys"
    log_key = load_or_create_key(keys / "log.key", env=LOG_KEY_ENV)
    fp_key = load_or_create_key(keys / "fingerprint.key", env=FINGERPRINT_KEY_ENV)
    policy = policy or Policy.load()
    scanner = Inspector.default(rules_paths=rules_paths, fingerprint_key=fp_key).scanner
    store = await SqliteStore.open(data_dir / DB_FILE, log_key)
    gateway = Gateway(
        inspector=Inspector(scanner, policy),
        store=store,
        short=short_pool(policy, clock),
        policy=policy,
        clock=clock,
    )
    await gateway.restore()
    return gateway


def memory_gateway(
    *,
    policy: Policy | None = None,
    key: bytes | None = None,
    clock: Clock = utcnow,
    inspector: Inspector | None = None,
) -> Gateway:
    """A gateway on the in-memory twins (tests, notebooks): nothing persists."""
    policy = policy or Policy.load()
    key = key or os.urandom(32)
    scanner = (inspector or Inspector.default(fingerprint_key=key)).scanner
    return Gateway(
        inspector=Inspector(scanner, policy),
        store=MemoryStore(key),
        short=short_pool(policy, clock),
        policy=policy,
        clock=clock,
    )


def open_sync_gateway(data_dir: Path, **kwargs: Any) -> SyncGateway:
    """`open_gateway` behind the blocking facade."""
    return SyncGateway.start(lambda: open_gateway(data_dir, **kwargs))
