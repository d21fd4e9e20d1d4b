"""MemgateStore's `ack="queued"` mode and its batched puts, through the real
langgraph package on real SQLite: a queued put is acknowledged before its scan,
served back only to the session that wrote it, never to another session or
namespace until the scan admitted it, and never persisted unredacted."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypedDict

import pytest
from adapter_fixtures import HOSTILE, TOKEN
from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import GetOp, PutOp

from memgate.adapters.langgraph import MemgateStore, QueuedPutsFailed
from memgate.bootstrap import open_gateway
from memgate.domain import Source
from memgate.domain.memory import MemoryState
from memgate.errors import OversizedWrite, WriteRefused
from memgate.gateway import Gateway
from memgate.trust import Policy

NS = ("users", "u1", "facts")


def _files_hold(data_dir: Path, needle: str) -> list[str]:
    """Every file under the data directory (database, WAL, keys) holding `needle`."""
    raw = needle.encode()
    return [str(p) for p in data_dir.rglob("*") if p.is_file() and raw in p.read_bytes()]


def _held_policy() -> Policy:
    """Every agent write waits for review (provenance auto-approves none)."""
    policy = Policy.load()
    provenance = policy.provenance.model_copy(update={"auto_approve": frozenset()})
    return policy.model_copy(update={"provenance": provenance})


async def _sqlite(path: Path, *, held: bool = False) -> Gateway:
    return await open_gateway(
        path, graph=None, recall=None, policy=_held_policy() if held else None
    )


def on_held_sqlite(tmp_path: Path, scenario: Callable[[Gateway], Awaitable[None]]) -> None:
    """Run `scenario` against a SQLite gateway where agent writes wait for review."""

    async def run() -> None:
        gateway = await _sqlite(tmp_path / "data", held=True)
        try:
            await scenario(gateway)
        finally:
            await gateway.close()

    asyncio.run(run())


class Turn(TypedDict, total=False):
    puts: dict[str, dict[str, Any]]
    keys: list[str]
    search: bool
    got: dict[str, dict[str, Any] | None]
    found: list[str]


async def _turn(state: Turn) -> Turn:
    """One graph step: the thread puts, then gets and searches (one store, many threads)."""
    store = get_store()
    for key, value in (state.get("puts") or {}).items():
        await store.aput(NS, key, value)
    got = {}
    for key in state.get("keys") or []:
        item = await store.aget(NS, key)
        got[key] = item.value if item else None
    # A search waits for the queue: not while a test holds the append lock.
    hits = await store.asearch(("users",), limit=50) if state.get("search") else []
    return {"got": got, "found": sorted(h.key for h in hits)}


def _graph(store: MemgateStore) -> CompiledStateGraph[Any, Any, Any, Any]:
    builder = StateGraph(Turn)
    builder.add_node("turn", _turn)
    builder.add_edge(START, "turn")
    builder.add_edge("turn", END)
    return builder.compile(store=store)


def _thread(name: str) -> Any:
    return {"configurable": {"thread_id": name}}


def test_one_store_many_threads_a_parked_value_is_its_writing_thread_s_only(
    tmp_path: Path,
) -> None:
    """LangGraph's usual shape: one store compiled into the graph, one session per
    thread. While a put is parked, only the thread that wrote it gets it back."""

    async def scenario(gateway: Gateway) -> None:
        store = MemgateStore(gateway, ack="queued")
        graph = _graph(store)
        fact = {"text": "the user's dog is called Rex"}
        async with gateway.ctx.lock:  # the parked put cannot be appended meanwhile
            out = await graph.ainvoke({"puts": {"dog": fact}, "keys": ["dog"]}, _thread("A"))
            assert out["got"] == {"dog": fact}
            assert store._parked, "the put is still parked"
            out = await graph.ainvoke({"keys": ["dog"]}, _thread("B"))
            assert out["got"] == {"dog": None}
            # Outside a graph run this store has no session: not the writer either.
            assert await store.aget(NS, "dog") is None
        await store.aflush()
        out = await graph.ainvoke({"keys": ["dog"], "search": True}, _thread("B"))
        assert out["got"] == {"dog": None} and out["found"] == []  # pending review
        out = await graph.ainvoke({"keys": ["dog"], "search": True}, _thread("A"))
        assert out["got"] == {"dog": fact} and out["found"] == ["dog"]
        status = await store.astatus(NS, "dog")
        assert status is not None and status.state is MemoryState.PENDING_REVIEW
        (first, *_) = await gateway.history(status.id)
        assert first.event.item is not None and first.event.item.session_id == "A"
        assert first.event.item.call_id == "turn:1"

    on_held_sqlite(tmp_path, scenario)


def test_a_parked_put_is_served_to_its_writer_only_until_admitted_and_approved(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        gateway = await _sqlite(tmp_path / "data", held=True)
        writer = MemgateStore(gateway, session_id="A", ack="queued")
        other = MemgateStore(gateway, session_id="B")
        value = {"text": "the user's dog is called Rex"}
        try:
            # Hold the gateway's read-modify-append lock: the put's scan may run,
            # its append cannot, so the value stays parked for as long as we like.
            async with gateway.ctx.lock:
                await writer.aput(NS, "dog", value)
                assert (await writer.aget(NS, "dog")).value == value  # read-your-writes
                assert await other.aget(NS, "dog") is None
                assert await other.asearch(("users",)) == []
                assert await other.alist_namespaces() == []
                # Same key, another namespace; same namespace, another key.
                assert await writer.aget(("users", "u2", "facts"), "dog") is None
                assert await writer.aget(NS, "cat") is None
                # Another store of the same session does not hold the parked value.
                twin = MemgateStore(gateway, session_id="A")
                assert await twin.aget(NS, "dog") is None
                # Not in the log yet, so nowhere on disk either.
                assert _files_hold(tmp_path / "data", "Rex") == []
            await writer.aflush()
            status = await writer.astatus(NS, "dog")
            assert status is not None and status.state is MemoryState.PENDING_REVIEW
            assert await other.aget(NS, "dog") is None  # scanned, but not approved
            await gateway.approve(status.id, reviewer="alice")
            item = await other.aget(NS, "dog")
            assert item is not None and item.value == value
            # The writer's read of its parked value is recorded on the admitted item.
            reads = await gateway.reads_of(status.id)
            assert {r.session_id for r in reads} == {"A", "B"}
        finally:
            await writer.aflush()
            await gateway.close()

    asyncio.run(scenario())


def test_no_other_session_ever_sees_an_unscanned_value_while_the_queue_drains(
    tmp_path: Path,
) -> None:
    """Readers poll while puts drain: they see a value only once it is in the log
    (scanned, redacted, approved), never a hostile one, never a raw secret."""

    async def scenario() -> None:
        gateway = await _sqlite(tmp_path / "data")
        writer = MemgateStore(gateway, session_id="W", source=Source.USER, ack="queued")
        reader = MemgateStore(gateway, session_id="R")
        graph = _graph(writer)  # the writer's own store, read by other threads
        seen: list[Any] = []
        done = asyncio.Event()

        async def poll() -> None:
            while True:  # one last pass after the flush: the admitted values show
                finished = done.is_set()
                for key in ("plain", "evil", "token"):
                    item = await reader.aget(NS, key)
                    if item is not None:
                        seen.append(item.value)
                keys = ["plain", "evil", "token"]
                out = await graph.ainvoke({"keys": keys, "search": True}, _thread("R2"))
                seen.extend(v for v in out["got"].values() if v is not None)
                if finished:
                    return
                await asyncio.sleep(0)

        try:
            polling = asyncio.create_task(poll())
            for round_ in range(5):
                await writer.aput(NS, "plain", {"text": f"likes green tea, round {round_}"})
                await writer.aput(NS, "evil", {"text": HOSTILE})
                await writer.aput(NS, "token", {"note": f"deploy token {TOKEN}"})
                mine = await writer.aget(NS, "token")
                assert mine is not None  # its own value, parked or admitted
            await writer.aflush()
            done.set()
            await polling
            assert seen, "the readers saw the admitted values"
            assert all(TOKEN not in str(v) for v in seen)
            assert all(HOSTILE not in str(v) for v in seen)
            assert (await reader.aget(NS, "evil")) is None
            evil = await writer.astatus(NS, "evil")
            assert evil is not None and evil.state is MemoryState.REJECTED
            # A secret sends the value to review; approved, it is served redacted.
            assert await reader.aget(NS, "token") is None
            held = await writer.astatus(NS, "token")
            assert held is not None and held.redacted
            await gateway.approve(held.id, reviewer="alice")
            token = await reader.aget(NS, "token")
            assert token is not None and "[REDACTED:MG-SEC-" in token.value["note"]
            assert (await reader.aget(NS, "plain")).value == {"text": "likes green tea, round 4"}
        finally:
            await gateway.close()
        assert _files_hold(tmp_path / "data", TOKEN) == []

    asyncio.run(scenario())


class State(TypedDict, total=False):
    fact: str
    recalled: dict[str, Any] | None


def test_sync_graph_with_queued_puts_on_sqlite_reads_its_own_write_and_persists_redacted(
    tmp_path: Path,
) -> None:
    store = MemgateStore.open(tmp_path / "data", graph=None, ack="queued")
    try:

        def write(state: State) -> State:
            get_store().put(NS, "deploy", {"note": state["fact"]})
            return {}

        def read(state: State) -> State:
            item = get_store().get(NS, "deploy")
            return {"recalled": item.value if item else None}

        builder = StateGraph(State)
        builder.add_node("write", write)
        builder.add_node("read", read)
        builder.add_edge(START, "write")
        builder.add_edge("write", "read")
        builder.add_edge("read", END)
        graph = builder.compile(store=store)
        fact = f"deploy with token {TOKEN}"
        out = graph.invoke({"fact": fact}, {"configurable": {"thread_id": "T1"}})
        # The thread gets its own value back: the raw one while it is parked, the
        # redacted one once admitted (the drain runs beside the graph).
        assert out["recalled"] is not None
        assert out["recalled"]["note"] == fact or "[REDACTED:MG-SEC-" in out["recalled"]["note"]
        store.flush()
        status = store.status(NS, "deploy")
        assert status is not None and status.redacted and status.state is not MemoryState.APPROVED
    finally:
        store.close()
    assert _files_hold(tmp_path / "data", TOKEN) == []
    db = sqlite3.connect(tmp_path / "data" / "db" / "memgate.sqlite3")
    try:
        (count,) = db.execute("SELECT count(*) FROM items").fetchone()
    finally:
        db.close()
    assert count == 1  # close() admitted the parked put: it is durable


def test_refused_queued_puts_are_reported_by_flush_and_nothing_is_stored(tmp_path: Path) -> None:
    async def scenario(held: Gateway) -> None:
        store = MemgateStore(held, session_id="s", ack="queued")
        await store.aput(NS, f"key-{TOKEN}", {"v": 1})  # a secret in the key
        await store.aput(NS, "fine", {"v": 2})
        with pytest.raises(QueuedPutsFailed) as info:
            await store.aflush()
        assert TOKEN not in str(info.value)
        ((ns, key, error),) = info.value.failures
        assert ns == ("users", "u1", "facts") and key == f"key-{TOKEN}"
        assert isinstance(error, WriteRefused)
        await store.aflush()  # reported once
        assert await store.aget(NS, f"key-{TOKEN}") is None
        assert (await store.aget(NS, "fine")).value == {"v": 2}
        # What can be checked without a scan is refused at once.
        with pytest.raises(OversizedWrite):
            await store.aput(NS, "big", {"text": "x" * 20000})
        with pytest.raises(ValueError, match="JSON"):
            await store.aput(NS, "nan", {"n": float("nan")})

    on_held_sqlite(tmp_path, scenario)


def test_the_queue_is_bounded_and_a_put_waits_for_room(tmp_path: Path) -> None:
    async def scenario(held: Gateway) -> None:
        store = MemgateStore(held, session_id="s", ack="queued", queue_size=2)
        async with held.ctx.lock:
            await store.aput(NS, "a", {"v": 1})
            await store.aput(NS, "b", {"v": 2})
            third = asyncio.create_task(store.aput(NS, "c", {"v": 3}))
            await asyncio.sleep(0.2)
            assert not third.done()  # two parked: the third waits, it is not dropped
        await third
        await store.aflush()
        assert [(await store.aget(NS, k)).value["v"] for k in "abc"] == [1, 2, 3]

    on_held_sqlite(tmp_path, scenario)


def test_queued_puts_of_one_key_land_in_order_and_deletes_wait_for_them(tmp_path: Path) -> None:
    async def scenario(held: Gateway) -> None:
        store = MemgateStore(held, session_id="s", source=Source.USER, ack="queued")
        for v in range(5):
            await store.aput(NS, "k", {"v": v})
        assert (await store.aget(NS, "k")).value == {"v": 4}
        await store.aflush()
        status = await store.astatus(NS, "k")
        assert status is not None and status.version == 5
        assert (await store.aget(NS, "k")).value == {"v": 4}
        await store.aput(NS, "k", {"v": 5})
        await store.adelete(NS, "k")  # the parked put is admitted first, then deleted
        assert await store.aget(NS, "k") is None
        await store.aflush()
        assert await store.aget(NS, "k") is None

    on_held_sqlite(tmp_path, scenario)


def test_strict_and_queued_do_not_mix(held_gateway: Gateway) -> None:
    with pytest.raises(ValueError, match="strict"):
        MemgateStore(held_gateway, strict=True, ack="queued")
    with pytest.raises(ValueError, match="ack"):
        MemgateStore(held_gateway, ack="later")  # type: ignore[arg-type]


def test_a_batch_of_puts_is_written_concurrently_in_input_order_per_key(tmp_path: Path) -> None:
    ops: list[Any] = [PutOp(NS, f"k{i}", {"v": i}) for i in range(100)]
    ops += [PutOp(NS, "k0", {"v": "again"}), GetOp(NS, "k0"), GetOp(NS, "k99")]

    async def scenario(held: Gateway) -> None:
        store = MemgateStore(held, session_id="s", source=Source.USER)
        results = await store.abatch(ops)
        assert results[:101] == [None] * 101
        assert results[101] is not None and results[101].value == {"v": "again"}
        assert results[102] is not None and results[102].value == {"v": 99}
        status = await store.astatus(NS, "k0")
        assert status is not None and status.version == 2

    on_held_sqlite(tmp_path, scenario)
