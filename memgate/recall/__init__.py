"""Semantic recall: embedders, vector indexes and the projection that feeds them
(the `Recall` port of `memgate.domain.recall`).

    recall = open_recall(store, data_dir=Path("data"))     # local model, index in data/recall/
    recall = open_recall(store, embedder=FunctionEmbedder(my_fn, dims=768))
    recall = memory_recall(store, FunctionEmbedder(my_fn, dims=8))   # in-memory index
"""

from __future__ import annotations

from pathlib import Path

from memgate.domain.ports import Store
from memgate.domain.recall import Embedder
from memgate.recall.embedders import (
    EXTRA,
    LOCAL_DIMS,
    LOCAL_NAME,
    MISSING,
    FunctionEmbedder,
    LocalEmbedder,
    local_available,
)
from memgate.recall.index import MemoryVectorIndex, SqliteVectorIndex
from memgate.recall.projector import RecallProjection, TextOf, content_text, fields_text

__all__ = [
    "EXTRA",
    "INDEX_FILE",
    "LOCAL",
    "LOCAL_DIMS",
    "LOCAL_NAME",
    "FunctionEmbedder",
    "LocalEmbedder",
    "MemoryVectorIndex",
    "RecallProjection",
    "SqliteVectorIndex",
    "TextOf",
    "content_text",
    "fields_text",
    "local_available",
    "memory_recall",
    "open_recall",
]

LOCAL = "local"
INDEX_FILE = Path("recall") / "vectors.sqlite3"


def _embedder(embedder: Embedder | str) -> tuple[Embedder | None, str | None]:
    if isinstance(embedder, str):
        if embedder != LOCAL:
            raise ValueError(f"recall must be {LOCAL!r}, an Embedder, or None (off)")
        if not local_available():
            return None, MISSING
        return LocalEmbedder(), None
    return embedder, None


def open_recall(
    store: Store,
    *,
    data_dir: Path | None = None,
    embedder: Embedder | str = LOCAL,
    text_of: TextOf = content_text,
) -> RecallProjection:
    """Recall over `store`: the local model by default (RecallUnavailable naming
    the extra when it is not installed), its index in `data_dir/recall/` (kept
    across restarts, rebuilt when the log or the embedder changed) or in memory
    when `data_dir` is None. Not started: the first vector search starts it."""
    chosen, reason = _embedder(embedder)
    index = (
        SqliteVectorIndex(Path(data_dir) / INDEX_FILE)
        if data_dir is not None and chosen is not None
        else MemoryVectorIndex()
    )
    return RecallProjection(store, chosen, index, text_of=text_of, reason=reason)


def memory_recall(
    store: Store, embedder: Embedder | str = LOCAL, *, text_of: TextOf = content_text
) -> RecallProjection:
    """Recall with an in-memory index (tests, notebooks): rebuilt from the log at
    every start."""
    return open_recall(store, embedder=embedder, text_of=text_of)
