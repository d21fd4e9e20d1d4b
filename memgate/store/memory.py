"""The in-memory twin of the SQLite store: same contract, no I/O."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime

from memgate.domain.events import Checkpoint, Event, LogRecord, VerifyResult, canonical_json
from memgate.domain.memory import MemoryItem, MemoryState, utcnow
from memgate.domain.ports import PoolQuery, ReadRecord, linked
from memgate.domain.raw import Version, encode
from memgate.log.chain import Chain, Columns, column_bytes, verify_rows
from memgate.log.integrity import GENESIS_HASH, Signer, hash_step, public_pem, signature_ok
from memgate.log.references import first_fault, with_reference_fault
from memgate.log.replay import REFERENCE, State, apply_rows, resolve, version_of
from memgate.pools.query import matches, page, text_matches
from memgate.store.projection import projected

Items = list[MemoryItem]
Records = list[LogRecord]
Reads = list[ReadRecord]
CursorReads = list[tuple[int, ReadRecord]]


class MemoryStore:
    """Log, long-term pool and reads in dictionaries."""

    def __init__(self, key: bytes, signer: Signer | None = None) -> None:
        self._key = key
        self._signer = signer or Signer.generate()
        self._chain = Chain(key)
        self._records: list[tuple[LogRecord, bytes, Columns]] = []
        self._items: dict[str, MemoryItem] = {}
        self._short: dict[str, MemoryItem] = {}
        self._snapshots: list[tuple[int, bytes]] = []
        self._reads: Reads = []
        self._listeners: list[Callable[[], None]] = []

    async def append(self, events: Sequence[Event]) -> Records:
        sealed = [self._chain.seal(e) for e in events]
        for i, (record, entry, columns) in enumerate(sealed):
            raw = record.event.raw_item
            if raw is not None and record.event.item is None:
                # kept resolved, as the SQL stores' `records` return it
                event = record.event.model_copy(
                    update={"item": MemoryItem.model_validate_json(encode(raw))}
                )
                sealed[i] = (record.model_copy(update={"event": event}), entry, columns)
        self._records.extend(sealed)
        for record, _, _ in sealed:
            change = projected(record.event)  # events hold models here (resolved above)
            if isinstance(change.long, MemoryItem):
                self._items[change.long.id] = change.long
            if isinstance(change.short, MemoryItem):
                self._short[change.short.id] = change.short
            if change.short_gone is not None:
                self._short.pop(change.short_gone, None)
        self._committed()
        return [record for record, _, _ in sealed]

    def on_commit(self, listener: Callable[[], None]) -> None:
        """As `SqliteStore.on_commit`: `listener` is called after each append or
        recorded reads (never blocking; its errors are ignored)."""
        self._listeners.append(listener)

    def _committed(self) -> None:
        for listener in self._listeners:
            with contextlib.suppress(Exception):
                listener()

    async def records(self, after_seq: int = 0, limit: int = 1000) -> Records:
        return [r for r, _, _ in self._records[after_seq : after_seq + limit]]

    async def history(self, memory_id: str) -> Records:
        return [r for r, _, _ in self._records if r.event.memory_id == memory_id]

    async def checkpoint(self) -> Checkpoint:
        return Checkpoint(
            seq=self._chain.last_seq,
            head_mac=self._chain.head,
            count=len(self._records),
            at=utcnow(),
        )

    async def verify(self, checkpoint: Checkpoint | None = None) -> VerifyResult:
        """The chain (the projection lives in this process's dictionaries, written
        only by `append`: nothing outside can edit it)."""
        rows = ((r.seq, entry, r.prev_mac, r.mac, cols) for r, entry, cols in self._records)
        result = verify_rows(self._key, rows, checkpoint)
        result = with_reference_fault(result, first_fault(self._named()))
        if checkpoint is not None and checkpoint.signature:
            signed = signature_ok(checkpoint, self._signer.public)
            reason = result.reason if signed else "the checkpoint's signature does not hold"
            result = result.model_copy(
                update={"signature_ok": signed, "ok": result.ok and signed, "reason": reason}
            )
        return result

    async def export_checkpoint(self) -> Checkpoint:
        """The head, with the public hash chain and an Ed25519 signature."""
        digest = GENESIS_HASH
        for record, entry, columns in self._records:
            digest = hash_step(digest, record.seq, entry, column_bytes(columns), record.mac)
        point = await self.checkpoint()
        return self._signer.sign(point.model_copy(update={"head_hash": digest}))

    def public_key_pem(self) -> str:
        return public_pem(self._signer.public)

    async def put(self, item: MemoryItem) -> None:
        self._items[item.id] = item

    async def remove(self, memory_id: str) -> None:
        self._items.pop(memory_id, None)

    async def get(self, memory_id: str) -> MemoryItem | None:
        return self._items.get(memory_id)

    async def get_by_key(self, namespace: tuple[str, ...], key: str) -> MemoryItem | None:
        found = [
            i
            for i in self._items.values()
            if i.namespace == namespace and i.key == key and i.state is not MemoryState.DELETED
        ]
        return max(found, key=lambda i: (i.updated_at, i.id)) if found else None

    async def list(self, query: PoolQuery) -> Items:
        return page((i for i in self._items.values() if matches(i, query)), query)

    async def search(self, query: PoolQuery) -> Items:
        return page(
            (i for i in self._items.values() if matches(i, query) and text_matches(i, query.text)),
            query,
        )

    async def record_reads(self, reads: Sequence[ReadRecord]) -> None:
        self._reads.extend(reads)
        self._committed()

    async def reads(self, memory_id: str) -> Reads:
        return [r for r in self._reads if r.memory_id == memory_id]

    async def reads_linked(
        self,
        since: datetime,
        *,
        session_id: str | None = None,
        call_id: str | None = None,
        agent_id: str | None = None,
        agent_any_session: bool = False,
        limit: int = 5000,
    ) -> Reads:
        found: Reads = []
        for read in reversed(self._reads):
            if len(found) >= limit:
                break
            if read.at >= since and linked(
                read, session_id, call_id, agent_id, agent_any_session=agent_any_session
            ):
                found.append(read)
        return found

    async def reads_after(self, after: int, limit: int = 500) -> CursorReads:
        # The cursor is the 1-based position in the list (reads are never removed).
        window = self._reads[after : after + limit]
        return [(after + i + 1, read) for i, read in enumerate(window)]

    async def log_heads(self) -> tuple[int, int]:
        return self._chain.last_seq, len(self._reads)

    async def seq_at(self, at: datetime) -> int:
        seq = 0
        for record, _, _ in self._records:
            if record.event.at > at:
                break
            seq = record.seq
        return seq

    async def state_at(self, seq: int) -> State:
        base = 0
        state: State = {}
        for snap_seq, body in reversed(self._snapshots):
            if snap_seq <= seq:
                base, state = snap_seq, json.loads(body)
                break
        return apply_rows(state, (self._row(entry) for _, entry, _ in self._records[base:seq]))

    def _named(self) -> Iterator[tuple[int, bytes, bytes | None, str | None]]:
        """Each entry with the entry and MAC of the event its reference names."""
        for record, entry, _ in self._records:
            base = mac = None
            if REFERENCE in entry:
                ref = json.loads(entry).get("restores")
                target = ref.get("seq") if isinstance(ref, dict) else None
                if type(target) is int and 0 < target <= len(self._records):
                    named, base, _ = self._records[target - 1]
                    mac = named.mac
            yield record.seq, entry, base, mac

    def _row(self, entry: bytes) -> tuple[bytes, bytes | None, str | None]:
        """An entry with the entry it references (as the SQL stores join it)."""
        if REFERENCE not in entry:
            return entry, None, None
        ref = json.loads(entry).get("restores")
        if not isinstance(ref, dict) or not 0 < int(ref.get("seq", 0)) <= len(self._records):
            return entry, None, None
        record, base, _ = self._records[int(ref["seq"]) - 1]
        return entry, base, record.mac

    async def changed_items(self, since_seq: int, at_seq: int) -> State:
        touched = {r.event.memory_id for r, _, _ in self._records[since_seq:]}
        state: State = {}
        for record, entry, _ in self._records[:at_seq]:
            if record.event.memory_id in touched and record.event.item is not None:
                state[record.event.memory_id] = resolve(json.loads(entry), *self._row(entry)[1:])
        return state

    async def changed_versions(self, since_seq: int, at_seq: int) -> dict[str, Version]:
        touched = {r.event.memory_id for r, _, _ in self._records[since_seq:]}
        found: dict[str, Version] = {}
        for record, entry, _ in self._records[:at_seq]:
            if record.event.memory_id in touched and record.event.item is not None:
                version = version_of(record.seq, record.mac, *self._row(entry))
                if version is not None:
                    found[record.event.memory_id] = version
        return found

    async def snapshot(self) -> int:
        seq = self._chain.last_seq
        state = await self.state_at(seq)
        self._snapshots.append((seq, canonical_json(state)))
        return seq

    async def short_term_items(self) -> Items:
        return list(self._short.values())

    async def flush(self) -> None:
        return None

    async def close(self) -> None:
        return None
