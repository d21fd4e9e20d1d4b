"""Provenance graph: FalkorDB projection of the log and reads, and investigations.

    projection = open_graph(store, data_dir=Path("data/graph"))   # embedded falkordblite
    projection = open_graph(store, url="redis://localhost:6379")  # a FalkorDB server
    projection = memory_graph(store)                              # the in-memory twin
    await projection.start()

The projection implements `memgate.domain.graph.ProvenanceGraph`, the port the
gateway uses; `memgate.bootstrap.open_gateway(..., graph=...)` wires it.
"""

from __future__ import annotations

from pathlib import Path

from memgate.domain.ports import Lease, Store
from memgate.graph.falkor import FalkorBackend
from memgate.graph.memory import MemoryBackend
from memgate.graph.projector import GraphProjection
from memgate.graph.server import FalkorConnection, clean_stale_settings

DEFAULT_GRAPH = "memgate"
URL_SCHEMES = ("redis://", "rediss://", "falkor://", "falkors://", "unix://")


def open_graph(
    store: Store,
    *,
    data_dir: Path | None = None,
    url: str | None = None,
    graph_name: str = DEFAULT_GRAPH,
    lease: Lease | None = None,
) -> GraphProjection:
    """A projection onto FalkorDB: embedded under `data_dir`, or the server at `url`.
    Nothing connects until `start()` (then in the background). With a `lease`,
    only while this replica holds it (one projector across replicas)."""
    if url is not None and not url.startswith(URL_SCHEMES):
        raise ValueError(f"graph URL must start with one of {', '.join(URL_SCHEMES)}")
    connection = FalkorConnection(graph_name=graph_name, data_dir=data_dir, url=url)
    return GraphProjection(store, FalkorBackend(connection), lease=lease)


def memory_graph(store: Store) -> GraphProjection:
    """A projection onto the in-memory twin (tests, notebooks)."""
    return GraphProjection(store, MemoryBackend())


__all__ = [
    "DEFAULT_GRAPH",
    "URL_SCHEMES",
    "FalkorBackend",
    "FalkorConnection",
    "GraphProjection",
    "MemoryBackend",
    "clean_stale_settings",
    "memory_graph",
    "open_graph",
]
