"""One row can never stop the provenance graph (issue 15, hole 1), on real
FalkorDB through the library Gateway.

A row the graph cannot take (a control character in an id, a value FalkorDB
refuses) is set aside with its reason, projection goes on, the list survives a
restart, a rebuild skips the same rows, and an investigation whose answer
depends on rows the graph does not have says `graph_behind`, never
`no_readers`.

The bad rows are appended through the store's log port, as a database written
before identifiers were checked at the edge holds them: the edge refuses them
now, and this is the graph's own defence."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import redis
from graph_fixtures import FalkorServer, open_graph_gateway
from graph_scenarios import run, write

from memgate.domain.events import Event, Op
from memgate.domain.graph import InvestigationStatus as S
from memgate.domain.graph import ProjectionStatus
from memgate.domain.memory import MemoryItem, Reader
from memgate.domain.ports import ReadRecord
from memgate.gateway import Gateway

NUL = "\x00"
BAD_FIELDS: dict[str, dict[str, Any]] = {
    "session_id": {"session_id": f"s{NUL}x"},
    "namespace": {"namespace": ("team", f"o{NUL}ps")},
    "call_id": {"call_id": f"c{NUL}1"},
    "agent_id": {"agent_id": f"agent{NUL}"},
    "metadata.tool": {"metadata": {"tool": f"fetch{NUL}"}},
}
"""Fields the graph holds: each bad one sets its event aside."""
HARMLESS: dict[str, dict[str, Any]] = {
    "key": {"key": f"k{NUL}y"},
    "metadata key": {"metadata": {f"a{NUL}b": "v"}},
}
"""Fields the graph never receives: the event projects as usual."""


async def legacy(gw: Gateway, template: MemoryItem, memory_id: str, **update: Any) -> int:
    """Append an admission of a copy of `template` (with `update`) through the log
    port, bypassing the edge's checks. Returns its sequence number."""
    item = template.model_copy(update={"id": memory_id, **update})
    records = await gw.store.append([admitted(item)])
    return records[0].seq


def admitted(item: MemoryItem) -> Event:
    return Event(
        op=Op.ADMITTED,
        memory_id=item.id,
        at=item.created_at,
        actor="legacy",
        state_after=item.state,
        item=item,
    )


async def bad_read(gw: Gateway, memory_id: str) -> int:
    """A read whose session holds NUL, recorded through the store port; returns
    its position in the reads table."""
    before = (await gw.store.log_heads())[1]
    await gw.store.record_reads(
        [ReadRecord(memory_id=memory_id, at=datetime.now(UTC), session_id=f"r{NUL}s")]
    )
    flush = getattr(gw.store, "flush", None)
    if flush is not None:
        await flush()
    after = (await gw.store.log_heads())[1]
    assert after == before + 1
    return after


async def poisoned(gw: Gateway) -> dict[str, Any]:
    """A store holding a bad row of every kind between good ones."""
    good = await gw.write(write("Deploys happen on Tuesdays.", "s1", "c1"))
    template = await gw.store.get(good.id)
    assert template is not None
    seqs = {
        name: await legacy(gw, template, f"m_bad_{i}", **update)
        for i, (name, update) in enumerate(BAD_FIELDS.items())
    }
    harmless = {
        name: f"m_ok_{i}"
        for i, (name, update) in enumerate(HARMLESS.items())
        if await legacy(gw, template, f"m_ok_{i}", **update)
    }
    read_position = await bad_read(gw, good.id)
    later = await gw.write(write("Backups run nightly.", "s2", "c2"))
    assert await gw.read(later.id, Reader(session_id="s-after", call_id="c-after"))
    return {
        "good": good.id,
        "later": later.id,
        "seqs": seqs,
        "harmless": harmless,
        "read": read_position,
    }


def assert_set_aside(status: ProjectionStatus, case: dict[str, Any]) -> None:
    assert status.available and status.lag == 0, status
    assert status.set_aside == len(BAD_FIELDS) + 1
    events = {r.seq: r for r in status.set_aside_rows if r.kind == "event"}
    assert {r.field for r in events.values()} == set(BAD_FIELDS)
    for name, seq in case["seqs"].items():
        assert events[seq].reason == f"control character in {name}"
    (read,) = [r for r in status.set_aside_rows if r.kind == "read"]
    assert (read.seq, read.field, read.memory_ids) == (case["read"], "session_id", (case["good"],))
    # Ids and reasons only: never the refused value, never a control character.
    text = status.model_dump_json()
    assert "\\u0000" not in text and NUL not in text
    for update in BAD_FIELDS.values():
        for value in update.values():
            assert repr(value) not in text


def test_nul_in_each_field_is_set_aside_and_projection_goes_on(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        gw = await open_graph_gateway(tmp_path, falkordb_server, graph_name)
        try:
            case = await poisoned(gw)
            assert await gw.graph.sync(within=10.0)  # type: ignore[union-attr]
            assert_set_aside(await gw.projection_status(), case)

            # The memory read after the bad rows: its reader is there.
            later = await gw.readers(case["later"])
            assert later.status is S.OK, later
            assert [r.session_id for r in later.readers] == ["s-after"]
            # Fields the graph never receives did not hold anything up.
            for memory_id in case["harmless"].values():
                assert (await gw.readers(memory_id)).status is S.NO_READERS
            # A memory whose only read was set aside: not "nobody read it".
            good = await gw.readers(case["good"])
            assert good.status is S.GRAPH_BEHIND, good
            assert good.gap is not None and good.gap.set_aside_reads == (case["read"],)
            # A memory whose admission was set aside: not "unknown".
            seq = case["seqs"]["session_id"]
            for found in (await gw.readers("m_bad_0"), await gw.provenance("m_bad_0")):
                assert found.status is S.GRAPH_BEHIND, found
                assert found.gap is not None and found.gap.set_aside == (seq,)
                assert str(seq) in found.message
        finally:
            await gw.close()

    run(scenario())


def test_a_row_falkordb_refuses_is_set_aside_and_its_batch_still_projects(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    """No control character, still refused (FalkorDB cannot parse a NaN trust
    score): the batch is split down to that record, the others project."""

    async def scenario() -> None:
        gw = await open_graph_gateway(tmp_path, falkordb_server, graph_name)
        try:
            first = await gw.write(write("Deploys happen on Tuesdays.", "s1", "c1"))
            template = await gw.store.get(first.id)
            assert template is not None
            items = [
                template.model_copy(update={"id": f"m_{i}", "session_id": f"s-{i}"})
                for i in range(9)
            ]
            items[4] = items[4].model_copy(update={"trust_score": float("nan")})
            records = await gw.store.append([admitted(i) for i in items])
            assert await gw.graph.sync(within=10.0)  # type: ignore[union-attr]
            status = await gw.projection_status()
            assert status.available and status.lag == 0 and status.set_aside == 1
            (row,) = status.set_aside_rows
            assert row.seq == records[4].seq and row.memory_ids == ("m_4",)
            assert row.reason.startswith("graph refused the query"), row.reason
            assert row.session_id == "s-4"
            for i in (0, 3, 5, 8):
                found = await gw.provenance(f"m_{i}")
                assert found.status is S.OK, found
                assert found.provenance[0].session_id == f"s-{i}"
            refused = await gw.readers("m_4")
            assert refused.status is S.GRAPH_BEHIND and refused.gap is not None
            assert refused.gap.set_aside == (records[4].seq,)
        finally:
            await gw.close()

    run(scenario())


def test_restart_keeps_the_set_aside_rows_and_rebuild_skips_them(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        gw = await open_graph_gateway(tmp_path, falkordb_server, graph_name)
        try:
            case = await poisoned(gw)
            assert await gw.graph.sync(within=10.0)  # type: ignore[union-attr]
            before = await gw.projection_status()
        finally:
            await gw.close()

        gw = await open_graph_gateway(tmp_path, falkordb_server, graph_name)
        try:
            after = await gw.projection_status()
            assert after.set_aside_rows == before.set_aside_rows
            assert_set_aside(after, case)
            head = (await gw.checkpoint()).seq
            assert await gw.rebuild_graph() == head - len(BAD_FIELDS)
            rebuilt = await gw.projection_status()
            assert rebuilt.set_aside_rows == before.set_aside_rows
            assert_set_aside(rebuilt, case)
            later = await gw.readers(case["later"])
            assert later.status is S.OK and [r.session_id for r in later.readers] == ["s-after"]
        finally:
            await gw.close()

    run(scenario())


def test_an_investigation_the_graph_is_behind_on_says_graph_behind(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    """FalkorDB reachable but not taking writes (CLIENT PAUSE WRITE): the
    projection falls behind the log, and answers that depend on what it has not
    projected say so; one that does not depend on it answers as usual."""
    server = redis.Redis.from_url(falkordb_server.url)

    async def scenario() -> None:
        gw = await open_graph_gateway(tmp_path, falkordb_server, graph_name)
        try:
            read_later = await gw.write(write("Deploys happen on Tuesdays.", "s1", "c1"))
            untouched = await gw.write(write("Lunch is at noon.", "s2", "c2"))
            assert await gw.graph.sync(within=10.0)  # type: ignore[union-attr]
            server.execute_command("CLIENT", "PAUSE", "60000", "WRITE")
            try:
                assert await gw.read(read_later.id, Reader(session_id="s-late", call_id="r"))
                new = await gw.write(write("Noted: deploys on Tuesdays.", "s-late", "w"))

                readers = await gw.readers(read_later.id)
                assert readers.status is S.GRAPH_BEHIND, readers
                assert readers.gap is not None and readers.gap.unprojected_reads == 1
                assert readers.gap.reads_behind >= 1 and readers.readers == ()

                radius = await gw.blast_radius(read_later.id, 2)
                assert radius.status is S.GRAPH_BEHIND, radius  # s-late's write after the read

                unknown = await gw.provenance(new.id)
                assert unknown.status is S.GRAPH_BEHIND, unknown
                assert unknown.gap is not None and unknown.gap.events_behind >= 1
                assert unknown.gap.unprojected  # the admission of `new`

                # Nothing missing concerns `untouched`: its answer stands.
                assert (await gw.readers(untouched.id)).status is S.NO_READERS
            finally:
                server.execute_command("CLIENT", "UNPAUSE")
            assert await gw.graph.sync(within=30.0)  # type: ignore[union-attr]
            caught_up = await gw.readers(read_later.id)
            assert caught_up.status is S.OK
            assert [r.session_id for r in caught_up.readers] == ["s-late"]
            impact = await gw.blast_radius(read_later.id, 2)
            assert impact.status is S.OK and [r.memory_id for r in impact.impact] == [new.id]
        finally:
            await gw.close()

    try:
        run(scenario())
    finally:
        server.execute_command("CLIENT", "UNPAUSE")
        server.close()


def test_control_characters_never_reach_the_graph(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    """Defence in depth: whatever the edge let through, no string in the graph
    holds a control character (the Call key's own U+001F separator aside)."""

    async def scenario() -> None:
        gw = await open_graph_gateway(tmp_path, falkordb_server, graph_name)
        try:
            good = await gw.write(write("Deploys happen on Tuesdays.", "s1", "c1"))
            template = await gw.store.get(good.id)
            assert template is not None
            for i, ch in enumerate(("\x01", "\x1b", "\x7f", "\x85")):
                await legacy(gw, template, f"m_c{i}", session_id=f"s{ch}", call_id=f"c{ch}")
            await gw.store.record_reads(
                [ReadRecord(memory_id=good.id, at=datetime.now(UTC), call_id="r\x1b[2J")]
            )
            assert await gw.graph.sync(within=10.0)  # type: ignore[union-attr]
            assert (await gw.projection_status()).set_aside == 5
        finally:
            await gw.close()
        rows = falkordb_server.query(graph_name, "MATCH (n) WHERE NOT n:Meta RETURN properties(n)")
        # A Call's id is session U+001F call: that one separator is the graph's own.
        strings = [v.replace("\x1f", "", 1) for (props,) in rows for v in _strings(props)]
        assert "s1" in strings and good.id in strings, "the good rows are in the graph"
        for value in strings:
            assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in value), value

    run(scenario())


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_set_aside_rows_are_projected_on_the_in_memory_twin_alike() -> None:
    """The twin sets aside the same rows (the row builder is shared)."""
    from memgate.bootstrap import memory_gateway

    async def scenario() -> None:
        gw = memory_gateway(graph=True)
        try:
            case = await poisoned(gw)
            assert await gw.graph.sync(within=10.0)  # type: ignore[union-attr]
            assert_set_aside(await gw.projection_status(), case)
            assert (await gw.readers(case["good"])).status is S.GRAPH_BEHIND
            assert (await gw.readers(case["later"])).status is S.OK
        finally:
            await gw.close()

    asyncio.run(scenario())


def test_a_rollback_plan_says_graph_behind_when_its_evidence_was_set_aside(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    """A dry run to before a memory lists who read it; when a read of it was set
    aside the plan says `graph_behind`, not a clean "nobody read it"."""
    from memgate.domain.rollback import RollbackScope

    async def scenario() -> None:
        gw = await open_graph_gateway(tmp_path, falkordb_server, graph_name)
        try:
            clean = await gw.write(write("Lunch is at noon.", "s0", "c0"))
            before = (await gw.checkpoint()).seq
            case = await poisoned(gw)
            assert await gw.graph.sync(within=10.0)  # type: ignore[union-attr]
            scoped = await gw.rollback(
                to=before,
                reason="poisoned",
                actor="op",
                scope=RollbackScope(memory_id=case["good"]),
            )
            assert [c.memory_id for c in scoped.changes] == [case["good"]]
            assert scoped.graph_status is S.GRAPH_BEHIND, scoped
            # A plan whose memories the graph has whole stays `ok`.
            other = await gw.rollback(
                to=before,
                reason="cleanup",
                actor="op",
                scope=RollbackScope(memory_id=case["later"]),
            )
            assert other.graph_status is S.OK, other
            assert [r.session_id for r in other.readers] == ["s-after"]
            assert clean.id not in {c.memory_id for c in other.changes}
        finally:
            await gw.close()

    run(scenario())


def test_an_unwell_server_is_retried_and_nothing_is_set_aside(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    """FalkorDB out of memory refuses every write with an error reply: that is
    the server, not the row, so the projection waits and retries (graph
    unavailable), sets nothing aside, and catches up once memory is back."""
    server = redis.Redis.from_url(falkordb_server.url)

    async def scenario() -> None:
        gw = await open_graph_gateway(tmp_path, falkordb_server, graph_name)
        try:
            first = await gw.write(write("Deploys happen on Tuesdays.", "s1", "c1"))
            assert await gw.graph.sync(within=10.0)  # type: ignore[union-attr]
            server.config_set("maxmemory", "1")
            try:
                assert await gw.read(first.id, Reader(session_id="s2", call_id="r"))
                second = await gw.write(write("Backups run nightly.", "s2", "c2"))
                assert not await gw.graph.sync(within=3.0)  # type: ignore[union-attr]
                status = await gw.projection_status()
                assert not status.available and status.set_aside == 0, status
                assert status.last_error is not None and "memory" in status.last_error
                behind = await gw.readers(first.id)
                assert behind.status in (S.GRAPH_BEHIND, S.GRAPH_UNAVAILABLE), behind
            finally:
                server.config_set("maxmemory", "0")
            # sync answers False at once while the projector is in its backoff.
            deadline = asyncio.get_running_loop().time() + 30
            while not await gw.graph.sync(within=5.0):  # type: ignore[union-attr]
                assert asyncio.get_running_loop().time() < deadline, "never caught up"
                await asyncio.sleep(0.2)
            status = await gw.projection_status()
            assert status.available and status.set_aside == 0 and status.lag == 0, status
            found = await gw.readers(first.id)
            assert found.status is S.OK and [r.session_id for r in found.readers] == ["s2"]
            assert (await gw.provenance(second.id)).status is S.OK
        finally:
            await gw.close()

    try:
        run(scenario())
    finally:
        server.config_set("maxmemory", "0")
        server.close()
