"""Taint edges (FLOWED_TO) on real FalkorDB: a memory written twice by the same
session within one events batch (queued, then admitted) gets one edge per memory
the session read before either write, each from the write it first followed; a
replayed batch or other batch boundaries add nothing. FalkorBackend creates the
first write's edges (project_flows) and merges the later ones (project_reflows);
the in-memory twin must agree."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from graph_fixtures import FalkorServer

from memgate.domain import Decision, Source
from memgate.domain.events import Event, LogRecord, Op
from memgate.domain.memory import MemoryItem, MemoryState, PoolName
from memgate.domain.ports import ReadRecord
from memgate.graph import FalkorConnection
from memgate.graph.falkor import FalkorBackend
from memgate.graph.memory import MemoryBackend
from memgate.graph.rows import event_batch, micros, read_batch

T0 = datetime(2026, 3, 1, tzinfo=UTC)
FLOWS = (
    "MATCH (m:Memory)-[f:FLOWED_TO]->(x:Memory) "
    "RETURN m.id, x.id, f.session, f.kind, f.call, f.read_at, f.at"
)


def _at(step: int) -> datetime:
    return T0 + timedelta(seconds=step)


def _record(seq: int, op: Op, memory_id: str, session: str, call: str, step: int) -> LogRecord:
    at = _at(step)
    state = MemoryState.PENDING_REVIEW if op is Op.QUEUED else MemoryState.APPROVED
    item = MemoryItem(
        id=memory_id,
        namespace=("t",),
        key=None,
        content=f"memory {memory_id}",
        pool=PoolName.LONG,
        state=state,
        trust_score=1.0,
        decision=Decision.APPROVE,
        source=Source.AGENT,
        session_id=session,
        call_id=call,
        created_at=_at(0),
        updated_at=at,
        scanned_at=at,
        rules_version="t",
        fingerprint=memory_id,
    )
    before = MemoryState.PENDING_REVIEW if op is Op.ADMITTED and memory_id == "x" else None
    event = Event(
        op=op,
        memory_id=memory_id,
        at=at,
        actor="t",
        state_before=before,
        state_after=state,
        item=item,
    )
    return LogRecord(seq=seq, event=event, prev_mac="0" * 64, mac=f"{seq:064x}")


# a, b, c exist; session s1 reads a, writes x (queued), reads b, x is admitted
# (a second write of x by s1), then reads c (after both writes: no edge).
RECORDS = [
    _record(1, Op.ADMITTED, "a", "seed", "w0", 1),
    _record(2, Op.ADMITTED, "b", "seed", "w0", 2),
    _record(3, Op.ADMITTED, "c", "seed", "w0", 3),
    _record(4, Op.QUEUED, "x", "s1", "w1", 5),
    _record(5, Op.ADMITTED, "x", "s1", "w2", 7),
]
READS = [
    (1, ReadRecord(memory_id="a", at=_at(4), session_id="s1", call_id="r1")),
    (2, ReadRecord(memory_id="b", at=_at(6), session_id="s1", call_id="r2")),
    (3, ReadRecord(memory_id="c", at=_at(8), session_id="s1", call_id="r3")),
]
EXPECTED = {
    ("a", "x", "s1", "session", "w1", micros(_at(4)), micros(_at(5))),
    ("b", "x", "s1", "session", "w2", micros(_at(6)), micros(_at(7))),
}


def _falkor_flows(server: FalkorServer, graph_name: str) -> list[tuple[Any, ...]]:
    return sorted(tuple(row) for row in server.query(graph_name, FLOWS))


def _project(backend: Any, splits: list[list[LogRecord]]) -> None:
    backend.ensure_schema()
    backend.apply_reads(read_batch(READS))
    for records in splits:
        backend.apply_events(event_batch(records))


def test_a_second_write_in_one_batch_adds_only_the_reads_in_between(
    falkordb_server: FalkorServer, graph_name: str
) -> None:
    connection = FalkorConnection(graph_name=graph_name, url=falkordb_server.url)
    backend = FalkorBackend(connection)
    try:
        _project(backend, [RECORDS])
        flows = _falkor_flows(falkordb_server, graph_name)
        assert len(flows) == len(EXPECTED)
        assert set(flows) == EXPECTED
        # A replayed batch (cut short by an outage) adds nothing.
        backend.apply_events(event_batch(RECORDS))
        assert _falkor_flows(falkordb_server, graph_name) == flows
        # Nor does a replay in other boundaries, each write alone.
        for record in RECORDS:
            backend.apply_events(event_batch([record]))
        assert _falkor_flows(falkordb_server, graph_name) == flows
        # Projected from scratch one record per batch: the same edges.
        connection.delete_graph()
        _project(backend, [[r] for r in RECORDS])
        assert _falkor_flows(falkordb_server, graph_name) == flows
    finally:
        backend.close()


def test_the_twin_draws_the_same_taint_edges() -> None:
    twin = MemoryBackend()
    _project(twin, [RECORDS])
    found = {
        (source, target, f["session"], f["kind"], f["call"], f["read_at"], f["at"])
        for source, edges in twin.flows.items()
        for (target, _), f in edges.items()
    }
    assert found == EXPECTED
