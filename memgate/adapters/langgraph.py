"""LangGraph `BaseStore` on memgate: every put is scanned, routed and logged.

    from memgate.adapters.langgraph import MemgateStore
    store = MemgateStore.open(Path("data"))          # sync + async, own loop thread
    graph = builder.compile(store=store)

or, inside an event loop, `MemgateStore(await open_gateway(path))` (async calls only).

How LangGraph's store maps onto memgate:

- A namespace is the memgate namespace (after an optional `prefix`); '/' and '%'
  in labels are %-escaped because memgate labels cannot hold '/'.
- A value is stored as its exact JSON text in the memory's content, and comes
  back as written, with one exception: a secret or personal datum in it is
  redacted before anything is stored (memgate never keeps secrets), so the value
  read back holds `[REDACTED:<rule>]` in that string. `status()` says so
  (`redacted=True`). If redaction ever broke the JSON, or the item was written
  as text by another client, the value is `{"content": <text>}`.
- `put` without a TTL goes to the long-term pool, where routing decides: an
  approved value is served to every thread; one queued for review is served
  only to the thread (session) that wrote it -- read-your-writes -- until a
  reviewer approves it; a rejected one is never served, and the previous value of
  that key (if any) stays. None of this raises (an agent loop would crash);
  `strict=True` raises `MemoryHeld` for queued and rejected puts instead.
- What a put promises (`ack=`), in three modes (docs/adapters/langgraph.md has
  the full list):
  * `ack="scanned"` (the default): `put` returns once the value was scanned,
    routed and its event committed to the log: it survives a crash, and its
    state (approved, pending, rejected) is known.
  * `ack="queued"`: `put` returns once the value is checked as far as needs no
    scan (JSON, identifiers, size) and parked in this process's memory; a
    background task scans, routes and commits the parked puts in order. Until
    then the parked value is served to the session that wrote it (`get` only,
    as written -- a secret in it not yet redacted) and to nobody else: another
    session, another store, a reader without a session id (which waits for the
    scan) and any other namespace or key get what the log holds. Search,
    listing, delete and `status` first wait for the queue. Nothing parked is
    written to disk before its scan, so a secret never persists unredacted; the
    price is that a crash (or a kill) loses the parked puts, at most
    `queue_size` of them, acknowledged but never stored.
  * `ack="journaled"`: `put` returns once the value is a row of the pending
    journal (`journal=`, a SQLite file; `open()` keeps it in the data
    directory as `langgraph-journal.sqlite`), durable against a process crash
    as memgate's own log is (WAL, synchronous=NORMAL). Before the append the
    sensitive rules (secrets, personal data: what the gateway would redact)
    read the value, key, namespace and metadata; if they find anything the put
    takes the scanned path instead (after the key's pending puts), so nothing
    unredacted ever reaches the journal. A pending put is admitted through the
    normal gateway write (scan, route, log) when the store has been quiet for
    `scan_after` seconds, when `queue_size` are pending, or on demand: before
    another session's `get` of that key, and before any search, listing,
    delete or `status`. Only the writing session is served its pending value
    (`get`, as written: the sensitive rules found nothing to redact in it);
    every other reader gets what the gateway serves after that scan. A value
    the scan rejects is served to nobody from then on (its writer too gets
    the key's previous value) and `status` reports it rejected. Rows left by a crash are
    loaded when the store is built and admitted in put order; a put whose
    gateway commit landed just before the crash, and whose row was not yet
    deleted, is admitted a second time (the same value, one version more).
  `flush()` / `aflush()` wait until every queued or journaled put is in the
  log and raise `QueuedPutsFailed` for those the gateway refused (e.g. a secret
  in the key); `close()` flushes. `strict=True` needs the verdict at put time
  and is refused with either. Throughput is the gateway's in every mode: these
  buy put latency for bursts, not more puts/s.
- `batch` / `abatch` with consecutive `PutOp`s of distinct keys writes them
  concurrently (scans overlapping commits); each is still its own log entry.
- `put(..., ttl=minutes)` (or `TTLConfig.default_ttl`) goes to the short-term
  pool, which expires it; expired items are never returned. A refreshing read of
  a TTL item re-writes it (a new version, same id and `created_at`), so its
  clock restarts -- that is memgate's log recording the refresh.
- `PutOp(value=None)` (`delete`) tombstones every live version of the key.
- Provenance: inside a graph run, the thread id is the reader/writer session, and
  `"<node>:<step>"` is the call, read from `langgraph.config.get_config()`.
- `search(query=...)` is memgate's full-text search (every word must occur)
  unless the store has an `index` (LangGraph's `IndexConfig`: `embed`, `dims`,
  `fields`), which makes it a semantic search over the approved values, each
  `SearchItem` with its cosine `score`: the values are embedded with `embed`
  (the `fields` of each value, joined; `put(..., index=False)` keeps a value
  out, `index=[...]` picks its fields) off the put's path, by memgate's recall
  projection, from the log. `search_mode="vector" | "hybrid" | "text"` picks the
  mode (with an index the default is vector); without an index, vector and
  hybrid use the gateway's own embedder (the local model of the `recall`
  extra). `filter` follows `InMemoryStore` ($eq, $ne, $gt, $gte,
  $lt, $lte, nested dicts, list equality). With a filter, the candidates the
  filter looks at are recorded as read (a conservative over-count).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
)
from langgraph.store.base.embed import ensure_embeddings, get_text_at_path, tokenize_path

from memgate.adapters._backend import (
    PAGE,
    Backend,
    LoopRunner,
    LoopThread,
    MemoryHeld,
    MemoryStatus,
    RemoteBackend,
    canonical_json,
    find_key,
    parse_object,
    running_loop,
    scan_namespace,
)
from memgate.adapters._journal import Journal
from memgate.domain.memory import (
    MemoryItem,
    MemoryState,
    MemoryWrite,
    PoolName,
    Reader,
    Target,
)
from memgate.domain.recall import SearchMode
from memgate.domain.types import Source
from memgate.errors import (
    IllegalTransition,
    MemgateError,
    NotFound,
    OversizedWrite,
    StorageError,
)
from memgate.gateway import Gateway, SyncGateway
from memgate.gateway.core import WriteReceipt
from memgate.recall import FunctionEmbedder, memory_recall
from memgate.scanning.registry import BUILTIN_ANALYZERS
from memgate.scanning.rules import RuleSet, load_rules
from memgate.scanning.scanner import Scanner

__all__ = ["MemgateStore", "MemoryHeld", "MemoryStatus", "QueuedPutsFailed"]

TTL_KEY = "langgraph_ttl_minutes"
INDEX_KEY = "langgraph_index"
"""A put's `index` argument (False, or its fields) when it is not the store's default."""
UPDATED_KEY = "langgraph_updated_at"
_RECEIPTS = 4096
_CLEAN = 4096
_WAVE = 64
"""Puts written concurrently at most (a batch's, or the queue's): their scans overlap
the previous ones' commits; the gateway still serializes each key's read-modify-append."""
Ack = Literal["scanned", "queued", "journaled"]
JOURNAL_FILE = "langgraph-journal.sqlite"
"""`MemgateStore.open(dir, ack="journaled")`: the pending journal's file in `dir`."""


def encode_label(label: str) -> str:
    return label.replace("%", "%25").replace("/", "%2F")


def decode_label(label: str) -> str:
    return label.replace("%2F", "/").replace("%25", "%")


class _Who:
    """Provenance of one batch, read in the caller's context before any loop hop."""

    __slots__ = ("agent", "call", "session")

    def __init__(self, session: str | None, call: str | None, agent: str | None) -> None:
        self.session = session
        self.call = call
        self.agent = agent

    @property
    def reader(self) -> Reader:
        return Reader(session_id=self.session, call_id=self.call, agent_id=self.agent)


class QueuedPutsFailed(MemgateError):
    """`ack="queued"`: puts the gateway refused after they were acknowledged (a
    secret in the key, an invalid identifier, the store failing). Raised by
    `flush()` / `aflush()` / `close()`; nothing of these puts was stored."""

    def __init__(self, failures: list[tuple[tuple[str, ...], str, Exception]]) -> None:
        # NOTE: counts and error types only: a refused key may itself hold a secret.
        kinds = ", ".join(sorted({type(e).__name__ for _, _, e in failures}))
        super().__init__(f"{len(failures)} queued put(s) not stored ({kinds}); see .failures")
        self.failures = failures
        """(namespace, key, error) of each, in the order they were put."""


class _Parked:
    """A put acknowledged before its scan, served to nobody but the session that
    wrote it. `ack="queued"`: held in this process's memory only (never persisted
    before the scan redacts it). `ack="journaled"`: also a row of the pending
    journal (`seq`), written only when the sensitive rules found nothing in it."""

    __slots__ = (
        "at",
        "claimed",
        "done",
        "key",
        "namespace",
        "prev",
        "readers",
        "roomed",
        "seq",
        "write",
    )

    def __init__(
        self,
        namespace: tuple[str, ...],
        key: str,
        write: MemoryWrite,
        *,
        at: datetime | None = None,
        seq: int | None = None,
    ) -> None:
        self.namespace = namespace
        self.key = key
        self.write = write
        self.at = at or datetime.now(UTC)
        self.seq = seq
        self.done = asyncio.Event()
        self.readers: list[Reader] = []
        """Who was served the parked value: their reads are recorded once it is admitted."""
        self.prev: _Parked | None = None
        """The key's previous parked put: admitted first (a key's puts stay in order)."""
        self.claimed = False
        """Taken by the drainer or by a read that scans it on demand (admitted once)."""
        self.roomed = True
        """Holds one unit of `queue_size` (False for puts recovered from the journal)."""


class MemgateStore(BaseStore):
    """A LangGraph store whose writes pass memgate's scan, routing and review."""

    supports_ttl: bool = True

    def __init__(
        self,
        backend: Backend,
        *,
        prefix: tuple[str, ...] = (),
        source: Source = Source.AGENT,
        session_id: str | None = None,
        agent_id: str | None = None,
        strict: bool = False,
        ttl: TTLConfig | None = None,
        loop: asyncio.AbstractEventLoop | None = None,
        index: IndexConfig | None = None,
        search_mode: str | None = None,
        ack: Ack = "scanned",
        queue_size: int = 1024,
        journal: Path | None = None,
        scan_after: float = 0.05,
    ) -> None:
        """`backend`: an async Gateway (or remote client) living on `loop` (None: the
        caller's loop). `session_id` is the session outside a graph run (so
        read-your-writes works there too); `source` weighs how the scan reads
        the values (agent-written by default). `index`: LangGraph's semantic
        search config (`embed`, `dims`, `fields`): in-process, it becomes the
        gateway's recall embedder (an in-memory index, rebuilt from the log at
        start); a remote server embeds with its own model, so an `embed` is
        refused there. `search_mode`: text, vector or hybrid (default: vector
        with an index, text without). `ack`: when a put returns -- "scanned" (the
        default) after the scan, the routing and the durable log append;
        "queued" as soon as the value is parked in this process's memory, to be
        scanned and appended in the background (at most `queue_size` parked; a
        put waits for room beyond that); "journaled" once the value is appended
        to the pending journal at `journal` (a SQLite file; `open()` puts it in
        the data directory), to be scanned and admitted when the store has been
        idle for `scan_after` seconds, when the queue is full, or before a read
        that could see it; pending puts left in the journal by a crash are
        admitted after the next start. See the module docstring for what each
        ack promises and what a crash loses."""
        if ack not in ("scanned", "queued", "journaled"):
            raise ValueError(f"ack: 'scanned', 'queued' or 'journaled', not {ack!r}")
        if ack != "scanned" and strict:
            raise ValueError("strict=True needs the verdict at put time: use ack='scanned'")
        if queue_size < 1:
            raise ValueError("queue_size: at least 1")
        if (ack == "journaled") != (journal is not None):
            raise ValueError("ack='journaled' needs journal=<path> (and journal= needs it)")
        if scan_after < 0:
            raise ValueError("scan_after: seconds, at least 0")
        self.ack: Ack = ack
        self.queue_size = queue_size
        self.scan_after = scan_after
        self._last_op = float("-inf")
        """time.monotonic() of the latest operation: the journaled drain waits for quiet."""
        self._hurry = 0
        """Callers waiting for the drain (flush, search, status...): no quiet wait then."""
        self._wake: asyncio.Event | None = None
        self._journal = Journal(journal) if journal is not None else None
        self._sensitive: Scanner | None = None
        self._clean: dict[tuple[str, Source], None] = {}
        """Keys and namespaces the sensitive rules found nothing in (oldest first)."""
        self._parked: dict[tuple[tuple[str, ...], str], _Parked] = {}
        """The latest queued put of each key, until it is admitted."""
        self._queue: deque[_Parked] = deque()
        self._room: asyncio.Semaphore | None = None
        self._drainer: asyncio.Task[None] | None = None
        self._failures: list[tuple[tuple[str, ...], str, Exception]] = []
        self.backend = backend
        self.prefix = tuple(prefix)
        self.source = source
        self.session_id = session_id
        self.agent_id = agent_id
        self.strict = strict
        self.ttl_config = ttl
        self._runner = LoopRunner(loop)
        # This store's latest put of each key (its receipt), or, after a delete,
        # the tombstone's status: what `status()` reports when nothing is live.
        self._receipts: dict[tuple[tuple[str, ...], str], WriteReceipt | MemoryStatus] = {}
        self._sync: SyncGateway | None = None
        self._closer: Callable[[], None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self.index_config = index
        self._closing: asyncio.Task[None] | None = None
        self.search_mode = SearchMode(search_mode or ("vector" if index else "text"))
        self._fields: list[str] = list((index or {}).get("fields") or ["$"])
        if index and index.get("embed") is not None:
            self._use_index(index)
        if self._journal is not None:
            self._recover(self._journal)

    def _recover(self, journal: Journal) -> None:
        """Park what a previous process acknowledged and did not admit (a crash,
        a kill): it is served and admitted as if it had just been put."""
        for row in journal.rows():
            if row.write.key is None:
                continue  # never journaled: every store put has a key
            parked = _Parked(row.write.namespace, row.write.key, row.write, at=row.at, seq=row.seq)
            parked.roomed = False
            parked.prev = self._parked.get((parked.namespace, parked.key))
            self._parked[(parked.namespace, parked.key)] = parked
            self._queue.append(parked)
        if self._queue:
            loop = self._runner.loop
            if loop is not None:
                loop.call_soon_threadsafe(self._kick)
            else:
                with contextlib.suppress(RuntimeError):
                    asyncio.get_running_loop().call_soon(self._kick)
            # Otherwise the first operation on a loop starts the drain.

    def _use_index(self, index: IndexConfig) -> None:
        """Make the index's embedder the gateway's recall (in-process only)."""
        if not isinstance(self.backend, Gateway):
            raise ValueError(
                "index.embed works with an in-process gateway; a remote memgate embeds"
                " with the server's model: pass search_mode='vector' without an embed"
            )
        dims = index.get("dims")
        if not isinstance(dims, int):
            raise ValueError("index.dims: the embedding's number of dimensions (an integer)")
        embedder = FunctionEmbedder(ensure_embeddings(index["embed"]), dims)
        gateway = self.backend
        previous = gateway.recall
        gateway.recall = memory_recall(gateway.store, embedder, text_of=self._index_text)
        if previous is not None:  # the gateway's own recall, replaced: stop it
            loop = self._runner.loop
            if loop is not None:
                asyncio.run_coroutine_threadsafe(previous.close(), loop)
            else:
                with contextlib.suppress(RuntimeError):
                    self._closing = asyncio.get_running_loop().create_task(previous.close())

    def _index_text(self, item: MemoryItem) -> str | None:
        """What of a stored value is embedded: the put's `index` fields, or the
        store's (`$`: the whole value); None for `index=False` or no text."""
        chosen = item.metadata.get(INDEX_KEY)
        if chosen is False:
            return None
        fields = chosen if isinstance(chosen, list) else self._fields
        value = self._value(item)
        texts = [t for f in fields for t in get_text_at_path(value, tokenize_path(f))]
        return "\n".join(texts) or None

    # -- construction ---------------------------------------------------------------

    @classmethod
    def from_sync(cls, gateway: SyncGateway, **kwargs: Any) -> MemgateStore:
        """Use a SyncGateway (its own loop thread): sync and async calls both work."""
        store = cls(gateway.gateway, loop=gateway.run(running_loop()), **kwargs)
        store._sync = gateway
        return store

    @classmethod
    def open(cls, data_dir: Path, *, graph: str | None = "embedded", **kwargs: Any) -> MemgateStore:
        """Open a data directory in-process, with its provenance graph (`graph`:
        embedded FalkorDB by default, a FalkorDB URL, or None); `close()` when done."""
        from memgate.bootstrap import open_sync_gateway

        if kwargs.get("ack") == "journaled" and kwargs.get("journal") is None:
            kwargs["journal"] = Path(data_dir) / JOURNAL_FILE
        return cls.from_sync(open_sync_gateway(Path(data_dir), graph=graph), **kwargs)

    @classmethod
    def connect(cls, url: str, key: str | None = None, **kwargs: Any) -> MemgateStore:
        """A remote memgate server, usable from sync and async code (the HTTP
        client lives on its own loop thread); `close()` when done."""
        thread = LoopThread()
        backend = RemoteBackend.connect(url, key)
        store = cls(backend, loop=thread.loop, **kwargs)

        def close() -> None:
            thread.run(backend.close())
            thread.stop()

        store._closer = close
        return store

    def close(self) -> None:
        """Close what this store opened (`open`, `from_sync`, `connect`), after the
        queued puts are admitted; raises QueuedPutsFailed (once closed) for any
        the gateway refused."""
        try:
            if self._runner.loop is not None and (self._queue or self._drainer is not None):
                self._runner.run(self._settle())
        finally:
            try:
                self._close()
            finally:
                self._raise_failures()

    def flush(self) -> None:
        """Wait until every queued put is scanned, routed and durably logged;
        raises QueuedPutsFailed for those the gateway refused (since the last flush)."""
        self._runner.run(self._settle())
        self._raise_failures()

    async def aflush(self) -> None:
        """`flush` from async code: `await store.aflush()` before closing the gateway."""
        await self._runner.arun(self._settle())
        self._raise_failures()

    def _raise_failures(self) -> None:
        if self._failures:
            failures, self._failures = self._failures, []
            raise QueuedPutsFailed(failures)

    def _close(self) -> None:
        if self._journal is not None:
            self._journal.close()
        if self._sync is not None:
            self._sync.close()
            self._sync = None
        if self._closer is not None:
            self._closer()
            self._closer = None

    # -- BaseStore ------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        return self._runner.run(self._batch(ops, self._who()))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        return await self._runner.arun(self._batch(ops, self._who()))

    async def _batch(self, ops: list[Op], who: _Who) -> list[Result]:
        self._last_op = time.monotonic()
        if self._queue and self._drainer is None:
            self._kick()
        results: list[Result] = []
        wave: list[PutOp] = []
        for op in ops:
            if isinstance(op, PutOp) and op.value is not None and self.ack == "scanned":
                if any(p.namespace == op.namespace and p.key == op.key for p in wave):
                    await self._puts(wave, who)  # a key's puts stay in order
                    wave = []
                wave.append(op)
                if len(wave) >= _WAVE:
                    await self._puts(wave, who)
                    wave = []
                results.append(None)
                continue
            if wave:
                await self._puts(wave, who)
                wave = []
            if isinstance(op, GetOp):
                results.append(await self._get(op, who))
            elif isinstance(op, SearchOp):
                await self._settle()
                results.append(await self._search(op, who))
            elif isinstance(op, PutOp):
                if op.value is None:
                    await self._settle()
                await self._put(op, who)
                results.append(None)
            elif isinstance(op, ListNamespacesOp):
                await self._settle()
                results.append(await self._list_namespaces(op, who))
            else:
                raise ValueError(f"unknown operation type: {type(op).__name__}")
        if wave:
            await self._puts(wave, who)
        return results

    async def _puts(self, ops: list[PutOp], who: _Who) -> None:
        """Consecutive puts of distinct keys in one batch, written concurrently:
        each is still its own scan, route and log entry (there is no all-or-nothing
        batch write), but the scans overlap the commits. Every put finishes before
        the first error (in input order) is raised."""
        if len(ops) == 1:
            await self._put(ops[0], who)
            return
        outcomes = await asyncio.gather(*(self._put(op, who) for op in ops), return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome

    def _who(self) -> _Who:
        from langgraph.config import get_config

        try:
            config = get_config()
        except RuntimeError:
            return _Who(self.session_id, None, self.agent_id)
        configurable = config.get("configurable") or {}
        metadata = config.get("metadata") or {}
        thread = configurable.get("thread_id") or metadata.get("thread_id")
        node = metadata.get("langgraph_node")
        step = metadata.get("langgraph_step")
        call = f"{node}:{step}" if node is not None else None
        session = str(thread) if thread is not None else self.session_id
        return _Who(session, call, self.agent_id)

    # -- namespaces -----------------------------------------------------------------

    def _ns(self, namespace: tuple[str, ...]) -> tuple[str, ...]:
        for label in namespace:
            if not isinstance(label, str) or not label or "." in label:
                raise InvalidNamespaceError(f"invalid namespace label {label!r} in {namespace}")
        out = self.prefix + tuple(encode_label(label) for label in namespace)
        if any(len(label) > 128 for label in out):
            raise InvalidNamespaceError(f"namespace labels are limited to 128 chars: {namespace}")
        return out

    def _public_ns(self, namespace: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(decode_label(label) for label in namespace[len(self.prefix) :])

    # -- operations -----------------------------------------------------------------

    async def _put(self, op: PutOp, who: _Who) -> None:
        namespace = self._ns(op.namespace)
        if not namespace:
            raise InvalidNamespaceError("namespace cannot be empty")
        if op.value is None:
            await self._delete(namespace, op.key, who)
            return
        write = self._write(op, namespace, who)
        if self.ack == "queued":
            await self._park(_Parked(namespace, op.key, write))
            return
        if self.ack == "journaled":
            if not self._holds_sensitive(write):
                await self._park(_Parked(namespace, op.key, write))
                return
            # A secret or personal datum must not persist unredacted, not even in
            # the journal: this put takes the scanned path, after the key's
            # pending puts (a key's puts stay in order).
            earlier = self._parked.get((namespace, op.key))
            if earlier is not None:
                await self._admit_now(earlier)
        receipt = await self.backend.write(write)
        self._remember(namespace, op.key, receipt)
        if self.strict and receipt.state in (MemoryState.PENDING_REVIEW, MemoryState.REJECTED):
            raise MemoryHeld(receipt)

    def _write(self, op: PutOp, namespace: tuple[str, ...], who: _Who) -> MemoryWrite:
        content = canonical_json(dict(op.value or {}))
        metadata: dict[str, Any] = {}
        target = Target.LONG
        ttl_seconds = None
        if op.ttl is not None:
            metadata[TTL_KEY] = op.ttl
            target = Target.SHORT
            ttl_seconds = op.ttl * 60.0
        if op.index is False or isinstance(op.index, list):
            metadata[INDEX_KEY] = op.index if op.index is False else list(op.index)
        return MemoryWrite(
            content=content,
            namespace=namespace,
            key=op.key,
            source=self.source,
            session_id=who.session,
            agent_id=who.agent,
            call_id=who.call,
            metadata=metadata,
            target=target,
            ttl_seconds=ttl_seconds,
        )

    # -- ack="queued": parked puts ----------------------------------------------------

    async def _park(self, parked: _Parked) -> None:
        """Acknowledge a put before its scan: checked as far as can be without
        scanning (identifiers by MemoryWrite, JSON, size), then held in memory."""
        if isinstance(self.backend, Gateway):
            size = len(parked.write.content.encode("utf-8"))
            limit = self.backend.ctx.routing.max_bytes
            if size > limit:
                raise OversizedWrite(size, limit)
        if self._room is None:
            self._room = asyncio.Semaphore(self.queue_size)
        if self._room.locked():
            self._nudge()  # full: the drain starts now instead of waiting for quiet
        await self._room.acquire()  # back-pressure: at most queue_size parked
        if self._journal is not None:
            try:
                parked.seq = self._journal.append(parked.write, parked.at)
            except BaseException:
                self._room.release()
                raise
        parked.prev = self._parked.get((parked.namespace, parked.key))
        self._parked[(parked.namespace, parked.key)] = parked
        self._queue.append(parked)
        self._kick()

    def _kick(self) -> None:
        """Start the drain if it is not running (on the store's loop)."""
        if self._drainer is None and self._queue:
            self._drainer = asyncio.get_running_loop().create_task(self._drain())

    def _nudge(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def _lazy(self) -> bool:
        """Journaled puts are admitted once the store is quiet, unless someone waits."""
        full = self._room is not None and self._room.locked()
        return self.ack == "journaled" and not self._hurry and not full

    def _holds_sensitive(self, write: MemoryWrite) -> bool:
        """Whether the gateway would redact anything of this write or refuse its
        key: the sensitive rules (secrets, personal data: the only rules whose
        hits carry a value to redact) over the key, the namespace, the content
        and the metadata, with the gateway's own rules where it is in process."""
        if self._sensitive is None:
            if isinstance(self.backend, Gateway):
                rules = self.backend.inspector.scanner.rules
            else:
                rules = load_rules()
            chosen = tuple(r for r in rules.rules if r.category.sensitive)
            # NOTE: the fingerprints this scanner computes are never kept.
            self._sensitive = Scanner(
                RuleSet(chosen, rules.version), BUILTIN_ANALYZERS, fingerprint_key=b"journal"
            )
        names = (write.key or "", "/".join(write.namespace))
        texts = [write.content, *(n for n in names if (n, write.source) not in self._clean)]
        if write.metadata:
            texts.append(canonical_json(write.metadata))
        for text in texts:
            if not text:
                continue
            result = self._sensitive.scan(text, write.source)
            if result.redacted != text or any(f.category.sensitive for f in result.findings):
                return True
        for name in names:  # a store reuses its namespaces (and often its keys)
            self._clean[(name, write.source)] = None
            if len(self._clean) > _CLEAN:
                self._clean.pop(next(iter(self._clean)))
        return False

    async def _drain(self) -> None:
        """Admit parked puts in order, a wave at a time (distinct keys per wave)."""
        try:
            while self._queue:
                if self._lazy():
                    quiet = self._last_op + self.scan_after - time.monotonic()
                    if quiet > 0:
                        if self._wake is None:
                            self._wake = asyncio.Event()
                        self._wake.clear()
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(self._wake.wait(), quiet)
                        continue
                wave: list[_Parked] = []
                keys: set[tuple[tuple[str, ...], str]] = set()
                while self._queue and len(wave) < _WAVE:
                    head = self._queue[0]
                    if head.claimed:  # a read scanned it on demand
                        self._queue.popleft()
                        continue
                    key = (head.namespace, head.key)
                    if key in keys:
                        break
                    keys.add(key)
                    head.claimed = True
                    wave.append(self._queue.popleft())
                if wave:
                    await asyncio.gather(*(self._admit(p) for p in wave))
        finally:
            self._drainer = None

    async def _admit_now(self, latest: _Parked) -> None:
        """Scan and admit a key's parked puts now, in order (a read from another
        session, or a sensitive put of the key, is waiting for them)."""
        chain: list[_Parked] = []
        entry: _Parked | None = latest
        while entry is not None and not entry.done.is_set():
            chain.append(entry)
            entry = entry.prev
        for entry in reversed(chain):
            if entry.claimed:
                await entry.done.wait()
            else:
                entry.claimed = True
                await self._admit(entry)

    async def _admit(self, parked: _Parked) -> None:
        key = (parked.namespace, parked.key)
        if parked.prev is not None and not parked.prev.done.is_set():
            await parked.prev.done.wait()
        try:
            try:
                receipt = await self.backend.write(parked.write)
            except StorageError:
                raise  # not the put's verdict: its journal row stays for the next start
            except Exception:
                self._forget(parked)  # refused: the journal has nothing left to recover
                raise
            self._forget(parked)  # in the log now, whatever its state
            self._remember(parked.namespace, parked.key, receipt)
            for reader in parked.readers:
                # Served before its scan: the read is recorded on the admitted
                # version (nothing is recorded when that is not served to it).
                await self.backend.read(receipt.id, reader)
        except Exception as exc:  # any refusal is the put's outcome, kept for flush()
            self._failures.append((parked.namespace, parked.key, exc))
        finally:
            if self._parked.get(key) is parked:
                del self._parked[key]
            parked.done.set()
            if self._room is not None and parked.roomed:
                self._room.release()

    def _forget(self, parked: _Parked) -> None:
        if self._journal is not None and parked.seq is not None:
            self._journal.done(parked.seq)

    async def _settle(self) -> None:
        """Wait until nothing is parked (every queued put admitted or refused)."""
        self._hurry += 1
        try:
            self._kick()
            self._nudge()
            while self._drainer is not None:
                await asyncio.shield(self._drainer)
        finally:
            self._hurry -= 1

    def _own_parked(self, namespace: tuple[str, ...], key: str, who: _Who) -> _Parked | None:
        """The reader's own parked put of the key: only a named session gets it back."""
        parked = self._parked.get((namespace, key))
        if parked is None or who.session is None or parked.write.session_id != who.session:
            return None
        return parked

    def _remember(
        self, namespace: tuple[str, ...], key: str, receipt: WriteReceipt | MemoryStatus
    ) -> None:
        self._receipts.pop((namespace, key), None)
        self._receipts[(namespace, key)] = receipt
        if len(self._receipts) > _RECEIPTS:
            self._receipts.pop(next(iter(self._receipts)))

    async def _delete(self, namespace: tuple[str, ...], key: str, who: _Who) -> None:
        actor = who.agent or who.session or "langgraph"
        for item in await find_key(self.backend, namespace, key, who.reader):
            # Already gone (a concurrent delete, an expiry): nothing left to tombstone.
            with contextlib.suppress(NotFound, IllegalTransition):
                gone = await self.backend.delete(item.id, actor=actor, reason="langgraph delete")
                self._remember(namespace, key, MemoryStatus.of_item(gone))

    async def _get(self, op: GetOp, who: _Who) -> Item | None:
        namespace = self._ns(op.namespace)
        parked = self._parked.get((namespace, op.key))
        if parked is not None:
            own = self._own_parked(namespace, op.key, who)
            if own is not None:
                own.readers.append(who.reader)
                return Item(
                    value=json.loads(own.write.content),
                    key=op.key,
                    namespace=op.namespace,
                    created_at=own.at,
                    updated_at=own.at,
                )
            if self.ack == "journaled":
                # Any other reader: the key's pending puts are scanned and admitted
                # first, so it gets what the gateway serves of the latest one.
                await self._admit_now(parked)
            elif who.session is None and parked.write.session_id is None:
                # No session to tell writer from reader: wait for the scan.
                await parked.done.wait()
            # Any other reader: what the gateway serves (never the parked value).
        item = await self.backend.read_key(namespace, op.key, who.reader)
        if item is None:
            return None
        if op.refresh_ttl:
            await self._refresh(item)
        return self._item(item)

    async def _refresh(self, item: MemoryItem) -> None:
        """Restart a short-term item's TTL by writing it again (a new version with
        the same id and created_at); the value's updated_at is kept in metadata."""
        ttl = item.metadata.get(TTL_KEY)
        if item.pool is not PoolName.SHORT or not isinstance(ttl, int | float) or not item.key:
            return
        await self.backend.write(
            MemoryWrite(
                content=item.content,
                namespace=item.namespace,
                key=item.key,
                source=item.source,
                session_id=item.session_id,
                agent_id=item.agent_id,
                call_id=item.call_id,
                metadata={**item.metadata, UPDATED_KEY: _updated(item).isoformat()},
                target=Target.SHORT,
                ttl_seconds=float(ttl) * 60.0,
            )
        )

    def _item(self, item: MemoryItem) -> Item:
        return Item(
            value=self._value(item),
            key=item.key or item.id,
            namespace=self._public_ns(item.namespace),
            created_at=item.created_at,
            updated_at=_updated(item),
        )

    @staticmethod
    def _value(item: MemoryItem) -> dict[str, Any]:
        value = parse_object(item.content)
        return value if value is not None else {"content": item.content}

    async def _search(self, op: SearchOp, who: _Who) -> list[SearchItem]:
        prefix = self._ns(op.namespace_prefix)
        if op.limit <= 0:
            return []
        scores: dict[str, float | None] = {}
        if op.query and self.search_mode is not SearchMode.TEXT:
            items = await self._semantic(prefix, op, who, scores)
        elif not op.filter:
            items = await self.backend.search(
                prefix, op.query, limit=op.limit, offset=max(op.offset, 0), reader=who.reader
            )
        else:
            items = await self._filtered(prefix, op, op.filter, who)
        out = []
        for item in items:
            if op.refresh_ttl:
                await self._refresh(item)
            out.append(
                SearchItem(
                    namespace=self._public_ns(item.namespace),
                    key=item.key or item.id,
                    value=self._value(item),
                    created_at=item.created_at,
                    updated_at=_updated(item),
                    score=scores.get(item.id),
                )
            )
        return out

    async def _semantic(
        self, prefix: tuple[str, ...], op: SearchOp, who: _Who, scores: dict[str, float | None]
    ) -> list[MemoryItem]:
        """A vector or hybrid search (best first), the filter applied to what it
        found; in-process with each item's score."""
        mode = self.search_mode.value
        wanted = max(op.offset, 0) + op.limit
        # With a filter, look further down the ranking for values that pass it.
        limit = min(wanted if not op.filter else max(wanted * 4, 50), PAGE)
        if isinstance(self.backend, Gateway):
            hits = await self.backend.search_hits(
                prefix, op.query, limit=limit, reader=who.reader, mode=mode
            )
            scores.update((h.item.id, h.score) for h in hits)
            items = [h.item for h in hits]
        else:
            items = await self.backend.search(
                prefix, op.query, limit=limit, reader=who.reader, mode=mode
            )
        if op.filter:
            items = [i for i in items if matches(self._value(i), op.filter)]
        return items[max(op.offset, 0) : wanted]

    async def _filtered(
        self, prefix: tuple[str, ...], op: SearchOp, filters: dict[str, Any], who: _Who
    ) -> list[MemoryItem]:
        wanted = max(op.offset, 0) + op.limit
        kept: list[MemoryItem] = []
        offset = 0
        while len(kept) < wanted:
            page = await self.backend.search(
                prefix, op.query, limit=PAGE, offset=offset, reader=who.reader
            )
            kept.extend(i for i in page if matches(self._value(i), filters))
            if len(page) < PAGE:
                break
            offset += PAGE
        return kept[max(op.offset, 0) : wanted]

    async def _list_namespaces(self, op: ListNamespacesOp, who: _Who) -> list[tuple[str, ...]]:
        items = await scan_namespace(self.backend, self.prefix, who.reader)
        found = {self._public_ns(i.namespace) for i in items}
        found.discard(())
        names = [ns for ns in found if all(_condition(c, ns) for c in op.match_conditions or ())]
        if op.max_depth is not None:
            names = list({ns[: op.max_depth] for ns in names})
        names.sort()
        return names[op.offset : op.offset + op.limit]

    # -- memgate's side ------------------------------------------------------------

    def status(self, namespace: tuple[str, ...], key: str) -> MemoryStatus | None:
        """memgate's view of the value at (namespace, key): state, trust, findings,
        whether it was redacted. Knows rejected puts made through this store too."""
        return self._runner.run(self.astatus(namespace, key))

    async def astatus(self, namespace: tuple[str, ...], key: str) -> MemoryStatus | None:
        ns = self._ns(namespace)
        who = self._who()
        return await self._runner.arun(self._status(ns, key, who))

    async def _status(self, ns: tuple[str, ...], key: str, who: _Who) -> MemoryStatus | None:
        await self._settle()
        live = await find_key(self.backend, ns, key, who.reader)
        known = self._receipts.get((ns, key))
        if isinstance(known, WriteReceipt) and known.state is MemoryState.REJECTED:
            # This store's latest put of the key was refused: that is the news.
            return MemoryStatus.of_receipt(known)
        if live:
            return MemoryStatus.of_item(max(live, key=lambda i: i.updated_at))
        if isinstance(known, MemoryStatus) or known is None:
            return known  # deleted through this store, or never put through it
        return await self._now(known)

    async def _now(self, receipt: WriteReceipt) -> MemoryStatus | None:
        """A put's status once nothing is live under its key: the receipt with the
        state the log holds now (deleted elsewhere, expired, rejected by a
        reviewer, rolled back), never the state it had when written. Where the log
        cannot be asked (a remote key without the reviewer role), the receipt is
        the best this store knows (a value pending for another thread is not live
        for this caller either)."""
        try:
            records = await self.backend.history(receipt.id)
        except MemgateError:
            return MemoryStatus.of_receipt(receipt)
        last = records[-1].event if records else None
        if last is None or last.state_after is None:
            return MemoryStatus.of_receipt(receipt)
        if last.item is not None:
            return MemoryStatus.of_item(last.item)
        return MemoryStatus.of_receipt(receipt).model_copy(update={"state": last.state_after})

    async def sweep(self) -> int:
        """Expire due short-term items now (in-process only; a server sweeps itself)."""
        if isinstance(self.backend, Gateway):
            return await self._runner.arun(self.backend.expire_due())
        return 0

    async def start_ttl_sweeper(self, sweep_interval_minutes: float | None = None) -> None:
        """Sweep every `sweep_interval_minutes` (else the TTLConfig's) in the background.
        Expired items are never returned either way; sweeping logs their expiry."""
        minutes = sweep_interval_minutes or (self.ttl_config or {}).get("sweep_interval_minutes")
        if not minutes or self._sweeper is not None:
            return

        async def loop() -> None:
            while True:
                await asyncio.sleep(float(minutes) * 60.0)
                await self.sweep()

        self._sweeper = asyncio.get_running_loop().create_task(loop())

    async def stop_ttl_sweeper(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None


def _updated(item: MemoryItem) -> datetime:
    """When the value was last put: a TTL refresh re-writes the item but keeps this."""
    stamp = item.metadata.get(UPDATED_KEY)
    if isinstance(stamp, str):
        with contextlib.suppress(ValueError):
            return datetime.fromisoformat(stamp)
    return item.updated_at


def _condition(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = condition.path
    if len(namespace) < len(path):
        return False
    pairs = (
        zip(namespace, path, strict=False)
        if condition.match_type == "prefix"
        else zip(reversed(namespace), reversed(path), strict=False)
    )
    return all(p == "*" or n == p for n, p in pairs)


def matches(value: dict[str, Any], filters: dict[str, Any]) -> bool:
    """InMemoryStore's filter semantics (JSONB-like): operators, nested dicts,
    list equality. A missing field fails an ordering operator instead of raising."""
    return all(_compare(value.get(key), wanted) for key, wanted in filters.items())


def _compare(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, dict):
        if any(k.startswith("$") for k in wanted):
            return all(_operator(actual, op, operand) for op, operand in wanted.items())
        if not isinstance(actual, dict):
            return False
        return all(_compare(actual.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (
            isinstance(actual, list | tuple)
            and len(actual) == len(wanted)
            and all(_compare(a, w) for a, w in zip(actual, wanted, strict=True))
        )
    return bool(actual == wanted)


def _operator(actual: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(actual == operand)
    if op == "$ne":
        return bool(actual != operand)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise ValueError(f"unsupported filter operator: {op}")
    try:
        a, b = float(actual), float(operand)
    except (TypeError, ValueError):
        return False
    return {"$gt": a > b, "$gte": a >= b, "$lt": a < b, "$lte": a <= b}[op]
