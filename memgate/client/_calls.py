"""The route table as data: each function builds one `Call` (method, path,
query, body, parser). The sync and async clients only differ in how they send
it, so the wire format lives here once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal
from urllib.parse import quote

from memgate.client.models import ApiKey, BulkResult, CreatedKey, LogPage, Page
from memgate.domain.events import Checkpoint, LogRecord, VerifyResult
from memgate.domain.graph import GraphRebuild, Investigation
from memgate.domain.memory import MemoryItem, MemoryWrite, Reader
from memgate.domain.rollback import RollbackPlan, RollbackScope
from memgate.domain.types import Source
from memgate.gateway.core import WriteReceipt

Namespace = tuple[str, ...] | str
"""A namespace as a tuple of labels or slash-joined text ("acme/user-42")."""


@dataclass(frozen=True)
class Call[T]:
    method: str
    path: str
    parse: Callable[[Any], T]
    params: dict[str, Any] = field(default_factory=dict)
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    none_on_404: bool = False


def labels(namespace: Namespace | None) -> tuple[str, ...]:
    if namespace is None:
        return ()
    if isinstance(namespace, str):
        return tuple(part for part in namespace.split("/") if part)
    return tuple(namespace)


def _slashed(namespace: Namespace | None) -> str | None:
    parts = labels(namespace)
    return "/".join(parts) if parts else None


def _seg(value: str) -> str:
    return quote(value, safe="")


def _query(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def reader_headers(reader: Reader | None) -> dict[str, str]:
    if reader is None:
        return {}
    pairs = (
        ("X-Memgate-Session", reader.session_id),
        ("X-Memgate-Call", reader.call_id),
        ("X-Memgate-Agent", reader.agent_id),
    )
    return {name: value for name, value in pairs if value is not None}


def _item(body: Any) -> MemoryItem:
    return MemoryItem.model_validate(body)


def _items(body: Any) -> list[MemoryItem]:
    return [MemoryItem.model_validate(i) for i in body["items"]]


def _investigation(body: Any) -> Investigation:
    return Investigation.model_validate(body)


def _nothing(body: Any) -> None:
    return None


# -- memories ------------------------------------------------------------------------


def write(memory: MemoryWrite) -> Call[WriteReceipt]:
    return Call(
        "POST",
        "/v1/memories",
        WriteReceipt.model_validate,
        body=memory.model_dump(mode="json", exclude_none=True),
    )


def get(memory_id: str, reader: Reader | None, *, none_on_404: bool = False) -> Call[MemoryItem]:
    return Call(
        "GET",
        f"/v1/memories/{_seg(memory_id)}",
        _item,
        headers=reader_headers(reader),
        none_on_404=none_on_404,
    )


def by_key(
    namespace: Namespace, key: str, reader: Reader | None, *, none_on_404: bool = False
) -> Call[MemoryItem]:
    return Call(
        "GET",
        "/v1/memories/by-key",
        _item,
        params=_query(namespace=_slashed(namespace), key=key),
        headers=reader_headers(reader),
        none_on_404=none_on_404,
    )


def list_page(
    namespace_prefix: Namespace | None, limit: int, offset: int, reader: Reader | None
) -> Call[Page]:
    return Call(
        "GET",
        "/v1/memories",
        Page.model_validate,
        params=_query(namespace=_slashed(namespace_prefix), limit=limit, offset=offset),
        headers=reader_headers(reader),
    )


def search(
    namespace_prefix: Namespace | None,
    query: str | None,
    metadata: dict[str, Any] | None,
    limit: int,
    offset: int,
    reader: Reader | None,
    mode: str = "text",
) -> Call[list[MemoryItem]]:
    body = _query(
        namespace=list(labels(namespace_prefix)) or None,
        query=query,
        metadata=metadata or None,
        limit=limit,
        offset=offset,
        session_id=reader.session_id if reader else None,
        call_id=reader.call_id if reader else None,
        mode=None if mode == "text" else str(mode),
    )
    return Call("POST", "/v1/memories/search", _items, body=body, headers=reader_headers(reader))


def delete(memory_id: str, reason: str | None) -> Call[MemoryItem]:
    return Call("DELETE", f"/v1/memories/{_seg(memory_id)}", _item, params=_query(reason=reason))


def history(memory_id: str) -> Call[list[LogRecord]]:
    return Call(
        "GET",
        f"/v1/memories/{_seg(memory_id)}/history",
        lambda body: [LogRecord.model_validate(r) for r in body["events"]],
    )


# -- review ----------------------------------------------------------------------------


def pending(
    namespace_prefix: Namespace | None,
    category: str | None,
    source: Source | str | None,
    older_than_seconds: float | None,
    limit: int,
    offset: int,
) -> Call[list[MemoryItem]]:
    return Call(
        "GET",
        "/v1/review/pending",
        _items,
        params=_query(
            namespace=_slashed(namespace_prefix),
            category=category,
            source=str(source) if source is not None else None,
            older_than_seconds=older_than_seconds,
            limit=limit,
            offset=offset,
        ),
    )


def review_item(memory_id: str) -> Call[MemoryItem]:
    return Call("GET", f"/v1/review/{_seg(memory_id)}", _item)


def approve(memory_id: str, note: str | None) -> Call[MemoryItem]:
    return Call("POST", f"/v1/review/{_seg(memory_id)}/approve", _item, body=_query(note=note))


def reject(memory_id: str, reason: str) -> Call[MemoryItem]:
    return Call("POST", f"/v1/review/{_seg(memory_id)}/reject", _item, body={"reason": reason})


def edit(memory_id: str, content: str, note: str | None) -> Call[MemoryItem]:
    return Call(
        "POST",
        f"/v1/review/{_seg(memory_id)}/edit",
        _item,
        body=_query(content=content, note=note),
    )


def bulk(
    action: Literal["approve", "reject"], ids: list[str], reason: str | None
) -> Call[list[BulkResult]]:
    return Call(
        "POST",
        "/v1/review/bulk",
        lambda body: [BulkResult.model_validate(r) for r in body["results"]],
        body=_query(action=action, ids=list(ids), reason=reason),
    )


def scan(content: str, source: Source | str | None) -> Call[dict[str, Any]]:
    return Call(
        "POST",
        "/v1/scan",
        dict,
        body=_query(content=content, source=str(source) if source is not None else None),
    )


# -- incident --------------------------------------------------------------------------


def rollback(
    to: int | datetime, reason: str, scope: RollbackScope | None, dry_run: bool
) -> Call[RollbackPlan]:
    scope = scope or RollbackScope()
    target: dict[str, Any] = (
        {"to_time": to.isoformat()} if isinstance(to, datetime) else {"to_seq": to}
    )
    body = {
        **target,
        **_query(
            namespace=list(scope.namespace_prefix) or None,
            source=scope.source.value if scope.source else None,
            session_id=scope.session_id,
            memory_id=scope.memory_id,
        ),
        "reason": reason,
        "dry_run": dry_run,
    }
    return Call("POST", "/v1/rollback", RollbackPlan.model_validate, body=body)


def log_page(after_seq: int, limit: int) -> Call[LogPage]:
    return Call(
        "GET", "/v1/log", LogPage.model_validate, params={"after_seq": after_seq, "limit": limit}
    )


def verify(checkpoint: Checkpoint | None) -> Call[VerifyResult]:
    if checkpoint is None:
        return Call("GET", "/v1/log/verify", VerifyResult.model_validate)
    return Call(
        "POST",
        "/v1/log/verify",
        VerifyResult.model_validate,
        body={"checkpoint": checkpoint.model_dump(mode="json")},
    )


def checkpoint() -> Call[Checkpoint]:
    return Call("POST", "/v1/log/checkpoint", Checkpoint.model_validate)


def readers(memory_id: str, since: datetime | None, until: datetime | None) -> Call[Investigation]:
    return Call(
        "GET",
        f"/v1/investigate/readers/{_seg(memory_id)}",
        _investigation,
        params=_query(
            since=since.isoformat() if since else None, until=until.isoformat() if until else None
        ),
    )


def blast_radius(memory_id: str, depth: int) -> Call[Investigation]:
    return Call(
        "GET",
        f"/v1/investigate/blast-radius/{_seg(memory_id)}",
        _investigation,
        params={"depth": depth},
    )


def provenance(memory_id: str) -> Call[Investigation]:
    return Call("GET", f"/v1/investigate/provenance/{_seg(memory_id)}", _investigation)


def exposure(fingerprint: str) -> Call[Investigation]:
    return Call("GET", f"/v1/investigate/exposure/{_seg(fingerprint)}", _investigation)


def rebuild_graph() -> Call[int]:
    return Call("POST", "/v1/graph/rebuild", lambda body: int(body["events"]))


def rebuild_graph_report() -> Call[GraphRebuild]:
    return Call("POST", "/v1/graph/rebuild", GraphRebuild.model_validate)


# -- keys and health -------------------------------------------------------------------


def _created(body: Any) -> CreatedKey:
    info = {k: v for k, v in body.items() if k != "key"}
    return CreatedKey(info=ApiKey.model_validate(info), key=body["key"])


def _keys(body: Any) -> list[ApiKey]:
    rows = body["keys"] if isinstance(body, dict) else body
    return [ApiKey.model_validate(k) for k in rows]


def create_key(
    name: str,
    role: str,
    namespaces: list[Namespace],
    sources: list[str] | None = None,
    user_channel: bool = False,
    guard_roles: list[str] | None = None,
) -> Call[CreatedKey]:
    body: dict[str, Any] = {
        "name": name,
        "role": role,
        "namespaces": [list(labels(n)) for n in namespaces],
    }
    if sources is not None:
        body["sources"] = list(sources)
    if user_channel:
        body["user_channel"] = True
    if guard_roles is not None:
        body["guard_roles"] = list(guard_roles)
    return Call("POST", "/v1/keys", _created, body=body)


def set_key_guard_roles(key_id: str, guard_roles: list[str]) -> Call[ApiKey]:
    body: dict[str, Any] = {"guard_roles": list(guard_roles)}
    return Call("PATCH", f"/v1/keys/{_seg(key_id)}", ApiKey.model_validate, body=body)


def set_key_sources(
    key_id: str, sources: list[str] | None, user_channel: bool = False
) -> Call[ApiKey]:
    body: dict[str, Any] = {"user_channel": user_channel}
    if sources is not None:
        body["sources"] = list(sources)
    return Call("PATCH", f"/v1/keys/{_seg(key_id)}", ApiKey.model_validate, body=body)


def list_keys() -> Call[list[ApiKey]]:
    return Call("GET", "/v1/keys", _keys)


def my_key() -> Call[ApiKey]:
    return Call("GET", "/v1/keys/me", ApiKey.model_validate)


def revoke_key(key_id: str) -> Call[None]:
    return Call("DELETE", f"/v1/keys/{_seg(key_id)}", _nothing)


def health(path: Literal["/healthz", "/readyz"]) -> Call[dict[str, Any]]:
    return Call("GET", path, dict)
