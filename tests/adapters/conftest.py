"""Fixtures for the framework adapter tests (shared values live in adapter_fixtures)."""

from __future__ import annotations

import pytest

from memgate.bootstrap import memory_gateway
from memgate.gateway import Gateway
from memgate.trust import Inspector, Policy


@pytest.fixture
def gateway(inspector: Inspector) -> Gateway:
    """A fresh gateway on the in-memory twins (nothing to close)."""
    return memory_gateway(inspector=inspector)


def held_policy() -> Policy:
    """The bundled policy with routing by provenance holding every agent write
    (`[provenance] auto_approve = []`), as before it: for tests of what a pending
    value does (served only to its writer's thread until a reviewer approves it)."""
    policy = Policy.load()
    provenance = policy.provenance.model_copy(update={"auto_approve": frozenset()})
    return policy.model_copy(update={"provenance": provenance})


@pytest.fixture
def held_gateway(inspector: Inspector) -> Gateway:
    """A fresh in-memory gateway where every agent write waits for review."""
    return memory_gateway(inspector=inspector, policy=held_policy())
