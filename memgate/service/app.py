"""The FastAPI app factory: `create_app(settings)`.

The app opens its gateway and key store in its lifespan (so one process can run
several apps, e.g. in tests) and keeps them in `app.state.memgate`. A background
task expires transient memories and times out stale reviews; another delivers
the notification outbox (memgate.service.notify).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from typing import Any

import anyio.to_thread
from fastapi import FastAPI

from memgate.bootstrap import POSTGRES_SCHEMES, open_gateway
from memgate.errors import RollbackInProgress
from memgate.gateway import Gateway
from memgate.guard import Guard, GuardPolicy, ValueStore
from memgate.guard.flow import flow_engine, graph_connection
from memgate.guard.memory_feed import MemoryFeed
from memgate.log.integrity import SignsCheckpoints
from memgate.service.deps import SECURITY_SCHEMES, MemgateState
from memgate.service.docs import install_docs
from memgate.service.guard_asks import open_asks
from memgate.service.guards import BodyDeadline
from memgate.service.keystores import open_keys
from memgate.service.metrics import Metrics, RequestMetrics, TimedInspector
from memgate.service.notify import Notifier
from memgate.service.problems import BodyLimit, install
from memgate.service.routes import guard, health, incident, keys, memories, review, scan
from memgate.service.settings import Settings
from memgate.service.ui.router import build_ui_router
from memgate.service.witness import witness
from memgate.trust import Policy

log = logging.getLogger("memgate.service")
GUARD_FEED_SECONDS = 1.0
"""How often the guard reads the memories written and read since (flow sources)."""

TAGS = [
    {"name": "memories", "description": "Write, read, list, search and delete memories."},
    {"name": "review", "description": "The human review queue (reviewers and admins)."},
    {"name": "scan", "description": "Scan content without storing it."},
    {"name": "incident", "description": "Rollback, the audit log, provenance investigations."},
    {"name": "keys", "description": "API keys and their roles (admins)."},
    {"name": "guard", "description": "Decide tool calls before they run; learn from results."},
    {"name": "health", "description": "Liveness, readiness, Prometheus metrics."},
]


async def open_for(settings: Settings) -> Gateway:
    """The gateway the settings describe."""
    policy = Policy.load(settings.policy_path) if settings.policy_path is not None else None
    return await open_gateway(
        settings.data_dir,
        policy=policy,
        graph=settings.graph,
        graph_name=settings.graph_name,
        store_url=settings.store,
        short=settings.short,
        short_prefix=settings.short_prefix,
        recall=None if settings.recall == "off" else settings.recall,
    )


def open_guard(settings: Settings, gateway: Gateway) -> Guard:
    """The tool-call guard: the gateway's scanner, the guard policy, and the value
    fingerprints and decision state (trust, pins, the call chain's windows,
    depths and breaker): under the data directory and in this process, or in
    the PostgreSQL store, shared by every replica."""
    policy = GuardPolicy.load(settings.guard_policy_path)
    local = settings.data_dir / "db" / "guard.sqlite3"
    values: ValueStore
    if settings.store is not None and settings.store.startswith(POSTGRES_SCHEMES):
        # NOTE: imported here so that memgate runs without the `postgres` extra.
        from memgate.guard.state_postgres import PostgresGuardState
        from memgate.guard.values_postgres import PostgresValueStore

        values = PostgresValueStore.open(settings.store, local)
        state = PostgresGuardState.open(settings.store, policy.chain.burst_seconds)
        state.import_local(values)  # what this data directory earned before
    else:
        values = ValueStore(local)
        state = None
    engine = flow_engine(policy.flow.engine, graph_connection(gateway.graph))
    return Guard(gateway.inspector.scanner, policy, values, engine=engine, state=state)


async def maintain(gateway: Gateway, every: float) -> None:
    """Expire transient memories and time out stale reviews, forever."""
    while True:
        await asyncio.sleep(every)
        try:
            await gateway.expire_due()
            await gateway.expire_reviews()
        except RollbackInProgress:
            continue
        except Exception as exc:
            log.warning("maintenance failed: %s", type(exc).__name__)


def create_app(settings: Settings) -> FastAPI:
    """The memgate HTTP service for one data directory."""
    metrics = Metrics()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        gateway = await open_for(settings)
        gateway.inspector = TimedInspector(gateway.inspector, metrics.scan_seconds)
        store = await anyio.to_thread.run_sync(open_keys, settings.keys_path, settings.store)
        app.state.memgate = MemgateState(
            gateway=gateway, keys=store, settings=settings, metrics=metrics
        )
        task = asyncio.create_task(maintain(gateway, settings.maintenance_seconds))
        witnessing = None
        if settings.witness_dir is not None and isinstance(gateway.store, SignsCheckpoints):
            witnessing = asyncio.create_task(
                witness(gateway.store, settings.witness_dir, settings.witness_seconds)
            )
        notifier = Notifier.start(settings)
        app.state.notifier = notifier
        app.state.guard = open_guard(settings, gateway)
        app.state.guard_asks = open_asks(settings.data_dir, settings.store)
        guard_feed = MemoryFeed(
            gateway.store, app.state.guard.values, track_pii=app.state.guard.policy.flow.track_pii
        )
        app.state.guard_feed = guard_feed
        feeding = asyncio.create_task(guard_feed.run(GUARD_FEED_SECONDS), name="memgate-guard-feed")
        # What startup built (compiled rules, their examples, the classifier, the
        # graph client: ~80k objects) lives as long as the service: frozen out of
        # the collector, a full collection no longer walks it (a blast-radius walk's
        # p99 on the 1M-edge graph: 37 -> 23 ms, benchmarks/results/blast_ab3.md).
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            gc.unfreeze()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            if witnessing is not None:
                witnessing.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await witnessing
            feeding.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await feeding
            await notifier.stop()
            del app.state.notifier
            del app.state.memgate
            app.state.guard.close()
            del app.state.guard
            await app.state.guard_asks.close()
            del app.state.guard_asks
            await gateway.close()
            store.close()

    app = FastAPI(
        title="memgate",
        summary="Customs for agent memory: scan, score, route and audit every memory write.",
        version="0.1.0",
        openapi_tags=TAGS,
        lifespan=lifespan,
        # FastAPI's own pages load their assets from a CDN; install_docs serves them.
        docs_url=None,
        redoc_url=None,
        telemetry={
            "tracing": settings.opentelemetry,
            "metrics": settings.opentelemetry,
            "logs": settings.opentelemetry,
        },
    )
    install(app)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    # Outermost: the whole body within body_timeout, or 408 (a trickling client
    # never holds a route); BodyLimit inside answers 413 past max_body_bytes.
    app.add_middleware(
        BodyDeadline, seconds=settings.body_timeout, max_bytes=settings.max_body_bytes
    )
    # Outside even that: the 408s and 413s are counted and timed too.
    app.add_middleware(RequestMetrics, metrics=metrics, routes=app.router.routes)
    for module in (memories, review, scan, incident, keys, guard, health):
        app.include_router(module.router)
    app.include_router(build_ui_router())
    install_docs(app)
    _document_security(app)
    return app


PUBLIC_PATHS = ("/healthz", "/readyz", "/metrics", "/ui", "/v1/log/public-key")


def _document_security(app: FastAPI) -> None:
    """Name the API-key schemes in the OpenAPI schema, on every operation that needs
    a key (the key is read by one plain dependency, see deps.authenticate)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        schema = app.openapi_schema
        if schema is None:
            schema = build()
            schema.setdefault("components", {})["securitySchemes"] = SECURITY_SCHEMES
            for path, operations in schema.get("paths", {}).items():
                if path.startswith(PUBLIC_PATHS):
                    continue
                for operation in operations.values():
                    operation["security"] = [{name: []} for name in SECURITY_SCHEMES]
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def app_from_env() -> FastAPI:
    """`create_app(Settings.from_env())`, for ASGI servers that take a factory:

    MEMGATE_DATA_DIR=data uvicorn --factory memgate.service.app:app_from_env
    """
    return create_app(Settings.from_env())
