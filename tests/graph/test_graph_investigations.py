"""Investigations through the Gateway, on real FalkorDB and on the twin."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from graph_fixtures import FalkorServer
from graph_scenarios import BACKENDS, Clock, graph_gateway, incident_gateway, run, write

from memgate.bootstrap import memory_gateway, open_gateway
from memgate.domain import Source
from memgate.domain.graph import InvestigationStatus as S
from memgate.domain.memory import Reader, Target
from memgate.errors import GraphUnavailable
from memgate.scanning.examples import expand

TOKEN = expand("ghp_{{gen:alnum:36}}", "graph-tests")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_readers_lists_each_call_and_session(
    backend: str, tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        async with incident_gateway(backend, tmp_path, falkordb_server, graph_name) as (gw, case):
            found = await gw.readers(case.poison)
            assert found.status is S.OK
            assert [(r.session_id, r.call_id) for r in found.readers] == [("s1", "c1-read")]
            assert found.readers[0].agent_id is None
            assert found.lag == 0 and found.projected_seq > 0
            # A second read by another session, oldest first.
            await gw.read(case.poison, Reader(session_id="s9", call_id="c9", agent_id="a9"))
            again = await gw.readers(case.poison)
            assert [(r.session_id, r.agent_id) for r in again.readers] == [
                ("s1", None),
                ("s9", "a9"),
            ]

    run(scenario())


def test_blast_radius_follows_reads_then_writes_with_paths(
    backend: str, tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        async with incident_gateway(backend, tmp_path, falkordb_server, graph_name) as (gw, case):
            one = await gw.blast_radius(case.poison, depth=1)
            assert one.status is S.OK
            assert [r.memory_id for r in one.impact] == [case.note]
            assert one.impact[0].path == (
                f"memory:{case.poison}",
                "session:s1",
                "call:c1-write",
                f"memory:{case.note}",
            )
            two = await gw.blast_radius(case.poison, depth=2)
            by_id = {r.memory_id: r for r in two.impact}
            assert set(by_id) == {case.note, case.summary}
            assert by_id[case.summary].depth == 2
            assert by_id[case.summary].session_id == "s2"
            assert by_id[case.summary].path[-1] == f"memory:{case.summary}"
            assert "session:s1" in by_id[case.summary].path
            # Written before the read, or by a session that never read it: not tainted.
            six = await gw.blast_radius(case.poison, depth=6)
            assert {r.memory_id for r in six.impact} == {case.note, case.summary}

    run(scenario())


def test_a_write_before_the_read_is_not_tainted(
    backend: str, tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        async with incident_gateway(backend, tmp_path, falkordb_server, graph_name) as (gw, case):
            earlier = await gw.write(write("Written first by s1.", "s4", "c4-early"))
            assert await gw.read(case.poison, Reader(session_id="s4", call_id="c4-read"))
            later = await gw.write(write("Written after reading by s4.", "s4", "c4-late"))
            found = await gw.blast_radius(case.poison, depth=1)
            ids = {r.memory_id for r in found.impact}
            assert later.id in ids and earlier.id not in ids

    run(scenario())


def test_promotion_is_provenance_and_blast_radius(
    backend: str, tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        clock = Clock()
        async with graph_gateway(backend, tmp_path, falkordb_server, graph_name, clock) as gw:
            receipts = [
                await gw.write(
                    write(
                        "The build cache lives in /var/cache/build.",
                        f"p{i}",
                        f"pc{i}",
                        source=Source.TOOL,
                        target=Target.SHORT,
                        metadata={"tool": "shell"},
                    )
                )
                for i in range(3)
            ]
            promoted = receipts[-1].promoted_id
            assert promoted is not None
            origin = receipts[-1].id
            prov = await gw.provenance(promoted)
            assert prov.status is S.OK
            rows = {r.memory_id: r for r in prov.provenance}
            assert rows[promoted].depth == 0 and rows[promoted].derived_from == (origin,)
            assert rows[origin].depth == 1
            assert (rows[origin].session_id, rows[origin].call_id) == ("p2", "pc2")
            assert rows[origin].tool == "shell" and rows[origin].source_kind == "tool"
            blast = await gw.blast_radius(origin, depth=1)
            assert [(r.memory_id, r.path) for r in blast.impact] == [
                (promoted, (f"memory:{origin}", f"memory:{promoted}"))
            ]

    run(scenario())


def test_provenance_names_source_uri_call_and_session(
    backend: str, tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        async with incident_gateway(backend, tmp_path, falkordb_server, graph_name) as (gw, case):
            found = await gw.provenance(case.poison)
            assert found.status is S.OK
            (row,) = found.provenance
            assert (row.source_kind, row.source_uri) == ("user", "https://example.org/page")
            assert (row.session_id, row.call_id, row.tool) == ("s-web", "c-fetch", "fetch")
            assert row.derived_from == () and row.depth == 0

    run(scenario())


def test_exposure_follows_a_secret_by_fingerprint_across_sessions(
    backend: str, tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        clock = Clock()
        async with graph_gateway(backend, tmp_path, falkordb_server, graph_name, clock) as gw:
            first = await gw.write(write(f"deploy token {TOKEN}", "sa", "ca"))
            second = await gw.write(write(f"use {TOKEN} for the CI", "sb", "cb"))
            other = await gw.write(write("nothing secret here at all", "sc", "cc"))
            # The writer's session may read its own pending item.
            assert await gw.read(first.id, Reader(session_id="sa", call_id="ca-read"))
            item = await gw.get_any(first.id)
            assert item is not None
            (fingerprint,) = {f.fingerprint for f in item.findings if f.fingerprint}
            found = await gw.exposure(fingerprint)
            assert found.status is S.OK
            contains = {
                (r.memory_id, r.session_id) for r in found.exposure if r.relation == "contains"
            }
            assert contains == {(first.id, "sa"), (second.id, "sb")}
            reads = [(r.memory_id, r.call_id) for r in found.exposure if r.relation == "read"]
            assert reads == [(first.id, "ca-read")]
            assert other.id not in {r.memory_id for r in found.exposure}
            unknown = await gw.exposure("0" * 16)
            assert unknown.status is S.UNKNOWN_MEMORY and unknown.exposure == ()

    run(scenario())


def test_every_empty_state_is_told_apart(
    backend: str, tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        async with incident_gateway(backend, tmp_path, falkordb_server, graph_name) as (gw, case):
            assert (await gw.readers("m_nope")).status is S.UNKNOWN_MEMORY
            assert (await gw.blast_radius("m_nope", 2)).status is S.UNKNOWN_MEMORY
            assert (await gw.provenance("m_nope")).status is S.UNKNOWN_MEMORY
            assert (await gw.readers(case.unread)).status is S.NO_READERS
            assert (await gw.blast_radius(case.unread, 3)).status is S.NO_PATH
            assert (await gw.blast_radius(case.summary, 6)).status is S.NO_PATH
            # A window that excludes the one read.
            window = await gw.readers(case.poison, until=case.poison_read_at - timedelta(seconds=1))
            assert window.status is S.NO_READERS
            inside = await gw.readers(case.poison, since=case.poison_read_at - timedelta(seconds=1))
            assert inside.status is S.OK

    run(scenario())


@pytest.mark.parametrize("depth", [0, 7, -1, "3", 2.0, True, None])
def test_depth_outside_1_to_6_is_invalid_input(depth: object) -> None:
    async def scenario() -> None:
        gw = memory_gateway(graph=True)
        try:
            found = await gw.blast_radius("m_any", depth)  # type: ignore[arg-type]
            assert found.status is S.INVALID_INPUT
            assert "1..6" in found.message
        finally:
            await gw.close()

    run(scenario())


@pytest.mark.parametrize("memory_id", ["", "   ", "x" * 201, "bad\x00id", 42])
def test_bad_ids_and_fingerprints_are_invalid_input(memory_id: object) -> None:
    async def scenario() -> None:
        gw = memory_gateway(graph=True)
        try:
            for found in (
                await gw.readers(memory_id),  # type: ignore[arg-type]
                await gw.blast_radius(memory_id),  # type: ignore[arg-type]
                await gw.provenance(memory_id),  # type: ignore[arg-type]
                await gw.exposure(memory_id),  # type: ignore[arg-type]
            ):
                assert found.status is S.INVALID_INPUT, found
            later = datetime(2026, 1, 2, tzinfo=UTC)
            window = await gw.readers("m_x", since=later, until=later - timedelta(days=1))
            assert window.status is S.INVALID_INPUT
            assert (await gw.exposure("NOT-HEX-AT-ALL")).status is S.INVALID_INPUT
        finally:
            await gw.close()

    run(scenario())


def test_without_a_graph_every_investigation_says_graph_disabled(tmp_path: Path) -> None:
    async def scenario() -> None:
        gw = await open_gateway(tmp_path, graph=None)
        try:
            receipt = await gw.write(write("a fact", "s", "c"))
            for found in (
                await gw.readers(receipt.id),
                await gw.blast_radius(receipt.id, 2),
                await gw.provenance(receipt.id),
                await gw.exposure("ab" * 8),
            ):
                assert found.status is S.GRAPH_UNAVAILABLE
                assert found.message == "graph disabled"
            status = await gw.projection_status()
            assert (status.enabled, status.available) == (False, False)
            with pytest.raises(GraphUnavailable):
                await gw.rebuild_graph()
        finally:
            await gw.close()

    run(scenario())


def test_state_changes_update_the_memory_in_the_graph(
    backend: str, tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        async with incident_gateway(backend, tmp_path, falkordb_server, graph_name) as (gw, case):
            before = await gw.blast_radius(case.poison, 1)
            assert before.impact[0].state == "approved"
            await gw.delete(case.note, actor="op", reason="tainted")
            after = await gw.blast_radius(case.poison, 1)
            assert after.impact[0].state == "deleted"

    run(scenario())


def test_caller_text_never_becomes_cypher(
    backend: str, tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        async with incident_gateway(backend, tmp_path, falkordb_server, graph_name) as (gw, case):
            hostile = "x'}) MATCH (n) DETACH DELETE n //"
            assert (await gw.readers(hostile)).status is S.UNKNOWN_MEMORY
            assert (await gw.blast_radius(hostile + " *1..99", 6)).status is S.UNKNOWN_MEMORY
            assert (await gw.readers(case.poison)).status is S.OK

    run(scenario())
