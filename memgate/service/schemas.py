"""Wire models: what the HTTP API takes and returns (besides the domain models
it serves as they are: MemoryItem, WriteReceipt, LogRecord, RollbackPlan, ...).

Every string a client sends is checked before it reaches the gateway: lone
surrogates (valid JSON, invalid Unicode) are refused where they would be stored
as identifiers and replaced in content; metadata is plain JSON of bounded depth.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)

from memgate.domain import Source
from memgate.domain.events import Checkpoint, LogRecord
from memgate.domain.memory import MemoryItem, MemoryState, Target
from memgate.service.keys import KeyInfo, Role

_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_METADATA_DEPTH = 16
MAX_OFFSET = 1_000_000
MAX_SEQ = 2**62


def _no_surrogates(value: str) -> str:
    if _SURROGATE.search(value):
        raise ValueError("invalid Unicode: lone surrogate")
    return value


def _replace_surrogates(value: str) -> str:
    return _SURROGATE.sub("\ufffd", value)


def _depth(value: Any, limit: int) -> None:
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list) and depth > limit:
            raise ValueError(f"nested deeper than {limit} levels")
        if isinstance(node, dict):
            for key, child in node.items():
                if isinstance(key, str):
                    _no_surrogates(key)
                stack.append((child, depth + 1))
        elif isinstance(node, list):
            stack.extend((child, depth + 1) for child in node)
        elif isinstance(node, str):
            _no_surrogates(node)


def _plain_json(value: dict[str, Any]) -> dict[str, Any]:
    _depth(value, MAX_METADATA_DEPTH)
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"metadata must be plain JSON: {exc}") from None
    return value


Label = Annotated[
    str,
    StringConstraints(min_length=1, max_length=128, pattern=r"^[^/]+$"),
    AfterValidator(_no_surrogates),
]
Namespace = Annotated[list[Label], Field(min_length=1, max_length=32)]
Ident = Annotated[
    str, StringConstraints(min_length=1, max_length=256), AfterValidator(_no_surrogates)
]
Content = Annotated[str, AfterValidator(_replace_surrogates)]
Reason = Annotated[
    str,
    StringConstraints(min_length=1, max_length=2000, pattern=r"\S"),
    AfterValidator(_replace_surrogates),
]
Note = Annotated[str, StringConstraints(max_length=2000), AfterValidator(_replace_surrogates)]
Metadata = Annotated[dict[str, Any], AfterValidator(_plain_json)]
Limit = Annotated[int, Field(ge=1, le=1000)]
Offset = Annotated[int, Field(ge=0, le=MAX_OFFSET)]


def _utc(value: datetime) -> datetime:
    """Aware UTC (naive means UTC); refuses instants that leave the datetime range
    once moved to UTC (year 1 at +05:00), which the store could not spell."""
    aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    try:
        return aware.astimezone(UTC)
    except OverflowError:
        raise ValueError("time out of range once converted to UTC") from None


Instant = Annotated[datetime, AfterValidator(_utc)]


def parse_namespace(value: str | None) -> tuple[str, ...]:
    """'a/b' -> ('a', 'b'); '' or None -> () (every namespace)."""
    if not value:
        return ()
    labels = tuple(value.split("/"))
    if len(labels) > 32:
        raise ValueError("at most 32 labels")
    for label in labels:
        if not label or len(label) > 128:
            raise ValueError("labels must be 1-128 characters, joined by '/'")
        _no_surrogates(label)
    return labels


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WriteBody(Model):
    """One memory to write. The agent id recorded is the key's identity, with the
    client's `agent_id` appended (`key:k_ab12/planner`)."""

    content: Content
    namespace: Namespace
    key: Ident | None = None
    source: Source = Source.TOOL
    session_id: Ident | None = None
    agent_id: Ident | None = None
    call_id: Ident | None = None
    metadata: Metadata = Field(default_factory=dict)
    target: Target = Target.AUTO
    ttl_seconds: float | None = Field(default=None, gt=0, le=366 * 86400, allow_inf_nan=False)


class SearchBody(Model):
    namespace: list[Label] = Field(default_factory=list, max_length=32)
    """A namespace prefix; empty: every namespace the key may read."""
    query: (
        Annotated[str, StringConstraints(max_length=1000), AfterValidator(_no_surrogates)] | None
    ) = None
    metadata: Metadata = Field(default_factory=dict)
    limit: Limit = 10
    offset: Offset = 0
    session_id: Ident | None = None
    call_id: Ident | None = None
    agent_id: Ident | None = None


class ItemPage(Model):
    items: list[MemoryItem]
    next_offset: int | None = None


class Items(Model):
    items: list[MemoryItem]


class History(Model):
    events: list[LogRecord]


class ApproveBody(Model):
    note: Note | None = None


class RejectBody(Model):
    reason: Reason


class EditBody(Model):
    content: Content
    note: Note | None = None


class BulkBody(Model):
    action: Literal["approve", "reject"]
    ids: Annotated[list[Ident], Field(min_length=1, max_length=500)]
    reason: Reason | None = None

    @model_validator(mode="after")
    def _reason(self) -> BulkBody:
        if self.action == "reject" and self.reason is None:
            raise ValueError("reject needs a reason")
        return self


class BulkResult(Model):
    id: str
    ok: bool
    state: MemoryState | None = None
    error: str | None = None


class BulkResults(Model):
    results: list[BulkResult]


class ScanBody(Model):
    content: Content
    source: Source = Source.TOOL


class RollbackBody(Model):
    """A rollback request: a target (`to_seq` or `to_time`, exactly one), an optional
    scope, and a reason. `dry_run` defaults to true: applying must be asked for."""

    to_seq: Annotated[int, Field(ge=0, le=MAX_SEQ)] | None = None
    to_time: Instant | None = None
    namespace: list[Label] = Field(default_factory=list, max_length=32)
    source: Source | None = None
    session_id: Ident | None = None
    memory_id: Ident | None = None
    reason: Reason
    dry_run: bool = True

    @model_validator(mode="after")
    def _one_target(self) -> RollbackBody:
        if (self.to_seq is None) == (self.to_time is None):
            raise ValueError("give exactly one of to_seq and to_time")
        return self


class LogPage(Model):
    records: list[LogRecord]
    next_after_seq: int | None = None


class CheckpointBody(Model):
    """An exported checkpoint, as `POST /v1/log/checkpoint` answered it."""

    seq: Annotated[int, Field(ge=0, le=MAX_SEQ)]
    head_mac: Annotated[str, StringConstraints(min_length=1, max_length=256)]
    count: Annotated[int, Field(ge=0, le=MAX_SEQ)]
    at: Instant

    def domain(self) -> Checkpoint:
        return Checkpoint(seq=self.seq, head_mac=self.head_mac, count=self.count, at=self.at)


class VerifyBody(Model):
    checkpoint: CheckpointBody


class KeyBody(Model):
    name: Annotated[str, StringConstraints(min_length=1, max_length=200, pattern=r"\S")]
    role: Role
    namespaces: Annotated[list[Namespace], Field(max_length=100)] = Field(default_factory=list)
    """Namespace scopes (label prefixes); empty: every namespace."""


class KeyCreated(KeyInfo):
    key: str
    """The API key. Shown once: only its hash is stored."""


class KeyList(Model):
    keys: list[KeyInfo]


class Health(Model):
    status: Literal["ok"]


class Readiness(Model):
    status: Literal["ready", "degraded", "unavailable"]
    sqlite: bool
    graph: Literal["ok", "disabled", "unavailable"]
    log_head_seq: int | None = None
    projection_lag: int | None = None
    detail: str | None = None


class GraphRebuilt(Model):
    events: int
    """Log events projected into the new graph."""
