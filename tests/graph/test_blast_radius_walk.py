"""The bounded blast radius walk (one query per level) answers what a full
enumeration answers on graphs small enough to enumerate: every memory within
`depth` FLOWED_TO hops, at its shortest distance (networkx as the reference, and
the variable-length Cypher match the walk replaced, on the same FalkorDB graph),
with a real shortest path as evidence; cut by its caps it lists a prefix of the
full answer and says `truncated`. Real FalkorDB and the in-memory twin."""

from __future__ import annotations

import uuid
from typing import Any

import networkx as nx
from graph_fixtures import FalkorServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgate.domain.graph import ImpactRow
from memgate.graph import FalkorConnection, MemoryBackend
from memgate.graph.investigate import PACKED, Walk, walk
from memgate.graph.schema import load_schema

Edge = tuple[int, int, str]
"""(from memory, to memory, session; '' for a DERIVED_FROM flow)."""

# The template the walk replaced (a variable-length match, then the edges among
# what it reached): the reference for "the same answer as before".
OLD_TEMPLATE = """
UNWIND $ids AS id
MATCH (m:Memory {id: id})
OPTIONAL MATCH (m)-[:FLOWED_TO*1..DEPTH]->(x:Memory)
WITH m, collect(DISTINCT x) AS xs
RETURN m.id, [n IN xs | n.id]
"""


def mid(n: int) -> str:
    return f"m{n}"


graphs = st.tuples(
    st.integers(min_value=1, max_value=9),
    st.lists(
        st.tuples(
            st.integers(0, 8),
            st.integers(0, 8),
            st.sampled_from(["", "s1", "s2", "s3"]),
        ),
        max_size=30,
    ),
).map(lambda g: (g[0], sorted({(a, b, s) for a, b, s in g[1] if a < g[0] and b < g[0] and a != b})))


class Falkor:
    """A throwaway graph on the shared test server holding exactly `edges`."""

    def __init__(self, server: FalkorServer, nodes: int, edges: list[Edge]) -> None:
        self.conn = FalkorConnection(graph_name=f"walk_{uuid.uuid4().hex[:12]}", url=server.url)
        memories = [
            {"id": mid(n), "ns": ["t", str(n % 2)], "state": "approved"} for n in range(nodes)
        ]
        self.conn.query("CREATE INDEX FOR (n:Memory) ON (n.id)")
        self.conn.query(
            "UNWIND $rows AS r CREATE (:Memory {id: r.id, ns: r.ns, state: r.state})",
            {"rows": memories},
        )
        flows = [
            {"a": mid(a), "b": mid(b), "s": s, "c": f"c-{s}-{b}" if s else None}
            for a, b, s in edges
        ]
        self.conn.query(
            "UNWIND $rows AS r MATCH (a:Memory {id: r.a}), (b:Memory {id: r.b})"
            " CREATE (a)-[:FLOWED_TO {session: r.s, call: r.c}]->(b)",
            {"rows": flows},
        )

    def step(self, ids: list[str], limit: int) -> Any:
        params = {"ids": ids, "limit": limit, **PACKED}
        return self.conn.query(load_schema().blast_radius(1), params, read_only=True)

    def known(self, ids: list[str]) -> set[str]:
        rows = self.conn.query(load_schema().queries["known"], {"ids": ids}, read_only=True)
        return {str(r[0]) for r in rows}

    def describe(self, ids: list[str]) -> Any:
        query = load_schema().queries["blast_memories"]
        return self.conn.query(query, {"ids": ids, **PACKED}, read_only=True)

    def last(self, ids: list[str], limit: int, described: list[str]) -> Any:
        query = load_schema().queries["blast_last"]
        params = {"ids": ids, "limit": limit, "described": described, **PACKED}
        return self.conn.query(query, params, read_only=True)

    def old(self, subject: str, depth: int) -> set[str]:
        rows = self.conn.query(OLD_TEMPLATE.replace("DEPTH", str(depth)), {"ids": [subject]})
        return {str(x) for row in rows for x in row[1]} - {subject}

    def close(self) -> None:
        self.conn.delete_graph()
        self.conn.close()


def twin(nodes: int, edges: list[Edge]) -> MemoryBackend:
    """The twin holding exactly `edges` (set as its projection would have)."""
    backend = MemoryBackend()
    for n in range(nodes):
        backend.memories[mid(n)] = {"id": mid(n), "ns": ["t", str(n % 2)], "state": "approved"}
    for a, b, s in edges:
        backend.flows[mid(a)][(mid(b), s)] = {"session": s, "call": f"c-{s}-{b}" if s else None}
    return backend


def twin_walk(
    backend: MemoryBackend, subjects: list[str], depth: int, limit: int, **kw: Any
) -> Walk:
    """The walk on the twin, as the projector runs it (the last level describes
    the memories kept), checked against the walk that describes them in a
    query of its own."""

    def last(ids: list[str], most: int, described: list[str]) -> Any:
        params = {"ids": ids, "limit": most, "described": described, **PACKED}
        return backend.run("blast_last", params)

    args = (
        lambda ids, most: backend.run("blast_radius", {"ids": ids, "limit": most, **PACKED}),
        lambda ids: {str(r[0]) for r in backend.run("known", {"ids": ids})},
        lambda ids: backend.run("blast_memories", {"ids": ids, **PACKED}),
        subjects,
        depth,
        limit,
    )
    found = walk(*args, **kw, last=last)
    assert found == walk(*args, **kw)
    return found


def reference(nodes: int, edges: list[Edge], subject: int, depth: int) -> dict[str, int]:
    graph = nx.MultiDiGraph()
    graph.add_nodes_from(range(nodes))
    graph.add_edges_from((a, b) for a, b, _ in edges)
    lengths = nx.single_source_shortest_path_length(graph, subject, cutoff=depth)
    return {mid(n): d for n, d in lengths.items() if n != subject}


def bfs(edges: list[Edge], subject: int, depth: int) -> dict[str, int]:
    """Plain breadth first over the same edges: memory -> shortest distance."""
    out: dict[int, set[int]] = {}
    for a, b, _ in edges:
        out.setdefault(a, set()).add(b)
    dist, frontier = {subject: 0}, [subject]
    for level in range(1, depth + 1):
        nxt = []
        for node in frontier:
            for target in sorted(out.get(node, ())):
                if target not in dist:
                    dist[target] = level
                    nxt.append(target)
        frontier = nxt
    return {mid(n): d for n, d in dist.items() if n != subject}


def check_paths(rows: list[ImpactRow], edges: list[Edge], subject: str) -> None:
    """Each row's evidence is a path of real edges from the subject, as long as its depth."""
    flows = {(mid(a), mid(b), s) for a, b, s in edges}
    for row in rows:
        memories: list[str] = []
        session = ""
        hops = 0
        for part in row.path:
            kind, _, ident = part.partition(":")
            if kind == "session":
                session = ident
            elif kind == "memory":
                if memories:
                    assert (memories[-1], ident, session) in flows, (row, part)
                    hops += 1
                memories.append(ident)
                session = ""
        assert memories[0] == subject and memories[-1] == row.memory_id
        assert hops == row.depth
        assert row.namespace == ("t", str(int(row.memory_id[1:]) % 2))
        if row.session_id is not None:
            assert row.path[-3] == f"session:{row.session_id}"
            assert row.call_id == f"c-{row.session_id}-{row.memory_id[1:]}"


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(graph=graphs, depth=st.integers(1, 6), subject=st.integers(0, 8))
def test_walk_equals_full_enumeration_on_falkordb(
    falkordb_server: FalkorServer, graph: tuple[int, list[Edge]], depth: int, subject: int
) -> None:
    nodes, edges = graph
    subject %= nodes
    g = Falkor(falkordb_server, nodes, edges)
    try:
        found = walk(g.step, g.known, g.describe, [mid(subject)], depth, 1000, last=g.last)
        assert found == walk(g.step, g.known, g.describe, [mid(subject)], depth, 1000)
        want = reference(nodes, edges, subject, depth)
        assert want == bfs(edges, subject, depth)
        assert {r.memory_id: r.depth for r in found.impact} == want
        assert set(want) == g.old(mid(subject), depth)  # as the replaced template
        assert found.known == {mid(subject)} and not found.truncated
        assert [(r.depth, r.memory_id) for r in found.impact] == sorted(
            (d, m) for m, d in want.items()
        )
        check_paths(found.impact, edges, mid(subject))
        assert found == twin_walk(twin(nodes, edges), [mid(subject)], depth, 1000)
    finally:
        g.close()


@settings(max_examples=150, deadline=None)
@given(graph=graphs, depth=st.integers(1, 6), subject=st.integers(0, 8), limit=st.integers(0, 6))
def test_a_cut_walk_lists_the_first_of_the_full_answer_and_says_so(
    graph: tuple[int, list[Edge]], depth: int, subject: int, limit: int
) -> None:
    nodes, edges = graph
    subject %= nodes
    backend = twin(nodes, edges)
    full = twin_walk(backend, [mid(subject)], depth, 1000)
    cut = twin_walk(backend, [mid(subject)], depth, limit)
    assert [(r.memory_id, r.depth) for r in cut.impact] == [
        (r.memory_id, r.depth) for r in full.impact[:limit]
    ]
    assert cut.truncated == (len(full.impact) > limit)
    check_paths(cut.impact, edges, mid(subject))


@settings(max_examples=100, deadline=None)
@given(
    graph=graphs, depth=st.integers(1, 4), subject=st.integers(0, 8), edges_cap=st.integers(0, 4)
)
def test_an_edge_cap_is_honest(
    graph: tuple[int, list[Edge]], depth: int, subject: int, edges_cap: int
) -> None:
    """Past the per-level edge cap the walk says truncated; what it lists is true."""
    nodes, edges = graph
    subject %= nodes
    backend = twin(nodes, edges)
    full = {r.memory_id: r.depth for r in twin_walk(backend, [mid(subject)], depth, 1000).impact}
    cut = twin_walk(backend, [mid(subject)], depth, 1000, level_edges=edges_cap)
    listed = {r.memory_id: r.depth for r in cut.impact}
    assert listed.keys() <= full.keys()
    assert all(listed[m] >= full[m] for m in listed)
    if listed != full:
        assert cut.truncated
    check_paths(cut.impact, edges, mid(subject))


@settings(max_examples=100, deadline=None)
@given(
    graph=graphs,
    depth=st.integers(1, 6),
    subjects=st.lists(st.integers(0, 8), min_size=1, max_size=3),
)
def test_several_subjects_list_each_memory_at_its_smallest_depth(
    graph: tuple[int, list[Edge]], depth: int, subjects: list[int]
) -> None:
    nodes, edges = graph
    chosen = list(dict.fromkeys(s % nodes for s in subjects))
    found = twin_walk(twin(nodes, edges), [mid(s) for s in chosen], depth, 1000)
    want: dict[str, int] = {}
    for s in chosen:
        for m, d in reference(nodes, edges, s, depth).items():
            want[m] = min(d, want.get(m, d))
    assert {r.memory_id: r.depth for r in found.impact} == want
    assert found.known == {mid(s) for s in chosen}


def test_unknown_subjects_are_not_known() -> None:
    found = twin_walk(twin(2, [(0, 1, "s1")]), ["m0", "nope"], 3, 1000)
    assert found.known == {"m0"}
    assert [r.memory_id for r in found.impact] == ["m1"]


def rule_walk(
    nodes: int, edges: list[Edge], subjects: list[int], depth: int, limit: int
) -> tuple[list[ImpactRow], bool]:
    """The walk's answer computed in plain Python from the edge list, by the
    rule the walk has always followed (before its replies were packed too):
    per subject and level, each new memory is reached from the first frontier
    memory (frontiers in id order) that has an edge to it, by that memory's
    least edge by (session, call); at most `limit` per subject, the new ones in
    id order; a memory reached by several subjects listed once, at its smallest
    depth, from the first subject that reaches it there."""
    out: dict[str, list[tuple[str, str, str | None]]] = {}
    for a, b, s in edges:
        out.setdefault(mid(a), []).append((mid(b), s, f"c-{s}-{b}" if s else None))
    for flows in out.values():
        flows.sort(key=lambda e: (e[0], e[1], e[2] or ""))
    order = list(dict.fromkeys(mid(s) for s in subjects))
    paths = {s: {s: (f"memory:{s}",)} for s in order}
    frontiers = {s: [s] for s in order}
    best: dict[str, ImpactRow] = {}
    truncated = False
    for level in range(1, depth + 1):
        for subject in order:
            path_to, found = paths[subject], {}
            for node in frontiers[subject]:
                for target, session, call in out.get(node, ()):
                    if target not in path_to and target not in found:
                        found[target] = (node, session, call)
            room = limit - (len(path_to) - 1)
            kept = sorted(found)
            truncated |= len(kept) > room
            kept = kept[: max(room, 0)]
            for target in kept:
                node, session, call = found[target]
                hop = (f"session:{session}", f"call:{call}") if session else ()
                path_to[target] = (*path_to[node], *hop, f"memory:{target}")
                if target not in best or best[target].depth > level:
                    n = int(target[1:])
                    best[target] = ImpactRow(
                        memory_id=target,
                        namespace=("t", str(n % 2)),
                        state="approved",
                        depth=level,
                        session_id=session or None,
                        call_id=call if session else None,
                        path=path_to[target],
                    )
            frontiers[subject] = kept
    return sorted(best.values(), key=lambda r: (r.depth, r.memory_id)), truncated


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    graph=graphs,
    depth=st.integers(1, 6),
    subjects=st.lists(st.integers(0, 8), min_size=1, max_size=3),
    limit=st.sampled_from([0, 1, 2, 3, 5, 1000]),
)
def test_packed_walk_answers_row_for_row_what_the_rule_says(
    falkordb_server: FalkorServer,
    graph: tuple[int, list[Edge]],
    depth: int,
    subjects: list[int],
    limit: int,
) -> None:
    """Whole answers, not only distances: every row (memory, depth, session,
    call, namespace, state, path) and the truncated flag equal the rule's, on
    real FalkorDB and on the twin, whole or cut by the per-subject cap, for one
    subject or several."""
    nodes, edges = graph
    chosen = [s % nodes for s in subjects]
    want, cut = rule_walk(nodes, edges, chosen, depth, limit)
    ids = [mid(s) for s in chosen]
    g = Falkor(falkordb_server, nodes, edges)
    try:
        found = walk(g.step, g.known, g.describe, ids, depth, limit, last=g.last)
        assert walk(g.step, g.known, g.describe, ids, depth, limit) == found
    finally:
        g.close()
    assert found.impact == want
    assert found.truncated == cut
    assert found.known == set(ids)
    assert twin_walk(twin(nodes, edges), ids, depth, limit) == found


def test_packed_replies_keep_nulls_and_empty_strings_apart() -> None:
    """A null session or call is not an empty one, on the way back from a
    packed reply; an edge without a call keeps its session as the hop."""
    backend = twin(3, [])
    backend.flows["m0"][("m1", "s1")] = {"session": "s1", "call": None}
    backend.flows["m0"][("m2", "")] = {"session": "", "call": "c-x"}
    backend.memories["m2"]["state"] = None
    found = twin_walk(backend, ["m0"], 1, 1000)
    assert [(r.memory_id, r.session_id, r.call_id, r.path, r.state) for r in found.impact] == [
        ("m1", "s1", None, ("memory:m0", "session:s1", "memory:m1"), "approved"),
        ("m2", None, None, ("memory:m0", "memory:m2"), None),
    ]


def test_the_collector_pause_overlaps_and_restores() -> None:
    """Two walks on the projector's two reader threads overlap: the collector
    stays off until the last one ends, then is on again; off before, it stays off."""
    import gc
    import threading

    from memgate.graph.investigate import collector_paused

    assert gc.isenabled()
    inside, release = threading.Event(), threading.Event()
    seen: list[bool] = []

    def other() -> None:
        with collector_paused():
            inside.set()
            release.wait(5)
            seen.append(gc.isenabled())

    thread = threading.Thread(target=other)
    try:
        with collector_paused():
            thread.start()
            assert inside.wait(5)
            assert not gc.isenabled()
        assert not gc.isenabled()  # the other walk still runs
        release.set()
        thread.join(5)
        assert seen == [False]
        assert gc.isenabled()
        gc.disable()
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        release.set()
        gc.enable()
