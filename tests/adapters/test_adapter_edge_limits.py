"""Issue 15, hole 1 through the adapters: an identifier with a control character
is refused with the field named (MCP: a tool error; LangGraph: a ValueError from
the domain validator), and nothing reaches the log."""

from __future__ import annotations

import asyncio

import pytest
from mcp import Client

from memgate.adapters.langgraph import MemgateStore
from memgate.adapters.mcp import build_server
from memgate.gateway import Gateway


async def fails(client: Client, name: str, **args: object) -> str:
    result = await client.call_tool(name, args)
    assert result.is_error
    return " ".join(getattr(c, "text", "") for c in result.content)


def test_mcp_tools_refuse_control_characters_naming_the_field(gateway: Gateway) -> None:
    async def scenario() -> None:
        async with Client(build_server(gateway)) as client:
            base = {"content": "The user prefers tea.", "namespace": ["u", "1"]}
            text = await fails(client, "add_memory", **base, key="k\x00")
            assert "key" in text and "must be printable" in text
            text = await fails(client, "add_memory", **base, session_id="s\x1b[2J")
            assert "session_id" in text and "must be printable" in text
            text = await fails(client, "add_memory", content="x", namespace=["u", "a\u202eb"])
            assert "namespace" in text and "must be printable" in text
            text = await fails(client, "add_memory", content="   ", namespace=["u"])
            assert "content" in text and "empty" in text
            text = await fails(client, "search_memories", namespace=["u"], session_id="s\x00")
            assert "session_id" in text and "must be printable" in text
        assert (await gateway.checkpoint()).seq == 0

    asyncio.run(scenario())


def test_langgraph_store_refuses_control_characters(gateway: Gateway) -> None:
    async def scenario() -> None:
        store = MemgateStore(gateway)
        with pytest.raises(ValueError, match="key"):
            await store.aput(("users", "u1"), "k\x00", {"text": "hello"})
        with pytest.raises(ValueError, match="namespace"):
            await store.aput(("users", "u\x07"), "k", {"text": "hello"})
        assert (await gateway.checkpoint()).seq == 0
        await store.aput(("users", "u1"), "k", {"text": "hello"})
        assert (await gateway.checkpoint()).seq == 1

    asyncio.run(scenario())
