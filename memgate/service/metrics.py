"""Prometheus metrics of one app: its own CollectorRegistry (no global state, so
two apps in one process, e.g. in tests, never share counters)."""

from __future__ import annotations

import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from memgate.domain import ScanReport, Source
from memgate.domain.ports import Outbox
from memgate.gateway import Gateway, WriteReceipt
from memgate.trust import Inspector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
_SCAN_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1.0)
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
