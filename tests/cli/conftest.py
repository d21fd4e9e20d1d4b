"""A real `memgate serve` for the --url and client tests (one per test session): a
subprocess on a free port with a fresh data directory, its admin key read from
what it printed on first start. Tests use their own namespaces and ids."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from graph_fixtures import FalkorServer

from tests.cli.serving import KEY_LINE, Server, start_server, stop


@pytest.fixture(scope="session")
def server(
    tmp_path_factory: pytest.TempPathFactory, falkordb_server: FalkorServer
) -> Iterator[Server]:
    """Projecting into the suite's shared FalkorDB (by URL, as MEMGATE_FALKORDB_URL
    would): the embedded default is exercised by `memgate demo`."""
    root = tmp_path_factory.mktemp("served")
    log = root / "serve.log"
    process, url = start_server(root / "data", log, "--graph", falkordb_server.url)
    try:
        found = KEY_LINE.search(log.read_text())
        assert found, log.read_text()
        yield Server(url=url, admin_key=found.group(1), data_dir=root / "data", output=log)
    finally:
        stop(process)
