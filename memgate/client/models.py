"""Wire shapes the domain has no model for: pages, bulk results, API keys.
Everything else parses into the domain models (MemoryItem, RollbackPlan, ...)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from memgate.domain.events import LogRecord
from memgate.domain.memory import MemoryItem, MemoryState


class Page(BaseModel):
    """One page of `GET /v1/memories`; `next_offset` is None on the last page."""

    model_config = ConfigDict(frozen=True)

    items: tuple[MemoryItem, ...]
    next_offset: int | None = None


class LogPage(BaseModel):
    """One page of `GET /v1/log`; pass `next_after_seq` back to continue."""

    model_config = ConfigDict(frozen=True)

    records: tuple[LogRecord, ...]
    next_after_seq: int | None = None


class BulkResult(BaseModel):
    """One id of a bulk review: its new state, or why it was refused."""

    model_config = ConfigDict(frozen=True)

    id: str
    ok: bool
    state: MemoryState | None = None
    error: str | None = None


def _namespace(value: Any) -> Any:
    if isinstance(value, str):
        return tuple(part for part in value.split("/") if part)
    return value


class ApiKey(BaseModel):
    """An API key as the server lists it (never the secret itself). Extra fields
    the server adds are kept, so a newer server does not break an older client."""

    model_config = ConfigDict(extra="allow", frozen=True)

    id: str
    name: str
    role: str
    namespaces: tuple[tuple[str, ...], ...] = ()
    """Empty: every namespace."""
    sources: tuple[str, ...] = ()
    """The sources the key's writes may declare (`user` only for a user channel)."""
    guard_roles: tuple[str, ...] = ()
    """The guard roles the key may act as (first: its default; none: the guard
    policy's default role)."""
    hint: str = ""
    """The first characters of the key, to tell keys apart."""
    created_at: datetime | None = None
    revoked_at: datetime | None = None

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None

    @field_validator("namespaces", mode="before")
    @classmethod
    def _slash_joined(cls, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return tuple(_namespace(v) for v in value)
        return value


class CreatedKey(BaseModel):
    """A new key: `key` is the secret, shown this once."""

    model_config = ConfigDict(frozen=True)

    info: ApiKey
    key: str
