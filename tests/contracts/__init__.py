"""Contract test suites, one per port (STYLE #5).

A backend's test module subclasses the contract and supplies only a factory
(and the kind of item its pool holds). The helpers here build valid items and
run async test bodies without an async test plugin.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

# The contract modules hold the asserts: have pytest rewrite them for readable failures.
pytest.register_assert_rewrite(
    "tests.contracts.pool_contract",
    "tests.contracts.log_contract",
    "tests.contracts.outbox_contract",
    "tests.contracts.tamper_contract",
    "tests.contracts.short_pool_contract",
    "tests.contracts.lease_contract",
    "tests.contracts.vector_index_contract",
)

from memgate.domain.events import Event, Op  # noqa: E402
from memgate.domain.memory import MemoryItem, MemoryState, PoolName  # noqa: E402
from memgate.domain.types import Category, Decision, Finding, Severity, Source  # noqa: E402

KEY = b"memgate-tests-log-key-0123456789"
OTHER_KEY = b"not-the-memgate-log-key-9876543210"

T0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
"""The fixed "now" of these tests: every item is created around it."""


def run[T](coro: Coroutine[Any, Any, T]) -> T:
    """Run one async test body to completion on a fresh event loop."""
    return asyncio.run(coro)


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def finding(category: Category = Category.INJECTION, rule_id: str = "MG-TEST-001") -> Finding:
    return Finding(
        rule_id=rule_id,
        category=category,
        severity=Severity.MEDIUM,
        confidence=0.8,
        weight=0.2,
        chunk_index=0,
        span=(0, 5),
        evidence="ig***",
    )


_counter = iter(range(1, 10**9))


def new_item(**fields: Any) -> MemoryItem:
    """A valid item; `fields` override the defaults (a fresh id unless given)."""
    n = next(_counter)
    created = fields.pop("created_at", T0 + timedelta(seconds=n))
    values: dict[str, Any] = {
        "id": f"m-{n:06d}",
        "namespace": ("user-1", "notes"),
        "key": None,
        "content": "remember the blue notebook",
        "pool": PoolName.LONG,
        "state": MemoryState.APPROVED,
        "trust_score": 0.95,
        "decision": Decision.APPROVE,
        "source": Source.USER,
        "created_at": created,
        "updated_at": created,
        "scanned_at": created,
        "rules_version": "test-1",
        "fingerprint": f"fp-{n}",
    }
    values.update(fields)
    return MemoryItem(**values)


def long_item(**fields: Any) -> MemoryItem:
    """An item of the long-term pool (approved unless `state` says otherwise)."""
    return new_item(**{"pool": PoolName.LONG, "state": MemoryState.APPROVED, **fields})


def short_item(**fields: Any) -> MemoryItem:
    """A transient item of the short-term pool, expiring a day after T0."""
    return new_item(
        **{
            "pool": PoolName.SHORT,
            "state": MemoryState.TRANSIENT,
            "expires_at": T0 + timedelta(days=1),
            **fields,
        }
    )


def event_for(
    item: MemoryItem,
    op: Op = Op.ADMITTED,
    *,
    before: MemoryState | None = None,
    actor: str = "agent-1",
    reason: str | None = None,
) -> Event:
    """The event that puts `item` (its state is the state after)."""
    return Event(
        op=op,
        memory_id=item.id,
        at=item.updated_at,
        actor=actor,
        reason=reason,
        state_before=before,
        state_after=item.state,
        item=item,
    )
