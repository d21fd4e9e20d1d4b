"""The tool-call guard over HTTP: decide a call before it runs, report its result
after. Agent and admin keys; the agent id recorded is always the key's, and the
guard role a call is judged under is one the key holds (403 naming `body.role`
otherwise; none named: the key's default, else the policy's default role)."""

from __future__ import annotations

from typing import Annotated, Any

import anyio.to_thread
from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from memgate.domain.asks import AskState, GuardAsk
from memgate.guard import Guard, GuardDecision, ResultRecorded, ToolCall, ToolResult
from memgate.guard.pins import PinReport, ToolListing
from memgate.service.deps import Reviewer, State, Writer, authenticate
from memgate.service.guard_asks import pending_asks, review, settle, visible_ask
from memgate.service.keys import Principal, Role
from memgate.service.problems import MEDIA_TYPE, FieldError, Problem, ProblemBody
from memgate.service.routes.common import PROBLEMS, Responses

router = APIRouter(tags=["guard"], responses=PROBLEMS)


def _problem(description: str) -> dict[str, Any]:
    return {"model": ProblemBody, "description": description, "content": {MEDIA_TYPE: {}}}


NO_ASK: Responses = {404: _problem("No such ask, or not visible to this key.")}
ANSWERED: Responses = {409: _problem("The ask was answered already: the first answer stands.")}


async def get_guard(request: Request) -> Guard:
    guard = getattr(request.app.state, "guard", None)
    if not isinstance(guard, Guard):
        raise Problem(503, "Starting", "the guard is not started", kind="unavailable")
    return guard


GuardDep = Annotated[Guard, Depends(get_guard)]


def held_role(principal: Principal, guard: Guard, asked: str | None) -> str | None:
    """The guard role to judge this key's call under: the one it names, if the key
    holds it (the policy's default role is everyone's), else 403 naming
    `body.role`; none named: the key's default (None: the policy's default)."""
    if asked is None:
        return principal.default_guard_role
    if asked == guard.policy.default_role or principal.may_act_as(asked):
        return asked
    held = ", ".join(principal.guard_roles) or f"none, so {guard.policy.default_role!r}"
    reason = f"this key may not act as guard role {asked!r} (its guard roles: {held})"
    raise Problem(
        403,
        "Forbidden",
        f"body.role: {reason}",
        kind="forbidden",
        errors=[FieldError(field="body.role", reason=reason)],
    )


@router.post(
    "/v1/guard/decide",
    summary="Decide a tool call before it runs",
    description="allow | ask | deny | rewrite (with `updated_input`), the layer that "
    "decided, readable reasons and the path of sensitive values that justifies a flow "
    "decision. Every decision is an event in the audit log (`audit_seq`). `role` must "
    "be one of the key's guard roles (403 naming `body.role` otherwise); absent, the "
    "key's first guard role is used, or the policy's default role for a key with none. "
    "An `ask` is queued for review (`ask_id`; GET /v1/guard/asks/{ask_id}); the same call "
    "decided again (same key, session, tool and arguments) gets the reviewer's answer: "
    "`allow` once, or `deny`, layer `review`.",
)
async def decide(
    request: Request, body: ToolCall, principal: Writer, state: State, guard: GuardDep
) -> GuardDecision:
    role = held_role(principal, guard, body.role)
    call = body.model_copy(update={"agent_id": principal.agent_label(body.agent_id), "role": role})
    decision = await anyio.to_thread.run_sync(guard.decide, call)
    decision = await settle(request.app, state, guard, call, decision, principal)
    await anyio.to_thread.run_sync(guard.remember, call, decision)
    return decision


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


@router.post(
    "/v1/guard/tools",
    summary="Report an MCP server's tool listing (pin tool descriptions)",
    description="The first listing of a tool pins its description and input schema; a "
    "later listing that differs marks the tool changed, and calls of it "
    "(`mcp__<server>__<tool>`) are asked about until an admin key reports the listing "
    "with `accept: true` (a rug pull: a description changed after trust was earned). "
    "`memgate mcp-proxy` reports every listing it forwards.",
)
async def tools(body: ToolListing, principal: Writer, guard: GuardDep) -> PinReport:
    if body.accept and principal.role is not Role.ADMIN:
        reason = "only an admin key may accept changed tool descriptions"
        raise Problem(
            403,
            "Forbidden",
            f"body.accept: {reason}",
            kind="forbidden",
            errors=[FieldError(field="body.accept", reason=reason)],
        )
    return await anyio.to_thread.run_sync(guard.pin_tools, body)


class AskAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    note: str | None = Field(default=None, min_length=1, max_length=2000, pattern=r"\S")
    """Why (shown to the caller with the answer; required to deny)."""


class AskList(BaseModel):
    asks: list[GuardAsk]


@router.get(
    "/v1/guard/asks",
    summary="Tool calls waiting for a person",
    description="Pending asks this reviewer or admin key may answer (the asking key's "
    "namespaces inside its scope; never its own), oldest first: the call, its arguments "
    "with sensitive values redacted, the reasons and the graph path.",
)
async def list_asks(
    request: Request, principal: Reviewer, limit: int = Query(50, ge=1, le=500)
) -> AskList:
    return AskList(asks=await pending_asks(request.app, principal, limit))


@router.get(
    "/v1/guard/asks/{ask_id}",
    summary="One ask and its answer",
    description="`state`: pending, allowed or denied (with `reviewer` and `note`), or "
    "expired (no answer by `expires_at`: the policy's `[asks] expire_after`; the same call "
    "decided again asks anew). The "
    "key that asked may read it (poll it, or decide the same call again), and reviewers "
    "and admins whose scope covers it; anyone else gets 404.",
    responses=NO_ASK,
)
async def get_ask(request: Request, ask_id: str) -> GuardAsk:
    principal = authenticate(request)
    return await visible_ask(request.app, principal, ask_id)


async def _answer(
    request: Request, state: State, principal: Principal, ask_id: str, answer: AskState,
    note: str | None,
) -> GuardAsk:  # fmt: skip
    ask = await visible_ask(request.app, principal, ask_id)
    if ask.state is not AskState.PENDING and principal.actor != ask.actor:
        raise Problem(
            409, "Conflict", f"{ask_id} was {ask.state.value} already by {ask.reviewer}",
            kind="conflict",
        )  # fmt: skip
    return await review(request.app, state, principal, ask_id, answer, note)


@router.post(
    "/v1/guard/asks/{ask_id}/allow",
    summary="Allow an asked tool call (once)",
    description="The same call, decided again, is allowed once (layer `review`). Logged "
    "as a `guard_decided` event. The key that asked cannot answer (403); an answered "
    "ask keeps its first answer (409).",
    responses={**NO_ASK, **ANSWERED},
)
async def allow_ask(
    request: Request, ask_id: str, state: State, principal: Reviewer, body: AskAnswer | None = None
) -> GuardAsk:
    note = body.note if body is not None else None
    return await _answer(request, state, principal, ask_id, AskState.ALLOWED, note)


@router.post(
    "/v1/guard/asks/{ask_id}/deny",
    summary="Deny an asked tool call",
    description="The same call, decided again, is denied (layer `review`). `note` is "
    "required. Logged as a `guard_decided` event.",
    responses={**NO_ASK, **ANSWERED},
)
async def deny_ask(
    request: Request, ask_id: str, state: State, principal: Reviewer, body: AskAnswer
) -> GuardAsk:
    if body.note is None:
        reason = "a reason is required to deny"
        raise Problem(
            422, "Invalid input", f"body.note: {reason}", kind="validation",
            errors=[FieldError(field="body.note", reason=reason)],
        )  # fmt: skip
    return await _answer(request, state, principal, ask_id, AskState.DENIED, body.note)
