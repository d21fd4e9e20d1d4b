"""MemgateVectorStore against the real llama-index-core: a VectorStoreIndex over a
SimpleVectorStore, and LlamaIndex's Memory with a VectorMemoryBlock (a local
embedding behind LlamaIndex's BaseEmbedding; a whitespace tokenizer, so nothing
is downloaded)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from adapter_fixtures import HOSTILE, TOKEN
from guarded_fixtures import embed, graph_readers, readers_of, running_gateway
from llama_index.core import Document, StorageContext, VectorStoreIndex
from llama_index.core.embeddings import BaseEmbedding
from llama_index.core.llms import ChatMessage
from llama_index.core.memory import Memory, VectorMemoryBlock
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores import SimpleVectorStore
from sqlalchemy.ext.asyncio import create_async_engine

from memgate.adapters.llama_index import MemgateVectorStore
from memgate.domain.memory import MemoryState
from memgate.gateway import SyncGateway
from memgate.trust import Inspector


class LocalEmbedding(BaseEmbedding):
    """LlamaIndex's embedding port, answered locally."""

    def _get_query_embedding(self, query: str) -> list[float]:
        return embed(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return embed(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return embed(text)


@pytest.fixture
def gateway(inspector: Inspector) -> Iterator[SyncGateway]:
    with running_gateway(inspector) as gateway:
        yield gateway


@pytest.fixture
def model() -> LocalEmbedding:
    return LocalEmbedding(model_name="local-hash")


@pytest.fixture
def store(gateway: SyncGateway, model: LocalEmbedding) -> MemgateVectorStore:
    return MemgateVectorStore.from_sync(
        gateway, inner=SimpleVectorStore(), embed_model=model, session_id="s1"
    )


def index_over(store: MemgateVectorStore, nodes: list[TextNode]) -> VectorStoreIndex:
    context = StorageContext.from_defaults(vector_store=store)
    return VectorStoreIndex(nodes, storage_context=context, embed_model=store.embed_model)


def inner_ids(store: MemgateVectorStore) -> set[str]:
    inner = store.inner
    assert isinstance(inner, SimpleVectorStore)
    return set(inner.data.embedding_dict)


def retrieve(index: VectorStoreIndex, query: str, k: int = 3) -> list[str]:
    return [
        hit.node.get_content() for hit in index.as_retriever(similarity_top_k=k).retrieve(query)
    ]


def test_only_approved_nodes_reach_the_inner_store(store: MemgateVectorStore) -> None:
    good = TextNode(text="I prefer metric units.")
    bad = TextNode(text=HOSTILE)
    index = index_over(store, [good, bad])
    assert inner_ids(store) == {good.node_id}
    assert retrieve(index, "metric units") == ["I prefer metric units."]
    assert HOSTILE not in retrieve(index, "password instructions")


def test_retrieval_is_a_recorded_read_in_the_log_and_the_graph(
    store: MemgateVectorStore, gateway: SyncGateway
) -> None:
    node = TextNode(text="The user's favourite colour is teal.")
    index = index_over(store, [node])
    assert retrieve(index, "favourite colour") == ["The user's favourite colour is teal."]
    (item,) = gateway.run(gateway.gateway.search(("llamaindex",)))
    assert "s1" in readers_of(gateway, item.id)
    assert "s1" in graph_readers(gateway, item.id)
    hits = asyncio.run(index.as_retriever(similarity_top_k=1).aretrieve("teal colour"))
    assert [h.node.get_content() for h in hits] == ["The user's favourite colour is teal."]


def test_a_secret_enters_redacted_after_review_and_sync(
    store: MemgateVectorStore, gateway: SyncGateway
) -> None:
    node = TextNode(text=f"The deploy token is {TOKEN}")
    index = index_over(store, [node])
    assert inner_ids(store) == set()
    (held,) = gateway.run(gateway.gateway.pending())
    assert held.key == node.node_id and held.state is MemoryState.PENDING_REVIEW
    gateway.run(gateway.gateway.approve(held.id, reviewer="rita"))
    assert retrieve(index, "deploy token") == []  # not in the inner store yet
    report = store.sync()
    assert report.added == [held.id]
    assert inner_ids(store) == {node.node_id}
    (text,) = retrieve(index, "deploy token")
    assert text.startswith("The deploy token is [REDACTED:") and TOKEN not in text
    inner = store.inner
    assert isinstance(inner, SimpleVectorStore)
    assert inner.data.embedding_dict[node.node_id] == embed(text)  # the redacted text's


def test_rollback_hides_at_once_and_sync_removes(
    store: MemgateVectorStore, gateway: SyncGateway
) -> None:
    first = TextNode(text="I prefer metric units.")
    index = index_over(store, [first])
    mark = gateway.run(gateway.gateway.store.log_heads())[0]
    second = TextNode(text="Always answer in French units of measure.")
    index.insert_nodes([second])
    assert inner_ids(store) == {first.node_id, second.node_id}
    gateway.run(gateway.gateway.rollback(to=mark, reason="bad", actor="ops", dry_run=False))
    assert retrieve(index, "units measure metric French") == ["I prefer metric units."]
    assert len(store.sync().removed) == 1
    assert inner_ids(store) == {first.node_id}


def test_deletes_tombstone_in_memgate(store: MemgateVectorStore, gateway: SyncGateway) -> None:
    doc = Document(text="Meeting notes: the launch is on Friday.", id_="doc-1")
    context = StorageContext.from_defaults(vector_store=store)
    index = VectorStoreIndex.from_documents(
        [doc], storage_context=context, embed_model=store.embed_model
    )
    (item,) = gateway.run(gateway.gateway.search(("llamaindex",)))
    index.delete_ref_doc("doc-1")
    after = gateway.run(gateway.gateway.get_any(item.id))
    assert after is not None and after.state is MemoryState.DELETED
    assert inner_ids(store) == set() and retrieve(index, "launch Friday") == []

    node = TextNode(text="A short-lived fact.")
    index.insert_nodes([node])
    store.delete_nodes([node.node_id])
    assert gateway.run(gateway.gateway.search(("llamaindex",))) == []


def test_chat_memory_flushed_to_a_vector_block_passes_the_gate(
    store: MemgateVectorStore, gateway: SyncGateway, model: LocalEmbedding, tmp_path: Path
) -> None:
    async def chat() -> str:
        # The chat store's engine, to close it (the default one is never closed).
        engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'chat.db'}")
        block = VectorMemoryBlock(vector_store=store, embed_model=model, similarity_top_k=3)
        memory = Memory.from_defaults(
            session_id="chat-1",
            token_limit=40,
            token_flush_size=10,
            chat_history_token_ratio=0.5,
            memory_blocks=[block],
            tokenizer_fn=lambda text: text.split(),
            async_engine=engine,
        )
        said = [
            ("user", "I like green tea in the morning."),
            ("user", "Noted, green tea it is."),
            ("user", "Filler one two three."),
            ("user", "Filler four five six."),
            ("assistant", HOSTILE),
            ("user", "Tea time again."),
            ("user", "More tea please now."),
        ]
        try:
            for role, text in said:
                await memory.aput(ChatMessage(role=role, content=text))
            return "\n".join(str(m.content) for m in await memory.aget())
        finally:
            await engine.dispose()

    context = asyncio.run(chat())
    # The short-term history overflowed twice: the first flush (the tea
    # preference) passed; the second carried the hostile message and was rejected.
    records = gateway.run(gateway.gateway.store.records(0, 100))
    states = [r.event.item.state for r in records if r.event.item is not None]
    assert states == [MemoryState.APPROVED, MemoryState.REJECTED]
    assert "I like green tea in the morning." in context and HOSTILE not in context
    (served,) = gateway.run(gateway.gateway.search(("llamaindex",)))
    assert inner_ids(store) == {served.key}
    assert served.session_id == "chat-1" and "chat-1" in readers_of(gateway, served.id)


def test_persisting_the_index_persists_the_inner_store(
    store: MemgateVectorStore, tmp_path: Path
) -> None:
    index = index_over(store, [TextNode(text="I prefer metric units.")])
    index.storage_context.persist(persist_dir=str(tmp_path / "index"))
    again = SimpleVectorStore.from_persist_dir(str(tmp_path / "index"))
    assert set(again.data.embedding_dict) == inner_ids(store)
