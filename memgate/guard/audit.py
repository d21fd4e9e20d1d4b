"""Guard decisions as events of the HMAC-chained log."""

from __future__ import annotations

from datetime import UTC, datetime

from memgate.domain.events import Event, Op
from memgate.guard.models import GuardDecision, ToolCall

MAX_REASON = 500


def decision_event(call: ToolCall, decision: GuardDecision, actor: str) -> Event:
    """The log event of one decision: who, which tool, what was decided, by which
    layer and why, the path's fingerprints. Never an argument's value (the
    reasons name arguments, rules and fingerprints only)."""
    reason = "; ".join(decision.reasons)[:MAX_REASON] or None
    return Event(
        op=Op.GUARD_DECIDED,
        memory_id=f"call:{decision.call_id}",
        at=datetime.now(UTC),
        actor=actor,
        reason=reason,
        detail={
            "decision": decision.decision.value,
            "warn": decision.warn,
            "layer": decision.layer.value,
            "tool": decision.tool,
            "role": decision.role,
            "session_id": call.session_id,
            "agent_id": call.agent_id,
            "task_id": call.task_id,
            "arguments": [name[:100] for name in sorted(call.input)[:100]],
            "rewritten": list(decision.flow.cut_args) if decision.flow else [],
            "path": [
                {"kind": s.kind, "call_id": s.call_id, "fingerprint": s.fingerprint, "form": s.form}
                | ({"memory_id": s.memory_id} if s.memory_id else {})
                for s in decision.path[:50]
            ],
        },
    )
