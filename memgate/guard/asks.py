"""`ask` through the review queue: the pending item a decision becomes, the
notice that tells people, the log event of a reviewer's answer, and the decision
an answer turns a later identical call into.

A call is "the same call again" when the same key, in the same session, calls the
same tool with the same arguments: `call_digest` is a keyed fingerprint of those
(the scanner's HMAC key), so the digest stored beside an ask reveals nothing of
the arguments. An allowed ask lets the same call through once; a denied one
denies it from then on; a pending one keeps it asking (one queue item however
often the agent retries).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

from memgate.domain.asks import AskState, GuardAsk
from memgate.domain.events import Event, Op, canonical_json
from memgate.domain.notices import REASON_CHARS, Notice, NoticeKind, excerpt, short_text
from memgate.guard.audit import MAX_REASON
from memgate.guard.models import GuardDecision, Layer, ToolCall, Verdict

SHOWN_CHARS = 2000
"""An argument string is shown to reviewers up to this long (all of it scanned)."""
SHOWN_LEAVES = 200
NOT_SHOWN = "[not shown: too many values]"


def call_digest(fingerprint: Callable[[str], str], actor: str, call: ToolCall) -> str:
    """The keyed digest of (key, session, tool, arguments)."""
    text = canonical_json([actor, call.session_id, call.tool, call.input]).decode("utf-8")
    return fingerprint("\x00guard-ask\x00" + text)


def shown_arguments(arguments: dict[str, Any], redact: Callable[[str], str]) -> dict[str, Any]:
    """The arguments as reviewers see them: every string (and key) cut to
    SHOWN_CHARS and passed through `redact` (the scanner's redaction: secrets and
    personal data become `[REDACTED:<rule>:<fingerprint>]`), at most SHOWN_LEAVES
    values; nothing unscanned is shown."""
    count = 0

    def text(value: str) -> str:
        cut = value[:SHOWN_CHARS]
        shown = redact(cut)
        return shown + "…" if len(value) > SHOWN_CHARS else shown

    def walk(value: Any, depth: int) -> Any:
        nonlocal count
        if depth > 20:
            return NOT_SHOWN
        if isinstance(value, dict):
            return {text(str(k)[:200]): walk(v, depth + 1) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [walk(v, depth + 1) for v in value]
        count += 1
        if count > SHOWN_LEAVES:
            return NOT_SHOWN
        if isinstance(value, str):
            return text(value)
        return value

    shown = walk(arguments, 0)
    return shown if isinstance(shown, dict) else {}


def new_ask(
    call: ToolCall,
    decision: GuardDecision,
    *,
    digest: str,
    actor: str,
    namespaces: tuple[tuple[str, ...], ...],
    audit_seq: int | None,
    at: datetime,
    redact: Callable[[str], str],
) -> GuardAsk:
    """The pending ask of an `ask` decision."""
    return GuardAsk(
        id=f"ask_{uuid.uuid4().hex[:20]}",
        digest=digest,
        call_id=decision.call_id,
        tool=decision.tool,
        role=decision.role,
        actor=actor,
        agent_id=call.agent_id,
        session_id=call.session_id,
        task_id=call.task_id,
        namespaces=namespaces,
        arguments=shown_arguments(decision.redacted_input or {}, redact),
        reasons=decision.reasons,
        layer=decision.layer.value,
        path=tuple(step.model_dump(mode="json", exclude_none=True) for step in decision.path),
        created_at=at,
        audit_seq=audit_seq,
    )


def ask_notice(ask: GuardAsk) -> Notice:
    """What people are told about a new ask (through the notification outbox)."""
    args = ", ".join(f"{k}={canonical_json(v).decode('utf-8')}" for k, v in ask.arguments.items())
    return Notice(
        id=f"gask{ask.id}",
        kind=NoticeKind.GUARD_ASK,
        at=ask.created_at,
        seq=ask.audit_seq,
        actor=ask.actor,
        reason=short_text("; ".join(ask.reasons), REASON_CHARS),
        excerpt=excerpt(f"{ask.tool}({args})"),
        detail={
            "ask_id": ask.id,
            "call_id": ask.call_id,
            "tool": ask.tool,
            "role": ask.role,
            "session_id": ask.session_id,
            "layer": ask.layer,
            "path": [
                {k: step.get(k) for k in ("kind", "session_id", "memory_id", "fingerprint")}
                for step in ask.path[:10]
            ],
        },
    )


def review_event(ask: GuardAsk, state: AskState, reviewer: str, note: str | None) -> Event:
    """The log event of a reviewer's answer: a `guard_decided` of layer `review`."""
    verdict = Verdict.ALLOW if state is AskState.ALLOWED else Verdict.DENY
    return Event(
        op=Op.GUARD_DECIDED,
        memory_id=f"call:{ask.call_id}",
        at=datetime.now().astimezone(),
        actor=reviewer,
        reason=(note or "")[:MAX_REASON] or None,
        detail={
            "decision": verdict.value,
            "warn": False,
            "layer": Layer.REVIEW.value,
            "tool": ask.tool,
            "role": ask.role,
            "session_id": ask.session_id,
            "agent_id": ask.agent_id,
            "task_id": ask.task_id,
            "ask_id": ask.id,
            "asked_seq": ask.audit_seq,
            "arguments": sorted(ask.arguments)[:100],
            "rewritten": [],
            "path": [
                {k: step.get(k) for k in ("kind", "call_id", "fingerprint", "form", "memory_id")}
                for step in ask.path[:50]
            ],
        },
    )


def answered(decision: GuardDecision, ask: GuardAsk) -> GuardDecision:
    """A new decision of a call an ask settles: the reviewer's answer (allowed or
    denied), or still waiting (pending)."""
    if ask.state is AskState.PENDING:
        return waiting(decision, ask)
    if ask.state is AskState.EXPIRED:
        raise ValueError(f"ask {ask.id} expired unanswered: it settles nothing (ask anew)")
    verdict = Verdict.ALLOW if ask.state is AskState.ALLOWED else Verdict.DENY
    said = "allowed" if verdict is Verdict.ALLOW else "denied"
    note = f": {short_text(ask.note, 200)}" if ask.note else ""
    updated = None
    if verdict is Verdict.ALLOW and decision.flow is not None and decision.updated_input:
        # A person allowed the call; the flow check's redaction of the arguments
        # that carry values read earlier still applies (the person saw them
        # redacted): it runs as a rewrite.
        verdict, updated = Verdict.REWRITE, decision.updated_input
    return decision.model_copy(
        update={
            "decision": verdict,
            "layer": Layer.REVIEW,
            "reasons": (
                *decision.reasons,
                f"review: {said} by {ask.reviewer} (ask {ask.id}){note}",
            ),
            "updated_input": updated,
            "ask_id": ask.id,
        }
    )


def waiting(decision: GuardDecision, ask: GuardAsk) -> GuardDecision:
    return decision.model_copy(
        update={
            "reasons": (
                *decision.reasons,
                f"review: ask {ask.id} waits for a reviewer (GET /v1/guard/asks/{ask.id})",
            ),
            "ask_id": ask.id,
        }
    )
