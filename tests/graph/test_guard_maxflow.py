"""The guard's min cut in FalkorDB (`algo.maxFlow` on the embedded falkordblite
engine, pinned) cross-checked against networkx: on random networks (max-flow
value and the source side of the minimum cut) and on random influence networks
of tool calls (the decision: allow, rewrite which arguments, deny). Also the
engine's quirks this relies on, so an engine upgrade that changes them fails
here first."""

from __future__ import annotations

from collections.abc import Iterator

import networkx as nx
import pytest
from graph_fixtures import FalkorServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgate.graph import FalkorConnection
from memgate.graph.server import GraphRefused
from memgate.guard.flow import (
    INFINITE,
    SINK,
    SOURCE,
    Edge,
    FalkorEngine,
    NetworkxEngine,
    Node,
)

FEW = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture
def engine(falkordb_server: FalkorServer, graph_name: str) -> Iterator[FalkorEngine]:
    falkor = FalkorEngine(
        lambda: FalkorConnection(graph_name=graph_name, url=falkordb_server.url), fallback=False
    )
    yield falkor
    falkor.close()


@st.composite
def networks(draw: st.DrawFn) -> list[Edge]:
    size = draw(st.integers(min_value=1, max_value=7))
    inner: list[Node] = [("n", str(i)) for i in range(size)]
    nodes = [SOURCE, *inner, SINK]
    pairs = draw(
        st.sets(
            st.tuples(st.sampled_from(nodes[:-1]), st.sampled_from(nodes[1:])).filter(
                lambda p: p[0] != p[1]
            ),
            max_size=20,
        )
    )
    capacity = st.one_of(st.integers(min_value=0, max_value=9), st.just(INFINITE))
    return [(a, b, draw(capacity), "edge") for a, b in sorted(pairs)]


@FEW
@given(edges=networks())
def test_falkordb_max_flow_equals_networkx_on_random_networks(
    engine: FalkorEngine, edges: list[Edge]
) -> None:
    if all(c == 0 for _, _, c, _ in edges):
        # no carrying edge: 0, or (on a graph that never had a :FLOW edge) the
        # engine's "unknown relationship-type" refusal, which decide() never meets
        try:
            assert engine.solve(edges) == (0.0, {SOURCE})
        except GraphRefused as exc:
            assert "unknown relationship-type" in str(exc)  # noqa: PT017
        return
    got = engine.solve(edges)
    try:
        expected = NetworkxEngine().solve(edges)
    except nx.NetworkXUnbounded:
        assert got[0] == INFINITE  # a path of infinite edges only
        return
    assert got[0] == expected[0]
    assert got[1] == expected[1]  # the same minimal source side, for any max flow


@st.composite
def calls(draw: st.DrawFn) -> tuple[list[str], dict[str, list[tuple[str, str]]], frozenset[str]]:
    n = draw(st.integers(min_value=1, max_value=6))
    names = [f"a{i}" for i in range(n)]
    reads = [f"read-{i}" for i in range(draw(st.integers(1, 3)))]
    values = [f"fp-{i}" for i in range(draw(st.integers(1, 3)))]
    tainted: dict[str, list[tuple[str, str]]] = {}
    for name in draw(st.sets(st.sampled_from(names))):
        tainted[name] = draw(
            st.lists(
                st.tuples(st.sampled_from(reads), st.sampled_from(values)), min_size=1, max_size=3
            )
        )
    destinations = frozenset(draw(st.sets(st.sampled_from(names))))
    return names, tainted, destinations


@FEW
@given(call=calls())
def test_falkordb_decisions_equal_networkx(
    engine: FalkorEngine, call: tuple[list[str], dict[str, list[tuple[str, str]]], frozenset[str]]
) -> None:
    names, tainted, destinations = call
    expected = NetworkxEngine().decide(names, tainted, destinations)
    got = engine.decide(names, tainted, destinations)
    assert (got.value, got.blocked, got.cut_args, got.block_cost) == (
        expected.value,
        expected.blocked,
        expected.cut_args,
        expected.block_cost,
    )
    assert got.engine == "falkordb" and expected.engine == "networkx"


def test_the_engine_quirks_the_guard_handles(
    falkordb_server: FalkorServer, graph_name: str
) -> None:
    """One relationship type only; parallel edges anywhere in it fail the call."""
    conn = FalkorConnection(graph_name=graph_name, url=falkordb_server.url)
    try:
        conn.query(
            "CREATE (a:Q {k: 'a'}), (b:Q {k: 'b'}), (a)-[:P {cap: 3}]->(b),"
            " (a)-[:R {cap: 1}]->(b), (x:Q {k: 'x'}), (y:Q {k: 'y'}),"
            " (x)-[:P {cap: 1}]->(y), (x)-[:P {cap: 1}]->(y)"
        )
        run = (
            "MATCH (s:Q {k: 'a'}), (t:Q {k: 'b'}) CALL algo.maxFlow({sourceNodes: [s],"
            " targetNodes: [t], capacityProperty: 'cap', relationshipTypes: $types})"
            " YIELD maxFlow RETURN maxFlow"
        )
        with pytest.raises(GraphRefused, match="single string"):
            conn.query(run, {"types": ["P", "R"]})
        with pytest.raises(GraphRefused, match="multi-edges"):
            conn.query(run, {"types": ["P"]})  # the parallel pair is elsewhere
        assert conn.query(run, {"types": ["R"]}) == [[1.0]]
    finally:
        conn.close(shutdown=False)


def test_proxy_nodes_are_removed_after_each_decision(
    engine: FalkorEngine, falkordb_server: FalkorServer, graph_name: str
) -> None:
    cut = engine.decide(["record", "txt", "ttl"], {"txt": [("read-1", "fp-1")]}, frozenset())
    assert (cut.value, cut.cut_args, cut.blocked) == (2.0, ("txt",), False)
    left = falkordb_server.query(graph_name, "MATCH (n:GuardFlow) RETURN count(n)")
    assert left == [[0]]


def test_without_falkordb_networkx_decides(tmp_path: object) -> None:
    def unreachable() -> FalkorConnection:
        return FalkorConnection(graph_name="g", url="unix:///nonexistent/falkordb.sock")

    falkor = FalkorEngine(unreachable)
    cut = falkor.decide(["url", "body"], {"body": [("r", "v")]}, frozenset({"url"}))
    assert (cut.value, cut.cut_args, cut.engine) == (2.0, ("body",), "networkx")
