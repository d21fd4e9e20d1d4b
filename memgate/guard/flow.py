"""The min-cut flow decision over a call's influence network.

    source ─∞─► read call ─∞─► value ─∞─► argument ─2 (∞ if a destination)─► call ─(2n−1)─► sink

Edges of past events (a call read a value, an argument contains it) have
infinite capacity; cutting one argument (redacting it) costs 2; blocking the
call costs 2n−1 for n arguments. The max flow is then the decision: 0 allow,
2k < 2n−1 rewrite the k cut arguments, 2n−1 deny. A tainted destination
argument (`url`, `host`, `command`, ...) cannot be cut, so it means deny.

Two engines compute it, with the same answer (a property test cross-checks
them on random networks):

- `NetworkxEngine`: in memory (Edmonds-Karp), the path when there is no graph;
- `FalkorEngine`: FalkorDB's `algo.maxFlow` on a per-decision proxy subgraph.
  The engine's quirks (falkordblite 0.11.0, pinned) and how they are met:
  it takes exactly one relationship type (`relationshipTypes` with two fails:
  "should contain a single string"), so every edge is `:FLOW` with its role in
  a property; two edges between the same nodes *anywhere* in that type fail
  the call ("must not contain multi-edges (tensors)"), so each decision builds
  its own `:GuardFlow` proxy nodes (keyed by decision id, carrying the real
  node's id in `ref`) in a graph of their own, and removes them after; an
  absent relationship type is an error, not 0, so an empty network is decided
  without asking; capacities must span less than 2^32 ("capacity range too
  wide (max >= min * 2^32)"; beyond 2^53 they also lose precision) and its
  time grows with the largest (capacity scaling: 25 ms at 2^31, 6 ms at 16 on
  a six-node network), so "infinite" is the network's finite capacities'
  sum plus one (any flow reaching it crossed an infinite edge; the minimum
  cuts are the same), and zero-capacity edges (which carry nothing) are left
  out; the
  answer names the edges that carry flow, not the cut, so the cut is the set
  of nodes reachable from the source in the residual network, computed here
  from the flows (the same set for every maximum flow, so both engines agree).
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
import uuid
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import networkx as nx
from networkx.algorithms.flow import edmonds_karp

if TYPE_CHECKING:
    from memgate.graph.server import FalkorConnection

log = logging.getLogger(__name__)
INFINITE = float("inf")
INFINITE_CAPACITY = 1 << 31
"""The largest stand-in for infinity in FalkorDB: below 2^32 times the smallest
capacity (1), the widest range `algo.maxFlow` takes. Each network uses the
smallest that works: its finite capacities' sum plus one (a flow that reaches
it can only have crossed an infinite edge)."""
SOURCE, SINK, CALL = ("s",), ("t",), ("call",)
Node = tuple[str, ...]
Edge = tuple[Node, Node, float, str]
"""from, to, capacity, role (read, value, arg, call)."""


@dataclass(frozen=True, slots=True)
class Cut:
    value: float
    block_cost: int
    cut_args: tuple[str, ...]
    """Arguments whose edge the minimum cut takes (to redact)."""
    blocked: bool
    engine: str = "networkx"
    """Which engine cut it (`falkordb`, or `networkx`: no graph, or it failed)."""


def network(
    arguments: Iterable[str],
    tainted: Mapping[str, Iterable[tuple[str, str]]],
    destinations: frozenset[str],
) -> tuple[list[str], int, list[Edge]]:
    """(argument names, block cost, edges) of a call's influence network.
    `tainted`: argument -> (read call id, value fingerprint) pairs reaching it."""
    names = sorted(set(arguments))
    block = 2 * len(names) - 1
    edges: dict[tuple[Node, Node], Edge] = {}

    def add(a: Node, b: Node, capacity: float, role: str) -> None:
        edges.setdefault((a, b), (a, b, capacity, role))

    add(CALL, SINK, block, "call")
    for name in names:
        capacity = INFINITE if name.lower() in destinations else 2
        add(("arg", name), CALL, capacity, "arg")
    for name, sources in tainted.items():
        for read_call, value_fp in sources:
            add(SOURCE, ("read", read_call), INFINITE, "source")
            add(("read", read_call), ("value", value_fp), INFINITE, "read")
            add(("value", value_fp), ("arg", name), INFINITE, "value")
    return names, block, list(edges.values())


def _cut(names: list[str], block: int, value: float, reachable: set[Node]) -> Cut:
    blocked = CALL in reachable
    cut = () if blocked else tuple(a for a in names if ("arg", a) in reachable)
    return Cut(float(value), block, cut, blocked)


class FlowEngine(Protocol):
    """Computes the minimum cut of a call's influence network."""

    name: str

    def decide(
        self,
        arguments: Iterable[str],
        tainted: Mapping[str, Iterable[tuple[str, str]]],
        destinations: frozenset[str],
    ) -> Cut: ...


class NetworkxEngine:
    """In memory: networkx's Edmonds-Karp."""

    name = "networkx"

    def decide(
        self,
        arguments: Iterable[str],
        tainted: Mapping[str, Iterable[tuple[str, str]]],
        destinations: frozenset[str],
    ) -> Cut:
        names, block, edges = network(arguments, tainted, destinations)
        if not any(a == SOURCE for a, _, _, _ in edges):
            return Cut(0.0, block, (), False)
        graph: nx.DiGraph[Node] = nx.DiGraph()
        for a, b, capacity, _ in edges:
            graph.add_edge(a, b, capacity=capacity)
        # minimum_cut's source side is the largest one (nodes that cannot reach
        # the sink), not solve()'s smallest; on an influence network both give
        # the same decision (a tainted argument's edge is saturated, an untainted
        # one reaches the sink through the call unless the call is blocked), and
        # this is the faster path: about half the time of maximum_flow plus a walk.
        value, (reachable, _) = nx.minimum_cut(graph, SOURCE, SINK, flow_func=edmonds_karp)
        return _cut(names, block, float(value), set(reachable))

    def solve(self, edges: list[Edge]) -> tuple[float, set[Node]]:
        """(max flow, source side of the minimum cut: the nodes reachable from
        SOURCE in the residual network) from SOURCE to SINK."""
        graph: nx.DiGraph[Node] = nx.DiGraph()
        graph.add_nodes_from((SOURCE, SINK))
        for a, b, capacity, _ in edges:
            graph.add_edge(a, b, capacity=capacity)
        # Edmonds-Karp: on these small networks (a handful of arguments and reads)
        # about twice as fast as networkx's default preflow-push.
        value, flows = nx.maximum_flow(graph, SOURCE, SINK, flow_func=edmonds_karp)
        rows = [[_key(a), _key(b), role, cap] for a, b, cap, role in edges]
        flow = {(_key(a), _key(b)): float(f) for a, out in flows.items() for b, f in out.items()}
        by_key = {_key(n): n for n in graph}
        return float(value), {by_key[k] for k in _residual_reachable(rows, flow)}


class ClosedFormEngine:
    """The exact minimum cut of an influence network, without a max-flow solver.

    Every path from the source to the sink crosses a tainted argument's edge and
    then the call's edge (all other edges are infinite), so there are exactly two
    candidate minimum cuts: the tainted arguments' edges (2 each, infinite for a
    destination) or the call's (2n−1). Their costs never tie (even against odd),
    so the cheaper one is the only minimum cut, the one networkx's Edmonds-Karp
    and FalkorDB's algo.maxFlow find (a property test cross-checks all three).
    About a microsecond against networkx's 0.1-0.3 ms: the shipped default."""

    name = "closed"

    def decide(
        self,
        arguments: Iterable[str],
        tainted: Mapping[str, Iterable[tuple[str, str]]],
        destinations: frozenset[str],
    ) -> Cut:
        names = set(arguments)
        block = 2 * len(names) - 1
        hit = sorted(
            a for a, sources in tainted.items() if a in names and any(True for _ in sources)
        )
        if not hit:
            return Cut(0.0, block, (), False, self.name)
        cost = sum(INFINITE if a.lower() in destinations else 2 for a in hit)
        if cost > block:
            return Cut(float(block), block, (), True, self.name)
        return Cut(float(cost), block, tuple(hit), False, self.name)


def decide_flow(
    arguments: Iterable[str],
    tainted: Mapping[str, Iterable[tuple[str, str]]],
    destinations: frozenset[str],
) -> Cut:
    """The decision in memory (networkx)."""
    return NetworkxEngine().decide(arguments, tainted, destinations)


_BUILD = "UNWIND $nodes AS n CREATE (:GuardFlow {d: $d, k: n[0], ref: n[1]})"
_LINK = (
    "UNWIND $edges AS e"
    " MATCH (a:GuardFlow {d: $d, k: e[0]}), (b:GuardFlow {d: $d, k: e[1]})"
    " CREATE (a)-[:FLOW {d: $d, role: e[2], cap: e[3]}]->(b)"
)
_MAXFLOW = (
    "MATCH (s:GuardFlow {d: $d, k: 's'}), (t:GuardFlow {d: $d, k: 't'})"
    " CALL algo.maxFlow({sourceNodes: [s], targetNodes: [t], capacityProperty: 'cap',"
    " nodeLabels: ['GuardFlow'], relationshipTypes: ['FLOW']})"
    " YIELD edges, edgeFlows, maxFlow"
    " RETURN maxFlow, [e IN edges | [startNode(e).k, endNode(e).k]], edgeFlows"
)
_DROP = "MATCH (n:GuardFlow {d: $d}) DELETE n"
_INDEX = "CREATE INDEX FOR (n:GuardFlow) ON (n.d)"


def _key(node: Node) -> str:
    return "\x1f".join(node)


class FalkorEngine:
    """FalkorDB's `algo.maxFlow` on a per-decision proxy subgraph (see the module
    docstring for the engine's quirks). `connect` gives the connection to a graph
    of the guard's own (never the provenance projection: its rebuild drops the
    graph, and its edges are no business of the flow).

    With `fallback` (the default), a decision FalkorDB cannot make (down, not
    started yet) is made by networkx instead, the same computation, and says so
    in `Cut.engine`; without it the error propagates."""

    name = "falkordb"

    def __init__(self, connect: Callable[[], FalkorConnection], *, fallback: bool = True) -> None:
        self._connect = connect
        self._connection: FalkorConnection | None = None
        self._lock = threading.Lock()
        self._fallback = NetworkxEngine() if fallback else None

    def _conn(self) -> FalkorConnection:
        if self._connection is None:
            connection = self._connect()
            try:
                connection.query(_INDEX)
            except Exception as exc:
                if "already indexed" not in str(exc).lower():
                    raise
            self._connection = connection
        return self._connection

    def decide(
        self,
        arguments: Iterable[str],
        tainted: Mapping[str, Iterable[tuple[str, str]]],
        destinations: frozenset[str],
    ) -> Cut:
        names, block, edges = network(arguments, tainted, destinations)
        if not any(a == SOURCE for a, _, _, _ in edges):
            return Cut(0.0, block, (), False, self.name)
        try:
            return self._decide(names, block, edges)
        except Exception as exc:
            if self._fallback is None:
                raise
            log.warning("guard: FalkorDB max flow failed (%s); networkx decides", exc)
            with self._lock:
                self._drop_connection()
            return self._fallback.decide(arguments, tainted, destinations)

    def _decide(self, names: list[str], block: int, edges: list[Edge]) -> Cut:
        value, reachable = self.solve(edges)
        cut = _cut(names, block, value, reachable)
        return Cut(cut.value, cut.block_cost, cut.cut_args, cut.blocked, self.name)

    def solve(self, edges: list[Edge]) -> tuple[float, set[Node]]:
        """(max flow, source side of the minimum cut) of a network from SOURCE to
        SINK, computed by `algo.maxFlow` (no fallback: errors propagate)."""
        nodes = sorted({n for a, b, _, _ in edges for n in (a, b)} | {SOURCE, SINK})
        # "Infinite" only has to exceed every finite cut: the sum of the finite
        # capacities, plus one. Kept small, since algo.maxFlow scales capacities
        # (about log2 of the largest in phases: 2^31 took 25 ms, 16 took 6 ms).
        finite = sum(cap for _, _, cap, _ in edges if cap != INFINITE)
        infinite = min(INFINITE_CAPACITY, _number(math.floor(finite)) + 1)
        rows = [
            [_key(a), _key(b), role, infinite if cap == INFINITE else _number(cap)]
            for a, b, cap, role in edges
            if cap > 0
        ]
        d = uuid.uuid4().hex
        with self._lock:
            conn = self._conn()
            try:
                conn.query(_BUILD, {"d": d, "nodes": [[_key(n), n[-1]] for n in nodes]})
                conn.query(_LINK, {"d": d, "edges": rows})
                answer = conn.query(_MAXFLOW, {"d": d})
            finally:
                conn.query(_DROP, {"d": d})
        value, pairs, flows = answer[0]
        flow = {(str(p[0]), str(p[1])): float(f) for p, f in zip(pairs, flows, strict=True)}
        reachable = _residual_reachable(rows, flow)
        by_key = {_key(n): n for n in nodes}
        total = INFINITE if float(value) >= infinite else float(value)
        return total, {by_key[k] for k in reachable if k in by_key}

    def _drop_connection(self) -> None:
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.close(shutdown=False)
            self._connection = None

    def close(self) -> None:
        with self._lock:
            self._drop_connection()


def graph_connection(graph: object) -> FalkorConnection | None:
    """The FalkorDB connection behind a gateway's provenance graph, if it has one
    (None: no graph, or the in-memory twin)."""
    from memgate.graph.server import FalkorConnection

    connection = getattr(getattr(graph, "backend", None), "connection", None)
    return connection if isinstance(connection, FalkorConnection) else None


def flow_engine(choice: str, connection: FalkorConnection | None) -> FlowEngine:
    """The engine the policy's `[flow] engine` names: `closed` (the default) or
    `networkx` in memory; `falkordb` or `auto` on the FalkorDB server `connection`
    reaches (the provenance graph's), in a graph of the guard's own beside it
    (`<name>_guard`); `auto` without a graph is `closed`. Raises ValueError for
    `falkordb` without a graph."""
    if choice == "closed" or (choice == "auto" and connection is None):
        return ClosedFormEngine()
    if choice == "networkx":
        return NetworkxEngine()
    if connection is None:
        raise ValueError("[flow] engine = 'falkordb' needs a graph (the service runs without)")
    graph = connection

    def connect() -> FalkorConnection:
        from memgate.graph.server import FalkorConnection

        url = graph.url
        if url is None:
            if not graph.socket_path:
                graph.connect()  # the embedded server: started by whoever comes first
            url = f"unix://{graph.socket_path}"
        return FalkorConnection(graph_name=f"{graph.graph_name}_guard", url=url)

    return FalkorEngine(connect)


def _number(capacity: float) -> int | float:
    return int(capacity) if float(capacity).is_integer() else float(capacity)


def _residual_reachable(
    rows: Sequence[Sequence[object]], flow: Mapping[tuple[str, str], float]
) -> set[str]:
    """Nodes reachable from the source in the residual network of a max flow."""
    residual: dict[str, list[str]] = defaultdict(list)
    for a, b, _, cap in rows:
        key = (str(a), str(b))
        used = flow.get(key, 0.0)
        if used < float(cap):  # type: ignore[arg-type]
            residual[key[0]].append(key[1])
        if used > 0:
            residual[key[1]].append(key[0])
    start = _key(SOURCE)
    seen = {start}
    todo = deque([start])
    while todo:
        for nxt in residual[todo.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen
