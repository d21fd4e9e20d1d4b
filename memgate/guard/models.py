"""What the guard takes and answers: a tool call, a tool result, a decision."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

Ident = str


class Verdict(StrEnum):
    """The decision on one call. `rewrite` runs the call with `updated_input`."""

    ALLOW = "allow"
    ASK = "ask"
    REWRITE = "rewrite"
    DENY = "deny"


SEVERITY = {Verdict.ALLOW: 0, Verdict.REWRITE: 1, Verdict.ASK: 2, Verdict.DENY: 3}


class Layer(StrEnum):
    """Which part of the pipeline decided."""

    MATRIX = "matrix"
    CHAIN = "chain"
    PARAMS = "params"
    FLOW = "flow"
    TRUST = "trust"
    """Pinned tool descriptions (a rug pull), and trust earned by routine calls."""
    REVIEW = "review"
    """A person answered an `ask` about this call (the review queue)."""
    NONE = "none"
    """Nothing objected: the matrix allowed and every later layer agreed."""


class ToolCall(BaseModel):
    """One tool call before it runs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: str = Field(min_length=1, max_length=200, pattern=r"^[\x21-\x7e]+$")
    input: dict[str, Any] = Field(default_factory=dict)
    """The call's arguments by name."""
    call_id: str | None = Field(default=None, min_length=1, max_length=200)
    session_id: str | None = Field(default=None, min_length=1, max_length=200)
    agent_id: str | None = Field(default=None, min_length=1, max_length=200)
    role: str | None = Field(default=None, min_length=1, max_length=100)
    task_id: str | None = Field(default=None, min_length=1, max_length=200)
    parent_call_id: str | None = Field(default=None, min_length=1, max_length=200)


class ToolResult(BaseModel):
    """What a tool returned; its sensitive values are fingerprinted and linked to
    the call."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    call_id: str = Field(min_length=1, max_length=200)
    tool: str = Field(min_length=1, max_length=200, pattern=r"^[\x21-\x7e]+$")
    output: Any = None
    """A string or any JSON value."""
    input: dict[str, Any] = Field(default_factory=dict)
    session_id: str | None = Field(default=None, min_length=1, max_length=200)
    agent_id: str | None = Field(default=None, min_length=1, max_length=200)


class PathStep(BaseModel):
    """One hop of the path that justifies a flow decision. Values appear only as
    keyed fingerprints."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str
    """`read` (an earlier call, or a read of a memory, showed the value), `write`
    (the value was written into a memory), `arg` (this call carries it)."""
    call_id: str
    session_id: str | None = None
    tool: str | None = None
    fingerprint: str
    form: str = "literal"
    """How the value appears: literal, base64, hex, url, stripped, half."""
    rule_id: str | None = None
    arg: str | None = None
    at: float | None = None
    memory_id: str | None = None
    """The memory the value was written into or read from."""


class FlowReport(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    value: float
    """The max flow: 0 allow, 2k < 2n-1 rewrite k arguments, 2n-1 deny."""
    block_cost: int
    tainted_args: tuple[str, ...]
    cut_args: tuple[str, ...]
    engine: str = "networkx"
    """Where the min cut ran: `falkordb` (algo.maxFlow) or `networkx`."""


class GuardDecision(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    decision: Verdict
    warn: bool = False
    """Allowed, but a person should be told (a burst, a chain worth a look)."""
    layer: Layer
    reasons: tuple[str, ...] = ()
    updated_input: dict[str, Any] | None = None
    path: tuple[PathStep, ...] = ()
    flow: FlowReport | None = None
    call_id: str
    tool: str
    role: str
    audit_seq: int | None = None
    """The log sequence number of the decision's event."""
    millis: float = 0.0
    """Time to decide, in milliseconds."""
    timings: dict[str, float] = Field(default_factory=dict)
    """Milliseconds per layer (matrix, chain, params, flow) that ran."""
    shape: str = ""
    """The call's (tool, argument shape), as trust counts it."""
    trusted: int = 0
    """Results reported earlier for calls of this shape."""
    ask_id: str | None = None
    """The review-queue item of an `ask` (GET /v1/guard/asks/{id}), or of the
    reviewer's answer that decided this call."""
    redacted_input: dict[str, Any] | None = Field(default=None, exclude=True)
    """For an `ask`: the arguments with every sensitive value redacted, as the
    review queue shows them (never serialized)."""


class ResultRecorded(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    call_id: str
    values: int
    """Sensitive values found in the result."""
    fingerprints: tuple[str, ...]
    forms: int
    """Fingerprints stored for them, their encodings included."""
