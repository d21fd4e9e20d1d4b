"""Semantic recall: the ports the gateway uses for vector and hybrid search.

Recall is a projection of the log, like the provenance graph: only approved
long-term memories are embedded (their content is redacted already), off the
write's hot path, and the index can always be rebuilt from the log. Three
ports:

- `Embedder` turns text into unit vectors (a local model, or any function the
  user supplies);
- `VectorIndex` keeps one vector per memory and answers nearest-neighbour
  queries under a namespace prefix;
- `Recall` is what the gateway holds: the background projection that feeds the
  index, and the query side (`nearest`).

`SearchMode` names the three search modes every interface offers: `text` (the
full-text search: every word must occur), `vector` (embedding similarity) and
`hybrid` (reciprocal rank fusion of the two).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from memgate.domain.memory import MemoryItem

RRF_K = 60
"""The constant of reciprocal rank fusion (score = sum of 1 / (RRF_K + rank)), as
in Cormack et al. 2009 and most hybrid search engines."""


class SearchMode(StrEnum):
    TEXT = "text"
    """Full-text search: every word of the query occurs in the content."""
    VECTOR = "vector"
    """Nearest approved memories by embedding similarity (cosine)."""
    HYBRID = "hybrid"
    """Reciprocal rank fusion of the text and vector results."""


class Embedder(Protocol):
    """Text to vectors of `dims` floats. Called from a worker thread, never on the
    event loop; documents are passed in batches. `name` identifies the model (a
    persisted index embedded by another model is rebuilt)."""

    @property
    def name(self) -> str: ...

    @property
    def dims(self) -> int: ...

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


class VectorHit(BaseModel):
    """One nearest neighbour: a memory id and its cosine similarity to the query."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    memory_id: str
    score: float


class IndexedVector(BaseModel):
    """One memory's vector as an index stores it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    memory_id: str
    namespace: tuple[str, ...]
    vector: tuple[float, ...]


class IndexMark(BaseModel):
    """How far the index has projected the log: the last event seq applied, that
    event's MAC (a log rewritten or replaced under it is told apart), and the
    embedder it was built with."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seq: int = 0
    mac: str = ""
    embedder: str = ""


class VectorIndex(Protocol):
    """Vectors by memory id. Mutations come from the recall projection only."""

    def mark(self) -> IndexMark: ...

    def apply(
        self, upserts: Sequence[IndexedVector], removals: Sequence[str], mark: IndexMark
    ) -> None:
        """Remove, then upsert, and move the mark, atomically."""
        ...

    def nearest(
        self, vector: Sequence[float], k: int, namespace_prefix: tuple[str, ...] = ()
    ) -> list[VectorHit]:
        """The `k` vectors most similar to `vector` under the prefix, best first."""
        ...

    def clear(self) -> None: ...

    def count(self) -> int: ...

    def close(self) -> None: ...


class RecallStatus(BaseModel):
    """What the recall projection can answer now."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    available: bool
    """Whether vector and hybrid search can be served."""
    reason: str | None = None
    """Why not (names the missing extra or the failure)."""
    embedder: str | None = None
    dims: int | None = None
    index: str | None = None
    """The vector index backend."""
    indexed: int = 0
    """Memories in the index."""
    applied_seq: int = 0
    """The last log event the index reflects."""
    running: bool = False


class Recall(Protocol):
    """The gateway's handle on semantic recall (`memgate.recall.RecallProjection`)."""

    async def start(self) -> None:
        """Start the background projection (idempotent; never raises for trouble
        the status reports)."""
        ...

    async def sync(self, within: float = 2.0) -> bool:
        """Wait up to `within` seconds for the index to reach the log's head as of
        now; True when it did."""
        ...

    async def nearest(
        self, query: str, k: int, namespace_prefix: tuple[str, ...] = ()
    ) -> list[VectorHit]:
        """Embed `query` and return the nearest indexed memories. Raises
        RecallUnavailable when it cannot answer."""
        ...

    async def status(self) -> RecallStatus: ...

    async def rebuild(self) -> int:
        """Drop the index and project the log again; returns the memories indexed."""
        ...

    async def close(self) -> None: ...


def fuse(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> list[tuple[str, float]]:
    """Reciprocal rank fusion: ids ordered by the sum of 1 / (k + rank) over the
    rankings they occur in (rank from 1); ties keep first-seen order."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, ident in enumerate(ranking, start=1):
            scores[ident] = scores.get(ident, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda kv: -kv[1])


class SearchHit(BaseModel):
    """One search result: the served item and its score in the mode asked (cosine
    similarity for `vector`, the fusion score for `hybrid`, None for `text`,
    which orders by recency)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    item: MemoryItem
    score: float | None = None
