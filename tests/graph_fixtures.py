"""FalkorDB for tests: one real embedded server (falkordblite) per test session,
and a fresh graph name per test, so tests are isolated without paying a server
start each. Registered for the whole suite from tests/conftest.py
(`pytest_plugins`), so any test can ask for these fixtures:

    def test_something(tmp_path, falkordb_server, graph_name):
        gateway = await open_graph_gateway(tmp_path, falkordb_server, graph_name)

`falkordb_server.url` is a `unix://` URL (embedded) or a `redis://` one (the
tests in SERVER_TESTS also run on a FalkorDB server process over TCP) that
`open_gateway(graph=...)` and the service settings accept like any FalkorDB URL.
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
from tests.graph_server import FalkorServerProcess, falkordb_process


@dataclass
class FalkorServer:
    """A running embedded FalkorDB: its URL, and a way to look inside a graph."""

    url: str
    directory: Path
    connection: FalkorConnection
    process: FalkorServerProcess | None = None
    """The server process, for a server over TCP (None: embedded)."""

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


EMBEDDED, SERVER = "embedded", "server"
SERVER_TESTS = frozenset(
    {
        "test_rebuild_equals_incremental_projection",
        "test_no_secret_value_reaches_the_graph",
        "test_readers_lists_each_call_and_session",
        "test_blast_radius_follows_reads_then_writes_with_paths",
        "test_exposure_follows_a_secret_by_fingerprint_across_sessions",
        "test_every_empty_state_is_told_apart",
        "test_every_acknowledged_write_is_read_back_at_once",
        "test_walk_equals_full_enumeration_on_falkordb",
    }
)
"""Graph tests that run twice: on the embedded engine and on a FalkorDB server
process over TCP (tests/graph_server.py): projection, investigations and
read-after-write, a representative subset (the suite on the server throughout
would double its time). tests/graph/test_graph_server.py adds the server's own
outage and the one-projector lease."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "falkordb_server" in metafunc.fixturenames and metafunc.function.__name__ in SERVER_TESTS:
        metafunc.parametrize("falkordb_kind", [EMBEDDED, SERVER], indirect=True, scope="session")


@pytest.fixture(scope="session")
def falkordb_kind(request: pytest.FixtureRequest) -> str:
    """Which FalkorDB `falkordb_server` is: embedded unless the module is in
    SERVER_TESTS (then both, as two parameters)."""
    return str(getattr(request, "param", EMBEDDED))


@pytest.fixture(scope="session")
def falkordb_server(
    tmp_path_factory: pytest.TempPathFactory, falkordb_kind: str
) -> Iterator[FalkorServer]:
    directory = tmp_path_factory.mktemp(f"falkordb-{falkordb_kind}")
    if falkordb_kind == SERVER:
        with falkordb_process(directory) as process:
            connection = FalkorConnection(graph_name="probe", url=process.url)
            connection.connect()
            yield FalkorServer(
                url=process.url, directory=directory, connection=connection, process=process
            )
            connection.close(shutdown=False)
        return
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
