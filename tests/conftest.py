"""Shared fixtures: one Inspector per test session (rules load and compile once)."""

from __future__ import annotations

import pytest

from memgate.trust import Inspector

pytest_plugins = ["graph_fixtures", "redis_fixtures"]
"""Shared FalkorDB fixtures (falkordb_server, graph_name): tests/graph_fixtures.py."""

TEST_FINGERPRINT_KEY = b"memgate-tests-fingerprint-key"


@pytest.fixture(scope="session")
def inspector() -> Inspector:
    return Inspector.default(fingerprint_key=TEST_FINGERPRINT_KEY)
