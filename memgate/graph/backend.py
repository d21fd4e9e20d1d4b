"""What the projector needs from a graph store. Two implementations: FalkorDB
(`memgate.graph.falkor`) and the in-memory twin (`memgate.graph.memory`). Both
are blocking; the projector calls them from its own threads.

Investigation templates answer raw rows in the column order of the Cypher
files in `schema/graph/`, so one module (`memgate.graph.investigate`) turns
both backends' rows into results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from memgate.graph.rows import EventBatch, ReadBatch

Rows = list[list[Any]]


@dataclass(frozen=True, slots=True)
class Marks:
    """The projection's high-water marks, kept in the graph itself so that they
    move atomically with what they describe (a graph restored from an older
    data file carries its older marks)."""

    events_seq: int = 0
    reads_seq: int = 0
    head_mac: str | None = None


class GraphBackend(Protocol):
    def ensure_schema(self) -> None:
        """Create the indexes (idempotent). Before any projection."""
        ...

    def marks(self) -> Marks: ...

    def apply_reads(self, batch: ReadBatch) -> None: ...

    def apply_events(self, batch: EventBatch) -> None: ...

    def run(self, template: str, params: dict[str, Any]) -> Rows:
        """A read-only investigation template by name (see memgate.graph.schema)."""
        ...

    def blast(self, depth: int, params: dict[str, Any]) -> Rows: ...

    def clear(self) -> None:
        """Drop everything (rebuild)."""
        ...

    def reconnect(self) -> None: ...

    def close(self) -> None: ...
