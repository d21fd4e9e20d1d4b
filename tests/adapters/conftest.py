"""Fixtures for the framework adapter tests (shared values live in adapter_fixtures)."""

from __future__ import annotations

import pytest

from memgate.bootstrap import memory_gateway
from memgate.gateway import Gateway
from memgate.trust import Inspector


@pytest.fixture
def gateway(inspector: Inspector) -> Gateway:
    """A fresh gateway on the in-memory twins (nothing to close)."""
    return memory_gateway(inspector=inspector)
