"""The gateway state machine (tests/test_state_machine.py) on the PostgreSQL
store: the same rules, restarts included (a reopen is a new gateway on the same
database); each machine gets a fresh schema of its own."""

from __future__ import annotations

import pytest
from hypothesis import settings

from tests.pg_fixtures import pg_server, postgres  # noqa: F401 - the fixture
from tests.test_state_machine import _SETTINGS, machine

pytestmark = pytest.mark.usefixtures("postgres")


class PostgresGatewayMachine(machine("sqlite")):  # type: ignore[misc]
    """A persistent backend: keys under the machine's temp dir, the log and pools
    in PostgreSQL."""

    def fresh_store(self) -> str | None:
        return pg_server().fresh_url()


class TestPostgresGateway(PostgresGatewayMachine.TestCase):  # type: ignore[name-defined,misc]
    # NOTE: fewer runs than SQLite's 15: each open of a gateway builds the scanner
    # (seconds on a loaded machine: most of this test's time, on any backend).
    settings = settings(_SETTINGS, max_examples=5)
