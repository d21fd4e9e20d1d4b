"""Investigations through the Gateway, on real FalkorDB and on the twin."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_fixtures import FalkorServer
from graph_scenarios import BACKENDS, Clock, graph_gateway, incident, run, write

from memgate.domain.graph import InvestigationStatus as S
from memgate.domain.memory import Reader


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_readers_lists_each_call_and_session(
    backend: str, tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        clock = Clock()
        async with graph_gateway(backend, tmp_path, falkordb_server, graph_name, clock) as gw:
            case = await incident(gw, clock)
            found = await gw.readers(case.poison)
            assert found.status is S.OK
            assert [(r.session_id, r.call_id) for r in found.readers] == [("s1", "c1-read")]
            assert found.readers[0].agent_id is None
            assert found.lag == 0 and found.projected_seq > 0
            # A second read by another session, oldest first.
            await gw.read(case.poison, Reader(session_id="s9", call_id="c9", agent_id="a9"))
            again = await gw.readers(case.poison)
            assert [(r.session_id, r.agent_id) for r in again.readers] == [("s1", None), ("s9", "a9")]

    run(scenario())
