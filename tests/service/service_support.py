"""Fixtures for the HTTP service tests: a real app (lifespan run, real SQLite in
tmp_path) and httpx clients over the ASGI transport, one per API key."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from graph_fixtures import FalkorServer

from memgate.service.app import create_app
from memgate.service.deps import MemgateState
from memgate.service.keys import Role
from memgate.service.settings import Settings


@dataclass
class Service:
    app: FastAPI
    state: MemgateState
    admin_key: str

    def client(self, key: str | None = None, **headers: str) -> httpx.AsyncClient:
        """A client authenticated with `key` (no key: anonymous)."""
        if key is not None:
            headers["Authorization"] = f"Bearer {key}"
        return httpx.AsyncClient(
            transport=httpx.ASGITransport(app=self.app),
            base_url="http://memgate.test",
            headers=headers,
        )

    def key(
        self,
        role: Role | str,
        *namespaces: Sequence[str],
        name: str = "test",
        user_channel: bool = False,
        guard_roles: Sequence[str] | None = None,
    ) -> str:
        """A new key; `user_channel`: its writes may also declare source `user`;
        `guard_roles`: the guard roles it may act as (first: its default)."""
        _, raw = self.state.keys.create(
            name, role, namespaces, user_channel=user_channel, guard_roles=guard_roles
        )
        return raw


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


async def start_service(data_dir: Path, **settings: object) -> AsyncIterator[Service]:
    app = create_app(Settings(data_dir=data_dir, **settings))  # type: ignore[arg-type]
    async with app.router.lifespan_context(app):
        state = app.state.memgate
        admin = state.keys.ensure_admin()
        assert admin is not None
        yield Service(app, state, admin)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    """A service without a graph on a fresh data directory."""
    async for running in start_service(tmp_path, graph=None):
        yield running


@pytest.fixture
async def graph_service(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> AsyncIterator[Service]:
    """A service projecting into a graph of its own on the shared FalkorDB server."""
    async for running in start_service(tmp_path, graph=falkordb_server.url, graph_name=graph_name):
        yield running


# --- replicas: several apps on one PostgreSQL database --------------------------


@contextlib.asynccontextmanager
async def replica(url: str, data: Path) -> AsyncIterator[FastAPI]:
    """One gateway replica on the store at `url`, its lifespan running."""
    app = create_app(Settings(data_dir=data, store=url, graph=None))
    async with app.router.lifespan_context(app):
        yield app


def replica_client(app: FastAPI, key: str) -> httpx.AsyncClient:
    """A client of `app` in process, authenticated with `key`."""
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://memgate.test",
        headers={"Authorization": f"Bearer {key}"},
    )


async def post_ok(client: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST `body`, expect 200, return the JSON answer."""
    response = await client.post(path, json=body)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


@pytest.fixture
def same_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every replica is given the deployment's keys (else fingerprints differ)."""
    monkeypatch.setenv("MEMGATE_LOG_KEY", secrets.token_hex(32))
    monkeypatch.setenv("MEMGATE_FINGERPRINT_KEY", secrets.token_hex(32))
