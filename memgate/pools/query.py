"""Matching a PoolQuery against items: the in-memory pools' query engine."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, Protocol

from memgate.domain.memory import MemoryItem, MemoryState
from memgate.domain.ports import PoolQuery
from memgate.domain.types import Finding, Source

_WORD = re.compile(r"\w+", re.UNICODE)


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


class Filterable(Protocol):
    """What `matches` reads of an item: a MemoryItem, or a pool's compact record
    of one (the short-term pool filters before it rebuilds items)."""

    @property
    def namespace(self) -> tuple[str, ...]: ...
    @property
    def state(self) -> MemoryState: ...
    @property
    def source(self) -> Source: ...
    @property
    def findings(self) -> tuple[Finding, ...]: ...
    @property
    def session_id(self) -> str | None: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def metadata(self) -> Mapping[str, Any]: ...


def matches(item: Filterable, query: PoolQuery) -> bool:
    prefix = query.namespace_prefix
    if prefix and item.namespace[: len(prefix)] != prefix:
        return False
    if query.states is not None and item.state not in query.states:
        return False
    if query.source is not None and item.source is not query.source:
        return False
    if query.category is not None and all(f.category is not query.category for f in item.findings):
        return False
    if query.session_id is not None and item.session_id != query.session_id:
        return False
    if query.older_than is not None and item.created_at >= query.older_than:
        return False
    return all(item.metadata.get(k) == v for k, v in query.metadata.items())


def text_matches(item: MemoryItem, text: str | None, have: frozenset[str] | None = None) -> bool:
    """Every word of the query occurs as a word of the content (as FTS5 does).
    `have` is the item's word set when the caller keeps it precomputed."""
    if not text:
        return True
    if have is None:
        have = frozenset(words(item.content))
    return all(w in have for w in words(text))


def page(items: Iterable[MemoryItem], query: PoolQuery) -> list[MemoryItem]:
    ordered = sorted(items, key=lambda i: (i.created_at, i.id), reverse=not query.oldest_first)
    return ordered[query.offset : query.offset + query.limit]
