"""FalkorDB for tests: one real embedded server (falkordblite) per test session,
and a fresh graph name per test, so tests are isolated without paying a server
start each. Registered for the whole suite from tests/conftest.py
(`pytest_plugins`), so any test can ask for these fixtures:

    def test_something(tmp_path, falkordb_server, graph_name):
        gateway = await open_graph_gateway(tmp_path, falkordb_server, graph_name)

`falkordb_server.url` is a `unix://` URL that `open_gateway(graph=...)` and the
service settings accept like any FalkorDB URL.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from memgate.bootstrap import open_gateway
from memgate.gateway import Gateway
from memgate.graph import FalkorConnection


@dataclass
class FalkorServer:
    """A running embedded FalkorDB: its URL, and a way to look inside a graph."""

    url: str
    directory: Path
    connection: FalkorConnection

    def query(self, graph_name: str, cypher: str, params: dict[str, Any] | None = None) -> Any:
        """Run a query on `graph_name` (tests inspecting what was projected)."""
        conn = FalkorConnection(graph_name=graph_name, url=self.url)
        try:
            return conn.query(cypher, params)
        finally:
            conn.close()

    def drop(self, graph_name: str) -> None:
        conn = FalkorConnection(graph_name=graph_name, url=self.url)
        try:
            conn.delete_graph()
        finally:
            conn.close()


@pytest.fixture(scope="session")
def falkordb_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FalkorServer]:
    directory = tmp_path_factory.mktemp("falkordb")
    connection = FalkorConnection(graph_name="probe", data_dir=directory)
    connection.connect()
    socket_path = connection.socket_path
    assert socket_path, "the embedded FalkorDB server did not report its socket"
    yield FalkorServer(url=f"unix://{socket_path}", directory=directory, connection=connection)
    connection.close()


@pytest.fixture
def graph_name(falkordb_server: FalkorServer) -> Iterator[str]:
    """A graph of its own for this test, dropped afterwards."""
    name = f"test_{uuid.uuid4().hex[:12]}"
    yield name
    falkordb_server.drop(name)


async def open_graph_gateway(
    data_dir: Path, server: FalkorServer, graph_name: str, **kwargs: Any
) -> Gateway:
    """A SQLite gateway projecting into `graph_name` on the shared test server."""
    return await open_gateway(data_dir, graph=server.url, graph_name=graph_name, **kwargs)
