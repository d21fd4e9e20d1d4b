"""The delivery worker: takes notices from the outbox and POSTs them to every
configured target, retrying with exponential backoff until each target took
them (2xx), or giving up after `Backoff.max_attempts` attempts or `max_age`
seconds (a notice that old no longer helps anyone; it stays visible in
`memgate notify status` until pruned).

Targets are named by id (a digest of the URL) in the outbox and by scheme and
host in log lines and errors: a webhook URL is a credential (Slack's is).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httpx

from memgate.domain.notices import Notice
from memgate.domain.ports import Outbox, OutboxEntry
from memgate.notify.formats import Format, render, signed_headers

log = logging.getLogger("memgate.notify")

Clock = Callable[[], float]
PRUNE_AFTER_SECONDS = 7 * 86400.0
"""Delivered and given-up notices are forgotten after this long."""
REQUEST_TIMEOUT_SECONDS = 10.0
LEASE_SECONDS = 60.0
NO_TARGET = "no notification target configured"


@dataclass(frozen=True, slots=True)
class Target:
    """One webhook: where, and in which format."""

    url: str = field(repr=False)
    format: Format = Format.JSON

    def __post_init__(self) -> None:
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("a notification URL must be an http:// or https:// URL with a host")

    @property
    def id(self) -> str:
        """What the outbox records of it: a digest, never the URL."""
        return hashlib.sha256(f"{self.format.value} {self.url}".encode()).hexdigest()[:16]

    @property
    def shown(self) -> str:
        """For people and logs: scheme, host and port only (no path, no token)."""
        parts = urlsplit(self.url)
        port = f":{parts.port}" if parts.port else ""
        return f"{parts.scheme}://{parts.hostname}{port}"

    @classmethod
    def parse(cls, spec: str, default: Format = Format.JSON) -> Target:
        """`https://...`, or `slack:https://...` / `json:https://...` for a format of its own."""
        spec = spec.strip()
        head, sep, rest = spec.partition(":")
        if sep and head in (f.value for f in Format) and rest.startswith("http"):
            return cls(rest, Format(head))
        return cls(spec, default)


@dataclass(frozen=True, slots=True)
class Backoff:
    """Delay before attempt n+1 after n failed ones: base * factor**(n-1), capped,
    times a jitter in [0.5, 1] (many notices failing together do not retry in step)."""

    base: float = 5.0
    factor: float = 2.0
    cap: float = 3600.0
    max_attempts: int = 16
    max_age: float = 86400.0
    jitter: bool = True

    def delay(self, attempts: int, retry_after: float | None = None) -> float:
        raw = min(self.cap, self.base * self.factor ** max(0, attempts - 1))
        if self.jitter:
            raw *= random.uniform(0.5, 1.0)  # noqa: S311 - spreading retries, not a secret
        if retry_after is not None:
            raw = max(raw, min(retry_after, self.cap))
        return raw


@dataclass(frozen=True, slots=True)
class Attempt:
    """One POST of one notice to one target."""

    target: str
    """Target.shown."""
    ok: bool
    status: int | None = None
    error: str | None = None
    seconds: float = 0.0
    retry_after: float | None = None


@dataclass(slots=True)
class DrainReport:
    delivered: int = 0
    failed: int = 0
    given_up: int = 0
    attempts: list[Attempt] = field(default_factory=list)


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after", "")
    return float(value) if value.isdigit() else None


async def post(
    client: httpx.AsyncClient,
    target: Target,
    notice: Notice,
    secret: bytes | None,
    *,
    public_url: str | None = None,
    now: float | None = None,
) -> Attempt:
    """POST one notice; any 2xx is delivered, anything else (3xx included:
    redirects are not followed with a signed payload) is a failed attempt."""
    body = render(notice, target.format, public_url)
    headers = signed_headers(notice.id, body, secret, time.time() if now is None else now)
    started = time.perf_counter()
    try:
        response = await client.post(target.url, content=body, headers=headers)
    except httpx.HTTPError as exc:
        # NOTE: the class name only: some httpx messages repeat the URL.
        return Attempt(
            target.shown, False, error=type(exc).__name__, seconds=time.perf_counter() - started
        )
    took = time.perf_counter() - started
    if 200 <= response.status_code < 300:
        return Attempt(target.shown, True, status=response.status_code, seconds=took)
    return Attempt(
        target.shown,
        False,
        status=response.status_code,
        error=f"HTTP {response.status_code}",
        seconds=took,
        retry_after=_retry_after(response),
    )


class Deliverer:
    """Delivers the outbox to `targets`; `run()` forever (in `memgate serve`),
    `drain()` once (in `memgate notify drain`)."""

    def __init__(
        self,
        outbox: Outbox,
        targets: Sequence[Target],
        *,
        secret: bytes | None = None,
        backoff: Backoff | None = None,
        public_url: str | None = None,
        client: httpx.AsyncClient | None = None,
        clock: Clock = time.time,
        poll_seconds: float = 1.0,
        batch: int = 50,
        concurrency: int = 8,
    ) -> None:
        self.outbox = outbox
        self.targets = tuple(targets)
        self.secret = secret
        self.backoff = backoff or Backoff()
        self.public_url = public_url
        self.clock = clock
        self.poll_seconds = poll_seconds
        self.batch = batch
        self._own_client = client is None
        self._client = client or httpx.AsyncClient(
            timeout=REQUEST_TIMEOUT_SECONDS, follow_redirects=False
        )
        self._limit = asyncio.Semaphore(concurrency)
        self._last_prune = 0.0

    async def deliver_once(self, *, due_only: bool = True) -> DrainReport:
        """Claim one batch and attempt each notice once per target still owed it."""
        report = DrainReport()
        now = self.clock()
        entries = await self.outbox.claim(
            now=now, limit=self.batch, lease=LEASE_SECONDS, due_only=due_only
        )
        await asyncio.gather(*(self._deliver(entry, report) for entry in entries))
        return report

    async def drain(self, limit: int = 10_000) -> DrainReport:
        """Attempt every undelivered notice (up to `limit`) once now, whatever its
        backoff. All are leased first, so none is attempted twice."""
        total = DrainReport()
        claimed: list[OutboxEntry] = []
        while len(claimed) < limit:
            page = await self.outbox.claim(
                now=self.clock(),
                limit=min(self.batch, limit - len(claimed)),
                lease=LEASE_SECONDS + REQUEST_TIMEOUT_SECONDS * len(claimed) / self.batch,
                due_only=False,
            )
            if not page:
                break
            claimed.extend(page)
        for lo in range(0, len(claimed), self.batch):
            chunk = claimed[lo : lo + self.batch]
            await asyncio.gather(*(self._deliver(entry, total) for entry in chunk))
        return total

    async def _deliver(self, entry: OutboxEntry, report: DrainReport) -> None:
        notice = entry.notice
        now = self.clock()
        attempts = entry.attempts + 1
        if not self.targets:
            too_old = now - entry.created > self.backoff.max_age
            await self.outbox.settle(
                notice.id,
                done=entry.done,
                delivered=False,
                gave_up=too_old,
                next_at=entry.created + self.backoff.max_age + 1.0,
                error=NO_TARGET,
            )
            report.given_up += too_old
            report.failed += not too_old
            return
        owed = [t for t in self.targets if t.id not in entry.done]
        async with self._limit:
            results = await asyncio.gather(
                *(
                    post(self._client, t, notice, self.secret, public_url=self.public_url)
                    for t in owed
                )
            )
        report.attempts.extend(results)
        done = set(entry.done)
        done.update(t.id for t, r in zip(owed, results, strict=True) if r.ok)
        delivered = all(t.id in done for t in self.targets)
        if delivered:
            await self.outbox.settle(notice.id, done=frozenset(done), delivered=True)
            report.delivered += 1
            return
        failures = [r for r in results if not r.ok]
        error = "; ".join(f"{r.target}: {r.error}" for r in failures)[:500]
        retry_after = max((r.retry_after or 0.0 for r in failures), default=0.0) or None
        gave_up = (
            attempts >= self.backoff.max_attempts or now - entry.created > self.backoff.max_age
        )
        await self.outbox.settle(
            notice.id,
            done=frozenset(done),
            delivered=False,
            next_at=self.clock() + self.backoff.delay(attempts, retry_after),
            error=error,
            gave_up=gave_up,
        )
        if gave_up:
            report.given_up += 1
            log.error("notice %s given up after %d attempts: %s", notice.id, attempts, error)
        else:
            report.failed += 1
            log.warning("notice %s not delivered (attempt %d): %s", notice.id, attempts, error)

    async def run(self) -> None:
        """Deliver forever: poll the outbox, prune old rows now and then. A failure
        of the outbox itself is logged and retried; it never stops the worker."""
        failing = 0
        while True:
            try:
                report = await self.deliver_once()
                now = self.clock()
                if now - self._last_prune > 3600.0:
                    self._last_prune = now
                    await self.outbox.prune(now - PRUNE_AFTER_SECONDS)
                failing = 0
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failing += 1
                if failing == 1 or failing % 100 == 0:  # logged, not once a second
                    log.warning("notification delivery failed: %s", type(exc).__name__)
                await asyncio.sleep(min(30.0, self.poll_seconds * 2**failing))
                continue
            if report.delivered + report.failed + report.given_up < self.batch:
                await asyncio.sleep(self.poll_seconds)

    async def close(self) -> None:
        if self._own_client:
            with contextlib.suppress(Exception):
                await self._client.aclose()


async def send_test(
    targets: Sequence[Target],
    secret: bytes | None,
    notice: Notice,
    *,
    client: httpx.AsyncClient | None = None,
    public_url: str | None = None,
) -> list[Attempt]:
    """Send `notice` to each target once, now, bypassing the outbox."""
    own = client is None
    http = client or httpx.AsyncClient(timeout=REQUEST_TIMEOUT_SECONDS, follow_redirects=False)
    try:
        return list(
            await asyncio.gather(
                *(post(http, t, notice, secret, public_url=public_url) for t in targets)
            )
        )
    finally:
        if own:
            await http.aclose()
