"""MemgateStore's `ack="journaled"` mode through the real langgraph package on real
SQLite: a put is acknowledged once it is durably in the pending journal, before
its scan; the unscanned value is served back to the session that wrote it and to
nobody else (another thread, another store, another namespace: those readers get
what the gateway serves after the key's pending puts were scanned on demand); a
rejected value is never served and `status` says so; a crash loses nothing that
was acknowledged; a secret never reaches the journal; the default is unchanged."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any, TypedDict

import pytest
from adapter_fixtures import HOSTILE, TOKEN
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph

from memgate.adapters.langgraph import JOURNAL_FILE, MemgateStore
from memgate.bootstrap import open_gateway
from memgate.domain.memory import MemoryState, Reader
from memgate.gateway import Gateway
from memgate.trust import Policy

NS = ("users", "u1", "facts")
WORKER = Path(__file__).resolve().parent / "langgraph_journal_worker.py"
HOUR = 3600.0  # scan_after: no background scan during a test, only on-demand ones


def _pending(journal: Path) -> list[dict[str, Any]]:
    """The journal's rows, read with plain sqlite3 (what a restart would find)."""
    with sqlite3.connect(journal) as db:
        rows = db.execute("SELECT write FROM pending ORDER BY seq").fetchall()
    return [json.loads(w) for (w,) in rows]


def _files_hold(root: Path, needle: str) -> list[str]:
    raw = needle.encode()
    return [str(p) for p in root.rglob("*") if p.is_file() and raw in p.read_bytes()]


def _held_policy() -> Policy:
    """Every agent write waits for review (provenance auto-approves none)."""
    policy = Policy.load()
    provenance = policy.provenance.model_copy(update={"auto_approve": frozenset()})
    return policy.model_copy(update={"provenance": provenance})


async def _sqlite(path: Path, *, held: bool = False) -> Gateway:
    return await open_gateway(
        path, graph=None, recall=None, policy=_held_policy() if held else None
    )


class Turn(TypedDict, total=False):
    puts: dict[str, dict[str, Any]]
    keys: list[str]
    got: dict[str, dict[str, Any] | None]


async def _turn(state: Turn) -> Turn:
    store = get_store()
    for key, value in (state.get("puts") or {}).items():
        await store.aput(NS, key, value)
    got = {}
    for key in state.get("keys") or []:
        item = await store.aget(NS, key)
        got[key] = item.value if item else None
    return {"got": got}


def _graph(store: MemgateStore) -> Any:
    builder = StateGraph(Turn)
    builder.add_node("turn", _turn)
    builder.add_edge(START, "turn")
    builder.add_edge("turn", END)
    return builder.compile(store=store)


def _thread(name: str) -> Any:
    return {"configurable": {"thread_id": name}}


def test_a_journaled_put_is_durable_before_its_scan_and_served_to_its_thread_only(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        gateway = await _sqlite(tmp_path / "data", held=True)
        journal = tmp_path / "journal.sqlite"
        store = MemgateStore(gateway, ack="journaled", journal=journal, scan_after=HOUR)
        graph = _graph(store)
        fact = {"text": "the user's dog is called Rex"}
        try:
            out = await graph.ainvoke({"puts": {"dog": fact}, "keys": ["dog"]}, _thread("A"))
            assert out["got"] == {"dog": fact}  # read-your-writes, before the scan
            # Acknowledged = in the journal, with its writer; not in the log yet.
            (row,) = _pending(journal)
            assert row["key"] == "dog" and row["session_id"] == "A"
            assert row["call_id"] == "turn:1"
            assert _files_hold(tmp_path / "data", "Rex") == []
            # Same key in another namespace, another key: nothing.
            assert await store.aget(("users", "u2", "facts"), "dog") is None
            assert await store.aget(NS, "cat") is None
            assert _pending(journal), "reads elsewhere scan nothing"
            # Another thread of the same store: the put is scanned first, and the
            # gateway holds it for review, so thread B gets nothing.
            out = await graph.ainvoke({"keys": ["dog"]}, _thread("B"))
            assert out["got"] == {"dog": None}
            assert _pending(journal) == []
            status = await store.astatus(NS, "dog")
            assert status is not None and status.state is MemoryState.PENDING_REVIEW
            # A's read of its pending value is recorded on the admitted item.
            assert {r.session_id for r in await gateway.reads_of(status.id)} == {"A"}
            out = await graph.ainvoke({"keys": ["dog"]}, _thread("A"))
            assert out["got"] == {"dog": fact}  # the gateway's read-your-writes now
            await gateway.approve(status.id, reviewer="alice")
            out = await graph.ainvoke({"keys": ["dog"]}, _thread("B"))
            assert out["got"] == {"dog": fact}
        finally:
            await store.aflush()
            store.close()
            await gateway.close()

    asyncio.run(scenario())


def test_other_readers_search_and_list_see_only_scanned_values(tmp_path: Path) -> None:
    async def scenario() -> None:
        gateway = await _sqlite(tmp_path / "data")
        journal = tmp_path / "journal.sqlite"
        writer = MemgateStore(
            gateway, session_id="A", ack="journaled", journal=journal, scan_after=HOUR
        )
        try:
            await writer.aput(NS, "tea", {"text": "likes green tea"})
            await writer.aput(NS, "evil", {"text": HOSTILE})
            # Its own pending value, as written: the writer wrote it.
            assert (await writer.aget(NS, "evil")).value == {"text": HOSTILE}
            other = MemgateStore(gateway, session_id="B")  # another store: reads the log
            assert await other.aget(NS, "tea") is None
            assert await other.asearch(("users",)) == []
            # The writer's own search scans everything pending first: the hostile
            # value is rejected, even for its writer, before anything is listed.
            hits = await writer.asearch(("users",))
            assert [h.key for h in hits] == ["tea"]
            assert _pending(journal) == []
            assert await writer.alist_namespaces() == [NS]
            assert await writer.aget(NS, "evil") is None
            assert (await other.aget(NS, "tea")).value == {"text": "likes green tea"}
        finally:
            await writer.aflush()
            writer.close()
            await gateway.close()

    asyncio.run(scenario())


def test_a_planted_value_is_rejected_never_served_and_its_writer_can_find_out(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        gateway = await _sqlite(tmp_path / "data")
        journal = tmp_path / "journal.sqlite"
        writer = MemgateStore(
            gateway, session_id="A", ack="journaled", journal=journal, scan_after=HOUR
        )
        reader = MemgateStore(gateway, session_id="B")
        graph = _graph(writer)
        try:
            await writer.aput(NS, "note", {"text": "standup moved to 10:00"})
            await writer.aflush()  # approved, in the log
            await writer.aput(NS, "note", {"text": HOSTILE})
            # Thread B of the writer's store: scanned on demand, rejected, so B
            # gets the key's previous value, never the planted one.
            out = await graph.ainvoke({"keys": ["note"]}, _thread("B"))
            assert out["got"] == {"note": {"text": "standup moved to 10:00"}}
            assert (await reader.aget(NS, "note")).value == {"text": "standup moved to 10:00"}
            status = await writer.astatus(NS, "note")
            assert status is not None and status.state is MemoryState.REJECTED
            assert "injection" in status.categories
            # The rejection is a logged event on the put's memory.
            records = await gateway.history(status.id)
            assert records[-1].event.state_after is MemoryState.REJECTED
            assert (await writer.aget(NS, "note")).value == {"text": "standup moved to 10:00"}
        finally:
            await writer.aflush()
            writer.close()
            await gateway.close()

    asyncio.run(scenario())


def test_a_secret_never_reaches_the_journal(tmp_path: Path) -> None:
    async def scenario() -> None:
        gateway = await _sqlite(tmp_path / "data")
        journal = tmp_path / "journal.sqlite"
        writer = MemgateStore(
            gateway, session_id="A", ack="journaled", journal=journal, scan_after=HOUR
        )
        try:
            await writer.aput(NS, "deploy", {"text": "release notes for 2.3"})
            await writer.aput(NS, "deploy", {"note": f"deploy token {TOKEN}"})
            # The secret took the scanned path, after the key's pending put.
            assert _pending(journal) == []
            status = await writer.astatus(NS, "deploy")
            assert status is not None and status.redacted
            assert status.state is MemoryState.PENDING_REVIEW
            mine = await writer.aget(NS, "deploy")
            assert mine is not None and "[REDACTED:MG-SEC-" in mine.value["note"]
        finally:
            await writer.aflush()
            writer.close()
            await gateway.close()
        assert _files_hold(tmp_path, TOKEN) == []

    asyncio.run(scenario())


def test_a_crash_loses_no_acknowledged_put_and_the_restart_scans_them(tmp_path: Path) -> None:
    data, journal = tmp_path / "data", tmp_path / "journal.sqlite"
    # The planted value from its own session: a session that wrote a rejected
    # value is tainted (its later writes wait for review), in every ack mode.
    puts = [
        ("W", "tea", {"text": "likes green tea"}),
        ("X", "evil", {"text": HOSTILE}),
        ("W", "walk", {"text": "walks the dog at 7"}),
        ("W", "tea", {"text": "likes jasmine tea now"}),
    ]
    lines = "".join(json.dumps(p) + "\n" for p in puts)
    done = subprocess.run(
        [sys.executable, str(WORKER), str(data), str(journal), "park"],
        input=lines,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert done.stdout.split("\n")[:5] == ["ACK tea", "ACK evil", "ACK walk", "ACK tea", "DONE"]
    rows = _pending(journal)
    assert [(r["session_id"], r["key"]) for r in rows] == [(w, k) for w, k, _ in puts]
    assert _files_hold(data, "jasmine") == []  # killed before any scan

    async def restart() -> None:
        gateway = await _sqlite(data)
        try:
            # Before the recovered puts are admitted: another session never gets
            # one unscanned, the writer's session gets its own latest.
            writer = MemgateStore(
                gateway, session_id="W", ack="journaled", journal=journal, scan_after=HOUR
            )
            reader = MemgateStore(gateway, session_id="B")
            assert await reader.aget(NS, "tea") is None
            assert (await writer.aget(NS, "tea")).value == {"text": "likes jasmine tea now"}
            await writer.aflush()
            assert _pending(journal) == []
            assert (await reader.aget(NS, "tea")).value == {"text": "likes jasmine tea now"}
            assert (await reader.aget(NS, "walk")).value == {"text": "walks the dog at 7"}
            assert await reader.aget(NS, "evil") is None
            evil = await writer.astatus(NS, "evil")
            assert evil is not None and evil.state is MemoryState.REJECTED
            # A's put order was kept: two versions of tea, the latest served.
            tea = await writer.astatus(NS, "tea")
            assert tea is not None and tea.version == 2
            writer.close()
        finally:
            await gateway.close()

    asyncio.run(restart())


def test_a_kill_anywhere_in_the_drain_loses_no_acknowledged_put(tmp_path: Path) -> None:
    data, journal = tmp_path / "data", tmp_path / "journal.sqlite"
    worker = subprocess.Popen(
        [sys.executable, str(WORKER), str(data), str(journal), "churn"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    latest: dict[str, int] = {}
    try:
        assert worker.stdout is not None
        for line in worker.stdout:
            _, key, n = line.split()
            latest[key] = int(n)
            if int(n) >= 500:
                break
    finally:
        worker.send_signal(signal.SIGKILL)
        _, err = worker.communicate(timeout=60)
    assert len(latest) == 300, err

    async def restart() -> None:
        gateway = await _sqlite(data)
        try:
            store = MemgateStore(gateway, session_id="W", ack="journaled", journal=journal)
            await store.aflush()
            assert _pending(journal) == []
            for key, n in latest.items():
                item = await gateway.read_key(NS, key, Reader(session_id="B"))
                assert item is not None, key
                got = json.loads(item.content)["n"]
                # The acknowledged one, or a later put the kill cut off before it
                # printed its ACK: never an older one.
                assert got >= n and got % 300 == n % 300, (key, got, n)
            store.close()
        finally:
            await gateway.close()

    asyncio.run(restart())


def test_the_default_ack_is_unchanged_and_journaled_is_opt_in(tmp_path: Path) -> None:
    async def scenario() -> None:
        gateway = await _sqlite(tmp_path / "data")
        try:
            store = MemgateStore(gateway, session_id="A")
            assert store.ack == "scanned"
            await store.aput(NS, "evil", {"text": HOSTILE})
            # The verdict is known when put returns, with no flush, no journal.
            status = store._receipts[(NS, "evil")]
            assert status.state is MemoryState.REJECTED
            with pytest.raises(ValueError, match="journal"):
                MemgateStore(gateway, ack="journaled")
            with pytest.raises(ValueError, match="journal"):
                MemgateStore(gateway, journal=tmp_path / "j.sqlite")
            with pytest.raises(ValueError, match="strict"):
                MemgateStore(gateway, ack="journaled", journal=tmp_path / "j.sqlite", strict=True)
        finally:
            await gateway.close()

    asyncio.run(scenario())
    assert list(tmp_path.glob("*.sqlite")) == []


def test_sync_open_keeps_the_journal_in_the_data_directory(tmp_path: Path) -> None:
    store = MemgateStore.open(tmp_path / "data", graph=None, ack="journaled", session_id="S")
    try:
        store.put(NS, "tea", {"text": "likes green tea"})
        assert store.get(NS, "tea").value == {"text": "likes green tea"}
        assert (tmp_path / "data" / JOURNAL_FILE).is_file()
    finally:
        store.close()
    assert _pending(tmp_path / "data" / JOURNAL_FILE) == []
    again = MemgateStore.open(tmp_path / "data", graph=None, session_id="other")
    try:
        assert again.get(NS, "tea").value == {"text": "likes green tea"}
    finally:
        again.close()


SESSIONS = ("A", "B", "C")
KEYS = ("k0", "k1")
op = st.one_of(
    st.tuples(st.just("put"), st.sampled_from(SESSIONS), st.sampled_from(KEYS), st.booleans()),
    st.tuples(st.just("get"), st.sampled_from(SESSIONS), st.sampled_from(KEYS), st.just(False)),
    st.tuples(st.just("search"), st.sampled_from(SESSIONS), st.just(""), st.just(False)),
)


def test_property_no_session_is_ever_served_another_session_s_unscanned_value(
    tmp_path: Path,
) -> None:
    """Random interleavings of puts (benign or planted), gets and searches by three
    threads of one journaled store: a thread is served a pending value only if it
    wrote it, and otherwise exactly what the gateway itself serves it."""
    loop = asyncio.new_event_loop()
    gateway = loop.run_until_complete(_sqlite(tmp_path / "data"))
    counter = iter(range(1_000_000))

    @settings(
        max_examples=40,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(st.lists(op, min_size=1, max_size=14))
    def check(ops: list[tuple[str, str, str, bool]]) -> None:
        run = next(counter)
        journal = tmp_path / f"journal-{run}.sqlite"
        store = MemgateStore(
            gateway, prefix=(f"run{run}",), ack="journaled", journal=journal, scan_after=HOUR
        )
        graph = _graph(store)
        ns = (f"run{run}", *NS)
        pending: dict[str, tuple[str, dict[str, Any]]] = {}  # key: (writer, value)

        async def steps() -> None:
            for i, (kind, session, key, planted) in enumerate(ops):
                if kind == "put":
                    value = {"text": HOSTILE if planted else f"likes tea, note {i}"}
                    await graph.ainvoke({"puts": {key: value}}, _thread(session))
                    pending[key] = (session, value)
                elif kind == "get":
                    out = await graph.ainvoke({"keys": [key]}, _thread(session))
                    got = out["got"][key]
                    mine = pending.get(key)
                    if mine is not None and mine[0] == session:
                        assert got == mine[1]  # its own, as written
                        continue
                    pending.pop(key, None)  # scanned on demand for this reader
                    served = await gateway.read_key(ns, key, Reader(session_id=session))
                    assert got == (json.loads(served.content) if served else None)
                    assert got is None or got["text"] != HOSTILE
                else:
                    store_search = _search_as(store, session)
                    hits = await store_search
                    pending.clear()  # a search scans everything pending first
                    assert all(h.value["text"] != HOSTILE for h in hits)
            await store.aflush()
            assert _pending(journal) == []

        try:
            loop.run_until_complete(steps())
        finally:
            store.close()

    try:
        check()
    finally:
        loop.run_until_complete(gateway.close())
        loop.close()


async def _search_as(store: MemgateStore, session: str) -> list[Any]:
    """A search from inside a graph run of thread `session`."""

    class Found(TypedDict, total=False):
        hits: list[Any]

    async def node(state: Found) -> Found:
        return {"hits": await get_store().asearch(("users",), limit=50)}

    builder = StateGraph(Found)
    builder.add_node("search", node)
    builder.add_edge(START, "search")
    builder.add_edge("search", END)
    out = await builder.compile(store=store).ainvoke({}, _thread(session))
    return list(out["hits"])
