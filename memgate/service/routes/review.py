"""Review: the pending queue, approve, reject, edit-and-approve, bulk.

Reviewers and admins act inside their scopes, and never on memories written
with their own key: the write's agent id names the key (`key:<id>/...`), the
gateway refuses a reviewer who is the writer, and this module refuses a key
whose id prefixes the writer's agent id."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Query

from memgate.domain import Category, Source
from memgate.domain.memory import MemoryItem, utcnow
from memgate.errors import MemgateError, ReviewRefused
from memgate.service.deps import Reviewer, State, namespace_param, visible
from memgate.service.keys import Principal
from memgate.service.problems import Problem
from memgate.service.routes.common import BUSY, CONFLICT, NOT_FOUND, PROBLEMS
from memgate.service.schemas import (
    ApproveBody,
    BulkBody,
    BulkResult,
    BulkResults,
    EditBody,
    Ident,
    Items,
    Limit,
    Offset,
    RejectBody,
)

router = APIRouter(prefix="/v1/review", tags=["review"], responses=PROBLEMS)
ACTION_RESPONSES = {**NOT_FOUND, **CONFLICT, **BUSY}


async def _reviewable(state: State, principal: Principal, memory_id: str) -> MemoryItem:
    """The memory, if this key may review it: in scope (else 404), not its own (403)."""
    item = await state.gateway.get_any(memory_id)
    item = visible(item, item is not None and principal.can_review(item.namespace))
    if principal.wrote(item.agent_id):
        raise ReviewRefused(f"{principal.actor} wrote {item.id} and cannot review it")
    return item


def _count(state: State, action: str, outcome: str) -> None:
    state.metrics.reviews.labels(action, outcome).inc()


@router.get(
    "/pending",
    summary="The review queue",
    description="Memories pending review, oldest first, inside the key's scopes.",
)
async def pending(
    principal: Reviewer,
    state: State,
    namespace: Annotated[str | None, Query(max_length=4200)] = None,
    category: Category | None = None,
    source: Source | None = None,
    older_than_seconds: Annotated[float | None, Query(ge=0, le=10 * 365 * 86400)] = None,
    limit: Annotated[Limit, Query()] = 50,
    offset: Annotated[Offset, Query()] = 0,
) -> Items:
    older_than = None
    if older_than_seconds is not None:
        older_than = utcnow() - timedelta(seconds=older_than_seconds)
    prefixes = principal.prefixes(namespace_param(namespace))
    if not prefixes:
        raise Problem.forbidden("that namespace is outside this key's scopes")
    if len(prefixes) == 1:
        items = await state.gateway.pending(
            namespace_prefix=prefixes[0],
            category=category,
            source=source,
            older_than=older_than,
            limit=limit,
            offset=offset,
        )
        return Items(items=items)
    # Several scopes under the prefix: the queue is not recorded as read, so their
    # pages can be merged (oldest first, as each page is).
    merged: list[MemoryItem] = []
    for prefix in prefixes:
        merged.extend(
            await state.gateway.pending(
                namespace_prefix=prefix,
                category=category,
                source=source,
                older_than=older_than,
                limit=min(offset + limit, 1000),
            )
        )
    merged.sort(key=lambda i: (i.created_at, i.id))
    return Items(items=merged[offset : offset + limit])


@router.get(
    "/{memory_id}",
    summary="A memory in any state",
    description="For reviewers: pending, rejected and deleted memories too. Not recorded "
    "as a read (it does not reach an agent).",
    responses=NOT_FOUND,
)
async def review_item(memory_id: Ident, principal: Reviewer, state: State) -> MemoryItem:
    item = await state.gateway.get_any(memory_id)
    return visible(item, item is not None and principal.can_review(item.namespace))


@router.post(
    "/{memory_id}/approve",
    summary="Approve a pending memory",
    responses=ACTION_RESPONSES,
)
async def approve(
    memory_id: Ident, principal: Reviewer, state: State, body: ApproveBody | None = None
) -> MemoryItem:
    await _reviewable(state, principal, memory_id)
    note = body.note if body else None
    item = await state.gateway.approve(memory_id, reviewer=principal.actor, reason=note)
    _count(state, "approve", "ok")
    return item


@router.post(
    "/{memory_id}/reject",
    summary="Reject a pending memory",
    responses=ACTION_RESPONSES,
)
async def reject(
    memory_id: Ident, body: RejectBody, principal: Reviewer, state: State
) -> MemoryItem:
    await _reviewable(state, principal, memory_id)
    item = await state.gateway.reject(memory_id, reviewer=principal.actor, reason=body.reason)
    _count(state, "reject", "ok")
    return item


@router.post(
    "/{memory_id}/edit",
    summary="Edit and approve a pending memory",
    description="The new content is rescanned: if the scan rejects it, the memory is "
    "rejected instead (the answer's state and reason say so).",
    responses=ACTION_RESPONSES,
)
async def edit(memory_id: Ident, body: EditBody, principal: Reviewer, state: State) -> MemoryItem:
    await _reviewable(state, principal, memory_id)
    item = await state.gateway.edit_and_approve(
        memory_id, reviewer=principal.actor, new_content=body.content, reason=body.note
    )
    _count(state, "edit", item.state.value)
    return item


@router.post(
    "/bulk",
    summary="Approve or reject many",
    description="One result per id: a refusal (not found, own write, illegal transition) "
    "is that id's result, not the batch's end.",
)
async def bulk(body: BulkBody, principal: Reviewer, state: State) -> BulkResults:
    results = []
    for memory_id in dict.fromkeys(body.ids):
        try:
            await _reviewable(state, principal, memory_id)
            if body.action == "approve":
                item = await state.gateway.approve(
                    memory_id, reviewer=principal.actor, reason=body.reason
                )
            else:
                item = await state.gateway.reject(
                    memory_id, reviewer=principal.actor, reason=body.reason or ""
                )
        except MemgateError as exc:
            results.append(BulkResult(id=memory_id, ok=False, error=str(exc)))
            _count(state, body.action, "refused")
            continue
        except Problem as exc:
            results.append(BulkResult(id=memory_id, ok=False, error=exc.detail))
            _count(state, body.action, "refused")
            continue
        results.append(BulkResult(id=memory_id, ok=True, state=item.state))
        _count(state, body.action, "ok")
    return BulkResults(results=results)
