"""Memory items, their states and the one state machine that moves them."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from memgate.domain.limits import (
    MAX_AGENT_ID_CHARS,
    MAX_KEY_CHARS,
    check_identifier,
    check_metadata,
    check_namespace,
)
from memgate.domain.types import Decision, Finding, Source
from memgate.errors import IllegalTransition, InvalidInput


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


REPLACES_KEY = "memgate_replaces"
"""Metadata of a write that replaces another memory (its id): when a reviewer
approves the replacement, the original is tombstoned in the same transaction, if
it lies in the same namespace and has the same writer. Until then the original
stays served; if the replacement is rejected, it stays for good."""


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

    @field_validator("content")
    @classmethod
    def _some_content(cls, value: str) -> str:
        return check_content(value)

    @field_validator("metadata")
    @classmethod
    def _json_metadata(cls, value: dict[str, Any]) -> dict[str, Any]:
        check_metadata(value)
        return value

    @field_validator("namespace")
    @classmethod
    def _labels(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return check_namespace(value)

    @field_validator("key")
    @classmethod
    def _key(cls, value: str | None) -> str | None:
        return None if value is None else check_identifier(value, "key", MAX_KEY_CHARS)

    @field_validator("session_id", "call_id")
    @classmethod
    def _ids(cls, value: str | None, info: ValidationInfo) -> str | None:
        return None if value is None else check_identifier(value, str(info.field_name))

    @field_validator("agent_id")
    @classmethod
    def _agent(cls, value: str | None) -> str | None:
        return None if value is None else check_identifier(value, "agent_id", MAX_AGENT_ID_CHARS)


def check_content(value: str, field: str = "content") -> str:
    """Content must say something: empty or whitespace-only content is refused."""
    if not value or value.isspace():
        raise InvalidInput(field, "must not be empty or only whitespace")
    return value


def check_write(write: MemoryWrite) -> MemoryWrite:
    """Every identifier, the metadata and the content of `write` checked again: a
    write built with `model_construct` skipped its validators."""
    check_content(write.content)
    check_namespace(write.namespace)
    if write.key is not None:
        check_identifier(write.key, "key", MAX_KEY_CHARS)
    check_reader(write.session_id, write.call_id, write.agent_id)
    check_metadata(write.metadata)
    return write


def check_reader(session_id: str | None, call_id: str | None, agent_id: str | None) -> None:
    """The ids a reader or writer names, each an identifier (None: not given)."""
    if session_id is not None:
        check_identifier(session_id, "session_id")
    if call_id is not None:
        check_identifier(call_id, "call_id")
    if agent_id is not None:
        check_identifier(agent_id, "agent_id", MAX_AGENT_ID_CHARS)


class Reader(BaseModel):
    """Who is reading: recorded with every served item."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    session_id: str | None = None
    call_id: str | None = None
    agent_id: str | None = None

    @model_validator(mode="after")
    def _ids(self) -> Reader:
        check_reader(self.session_id, self.call_id, self.agent_id)
        return self


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
