"""The GuardState contract on PostgreSQL (the state every replica shares)."""

from __future__ import annotations

import pytest

from memgate.guard.state import GuardState
from memgate.guard.state_postgres import PostgresGuardState
from tests.contracts.guard_state_contract import BURST, GuardStateContract
from tests.pg_fixtures import pg_server, postgres  # noqa: F401 - fixture

pytestmark = pytest.mark.usefixtures("postgres")


class TestPostgresGuardState(GuardStateContract):
    def make(self) -> GuardState:
        return PostgresGuardState.open(pg_server().fresh_url(), BURST)
