"""Memory items, their states and the one state machine that moves them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from memgate.domain.types import Decision, Finding, Source
from memgate.errors import IllegalTransition


def utcnow() -> datetime:
    """The default clock: aware UTC time."""
    return datetime.now(UTC)


class Target(StrEnum):
    AUTO = "auto"
    SHORT = "short"
    LONG = "long"


class PoolName(StrEnum):
    SHORT = "short"
    LONG = "long"
    NONE = "none"
    """Rejected writes live in the log only."""


class MemoryState(StrEnum):
    TRANSIENT = "transient"
    PENDING_REVIEW = "pending_review"
    APPROVED = "approved"
    REJECTED = "rejected"
    EXPIRED = "expired"
    DELETED = "deleted"

    @property
    def served(self) -> bool:
        """Served to every reader (pending items only to their writer's session)."""
        return self in (MemoryState.TRANSIENT, MemoryState.APPROVED)

    @property
    def final(self) -> bool:
        return self in (MemoryState.REJECTED, MemoryState.EXPIRED, MemoryState.DELETED)


S = MemoryState
ALLOWED: Mapping[MemoryState | None, frozenset[MemoryState]] = {
    # A new item enters in the state routing chose.
    None: frozenset({S.TRANSIENT, S.PENDING_REVIEW, S.APPROVED, S.REJECTED}),
    S.TRANSIENT: frozenset({S.PENDING_REVIEW, S.EXPIRED, S.DELETED}),
    S.PENDING_REVIEW: frozenset({S.APPROVED, S.REJECTED, S.DELETED}),
    # Demotion after a rescan under new rules.
    S.APPROVED: frozenset({S.PENDING_REVIEW, S.DELETED}),
    S.REJECTED: frozenset({S.DELETED}),
    S.EXPIRED: frozenset({S.DELETED}),
    S.DELETED: frozenset(),
}
"""The state machine of DESIGN.md. Rollback restores earlier states by replay and
is the one writer allowed to move items outside these edges (it is audited as
`rolled_back`)."""


def check_transition(before: MemoryState | None, after: MemoryState, memory_id: str) -> None:
    """Raise IllegalTransition unless `before -> after` is an edge of the machine."""
    if after not in ALLOWED[before]:
        raise IllegalTransition(memory_id, before, after)


class MemoryWrite(BaseModel):
    """What an agent asks to remember."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    content: str
    namespace: tuple[str, ...] = Field(min_length=1)
    key: str | None = None
    source: Source = Source.TOOL
    session_id: str | None = None
    agent_id: str | None = None
    call_id: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    target: Target = Target.AUTO
    ttl_seconds: float | None = Field(default=None, gt=0)

    @field_validator("metadata")
    @classmethod
    def _json_metadata(cls, value: dict[str, Any]) -> dict[str, Any]:
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"metadata must be plain JSON: {exc}") from None
        return value

    @field_validator("namespace")
    @classmethod
    def _labels(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for label in value:
            if not label or "/" in label or len(label) > 128:
                raise ValueError("namespace labels must be 1-128 chars without '/'")
        return value


class Reader(BaseModel):
    """Who is reading: recorded with every served item."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    session_id: str | None = None
    call_id: str | None = None
    agent_id: str | None = None


class MemoryItem(BaseModel):
    """A memory as stored and served. Content has secrets redacted."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    namespace: tuple[str, ...]
    key: str | None
    content: str
    pool: PoolName
    state: MemoryState
    trust_score: float
    decision: Decision
    findings: tuple[Finding, ...] = ()
    source: Source
    session_id: str | None = None
    agent_id: str | None = None
    call_id: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime
    updated_at: datetime
    scanned_at: datetime
    expires_at: datetime | None = None
    rules_version: str
    fingerprint: str
    """xxhash of the normalized content: equal content, equal fingerprint."""
    version: int = 1
    derived_from: tuple[str, ...] = ()
    reviewed_by: str | None = None
    reason: str | None = None
