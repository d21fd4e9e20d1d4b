"""autogen-core `Memory` on memgate.

    from memgate.adapters.autogen import MemgateMemory
    memory = MemgateMemory(gateway, namespace=("users", "42"), session_id="chat-1")
    agent = AssistantAgent("assistant", model_client=..., memory=[memory])

or from a component config (`MemgateMemory.load_component(config)`), which names a
data directory or a server URL and the environment variable holding the API key
(never the key itself: configs get saved and shared).

`add` scans and routes the content; what the scan queues or rejects is not
served back (queued items only to this session). The MIME type maps to how the
content is written: `application/json` as exact JSON text (scanned as a JSON
chunk), text and Markdown as written (the chunker finds code fences); images
and binary are refused -- memgate scans text. `query` and `update_context`
return only served memories, each with memgate's view in
`metadata["memgate"]` (id, state, trust score, finding categories, pool), and
`update_context` fences untrusted memories as quoted data in the system message.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any, Self

from autogen_core import CancellationToken, Component
from autogen_core.memory import (
    Memory,
    MemoryContent,
    MemoryMimeType,
    MemoryQueryResult,
    UpdateContextResult,
)
from autogen_core.model_context import ChatCompletionContext
from autogen_core.models import SystemMessage
from pydantic import BaseModel, Field

from memgate.adapters._backend import Backend, RemoteBackend, canonical_json, scan_namespace
from memgate.adapters._recall import recall
from memgate.domain.memory import MemoryItem, MemoryWrite, Reader, Target
from memgate.domain.recall import SearchMode
from memgate.domain.types import Source
from memgate.errors import IllegalTransition, NotFound
from memgate.gateway import render_context

__all__ = ["MemgateMemory", "MemgateMemoryConfig"]

MIME_KEY = "mime_type"
_TEXT = {MemoryMimeType.TEXT.value, MemoryMimeType.MARKDOWN.value}


class MemgateMemoryConfig(BaseModel):
    """Serializable settings. Exactly one of `data_dir` and `url` when the memory is
    built from config; `key_env` names the variable with the server's API key."""

    name: str = "memgate"
    namespace: list[str] = Field(min_length=1)
    data_dir: str | None = None
    graph: str = "embedded"
    """With `data_dir`: the provenance graph ("embedded" FalkorDB, a FalkorDB URL,
    or "none"; a string, so that "none" survives the config round trip)."""
    url: str | None = None
    key_env: str = "MEMGATE_KEY"
    session_id: str | None = None
    agent_id: str | None = None
    source: Source = Source.AGENT
    target: Target = Target.AUTO
    limit: int = Field(default=5, ge=1, le=100)
    search_mode: SearchMode = SearchMode.TEXT
    """How `query` and `update_context` pick memories: `text` (most words shared),
    `vector` (nearest in meaning; the recall extra) or `hybrid` (both)."""


class MemgateMemory(Memory, Component[MemgateMemoryConfig]):
    """Memories that passed memgate's gateway, for AutoGen agents."""

    component_type = "memory"
    component_provider_override = "memgate.adapters.autogen.MemgateMemory"
    component_config_schema = MemgateMemoryConfig

    def __init__(
        self,
        backend: Backend | None = None,
        *,
        namespace: tuple[str, ...],
        name: str = "memgate",
        session_id: str | None = None,
        agent_id: str | None = None,
        source: Source = Source.AGENT,
        target: Target = Target.AUTO,
        limit: int = 5,
        data_dir: Path | None = None,
        url: str | None = None,
        key_env: str = "MEMGATE_KEY",
        graph: str | None = "embedded",
        search_mode: SearchMode | str = SearchMode.TEXT,
    ) -> None:
        """Give a `backend` (Gateway or RemoteBackend), or `data_dir` / `url` to open
        one on first use (and close it in `close`). `search_mode`: text, vector or
        hybrid recall."""
        if backend is None and (data_dir is None) == (url is None):
            raise ValueError("give a backend, or exactly one of data_dir and url")
        self._backend = backend
        self._owned = backend is None
        self.config = MemgateMemoryConfig(
            name=name,
            namespace=list(namespace),
            data_dir=str(data_dir) if data_dir is not None else None,
            graph="none" if graph is None else graph,
            url=url,
            key_env=key_env,
            session_id=session_id,
            agent_id=agent_id,
            source=source,
            target=target,
            limit=limit,
            search_mode=SearchMode(search_mode),
        )

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def namespace(self) -> tuple[str, ...]:
        return tuple(self.config.namespace)

    @property
    def reader(self) -> Reader:
        return Reader(session_id=self.config.session_id, agent_id=self.config.agent_id)

    async def backend(self) -> Backend:
        if self._backend is None:
            if self.config.url is not None:
                self._backend = RemoteBackend.connect(
                    self.config.url, os.environ.get(self.config.key_env)
                )
            else:
                from memgate.bootstrap import open_gateway

                self._backend = await open_gateway(
                    Path(str(self.config.data_dir)),
                    graph=None if self.config.graph == "none" else self.config.graph,
                )
        return self._backend

    # -- Memory ---------------------------------------------------------------------

    async def add(
        self, content: MemoryContent, cancellation_token: CancellationToken | None = None
    ) -> None:
        mime = _mime(content.mime_type)
        if isinstance(content.content, dict):
            text = canonical_json(content.content)
            mime = MemoryMimeType.JSON.value
        elif isinstance(content.content, str) and (mime in _TEXT or mime.startswith("text/")):
            text = content.content
        elif isinstance(content.content, str) and mime == MemoryMimeType.JSON.value:
            json.loads(content.content)  # a JSON MIME type must carry JSON
            text = content.content
        else:
            raise ValueError(f"memgate stores text and JSON memories, not {mime}")
        backend = await self.backend()
        await backend.write(
            MemoryWrite(
                content=text,
                namespace=self.namespace,
                source=self.config.source,
                session_id=self.config.session_id,
                agent_id=self.config.agent_id,
                metadata={**(content.metadata or {}), MIME_KEY: mime},
                target=self.config.target,
            )
        )

    async def query(
        self,
        query: str | MemoryContent = "",
        cancellation_token: CancellationToken | None = None,
        **kwargs: Any,
    ) -> MemoryQueryResult:
        """Served memories sharing most words with `query` (`limit=` overrides)."""
        text = query if isinstance(query, str) else str(query.content)
        limit = int(kwargs.get("limit", self.config.limit))
        items = await recall(
            await self.backend(),
            self.namespace,
            text,
            limit,
            self.reader,
            self.config.search_mode.value,
        )
        return MemoryQueryResult(results=[_content(i) for i in items])

    async def update_context(self, model_context: ChatCompletionContext) -> UpdateContextResult:
        messages = await model_context.get_messages()
        last = messages[-1].content if messages else ""
        query = last if isinstance(last, str) else " ".join(str(part) for part in last)
        backend = await self.backend()
        items = await recall(
            backend,
            self.namespace,
            query,
            self.config.limit,
            self.reader,
            self.config.search_mode.value,
        )
        if items:
            await model_context.add_message(
                SystemMessage(content="Relevant memories:\n\n" + render_context(items))
            )
        return UpdateContextResult(memories=MemoryQueryResult(results=[_content(i) for i in items]))

    async def clear(self) -> None:
        """Tombstone every memory of this namespace this session can see."""
        backend = await self.backend()
        actor = self.config.agent_id or self.config.session_id or self.name
        for item in await scan_namespace(backend, self.namespace, self.reader):
            with contextlib.suppress(NotFound, IllegalTransition):
                await backend.delete(item.id, actor=actor, reason="autogen memory clear")

    async def close(self) -> None:
        if self._owned and self._backend is not None:
            await self._backend.close()  # type: ignore[attr-defined]
            self._backend = None

    # -- component config -------------------------------------------------------------

    def _to_config(self) -> MemgateMemoryConfig:
        return self.config.model_copy()

    @classmethod
    def _from_config(cls, config: MemgateMemoryConfig) -> Self:
        return cls(
            namespace=tuple(config.namespace),
            name=config.name,
            session_id=config.session_id,
            agent_id=config.agent_id,
            source=config.source,
            target=config.target,
            limit=config.limit,
            data_dir=Path(config.data_dir) if config.data_dir is not None else None,
            graph=config.graph,
            url=config.url,
            key_env=config.key_env,
            search_mode=config.search_mode,
        )


def _mime(mime: MemoryMimeType | str) -> str:
    return mime.value if isinstance(mime, MemoryMimeType) else str(mime)


def _content(item: MemoryItem) -> MemoryContent:
    metadata = dict(item.metadata)
    mime = str(metadata.pop(MIME_KEY, MemoryMimeType.TEXT.value))
    content: str | dict[str, Any] = item.content
    if mime == MemoryMimeType.JSON.value:
        with contextlib.suppress(ValueError):
            content = json.loads(item.content)
    metadata["memgate"] = {
        "id": item.id,
        "state": item.state.value,
        "pool": item.pool.value,
        "trust_score": item.trust_score,
        "categories": sorted({f.category.value for f in item.findings}),
        "source": item.source.value,
    }
    return MemoryContent(content=content, mime_type=mime, metadata=metadata)
