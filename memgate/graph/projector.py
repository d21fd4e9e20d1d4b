"""The projection: a background task that copies the SQLite log and reads table
into the graph, and answers investigations (the `ProvenanceGraph` port).

SQLite is the source of truth and the queue: the projector pulls from it with
high-water marks (`Store.records(after_seq)`, `Store.reads_after(cursor)`), so a
write or read never waits for the graph and nothing is lost while it is down.
Between the puller and the graph writer sits a bounded queue of batches (500
log records or 2,000 reads each, reads in one UNWIND): memory stays bounded when
the graph is slow.

The marks live in the graph itself (a `Meta` node), moving in the same query as
the reads they cover, and after the idempotent queries of an events batch. On
start they are checked against SQLite (the event at the mark must carry the
same MAC); a graph from another log, or ahead of it, is rebuilt.

Reads are drained before each batch of events: a read is committed no later
than any write its session makes after it, so when a write is projected the
reads that taint it are in the graph already (FLOWED_TO edges).

No one row can stop the projection. A row the row builder finds unprojectable
(a control character in an id) or that FalkorDB refuses (a data error, told
apart from an unreachable or unwell server, which is retried with backoff) is
set aside with its reason: a refused batch is split in halves down to the one
record, which is tried once more and then recorded on the Meta node with the
mark that passes it. A rebuild meets the same rows and sets them aside again.

Investigations say how complete they are: when events or reads that concern
the subject are not in the graph (not projected yet, or set aside), the status
is `graph_behind` with the gap, never `no_readers` or `no_path`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memgate.domain.events import LogRecord
from memgate.domain.graph import (
    GAP_LISTED,
    SET_ASIDE_LISTED,
    GraphGap,
    ImpactRow,
    Investigation,
    InvestigationKind,
    InvestigationStatus,
    ProjectionStatus,
    ReaderRow,
    SetAsideRow,
)
from memgate.domain.ports import Lease, ReadRecord, Store
from memgate.errors import GraphUnavailable
from memgate.graph import investigate
from memgate.graph.backend import SET_ASIDE_KEPT, GraphBackend, GraphMoved, Marks
from memgate.graph.rows import aside_event, aside_read, event_batch, micros, read_batch
from memgate.graph.schema import check_depth
from memgate.graph.server import GraphRefused

log = logging.getLogger(__name__)
BATCH = 500
"""Log records per events batch."""
READ_BATCH = 2000
"""Reads per reads batch (one query). Larger than an events batch: on the 1M-edge
graph a query of 2,000 reads took a third less server CPU per read than four of
500 (29.6 -> 18.8 s for 1M reads), the per-query cost growing with the graph."""
QUEUE_BATCHES = 4
POLL_SECONDS = 0.05
PUSHED_POLL_SECONDS = 1.0
"""With a store that says when it commits (`on_commit`), the projector is woken by
each commit and polls only as a fallback, this often."""
LEASE_POLL_SECONDS = 1.0
"""How often a replica without the projector's lease tries to take it, and the
holder checks it still holds it."""
FOLLOW_SECONDS = 0.1
"""How often a replica without the lease reads the graph's marks."""
ROW_LIMIT = 1000
TAIL = 2000
"""Unprojected events (and reads) looked through to tell whether they concern
an investigation's subject; past it the gap is `unchecked`."""
SESSIONS_LIMIT = 100_000
"""Reads of a blast radius's memories looked through for their sessions."""
STATUS_WAIT = 1.0
"""Seconds `status()` waits for the first connection attempt after start."""
_NOT_PROJECTED = "not projected yet"
_FINGERPRINT = re.compile(r"^[0-9a-f]{8,64}$")
Status = InvestigationStatus
_INCOMPLETE = "the graph is behind the log"


@dataclass(frozen=True, slots=True)
class _Asked:
    """A template's rows and the graph's position when it answered."""

    rows: Any
    base: dict[str, Any]
    applied: Marks
    heads: tuple[int, int]


class GraphProjection:
    """Implements `memgate.domain.graph.ProvenanceGraph` over a GraphBackend.
    `await start()` launches the background task; `close()` stops it."""

    def __init__(
        self,
        store: Store,
        backend: GraphBackend,
        *,
        batch: int = BATCH,
        read_batch: int = READ_BATCH,
        queue_batches: int = QUEUE_BATCHES,
        poll_seconds: float = POLL_SECONDS,
        lease: Lease | None = None,
        lease_poll: float = LEASE_POLL_SECONDS,
    ) -> None:
        self.store = store
        self.backend = backend
        self._lease = lease
        self._lease_poll = lease_poll
        self.leader = lease is None
        """Whether this replica runs the projector now (always, without a lease)."""
        self._batch = batch
        self._read_batch = read_batch
        self._queue_batches = queue_batches
        self._poll = poll_seconds
        self._idle_poll = poll_seconds
        """How long the puller waits for a wake-up before looking anyway."""
        hook = getattr(store, "on_commit", None)
        if callable(hook):
            # Pushed, not polled: the writer wakes the projector after each commit.
            hook(self.notify)
            self._idle_poll = max(poll_seconds, PUSHED_POLL_SECONDS)
        # One thread writes (batches apply in order); investigations get their own.
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="memgate-graph-write")
        self._readers = ThreadPoolExecutor(2, thread_name_prefix="memgate-graph-read")
        self._applied = Marks()
        self._available = False
        self._last_error: str | None = None
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._progress = asyncio.Condition()
        self._closed = False
        self._rebuilding = asyncio.Lock()
        self._heads = (0, 0)
        """SQLite's heads at the last `sync`: how fresh an answer is."""
        self._attempted = asyncio.Event()
        """Set once the first connection attempt ended (either way)."""
        self.projected_events = 0
        self.projected_reads = 0

    # -- lifecycle -----------------------------------------------------------------

    async def start(self) -> None:
        """Start projecting. Never raises for graph trouble: an unreachable graph is
        reported by `status()` and retried in the background."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._supervise())

    async def close(self) -> None:
        self._closed = True
        await self._stop()
        if self._lease is not None:
            with contextlib.suppress(Exception):
                await self._lease.close()
        loop = asyncio.get_running_loop()
        with contextlib.suppress(Exception):
            await loop.run_in_executor(self._writer, self.backend.close)
        self._writer.shutdown(wait=False)
        self._readers.shutdown(wait=False)

    async def _stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def notify(self) -> None:
        """A hint that SQLite has new rows (never blocks; polling covers a miss).
        Stores with `on_commit` call it after each commit."""
        self._wake.set()

    async def _on_writer[R](self, fn: Callable[..., R], *args: Any) -> R:
        return await asyncio.get_running_loop().run_in_executor(self._writer, fn, *args)

    async def _on_reader[R](self, fn: Callable[..., R], *args: Any) -> R:
        return await asyncio.get_running_loop().run_in_executor(self._readers, fn, *args)

    # -- projecting ----------------------------------------------------------------

    async def _supervise(self) -> None:
        """Project; with a lease, only while holding it, and follow otherwise."""
        if self._lease is None:
            await self._project()
            return
        while not self._closed:
            if await self._try_lease(self._lease):
                log.info("graph projector: this replica holds the lease; projecting")
                self.leader = True
                try:
                    await self._lead(self._lease)
                finally:
                    self.leader = False
            else:
                await self._follow(self._lease_poll)

    @staticmethod
    async def _try_lease(lease: Lease) -> bool:
        try:
            return await lease.acquire()
        except Exception as exc:  # the lease's backend is down: follow, and try again
            log.warning("graph projector: lease unavailable: %s", exc.__class__.__name__)
            return False

    async def _lead(self, lease: Lease) -> None:
        """Project while the lease is held, asking about it every `lease_poll`."""
        work = asyncio.create_task(self._project())
        try:
            while not work.done():
                await asyncio.wait({work}, timeout=self._lease_poll)
                if not work.done() and not await self._still_held(lease):
                    log.warning("graph projector: lease lost; another replica takes over")
                    return
        finally:
            work.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await work

    @staticmethod
    async def _still_held(lease: Lease) -> bool:
        try:
            return await lease.held()
        except Exception:  # cannot tell: stop, as if lost (another may hold it now)
            return False

    async def _follow(self, seconds: float) -> None:
        """Another replica projects: for `seconds`, keep this replica's view of the
        graph's marks fresh (status, `sync` and how complete an answer is)."""
        loop = asyncio.get_running_loop()
        until = loop.time() + seconds
        while not self._closed and loop.time() < until:
            try:
                self._applied = await self._on_reader(self.backend.marks)
                self._set_available(True, None)
            except GraphUnavailable as exc:
                self._set_available(False, str(exc))
            self._attempted.set()
            async with self._progress:
                self._progress.notify_all()
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), min(FOLLOW_SECONDS, seconds))

    async def _project(self) -> None:
        backoff = 0.1
        while not self._closed:
            try:
                await self._prepare()
                self._set_available(True, None)
                self._attempted.set()
                backoff = 0.1
                await self._pipeline()
            except asyncio.CancelledError:
                raise
            except GraphMoved as exc:
                # The graph answers; its marks are not where this projector left
                # them (another projector wrote, or the server came back empty):
                # re-read them at once. Flagging the graph unavailable here made a
                # `sync` arriving in the backoff give up although nothing was down.
                log.info("graph projection: %s", exc)
                await asyncio.sleep(0)
                continue
            except GraphUnavailable as exc:
                self._set_available(False, str(exc))
                self._attempted.set()
            except Exception as exc:  # a store error: retry, never crash the app
                log.exception("graph projection failed")
                self._set_available(False, f"projection failed: {exc.__class__.__name__}")
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 5.0)
            with contextlib.suppress(GraphUnavailable):
                await self._on_writer(self.backend.reconnect)

    def _set_available(self, available: bool, error: str | None) -> None:
        if available != self._available and not available:
            log.warning("graph unavailable: %s", error)
        self._available = available
        self._last_error = error

    async def _prepare(self) -> None:
        """Indexes first (without them every MERGE scans), then the marks, checked
        against SQLite."""
        await self._on_writer(self.backend.ensure_schema)
        marks = await self._on_writer(self.backend.marks)
        if not await self._marks_match(marks):
            log.warning("graph does not match the log (marks %s); rebuilding", marks)
            await self._on_writer(self.backend.clear)
            await self._on_writer(self.backend.ensure_schema)
            marks = Marks()
        self._applied = marks

    async def _marks_match(self, marks: Marks) -> bool:
        head_seq, head_read = await self.store.log_heads()
        if marks.events_seq > head_seq or marks.reads_seq > head_read:
            return False
        if marks.events_seq == 0:
            return True
        found = await self.store.records(after_seq=marks.events_seq - 1, limit=1)
        return bool(found) and found[0].seq == marks.events_seq and found[0].mac == marks.head_mac

    async def _pipeline(self) -> None:
        queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue(self._queue_batches)
        pull = asyncio.create_task(self._pull(queue, self._applied))
        push = asyncio.create_task(self._push(queue))
        try:
            done, _ = await asyncio.wait({pull, push}, return_when=asyncio.FIRST_EXCEPTION)
            for task in done:
                task.result()
        finally:
            for task in (pull, push):
                task.cancel()
            await asyncio.gather(pull, push, return_exceptions=True)

    async def _pull(self, queue: asyncio.Queue[tuple[str, Any]], start: Marks) -> None:
        events_mark, reads_mark = start.events_seq, start.reads_seq
        while True:
            records = await self.store.records(after_seq=events_mark, limit=self._batch)
            # Reads after the events fetch: every read committed before these events.
            while True:
                reads = await self.store.reads_after(reads_mark, self._read_batch)
                if not reads:
                    break
                await queue.put(("reads", reads))
                reads_mark = reads[-1][0]
                if len(reads) < self._read_batch:
                    break
            if records:
                await queue.put(("events", records))
                events_mark = records[-1].seq
                continue
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._idle_poll)

    async def _push(self, queue: asyncio.Queue[tuple[str, Any]]) -> None:
        while True:
            kind, rows = await queue.get()
            if kind == "reads":
                await self._project_reads(rows, {})
            else:
                await self._project_events(rows, {})
            async with self._progress:
                self._progress.notify_all()

    async def _project_events(self, records: Sequence[LogRecord], refused: dict[int, str]) -> None:
        """Apply a run of records; a refused run is split until the refused record
        is alone, and that one is set aside (see the module docstring)."""
        # Rows are built on the writer thread, where the graph client serializes
        # them: the loop thread stays free for requests.
        batch = await self._on_writer(event_batch, records, refused)
        batch.after = self._applied.events_seq  # fenced: see GraphMoved
        try:
            await self._apply(self.backend.apply_events, batch, retry=len(records) == 1)
        except GraphRefused as exc:
            if len(records) > 1:
                half = len(records) // 2
                await self._project_events(records[:half], refused)
                await self._project_events(records[half:], refused)
                return
            seq = records[0].seq
            if seq in refused:  # even the batch without it: the graph refuses writes
                raise GraphUnavailable(f"graph refuses writes: {exc}") from None
            await self._project_events(records, {**refused, seq: str(exc)})
            return
        self._note_aside(batch.set_aside)
        self._applied = self._with_aside(
            dataclasses.replace(self._applied, events_seq=batch.seq, head_mac=batch.mac),
            batch.set_aside,
        )
        self.projected_events += batch.count

    async def _project_reads(
        self, reads: Sequence[tuple[int, ReadRecord]], refused: dict[int, str]
    ) -> None:
        batch = await self._on_writer(read_batch, reads, refused)
        batch.after = self._applied.reads_seq
        try:
            await self._apply(self.backend.apply_reads, batch, retry=len(reads) == 1)
        except GraphRefused as exc:
            if len(reads) > 1:
                half = len(reads) // 2
                await self._project_reads(reads[:half], refused)
                await self._project_reads(reads[half:], refused)
                return
            position = reads[0][0]
            if position in refused:
                raise GraphUnavailable(f"graph refuses writes: {exc}") from None
            await self._project_reads(reads, {**refused, position: str(exc)})
            return
        self._note_aside(batch.set_aside)
        self._applied = self._with_aside(
            dataclasses.replace(self._applied, reads_seq=batch.mark), batch.set_aside
        )
        self.projected_reads += len(batch.rows)

    async def _apply(self, fn: Callable[[Any], None], batch: Any, *, retry: bool) -> None:
        """One batch on the writer thread; a lone row the graph refused is tried
        once more before it is set aside (a refusal must be the row's, not a
        moment's)."""
        try:
            await self._on_writer(fn, batch)
        except GraphRefused:
            if not retry:
                raise
            await asyncio.sleep(self._poll)
            await self._on_writer(fn, batch)

    @staticmethod
    def _with_aside(marks: Marks, aside: Sequence[SetAsideRow]) -> Marks:
        if not aside:
            return marks
        return dataclasses.replace(
            marks,
            set_aside=(*marks.set_aside, *aside)[:SET_ASIDE_KEPT],
            set_aside_count=marks.set_aside_count + len(aside),
        )

    @staticmethod
    def _note_aside(aside: Iterable[SetAsideRow]) -> None:
        for row in aside:
            log.warning("graph projection set aside %s %d: %s", row.kind, row.seq, row.reason)

    async def sync(self, within: float = 2.0) -> bool:
        head_seq, head_read = self._heads = await self.store.log_heads()

        def caught_up() -> bool:
            return self._applied.events_seq >= head_seq and self._applied.reads_seq >= head_read

        if caught_up():
            return True
        if self._task is None:
            await self.start()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._attempted.wait(), within)
        if not self._available:
            return False
        self.notify()
        try:
            async with asyncio.timeout(within):
                async with self._progress:
                    await self._progress.wait_for(caught_up)
        except TimeoutError:
            return False
        return True

    async def rebuild(self) -> int:
        """Drop the graph and project everything again (`memgate graph rebuild`).
        Only the replica holding the projector's lease may: another one's marks
        would not follow (GraphUnavailable says so)."""
        if self._lease is not None and not self.leader:
            raise GraphUnavailable(
                "another replica runs the graph projector (it holds the lease): rebuild there"
            )
        async with self._rebuilding:
            await self._stop()
            try:
                await self._on_writer(self.backend.reconnect)
                await self._on_writer(self.backend.clear)
            except GraphUnavailable as exc:
                self._set_available(False, str(exc))
                await self.start()
                raise
            before = self.projected_events
            self._applied = Marks()
            self._attempted.clear()
            await self.start()
            while not await self.sync(within=5.0):
                if not self._available and self._last_error is not None:
                    raise GraphUnavailable(f"rebuild stopped: {self._last_error}")
            return self.projected_events - before

    async def status(self) -> ProjectionStatus:
        if self._task is None and not self._closed:
            await self.start()
        # Right after start the marks (and set-aside rows) are still being read
        # from the graph: a short wait, so a restart does not report zeros.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._attempted.wait(), STATUS_WAIT)
        head_seq, head_read = await self.store.log_heads()
        applied = self._applied
        pending = max(head_read - applied.reads_seq, 0)
        return ProjectionStatus(
            enabled=True,
            available=self._available,
            projected_seq=applied.events_seq,
            head_seq=head_seq,
            pending_reads=pending,
            lag=max(head_seq - applied.events_seq, 0) + pending,
            last_error=self._last_error,
            set_aside=applied.set_aside_count,
            # Events and reads are projected by separate batches, so the order rows
            # were set aside in depends on timing: listed by (kind, seq), a status
            # reads the same before and after a restart or a rebuild.
            set_aside_rows=tuple(sorted(applied.set_aside, key=lambda r: (r.kind, r.seq)))[
                :SET_ASIDE_LISTED
            ],
        )

    # -- investigations ----------------------------------------------------------------

    async def _answer(
        self, kind: InvestigationKind, subject: str, query: Callable[[], Any]
    ) -> _Asked:
        """Run a template on a reader thread after a bounded catch-up, with the
        Investigation fields saying how fresh the evidence is."""
        await self.sync(within=2.0)
        # Marks before the query: the answer reflects at least this much.
        applied, (head_seq, head_read) = self._applied, self._heads
        try:
            rows = await self._on_reader(query)
        except GraphUnavailable:
            raise
        except Exception as exc:
            raise GraphUnavailable(f"{kind} failed: {exc.__class__.__name__}") from None
        lag = max(head_seq - applied.events_seq, 0) + max(head_read - applied.reads_seq, 0)
        base = {"kind": kind, "subject": subject, "projected_seq": applied.events_seq, "lag": lag}
        return _Asked(rows, base, applied, (head_seq, head_read))

    async def _gap(
        self, asked: _Asked, memories: set[str], fingerprint: str | None = None
    ) -> GraphGap | None:
        """What the graph has not projected that concerns `memories` (or the
        value `fingerprint`): events and reads past the marks, and set-aside
        rows. None when nothing missing concerns them."""
        applied, (head_seq, head_read) = asked.applied, asked.heads
        events_behind = max(head_seq - applied.events_seq, 0)
        reads_behind = max(head_read - applied.reads_seq, 0)
        unchecked = applied.set_aside_count > len(applied.set_aside)
        tail: list[SetAsideRow] = []
        if events_behind:
            records = await self.store.records(after_seq=applied.events_seq, limit=TAIL)
            tail.extend(aside_event(r, _NOT_PROJECTED, None) for r in records)
            unchecked = unchecked or events_behind > len(records)
        if reads_behind:
            reads = await self.store.reads_after(applied.reads_seq, TAIL)
            tail.extend(aside_read(pos, r, _NOT_PROJECTED, None) for pos, r in reads)
            unchecked = unchecked or reads_behind > len(reads)
        missing = [*applied.set_aside, *tail]
        if not missing and not unchecked:
            return None
        sessions: set[str] = set()
        if asked.base["kind"] == "blast_radius" and any(r.kind == "event" for r in missing):
            # A write by a session that read the subject (or what it tainted)
            # would extend the walk: those sessions (the graph's reads, and the
            # missing ones).
            params = {"ids": sorted(memories), "limit": SESSIONS_LIMIT}
            rows = await self._on_reader(self.backend.run, "readers_many", params)
            sessions.update(str(row[0]) for row in rows if row[0] is not None)
            sessions.update(
                r.session_id
                for r in missing
                if r.kind == "read" and r.session_id and _about(r, memories)
            )
            unchecked = unchecked or len(rows) >= SESSIONS_LIMIT

        def concerns(row: SetAsideRow) -> bool:
            return (
                _about(row, memories)
                or (fingerprint is not None and fingerprint in row.fingerprints)
                or (
                    row.kind == "event"
                    and row.session_id is not None
                    and row.session_id in sessions
                )
            )

        aside = [r for r in applied.set_aside if concerns(r)]
        behind = [r for r in tail if concerns(r)]
        gap = GraphGap(
            events_behind=events_behind,
            reads_behind=reads_behind,
            unprojected=tuple(r.seq for r in behind if r.kind == "event")[:GAP_LISTED],
            unprojected_reads=sum(1 for r in behind if r.kind == "read"),
            set_aside=tuple(r.seq for r in aside if r.kind == "event")[:GAP_LISTED],
            set_aside_reads=tuple(r.seq for r in aside if r.kind == "read")[:GAP_LISTED],
            unchecked=unchecked,
        )
        return None if gap.empty else gap

    async def gap(self, memory_ids: Sequence[str]) -> GraphGap | None:
        """The port's `gap`: as a blast radius over `memory_ids` would see it
        (reads of them, writes by sessions that read them, their own events)."""
        asked = _Asked(None, {"kind": "blast_radius"}, self._applied, await self.store.log_heads())
        return await self._gap(asked, set(memory_ids))

    @staticmethod
    def _behind(gap: GraphGap, **fields: Any) -> Investigation:
        """The answer as far as the graph has it, marked incomplete."""
        parts = []
        if gap.unprojected or gap.unprojected_reads:
            parts.append(
                f"{len(gap.unprojected)} event(s) and {gap.unprojected_reads} read(s) concerning "
                "it not projected yet"
            )
        if gap.set_aside or gap.set_aside_reads:
            seqs = ", ".join(str(s) for s in gap.set_aside) or "none"
            parts.append(
                f"set aside (the graph could not take them): events {seqs}; "
                f"{len(gap.set_aside_reads)} read(s)"
            )
        if gap.unchecked:
            parts.append(
                f"{gap.events_behind} event(s) and {gap.reads_behind} read(s) behind, "
                "too many to tell which concern it"
            )
        return Investigation(
            status=Status.GRAPH_BEHIND,
            message=f"{_INCOMPLETE}: {'; '.join(parts)}",
            gap=gap,
            **fields,
        )

    async def readers(
        self, memory_id: str, since: datetime | None = None, until: datetime | None = None
    ) -> Investigation:
        params = {
            "id": memory_id,
            "since": micros(since) if since else None,
            "until": micros(until) if until else None,
            "limit": ROW_LIMIT + 1,
        }
        asked = await self._answer(
            "readers", memory_id, lambda: self.backend.run("readers", params)
        )
        base = asked.base
        known, found = investigate.reader_rows(asked.rows)
        gap = await self._gap(asked, {memory_id})
        if gap is not None:
            return self._behind(
                gap, readers=tuple(found[:ROW_LIMIT]), truncated=len(found) > ROW_LIMIT, **base
            )
        if not known:
            return Investigation(status=Status.UNKNOWN_MEMORY, message="not in the graph", **base)
        if not found:
            return Investigation(status=Status.NO_READERS, **base)
        return Investigation(
            status=Status.OK,
            readers=tuple(found[:ROW_LIMIT]),
            truncated=len(found) > ROW_LIMIT,
            **base,
        )

    def _walk(self, memory_ids: Sequence[str], depth: int, limit: int) -> investigate.Walk:
        """The bounded blast radius walk, on a reader thread: one template query
        per level, the last one also describing the memories kept (see
        `investigate.walk`)."""

        def step(ids: list[str], most: int) -> Any:
            params = {"ids": ids, "limit": most, **investigate.PACKED}
            return self.backend.run("blast_radius", params)

        def known(ids: list[str]) -> set[str]:
            return {str(row[0]) for row in self.backend.run("known", {"ids": ids})}

        def describe(ids: list[str]) -> Any:
            return self.backend.run("blast_memories", {"ids": ids, **investigate.PACKED})

        def last(ids: list[str], most: int, described: list[str]) -> Any:
            params = {"ids": ids, "limit": most, "described": described, **investigate.PACKED}
            return self.backend.run("blast_last", params)

        with investigate.collector_paused():
            return investigate.walk(step, known, describe, memory_ids, depth, limit, last=last)

    async def blast_radius(self, memory_id: str, depth: int) -> Investigation:
        check_depth(depth)
        asked = await self._answer(
            "blast_radius", memory_id, lambda: self._walk([memory_id], depth, ROW_LIMIT)
        )
        base = asked.base
        found: investigate.Walk = asked.rows
        known, impact = found.known, found.impact
        truncated = found.truncated or len(impact) > ROW_LIMIT
        gap = await self._gap(asked, {memory_id, *(r.memory_id for r in impact)})
        if gap is not None:
            return self._behind(gap, impact=tuple(impact[:ROW_LIMIT]), truncated=truncated, **base)
        if not known:
            return Investigation(status=Status.UNKNOWN_MEMORY, message="not in the graph", **base)
        if not impact:
            return Investigation(status=Status.NO_PATH, **base)
        return Investigation(
            status=Status.OK, impact=tuple(impact[:ROW_LIMIT]), truncated=truncated, **base
        )

    async def provenance(self, memory_id: str) -> Investigation:
        params = {"id": memory_id, "limit": ROW_LIMIT}
        asked = await self._answer(
            "provenance", memory_id, lambda: self.backend.run("provenance", params)
        )
        base = asked.base
        found = investigate.provenance_rows(asked.rows)
        gap = await self._gap(asked, {memory_id, *(r.memory_id for r in found)})
        if gap is not None:
            return self._behind(gap, provenance=tuple(found), **base)
        if not found:
            return Investigation(status=Status.UNKNOWN_MEMORY, message="not in the graph", **base)
        return Investigation(status=Status.OK, provenance=tuple(found), **base)

    async def exposure(self, fingerprint: str) -> Investigation:
        if not _FINGERPRINT.match(fingerprint):
            raise ValueError("a fingerprint is 8-64 lowercase hex characters")
        params = {"fp": fingerprint, "limit": ROW_LIMIT}
        asked = await self._answer(
            "exposure", fingerprint, lambda: self.backend.run("exposure", params)
        )
        base = asked.base
        found = investigate.exposure_rows(asked.rows)
        truncated = len(asked.rows) >= 2 * ROW_LIMIT
        gap = await self._gap(asked, {r.memory_id for r in found}, fingerprint)
        if gap is not None:
            return self._behind(gap, exposure=tuple(found), truncated=truncated, **base)
        if not found:
            return Investigation(
                status=Status.UNKNOWN_MEMORY, message="no memory carries this value", **base
            )
        return Investigation(status=Status.OK, exposure=tuple(found), truncated=truncated, **base)

    async def readers_of(
        self, memory_ids: Sequence[str], limit: int = ROW_LIMIT
    ) -> tuple[ReaderRow, ...]:
        params = {"ids": list(memory_ids), "limit": limit}
        asked = await self._answer("readers", "*", lambda: self.backend.run("readers_many", params))
        return tuple(investigate.reader_rows(asked.rows)[1])

    async def impact_of(
        self, memory_ids: Sequence[str], depth: int, limit: int = ROW_LIMIT
    ) -> tuple[ImpactRow, ...]:
        check_depth(depth)
        asked = await self._answer(
            "blast_radius", "*", lambda: self._walk(list(memory_ids), depth, limit)
        )
        return tuple(asked.rows.impact[:limit])


def _about(row: SetAsideRow, memories: set[str]) -> bool:
    return not memories.isdisjoint(row.memory_ids)
