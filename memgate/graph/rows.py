"""From SQLite rows to graph rows: pure functions shared by the FalkorDB backend
and its in-memory twin, so both project exactly the same facts.

Times are integer microseconds since the epoch (FalkorDB compares them cheaply;
`datetime` round-trips through `from_micros`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from memgate.domain.events import LogRecord, Op
from memgate.domain.memory import MemoryItem
from memgate.domain.ports import ReadRecord

Row = dict[str, Any]
SEPARATOR = "\x1f"
_URI_KEYS = ("source_uri", "url", "uri")
_WRITE_OPS = frozenset({Op.ADMITTED, Op.QUEUED})


def micros(moment: datetime) -> int:
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return int(aware.timestamp() * 1_000_000)


def from_micros(value: int) -> datetime:
    return datetime.fromtimestamp(value / 1_000_000, UTC)


def call_key(session_id: str | None, call_id: str | None) -> str:
    """Call ids are only unique within a session (agent frameworks number them
    per run), so a Call node is keyed by both."""
    return f"{session_id or ''}{SEPARATOR}{call_id or ''}"


@dataclass(slots=True)
class ReadBatch:
    rows: list[Row]
    calls: list[Row]
    mark: int
    """The reads rowid of the last row: the reads high-water mark after this batch."""


@dataclass(slots=True)
class EventBatch:
    seq: int
    mac: str
    count: int = 0
    """Log records in the batch."""
    memories: list[Row] = field(default_factory=list)
    writes: list[Row] = field(default_factory=list)
    derived: list[Row] = field(default_factory=list)
    sources: list[Row] = field(default_factory=list)
    values: list[Row] = field(default_factory=list)

    @property
    def flows(self) -> list[Row]:
        return [w for w in self.writes if w["session"] is not None]


def read_batch(reads: Sequence[tuple[int, ReadRecord]]) -> ReadBatch:
    rows: list[Row] = []
    calls: dict[str, Row] = {}
    for _, read in reads:
        key = call_key(read.session_id, read.call_id)
        rows.append(
            {
                "mid": read.memory_id,
                "call": key,
                "call_id": read.call_id,
                "session": read.session_id,
                "agent": read.agent_id,
                "at": micros(read.at),
            }
        )
        if read.session_id is not None:
            calls[key] = {"call": key, "session": read.session_id}
    return ReadBatch(rows=rows, calls=list(calls.values()), mark=reads[-1][0] if reads else 0)


def _is_write(record: LogRecord) -> bool:
    event = record.event
    if event.op in _WRITE_OPS:
        return True
    # A write the scan rejected enters the log as `rejected` with no state before;
    # a reviewer's rejection has one.
    return event.op is Op.REJECTED and event.state_before is None


def _source_row(item: MemoryItem) -> Row:
    uri = next(
        (v for k in _URI_KEYS if isinstance(v := item.metadata.get(k), str) and v),
        None,
    )
    kind = item.source.value
    return {
        "mid": item.id,
        "sid": kind if uri is None else f"{kind}{SEPARATOR}{uri}",
        "kind": kind,
        "uri": uri,
    }


def _tool(item: MemoryItem) -> str | None:
    tool = item.metadata.get("tool")
    return tool if isinstance(tool, str) else None


def event_batch(records: Sequence[LogRecord]) -> EventBatch:
    """The facts in a run of log records. Memory rows keep each memory's last
    item in the run; markers without an item (rollback markers) add nothing."""
    last = records[-1]
    batch = EventBatch(seq=last.seq, mac=last.mac, count=len(records))
    latest: dict[str, Row] = {}
    for record in records:
        item = record.event.item
        if item is None:
            continue
        latest[item.id] = {
            "id": item.id,
            "ns": list(item.namespace),
            "state": item.state.value,
            "trust": item.trust_score,
            "source": item.source.value,
            "pool": item.pool.value,
            "session": item.session_id,
            "call_id": item.call_id,
            "agent": item.agent_id,
            "created": micros(item.created_at),
            "updated": micros(item.updated_at),
            "version": item.version,
        }
        at = micros(record.event.at)
        written = _is_write(record)
        if written and (item.session_id is not None or item.call_id is not None):
            batch.writes.append(
                {
                    "mid": item.id,
                    "call": call_key(item.session_id, item.call_id),
                    "call_id": item.call_id,
                    "session": item.session_id,
                    "agent": item.agent_id,
                    "tool": _tool(item),
                    "at": at,
                }
            )
        if written or record.event.op is Op.PROMOTED:
            batch.sources.append(_source_row(item))
        if record.event.op is Op.PROMOTED or record.event.state_before is None:
            batch.derived.extend(
                {"child": item.id, "parent": parent, "at": at} for parent in item.derived_from
            )
        batch.values.extend(
            {
                "mid": item.id,
                "fp": f.fingerprint,
                "category": f.category.value,
                "rule": f.rule_id,
            }
            for f in item.findings
            if f.fingerprint is not None and f.category.sensitive
        )
    batch.memories = list(latest.values())
    return batch
