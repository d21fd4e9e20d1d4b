"""From SQLite rows to graph rows: pure functions shared by the FalkorDB backend
and its in-memory twin, so both project exactly the same facts.

Times are integer microseconds since the epoch (FalkorDB compares them cheaply;
`datetime` round-trips through `from_micros`).

Every caller-supplied string is checked before it is sent: a control character
(NUL makes FalkorDB refuse the whole query) or a lone surrogate (not encodable
as UTF-8) sets that one log record or read aside, with the field named, so the
graph is never poisoned by one and the projection never stalls on one, whatever
the edge let through. The row is not repaired: a "cleaned" id could merge two
sessions into one node and invent provenance."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from memgate.domain.events import LogRecord, Op
from memgate.domain.graph import SetAsideRow
from memgate.domain.memory import MemoryItem
from memgate.domain.ports import ReadRecord

Row = dict[str, Any]
SEPARATOR = "\x1f"
_URI_KEYS = ("source_uri", "url", "uri")
_WRITE_OPS = frozenset({Op.ADMITTED, Op.QUEUED})
_UNPROJECTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""C0 and C1 controls, DEL, and lone surrogates."""


class Unprojectable(ValueError):
    """A string the graph must not receive; `field` names where it was."""

    def __init__(self, field: str) -> None:
        super().__init__(f"control character in {field}")
        self.field = field


def checked[T](name: str, value: T) -> T:
    """`value` unchanged, or Unprojectable if it is (or holds) a bad string."""
    if isinstance(value, str):
        if _UNPROJECTABLE.search(value):
            raise Unprojectable(name)
    elif isinstance(value, (list, tuple)):
        for part in value:
            checked(name, part)
    return value


def projectable(value: str | None) -> bool:
    return value is None or not _UNPROJECTABLE.search(value)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def micros(moment: datetime) -> int:
    """Exact integer arithmetic (a float timestamp times 10^6 took 3.7x as long,
    and is only exact while it rounds right)."""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return (aware - _EPOCH) // _MICROSECOND


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
    groups: list[list[Any]] = field(default_factory=list)
    """The same reads as FalkorDB takes them: one list per call, `[key, call_id,
    session, agent, at, [[memory_id, at, agent], ...]]` (lists of primitives,
    one MERGE of the call and its session per call instead of per read: 2.3x
    the links per second of a map per read, a third less server CPU)."""
    set_aside: list[SetAsideRow] = field(default_factory=list)
    """Reads left out of this batch, recorded with the mark."""
    after: int | None = None
    """The reads mark the graph must be at for this batch to apply (None: any).
    A graph that moved (a server restarted empty, another projector) refuses it."""


@dataclass(slots=True)
class EventBatch:
    seq: int
    mac: str
    count: int = 0
    """Log records projected by the batch (set-aside ones not counted)."""
    memories: list[Row] = field(default_factory=list)
    writes: list[Row] = field(default_factory=list)
    derived: list[Row] = field(default_factory=list)
    sources: list[Row] = field(default_factory=list)
    values: list[Row] = field(default_factory=list)
    decisions: list[Row] = field(default_factory=list)
    """Guard decisions (`guard_decided` events), in seq order."""
    decided_memories: list[Row] = field(default_factory=list)
    decided_values: list[Row] = field(default_factory=list)
    set_aside: list[SetAsideRow] = field(default_factory=list)
    """Records left out of this batch, recorded with the mark."""
    after: int | None = None
    """The events mark the graph must be at for the mark to move (None: any)."""

    @property
    def flows(self) -> list[Row]:
        return [w for w in self.writes if w["session"] is not None]


def read_batch(
    reads: Sequence[tuple[int, ReadRecord]], refused: Mapping[int, str] | None = None
) -> ReadBatch:
    """The READ edges of a run of reads. `refused`: reads (by position) the graph
    refused before, set aside with that reason."""
    refused = refused or {}
    rows: list[Row] = []
    calls: dict[str, Row] = {}
    groups: dict[str, list[Any]] = {}
    aside: list[SetAsideRow] = []
    search = _UNPROJECTABLE.search
    for position, read in reads:
        if position in refused:
            aside.append(aside_read(position, read, refused[position], None))
            continue
        mid, call_id, session, agent = read.memory_id, read.call_id, read.session_id, read.agent_id
        # One search over the four ids (a bad character in any is in their
        # concatenation); only a read that has one is looked at field by field.
        if search(f"{mid}{call_id or ''}{session or ''}{agent or ''}"):
            try:
                for name, value in (
                    ("memory_id", mid),
                    ("call_id", call_id),
                    ("session_id", session),
                    ("agent_id", agent),
                ):
                    checked(name, value)
            except Unprojectable as exc:
                aside.append(aside_read(position, read, str(exc), exc.field))
                continue
        at = micros(read.at)
        key = call_key(session, call_id)
        rows.append(
            {
                "call": key,
                "mid": mid,
                "call_id": call_id,
                "session": session,
                "agent": agent,
                "at": at,
            }
        )
        group = groups.get(key)
        if group is None:
            group = groups[key] = [key, call_id, session, agent, at, []]
        group[5].append([mid, at, agent])
        if session is not None:
            calls[key] = {"call": key, "session": session}
    return ReadBatch(
        rows=rows,
        calls=list(calls.values()),
        mark=reads[-1][0] if reads else 0,
        groups=list(groups.values()),
        set_aside=aside,
    )


def aside_read(position: int, read: ReadRecord, reason: str, name: str | None) -> SetAsideRow:
    return SetAsideRow(
        kind="read",
        seq=position,
        reason=reason,
        field=name,
        memory_ids=(read.memory_id,) if projectable(read.memory_id) else (),
        session_id=read.session_id if projectable(read.session_id) else None,
    )


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
    checked("metadata.source_uri", uri)
    return {
        "mid": item.id,
        "sid": kind if uri is None else f"{kind}{SEPARATOR}{uri}",
        "kind": kind,
        "uri": uri,
    }


def _tool(item: MemoryItem) -> str | None:
    tool = item.metadata.get("tool")
    return checked("metadata.tool", tool) if isinstance(tool, str) else None


def event_batch(
    records: Sequence[LogRecord], refused: Mapping[int, str] | None = None
) -> EventBatch:
    """The facts in a run of log records. Memory rows keep each memory's last
    item in the run; markers without an item (rollback markers) add nothing.
    `refused`: records (by seq) the graph refused before, set aside with that
    reason; a record with an unprojectable string is set aside too."""
    refused = refused or {}
    last = records[-1]
    batch = EventBatch(seq=last.seq, mac=last.mac)
    latest: dict[str, Row] = {}
    for record in records:
        item = record.event.item
        if record.seq in refused:
            batch.set_aside.append(aside_event(record, refused[record.seq], None))
            continue
        if item is None:
            if record.event.op is Op.GUARD_DECIDED and record.event.detail:
                try:
                    decision, named, carried = _decision(record)
                except Unprojectable as exc:
                    batch.set_aside.append(aside_event(record, str(exc), exc.field))
                    continue
                batch.decisions.append(decision)
                batch.decided_memories.extend(named)
                batch.decided_values.extend(carried)
            batch.count += 1
            continue
        try:
            facts = _facts(record, item)
        except Unprojectable as exc:
            batch.set_aside.append(aside_event(record, str(exc), exc.field))
            continue
        memory, writes, sources, derived, values = facts
        latest[item.id] = memory
        batch.writes.extend(writes)
        batch.sources.extend(sources)
        batch.derived.extend(derived)
        batch.values.extend(values)
        batch.count += 1
    batch.memories = list(latest.values())
    return batch


def _facts(
    record: LogRecord, item: MemoryItem
) -> tuple[Row, list[Row], list[Row], list[Row], list[Row]]:
    """One record's rows (memory, writes, sources, derived, values); raises
    Unprojectable before anything of the record is kept."""
    memory = {
        "id": checked("memory_id", item.id),
        "ns": checked("namespace", list(item.namespace)),
        "state": item.state.value,
        "trust": item.trust_score,
        "source": item.source.value,
        "pool": item.pool.value,
        "session": checked("session_id", item.session_id),
        "call_id": checked("call_id", item.call_id),
        "agent": checked("agent_id", item.agent_id),
        "created": micros(item.created_at),
        "updated": micros(item.updated_at),
        "version": item.version,
    }
    at = micros(record.event.at)
    written = _is_write(record)
    writes: list[Row] = []
    sources: list[Row] = []
    derived: list[Row] = []
    if written and (item.session_id is not None or item.call_id is not None):
        writes.append(
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
        sources.append(_source_row(item))
    if record.event.op is Op.PROMOTED or record.event.state_before is None:
        derived.extend(
            {"child": item.id, "parent": checked("derived_from", parent), "at": at}
            for parent in item.derived_from
        )
    values = [
        {
            "mid": item.id,
            "fp": checked("fingerprint", f.fingerprint),
            "category": f.category.value,
            "rule": checked("rule_id", f.rule_id),
        }
        for f in item.findings
        if f.fingerprint is not None and f.category.sensitive
    ]
    return memory, writes, sources, derived, values


def _text(detail: Mapping[str, Any], key: str) -> str | None:
    value = detail.get(key)
    return checked(key, value) if isinstance(value, str) else None


def _decision(record: LogRecord) -> tuple[Row, list[Row], list[Row]]:
    """A guard decision's rows (the decision, the memories and the values its
    flow path names); raises Unprojectable before anything is kept. The event
    names arguments, rules and fingerprints only, never a value."""
    event = record.event
    detail: Mapping[str, Any] = event.detail or {}
    call_id = checked("call_id", event.memory_id.removeprefix("call:"))
    session = _text(detail, "session_id")
    row = {
        "seq": record.seq,
        "call": call_key(session, call_id),
        "call_id": call_id,
        "session": session,
        "agent": _text(detail, "agent_id"),
        "tool": _text(detail, "tool"),
        "decision": _text(detail, "decision"),
        "layer": _text(detail, "layer"),
        "warn": bool(detail.get("warn")),
        "actor": checked("actor", event.actor),
        "ask_id": _text(detail, "ask_id"),
        "at": micros(event.at),
    }
    named: dict[str, Row] = {}
    carried: dict[str, Row] = {}
    for step in detail.get("path") or ():
        if not isinstance(step, Mapping):
            continue
        kind = _text(step, "kind")
        mid, fp = _text(step, "memory_id"), _text(step, "fingerprint")
        if mid:
            named.setdefault(mid, {"seq": record.seq, "mid": mid, "kind": kind})
        if fp:
            carried.setdefault(fp, {"seq": record.seq, "fp": fp, "kind": kind})
    return row, list(named.values()), list(carried.values())


def aside_event(record: LogRecord, reason: str, name: str | None) -> SetAsideRow:
    item = record.event.item
    if item is None:
        return SetAsideRow(kind="event", seq=record.seq, reason=reason, field=name)
    memories = [item.id, *item.derived_from]
    fps = [f.fingerprint for f in item.findings if f.fingerprint is not None]
    return SetAsideRow(
        kind="event",
        seq=record.seq,
        reason=reason,
        field=name,
        memory_ids=tuple(m for m in memories if projectable(m)),
        fingerprints=tuple(fp for fp in fps if projectable(fp)),
        session_id=item.session_id if projectable(item.session_id) else None,
    )
