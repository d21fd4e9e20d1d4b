"""Recall shared by the AutoGen and Agent Framework adapters: pick the memories
relevant to a message, serve (and record) only those.

memgate's own search wants every word of the query, which a chat message never
satisfies; here the namespace's served items are ranked by how many of the
message's words they share (newest first on ties). In-process only the chosen
items are recorded as read; remotely the listing itself is the read.

With `mode="vector"` or `"hybrid"` the gateway's semantic recall picks them
instead (the approved memories nearest to the message in meaning, with the
text matches fused in for hybrid); only those served are recorded as read.
"""

from __future__ import annotations

import re

from memgate.adapters._backend import Backend, record_reads, scan_namespace
from memgate.domain.memory import MemoryItem, Reader

_WORD = re.compile(r"[^\W_]{3,}", re.UNICODE)
_STOP = frozenset(
    [
        "the",
        "and",
        "for",
        "are",
        "but",
        "not",
        "you",
        "your",
        "with",
        "this",
        "that",
        "what",
        "which",
        "who",
        "whom",
        "have",
        "has",
        "had",
        "was",
        "were",
        "will",
        "would",
        "can",
        "could",
        "should",
        "does",
        "did",
        "how",
        "why",
        "when",
        "where",
        "there",
        "their",
        "them",
        "they",
        "from",
        "into",
        "about",
        "than",
        "then",
        "also",
        "just",
        "like",
        "any",
        "all",
        "our",
        "out",
        "its",
    ]
)


def words(text: str) -> set[str]:
    return {w for w in (m.casefold() for m in _WORD.findall(text)) if w not in _STOP}


def rank(items: list[MemoryItem], query: str, limit: int) -> list[MemoryItem]:
    """The `limit` items sharing most words with `query` (none shared: none chosen;
    an empty query: the newest)."""
    newest = sorted(items, key=lambda i: i.updated_at, reverse=True)
    wanted = words(query)
    if not wanted:
        return newest[:limit]
    scored = [(len(wanted & words(i.content)), i) for i in newest]
    ranked = sorted((s for s in scored if s[0] > 0), key=lambda s: -s[0])
    return [i for _, i in ranked[:limit]]


async def recall(
    backend: Backend,
    namespace: tuple[str, ...],
    query: str,
    limit: int,
    reader: Reader,
    mode: str = "text",
) -> list[MemoryItem]:
    if mode != "text" and query.strip():
        return await backend.search(namespace, query, limit=limit, reader=reader, mode=mode)
    chosen = rank(await scan_namespace(backend, namespace, reader), query, limit)
    return await record_reads(backend, chosen, reader)
