"""Shared fixtures: one Inspector per test session (rules load and compile once)."""

from __future__ import annotations

import pytest

from memgate.trust import Inspector

TEST_FINGERPRINT_KEY = b"memgate-tests-fingerprint-key"


@pytest.fixture(scope="session")
def inspector() -> Inspector:
    return Inspector.default(fingerprint_key=TEST_FINGERPRINT_KEY)
