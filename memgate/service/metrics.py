"""Prometheus metrics of one app: its own CollectorRegistry (no global state, so
two apps in one process, e.g. in tests, never share counters)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from starlette.routing import BaseRoute, Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memgate.domain import ScanReport, Source
from memgate.domain.ports import Outbox
from memgate.gateway import Gateway, WriteReceipt
from memgate.trust import Inspector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
_SCAN_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1.0)
_HTTP_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
UNMATCHED_ROUTE = "<unmatched>"
"""The route label of a request no route matched (any unknown path: one series)."""
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""Methods labelled as themselves; any other is counted as OTHER."""
PENDING_COUNT_CAP = 100_000
"""The pending gauge counts at most this many (it pages the queue at scrape time)."""


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.writes = Counter(
            "memgate_writes",
            "Memory writes admitted to the log, by scan decision and resulting state.",
            ["decision", "state"],
            registry=self.registry,
        )
        self.refused = Counter(
            "memgate_writes_refused",
            "Writes refused before the log (oversized, sensitive key, rollback running).",
            ["reason"],
            registry=self.registry,
        )
        self.scan_seconds = Histogram(
            "memgate_scan_seconds",
            "Time to scan and score one piece of content.",
            buckets=_SCAN_BUCKETS,
            registry=self.registry,
        )
        self.reviews = Counter(
            "memgate_review_actions",
            "Review actions taken, by action and outcome.",
            ["action", "outcome"],
            registry=self.registry,
        )
        self.rollbacks = Counter(
            "memgate_rollbacks",
            "Rollbacks planned (dry run) or applied.",
            ["mode"],
            registry=self.registry,
        )
        self.pending = Gauge(
            "memgate_pending_reviews",
            f"Memories waiting for review (counted up to {PENDING_COUNT_CAP}).",
            registry=self.registry,
        )
        self.log_head = Gauge(
            "memgate_log_head_seq", "Sequence number of the last log event.", registry=self.registry
        )
        self.projection_lag = Gauge(
            "memgate_projection_lag",
            "Log events and reads recorded in SQLite, not yet projected into the graph.",
            registry=self.registry,
        )
        self.graph_available = Gauge(
            "memgate_graph_available",
            "1 when the provenance graph answers, 0 when it is down or disabled.",
            registry=self.registry,
        )
        self.graph_set_aside = Gauge(
            "memgate_graph_set_aside_rows",
            "Log events and reads the graph could not take; projection went on without"
            " them (listed by /v1/graph/rebuild and the UI's log page).",
            registry=self.registry,
        )
        self.integrity_refused = Gauge(
            "memgate_integrity_refused_rows",
            "Stored rows not served since start because their MAC failed (edited outside"
            " memgate): run `memgate log verify`.",
            registry=self.registry,
        )

        self.notices_waiting = Gauge(
            "memgate_notices_waiting",
            "Notifications in the outbox not yet taken by every target.",
            registry=self.registry,
        )
        self.notices_given_up = Gauge(
            "memgate_notices_given_up",
            "Notifications given up after their last retry (kept for a week).",
            registry=self.registry,
        )
        self.notices_oldest = Gauge(
            "memgate_notices_oldest_waiting_seconds",
            "Age of the oldest notification still waiting (0 when none waits).",
            registry=self.registry,
        )

        self.http_requests = Counter(
            "memgate_http_requests",
            "HTTP requests answered, by method, route template (not the raw path:"
            f" {UNMATCHED_ROUTE} for a path no route serves) and status code.",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.http_seconds = Histogram(
            "memgate_http_request_duration_seconds",
            "Time from a request's arrival to the end of its response, by method,"
            " route template and status code.",
            ["method", "route", "status"],
            buckets=_HTTP_BUCKETS,
            registry=self.registry,
        )

    def count_write(self, receipt: WriteReceipt) -> None:
        self.writes.labels(receipt.decision.value, receipt.state.value).inc()

    async def refresh(self, gateway: Gateway) -> None:
        """Gauges that are read from the gateway at scrape time."""
        self.log_head.set((await gateway.checkpoint()).seq)
        self.pending.set(await count_pending(gateway))
        projection = await gateway.projection_status()
        self.projection_lag.set(projection.lag)
        self.graph_available.set(1 if projection.available else 0)
        self.graph_set_aside.set(projection.set_aside)
        refusals = getattr(gateway.store, "refusals", None)
        self.integrity_refused.set(getattr(refusals, "count", 0))

    async def refresh_notices(self, outbox: Outbox) -> None:
        status = await outbox.status()
        self.notices_waiting.set(status.pending)
        self.notices_given_up.set(status.given_up)
        oldest = status.oldest_pending
        self.notices_oldest.set(max(0.0, time.time() - oldest) if oldest is not None else 0.0)

    def render(self) -> bytes:
        return generate_latest(self.registry)


async def count_pending(gateway: Gateway, cap: int = PENDING_COUNT_CAP) -> int:
    total = 0
    while total < cap:
        page = await gateway.pending(limit=1000, offset=total)
        total += len(page)
        if len(page) < 1000:
            break
    return total


class TimedInspector(Inspector):
    """The gateway's inspector, timing every scan into the histogram. Installed on
    the gateway by the app, so writes, edits, promotions and /v1/scan all count."""

    def __init__(self, inner: Inspector, histogram: Histogram) -> None:
        super().__init__(inner.scanner, inner.policy)
        self._histogram = histogram

    def inspect(self, text: str, source: Source = Source.TOOL) -> ScanReport:
        started = time.perf_counter()
        try:
            return super().inspect(text, source)
        finally:
            self._histogram.observe(time.perf_counter() - started)

    def inspect_write(
        self, text: str, metadata: dict[str, Any], source: Source = Source.TOOL
    ) -> tuple[ScanReport, dict[str, Any]]:
        started = time.perf_counter()
        try:
            return super().inspect_write(text, metadata, source)
        finally:
            self._histogram.observe(time.perf_counter() - started)


def route_template(scope: Scope) -> str:
    """The template of the route that served `scope` (`/v1/memories/{memory_id}`),
    else UNMATCHED_ROUTE. Read after the app ran: the router leaves the route it
    chose in `scope["route"]` (Starlette's and FastAPI's routers both do; a
    405 leaves the route whose path matched)."""
    path = getattr(scope.get("route"), "path", None)
    return path if isinstance(path, str) and path else UNMATCHED_ROUTE


def mount_template(routes: Sequence[BaseRoute], scope: Scope) -> str | None:
    """The path of the top-level mount serving `scope` (`/docs/assets`), matched
    before the app runs (FastAPI's newer router leaves no route for a mount, and
    routing rewrites the scope's root_path)."""
    for route in routes:
        if isinstance(route, Mount):
            match, _ = route.matches(scope)
            if match is Match.FULL:
                return route.path or "/"
    return None


class RequestMetrics:
    """ASGI middleware counting and timing every HTTP request by method, route
    template and status. Outermost, so the answers of the other middlewares (413,
    408) count too; a request that raised before answering counts as 500."""

    def __init__(self, app: ASGIApp, *, metrics: Metrics, routes: Sequence[BaseRoute]) -> None:
        self.app = app
        self.metrics = metrics
        self.routes = routes
        self._mounts: list[Mount] | None = None
        # The labelled children, looked up once per label set (the set is bounded:
        # methods x route templates x statuses): prometheus' labels() costs more
        # than the rest of this middleware.
        self._series: dict[tuple[str, str, str], tuple[Any, Any]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        if self._mounts is None:  # the routes are all in place by the first request
            self._mounts = [r for r in self.routes if isinstance(r, Mount)]
        mounted = mount_template(self._mounts, scope)
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            method = str(scope.get("method", "")).upper()
            route = mounted if mounted is not None else route_template(scope)
            labels = (method if method in METHODS else "OTHER", route, str(status))
            series = self._series.get(labels)
            if series is None:
                series = self._series[labels] = (
                    self.metrics.http_requests.labels(*labels),
                    self.metrics.http_seconds.labels(*labels),
                )
            series[0].inc()
            series[1].observe(time.perf_counter() - started)
