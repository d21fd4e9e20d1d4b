"""The recall projection: a background task that embeds approved long-term
memories into a vector index, and answers nearest-neighbour queries (the
`memgate.domain.recall.Recall` port).

The log is the source and the queue, as for the provenance graph: the task
pulls `Store.records(after_seq)` from the index's mark, so a write never waits
for an embedding and nothing is lost while the embedder is busy or the process
is down. Each event's item decides: an approved long-term item is (re)embedded,
any other state (pending, rejected, deleted, demoted, rolled back) removes the
memory from the index. The mark carries the MAC of the event it stands at and
the embedder's name: an index built from another log, or by another model, is
dropped and rebuilt from the start of the log.

The projection starts lazily, on the first vector or hybrid search (or
`start()`), so a deployment that never asks for semantic recall never spends
CPU on embeddings. A search waits a bounded time (`sync`) for the index to
reach the log's head, so a memory approved a moment ago is found.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from memgate.domain.events import LogRecord
from memgate.domain.memory import MemoryItem, MemoryState, PoolName
from memgate.domain.ports import Store
from memgate.domain.recall import (
    Embedder,
    IndexedVector,
    IndexMark,
    RecallStatus,
    VectorHit,
    VectorIndex,
)
from memgate.errors import RecallUnavailable

log = logging.getLogger(__name__)
BATCH = 32
"""Memories embedded per call of the embedder (and per index transaction)."""
PAGE = 500
"""Log records pulled per read."""
POLL_SECONDS = 0.1
TextOf = Callable[[MemoryItem], str | None]
"""What of an item is embedded; None or empty: the item stays out of the index."""


def content_text(item: MemoryItem) -> str:
    """What is embedded by default: the (redacted) content."""
    return item.content


def fields_text(fields: Sequence[str]) -> TextOf:
    """Embed only these fields of a JSON object's content (dotted paths; `$` is the
    whole content), as LangGraph's `index={"fields": [...]}` asks. Content that
    is not a JSON object is embedded whole."""
    paths = [tuple(f.split(".")) for f in fields]

    def text_of(item: MemoryItem) -> str:
        if any(p == ("$",) for p in paths):
            return item.content
        try:
            value = json.loads(item.content)
        except ValueError:
            return item.content
        if not isinstance(value, dict):
            return item.content
        parts = [_text(_at(value, p)) for p in paths]
        return "\n".join(p for p in parts if p)

    return text_of


def _at(value: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def indexed(item: MemoryItem) -> bool:
    """Whether a memory in this state belongs in the index: approved, long-term."""
    return item.pool is PoolName.LONG and item.state is MemoryState.APPROVED


class RecallProjection:
    """Implements `memgate.domain.recall.Recall` over an Embedder and a VectorIndex.
    With `embedder=None` it answers every query with RecallUnavailable(`reason`)."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder | None,
        index: VectorIndex,
        *,
        text_of: TextOf = content_text,
        reason: str | None = None,
        batch: int = BATCH,
        poll_seconds: float = POLL_SECONDS,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.index = index
        self.text_of = text_of
        self._reason = reason or ("no embedder configured" if embedder is None else None)
        self._batch = batch
        self._poll = poll_seconds
        self._work = ThreadPoolExecutor(1, thread_name_prefix="memgate-recall-embed")
        self._queries = ThreadPoolExecutor(1, thread_name_prefix="memgate-recall-query")
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._progress = asyncio.Condition()
        self._error: str | None = None
        self._closed = False
        self._rebuilding = asyncio.Lock()

    @property
    def applied_seq(self) -> int:
        return self.index.mark().seq

    # -- lifecycle -------------------------------------------------------------------

    async def start(self) -> None:
        if self._task is None and self.embedder is not None and not self._closed:
            self._task = asyncio.get_running_loop().create_task(self._supervise(self.embedder))

    async def close(self) -> None:
        self._closed = True
        started = self._task is not None
        await self._stop()
        if started:  # after the worker's last batch, on its thread
            await asyncio.get_running_loop().run_in_executor(self._work, self.index.close)
        else:  # never started: no worker thread to wait for (most gateways)
            self.index.close()
        self._work.shutdown(wait=False)
        self._queries.shutdown(wait=False)

    async def _stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def notify(self) -> None:
        """A hint that the log has new events (polling covers a miss)."""
        self._wake.set()

    async def _on_work[R](self, fn: Callable[..., R], *args: Any) -> R:
        return await asyncio.get_running_loop().run_in_executor(self._work, fn, *args)

    # -- projecting ------------------------------------------------------------------

    async def _supervise(self, embedder: Embedder) -> None:
        backoff = 0.1
        while not self._closed:
            try:
                await self._prepare(embedder)
                await self._run(embedder)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # an embedder or store error: report, retry
                log.warning("recall projection failed: %s", exc.__class__.__name__)
                self._error = _described(exc)
                async with self._progress:
                    self._progress.notify_all()
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 5.0)

    async def _prepare(self, embedder: Embedder) -> None:
        """Keep the index only if it was built from this log by this embedder."""
        mark = self.index.mark()
        same = mark.embedder == embedder.name
        if same and mark.seq:
            found = await self.store.records(after_seq=mark.seq - 1, limit=1)
            same = bool(found) and found[0].seq == mark.seq and found[0].mac == mark.mac
        if not same and (mark.seq or self.index.count()):
            log.warning("recall index does not match the log or embedder; rebuilding")
            await self._on_work(self.index.clear)

    async def _run(self, embedder: Embedder) -> None:
        while not self._closed:
            records = await self.store.records(after_seq=self.index.mark().seq, limit=PAGE)
            if not records:
                self._error = None
                async with self._progress:
                    self._progress.notify_all()
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self._poll)
                continue
            for start in range(0, len(records), self._batch):
                await self._on_work(self._project, embedder, records[start : start + self._batch])
                self._error = None
                async with self._progress:
                    self._progress.notify_all()

    def _project(self, embedder: Embedder, records: Sequence[LogRecord]) -> None:
        """One batch of records into the index (in the worker thread)."""
        latest: dict[str, MemoryItem | None] = {}
        for record in records:
            item = record.event.item
            if item is None:
                continue
            latest[item.id] = item if indexed(item) else None
        keep: list[MemoryItem] = []
        texts: list[str] = []
        removals: list[str] = []
        for memory_id, item in latest.items():
            text = self.text_of(item) if item is not None else None
            if item is None or not text:
                removals.append(memory_id)
            else:
                keep.append(item)
                texts.append(text)
        vectors = embedder.embed_documents(texts) if keep else []
        if len(vectors) != len(keep):
            raise ValueError(f"the embedder returned {len(vectors)} vectors for {len(keep)} texts")
        upserts = [
            IndexedVector(memory_id=i.id, namespace=i.namespace, vector=tuple(v))
            for i, v in zip(keep, vectors, strict=True)
        ]
        last = records[-1]
        self.index.apply(
            upserts, removals, IndexMark(seq=last.seq, mac=last.mac, embedder=embedder.name)
        )

    # -- the port --------------------------------------------------------------------

    def _caught_up(self, head: int) -> bool:
        """The index reflects the log up to `head`, embedded by this embedder."""
        mark = self.index.mark()
        mine = self.embedder is not None and mark.embedder == self.embedder.name
        return head == 0 or (mine and mark.seq >= head)

    async def sync(self, within: float = 2.0) -> bool:
        if self.embedder is None:
            return False
        head, _ = await self.store.log_heads()
        await self.start()
        if self._caught_up(head):
            return True
        self.notify()
        try:
            async with asyncio.timeout(within):
                async with self._progress:
                    await self._progress.wait_for(
                        lambda: self._caught_up(head) or self._error is not None
                    )
        except TimeoutError:
            return False
        return self._caught_up(head)

    async def nearest(
        self, query: str, k: int, namespace_prefix: tuple[str, ...] = ()
    ) -> list[VectorHit]:
        embedder = self.embedder
        if embedder is None:
            raise RecallUnavailable(self._reason or "semantic recall is off")
        if self._error is not None and self.index.count() == 0:
            raise RecallUnavailable(f"semantic recall failed: {self._error}")
        loop = asyncio.get_running_loop()
        try:
            vector = await loop.run_in_executor(self._queries, embedder.embed_query, query)
        except RecallUnavailable:
            raise
        except Exception as exc:
            raise RecallUnavailable(f"the embedder failed: {_described(exc)}") from None
        if self.index.mark().embedder not in ("", embedder.name):
            return []  # vectors of another model, about to be dropped and rebuilt
        return await loop.run_in_executor(
            self._queries, self.index.nearest, vector, k, namespace_prefix
        )

    async def status(self) -> RecallStatus:
        embedder = self.embedder
        return RecallStatus(
            available=embedder is not None and self._error is None,
            reason=self._reason if embedder is None else self._error,
            embedder=embedder.name if embedder else None,
            dims=embedder.dims if embedder else None,
            index=str(getattr(self.index, "backend", type(self.index).__name__)),
            indexed=self.index.count(),
            applied_seq=self.applied_seq,
            running=self._task is not None,
        )

    async def rebuild(self) -> int:
        """Drop the index and project the whole log again; returns the memories
        indexed once it caught up (or as far as it got in a minute)."""
        async with self._rebuilding:
            await self._stop()
            await self._on_work(self.index.clear)
            await self.start()
            await self.sync(within=60.0)
            return self.index.count()


def _described(exc: BaseException) -> str:
    """An error for a status line: its class and message, cut short (embedders
    see redacted content only, but a message is no place for content anyway)."""
    text = str(exc)
    return f"{exc.__class__.__name__}: {text[:200]}" if text else exc.__class__.__name__
