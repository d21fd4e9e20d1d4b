"""Incident response (admins): rollback, the log, verify, checkpoints, and the
provenance investigations."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request

from memgate.domain.events import Checkpoint, VerifyResult
from memgate.domain.graph import Investigation, InvestigationStatus
from memgate.domain.rollback import RollbackPlan, RollbackScope
from memgate.log.integrity import SignsCheckpoints, key_id, load_public_key
from memgate.service.deps import Admin, State
from memgate.service.notify import tell_verify
from memgate.service.problems import Problem
from memgate.service.routes.common import BUSY, CONFLICT, PROBLEMS
from memgate.service.schemas import (
    MAX_SEQ,
    GraphRebuilt,
    Ident,
    Instant,
    LogPage,
    PublicKey,
    RollbackBody,
    VerifyBody,
)

router = APIRouter(tags=["incident"], responses=PROBLEMS)


@router.post(
    "/v1/rollback",
    summary="Roll back (dry run by default)",
    description="Plan, or with `dry_run: false` apply, the return of the store (or a scope "
    "of it: namespace, source, session, one memory and all it derived) to how it was after "
    "event `to_seq` or at `to_time`. Applying appends compensating events; nothing is "
    "deleted, so a rollback can itself be rolled back.",
    responses=BUSY,
)
async def rollback(body: RollbackBody, principal: Admin, state: State) -> RollbackPlan:
    scope = RollbackScope(
        namespace_prefix=tuple(body.namespace),
        source=body.source,
        session_id=body.session_id,
        memory_id=body.memory_id,
    )
    target: int | datetime
    if body.to_seq is not None:
        target = body.to_seq
        field = "to_seq"
    else:
        assert body.to_time is not None  # noqa: S101 - the model requires one target
        target = body.to_time
        field = "to_time"
    try:
        plan = await state.gateway.rollback(
            to=target,
            reason=body.reason,
            actor=principal.actor,
            scope=scope,
            dry_run=body.dry_run,
        )
    except ValueError as exc:
        raise Problem.invalid(f"body.{field}", str(exc)) from None
    state.metrics.rollbacks.labels("dry_run" if body.dry_run else "applied").inc()
    return plan


@router.get(
    "/v1/log",
    summary="A page of the event log",
    description="Records after `after_seq`, in order, each with its MAC chain link.",
)
async def log_page(
    principal: Admin,
    state: State,
    after_seq: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> LogPage:
    records = await state.gateway.store.records(after_seq, limit)
    last = records[-1].seq if len(records) == limit else None
    return LogPage(records=records, next_after_seq=last)


@router.get("/v1/log/verify", summary="Verify the log's MAC chain")
async def verify(request: Request, principal: Admin, state: State) -> VerifyResult:
    result = await state.gateway.verify()
    await tell_verify(request, result)
    return result


@router.post(
    "/v1/log/verify",
    summary="Verify the log against a checkpoint",
    description="Also proves the log still extends an exported checkpoint (which catches "
    "a rewrite by someone who holds the MAC key).",
)
async def verify_checkpoint(
    request: Request, body: VerifyBody, principal: Admin, state: State
) -> VerifyResult:
    result = await state.gateway.verify(body.checkpoint.domain())
    await tell_verify(request, result)
    return result


@router.post(
    "/v1/log/checkpoint",
    summary="Export a signed checkpoint of the log head",
    description="The head (seq, MAC, public hash, count), signed with Ed25519 after the log "
    "was verified. Keep it off this host: with the key at `GET /v1/log/public-key` anyone can "
    "later check that the log still extends it (`memgate log verify --checkpoint F "
    "--public-key P`).",
)
async def checkpoint(principal: Admin, state: State) -> Checkpoint:
    store = state.gateway.store
    if isinstance(store, SignsCheckpoints):
        return await store.export_checkpoint()
    return await state.gateway.checkpoint()


@router.get(
    "/v1/log/public-key",
    summary="The public key that signs checkpoints",
    description="Published without authentication: it lets anyone check a checkpoint's "
    "signature, and forges nothing.",
)
async def public_key(state: State) -> PublicKey:
    store = state.gateway.store
    if not isinstance(store, SignsCheckpoints):
        raise Problem.not_found("this store does not sign checkpoints")
    pem = store.public_key_pem()
    return PublicKey(key_id=key_id(load_public_key(pem.encode("ascii"))), pem=pem)


def _answer(result: Investigation, field: str) -> Investigation:
    """An investigation's answer; input the gateway found invalid is a 422."""
    if result.status is InvestigationStatus.INVALID_INPUT:
        where = "query.since" if "since" in result.message else field
        raise Problem.invalid(where, result.message)
    return result


Since = Annotated[Instant | None, Query(description="Only reads at or after this time.")]
Until = Annotated[Instant | None, Query(description="Only reads at or before this time.")]


@router.get(
    "/v1/investigate/readers/{memory_id}",
    summary="Who read a memory",
    description="Sessions and calls that were served the memory. The status tells apart "
    "`unknown_memory`, `no_readers`, `graph_behind` (reads or events concerning the memory "
    "are not in the graph: not projected yet, or set aside; `gap` says which, and the "
    "readers listed are the ones the graph has) and `graph_unavailable` (which proves "
    "nothing).",
)
async def readers(
    memory_id: Ident, principal: Admin, state: State, since: Since = None, until: Until = None
) -> Investigation:
    return _answer(await state.gateway.readers(memory_id, since, until), "path.memory_id")


@router.get(
    "/v1/investigate/blast-radius/{memory_id}",
    summary="What a memory may have tainted",
    description="Memories written by sessions after they read this one (or one already "
    "tainted), and memories derived from it, up to `depth` hops (1-6). `graph_behind` (not "
    "`no_path`) when rows that could extend the walk are not in the graph.",
)
async def blast_radius(
    memory_id: Ident,
    principal: Admin,
    state: State,
    depth: Annotated[int, Query(ge=1, le=6)] = 3,
) -> Investigation:
    return _answer(await state.gateway.blast_radius(memory_id, depth), "path.memory_id")


@router.get(
    "/v1/investigate/provenance/{memory_id}",
    summary="Where a memory came from",
    description="Its source, the session and call that wrote it, and what it derived from.",
)
async def provenance(memory_id: Ident, principal: Admin, state: State) -> Investigation:
    return _answer(await state.gateway.provenance(memory_id), "path.memory_id")


@router.get(
    "/v1/investigate/exposure/{fingerprint}",
    summary="Where a secret value went",
    description="Memories containing the value with this keyed fingerprint, and who read them.",
)
async def exposure(fingerprint: Ident, principal: Admin, state: State) -> Investigation:
    return _answer(await state.gateway.exposure(fingerprint), "path.fingerprint")


@router.post(
    "/v1/graph/rebuild",
    summary="Rebuild the provenance graph from SQLite",
    description="Drops the graph and projects the log and reads again (SQLite is the source "
    "of truth). Rows the graph cannot take are skipped and listed in `set_aside_rows`. 409 "
    "when this server runs without a graph, 503 when it cannot reach it.",
    responses={**CONFLICT, 503: BUSY[503]},
)
async def rebuild_graph(principal: Admin, state: State) -> GraphRebuilt:
    if not (await state.gateway.projection_status()).enabled:
        raise Problem(409, "Conflict", "this server runs without a graph", kind="conflict")
    events = await state.gateway.rebuild_graph()
    projection = await state.gateway.projection_status()
    return GraphRebuilt(
        events=events,
        set_aside=projection.set_aside,
        set_aside_rows=projection.set_aside_rows,
    )
