"""Memories: write, get, list, search, delete, history."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Response

from memgate.domain.memory import MemoryItem, MemoryWrite
from memgate.errors import (
    MemgateError,
    OversizedWrite,
    RollbackInProgress,
    WriteForbidden,
    WriteRefused,
)
from memgate.gateway import WriteReceipt
from memgate.service.deps import (
    AnyKey,
    HeaderReader,
    Reviewer,
    State,
    Writer,
    declared_source,
    namespace_param,
    reader,
    visible,
)
from memgate.service.keys import Principal, Role
from memgate.service.problems import Problem
from memgate.service.routes.common import (
    BUSY,
    CONFLICT,
    NOT_FOUND,
    PROBLEMS,
    WRITE_PROBLEMS,
    json_answer,
)
from memgate.service.schemas import (
    History,
    Ident,
    ItemPage,
    Items,
    Limit,
    Offset,
    SearchBody,
    SessionId,
    WriteBody,
)

router = APIRouter(prefix="/v1/memories", tags=["memories"], responses=PROBLEMS)

NamespaceQuery = Annotated[
    str | None,
    Query(max_length=4200, description="A namespace prefix, labels joined by '/' (e.g. acme/u42)."),
]


def _one_prefix(principal: Principal, namespace: tuple[str, ...]) -> tuple[str, ...]:
    """The single namespace prefix to query for this key. A key with several scopes
    under the asked prefix must name one: merging pages of several prefixes would
    fetch (and record as read) items the caller never receives."""
    prefixes = principal.prefixes(namespace)
    if not prefixes:
        raise Problem.forbidden("that namespace is outside this key's scopes")
    if len(prefixes) > 1:
        names = ", ".join("/".join(p) for p in prefixes)
        raise Problem.invalid(
            "namespace", f"covers several of this key's scopes; name one of: {names}"
        )
    return prefixes[0]


def _refused(state: State, exc: MemgateError) -> None:
    reason = "other"
    if isinstance(exc, OversizedWrite):
        reason = "oversized"
    elif isinstance(exc, RollbackInProgress):
        reason = "rollback"
    elif isinstance(exc, WriteForbidden):
        reason = "forbidden"
    elif isinstance(exc, WriteRefused):
        reason = "sensitive_key"
    state.metrics.refused.labels(reason).inc()


@router.post(
    "",
    status_code=201,
    summary="Write a memory",
    description="Scan, score, route and log one memory. The receipt says where it went "
    "(short-term, long-term approved or pending review, or rejected) and why. `source` "
    "must be one of the key's sources (403 naming the field otherwise; `user` only from "
    "a user-channel key).",
    response_model=WriteReceipt,
    responses=WRITE_PROBLEMS,
)
async def write_memory(body: WriteBody, principal: Writer, state: State) -> Response:
    if not principal.can_write(body.namespace):
        raise Problem.forbidden("that namespace is outside this key's scopes")
    try:
        source = declared_source(principal, body.source)
    except WriteForbidden as exc:
        _refused(state, exc)
        raise
    # NOTE: WriteBody already checked every field at least as strictly as MemoryWrite
    # does (labels, plain JSON metadata, ttl), so the write is built without a
    # second validation pass: this is the hot path.
    write = MemoryWrite.model_construct(
        content=body.content,
        namespace=tuple(body.namespace),
        key=body.key,
        source=source,
        session_id=body.session_id,
        agent_id=principal.agent_label(body.agent_id),
        call_id=body.call_id,
        metadata=body.metadata,
        target=body.target,
        ttl_seconds=body.ttl_seconds,
    )
    try:
        receipt = await state.gateway.write(write)
    except (WriteRefused, RollbackInProgress) as exc:
        _refused(state, exc)
        raise
    state.metrics.count_write(receipt)
    return json_answer(receipt, 201)


@router.get(
    "",
    summary="List memories",
    response_model=ItemPage,
    description="Served memories under a namespace prefix (short-term first, newest first), "
    "narrowed to the key's scopes. Every item returned is recorded as read.",
)
async def list_memories(
    principal: AnyKey,
    state: State,
    who: HeaderReader,
    namespace: NamespaceQuery = None,
    limit: Annotated[Limit, Query()] = 50,
    offset: Annotated[Offset, Query()] = 0,
) -> Response:
    prefix = _one_prefix(principal, namespace_param(namespace))
    items = await state.gateway.list(prefix, limit=limit, offset=offset, reader=who)
    next_offset = offset + len(items) if len(items) == limit else None
    return json_answer(ItemPage(items=items, next_offset=next_offset))


@router.get(
    "/by-key",
    summary="Get a memory by namespace and key",
    response_model=MemoryItem,
    responses=NOT_FOUND,
)
async def get_by_key(
    principal: AnyKey,
    state: State,
    who: HeaderReader,
    namespace: Annotated[str, Query(min_length=1, max_length=4200)],
    key: Annotated[Ident, Query()],
) -> Response:
    ns = namespace_param(namespace)
    if not principal.can_read(ns):
        raise Problem.forbidden("that namespace is outside this key's scopes")
    return json_answer(visible(await state.gateway.read_key(ns, key, who), True))


@router.post(
    "/search",
    summary="Search memories",
    response_model=Items,
    description="Served memories under a namespace prefix narrowed to the key's scopes. "
    "`mode`: `text` (content has every word of `query`, newest first), `vector` (approved "
    "memories nearest to `query` by embedding) or `hybrid` (reciprocal rank fusion of both); "
    "vector and hybrid answer 503 `vector-unavailable` when semantic recall is off. Reader "
    "ids come from the body or the X-Memgate-Session / X-Memgate-Call / X-Memgate-Agent "
    "headers.",
)
async def search_memories(
    body: SearchBody,
    principal: AnyKey,
    state: State,
    session: Annotated[SessionId | None, Header(alias="X-Memgate-Session")] = None,
    call: Annotated[Ident | None, Header(alias="X-Memgate-Call")] = None,
    agent: Annotated[Ident | None, Header(alias="X-Memgate-Agent")] = None,
) -> Response:
    prefix = _one_prefix(principal, tuple(body.namespace))
    who = reader(
        principal,
        session_id=body.session_id or session,
        call_id=body.call_id or call,
        agent_id=body.agent_id or agent,
    )
    items = await state.gateway.search(
        prefix,
        body.query,
        metadata=body.metadata,
        limit=body.limit,
        offset=body.offset,
        reader=who,
        mode=body.mode,
    )
    return json_answer(Items(items=items))


@router.get(
    "/{memory_id}",
    summary="Get a memory",
    response_model=MemoryItem,
    description="The memory if it is served to this reader (pending ones only to the "
    "writer's session) and inside the key's scopes; recorded as read.",
    responses=NOT_FOUND,
)
async def get_memory(
    memory_id: Ident, principal: AnyKey, state: State, who: HeaderReader
) -> Response:
    # Check the scope before reading: a read is recorded, so it must not happen
    # for a memory the caller is not given.
    found = await state.gateway.get_any(memory_id)
    visible(found, found is not None and principal.can_read(found.namespace))
    return json_answer(visible(await state.gateway.read(memory_id, who), True))


@router.delete(
    "/{memory_id}",
    summary="Delete (tombstone) a memory",
    description="The memory is never served again; its history stays in the log. Agents "
    "delete the memories their own key wrote, in their scopes (403 for another writer's "
    "served memory: deleting it and writing its key afresh would replace it without "
    "review); admins any memory.",
    responses={**NOT_FOUND, **CONFLICT, **BUSY},
)
async def delete_memory(
    memory_id: Ident,
    principal: Writer,
    state: State,
    reason: Annotated[str | None, Query(max_length=2000)] = None,
) -> MemoryItem:
    item = await state.gateway.get_any(memory_id)
    allowed = item is not None and principal.can_write(item.namespace)
    if item is not None and principal.role is not Role.ADMIN:
        own = principal.wrote(item.agent_id)
        visible(item, allowed and (item.state.served or own))
        if not own:
            raise Problem.forbidden(
                f"{item.id} was written by another key; a key deletes only what it wrote"
            )
    visible(item, allowed)
    return await state.gateway.delete(memory_id, actor=principal.actor, reason=reason)


@router.get(
    "/{memory_id}/history",
    summary="History of a memory",
    description="Every log event of the memory, oldest first (reviewers and admins).",
    responses=NOT_FOUND,
)
async def memory_history(memory_id: Ident, principal: Reviewer, state: State) -> History:
    # From the log, not the pools: an expired transient memory has left both.
    events = await state.gateway.history(memory_id)
    items = [r.event.item for r in events if r.event.item is not None]
    visible(items[-1] if items else None, bool(items) and principal.can_review(items[-1].namespace))
    return History(events=events)
