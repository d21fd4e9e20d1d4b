"""The tool-call guard over HTTP: decide a call before it runs, report its result
after. Agent and admin keys; the agent id recorded is always the key's."""

from __future__ import annotations

from typing import Annotated

import anyio.to_thread
from fastapi import APIRouter, Depends, Request

from memgate.guard import Guard, GuardDecision, ResultRecorded, ToolCall, ToolResult
from memgate.guard.audit import decision_event
from memgate.service.deps import State, Writer
from memgate.service.problems import Problem
from memgate.service.routes.common import PROBLEMS

router = APIRouter(tags=["guard"], responses=PROBLEMS)


async def get_guard(request: Request) -> Guard:
    guard = getattr(request.app.state, "guard", None)
    if not isinstance(guard, Guard):
        raise Problem(503, "Starting", "the guard is not started", kind="unavailable")
    return guard


GuardDep = Annotated[Guard, Depends(get_guard)]


@router.post(
    "/v1/guard/decide",
    summary="Decide a tool call before it runs",
    description="allow | ask | deny | rewrite (with `updated_input`), the layer that "
    "decided, readable reasons and the path of sensitive values that justifies a flow "
    "decision. Every decision is an event in the audit log (`audit_seq`).",
)
async def decide(body: ToolCall, principal: Writer, state: State, guard: GuardDep) -> GuardDecision:
    call = body.model_copy(update={"agent_id": principal.agent_label(body.agent_id)})
    decision = await anyio.to_thread.run_sync(guard.decide, call)
    records = await state.gateway.store.append([decision_event(call, decision, principal.actor)])
    await anyio.to_thread.run_sync(guard.remember, call, decision)
    return decision.model_copy(update={"audit_seq": records[0].seq})


@router.post(
    "/v1/guard/results",
    summary="Report a tool call's result",
    description="The sensitive values in the output are fingerprinted (with their "
    "base64, hex, URL-encoded, whitespace-stripped and split forms) and linked to the "
    "call, so a later call that sends one out is caught. Values are never stored.",
)
async def results(body: ToolResult, principal: Writer, guard: GuardDep) -> ResultRecorded:
    result = body.model_copy(update={"agent_id": principal.agent_label(body.agent_id)})
    return await anyio.to_thread.run_sync(guard.record_result, result)
