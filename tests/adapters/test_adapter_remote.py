"""Every adapter against a remote memgate server: the real app (create_app, its
lifespan, real SQLite, API keys) reached through memgate's HTTP client over
httpx's ASGI transport."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypedDict

import httpx
import pytest
import uvicorn
from adapter_fixtures import HOSTILE
from autogen_core.memory import MemoryContent
from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph
from mcp import Client

from memgate.adapters import RemoteBackend
from memgate.adapters.autogen import MemgateMemory
from memgate.adapters.langgraph import MemgateStore
from memgate.adapters.mcp import build_server
from memgate.adapters.openai_agents import MemgateSession
from memgate.client import AsyncMemgateClient
from memgate.domain import Source
from memgate.domain.memory import MemoryState
from memgate.service.app import create_app
from memgate.service.keys_sqlite import SqliteKeyStore as KeyStore
from memgate.service.settings import Settings
from memgate.trust.policy import DEFAULT_POLICY

Remote = Callable[[str], RemoteBackend]


@contextlib.asynccontextmanager
async def server(
    data_dir: Path, policy_path: Path | None = None
) -> AsyncIterator[tuple[Remote, Any]]:
    """The app with its lifespan run; `connect(role)` makes a backend with a new
    key of that role."""
    app = create_app(Settings(data_dir=data_dir, graph=None, policy_path=policy_path))
    async with app.router.lifespan_context(app):
        state = app.state.memgate
        opened: list[RemoteBackend] = []

        def connect(role: str) -> RemoteBackend:
            # Agent keys relay the user's turns (conversation stores): user channels.
            _, raw = state.keys.create(
                f"adapter-{role}-{len(opened)}", role, [], user_channel=role == "agent"
            )
            client = AsyncMemgateClient(
                "http://memgate.test", key=raw, transport=httpx.ASGITransport(app=app)
            )
            opened.append(RemoteBackend(client))
            return opened[-1]

        try:
            yield connect, state.gateway
        finally:
            for backend in opened:
                await backend.close()


def run_remote(
    tmp_path: Path, scenario: Callable[[Remote, Any], Awaitable[None]], *, held: bool = False
) -> None:
    """`held`: every agent write waits for review (`[provenance] auto_approve = []`),
    for scenarios about what a pending value does."""
    policy = None
    if held:
        text = DEFAULT_POLICY.read_text(encoding="utf-8")
        assert 'auto_approve = ["agent"]' in text
        policy = tmp_path / "policy.toml"
        policy.write_text(text.replace('auto_approve = ["agent"]', "auto_approve = []"))

    async def main() -> None:
        async with server(tmp_path / "data", policy) as (connect, gateway):
            await scenario(connect, gateway)

    asyncio.run(main())


class State(TypedDict, total=False):
    fact: str
    recalled: dict[str, Any] | None


async def remember(state: State) -> State:
    if state.get("fact"):
        await get_store().aput(("users", "u1"), "fact", {"text": state["fact"]})
    return {}


async def recall(state: State) -> State:
    item = await get_store().aget(("users", "u1"), "fact")
    return {"recalled": item.value if item else None}


def test_langgraph_store_on_a_remote_server(tmp_path: Path) -> None:
    async def scenario(connect: Remote, gateway: Any) -> None:
        store = MemgateStore(connect("agent"))
        builder = StateGraph(State)
        builder.add_node("remember", remember)
        builder.add_node("recall", recall)
        builder.add_edge(START, "remember")
        builder.add_edge("remember", "recall")
        builder.add_edge("recall", END)
        graph = builder.compile(store=store)
        out = await graph.ainvoke(
            {"fact": "likes jasmine tea"}, {"configurable": {"thread_id": "A"}}
        )
        assert out["recalled"] == {"text": "likes jasmine tea"}  # read-your-writes, remotely
        out = await graph.ainvoke({}, {"configurable": {"thread_id": "B"}})
        assert out["recalled"] is None  # pending review: not served to thread B
        status = await store.astatus(("users", "u1"), "fact")
        assert status is not None and status.state is MemoryState.PENDING_REVIEW
        reads = await gateway.reads_of(status.id)
        assert {(r.session_id, r.call_id) for r in reads} >= {("A", "recall:2")}

        await store.aput(("users", "u1"), "evil", {"text": HOSTILE})
        evil = await store.astatus(("users", "u1"), "evil")
        assert evil is not None and evil.state is MemoryState.REJECTED

        user_store = MemgateStore(connect("agent"), source=Source.USER, session_id="u")
        await user_store.aput(("docs", "a"), "k", {"n": 1})
        await user_store.aput(("docs", "b"), "k", {"n": 2})
        assert await user_store.alist_namespaces(prefix=("docs",)) == [("docs", "a"), ("docs", "b")]
        hits = await user_store.asearch(("docs",), filter={"n": {"$gt": 1}})
        assert [h.namespace for h in hits] == [("docs", "b")]
        await user_store.adelete(("docs", "a"), "k")
        assert await user_store.aget(("docs", "a"), "k") is None

    run_remote(tmp_path, scenario, held=True)


def test_agents_session_on_a_remote_server(tmp_path: Path) -> None:
    async def scenario(connect: Remote, gateway: Any) -> None:
        session = MemgateSession("chat-9", connect("agent"))
        items: list[Any] = [
            {"role": "user", "content": "hello"},
            {"type": "function_call", "call_id": "c1", "name": "fetch", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": HOSTILE},
        ]
        await session.add_items(items)
        got = await session.get_items()
        assert got[:2] == items[:2]
        assert got[2]["call_id"] == "c1" and "withheld" in got[2]["output"]
        assert await session.get_items(limit=1) == [got[2]]
        assert await session.pop_item() == got[2]
        assert await session.get_items() == items[:2]
        await session.clear_session()
        assert await session.get_items() == []

    run_remote(tmp_path, scenario)


def test_agents_session_default_prefix_fits_a_scoped_key(tmp_path: Path) -> None:
    """The README's agent key is scoped to `acme`: the session's default place
    must lie inside that scope, or every history write is refused."""

    async def main() -> None:
        app = create_app(Settings(data_dir=tmp_path / "data", graph=None))
        async with app.router.lifespan_context(app):
            state = app.state.memgate
            _, raw = state.keys.create("support-bot", "agent", [["acme"]], user_channel=True)
            client = AsyncMemgateClient(
                "http://memgate.test", key=raw, transport=httpx.ASGITransport(app=app)
            )
            backend = RemoteBackend(client)
            try:
                me = await client.my_key()
                assert me.role == "agent" and me.namespaces == (("acme",),)
                session = MemgateSession("chat-1", backend)
                items: list[Any] = [{"role": "user", "content": "I prefer metric units."}]
                await session.add_items(items)
                assert await session.get_items() == items
                assert await session.namespace() == ("acme", "sessions", "chat-1")
                stored = await state.gateway.search(("acme", "sessions"))
                assert [i.namespace for i in stored] == [("acme", "sessions", "chat-1")]
                # An explicit prefix is used as given (and refused outside the scope).
                elsewhere = MemgateSession("chat-2", backend, prefix=("sessions",))
                with pytest.raises(Exception, match="namespace"):
                    await elsewhere.add_items(items)
            finally:
                await backend.close()

    asyncio.run(main())


def test_autogen_memory_on_a_remote_server(tmp_path: Path) -> None:
    async def scenario(connect: Remote, gateway: Any) -> None:
        memory = MemgateMemory(connect("agent"), namespace=("u", "7"), source=Source.USER)
        await memory.add(MemoryContent(content="Prefers window seats.", mime_type="text/plain"))
        (hit,) = (await memory.query("window seats")).results
        assert hit.content == "Prefers window seats."
        assert hit.metadata is not None and hit.metadata["memgate"]["state"] == "approved"
        await memory.clear()
        assert (await memory.query("window")).results == []

    run_remote(tmp_path, scenario)


def test_mcp_servers_on_a_remote_server(tmp_path: Path) -> None:
    async def scenario(connect: Remote, gateway: Any) -> None:
        agent_server = build_server(connect("agent"), session_id="mcp-s")
        admin_server = build_server(connect("admin"), admin=True)
        async with Client(agent_server) as agent, Client(admin_server) as admin:
            added = await agent.call_tool(
                "add_memory",
                {"content": "Door code rotates monthly.", "namespace": ["kb"], "key": "door"},
            )
            assert added.structured_content is not None
            memory_id = added.structured_content["id"]
            assert added.structured_content["state"] == "transient"
            found = await agent.call_tool("search_memories", {"query": "door", "namespace": "kb"})
            assert found.structured_content is not None
            assert [i["id"] for i in found.structured_content["items"]] == [memory_id]
            # The service shows the audit trail to reviewer and admin keys only.
            refused = await agent.call_tool("memory_history", {"memory_id": memory_id})
            assert refused.is_error and "role" in str(refused.content)
            history = await admin.call_tool("memory_history", {"memory_id": memory_id})
            assert history.structured_content is not None
            assert history.structured_content["events"][0]["op"] == "admitted"

            queued = await agent.call_tool(
                "add_memory",
                {"content": "The VPN needs the new client.", "namespace": ["kb"], "target": "long"},
            )
            assert queued.structured_content is not None
            assert queued.structured_content["state"] == "pending_review"
            pending = await admin.call_tool("list_pending", {"namespace": "kb"})
            assert pending.structured_content is not None
            (item,) = pending.structured_content["items"]
            assert item["id"] == queued.structured_content["id"]
            ok = await admin.call_tool("approve_memory", {"memory_id": item["id"]})
            assert ok.structured_content is not None
            assert ok.structured_content["state"] == "approved"
            verdict = await admin.call_tool("verify_log", {})
            assert verdict.structured_content is not None and verdict.structured_content["ok"]
            plan = await admin.call_tool("rollback", {"to_seq": 1, "reason": "drill"})
            assert plan.structured_content is not None
            assert plan.structured_content["applied"] is False
            readers = await admin.call_tool("memory_readers", {"memory_id": memory_id})
            assert readers.structured_content is not None
            assert readers.structured_content["graph"]["status"] == "graph_unavailable"
            # The agent key cannot use admin tools even through an admin-built server.
            sneaky = build_server(connect("agent"), admin=True)
            async with Client(sneaky) as client:
                refused = await client.call_tool("verify_log", {})
                assert refused.is_error
        reads = await gateway.reads_of(memory_id)
        assert "mcp-s" in {r.session_id for r in reads}

    run_remote(tmp_path, scenario, held=True)


def test_sync_langgraph_store_against_a_server_over_http(tmp_path: Path) -> None:
    """MemgateStore.connect: a sync graph against memgate served by uvicorn."""
    settings = Settings(data_dir=tmp_path / "data", graph=None)
    with KeyStore(settings.keys_path) as keys:
        _, raw = keys.create("sync-agent", "agent", [], user_channel=True)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(settings), log_level="warning", lifespan="on")
    web = uvicorn.Server(config)
    thread = threading.Thread(target=web.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not web.started:
        assert thread.is_alive() and time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    store = MemgateStore.connect(f"http://127.0.0.1:{port}", raw, source=Source.USER)
    try:
        builder = StateGraph(State)

        def write(state: State) -> State:
            get_store().put(("users", "u2"), "fact", {"text": state["fact"]})
            return {}

        def read(state: State) -> State:
            item = get_store().get(("users", "u2"), "fact")
            return {"recalled": item.value if item else None}

        builder.add_node("write", write)
        builder.add_node("read", read)
        builder.add_edge(START, "write")
        builder.add_edge("write", "read")
        builder.add_edge("read", END)
        out = builder.compile(store=store).invoke(
            {"fact": "allergic to cats"}, {"configurable": {"thread_id": "T"}}
        )
        assert out["recalled"] == {"text": "allergic to cats"}
        assert store.list_namespaces() == [("users", "u2")]
    finally:
        store.close()
        web.should_exit = True
        thread.join(timeout=20)
        sock.close()
