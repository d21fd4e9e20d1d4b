"""Bad input answers 4xx with a problem body naming the field and the reason;
never a 5xx. Oversize is 413, a held rollback 503 with Retry-After."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from service_support import Service, start_service

from memgate.errors import (
    GraphUnavailable,
    KeyFileError,
    MemgateError,
    PolicyError,
    RecallUnavailable,
    RollbackInProgress,
    RulesError,
    StorageError,
)
from memgate.service.problems import ERROR_STATUS
from memgate.service.settings import Settings, SettingsError
from memgate.trust.policy import DEFAULT_POLICY

pytestmark = pytest.mark.anyio

W = {"content": "fact", "namespace": ["acme"]}


def problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["title"] and body["detail"]
    assert body["type"].startswith("https://memgate.dev/problems/")
    return body


def fields(body: dict[str, Any]) -> set[str]:
    return {e["field"] for e in body.get("errors", [])}


async def test_missing_bad_and_revoked_keys_are_401(service: Service) -> None:
    async with service.client() as anonymous:
        body = problem(await anonymous.get("/v1/memories"), 401)
        assert "API key" in body["detail"]
    async with service.client("mgk_not-a-real-key") as bad:
        problem(await bad.get("/v1/memories"), 401)
    async with service.client("not even the prefix") as worse:
        problem(await worse.get("/v1/memories"), 401)
    async with service.client(**{"Authorization": "Basic dXNlcjpwYXNz"}) as basic:
        problem(await basic.get("/v1/memories"), 401)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"namespace": ["acme"]}, "body.content"),
        ({**W, "content": 5}, "body.content"),
        ({**W, "namespace": []}, "body.namespace"),
        ({**W, "namespace": ["a/b"]}, "body.namespace.0"),
        ({**W, "namespace": "acme"}, "body.namespace"),
        ({**W, "namespace": ["x" * 129]}, "body.namespace.0"),
        ({**W, "source": "martian"}, "body.source"),
        ({**W, "target": "forever"}, "body.target"),
        ({**W, "ttl_seconds": -1}, "body.ttl_seconds"),
        ({**W, "ttl_seconds": 1e308}, "body.ttl_seconds"),
        ({**W, "key": ""}, "body.key"),
        ({**W, "session_id": "s" * 257}, "body.session_id"),
        ({**W, "metadata": [1, 2]}, "body.metadata"),
        ({**W, "unexpected": True}, "body.unexpected"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
async def test_invalid_writes_name_the_field(
    service: Service, body: dict[str, Any], field: str
) -> None:
    async with service.client(service.admin_key) as admin:
        answer = problem(await admin.post("/v1/memories", json=body), 422)
    assert field in fields(answer), answer


async def test_hostile_json_is_a_4xx(service: Service) -> None:
    deep_metadata = {"a": 1}
    for _ in range(40):
        deep_metadata = {"a": deep_metadata}
    raw_cases = [
        b'{"content": "x", "namespace": ["acme"]',  # truncated
        b"\xff\xfe\x00garbage",  # not UTF-8
        b'{"content": "x", "namespace": ["acme"], "metadata": '
        + b"[" * 100_000
        + b"]" * 100_000
        + b"}",
        b'{"content": "x", "namespace": ["acme"], "metadata": {"n": NaN}}',
        b'{"content": "x", "namespace": ["\\ud800"]}',  # lone surrogate in a label
        b'{"content": "x", "namespace": ["acme"], "key": "\\udfff"}',
        # a lone surrogate in a metadata value (it once hung the store's commit)
        b'{"content": "x", "namespace": ["acme"], "metadata": {"k": "v\\udc00"}}',
        b"[]",
        b"null",
        b'"just a string"',
    ]
    async with service.client(service.admin_key) as admin:
        for raw in raw_cases:
            response = await admin.post(
                "/v1/memories", content=raw, headers={"content-type": "application/json"}
            )
            assert 400 <= response.status_code < 500, (raw[:60], response.text)
            problem(response, response.status_code)
        deep = await admin.post("/v1/memories", json={**W, "metadata": deep_metadata})
        assert "body.metadata" in fields(problem(deep, 422))
        # A lone surrogate in content is replaced, like the gateway does in-process.
        surrogate = await admin.post(
            "/v1/memories",
            content=b'{"content": "odd \\ud83d text", "namespace": ["acme"], "source": "user"}',
            headers={"content-type": "application/json"},
        )
        assert surrogate.status_code == 201, surrogate.text
        stored = await admin.get(f"/v1/review/{surrogate.json()['id']}")
        assert stored.json()["content"] == "odd \ufffd text"
        wrong_type = await admin.post(
            "/v1/memories", content=b"content=x", headers={"content-type": "text/plain"}
        )
        problem(wrong_type, 422)


async def test_oversize_is_413(service: Service) -> None:
    async with service.client(service.admin_key) as admin:
        content = problem(await admin.post("/v1/memories", json={**W, "content": "é" * 9000}), 413)
        assert "16384" in content["detail"] and "body.content" in fields(content)
        problem(await admin.post("/v1/scan", json={"content": "x" * 20_000}), 413)
        body = problem(
            await admin.post("/v1/memories", json={**W, "content": "x" * 2_000_000}), 413
        )
        assert "1048576" in body["detail"]

        async def chunks() -> AsyncIterator[bytes]:
            yield b'{"content": "'
            for _ in range(40):
                yield b"x" * 65536
            yield b'", "namespace": ["acme"]}'

        chunked = await admin.post(
            "/v1/memories", content=chunks(), headers={"content-type": "application/json"}
        )
        problem(chunked, 413)


async def test_query_and_path_parameters(service: Service) -> None:
    async with service.client(service.admin_key) as admin:
        cases = [
            ("GET", "/v1/memories", {"limit": 0}, "query.limit"),
            ("GET", "/v1/memories", {"limit": "many"}, "query.limit"),
            ("GET", "/v1/memories", {"offset": 10**30}, "query.offset"),
            ("GET", "/v1/memories", {"namespace": "a//b"}, "query.namespace"),
            ("GET", "/v1/memories/by-key", {"namespace": "acme"}, "query.key"),
            ("GET", "/v1/review/pending", {"category": "nope"}, "query.category"),
            ("GET", "/v1/review/pending", {"older_than_seconds": -5}, "query.older_than_seconds"),
            ("GET", "/v1/log", {"after_seq": -1}, "query.after_seq"),
            ("GET", "/v1/investigate/blast-radius/m_1", {"depth": 7}, "query.depth"),
            ("GET", "/v1/investigate/exposure/NOT-HEX", {}, "path.fingerprint"),
        ]
        for method, url, params, field in cases:
            answer = problem(await admin.request(method, url, params=params), 422)
            assert field in fields(answer), (url, params, answer)
        problem(await admin.get("/v1/memories/" + "x" * 300), 422)
        problem(await admin.get("/v1/memories/m_does_not_exist"), 404)
        problem(await admin.get("/nowhere"), 404)
        problem(await admin.put("/v1/memories"), 405)


async def test_rollback_requests(service: Service) -> None:
    async with service.client(service.admin_key) as admin:
        both = problem(
            await admin.post(
                "/v1/rollback", json={"to_seq": 0, "to_time": "2026-01-01T00:00:00Z", "reason": "x"}
            ),
            422,
        )
        assert "exactly one" in both["detail"]
        problem(await admin.post("/v1/rollback", json={"reason": "x"}), 422)
        problem(await admin.post("/v1/rollback", json={"to_seq": 0}), 422)
        beyond = problem(await admin.post("/v1/rollback", json={"to_seq": 99, "reason": "x"}), 422)
        assert fields(beyond) == {"body.to_seq"}
        by_time = await admin.post(
            "/v1/rollback", json={"to_time": "2020-01-01T00:00:00Z", "reason": "drill"}
        )
        assert by_time.status_code == 200 and by_time.json()["to_seq"] == 0
        problem(await admin.post("/v1/rollback", json={"to_time": "yesterday", "reason": "x"}), 422)


@pytest.fixture
async def impatient(tmp_path: Path) -> AsyncIterator[Service]:
    """A service whose writes wait 50 ms for a rollback before giving up."""
    text = DEFAULT_POLICY.read_text(encoding="utf-8").replace(
        "rollback_wait_seconds = 5", "rollback_wait_seconds = 0.05"
    )
    policy = tmp_path / "policy.toml"
    policy.write_text(text, encoding="utf-8")
    async for service in start_service(tmp_path / "data", graph=None, policy_path=policy):
        yield service


async def test_a_held_rollback_answers_503_with_retry_after(impatient: Service) -> None:
    gateway = impatient.state.gateway
    held = asyncio.Event()
    release = asyncio.Event()

    async def rollback_holding_the_gate() -> None:
        # The gate a rollback closes while it plans and appends (memgate/gateway/gate.py).
        async with gateway._gate.exclusive():
            held.set()
            await release.wait()

    task = asyncio.create_task(rollback_holding_the_gate())
    await held.wait()
    try:
        async with impatient.client(impatient.admin_key) as admin:
            busy = problem(await admin.post("/v1/memories", json=W), 503)
            assert busy["type"].endswith("/rollback")
            reads = await admin.get("/v1/memories")  # reads never wait
            assert reads.status_code == 200
        # The header is checked on the raw answer.
        async with impatient.client(impatient.admin_key) as admin:
            again = await admin.post("/v1/memories", json=W)
        assert again.status_code == 503 and int(again.headers["retry-after"]) >= 1
    finally:
        release.set()
        await task
    async with impatient.client(impatient.admin_key) as admin:
        assert (await admin.post("/v1/memories", json=W)).status_code == 201
        text = (await admin.get("/metrics")).text
    assert 'memgate_writes_refused_total{reason="rollback"} 2.0' in text


def test_settings_from_the_environment(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {
            "MEMGATE_DATA_DIR": str(tmp_path),
            "MEMGATE_FALKORDB_URL": "redis://graph.internal:6379",
            "MEMGATE_PORT": "9000",
        }
    )
    assert settings.data_dir == tmp_path and settings.port == 9000
    assert settings.graph == "redis://graph.internal:6379"
    assert settings.keys_path == tmp_path / "db" / "keys.sqlite3"
    assert Settings.from_env({"MEMGATE_GRAPH": "none"}).graph is None
    assert Settings.from_env({}, port=1234).port == 1234
    with pytest.raises(SettingsError, match="MEMGATE_PORT"):
        Settings.from_env({"MEMGATE_PORT": "eighty"})


def _tree(cls: type[MemgateError]) -> list[type[MemgateError]]:
    out = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_tree(sub))
    return out


def test_every_error_of_the_tree_has_a_status() -> None:
    """A new error class in memgate/errors.py (or the service) without a mapping
    would answer 500 'unmapped': this names it."""
    server_side = {
        RulesError,
        PolicyError,
        KeyFileError,
        StorageError,
        GraphUnavailable,
        RecallUnavailable,  # the server lacks the embedder: 503, like a graph that is down
    }
    for cls in _tree(MemgateError):
        if not cls.__module__.startswith(("memgate.errors", "memgate.service")):
            continue  # e.g. the HTTP client's own errors, never raised by the server
        assert any(c in ERROR_STATUS for c in cls.__mro__ if c is not MemgateError), cls
        status = next(ERROR_STATUS[c][0] for c in cls.__mro__ if c in ERROR_STATUS)
        if cls not in server_side and not issubclass(cls, RollbackInProgress):
            assert 400 <= status < 500, cls


@pytest.fixture
async def ticking(tmp_path: Path) -> AsyncIterator[Service]:
    """A service whose maintenance task runs every 50 ms."""
    async for service in start_service(tmp_path, graph=None, maintenance_seconds=0.05):
        yield service


async def test_maintenance_expires_transient_memories(ticking: Service) -> None:
    async with ticking.client(ticking.admin_key) as admin:
        receipt = await admin.post(
            "/v1/memories",
            json={"content": "build 77 is green", "namespace": ["ci"], "ttl_seconds": 0.1},
        )
        assert receipt.json()["state"] == "transient"
        url = f"/v1/memories/{receipt.json()['id']}/history"
        deadline = asyncio.get_running_loop().time() + 5
        while (await admin.get(url)).json()["events"][-1]["event"]["op"] != "expired":
            assert asyncio.get_running_loop().time() < deadline, "never expired"
            await asyncio.sleep(0.05)
