"""Memories over HTTP: write, read back, list, search, delete, history."""

from __future__ import annotations

import pytest
from service_support import Service

pytestmark = pytest.mark.anyio


async def test_write_then_read_records_the_reader(service: Service) -> None:
    agent = service.key("agent", ["acme"], user_channel=True)
    async with service.client(agent) as client:
        written = await client.post(
            "/v1/memories",
            json={
                "content": "I prefer metric units.",
                "namespace": ["acme", "u42"],
                "source": "user",
                "session_id": "s1",
                "agent_id": "planner",
            },
        )
        assert written.status_code == 201, written.text
        receipt = written.json()
        assert receipt["state"] == "approved" and receipt["pool"] == "long"
        got = await client.get(
            f"/v1/memories/{receipt['id']}",
            headers={"X-Memgate-Session": "s2", "X-Memgate-Call": "c9"},
        )
    assert got.status_code == 200
    item = got.json()
    assert item["content"] == "I prefer metric units."
    key_id = service.state.keys.authenticate(agent).key_id  # type: ignore[union-attr]
    assert item["agent_id"] == f"key:{key_id}/planner"
    reads = await service.state.gateway.reads_of(receipt["id"])
    assert [(r.session_id, r.call_id) for r in reads] == [("s2", "c9")]
    assert reads[0].agent_id == f"key:{key_id}"
