"""Wire models: what the HTTP API takes and returns (besides the domain models
it serves as they are: MemoryItem, WriteReceipt, LogRecord, RollbackPlan, ...).

Every string a client sends is checked before it reaches the gateway, by the
validators of `memgate.domain.limits` (the same the CLI, the adapters and the
Gateway use): identifiers are printable and bounded, metadata is plain JSON of
bounded depth, members and size, a metadata filter names at most 32 keys, and
written content is never empty. Lone surrogates (valid JSON, invalid Unicode)
are replaced in content. A failed check is a 422 naming the field.
"""

from __future__ import annotations

import re
from collections.abc import Callable
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

from memgate.domain import Source, limits
from memgate.domain.events import Checkpoint, LogRecord
from memgate.domain.graph import SetAsideRow
from memgate.domain.memory import MemoryItem, MemoryState, Target, check_content
from memgate.domain.recall import SearchMode
from memgate.errors import InvalidInput
from memgate.service.keys import ACTOR_PREFIX, KeyInfo, Role

_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_METADATA_DEPTH = limits.MAX_METADATA_DEPTH
MAX_OFFSET = 1_000_000
MAX_SEQ = 2**62


def _no_surrogates(value: str) -> str:
    if _SURROGATE.search(value):
        raise ValueError("invalid Unicode: lone surrogate")
    return value


def _replace_surrogates(value: str) -> str:
    return _SURROGATE.sub("\ufffd", value)


def _surrogate_free(value: Any) -> None:
    # Metadata string values are content: a lone surrogate is refused (it cannot
    # be stored as UTF-8); the shape and keys are checked by memgate.domain.limits.
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str):
            _no_surrogates(node)


def _plain_json(value: dict[str, Any]) -> dict[str, Any]:
    limits.check_metadata(value)
    _surrogate_free(value)
    return value


def _filter(value: dict[str, Any]) -> dict[str, Any]:
    limits.check_filter(value)
    _surrogate_free(value)
    return value


def _reason_only(check: Callable[[str], object]) -> Callable[[str], str]:
    # pydantic names the field (its location); the message is the reason alone.
    def validate(value: str) -> str:
        try:
            check(value)
        except InvalidInput as exc:
            raise ValueError(exc.reason) from None
        return value

    return validate


_label = _reason_only(lambda value: limits.check_label(value))
_ident = _reason_only(lambda value: limits.check_identifier(value, "identifier"))
_some_content = _reason_only(check_content)


# NOTE: the StringConstraints repeat memgate.domain.limits' bounds so that the
# OpenAPI schema shows them; the AfterValidator is the check that decides.
Label = Annotated[
    str,
    StringConstraints(min_length=1, max_length=limits.MAX_LABEL_CHARS, pattern=r"^[^/]+$"),
    AfterValidator(_label),
]
Namespace = Annotated[list[Label], Field(min_length=1, max_length=limits.MAX_LABELS)]
Ident = Annotated[
    str,
    StringConstraints(min_length=1, max_length=limits.MAX_ID_CHARS),
    AfterValidator(_ident),
]
"""A key, session, call or agent id, or a memory id: printable, 1-256 characters."""


def _not_a_key(value: str) -> str:
    # Identities a key acts under are `key:<id>` (the reviewer compared with a
    # memory's writer); a session named so would impersonate one.
    if value[: len(ACTOR_PREFIX)].lower() == ACTOR_PREFIX:
        raise ValueError(f"a session id may not start with {ACTOR_PREFIX!r} (that names a key)")
    return value


SessionId = Annotated[Ident, AfterValidator(_not_a_key)]
"""A client's session id: it belongs to the calling key and never names one."""
Content = Annotated[str, AfterValidator(_replace_surrogates)]
WriteContent = Annotated[str, AfterValidator(_replace_surrogates), AfterValidator(_some_content)]
"""What a write stores: never empty or whitespace only."""
Reason = Annotated[
    str,
    StringConstraints(min_length=1, max_length=2000, pattern=r"\S"),
    AfterValidator(_replace_surrogates),
]
Note = Annotated[str, StringConstraints(max_length=2000), AfterValidator(_replace_surrogates)]
Metadata = Annotated[dict[str, Any], AfterValidator(_plain_json)]
"""Plain JSON within memgate.domain.limits (8 levels, 512 members, 8 KiB)."""
MetadataFilter = Annotated[dict[str, Any], AfterValidator(_filter)]
"""Equality on top-level metadata keys: at most 32 of them."""
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
    return limits.check_namespace(value.split("/"), "namespace")


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WriteBody(Model):
    """One memory to write. The agent id recorded is the key's identity, with the
    client's `agent_id` appended (`key:k_ab12/planner`)."""

    content: WriteContent
    namespace: Namespace
    key: Ident | None = None
    source: Source = Source.TOOL
    """Must be one of the key's sources (403 otherwise)."""
    session_id: SessionId | None = None
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
    metadata: MetadataFilter = Field(default_factory=dict)
    limit: Limit = 10
    offset: Offset = 0
    session_id: SessionId | None = None
    call_id: Ident | None = None
    agent_id: Ident | None = None
    mode: SearchMode = SearchMode.TEXT
    """`text`: every word of `query` occurs (newest first); `vector`: approved
    memories nearest to `query` by embedding; `hybrid`: both, fused by rank.
    Vector and hybrid need a query, and answer 503 `vector-unavailable` when
    semantic recall is off on the server."""


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
    content: WriteContent
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
    head_hash: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")] | None = None
    key_id: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{1,64}$")] | None = None
    signature: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{128}$")] | None = None

    def domain(self) -> Checkpoint:
        return Checkpoint(
            seq=self.seq,
            head_mac=self.head_mac,
            count=self.count,
            at=self.at,
            head_hash=self.head_hash,
            key_id=self.key_id,
            signature=self.signature,
        )


class PublicKey(Model):
    """The Ed25519 key that signs exported checkpoints."""

    algorithm: str = "Ed25519"
    key_id: str
    """16 hex of the SHA-256 of the raw public key (checkpoints name it)."""
    pem: str
    """SubjectPublicKeyInfo PEM: save it as a file for `memgate log verify --public-key`."""


class VerifyBody(Model):
    checkpoint: CheckpointBody


GuardRoleName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{1,100}$")]


class KeyBody(Model):
    name: Annotated[str, StringConstraints(min_length=1, max_length=200, pattern=r"\S")]
    role: Role
    namespaces: Annotated[list[Namespace], Field(max_length=100)] = Field(default_factory=list)
    """Namespace scopes (label prefixes); empty: every namespace."""
    sources: Annotated[list[Source], Field(max_length=16)] | None = None
    """The sources the key's writes may declare; absent: the role's default (agent
    keys: agent, tool, web, document)."""
    user_channel: bool = False
    """The key speaks for the user: it may also declare `user`."""
    guard_roles: Annotated[list[GuardRoleName], Field(max_length=32)] | None = None
    """The guard roles the key may act as (first: its default); absent: none, so the
    guard policy's default role."""


class KeySourcesBody(Model):
    sources: Annotated[list[Source], Field(max_length=16)] | None = None
    """The sources the key's writes may declare from now on; absent: the role's default
    (unless the body sets only `guard_roles`: then the sources stay as they are)."""
    user_channel: bool = False
    """Add `user` to them."""
    guard_roles: Annotated[list[GuardRoleName], Field(max_length=32)] | None = None
    """The guard roles the key may act as from now on (first: its default; empty:
    none, so the guard policy's default role); absent: unchanged."""

    @property
    def sets_sources(self) -> bool:
        """Whether this body changes the sources (a body with only `guard_roles` does not)."""
        return self.model_fields_set != {"guard_roles"}


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
    graph_set_aside: int | None = None
    """Rows the graph could not take (projection went on without them): the list
    with reasons is `projection_status`, the log page of the UI and `memgate
    graph rebuild`."""
    detail: str | None = None


class GraphRebuilt(Model):
    events: int
    """Log events projected into the new graph."""
    set_aside: int = 0
    """Rows the graph could not take and the rebuild skipped."""
    set_aside_rows: tuple[SetAsideRow, ...] = ()
    """The skipped rows with their reasons (ids and reasons only, never a value)."""
