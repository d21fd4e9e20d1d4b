"""The authorization matrix: every route × every role (and no key) × a target
inside and outside the key's namespace scopes, against the running app with a
real graph.

The route list comes from the app itself, so a new route without a row here
fails `test_every_route_has_a_row`. Agent and reviewer keys are scoped to
`acme`; admin keys are never scoped.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from graph_fixtures import FalkorServer
from service_support import Service, start_service

from memgate.domain import Source
from memgate.domain.memory import MemoryWrite, Target
from memgate.service.app import create_app
from memgate.service.settings import Settings

pytestmark = pytest.mark.anyio

IN = ("acme", "u1")
OUT = ("other", "u1")
ROLES = ("anonymous", "agent", "reviewer", "admin")
EVERYONE = frozenset(ROLES)
ANY_KEY = frozenset({"agent", "reviewer", "admin"})
WRITERS = frozenset({"agent", "admin"})
REVIEWERS = frozenset({"reviewer", "admin"})
ADMINS = frozenset({"admin"})
# Routes the matrix does not cover, and why: the API docs, and the review UI,
# which signs in with a key into a session cookie (tests/ui/ covers its checks).
EXEMPT_PREFIXES = ("/openapi.json", "/docs", "/redoc", "/ui")


@dataclass
class World:
    service: Service
    keys: dict[str, str | None] = field(default_factory=dict)

    async def memory(self, namespace: tuple[str, ...], kind: str = "approved") -> str:
        """A memory written by someone else (not by any matrix key)."""
        unique = uuid.uuid4().hex[:8]
        if kind == "pending":
            write = MemoryWrite(
                content=f"The quarterly report is due on Friday ({unique}).",
                namespace=namespace,
                source=Source.WEB,
                target=Target.LONG,
                agent_id="another-writer",
                session_id="s-other",
            )
        else:
            write = MemoryWrite(
                content=f"I prefer metric units ({unique}).",
                namespace=namespace,
                key=f"k-{unique}" if kind == "keyed" else None,
                source=Source.USER,
                agent_id="another-writer",
                session_id="s-other",
            )
        gateway = self.service.state.gateway
        receipt = await gateway.write(write)
        expected = "pending_review" if kind == "pending" else "approved"
        assert receipt.state.value == expected
        return receipt.id


Request = dict[str, Any]
Build = Callable[[World, tuple[str, ...]], Awaitable[Request]]


@dataclass(frozen=True)
class Row:
    roles: frozenset[str]
    """Roles allowed (others get 403, no key 401)."""
    scope: str | None
    """'id': out of scope answers 404; 'ns': 403; None: the route has no namespace."""
    ok: int
    build: Build
    check: Callable[[httpx.Response, bool], None] | None = None
    """Extra check of a successful answer (given whether the target was in scope)."""


def ns(namespace: tuple[str, ...]) -> str:
    return "/".join(namespace)


def fixed(**request: Any) -> Build:
    async def build(world: World, namespace: tuple[str, ...]) -> Request:
        return dict(request)

    return build


def on_memory(path: str, kind: str = "approved", **extra: Any) -> Build:
    async def build(world: World, namespace: tuple[str, ...]) -> Request:
        memory_id = await world.memory(namespace, kind)
        return {"url": path.format(id=memory_id), **extra}

    return build


async def agents_own_memory(world: World, namespace: tuple[str, ...]) -> Request:
    """A memory the matrix's agent key wrote (its agent id names the key)."""
    principal = world.service.state.keys.authenticate(world.keys["agent"])
    assert principal is not None
    receipt = await world.service.state.gateway.write(
        MemoryWrite(
            content=f"build {uuid.uuid4().hex[:8]} passed",
            namespace=namespace,
            source=Source.TOOL,
            target=Target.LONG,
            agent_id=principal.agent_label("matrix"),
        )
    )
    return {"url": f"/v1/memories/{receipt.id}"}


async def by_key(world: World, namespace: tuple[str, ...]) -> Request:
    memory_id = await world.memory(namespace, "keyed")
    item = await world.service.state.gateway.get_any(memory_id)
    assert item is not None
    return {
        "url": "/v1/memories/by-key",
        "params": {"namespace": ns(namespace), "key": item.key},
    }


async def bulk(world: World, namespace: tuple[str, ...]) -> Request:
    memory_id = await world.memory(namespace, "pending")
    return {"url": "/v1/review/bulk", "json": {"action": "approve", "ids": [memory_id]}}


def bulk_check(response: httpx.Response, in_scope: bool) -> None:
    (result,) = response.json()["results"]
    assert result["ok"] is in_scope, result


async def verify_checkpoint(world: World, namespace: tuple[str, ...]) -> Request:
    checkpoint = await world.service.state.gateway.checkpoint()
    return {"url": "/v1/log/verify", "json": {"checkpoint": checkpoint.model_dump(mode="json")}}


async def key_to_revoke(world: World, namespace: tuple[str, ...]) -> Request:
    info, _ = world.service.state.keys.create("to-revoke", "agent", [namespace])
    return {"url": f"/v1/keys/{info.id}"}


async def key_to_reshape(world: World, namespace: tuple[str, ...]) -> Request:
    info, _ = world.service.state.keys.create("to-reshape", "agent", [namespace])
    return {"url": f"/v1/keys/{info.id}", "json": {"user_channel": True}}


def in_ns(path: str, **extra: Any) -> Build:
    async def build(world: World, namespace: tuple[str, ...]) -> Request:
        return {"url": path, "params": {"namespace": ns(namespace)}, **extra}

    return build


def body_ns(path: str, **body: Any) -> Build:
    async def build(world: World, namespace: tuple[str, ...]) -> Request:
        return {"url": path, "json": {**body, "namespace": list(namespace)}}

    return build


MATRIX: dict[tuple[str, str], Row] = {
    ("POST", "/v1/memories"): Row(
        WRITERS, "ns", 201, body_ns("/v1/memories", content="build 1432 passed")
    ),
    ("GET", "/v1/memories"): Row(ANY_KEY, "ns", 200, in_ns("/v1/memories")),
    ("GET", "/v1/memories/by-key"): Row(ANY_KEY, "ns", 200, by_key),
    ("POST", "/v1/memories/search"): Row(ANY_KEY, "ns", 200, body_ns("/v1/memories/search")),
    ("GET", "/v1/memories/{memory_id}"): Row(ANY_KEY, "id", 200, on_memory("/v1/memories/{id}")),
    # An agent deletes only what its own key wrote (tests/service/test_authorization.py).
    ("DELETE", "/v1/memories/{memory_id}"): Row(WRITERS, "id", 200, agents_own_memory),
    ("GET", "/v1/memories/{memory_id}/history"): Row(
        REVIEWERS, "id", 200, on_memory("/v1/memories/{id}/history")
    ),
    ("GET", "/v1/review/pending"): Row(REVIEWERS, "ns", 200, in_ns("/v1/review/pending")),
    ("GET", "/v1/review/{memory_id}"): Row(
        REVIEWERS, "id", 200, on_memory("/v1/review/{id}", "pending")
    ),
    ("POST", "/v1/review/{memory_id}/approve"): Row(
        REVIEWERS, "id", 200, on_memory("/v1/review/{id}/approve", "pending", json={})
    ),
    ("POST", "/v1/review/{memory_id}/reject"): Row(
        REVIEWERS,
        "id",
        200,
        on_memory("/v1/review/{id}/reject", "pending", json={"reason": "not a fact"}),
    ),
    ("POST", "/v1/review/{memory_id}/edit"): Row(
        REVIEWERS,
        "id",
        200,
        on_memory("/v1/review/{id}/edit", "pending", json={"content": "Reports are due Friday."}),
    ),
    # Bulk answers 200 either way; out of scope is that id's refusal.
    ("POST", "/v1/review/bulk"): Row(REVIEWERS, None, 200, bulk, check=bulk_check),
    ("POST", "/v1/scan"): Row(ANY_KEY, None, 200, fixed(url="/v1/scan", json={"content": "hi"})),
    ("POST", "/v1/rollback"): Row(
        ADMINS, None, 200, body_ns("/v1/rollback", to_seq=0, reason="drill", dry_run=True)
    ),
    ("GET", "/v1/log"): Row(ADMINS, None, 200, fixed(url="/v1/log")),
    ("GET", "/v1/log/verify"): Row(ADMINS, None, 200, fixed(url="/v1/log/verify")),
    ("POST", "/v1/log/verify"): Row(ADMINS, None, 200, verify_checkpoint),
    ("POST", "/v1/log/checkpoint"): Row(ADMINS, None, 200, fixed(url="/v1/log/checkpoint")),
    ("GET", "/v1/log/public-key"): Row(EVERYONE, None, 200, fixed(url="/v1/log/public-key")),
    ("GET", "/v1/investigate/readers/{memory_id}"): Row(
        ADMINS, None, 200, on_memory("/v1/investigate/readers/{id}")
    ),
    ("GET", "/v1/investigate/blast-radius/{memory_id}"): Row(
        ADMINS, None, 200, on_memory("/v1/investigate/blast-radius/{id}")
    ),
    ("GET", "/v1/investigate/provenance/{memory_id}"): Row(
        ADMINS, None, 200, on_memory("/v1/investigate/provenance/{id}")
    ),
    ("GET", "/v1/investigate/exposure/{fingerprint}"): Row(
        ADMINS, None, 200, fixed(url="/v1/investigate/exposure/0123abcd")
    ),
    ("POST", "/v1/graph/rebuild"): Row(ADMINS, None, 200, fixed(url="/v1/graph/rebuild")),
    ("POST", "/v1/keys"): Row(
        ADMINS, None, 201, fixed(url="/v1/keys", json={"name": "new", "role": "agent"})
    ),
    ("GET", "/v1/keys"): Row(ADMINS, None, 200, fixed(url="/v1/keys")),
    # every key may read its own role and scopes (MemgateSession's default prefix)
    ("GET", "/v1/keys/me"): Row(ANY_KEY, None, 200, fixed(url="/v1/keys/me")),
    ("DELETE", "/v1/keys/{key_id}"): Row(ADMINS, None, 200, key_to_revoke),
    ("PATCH", "/v1/keys/{key_id}"): Row(ADMINS, None, 200, key_to_reshape),
    # Guard routes: writers; the role a call names must be one its key holds
    # (tests/service/test_service_guard_roles.py), so these name none.
    ("POST", "/v1/guard/decide"): Row(
        WRITERS, None, 200, fixed(url="/v1/guard/decide", json={"tool": "Read", "input": {}})
    ),
    ("POST", "/v1/guard/results"): Row(
        WRITERS,
        None,
        200,
        fixed(url="/v1/guard/results", json={"call_id": "c1", "tool": "Read", "output": "ok"}),
    ),
    ("POST", "/v1/guard/tools"): Row(
        WRITERS,
        None,
        200,
        fixed(url="/v1/guard/tools", json={"server": "notes", "tools": [{"name": "sync"}]}),
    ),
    # The guard's review queue: reviewers and admins list and answer asks; any key
    # may read one (the asking key polls it). Asked about an id nobody asked, a
    # role that passes the route's authorization gets 404 (the asks themselves:
    # tests/service/test_service_guard_asks.py).
    ("GET", "/v1/guard/asks"): Row(REVIEWERS, None, 200, fixed(url="/v1/guard/asks")),
    ("GET", "/v1/guard/asks/{ask_id}"): Row(
        ANY_KEY, None, 404, fixed(url="/v1/guard/asks/ask_nobody_asked")
    ),
    ("POST", "/v1/guard/asks/{ask_id}/allow"): Row(
        REVIEWERS, None, 404, fixed(url="/v1/guard/asks/ask_nobody_asked/allow", json={})
    ),
    ("POST", "/v1/guard/asks/{ask_id}/deny"): Row(
        REVIEWERS,
        None,
        404,
        fixed(url="/v1/guard/asks/ask_nobody_asked/deny", json={"note": "not expected"}),
    ),
    ("GET", "/healthz"): Row(EVERYONE, None, 200, fixed(url="/healthz")),
    ("GET", "/readyz"): Row(EVERYONE, None, 200, fixed(url="/readyz")),
    ("GET", "/metrics"): Row(EVERYONE, None, 200, fixed(url="/metrics")),
}


def _walk(routes: Any, out: set[tuple[str, str]]) -> None:
    for route in routes:
        nested = getattr(route, "effective_route_contexts", None)
        if nested is not None:  # an included router (FastAPI >= 0.16x)
            _walk(nested(), out)
            continue
        sub = getattr(route, "routes", None)
        if sub is not None and not getattr(route, "methods", None):  # a mount
            _walk(sub, out)
            continue
        path, methods = getattr(route, "path", None), getattr(route, "methods", None)
        if path and methods:
            out.update((m, path) for m in methods if m not in ("HEAD", "OPTIONS"))


def app_routes() -> set[tuple[str, str]]:
    """Every (method, path) the app serves: its routes and its OpenAPI schema."""
    app = create_app(Settings(data_dir=Path("unused"), graph=None))
    found: set[tuple[str, str]] = set()
    _walk(app.routes, found)
    for path, methods in app.openapi()["paths"].items():
        found.update((m.upper(), path) for m in methods)
    return {(m, p) for m, p in found if not p.startswith(EXEMPT_PREFIXES)}


def test_every_route_has_a_row() -> None:
    routes = app_routes()
    assert routes - MATRIX.keys() == set(), "routes without an authorization matrix row"
    assert MATRIX.keys() - routes == set(), "matrix rows for routes the app does not have"


@pytest.fixture(scope="module")
async def world(
    tmp_path_factory: pytest.TempPathFactory, falkordb_server: FalkorServer
) -> AsyncIterator[World]:
    graph_name = f"test_matrix_{uuid.uuid4().hex[:8]}"
    data_dir = tmp_path_factory.mktemp("matrix")
    async for service in start_service(data_dir, graph=falkordb_server.url, graph_name=graph_name):
        keys: dict[str, str | None] = {
            "anonymous": None,
            "agent": service.key("agent", ("acme",)),
            "reviewer": service.key("reviewer", ("acme",)),
            "admin": service.admin_key,
        }
        yield World(service, keys)
    falkordb_server.drop(graph_name)


def expected(row: Row, role: str, in_scope: bool) -> int:
    if role not in row.roles:
        return 401 if role == "anonymous" else 403
    if in_scope or row.scope is None or role == "admin":
        return row.ok
    return 404 if row.scope == "id" else 403


@pytest.mark.parametrize("route", sorted(MATRIX), ids=lambda r: f"{r[0]} {r[1]}")
async def test_matrix(world: World, route: tuple[str, str]) -> None:
    method, _ = route
    row = MATRIX[route]
    wrong = []
    for role in ROLES:
        for in_scope in (True, False):
            request = await row.build(world, IN if in_scope else OUT)
            async with world.service.client(world.keys[role]) as client:
                response = await client.request(method, **request)
            want = expected(row, role, in_scope)
            if response.status_code != want:
                wrong.append(
                    f"{role} {'in' if in_scope else 'out of'} scope: {response.status_code}"
                    f" (want {want}) {response.text[:200]}"
                )
                continue
            if want >= 400:
                assert response.headers["content-type"].startswith("application/problem+json")
                assert response.json()["status"] == want
            elif row.check is not None:
                row.check(response, in_scope or role == "admin")
    assert not wrong, "\n".join(wrong)
