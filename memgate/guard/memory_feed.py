"""Memory writes and reads as flow sources: a value written into a memory in one
session, or read from it in another, and sent out by a tool call anywhere later
is the same path as a value a tool result showed.

The feed tails the store's log and its recorded reads (the ports every backend
has, so it works the same on SQLite, PostgreSQL and the in-memory twin, and for
writes and reads made through any entry point: HTTP, the Python API, the
adapters). Memories are stored with their sensitive values redacted, but each
finding carries the scanner's keyed fingerprint of the value, computed at write
time before redaction: that fingerprint is what a later call's words are looked
up by (the literal form; a base64 or hex form of the value in an argument is
decoded and found by the parameter scanner, whose finding carries the same
fingerprint). Nothing else of the memory is kept.

    feed = MemoryFeed(gateway.store, guard.values)
    await feed.catch_up()          # what was written and read since the last call
    task = asyncio.create_task(feed.run(every=1.0))
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

import anyio.to_thread

from memgate.domain import Category
from memgate.domain.events import LogRecord, Op
from memgate.domain.ports import ReadRecord, Store
from memgate.guard.values import Sighting, ValueStore

log = logging.getLogger("memgate.guard")

WRITE_TOOL = "memory.write"
READ_TOOL = "memory.read"
EVENT_PAGE = 1000
READ_PAGE = 1000


class MemoryFeed:
    """Projects the sensitive values of memories, and who wrote and read them, into
    the guard's value store. Its cursors live beside the values, so a restart goes
    on where it stopped (rows are idempotent: a page read twice adds nothing)."""

    def __init__(self, store: Store, values: ValueStore, *, track_pii: bool = True) -> None:
        self.store = store
        self.values = values
        self.tracked = {Category.SECRET, Category.PII} if track_pii else {Category.SECRET}

    async def catch_up(self, max_pages: int = 1_000_000) -> int:
        """Read everything appended since the last call; the sightings added."""
        added = 0
        for _ in range(max_pages):
            events = self.values.cursor("events")
            reads = self.values.cursor("reads")
            records = await self.store.records(after_seq=events, limit=EVENT_PAGE)
            rows = list(self._written(records))
            if records:
                events = records[-1].seq
            read_page: list[tuple[int, ReadRecord]] = []
            if len(records) < EVENT_PAGE:  # reads after the writes they read
                read_page = await self.store.reads_after(reads, limit=READ_PAGE)
                if read_page:
                    reads = read_page[-1][0]
                    rows.extend(await anyio.to_thread.run_sync(self._read, read_page, rows))
            if not records and not read_page:
                return added
            await anyio.to_thread.run_sync(
                self.values.add_fed, rows, {"events": events, "reads": reads}
            )
            added += len(rows)
        return added

    async def run(self, every: float = 1.0) -> None:
        """catch_up forever, every `every` seconds (a failure is logged and retried)."""
        while True:
            try:
                await self.catch_up(max_pages=50)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("guard memory feed failed: %s", type(exc).__name__)
            await asyncio.sleep(every)

    def _written(self, records: Iterable[LogRecord]) -> Iterable[Sighting]:
        for record in records:
            event = record.event
            item = event.item
            if item is None or event.op is Op.GUARD_DECIDED:
                continue
            seen: set[str] = set()
            for finding in item.findings:
                fp = finding.fingerprint
                if fp is None or fp in seen or finding.category not in self.tracked:
                    continue
                seen.add(fp)
                yield Sighting(
                    fp=fp, value_fp=fp, form="literal", rule_id=finding.rule_id,
                    call_id=f"memory:{item.id}", session_id=item.session_id,
                    agent_id=item.agent_id, tool=WRITE_TOOL, at=event.at.timestamp(),
                    memory_id=item.id,
                )  # fmt: skip

    def _read(self, page: list[tuple[int, ReadRecord]], written: list[Sighting]) -> list[Sighting]:
        """Sightings of the values each read memory holds (those stored, and those
        of `written`: this page's writes, not stored yet)."""
        held = self.values.memory_values([read.memory_id for _, read in page])
        for row in written:
            if row.memory_id is not None and (row.value_fp, row.rule_id) not in held.get(
                row.memory_id, ()
            ):
                held.setdefault(row.memory_id, []).append((row.value_fp, row.rule_id))
        rows: list[Sighting] = []
        for _, read in page:
            for fp, rule_id in held.get(read.memory_id, ()):
                who = read.call_id or f"read:{read.memory_id}:{read.session_id or read.agent_id}"
                rows.append(
                    Sighting(
                        fp=fp, value_fp=fp, form="literal", rule_id=rule_id, call_id=who,
                        session_id=read.session_id, agent_id=read.agent_id, tool=READ_TOOL,
                        at=read.at.timestamp(), memory_id=read.memory_id,
                    )
                )  # fmt: skip
        return rows
