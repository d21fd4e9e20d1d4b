"""Semantic recall through the adapters, against the real packages: the MCP
server's search tool, LangGraph's `index` and `search(query=...)`, AutoGen's
Memory.query and update_context, and an Agent Framework run. Each asks for
"metric preference" and must get "I prefer metric units" (no word of the
question but "metric" is in it; text search finds nothing)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest
from agent_framework import Agent
from autogen_core.model_context import BufferedChatCompletionContext
from autogen_core.models import UserMessage
from langgraph.store.memory import InMemoryStore
from mcp import Client
from test_adapter_autogen import ScriptedChatClient

from memgate.adapters.agent_framework import MemgateContextProvider
from memgate.adapters.autogen import MemgateMemory
from memgate.adapters.langgraph import MemgateStore
from memgate.adapters.mcp import build_server
from memgate.bootstrap import memory_gateway
from memgate.domain import Source
from memgate.domain.memory import MemoryWrite, Target
from memgate.gateway import Gateway
from memgate.trust import Inspector

PREF = "I prefer metric units"
OTHERS = ["The user lives in Lisbon.", "Deploys happen on Tuesdays.", "The dog is called Biscuit."]
NS = ("users", "42")


@pytest.fixture
def recall_gateway(inspector: Inspector) -> Gateway:
    """In-memory twins with the local model's recall (in-memory index)."""
    return memory_gateway(inspector=inspector, recall="local")


async def remember(gateway: Gateway, namespace: tuple[str, ...] = NS) -> None:
    for content in [PREF, *OTHERS]:
        await gateway.write(
            MemoryWrite(
                content=content, namespace=namespace, source=Source.USER, target=Target.LONG
            )
        )


def test_metric_preference_through_mcp(recall_gateway: Gateway) -> None:
    async def scenario() -> None:
        await remember(recall_gateway)
        async with Client(build_server(recall_gateway, session_id="srv")) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            schema = tools["search_memories"].input_schema["properties"]["mode"]
            assert set(schema["enum"]) == {"text", "vector", "hybrid"}
            text = await client.call_tool(
                "search_memories", {"query": "metric preference", "namespace": ["users"]}
            )
            assert text.structured_content == {"items": []}
            for mode in ("vector", "hybrid"):
                found = await client.call_tool(
                    "search_memories",
                    {"query": "metric preference", "namespace": "users", "mode": mode},
                )
                assert not found.is_error, found.content
                assert found.structured_content is not None
                assert found.structured_content["items"][0]["content"] == PREF, mode
            bad = await client.call_tool(
                "search_memories", {"query": "metric preference", "mode": "fuzzy"}
            )
            assert bad.is_error
        await recall_gateway.close()

    asyncio.run(scenario())


def letters(texts: Sequence[str]) -> list[list[float]]:
    """A user's own embedding function (letter counts), as LangGraph's index takes."""
    out = []
    for text in texts:
        counts = [0.0] * 26
        for ch in text.lower():
            if "a" <= ch <= "z":
                counts[ord(ch) - 97] += 1
        out.append(counts)
    return out


def test_langgraph_index_with_a_user_embedding_function(inspector: Inspector) -> None:
    """`index={"embed", "dims", "fields"}` is honoured like InMemoryStore honours it:
    the same puts and the same query rank the same value first in both."""
    gateway = memory_gateway(inspector=inspector)
    index: Any = {"embed": letters, "dims": 26, "fields": ["text"]}
    store = MemgateStore(gateway, index=index, session_id="t1")
    reference = InMemoryStore(index=index)

    async def scenario() -> None:
        values = {
            "z": {"text": "zzz zebra zoo", "tag": 1},
            "b": {"text": "aaa banana", "tag": 2},
            "q": {"text": "quiet quartz", "tag": 3},
        }
        for key, value in values.items():
            await store.aput(("docs",), key, value)
            await reference.aput(("docs",), key, value)
        await store.aput(("docs",), "hidden", {"text": "zzzz zebras"}, index=False)
        ours = await store.asearch(("docs",), query="lazy zebras", limit=2)
        theirs = await reference.asearch(("docs",), query="lazy zebras", limit=2)
        assert [i.key for i in ours] == [i.key for i in theirs]
        assert ours[0].key == "z"
        assert ours[0].score == pytest.approx(theirs[0].score, abs=1e-5)
        filtered = await store.asearch(("docs",), query="lazy zebras", filter={"tag": 2})
        assert [i.key for i in filtered] == ["b"]
        status = await gateway.recall_status()  # type: ignore[union-attr]
        assert status.embedder is not None and status.embedder.startswith("function/")
        assert status.indexed == 3  # the index=False put stays out
        await gateway.close()

    asyncio.run(scenario())


def test_metric_preference_through_langgraph(recall_gateway: Gateway) -> None:
    store = MemgateStore(recall_gateway, search_mode="hybrid", session_id="t1")
    plain = MemgateStore(recall_gateway, session_id="t1")

    async def scenario() -> None:
        for key, text in [("pref", PREF), *[(f"o{i}", t) for i, t in enumerate(OTHERS)]]:
            await store.aput(("users", "42"), key, {"text": text})
        assert await plain.asearch(("users",), query="metric preference") == []
        found = await store.asearch(("users",), query="metric preference", limit=2)
        assert found[0].value == {"text": PREF}
        assert found[0].score is not None
        await recall_gateway.close()

    asyncio.run(scenario())


def test_metric_preference_through_autogen(recall_gateway: Gateway) -> None:
    memory = MemgateMemory(
        recall_gateway, namespace=NS, session_id="chat-1", source=Source.USER, search_mode="vector"
    )
    words = MemgateMemory(recall_gateway, namespace=NS, session_id="chat-1", limit=1)

    async def scenario() -> None:
        await remember(recall_gateway)
        found = await memory.query("metric preference")
        assert found.results[0].content == PREF
        assert [r.content for r in (await words.query("any preference?")).results] == []
        context = BufferedChatCompletionContext(buffer_size=10)
        await context.add_message(UserMessage(content="metric preference?", source="user"))
        updated = await memory.update_context(context)
        assert updated.memories.results[0].content == PREF
        assert memory.config.model_copy().search_mode.value == "vector"
        await recall_gateway.close()

    asyncio.run(scenario())


def test_metric_preference_through_agent_framework(recall_gateway: Gateway) -> None:
    client = ScriptedChatClient()
    provider = MemgateContextProvider(recall_gateway, namespace=NS, limit=1, search_mode="hybrid")
    agent = Agent(client, "You are helpful.", name="helper", context_providers=[provider])

    async def scenario() -> None:
        await remember(recall_gateway)
        session = agent.create_session(session_id="af-1")
        response = await agent.run("metric preference", session=session)
        assert PREF in response.text
        await recall_gateway.close()

    asyncio.run(scenario())
