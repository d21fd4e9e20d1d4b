"""The tool-call guard: allow / ask / deny / rewrite every tool call before it
runs, from a permission matrix, call-chain limits, parameter checks and the flow
of sensitive values read earlier (see docs/guard.md)."""

from memgate.guard.models import (
    FlowReport,
    GuardDecision,
    Layer,
    PathStep,
    ResultRecorded,
    ToolCall,
    ToolResult,
    Verdict,
)
from memgate.guard.pipeline import Guard
from memgate.guard.policy import DEFAULT_GUARD_POLICY, Effect, GuardPolicy
from memgate.guard.values import ValueStore

__all__ = [
    "DEFAULT_GUARD_POLICY",
    "Effect",
    "FlowReport",
    "Guard",
    "GuardDecision",
    "GuardPolicy",
    "Layer",
    "PathStep",
    "ResultRecorded",
    "ToolCall",
    "ToolResult",
    "ValueStore",
    "Verdict",
]
