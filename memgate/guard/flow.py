"""The min-cut flow decision over a call's influence network (networkx).

    source ─∞─► read call ─∞─► value ─∞─► argument ─2 (∞ if a destination)─► call ─(2n−1)─► sink

Edges of past events (a call read a value, an argument contains it) have
infinite capacity; cutting one argument (redacting it) costs 2; blocking the
call costs 2n−1 for n arguments. The max flow is then the decision: 0 allow,
2k < 2n−1 rewrite the k cut arguments, 2n−1 deny. A tainted destination
argument (`url`, `host`, `command`, ...) cannot be cut, so it means deny.

NOTE: FalkorDB's `algo.maxFlow` over the graph's `:FLOW` edges is the intended
engine once the projection records calls and values; this module is the same
computation in memory, and will remain as the independent check.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import networkx as nx
from networkx.algorithms.flow import edmonds_karp

INFINITE = float("inf")
SOURCE, SINK, CALL = ("s",), ("t",), ("call",)


@dataclass(frozen=True, slots=True)
class Cut:
    value: float
    block_cost: int
    cut_args: tuple[str, ...]
    """Arguments whose edge the minimum cut takes (to redact)."""
    blocked: bool


def decide_flow(
    arguments: Iterable[str],
    tainted: Mapping[str, Iterable[tuple[str, str]]],
    destinations: frozenset[str],
) -> Cut:
    """`tainted`: argument -> (read call id, value fingerprint) pairs reaching it."""
    names = sorted(set(arguments))
    n = len(names)
    block = 2 * n - 1
    graph: nx.DiGraph[tuple[str, ...]] = nx.DiGraph()
    graph.add_edge(CALL, SINK, capacity=block)
    for name in names:
        capacity = INFINITE if name.lower() in destinations else 2
        graph.add_edge(("arg", name), CALL, capacity=capacity)
    for name, sources in tainted.items():
        for read_call, value_fp in sources:
            graph.add_edge(SOURCE, ("read", read_call), capacity=INFINITE)
            graph.add_edge(("read", read_call), ("value", value_fp), capacity=INFINITE)
            graph.add_edge(("value", value_fp), ("arg", name), capacity=INFINITE)
    if SOURCE not in graph:
        return Cut(0.0, block, (), False)
    # Edmonds-Karp: on these small networks (a handful of arguments and reads)
    # about twice as fast as networkx's default preflow-push.
    value, (reachable, _) = nx.minimum_cut(graph, SOURCE, SINK, flow_func=edmonds_karp)
    blocked = CALL in reachable
    cut = () if blocked else tuple(a for a in names if ("arg", a) in reachable)
    return Cut(float(value), block, cut, blocked)
