"""Semantic recall over HTTP: POST /v1/memories/search with `mode`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from service_support import Service, start_service

pytestmark = pytest.mark.anyio

PREF = "I prefer metric units"


async def write_user(service: Service, key: str, content: str) -> None:
    async with service.client(key) as client:
        answer = await client.post(
            "/v1/memories",
            json={"content": content, "namespace": ["acme", "u1"], "source": "user"},
        )
    assert answer.status_code == 201, answer.text
    assert answer.json()["state"] == "approved"


async def test_metric_preference_over_http(service: Service) -> None:
    agent = service.key("agent", ["acme"], user_channel=True)
    for content in [PREF, "The user lives in Lisbon.", "Deploys happen on Tuesdays."]:
        await write_user(service, agent, content)
    async with service.client(agent) as client:
        text = await client.post(
            "/v1/memories/search", json={"namespace": ["acme"], "query": "metric preference"}
        )
        assert text.status_code == 200 and text.json()["items"] == []
        for mode in ("vector", "hybrid"):
            found = await client.post(
                "/v1/memories/search",
                json={"namespace": ["acme"], "query": "metric preference", "mode": mode},
                headers={"X-Memgate-Session": "s9"},
            )
            assert found.status_code == 200, found.text
            assert found.json()["items"][0]["content"] == PREF, mode
    first = found.json()["items"][0]["id"]
    reads = await service.state.gateway.reads_of(first)
    assert "s9" in {r.session_id for r in reads}


async def test_a_bad_mode_is_422_naming_the_field(service: Service) -> None:
    agent = service.key("agent", ["acme"])
    async with service.client(agent) as client:
        bad = await client.post(
            "/v1/memories/search", json={"namespace": ["acme"], "query": "x", "mode": "fuzzy"}
        )
        empty = await client.post(
            "/v1/memories/search", json={"namespace": ["acme"], "mode": "vector"}
        )
    assert bad.status_code == 422
    assert "mode" in {e["field"].rsplit(".", 1)[-1] for e in bad.json()["errors"]}
    assert empty.status_code == 422
    assert [e["field"] for e in empty.json()["errors"]] == ["query"]


@pytest.fixture
async def recall_off(tmp_path: Path) -> AsyncIterator[Service]:
    async for running in start_service(tmp_path, graph=None, recall="off"):
        yield running


async def test_recall_off_is_503_vector_unavailable(recall_off: Service) -> None:
    agent = recall_off.key("agent", ["acme"], user_channel=True)
    await write_user(recall_off, agent, PREF)
    async with recall_off.client(agent) as client:
        answer = await client.post(
            "/v1/memories/search",
            json={"namespace": ["acme"], "query": "metric preference", "mode": "hybrid"},
        )
        text = await client.post(
            "/v1/memories/search", json={"namespace": ["acme"], "query": "metric units"}
        )
    assert answer.status_code == 503
    body = answer.json()
    assert body["type"].endswith("vector-unavailable")
    assert "memgate-customs[recall]" in body["detail"]
    assert [i["content"] for i in text.json()["items"]] == [PREF]
