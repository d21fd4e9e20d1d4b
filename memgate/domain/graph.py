"""Provenance graph: the port the gateway uses for investigations, and the
results it returns. The graph is a projection of the SQLite log and reads
table; SQLite stays the source of truth.

Every investigation answers with a status that tells apart "the graph looked
and found nothing" from "the graph could not answer": an empty result is never
reported as safe when the graph was unavailable.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

MIN_DEPTH = 1
MAX_DEPTH = 6
SET_ASIDE_LISTED = 100
GAP_LISTED = 100


class InvestigationStatus(StrEnum):
    OK = "ok"
    UNKNOWN_MEMORY = "unknown_memory"
    """No memory (or fingerprint) with that id in the graph or the store."""
    NO_READERS = "no_readers"
    NO_PATH = "no_path"
    """The memory exists but nothing was derived from it / written after reading it."""
    INVALID_INPUT = "invalid_input"
    GRAPH_UNAVAILABLE = "graph_unavailable"
    """The graph could not answer (down, disabled, error): the result proves nothing."""
    GRAPH_BEHIND = "graph_behind"
    """The graph answered, but events or reads concerning the subject are not in it
    (not projected yet, or set aside because the graph refused them): whatever is
    listed is true, and the `gap` says what is missing. Never a "nobody read it"."""


InvestigationKind = Literal["readers", "blast_radius", "provenance", "exposure"]


class ReaderRow(BaseModel):
    """One call that read the memory."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    session_id: str | None
    call_id: str | None
    agent_id: str | None = None
    tool: str | None = None
    at: datetime
    memory_id: str | None = None
    """The memory read (set when an answer covers several memories, e.g. a rollback)."""


class ImpactRow(BaseModel):
    """A memory tainted by the subject: written by a call in a session after that
    session read the subject (or a memory already tainted), or derived from it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    memory_id: str
    namespace: tuple[str, ...] = ()
    state: str | None = None
    depth: int
    session_id: str | None = None
    call_id: str | None = None
    path: tuple[str, ...] = ()
    """Evidence: node ids from the subject to this memory, e.g.
    ("memory:m1", "session:s1", "call:c9", "memory:m7")."""


class ProvenanceRow(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    memory_id: str
    source_kind: str | None = None
    source_uri: str | None = None
    session_id: str | None = None
    call_id: str | None = None
    tool: str | None = None
    derived_from: tuple[str, ...] = ()
    depth: int = 0
    """0 for the subject, n for the n-th ancestor along DERIVED_FROM."""


class ExposureRow(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    memory_id: str
    namespace: tuple[str, ...] = ()
    state: str | None = None
    relation: Literal["contains", "read"]
    session_id: str | None = None
    call_id: str | None = None


class SetAsideRow(BaseModel):
    """A log event or a read the graph could not take (a control character in an
    identifier, or a row FalkorDB refused): projection went on without it. Kept
    with the projection's marks, so a restart keeps the list and a rebuild finds
    the same rows again. Holds ids and the reason, never a value: an identifier
    that cannot be projected is named by its field only."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["event", "read"]
    seq: int
    """The event's sequence number, or the read's position in the reads table."""
    reason: str
    field: str | None = None
    """The field that could not be projected, when the row builder found it."""
    memory_ids: tuple[str, ...] = ()
    """The memories the row concerns (investigations of them say `graph_behind`)."""
    fingerprints: tuple[str, ...] = ()
    """Keyed fingerprints of sensitive values the event carried (exposure)."""
    session_id: str | None = None
    """The writing or reading session, when it could be projected (blast radius)."""


class GraphGap(BaseModel):
    """What an investigation's answer is missing: the graph is behind the log."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    events_behind: int = 0
    """Log events not projected yet (all of them, not only this subject's)."""
    reads_behind: int = 0
    """Recorded reads not projected yet (all of them)."""
    unprojected: tuple[int, ...] = ()
    """Sequence numbers of not yet projected events concerning the subject (the
    first GAP_LISTED)."""
    unprojected_reads: int = 0
    """Not yet projected reads concerning the subject."""
    set_aside: tuple[int, ...] = ()
    """Sequence numbers of set-aside events concerning the subject."""
    set_aside_reads: tuple[int, ...] = ()
    """Reads-table positions of set-aside reads concerning the subject."""
    unchecked: bool = False
    """Too much is missing to tell what concerns the subject: all of it may."""

    @property
    def empty(self) -> bool:
        return not (
            self.unprojected
            or self.unprojected_reads
            or self.set_aside
            or self.set_aside_reads
            or self.unchecked
        )


class Investigation(BaseModel):
    """The answer to one investigation template, with the graph's position in the
    log so an operator knows how fresh the evidence is."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: InvestigationKind
    subject: str
    status: InvestigationStatus
    message: str = ""
    readers: tuple[ReaderRow, ...] = ()
    impact: tuple[ImpactRow, ...] = ()
    provenance: tuple[ProvenanceRow, ...] = ()
    exposure: tuple[ExposureRow, ...] = ()
    projected_seq: int = 0
    """The graph reflects the log up to this sequence number."""
    lag: int = 0
    """Events (plus reads) recorded in SQLite and not yet projected."""
    truncated: bool = False
    """The answer hit its row limit: there is more evidence than listed."""
    gap: GraphGap | None = None
    """Set with status `graph_behind`: what the graph has not projected that
    concerns this subject."""


class ProjectionStatus(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    enabled: bool
    available: bool
    projected_seq: int = 0
    head_seq: int = 0
    pending_reads: int = 0
    lag: int = Field(default=0, ge=0)
    last_error: str | None = None
    set_aside: int = Field(default=0, ge=0)
    """Rows the graph could not take and projection went on without."""
    set_aside_rows: tuple[SetAsideRow, ...] = ()
    """The set-aside rows with their reasons (the first SET_ASIDE_LISTED)."""


class GraphRebuild(BaseModel):
    """What a rebuild did: events projected, and the rows it skipped again."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    events: int
    set_aside: int = 0
    set_aside_rows: tuple[SetAsideRow, ...] = ()


class ProvenanceGraph(Protocol):
    """What the gateway needs from the graph (FalkorDB, or its in-memory twin).
    Implementations raise `memgate.errors.GraphUnavailable` when they cannot answer."""

    async def readers(
        self, memory_id: str, since: datetime | None = None, until: datetime | None = None
    ) -> Investigation: ...

    async def blast_radius(self, memory_id: str, depth: int) -> Investigation: ...

    async def provenance(self, memory_id: str) -> Investigation: ...

    async def exposure(self, fingerprint: str) -> Investigation: ...

    async def status(self) -> ProjectionStatus: ...

    async def readers_of(
        self, memory_ids: Sequence[str], limit: int = 1000
    ) -> tuple[ReaderRow, ...]:
        """Readers of several memories (a rollback's changes), oldest first."""
        ...

    async def impact_of(
        self, memory_ids: Sequence[str], depth: int, limit: int = 1000
    ) -> tuple[ImpactRow, ...]:
        """What the memories' content flowed into (blast radius of a set)."""
        ...

    async def sync(self, within: float = 2.0) -> bool:
        """Wait (bounded) until the graph has projected everything SQLite holds
        now; False if it could not catch up in time."""
        ...

    async def gap(self, memory_ids: Sequence[str]) -> GraphGap | None:
        """What the graph does not have (not projected yet, or set aside) that
        could change the readers or blast radius of these memories; None when
        nothing (a rollback plan's evidence says `graph_behind` otherwise)."""
        ...

    async def rebuild(self) -> int:
        """Drop the graph and project it again from SQLite; returns events projected."""
        ...

    async def close(self) -> None: ...
