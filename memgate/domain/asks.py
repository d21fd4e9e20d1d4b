"""Tool calls the guard asked a person about: the review queue's second kind of
item, beside pending memories.

An `ask` decision becomes a `GuardAsk` (pending) in an `AskStore`; a reviewer
allows or denies it; the caller learns the answer by id, or by deciding the same
call again (same key, session, tool and arguments, matched by a keyed digest).
An ask holds the call's arguments with every sensitive value redacted, the
decision's reasons and the graph path (keyed fingerprints only): never a value.

Each backend is one module (`memgate.store.memory_asks`, `sqlite_asks`,
`postgres_asks`); tests/contracts/ask_contract.py holds them to one behaviour.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field


class AskState(StrEnum):
    PENDING = "pending"
    ALLOWED = "allowed"
    DENIED = "denied"
    EXPIRED = "expired"
    """No one answered within the policy's `[asks] expire_after`: the same call
    decided again asks anew."""


class GuardAsk(BaseModel):
    """One tool call waiting for (or answered by) a person."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1, max_length=100)
    digest: str = Field(min_length=1, max_length=100)
    """Keyed fingerprint of (key, session, tool, arguments): the same call again."""
    call_id: str
    tool: str
    role: str
    actor: str
    """The key that asked (`key:<id>`): it may read the answer, never give it."""
    agent_id: str | None = None
    session_id: str | None = None
    task_id: str | None = None
    namespaces: tuple[tuple[str, ...], ...] = ()
    """The asking key's scopes: reviewers whose scope covers one of them see it
    (none: every reviewer)."""
    arguments: dict[str, Any] = Field(default_factory=dict)
    """The call's arguments, sensitive values redacted."""
    reasons: tuple[str, ...] = ()
    layer: str = "none"
    path: tuple[dict[str, Any], ...] = ()
    """The decision's path steps (fingerprints, call ids, sessions, memory ids)."""
    created_at: datetime
    audit_seq: int | None = None
    state: AskState = AskState.PENDING
    reviewer: str | None = None
    note: str | None = None
    reviewed_at: datetime | None = None
    review_seq: int | None = None
    """The log event of the review."""
    used_at: datetime | None = None
    """An allowed ask lets the same call through once; when it did."""
    expires_at: datetime | None = None
    """When a pending ask expires unanswered (None: never, or an ask stored
    before asks expired: then `created_at` + the policy's `expire_after`)."""


class AskStore(Protocol):
    """Durable asks. Times are aware datetimes."""

    async def add(self, ask: GuardAsk) -> GuardAsk:
        """Store a pending ask; if one with its digest is pending already, that one
        is returned instead (a retried call is one queue item, not many)."""
        ...

    async def get(self, ask_id: str) -> GuardAsk | None: ...

    async def answer(self, digest: str) -> GuardAsk | None:
        """The ask that settles a new decision of this call: a pending one, an
        allowed one not used yet, or a denied one (newest first); None otherwise."""
        ...

    async def pending(self, limit: int = 50, offset: int = 0) -> list[GuardAsk]:
        """Pending asks, oldest first."""
        ...

    async def resolve(
        self,
        ask_id: str,
        state: AskState,
        *,
        reviewer: str,
        note: str | None,
        at: datetime,
        review_seq: int | None,
    ) -> GuardAsk | None:
        """Answer a pending ask (allowed or denied) or expire it (expired); None if it
        is not pending (unknown, or answered already: the first answer stands)."""
        ...

    async def use(self, ask_id: str, at: datetime) -> bool:
        """Spend an allowed ask on one call; False if it was used already."""
        ...

    async def close(self) -> None: ...
