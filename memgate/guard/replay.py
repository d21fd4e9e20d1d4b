"""Replay a recorded agent history through the guard: what it would have
allowed, asked about, denied and rewritten, each with the path that justifies
it. The tool that finds the guard's own false positives.

Two formats, one JSON object a line, told apart line by line:

- **Claude Code transcripts** (`~/.claude/projects/<project>/<session>.jsonl`):
  `assistant` lines whose `message.content` holds `tool_use` blocks (`id`,
  `name`, `input`) are the calls; `user` lines whose `message.content` holds
  `tool_result` blocks (`tool_use_id`, `content`) are their results. The
  line's `sessionId` is the session and `timestamp` the time.
- **Generic JSONL**: `{"kind": "call", "call_id": "c1", "tool": "Bash",
  "input": {...}, "session_id": "s1", "role": "developer", "at": 1733100000.0}`
  and `{"kind": "result", "call_id": "c1", "output": "..."}` (`session_id`,
  `role`, `agent_id`, `task_id` and `at`, seconds since the epoch or an ISO
  time, are optional).

Calls are decided in file order, on a guard of their own (an in-memory store,
a fresh fingerprint key: nothing is kept). A result counts (its values are
fingerprinted, its shape earns trust) unless the guard would have denied its
call: a denied call would not have run. An asked call is taken as approved,
since the transcript shows it ran. Lines that are neither are skipped and
counted.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from memgate.guard.models import GuardDecision, ToolCall, ToolResult, Verdict
from memgate.guard.pipeline import Guard

MAX_LINE = 4 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class CallEvent:
    call: ToolCall
    at: float | None = None


@dataclass(frozen=True, slots=True)
class ResultEvent:
    call_id: str
    output: Any
    at: float | None = None


Event = CallEvent | ResultEvent


class ReplayedCall(BaseModel):
    """One call of the history and what the guard says about it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    line: int
    session_id: str | None
    decision: GuardDecision


class ReplayReport(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    calls: tuple[ReplayedCall, ...]
    counts: dict[str, int]
    """allow / ask / deny / rewrite (and `warn`: allowed with a warning)."""
    results: int
    """Results fed back (values fingerprinted, trust earned)."""
    skipped_lines: int


def _time(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except ValueError:
            return None
    return None


def _text(content: Any) -> Any:
    """A tool_result's content: a string, or the text of its blocks."""
    if isinstance(content, list):
        parts = [
            str(block.get("text", "")) if isinstance(block, dict) else str(block)
            for block in content
        ]
        return "\n".join(parts)
    return content


def _claude(line: dict[str, Any]) -> Iterator[Event]:
    message = line.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return
    session = line.get("sessionId") if isinstance(line.get("sessionId"), str) else None
    at = _time(line.get("timestamp"))
    for block in content:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "tool_use" and line.get("type") == "assistant":
            tool_input = block.get("input")
            yield CallEvent(
                ToolCall(
                    tool=str(block.get("name") or ""),
                    input=tool_input if isinstance(tool_input, dict) else {},
                    call_id=str(block.get("id") or "") or None,
                    session_id=session or None,
                ),
                at,
            )
        elif block.get("type") == "tool_result" and line.get("type") == "user":
            call_id = block.get("tool_use_id")
            if isinstance(call_id, str) and call_id:
                yield ResultEvent(call_id, _text(block.get("content")), at)


_CALL_FIELDS = ("tool", "input", "call_id", "session_id", "agent_id", "role", "task_id")


def _generic(line: dict[str, Any]) -> Iterator[Event]:
    at = _time(line.get("at"))
    if line.get("kind") == "call":
        yield CallEvent(ToolCall(**{k: line[k] for k in _CALL_FIELDS if k in line}), at)
    elif line.get("kind") == "result" and isinstance(line.get("call_id"), str):
        yield ResultEvent(line["call_id"], line.get("output"), at)


def events(lines: Iterable[str]) -> Iterator[tuple[int, Event | None]]:
    """(line number, event) for each event of a history; (n, None) for a line
    that holds none (blank, not JSON, another kind of transcript line, invalid)."""
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw[:MAX_LINE])
        except ValueError:
            yield number, None
            continue
        if not isinstance(line, dict):
            yield number, None
            continue
        found = False
        try:
            source = _generic(line) if "kind" in line else _claude(line)
            for event in source:
                found = True
                yield number, event
        except ValidationError:
            pass
        if not found:
            yield number, None


def replay(
    guard: Guard, lines: Iterable[str], *, clock: list[float], role: str | None = None
) -> ReplayReport:
    """Decide every call of a history on `guard`, in order. `clock` is the
    guard's clock (a one-element list it reads): set to each event's time.
    `role`: the guard role of calls that name none."""
    decided: dict[str, tuple[ToolCall, GuardDecision]] = {}
    out: list[ReplayedCall] = []
    counts: Counter[str] = Counter()
    results = skipped = 0
    for number, event in events(lines):
        if event is None:
            skipped += 1
            continue
        clock[0] = event.at if event.at is not None else clock[0] + 1.0
        if isinstance(event, CallEvent):
            call = event.call
            if role is not None and call.role is None:
                call = call.model_copy(update={"role": role})
            decision = guard.decide(call)
            guard.remember(call, decision)
            decided[decision.call_id] = (call, decision)
            counts[decision.decision.value] += 1
            if decision.warn:
                counts["warn"] += 1
            out.append(ReplayedCall(line=number, session_id=call.session_id, decision=decision))
            continue
        known = decided.get(event.call_id)
        if known is None or known[1].decision is Verdict.DENY:
            continue
        done, decision = known
        guard.record_result(
            ToolResult(
                call_id=event.call_id,
                tool=done.tool,
                input=decision.updated_input or done.input,
                output=event.output,
                session_id=done.session_id,
                agent_id=done.agent_id,
            )
        )
        results += 1
    for verdict in Verdict:
        counts.setdefault(verdict.value, 0)
    return ReplayReport(
        calls=tuple(out), counts=dict(counts), results=results, skipped_lines=skipped
    )
