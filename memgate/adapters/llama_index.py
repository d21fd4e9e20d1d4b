"""LlamaIndex behind memgate: `MemgateVectorStore` wraps any LlamaIndex vector store
(`SimpleVectorStore`, Chroma, Qdrant, ...) and is one itself.

    from llama_index.core import VectorStoreIndex, StorageContext
    from llama_index.core.vector_stores import SimpleVectorStore
    from memgate.adapters.llama_index import MemgateVectorStore
    store = MemgateVectorStore.open(Path("data"), inner=SimpleVectorStore(), embed_model=embed)
    context = StorageContext.from_defaults(vector_store=store)
    index = VectorStoreIndex(nodes, storage_context=context, embed_model=embed)

It is also the store of a `VectorMemoryBlock` in LlamaIndex's `Memory`
(`VectorMemoryBlock(vector_store=store, embed_model=embed)`): the chat history
flushed into long-term memory passes the gate like any other node.

- `add` writes each node's text to memgate first (namespace `("llamaindex",)`,
  the node id as the key, the node's metadata and ref doc id in memgate's
  metadata; the writer's session is the node's `session_id` metadata, as
  `VectorMemoryBlock` sets it). Only nodes memgate approves reach the inner
  store, with memgate's content (secrets and personal data redacted; re-embedded
  with `embed_model` when redaction changed the text). Pending and rejected nodes
  never reach it; their ids are returned all the same (they enter on approval).
- `query` asks the inner store, then returns a node only while memgate serves it
  to this reader, with memgate's content; each check is a read recorded in
  memgate (the reader's session: a `session_id` filter of the query, else the
  store's). memgate holds the text, so this store `stores_text` even over an
  inner store that keeps only vectors. A rollback or delete in memgate hides the
  node at once.
- `delete`, `delete_nodes` and `clear` tombstone the nodes in memgate too.
- `sync()` follows memgate's log: nodes a reviewer approved enter the inner store
  (embedded with `embed_model`), nodes no longer served leave it. Against a
  server it needs an admin key (it reads `GET /v1/log`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.bridge.pydantic import Field, PrivateAttr
from llama_index.core.schema import (
    BaseNode,
    MetadataMode,
    NodeRelationship,
    RelatedNodeInfo,
    TextNode,
)
from llama_index.core.vector_stores.types import (
    BasePydanticVectorStore,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryResult,
)

from memgate.adapters._backend import (
    Backend,
    LoopThread,
    RemoteBackend,
    find_key,
    running_loop,
    scan_namespace,
)
from memgate.adapters._guard import ID_KEY, Guard, SyncReport
from memgate.domain.memory import MemoryItem, MemoryWrite, Reader, Target
from memgate.domain.types import Source
from memgate.gateway import SyncGateway

__all__ = ["MemgateVectorStore", "SyncReport"]

NODE_KEY = "llamaindex"
"""memgate metadata: the node's metadata and ref doc id."""
SESSION_KEY = "session_id"


class MemgateVectorStore(BasePydanticVectorStore):
    """A LlamaIndex vector store whose nodes pass memgate's gate and whose query
    results are checked against it (and recorded)."""

    stores_text: bool = True
    is_embedding_query: bool = True
    inner: BasePydanticVectorStore = Field(description="The vector store guarded.")
    embed_model: BaseEmbedding = Field(
        description="Embeds what memgate redacted, and nodes approved later."
    )
    namespace: tuple[str, ...] = Field(default=("llamaindex",))
    source: Source = Field(default=Source.AGENT)
    session_id: str | None = Field(default=None)
    agent_id: str | None = Field(default=None)

    _guard: Guard = PrivateAttr()
    _closer: Callable[[], None] | None = PrivateAttr(default=None)

    def __init__(
        self,
        backend: Backend,
        *,
        inner: BasePydanticVectorStore,
        embed_model: BaseEmbedding,
        loop: asyncio.AbstractEventLoop | None = None,
        **kwargs: Any,
    ) -> None:
        """`backend` on `loop` (None: the caller's loop, async calls only); use
        `open`, `from_sync` or `connect` for sync and async calls alike."""
        fields: dict[str, Any] = {"inner": inner, "embed_model": embed_model, **kwargs}
        super().__init__(**fields)
        self._guard = Guard(backend, store="llamaindex", loop=loop)

    @classmethod
    def class_name(cls) -> str:
        return "MemgateVectorStore"

    # -- construction ---------------------------------------------------------------

    @classmethod
    def from_sync(cls, gateway: SyncGateway, **kwargs: Any) -> MemgateVectorStore:
        return cls(gateway.gateway, loop=gateway.run(running_loop()), **kwargs)

    @classmethod
    def open(cls, data_dir: Path, **kwargs: Any) -> MemgateVectorStore:
        """memgate in-process on a data directory (with its provenance graph);
        `close()` when done."""
        from memgate.bootstrap import open_sync_gateway

        gateway = open_sync_gateway(Path(data_dir), graph="embedded")
        store = cls.from_sync(gateway, **kwargs)
        store._closer = gateway.close
        return store

    @classmethod
    def connect(cls, url: str, key: str | None = None, **kwargs: Any) -> MemgateVectorStore:
        thread = LoopThread()
        backend = RemoteBackend.connect(url, key)
        store = cls(backend, loop=thread.loop, **kwargs)

        def close() -> None:
            thread.run(backend.close())
            thread.stop()

        store._closer = close
        return store

    def close(self) -> None:
        """Close what `open` / `connect` opened (not the inner store)."""
        if self._closer is not None:
            self._closer()
            self._closer = None

    @property
    def client(self) -> Any:
        return self.inner.client

    @property
    def guard(self) -> Guard:
        return self._guard

    @property
    def backend(self) -> Backend:
        return self._guard.backend

    def _reader(self, filters: MetadataFilters | None = None) -> Reader:
        session = self.session_id
        for f in filters.filters if filters is not None else []:
            if isinstance(f, MetadataFilter) and f.key == SESSION_KEY and f.value:
                session = str(f.value)
        return Reader(session_id=session, agent_id=self.agent_id)

    # -- writes ---------------------------------------------------------------------

    def _write(self, node: BaseNode) -> MemoryWrite:
        if not isinstance(node, TextNode) or type(node).__name__ == "ImageNode":
            raise ValueError(f"memgate stores text nodes, not {type(node).__name__}")
        metadata = {k: v for k, v in node.metadata.items() if k != ID_KEY}
        session = metadata.get(SESSION_KEY)
        return MemoryWrite(
            content=node.get_content(metadata_mode=MetadataMode.NONE),
            namespace=self.namespace,
            key=node.node_id,
            source=self.source,
            session_id=str(session) if session else self.session_id,
            agent_id=self.agent_id,
            metadata={NODE_KEY: {"metadata": metadata, "ref_doc_id": node.ref_doc_id}},
            target=Target.LONG,
        )

    async def _admit(self, nodes: Sequence[BaseNode]) -> list[TextNode]:
        """Each node through memgate; the nodes served now, as the inner store gets
        them (memgate's content and id, embedded)."""
        out = []
        for node in nodes:
            write = self._write(node)
            reader = Reader(session_id=write.session_id, agent_id=self.agent_id)
            admitted = await self._guard.admit(write, reader)
            if admitted.item is not None:
                out.append(
                    self._node(admitted.item, node.embedding, node.get_content(MetadataMode.NONE))
                )
        return out

    def _node(
        self, item: MemoryItem, embedding: list[float] | None = None, text: str | None = None
    ) -> TextNode:
        """A memgate memory as a node: memgate's content, the node's metadata and
        source document. Without an embedding (or when memgate's content differs
        from `text`) none is set: `_embedded` adds it."""
        fields = item.metadata.get(NODE_KEY)
        fields = fields if isinstance(fields, dict) else {}
        metadata = dict(fields.get("metadata") or {})
        metadata[ID_KEY] = item.id
        node = TextNode(id_=item.key or item.id, text=item.content, metadata=metadata)
        ref = fields.get("ref_doc_id")
        if isinstance(ref, str):
            node.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(node_id=ref)
        if embedding is not None and text == item.content:
            node.embedding = embedding
        return node

    def _embedded(self, nodes: list[TextNode]) -> list[TextNode]:
        for node in nodes:
            if node.embedding is None:
                node.embedding = self.embed_model.get_text_embedding(node.text)
        return nodes

    async def _aembedded(self, nodes: list[TextNode]) -> list[TextNode]:
        for node in nodes:
            if node.embedding is None:
                node.embedding = await self.embed_model.aget_text_embedding(node.text)
        return nodes

    def add(self, nodes: Sequence[BaseNode], **add_kwargs: Any) -> list[str]:
        """Add the nodes memgate approves (redacted); hold back the rest. Returns
        every node's id (a held node enters under it when approved)."""
        stored = self._embedded(self._guard.run(self._admit(nodes)))
        if stored:
            self.inner.add(stored, **add_kwargs)
        return [n.node_id for n in nodes]

    async def async_add(self, nodes: Sequence[BaseNode], **kwargs: Any) -> list[str]:
        stored = await self._aembedded(await self._guard.arun(self._admit(nodes)))
        if stored:
            await self.inner.async_add(stored, **kwargs)
        return [n.node_id for n in nodes]

    # -- reads ----------------------------------------------------------------------

    async def _check(
        self, result: VectorStoreQueryResult, reader: Reader, limit: int
    ) -> VectorStoreQueryResult:
        ids = list(result.ids or [n.node_id for n in result.nodes or []])
        scores = list(result.similarities or [])
        nodes: list[BaseNode] = []
        kept_ids: list[str] = []
        kept_scores: list[float] = []
        for index, node_id in enumerate(ids):
            if len(nodes) >= limit:
                break
            item = await self._guard.served_key(self.namespace, node_id, reader)
            if item is None:
                continue
            nodes.append(self._node(item))
            kept_ids.append(node_id)
            if index < len(scores):
                kept_scores.append(scores[index])
        return VectorStoreQueryResult(
            nodes=nodes, similarities=kept_scores if scores else None, ids=kept_ids
        )

    def _wider(self, query: VectorStoreQuery) -> VectorStoreQuery:
        # Ask for more than wanted: some hits may no longer be served.
        wider = VectorStoreQuery(**{**query.__dict__})
        wider.similarity_top_k = query.similarity_top_k * 2
        # An index over a text-storing store keeps no node ids and passes an empty
        # list: like the text-storing stores, no restriction (not "none").
        if not wider.node_ids:
            wider.node_ids = None
        return wider

    def query(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        result = self.inner.query(self._wider(query), **kwargs)
        return self._guard.run(
            self._check(result, self._reader(query.filters), query.similarity_top_k)
        )

    async def aquery(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        result = await self.inner.aquery(self._wider(query), **kwargs)
        return await self._guard.arun(
            self._check(result, self._reader(query.filters), query.similarity_top_k)
        )

    async def _get(self, node_ids: Sequence[str], reader: Reader) -> list[BaseNode]:
        out: list[BaseNode] = []
        for node_id in node_ids:
            item = await self._guard.served_key(self.namespace, node_id, reader)
            if item is not None:
                out.append(self._node(item))
        return out

    def get_nodes(
        self, node_ids: list[str] | None = None, filters: MetadataFilters | None = None
    ) -> list[BaseNode]:
        """The served nodes among `node_ids` (each a recorded read)."""
        if node_ids is None:
            raise NotImplementedError("MemgateVectorStore.get_nodes needs node_ids")
        return self._guard.run(self._get(node_ids, self._reader(filters)))

    async def aget_nodes(
        self, node_ids: list[str] | None = None, filters: MetadataFilters | None = None
    ) -> list[BaseNode]:
        if node_ids is None:
            raise NotImplementedError("MemgateVectorStore.aget_nodes needs node_ids")
        return await self._guard.arun(self._get(node_ids, self._reader(filters)))

    # -- deletes --------------------------------------------------------------------

    def _actor(self) -> str:
        return self.agent_id or self.session_id or "llamaindex"

    async def _tombstone_where(self, keep: Callable[[MemoryItem], bool], reason: str) -> None:
        reader = Reader(session_id=self.session_id, agent_id=self.agent_id)
        for item in await scan_namespace(self.backend, self.namespace, reader):
            if item.namespace == self.namespace and keep(item):
                await self._guard.tombstone(item.id, actor=self._actor(), reason=reason)

    async def _tombstone_keys(self, keys: Sequence[str], reason: str) -> None:
        reader = Reader(session_id=self.session_id, agent_id=self.agent_id)
        for key in keys:
            for item in await find_key(self.backend, self.namespace, key, reader):
                await self._guard.tombstone(item.id, actor=self._actor(), reason=reason)

    def delete(self, ref_doc_id: str, **delete_kwargs: Any) -> None:
        """Delete a document's nodes; they are tombstoned in memgate."""

        def of_doc(item: MemoryItem) -> bool:
            fields = item.metadata.get(NODE_KEY)
            return isinstance(fields, dict) and fields.get("ref_doc_id") == ref_doc_id

        self._guard.run(self._tombstone_where(of_doc, "llamaindex delete"))
        self.inner.delete(ref_doc_id, **delete_kwargs)

    def delete_nodes(
        self,
        node_ids: list[str] | None = None,
        filters: MetadataFilters | None = None,
        **delete_kwargs: Any,
    ) -> None:
        """Delete nodes by id; they are tombstoned in memgate. (Filters go to the
        inner store only: memgate cannot evaluate them.)"""
        if node_ids:
            self._guard.run(self._tombstone_keys(node_ids, "llamaindex delete_nodes"))
        self.inner.delete_nodes(node_ids, filters, **delete_kwargs)

    def clear(self) -> None:
        """Clear the inner store; every node of the namespace is tombstoned."""
        self._guard.run(self._tombstone_where(lambda _: True, "llamaindex clear"))
        self.inner.clear()

    def persist(self, persist_path: str, fs: Any | None = None) -> None:
        """Persist the inner store (memgate persists itself)."""
        self.inner.persist(persist_path, fs=fs)

    # -- sync -----------------------------------------------------------------------

    def sync(self) -> SyncReport:
        """Apply memgate's log since the last sync to the inner store: approved
        nodes enter, nodes no longer served leave."""
        changed, last = self._guard.run(self._guard.changes())
        report = SyncReport(last_seq=last)
        for change in changed:
            item = change.item
            if item.key is None or item.namespace != self.namespace:
                continue
            if change.enters:
                with contextlib.suppress(NotImplementedError):
                    self.inner.delete_nodes([item.key])
                self.inner.add(self._embedded([self._node(item)]))
                report.added.append(item.id)
            elif change.leaves:
                self.inner.delete_nodes([item.key])
                report.removed.append(item.id)
        self._guard.cursor = last
        return report
