"""Every guard decision is in the provenance graph (issue 16): over HTTP, a
denied call of a session shows up in FalkorDB with its decision and layer,
linked to its session, and stays so after `rebuild_graph`."""

from __future__ import annotations

import pytest
from service_support import Service

from memgate.graph import GraphProjection

pytestmark = pytest.mark.anyio


async def test_a_denied_call_is_in_the_graph_with_its_session(graph_service: Service) -> None:
    key = graph_service.key("agent", ["acme"], guard_roles=["developer", "analyst"])
    async with graph_service.client(key) as agent:
        denied = await agent.post(
            "/v1/guard/decide",
            json={
                "tool": "db.execute", "role": "analyst", "session_id": "tuesday",
                "call_id": "drop-1", "input": {"sql": "UPDATE t SET a = 1"},
            },
        )  # fmt: skip
        assert denied.status_code == 200, denied.text
        body = denied.json()
        assert (body["decision"], body["layer"]) == ("deny", "matrix")
    gateway = graph_service.state.gateway
    graph = gateway.graph
    assert isinstance(graph, GraphProjection)
    assert await graph.sync(within=10.0)
    params = {"id": "tuesday", "limit": 10}
    rows = graph.backend.run("decisions", params)
    assert [row[:5] for row in rows] == [
        [body["audit_seq"], "drop-1", "db.execute", "deny", "matrix"]
    ]
    assert graph.backend.run("decisions", {"id": "wednesday", "limit": 10}) == []
    await gateway.rebuild_graph()
    assert graph.backend.run("decisions", params) == rows
