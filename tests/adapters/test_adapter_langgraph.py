"""The LangGraph store adapter against the real langgraph package: a compiled
StateGraph with deterministic nodes across two threads, and the store
behaviours LangGraph code relies on (ordering, TTL, filters, namespaces)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any, TypedDict

import pytest
from adapter_fixtures import HOSTILE, INJECTION, TOKEN, Clock
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import GetOp, ListNamespacesOp, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore

from memgate.adapters.langgraph import MemgateStore, MemoryHeld
from memgate.bootstrap import memory_gateway
from memgate.domain import Source
from memgate.domain.events import Op
from memgate.domain.memory import MemoryState, Reader
from memgate.gateway import Gateway
from memgate.trust import Inspector

NS = ("users", "u1", "facts")


class State(TypedDict, total=False):
    fact: str
    key: str
    recalled: dict[str, Any] | None
    found: list[str]


async def remember(state: State) -> State:
    if state.get("fact"):
        await get_store().aput(NS, state["key"], {"text": state["fact"]})
    return {}


async def recall(state: State) -> State:
    store = get_store()
    item = await store.aget(NS, state["key"])
    hits = await store.asearch(("users", "u1"), limit=20)
    return {"recalled": item.value if item else None, "found": sorted(h.key for h in hits)}


def build_graph(store: MemgateStore) -> Any:
    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("recall", recall)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", END)
    return builder.compile(store=store, checkpointer=InMemorySaver())


def thread(name: str) -> Any:
    return {"configurable": {"thread_id": name}}


def test_graph_threads_share_approved_memories_and_keep_pending_ones_to_their_writer(
    held_gateway: Gateway,
) -> None:
    gateway = held_gateway  # agent-written: long-term values wait for review
    store = MemgateStore(gateway)
    graph = build_graph(store)

    async def scenario() -> None:
        out_a = await graph.ainvoke({"fact": "likes green tea", "key": "drink"}, thread("A"))
        # Read-your-writes: the writing thread sees its pending value at once.
        assert out_a["recalled"] == {"text": "likes green tea"}
        out_b = await graph.ainvoke({"key": "drink"}, thread("B"))
        assert out_b["recalled"] is None and out_b["found"] == []

        status = await store.astatus(NS, "drink")
        assert status is not None and status.state is MemoryState.PENDING_REVIEW
        await gateway.approve(status.id, reviewer="alice")
        out_b = await graph.ainvoke({"key": "drink"}, thread("B"))
        assert out_b["recalled"] == {"text": "likes green tea"}
        assert out_b["found"] == ["drink"]

        # Provenance: the writer's thread and node:step, and B's reads.
        (first, *_) = await gateway.history(status.id)
        assert first.event.item is not None
        assert first.event.item.session_id == "A"
        assert first.event.item.call_id == "remember:1"
        reads = await gateway.reads_of(status.id)
        assert ("A", "recall:2") in {(r.session_id, r.call_id) for r in reads}
        assert {r.session_id for r in reads if (r.call_id or "").startswith("recall:")} == {
            "A",
            "B",
        }

        # A hostile value is rejected: no exception in the agent loop, never served.
        out_a = await graph.ainvoke({"fact": HOSTILE, "key": "evil"}, thread("A"))
        assert out_a["recalled"] is None and "evil" not in out_a["found"]
        evil = await store.astatus(NS, "evil")
        assert evil is not None and evil.state is MemoryState.REJECTED
        assert "injection" in evil.categories

    asyncio.run(scenario())


def test_sync_graph_on_sqlite_with_a_store_on_its_own_loop(tmp_path: Path) -> None:
    store = MemgateStore.open(tmp_path / "data", source=Source.USER, graph=None)
    try:
        builder = StateGraph(State)

        def write(state: State) -> State:
            get_store().put(NS, state["key"], {"text": state["fact"], "n": 1.0})
            return {}

        def read(state: State) -> State:
            item = get_store().get(NS, state["key"])
            return {"recalled": item.value if item else None}

        builder.add_node("write", write)
        builder.add_node("read", read)
        builder.add_edge(START, "write")
        builder.add_edge("write", "read")
        builder.add_edge("read", END)
        graph = builder.compile(store=store)
        out = graph.invoke({"fact": "prefers metric units", "key": "units"}, thread("T1"))
        assert out["recalled"] == {"text": "prefers metric units", "n": 1.0}
        assert store.get(NS, "units") is not None
    finally:
        store.close()
    # Reopened from disk: the value persisted.
    store = MemgateStore.open(tmp_path / "data", graph=None)
    try:
        item = store.get(NS, "units")
        assert item is not None and item.value == {"text": "prefers metric units", "n": 1.0}
        # async calls from another loop hop to the gateway's loop thread
        again = asyncio.run(store.aget(NS, "units"))
        assert again is not None and again.value == item.value
    finally:
        store.close()


def test_sync_call_on_the_backends_own_loop_is_refused(gateway: Gateway) -> None:
    store = MemgateStore(gateway)
    with pytest.raises(RuntimeError, match="own loop thread"):
        store.get(NS, "k")


def test_values_round_trip_exactly_and_batch_results_keep_input_order(gateway: Gateway) -> None:
    store = MemgateStore(gateway, source=Source.USER, session_id="s")
    value = {"z": 1, "a": [1, 2.5, {"deep": None}], "é": "ünïcode ✓", "t": True, "big": 2**62}

    async def scenario() -> None:
        results = await store.abatch(
            [
                PutOp(("a",), "k1", value),
                GetOp(("a",), "k1"),
                PutOp(("b", "c"), "k2", {"x": 1}),
                ListNamespacesOp(),
                GetOp(("a",), "missing"),
                SearchOp(("b",), None, 10, 0),
            ]
        )
        assert results[0] is None and results[2] is None
        assert results[1] is not None and results[1].value == value
        assert list(results[1].value) == list(value)  # key order too
        assert results[3] == [("a",), ("b", "c")]
        assert results[4] is None
        assert [i.key for i in results[5]] == ["k2"]

    asyncio.run(scenario())


def test_updates_keep_created_at_and_deletes_are_tombstones(gateway: Gateway) -> None:
    store = MemgateStore(gateway, source=Source.USER, session_id="s")

    async def scenario() -> None:
        await store.aput(NS, "k", {"v": 1})
        first = await store.aget(NS, "k")
        await asyncio.sleep(0.002)
        await store.aput(NS, "k", {"v": 2})
        second = await store.aget(NS, "k")
        assert first is not None and second is not None
        assert second.value == {"v": 2}
        assert second.created_at == first.created_at
        assert second.updated_at > first.updated_at

        status = await store.astatus(NS, "k")
        assert status is not None
        await store.adelete(NS, "k")
        assert await store.aget(NS, "k") is None
        history = await gateway.history(status.id)
        assert history[-1].event.op is Op.DELETED
        assert history[-1].event.state_after is MemoryState.DELETED

    asyncio.run(scenario())


def test_status_follows_deletes_and_later_changes(held_gateway: Gateway) -> None:
    gateway = held_gateway  # agent writes wait for review
    store = MemgateStore(gateway, session_id="s")

    async def scenario() -> None:
        await store.aput(NS, "k", {"v": 1})
        before = await store.astatus(NS, "k")
        assert before is not None and before.state is MemoryState.PENDING_REVIEW
        await store.adelete(NS, "k")
        after = await store.astatus(NS, "k")
        # Not the receipt of the put any more: the value is a tombstone now.
        assert after is not None and after.id == before.id
        assert after.state is MemoryState.DELETED
        # A later put is reported again, then a change made elsewhere (a reviewer
        # rejecting it) shows too: the status is the log's, not the put's.
        await store.aput(NS, "k", {"v": 2})
        again = await store.astatus(NS, "k")
        assert again is not None and again.state is MemoryState.PENDING_REVIEW
        await gateway.reject(again.id, reviewer="rita", reason="no")
        rejected = await store.astatus(NS, "k")
        assert rejected is not None and rejected.state is MemoryState.REJECTED
        await store.aput(NS, "k2", {"v": 3})
        put = await store.astatus(NS, "k2")
        assert put is not None
        await gateway.delete(put.id, actor="someone-else")
        gone = await store.astatus(NS, "k2")
        assert gone is not None and gone.state is MemoryState.DELETED

    asyncio.run(scenario())


def test_ttl_minutes_go_short_term_expire_and_refresh_on_read(inspector: Inspector) -> None:
    clock = Clock()
    gateway = memory_gateway(inspector=inspector, clock=clock)
    store = MemgateStore(gateway, session_id="s")

    async def scenario() -> None:
        await store.aput(NS, "short", {"v": 1}, ttl=1)
        status = await store.astatus(NS, "short")
        assert status is not None and status.state is MemoryState.TRANSIENT
        clock.advance(seconds=40)
        assert await store.aget(NS, "short") is not None  # refreshes: 60 s from now
        clock.advance(seconds=40)
        assert await store.aget(NS, "short", refresh_ttl=False) is not None
        clock.advance(seconds=30)
        assert await store.aget(NS, "short") is None
        assert await store.asearch(("users",)) == []
        assert await store.sweep() == 1

        ttl_store = MemgateStore(gateway, session_id="s", ttl={"default_ttl": 2.0})
        await ttl_store.aput(NS, "default", {"v": 2})
        clock.advance(seconds=119)
        assert await ttl_store.aget(NS, "default", refresh_ttl=False) is not None
        clock.advance(seconds=2)
        assert await ttl_store.aget(NS, "default") is None

    asyncio.run(scenario())


DATA = {
    "a": {"n": 1, "tag": "x", "meta": {"lang": "en", "level": 2}, "list": [1, 2]},
    "b": {"n": 5, "tag": "y", "meta": {"lang": "de", "level": 2}, "list": [1, 2, 3]},
    "c": {"n": 10, "tag": "x", "meta": {"lang": "en", "level": 3}, "list": [2, 1]},
}
FILTERS: list[dict[str, Any]] = [
    {"tag": "x"},
    {"n": {"$gt": 1}},
    {"n": {"$gte": 5, "$lt": 10}},
    {"n": {"$lte": 5}, "tag": {"$ne": "y"}},
    {"meta": {"lang": "en"}},
    {"meta": {"lang": "en", "level": 3}},
    {"list": [1, 2]},
    {"tag": {"$eq": "y"}},
    {"missing": None},
]


@pytest.mark.parametrize("filters", FILTERS)
def test_filters_select_what_in_memory_store_selects(
    gateway: Gateway, filters: dict[str, Any]
) -> None:
    ours = MemgateStore(gateway, source=Source.USER, session_id="s")
    theirs = InMemoryStore()
    for key, value in DATA.items():
        theirs.put(("docs",), key, value)

    async def scenario() -> list[str]:
        for key, value in DATA.items():
            await ours.aput(("docs",), key, value)
        return sorted(i.key for i in await ours.asearch(("docs",), filter=filters))

    expected = sorted(i.key for i in theirs.search(("docs",), filter=filters))
    assert asyncio.run(scenario()) == expected


LISTINGS: list[dict[str, Any]] = [
    {},
    {"prefix": ("a",)},
    {"suffix": ("v",)},
    {"prefix": ("a", "*", "v")},
    {"max_depth": 2},
    {"prefix": ("a",), "max_depth": 1},
    {"limit": 2, "offset": 1},
]


@pytest.mark.parametrize("kwargs", LISTINGS)
def test_list_namespaces_matches_in_memory_store(gateway: Gateway, kwargs: dict[str, Any]) -> None:
    spaces = [("a", "b", "v"), ("a", "c", "v"), ("a", "c"), ("d", "v"), ("d",)]
    ours = MemgateStore(gateway, source=Source.USER, session_id="s")
    theirs = InMemoryStore()
    for ns in spaces:
        theirs.put(ns, "k", {"x": 1})

    async def scenario() -> list[tuple[str, ...]]:
        for ns in spaces:
            await ours.aput(ns, "k", {"x": 1})
        return await ours.alist_namespaces(**kwargs)

    assert asyncio.run(scenario()) == theirs.list_namespaces(**kwargs)


def test_listing_namespaces_is_not_a_read(gateway: Gateway) -> None:
    store = MemgateStore(gateway, source=Source.USER, session_id="s")

    async def scenario() -> None:
        await store.aput(("a",), "k", {"x": 1})
        status = await store.astatus(("a",), "k")
        assert status is not None
        assert await store.alist_namespaces() == [("a",)]
        assert await gateway.reads_of(status.id) == []

    asyncio.run(scenario())


def test_labels_with_slashes_round_trip(gateway: Gateway) -> None:
    store = MemgateStore(gateway, source=Source.USER, session_id="s", prefix=("lg",))

    async def scenario() -> None:
        await store.aput(("a/b", "50%"), "k", {"x": 1})
        item = await store.aget(("a/b", "50%"), "k")
        assert item is not None and item.namespace == ("a/b", "50%")
        assert await store.alist_namespaces() == [("a/b", "50%")]
        assert await store.aget(("a", "b"), "k") is None

    asyncio.run(scenario())


def test_a_secret_in_a_value_is_redacted_before_it_is_stored(tmp_path: Path) -> None:
    store = MemgateStore.open(tmp_path / "data", source=Source.USER, session_id="s", graph=None)
    try:
        store.put(NS, "deploy", {"note": f"deploy token {TOKEN}", "env": "prod"})
        item = store.get(NS, "deploy")
        assert item is not None
        assert TOKEN not in item.value["note"]
        assert "[REDACTED:MG-SEC-" in item.value["note"]
        assert item.value["env"] == "prod"
        status = store.status(NS, "deploy")
        assert status is not None and status.redacted and "secret" in status.categories
    finally:
        store.close()
    db = sqlite3.connect(tmp_path / "data" / "db" / "memgate.sqlite3")
    try:
        dump = "\n".join(db.iterdump())
    finally:
        db.close()
    assert TOKEN not in dump


def test_strict_mode_raises_for_held_values_and_default_mode_does_not(gateway: Gateway) -> None:
    lenient = MemgateStore(gateway, session_id="s")
    strict = MemgateStore(gateway, session_id="s", strict=True)

    async def scenario() -> None:
        await lenient.aput(NS, "note", {"text": INJECTION})
        status = await lenient.astatus(NS, "note")
        assert status is not None and status.state is not MemoryState.APPROVED
        with pytest.raises(MemoryHeld, match=r"is rejected \(MG-") as info:
            await strict.aput(NS, "note2", {"text": HOSTILE})
        assert info.value.receipt.state is MemoryState.REJECTED
        assert await strict.aget(NS, "note2") is None

    asyncio.run(scenario())


def test_pending_values_are_served_only_to_the_writing_session(held_gateway: Gateway) -> None:
    gateway = held_gateway
    writer = MemgateStore(gateway, session_id="writer")
    other = MemgateStore(gateway, session_id="other")

    async def scenario() -> None:
        await writer.aput(NS, "k", {"text": "the user's dog is called Rex"})
        assert await writer.aget(NS, "k") is not None
        assert await other.aget(NS, "k") is None
        assert await other.asearch(("users",)) == []
        status = await writer.astatus(NS, "k")
        assert status is not None
        reads = await gateway.reads_of(status.id)
        assert {r.session_id for r in reads} == {"writer"}
        assert await gateway.read(status.id, Reader(session_id="other")) is None

    asyncio.run(scenario())
