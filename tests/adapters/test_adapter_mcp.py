"""The MCP server through the SDK's in-memory client: tool listing, annotations,
each tool called, and the gateway's state and recorded reads afterwards."""

from __future__ import annotations

import asyncio
from typing import Any

from adapter_fixtures import HOSTILE, TOKEN
from mcp import Client

from memgate.adapters.mcp import ADMIN_TOOLS, AGENT_TOOLS, build_server
from memgate.domain import Source
from memgate.domain.events import Op
from memgate.domain.memory import MemoryState, MemoryWrite, Target
from memgate.gateway import Gateway


async def call(client: Client, name: str, **args: Any) -> dict[str, Any]:
    result = await client.call_tool(name, args)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def fails(client: Client, name: str, **args: Any) -> str:
    result = await client.call_tool(name, args)
    assert result.is_error
    return " ".join(getattr(c, "text", "") for c in result.content)


def test_agent_server_lists_agent_tools_only_with_annotations(gateway: Gateway) -> None:
    async def scenario() -> None:
        async with Client(build_server(gateway)) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == set(AGENT_TOOLS)
        hints = {n: t.annotations for n, t in tools.items()}
        for name in ("search_memories", "get_memory", "get_memories", "memory_history"):
            assert hints[name] is not None and hints[name].read_only_hint is True
        for name in ("update_memory", "delete_memory"):
            assert hints[name] is not None and hints[name].destructive_hint is True
        add = hints["add_memory"]
        assert add is not None and add.read_only_hint is False and add.destructive_hint is False
        # the MCP context never leaks into a tool's input schema
        assert all("ctx" not in t.input_schema.get("properties", {}) for t in tools.values())

    asyncio.run(scenario())


def test_agent_tools_end_to_end(gateway: Gateway) -> None:
    async def scenario() -> None:
        async with Client(build_server(gateway, session_id="srv")) as client:
            fact = await call(
                client,
                "add_memory",
                content="The user prefers tea.",
                namespace=["u", "1"],
                source="user",
                session_id="alice",
            )
            assert fact["state"] == "approved" and fact["categories"] == []
            note = await call(
                client,
                "add_memory",
                content="Meeting moved to Friday.",
                namespace="u/1",
                key="meeting",
                session_id="alice",
            )
            assert note["state"] == "transient"  # agent source, auto target: short-term
            bad = await call(client, "add_memory", content=HOSTILE, namespace=["u", "1"])
            assert bad["state"] == "rejected" and "injection" in bad["categories"]
            secret = await call(
                client,
                "add_memory",
                content=f"deploy token {TOKEN}",
                namespace=["u", "1"],
                source="user",
                session_id="alice",
            )
            assert "secret" in secret["categories"]
            assert secret["state"] == "pending_review"  # sensitive: a reviewer decides

            got = await call(client, "get_memory", memory_id=fact["id"], session_id="bob")
            assert got["content"] == "The user prefers tea." and got["trust_score"] == 1.0
            assert "no memory" in await fails(client, "get_memory", memory_id=bad["id"])

            found = await call(client, "search_memories", query="tea", namespace=["u"])
            assert [i["id"] for i in found["items"]] == [fact["id"]]
            listed = await call(client, "get_memories", namespace=["u", "1"], session_id="bob")
            assert {i["id"] for i in listed["items"]} == {fact["id"], note["id"]}
            listed = await call(client, "get_memories", namespace=["u", "1"], session_id="alice")
            assert {i["id"] for i in listed["items"]} == {fact["id"], note["id"], secret["id"]}
            (served_secret,) = [i for i in listed["items"] if i["id"] == secret["id"]]
            assert TOKEN not in served_secret["content"]

            updated = await call(
                client, "update_memory", memory_id=note["id"], content="Meeting moved to Monday."
            )
            assert updated["id"] == note["id"] and updated["version"] == 2
            replaced = await call(
                client, "update_memory", memory_id=fact["id"], content="The user prefers coffee."
            )
            assert replaced["replaces"] == fact["id"]
            # the agent's new text does not inherit the user's trust
            assert replaced["state"] == "pending_review"
            # ... and until a reviewer approves it, the original is still served
            assert (await gateway.get_any(fact["id"])).state is MemoryState.APPROVED  # type: ignore[union-attr]
            assert replaced["original"] == "kept until the replacement is approved"

            gone = await call(client, "delete_memory", memory_id=note["id"], reason="done")
            assert gone["state"] == "deleted" and gone["already_deleted"] is False
            # idempotent, as annotated: the second call answers the same state
            again = await call(client, "delete_memory", memory_id=note["id"], reason="done")
            assert again == {"id": note["id"], "state": "deleted", "already_deleted": True}
            assert "no memory" in await fails(client, "delete_memory", memory_id="m_NOPE")

            history = await call(client, "memory_history", memory_id=note["id"])
            assert [e["op"] for e in history["events"]] == ["admitted", "admitted", "deleted"]
            assert history["events"][-1]["reason"] == "done"

            problem = await fails(client, "add_memory", content=TOKEN, namespace=[], key=TOKEN)
            assert "namespace" in problem and TOKEN not in problem
            martian = await fails(
                client, "add_memory", content="x", namespace=["u"], source="martian"
            )
            assert "source" in martian and "'user'" in martian

        reads = await gateway.reads_of(fact["id"])
        assert ("bob", True) in {(r.session_id, r.call_id is not None) for r in reads}
        assert "srv" in {r.session_id for r in reads}  # search without a session_id

    asyncio.run(scenario())


def test_admin_tools_review_rollback_verify_and_readers(gateway: Gateway) -> None:
    async def scenario() -> None:
        async with Client(build_server(gateway, admin=True, reviewer="rita")) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            assert tools == set(AGENT_TOOLS) | set(ADMIN_TOOLS)
            short = await call(
                client,
                "add_memory",
                content="Office wifi is on floor 2.",
                namespace=["kb"],
                source="tool",
                session_id="w1",
            )
            assert short["state"] == "transient"  # tool writes route short-term
            await gateway.write(
                MemoryWrite(
                    content="The door code changes monthly.",
                    namespace=("kb",),
                    source=Source.AGENT,
                    session_id="w1",
                    target=Target.LONG,
                )
            )
            pending = await call(client, "list_pending", namespace=["kb"])
            pending_ids = [i["id"] for i in pending["items"]]
            assert len(pending_ids) == 1
            approved = await call(client, "approve_memory", memory_id=pending_ids[0], note="ok")
            assert approved["state"] == "approved"
            again = await gateway.write(
                MemoryWrite(
                    content="Badges are blue.",
                    namespace=("kb",),
                    source=Source.AGENT,
                    session_id="w1",
                    target=Target.LONG,
                )
            )
            assert "reason" in (
                await fails(client, "reject_memory", memory_id=again.id, reason=" ")
            )
            rejected = await call(client, "reject_memory", memory_id=again.id, reason="wrong")
            assert rejected["state"] == "rejected"

            got = await call(client, "get_memory", memory_id=pending_ids[0], session_id="r1")
            assert got["state"] == "approved"
            readers = await call(client, "memory_readers", memory_id=pending_ids[0])
            assert {r["session_id"] for r in readers["reads"]} == {"r1"}
            assert readers["graph"]["status"] == "graph_unavailable"

            plan = await call(client, "rollback", to_seq=1, reason="test")
            assert plan["applied"] is False and plan["changes"]
            assert (await gateway.get_any(pending_ids[0])).state is MemoryState.APPROVED  # type: ignore[union-attr]
            assert "exactly one" in await fails(client, "rollback", reason="x")
            applied = await call(
                client,
                "rollback",
                to_seq=1,
                reason="incident 7",
                namespace=["kb"],
                dry_run=False,
            )
            assert applied["applied"] is True
            assert (await gateway.get_any(pending_ids[0])).state is not MemoryState.APPROVED  # type: ignore[union-attr]
            history = await gateway.history(pending_ids[0])
            assert history[-1].event.op is Op.ROLLED_BACK and history[-1].event.actor == "rita"

            verdict = await call(client, "verify_log")
            assert verdict["ok"] is True

    asyncio.run(scenario())


def test_tool_schemas_enumerate_sources_and_targets_and_bound_limits(gateway: Gateway) -> None:
    async def scenario() -> None:
        async with Client(build_server(gateway, admin=True)) as client:
            tools = {t.name: t.input_schema for t in (await client.list_tools()).tools}
            sources = sorted(s.value for s in Source)
            for name in ("add_memory", "update_memory"):
                prop = tools[name]["properties"]["source"]
                assert sorted(prop["enum"]) == sources, (name, prop)
            target = tools["add_memory"]["properties"]["target"]
            assert sorted(target["enum"]) == sorted(t.value for t in Target)
            for name in ("search_memories", "get_memories", "list_pending"):
                limit = tools[name]["properties"]["limit"]
                assert limit["minimum"] == 1 and limit["maximum"] == 100, (name, limit)
                assert tools[name]["properties"]["offset"]["minimum"] == 0
            # the bounds hold at call time too
            too_many = await fails(client, "search_memories", query="x", limit=100_000)
            assert "limit" in too_many
            assert "limit" in await fails(client, "get_memories", namespace=["u"], limit=0)
            assert "target" in await fails(
                client, "add_memory", content="x", namespace=["u"], target="forever"
            )

    asyncio.run(scenario())


def test_update_keeps_the_original_until_the_replacement_is_reviewed(
    held_gateway: Gateway,
) -> None:
    gateway = held_gateway  # every agent write waits for a reviewer

    async def scenario() -> None:
        async with Client(build_server(gateway, session_id="srv")) as client:
            first = await call(
                client,
                "add_memory",
                content="The user prefers tea.",
                namespace=["u", "2"],
                source="user",
            )
            second = await call(
                client,
                "add_memory",
                content="The user lives in Lyon.",
                namespace=["u", "2"],
                source="user",
            )
            to_approve = await call(
                client, "update_memory", memory_id=first["id"], content="The user prefers coffee."
            )
            to_reject = await call(
                client, "update_memory", memory_id=second["id"], content="The user lives in Oslo."
            )
            assert to_approve["state"] == to_reject["state"] == "pending_review"
            # Another session still gets the originals, not the pending replacements.
            found = await call(client, "get_memories", namespace=["u", "2"], session_id="bob")
            assert {i["id"] for i in found["items"]} == {first["id"], second["id"]}

            await gateway.approve(to_approve["id"], reviewer="rita")
            await gateway.reject(to_reject["id"], reviewer="rita", reason="not what the user said")
            found = await call(client, "get_memories", namespace=["u", "2"], session_id="bob")
            assert {i["content"] for i in found["items"]} == {
                "The user prefers coffee.",
                "The user lives in Lyon.",
            }
            assert "no memory" in await fails(
                client, "get_memory", memory_id=first["id"], session_id="bob"
            )
        # The approval tombstoned the original in the same transaction, with the reviewer.
        history = await gateway.history(first["id"])
        assert history[-1].event.op is Op.DELETED and history[-1].event.actor == "rita"
        assert history[-1].event.reason is not None and to_approve["id"] in history[-1].event.reason
        approval = (await gateway.history(to_approve["id"]))[-1]
        assert approval.seq == history[-1].seq - 1
        assert (await gateway.get_any(second["id"])).state is MemoryState.APPROVED  # type: ignore[union-attr]

    asyncio.run(scenario())


def test_update_approved_at_once_replaces_at_once(gateway: Gateway) -> None:
    async def scenario() -> None:
        async with Client(build_server(gateway)) as client:
            old = await call(
                client, "add_memory", content="Standup at 9:00.", namespace=["t"], source="user"
            )
            new = await call(
                client,
                "update_memory",
                memory_id=old["id"],
                content="Standup at 9:30.",
                source="user",
            )
            assert new["state"] == "approved" and new["original"] == "deleted"
            assert (await gateway.get_any(old["id"])).state is MemoryState.DELETED  # type: ignore[union-attr]
            rejected = await call(
                client, "update_memory", memory_id=new["id"], content=HOSTILE, source="web"
            )
            assert rejected["state"] == "rejected"
            assert rejected["original"] == "kept: the replacement was rejected"
            assert (await gateway.get_any(new["id"])).state is MemoryState.APPROVED  # type: ignore[union-attr]

    asyncio.run(scenario())
