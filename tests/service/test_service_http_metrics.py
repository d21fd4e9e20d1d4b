"""/metrics counts and times every HTTP request by method, route template and
status: the template, never the raw path (ids and unknown paths would make the
series unbounded)."""

from __future__ import annotations

import re
import uuid

import pytest
from service_support import Service

pytestmark = pytest.mark.anyio

ONE = "/v1/memories/{memory_id}"
COUNT = "memgate_http_requests_total"


Key = tuple[str, frozenset[tuple[str, str]]]
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def samples(text: str) -> dict[Key, float]:
    """Prometheus text as {(name, labels): value}, whatever the label order."""
    found: dict[Key, float] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        head, value = line.rsplit(" ", 1)
        name, _, labels = head.partition("{")
        found[name, frozenset(LABEL.findall(labels))] = float(value)
    return found


def key(name: str, method: str, route: str, status: int, **extra: str) -> Key:
    labels = {"method": method, "route": route, "status": str(status), **extra}
    return name, frozenset(labels.items())


async def test_requests_are_counted_and_timed_by_route_template(service: Service) -> None:
    probes = [f"/no/such/{uuid.uuid4().hex}" for _ in range(12)]
    async with service.client(service.admin_key) as admin:
        ids = []
        for n in range(3):
            written = await admin.post(
                "/v1/memories",
                json={"content": f"fact {n}", "namespace": ["acme"], "source": "user"},
            )
            assert written.status_code == 201
            ids.append(written.json()["id"])
        for memory_id in ids:
            assert (await admin.get(f"/v1/memories/{memory_id}")).status_code == 200
        missing = await admin.get("/v1/memories/m_01JNOSUCHMEMORY0000000000")
        assert missing.status_code == 404
        for path in probes:
            assert (await admin.get(path)).status_code == 404
        too_big = await admin.post(
            "/v1/memories", json={"content": "x" * 20_000, "namespace": ["a"]}
        )
        assert too_big.status_code == 413
        wrong_method = await admin.put("/v1/memories")
        assert wrong_method.status_code == 405
        async with service.client() as anonymous:
            assert (await anonymous.get("/v1/memories?namespace=acme")).status_code == 401
        text = (await admin.get("/metrics")).text
    found = samples(text)
    count, seconds = COUNT, "memgate_http_request_duration_seconds"
    assert found[key(count, "POST", "/v1/memories", 201)] == 3
    assert found[key(count, "POST", "/v1/memories", 413)] == 1
    assert found[key(count, "GET", ONE, 200)] == 3
    assert found[key(count, "GET", ONE, 404)] == 1
    assert found[key(count, "GET", "/v1/memories", 401)] == 1
    assert found[key(count, "PUT", "/v1/memories", 405)] == 1
    # Twelve different unknown paths: one series, and no raw path in the output.
    assert found[key(count, "GET", "<unmatched>", 404)] == 12
    assert not any(path in text for path in probes)
    assert not any(memory_id in text for memory_id in ids)
    # The histogram: a count, a sum and cumulative buckets per series.
    assert found[key(f"{seconds}_count", "GET", ONE, 200)] == 3
    assert found[key(f"{seconds}_sum", "GET", ONE, 200)] > 0
    assert found[key(f"{seconds}_bucket", "GET", ONE, 200, le="+Inf")] == 3
    assert found[key(f"{seconds}_bucket", "GET", ONE, 200, le="10.0")] == 3


async def test_series_stay_bounded_under_many_distinct_paths(service: Service) -> None:
    async with service.client(service.admin_key) as admin:
        for n in range(40):
            await admin.get(f"/v1/memories/m_{n:026d}")
            await admin.get(f"/random/{n}/path")
            await admin.request("BREW", f"/v1/memories/m_{n:026d}")
        text = (await admin.get("/metrics")).text
    labelled = [dict(labels) for (name, labels) in samples(text) if name == COUNT]
    assert {labels["route"] for labels in labelled} == {ONE, "<unmatched>"}, labelled
    assert {labels["method"] for labels in labelled} == {"GET", "OTHER"}, labelled
