"""Issue 15, holes 1 and 5 over HTTP: identifiers with control characters, oversize
or deep metadata, too many filter keys and empty content are 422 naming the
field, and nothing is stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from service_support import Service, start_service

from memgate.domain import limits
from memgate.domain.memory import MemoryState
from memgate.trust.policy import DEFAULT_POLICY

pytestmark = pytest.mark.anyio

W: dict[str, Any] = {"content": "The build uses Python 3.12.", "namespace": ["acme"]}
BAD_CHARS = ["\u0000", "\u0007", "\n", "\u007f", "\u0085", "\u200b", "\u202e", "\U000e0041"]


def problem_fields(response: httpx.Response) -> set[str]:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    return {e["field"] for e in response.json()["errors"]}


async def stored(service: Service) -> int:
    return (await service.state.gateway.checkpoint()).seq


@pytest.mark.parametrize("bad", BAD_CHARS, ids=lambda c: f"U+{ord(c):04X}")
@pytest.mark.parametrize(
    ("field", "where"),
    [
        ("namespace", "body.namespace.1"),
        ("key", "body.key"),
        ("session_id", "body.session_id"),
        ("call_id", "body.call_id"),
        ("agent_id", "body.agent_id"),
        ("metadata_key", "body.metadata"),
    ],
)
async def test_control_characters_in_identifiers_are_422(
    service: Service, field: str, where: str, bad: str
) -> None:
    body = dict(W)
    value = f"ab{bad}cd"
    if field == "namespace":
        body["namespace"] = ["acme", value]
    elif field == "metadata_key":
        body["metadata"] = {value: "x"}
    else:
        body[field] = value
    before = await stored(service)
    async with service.client(service.admin_key) as admin:
        response = await admin.post("/v1/memories", json=body)
    assert where in problem_fields(response)
    # The answer names the field and the character, never the value.
    assert value not in response.text
    assert await stored(service) == before


async def test_control_characters_in_read_identifiers_are_422(service: Service) -> None:
    async with service.client(service.admin_key) as admin:
        search = await admin.post(
            "/v1/memories/search", json={"namespace": ["acme"], "session_id": "s\u0000"}
        )
        assert "body.session_id" in problem_fields(search)
        search = await admin.post(
            "/v1/memories/search", json={"namespace": ["acme\u0000"], "query": "x"}
        )
        assert "body.namespace.0" in problem_fields(search)
        by_key = await admin.get(
            "/v1/memories/by-key", params={"namespace": "acme", "key": "k\u0001"}
        )
        assert "query.key" in problem_fields(by_key)
        listed = await admin.get("/v1/memories", params={"namespace": "acme/b\u0000"})
        assert "query.namespace" in problem_fields(listed)


async def test_identifier_bounds_are_the_domain_bounds(service: Service) -> None:
    async with service.client(service.admin_key) as admin:
        at_limit = {
            **W,
            "namespace": ["n" * limits.MAX_LABEL_CHARS] * limits.MAX_LABELS,
            "key": "k" * limits.MAX_KEY_CHARS,
            "session_id": "s" * limits.MAX_ID_CHARS,
            "metadata": {"m" * limits.MAX_METADATA_KEY_CHARS: 1},
        }
        assert (await admin.post("/v1/memories", json=at_limit)).status_code == 201
        over = {**W, "metadata": {"m" * (limits.MAX_METADATA_KEY_CHARS + 1): 1}}
        assert "body.metadata" in problem_fields(await admin.post("/v1/memories", json=over))
        blank = {**W, "key": "   "}
        assert "body.key" in problem_fields(await admin.post("/v1/memories", json=blank))
        # Unicode letters are printable: identifiers are not ASCII-only.
        accents = {**W, "namespace": ["équipe", "用户"], "key": "préférence"}
        assert (await admin.post("/v1/memories", json=accents)).status_code == 201


@pytest.mark.parametrize(
    "metadata",
    [
        {"blob": "x" * 900_000},
        {"blob": "é" * (limits.MAX_METADATA_BYTES // 2)},
        {f"k{i}": i for i in range(limits.MAX_METADATA_ITEMS + 1)},
        {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {}}}}}}}}},
        {"list": [[[[[[[[1]]]]]]]]},
    ],
    ids=["900KB", "8KiB-utf8", "too-many-members", "9-levels", "9-levels-of-lists"],
)
async def test_oversize_or_deep_metadata_is_422(service: Service, metadata: Any) -> None:
    before = await stored(service)
    async with service.client(service.admin_key) as admin:
        response = await admin.post("/v1/memories", json={**W, "metadata": metadata})
    assert "body.metadata" in problem_fields(response)
    assert await stored(service) == before


async def test_metadata_at_the_bounds_is_taken(service: Service) -> None:
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(limits.MAX_METADATA_DEPTH - 1):
        node["n"] = {}
        node = node["n"]
    big = {"blob": "x" * (limits.MAX_METADATA_BYTES - 20)}
    async with service.client(service.admin_key) as admin:
        for metadata in (deep, big):
            response = await admin.post("/v1/memories", json={**W, "metadata": metadata})
            assert response.status_code == 201, response.text


@pytest.mark.parametrize("count", [limits.MAX_FILTER_KEYS + 1, 495, 2000])
async def test_too_many_filter_keys_are_422_not_500(service: Service, count: int) -> None:
    metadata = {f"k{i}": i for i in range(count)}
    async with service.client(service.admin_key) as admin:
        response = await admin.post(
            "/v1/memories/search", json={"namespace": ["acme"], "metadata": metadata}
        )
    assert "body.metadata" in problem_fields(response)


async def test_the_most_filter_keys_allowed_answer(service: Service) -> None:
    metadata = {f"k{i}": i for i in range(limits.MAX_FILTER_KEYS)}
    async with service.client(service.admin_key) as admin:
        written = await admin.post("/v1/memories", json={**W, "metadata": metadata})
        assert written.status_code == 201
        found = await admin.post(
            "/v1/memories/search", json={"namespace": ["acme"], "metadata": metadata}
        )
    assert found.status_code == 200, found.text
    assert [i["id"] for i in found.json()["items"]] == [written.json()["id"]]


@pytest.mark.parametrize("content", ["", " ", "\n\t  \n", "\u3000"])
async def test_empty_content_is_422(service: Service, content: str) -> None:
    before = await stored(service)
    async with service.client(service.admin_key) as admin:
        response = await admin.post("/v1/memories", json={**W, "content": content})
    assert "body.content" in problem_fields(response)
    assert await stored(service) == before


async def test_many_namespaces_cannot_grow_the_short_term_pool_past_its_cap(
    tmp_path: Path,
) -> None:
    text = DEFAULT_POLICY.read_text(encoding="utf-8").replace(
        "short_max_total_entries = 50000", "short_max_total_entries = 5"
    )
    assert "short_max_total_entries = 5 " in text
    policy = tmp_path / "policy.toml"
    policy.write_text(text, encoding="utf-8")
    async for service in start_service(tmp_path / "data", graph=None, policy_path=policy):
        ids = []
        async with service.client(service.admin_key) as admin:
            for i in range(20):
                body = {"content": f"Scratch note {i}.", "namespace": ["t", f"n{i}"]}
                response = await admin.post("/v1/memories", json={**body, "source": "tool"})
                assert response.status_code == 201, response.text
                assert response.json()["pool"] == "short"
                ids.append(response.json()["id"])
            listed = await admin.get("/v1/memories", params={"namespace": "t", "limit": 100})
        gateway = service.state.gateway
        assert len(gateway.short) == 5
        assert [i["id"] for i in listed.json()["items"]] == ids[:-6:-1]
        # Every eviction is in the log, with the pool's cap as its reason.
        evicted = []
        for memory_id in ids[:15]:
            last = (await gateway.history(memory_id))[-1].event
            evicted.append((last.op.value, last.reason, last.state_after))
        assert evicted == [("expired", "pool_capacity", MemoryState.EXPIRED)] * 15
        for memory_id in ids[15:]:
            assert (await gateway.history(memory_id))[-1].event.op.value == "admitted"
