"""Rollback with the provenance graph: the dry run names who read what would be
reverted and what it flowed into; a memory scope follows the taint."""

from __future__ import annotations

from pathlib import Path

from graph_fixtures import FalkorServer
from graph_scenarios import Clock, incident, incident_gateway, run

from memgate.bootstrap import open_gateway
from memgate.domain.graph import InvestigationStatus as S
from memgate.domain.memory import MemoryState, Reader
from memgate.domain.rollback import RollbackScope


def test_dry_run_lists_readers_and_blast_radius(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        async with incident_gateway("falkordb", tmp_path, falkordb_server, graph_name) as (
            gw,
            case,
        ):
            (first,) = await gw.history(case.poison)
            plan = await gw.rollback(to=first.seq - 1, reason="poisoned page", actor="op")
            assert not plan.applied and plan.graph_status is S.OK
            reverted = {c.memory_id for c in plan.changes}
            assert {case.poison, case.note, case.summary} <= reverted
            readers = {(r.memory_id, r.session_id, r.call_id) for r in plan.readers}
            assert (case.poison, "s1", "c1-read") in readers
            assert (case.note, "s2", "c2-read") in readers
            derived = {r.memory_id: r.depth for r in plan.derived}
            assert derived[case.note] == 1 and derived[case.summary] in (1, 2)
            assert case.unrelated not in derived and case.unread not in derived

    run(scenario())


def test_memory_scope_follows_the_taint_with_a_graph(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        async with incident_gateway("falkordb", tmp_path, falkordb_server, graph_name) as (
            gw,
            case,
        ):
            (first,) = await gw.history(case.poison)
            scope = RollbackScope(memory_id=case.poison)
            plan = await gw.rollback(
                to=first.seq - 1, reason="poison", actor="op", scope=scope, dry_run=False
            )
            assert plan.applied
            assert {c.memory_id for c in plan.changes} == {case.poison, case.note, case.summary}
            reader = Reader(session_id="s8")
            for gone in (case.poison, case.note, case.summary):
                assert await gw.read(gone, reader) is None
            for kept in (case.unrelated, case.unread):
                item = await gw.read(kept, reader)
                assert item is not None and item.state is MemoryState.APPROVED
            assert (await gw.verify()).ok

    run(scenario())


def test_memory_scope_without_a_graph_keeps_derivations_only(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = Clock()
        gw = await open_gateway(tmp_path, clock=clock, graph=None)
        try:
            case = await incident(gw, clock)
            (first,) = await gw.history(case.poison)
            scope = RollbackScope(memory_id=case.poison)
            plan = await gw.rollback(to=first.seq - 1, reason="poison", actor="op", scope=scope)
            assert {c.memory_id for c in plan.changes} == {case.poison}
            assert plan.graph_status is None and plan.readers == () and plan.derived == ()
        finally:
            await gw.close()

    run(scenario())


def test_unreachable_graph_is_reported_in_the_plan(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = Clock()
        gw = await open_gateway(tmp_path / "d", graph=f"unix://{tmp_path}/none.sock", clock=clock)
        try:
            case = await incident(gw, clock)
            (first,) = await gw.history(case.poison)
            scope = RollbackScope(memory_id=case.poison)
            plan = await gw.rollback(to=first.seq - 1, reason="poison", actor="op", scope=scope)
            assert plan.graph_status is S.GRAPH_UNAVAILABLE
            assert {c.memory_id for c in plan.changes} == {case.poison}
            assert plan.readers == () and plan.derived == ()
        finally:
            await gw.close()

    run(scenario())
