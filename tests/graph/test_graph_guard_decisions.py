"""Guard decisions are in the graph: a `guard_decided` event of the log becomes
(Session)-[:MADE]->(Call)-[:DECIDED]->(Decision), with NAMED edges to the
memories its flow path names; the same on FalkorDB and the in-memory twin, and a
rebuild from the log gives the same."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from graph_fixtures import FalkorServer
from graph_scenarios import run

from memgate.domain import Category, Severity
from memgate.domain.ports import ReadRecord
from memgate.domain.types import Finding
from memgate.graph import FalkorBackend, FalkorConnection, GraphProjection, MemoryBackend
from memgate.graph.backend import GraphBackend
from memgate.graph.schema import load_schema
from memgate.guard.audit import decision_event
from memgate.guard.models import GuardDecision, Layer, PathStep, ToolCall, Verdict
from memgate.store.memory import MemoryStore
from tests.contracts import KEY, T0, event_for, long_item
from tests.contracts.log_contract import some_events

FP = "ab" * 8


def _denied() -> tuple[ToolCall, GuardDecision]:
    call = ToolCall(tool="http_post", input={"url": "x"}, call_id="c9", session_id="s1")
    step = PathStep(kind="read", call_id="c1", session_id="s1", fingerprint=FP)
    named = step.model_copy(update={"memory_id": "mem-0"})
    decision = GuardDecision(
        decision=Verdict.DENY,
        layer=Layer.FLOW,
        reasons=("flow: a value read from mem-0 leaves through url",),
        path=(named, step.model_copy(update={"memory_id": "no-such-memory"})),
        call_id="c9",
        tool="http_post",
        role="default",
    )
    return call, decision


def _allowed() -> tuple[ToolCall, GuardDecision]:
    call = ToolCall(tool="read_file", call_id="c2", session_id="s1")
    decision = GuardDecision(
        decision=Verdict.ALLOW, layer=Layer.MATRIX, call_id="c2", tool="read_file", role="default"
    )
    return call, decision


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _dump(server: FalkorServer, graph_name: str) -> tuple[Counter[Any], Counter[Any]]:
    """Every node and edge with its properties (the Meta node left out)."""
    nodes = server.query(
        graph_name, "MATCH (n) WHERE NOT n:Meta RETURN labels(n)[0], properties(n)"
    )
    edges = server.query(
        graph_name,
        "MATCH (a)-[e]->(b) RETURN type(e), labels(a)[0], properties(a), labels(b)[0],"
        " properties(b), properties(e)",
    )
    return (
        Counter((label, _freeze(props)) for label, props in nodes),
        Counter(tuple(_freeze(part) for part in edge) for edge in edges),
    )


async def _scenario(
    backend: GraphBackend, snapshot: Callable[[], None] = lambda: None
) -> tuple[Any, Any]:
    store = MemoryStore(KEY)
    await store.append(some_events(3))
    secret = Finding(
        rule_id="MG-SEC-013", category=Category.SECRET, severity=Severity.HIGH,
        confidence=0.9, weight=1.0, span=(0, 4), fingerprint=FP,
    )  # fmt: skip
    await store.append([event_for(long_item(id="mem-key", content="k", findings=[secret]))])
    await store.record_reads([ReadRecord(memory_id="mem-0", at=T0, session_id="s1", call_id="c1")])
    await store.append([decision_event(*_allowed(), "agent-key")])
    await store.append([decision_event(*_denied(), "agent-key")])
    graph = GraphProjection(store, backend)
    try:
        assert await graph.sync(within=10.0)
        params = {"id": "s1", "limit": 10}
        first = backend.run("decisions", params)
        snapshot()
        assert await graph.rebuild() == 6
        again = backend.run("decisions", params)
        snapshot()
        other = backend.run("decisions", {"id": "s2", "limit": 10})
        assert other == []
        return first, again
    finally:
        await graph.close()


def _check(rows: Any) -> None:
    assert [row[:5] for row in rows] == [
        [5, "c2", "read_file", "allow", "matrix"],
        [6, "c9", "http_post", "deny", "flow"],
    ]
    # the path's memory the graph has; never an invented one
    assert [sorted(row[6]) for row in rows] == [[], ["mem-0"]]


def test_decisions_in_the_twin_and_after_rebuild() -> None:
    backend = MemoryBackend()
    first, again = run(_scenario(backend))
    _check(first)
    assert again == first
    call = backend.calls["s1\x1fc9"]
    assert (call["decision"], call["layer"], call["seq"]) == ("deny", "flow", 6)
    assert backend.carried == {(6, FP): "read"}
    assert "s1\x1fc9" in backend.made["s1"]


def test_decisions_in_falkordb_and_after_rebuild(
    falkordb_server: FalkorServer, graph_name: str
) -> None:
    connection = FalkorConnection(graph_name=graph_name, url=falkordb_server.url)
    dumps: list[Any] = []
    backend = FalkorBackend(connection, load_schema())
    first, again = run(_scenario(backend, lambda: dumps.append(_dump(falkordb_server, graph_name))))
    _check(first)
    assert again == first
    # the whole graph, node by node and edge by edge, is the same after a rebuild
    assert len(dumps) == 2 and dumps[0] == dumps[1]
    edges = {kind for kind, *_ in dumps[0][1]}
    assert {"MADE", "DECIDED", "NAMED", "READ"} <= edges
    rows = falkordb_server.query(
        graph_name,
        "MATCH (s:Session {id: 's1'})-[:MADE]->(c:Call {id: $id}) "
        "RETURN c.decision, c.layer, c.seq, c.tool",
        {"id": "s1\x1fc9"},
    )
    assert [list(r) for r in rows] == [["deny", "flow", 6, "http_post"]]
    carried = falkordb_server.query(
        graph_name, "MATCH (x:Decision {seq: 6})-[e:CARRIED]->(v:Value) RETURN v.fp, e.kind"
    )
    assert [list(r) for r in carried] == [[FP, "read"]]
    # the read's call and the decision's call are separate calls of one session
    reads = falkordb_server.query(
        graph_name, "MATCH (c:Call {id: $id})-[:READ]->(m:Memory) RETURN m.id", {"id": "s1\x1fc1"}
    )
    assert [list(r) for r in reads] == [["mem-0"]]
