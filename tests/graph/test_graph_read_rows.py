"""Read-only queries are parsed from FalkorDB's compact reply by memgate
(server.FalkorConnection._read), not by the client: the same values as the
client's parser for every type a reply can hold, on the real server."""

from __future__ import annotations

import uuid

import pytest
from graph_fixtures import FalkorServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgate.errors import GraphUnavailable
from memgate.graph import FalkorConnection

MIXED = """
MATCH (n:T)-[e:R]->(m:T)
RETURN n.s, n.i, n.f, n.b, n.l, null, [n.s, [n.i, n.f], []], {k: n.s, j: [n.i]}, n, e,
       e.w, m.s
ORDER BY n.s
"""


@pytest.fixture
def conn(falkordb_server: FalkorServer) -> FalkorConnection:
    connection = FalkorConnection(
        graph_name=f"rows_{uuid.uuid4().hex[:12]}", url=falkordb_server.url
    )
    yield connection  # type: ignore[misc]
    connection.delete_graph()
    connection.close()


def client_rows(conn: FalkorConnection, cypher: str, params: dict | None = None) -> list:
    conn.connect()
    return list(conn._graph.ro_query(cypher, params or {}).result_set)


def test_every_reply_type_parses_as_the_client_parses(conn: FalkorConnection) -> None:
    conn.query(
        "CREATE (:T {s: 'a\u00e9\"\\\\', i: -3, f: 1.5, b: true, l: ['x', 2]})"
        "-[:R {w: 0.25}]->(:T {s: 'b', i: 9223372036854775807, f: -0.0, b: false, l: []})"
    )
    mine = conn.query(MIXED, read_only=True)
    assert mine == client_rows(conn, MIXED)
    assert mine[0][:6] == ['a\u00e9"\\', -3, 1.5, True, ["x", 2], None]
    assert conn.query("MATCH (n:Nope) RETURN n.s", read_only=True) == []


TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)
"""What the row builder lets through (no control characters, no lone surrogates)."""


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    values=st.lists(
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-(2**63), 2**63 - 1),
            st.integers(-(10**9), 10**9).map(lambda i: i / 8),  # exact at 15 digits
            TEXT,
            st.lists(st.one_of(st.integers(-1000, 1000), TEXT), max_size=4),
        ),
        max_size=8,
    )
)
def test_parameters_come_back_as_the_client_reads_them(
    conn: FalkorConnection, values: list
) -> None:
    conn.query("MERGE (:T {s: 'x'})")  # a graph to ask
    query = "UNWIND range(0, size($v) - 1) AS i RETURN i, $v[i]"
    params = {"v": values}
    mine = conn.query(query, params, read_only=True)
    assert mine == client_rows(conn, query, params)
    assert [row[1] for row in mine] == values


def test_a_query_error_is_raised_not_parsed(conn: FalkorConnection) -> None:
    conn.query("CREATE (:T {s: 'x'})")
    with pytest.raises(GraphUnavailable):
        conn.query("MATCH (n:T) RETURN toInteger(n.s) + [1] + $nope", {}, read_only=True)
