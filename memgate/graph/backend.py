"""What the projector needs from a graph store. Two implementations: FalkorDB
(`memgate.graph.falkor`) and the in-memory twin (`memgate.graph.memory`). Both
are blocking; the projector calls them from its own threads.

Investigation templates answer raw rows in the column order of the Cypher
files in `schema/graph/`, so one module (`memgate.graph.investigate`) turns
both backends' rows into results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from memgate.domain.graph import SetAsideRow
from memgate.errors import GraphUnavailable
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
    set_aside: tuple[SetAsideRow, ...] = ()
    """Rows projection went on without, recorded with the mark that passed them
    (the first SET_ASIDE_KEPT; `set_aside_count` counts them all)."""
    set_aside_count: int = 0


class GraphMoved(GraphUnavailable):
    """The graph's mark is not where the projector left it: the server came back
    empty (no persistence), was restored from an older file, or another projector
    wrote to it. Nothing of the batch is counted; the projector reads the marks
    again (and rebuilds a graph that no longer matches the log)."""

    def __init__(self, what: str, expected: int | None) -> None:
        super().__init__(
            f"the graph's {what} mark moved (expected {expected}): re-reading the marks"
        )


SET_ASIDE_KEPT = 1000
"""Set-aside rows kept in full; past it only counted (investigations then say
`graph_behind` for every subject: they can no longer tell which it concerns)."""


class GraphBackend(Protocol):
    def ensure_schema(self) -> None:
        """Create the indexes (idempotent). Before any projection."""
        ...

    def marks(self) -> Marks: ...

    def apply_reads(self, batch: ReadBatch) -> None:
        """The batch's reads, then its set-aside rows and the reads mark, in one
        atomic step (raises `GraphRefused` when the graph refuses the data)."""
        ...

    def apply_events(self, batch: EventBatch) -> None:
        """The batch's facts (idempotent), then its set-aside rows and the events
        mark in one atomic step."""
        ...

    def run(self, template: str, params: dict[str, Any]) -> Rows:
        """A read-only investigation template by name (see memgate.graph.schema)."""
        ...

    def clear(self) -> None:
        """Drop everything (rebuild)."""
        ...

    def reconnect(self) -> None: ...

    def close(self) -> None: ...
