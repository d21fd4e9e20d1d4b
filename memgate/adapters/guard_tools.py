"""The tool-call guard in front of Python tools: a decorator for plain
functions, a wrapper for LangGraph / LangChain tools, and OpenAI Agents SDK
tool guardrails.

    tools = ToolGuard(guard, session_id="s1", role="analyst")     # in process
    tools = ToolGuard.remote("http://127.0.0.1:8765", key, role="analyst")

    @guarded(tools)
    def db_query(sql: str) -> list[dict]: ...

    search = guard_langchain_tool(search, tools)                  # LangGraph ToolNode
    agent = Agent(..., tools=[function_tool(f, tool_input_guardrails=[...])])
    inputs, outputs = openai_tool_guardrails(tools)               # Agents SDK

Each call is decided first: `allow` runs it, `rewrite` runs it with the
redacted arguments, `deny` raises `ToolCallDenied`, `ask` raises
`ToolCallNeedsApproval` (a person must approve it first); the result is then
reported so the secrets it shows are fingerprinted. The SDK's input guardrails
cannot change arguments, so there a rewrite is rejected with the reasons (the
model may retry without the value); use `guarded` inside the tool function to
run rewrites.
"""

from __future__ import annotations

import functools
import inspect
import json
import uuid
from collections.abc import Callable
from typing import Any, TypeVar, cast

import httpx

from memgate.guard import Guard, GuardDecision, Layer, ToolCall, ToolResult, Verdict

__all__ = [
    "ToolCallDenied",
    "ToolCallNeedsApproval",
    "ToolGuard",
    "guard_langchain_tool",
    "guarded",
    "openai_tool_guardrails",
]

F = TypeVar("F", bound=Callable[..., Any])


class ToolCallDenied(Exception):
    """The guard denied the call; it did not run."""

    def __init__(self, decision: GuardDecision) -> None:
        self.decision = decision
        super().__init__(f"memgate denied {decision.tool}: {'; '.join(decision.reasons)}")


class ToolCallNeedsApproval(Exception):
    """The guard asks a person about the call; it did not run."""

    def __init__(self, decision: GuardDecision) -> None:
        self.decision = decision
        super().__init__(
            f"memgate: {decision.tool} needs a person's approval: {'; '.join(decision.reasons)}"
        )


class ToolGuard:
    """Decides calls and reports results, on a `Guard` in this process or on a
    running memgate over HTTP (`ToolGuard.remote`)."""

    def __init__(
        self,
        guard: Guard | None = None,
        *,
        session_id: str | None = None,
        agent_id: str | None = None,
        role: str | None = None,
        task_id: str | None = None,
        http: httpx.Client | None = None,
    ) -> None:
        if (guard is None) == (http is None):
            raise ValueError("give a Guard, or use ToolGuard.remote(url, key)")
        self._guard = guard
        self._http = http
        self.session_id = session_id
        self.agent_id = agent_id
        self.role = role
        self.task_id = task_id

    @classmethod
    def remote(cls, url: str, key: str, **kwargs: Any) -> ToolGuard:
        client = httpx.Client(
            base_url=url.rstrip("/"), headers={"Authorization": f"Bearer {key}"}, timeout=10.0
        )
        return cls(http=client, **kwargs)

    def decide(
        self, tool: str, arguments: dict[str, Any], call_id: str | None = None
    ) -> GuardDecision:
        call = ToolCall(
            tool=tool,
            input=arguments,
            call_id=call_id or f"py_{uuid.uuid4().hex}",
            session_id=self.session_id,
            agent_id=self.agent_id,
            role=self.role,
            task_id=self.task_id,
        )
        if self._guard is not None:
            decision = self._guard.decide(call)
            self._guard.remember(call, decision)
            return decision
        body = call.model_dump(exclude_none=True)
        try:
            response = self._http.post("/v1/guard/decide", json=body) if self._http else None
        except httpx.HTTPError:
            response = None
        if response is None or response.status_code != 200:
            # fail to ask, never to allow
            return GuardDecision(
                decision=Verdict.ASK,
                layer=Layer.NONE,
                reasons=(
                    f"memgate answered {response.status_code}"
                    if response is not None
                    else "memgate unreachable",
                ),
                call_id=call.call_id or "",
                tool=tool,
                role=self.role or "",
            )
        return GuardDecision.model_validate(response.json())

    def report(self, call_id: str, tool: str, arguments: dict[str, Any], output: Any) -> None:
        result = ToolResult(
            call_id=call_id,
            tool=tool,
            input=arguments,
            output=_jsonable(output),
            session_id=self.session_id,
            agent_id=self.agent_id,
        )
        if self._guard is not None:
            self._guard.record_result(result)
        elif self._http is not None:
            self._http.post("/v1/guard/results", json=result.model_dump(exclude_none=True))

    def check(self, tool: str, arguments: dict[str, Any]) -> tuple[GuardDecision, dict[str, Any]]:
        """Decide; raise on deny / ask; the arguments to run with."""
        decision = self.decide(tool, arguments)
        if decision.decision is Verdict.DENY:
            raise ToolCallDenied(decision)
        if decision.decision is Verdict.ASK:
            raise ToolCallNeedsApproval(decision)
        if decision.decision is Verdict.REWRITE and decision.updated_input is not None:
            return decision, dict(decision.updated_input)
        return decision, arguments


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return str(value)


def guarded(tools: ToolGuard, name: str | None = None) -> Callable[[F], F]:
    """Guard a function's calls (sync or async; arguments by keyword name)."""

    def wrap(func: F) -> F:
        tool = name or func.__name__
        signature = inspect.signature(func)

        def arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
            bound = signature.bind(*args, **kwargs)
            return dict(bound.arguments)

        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def run_async(*args: Any, **kwargs: Any) -> Any:
                decision, sent = tools.check(tool, arguments(args, kwargs))
                output = await func(**sent)
                tools.report(decision.call_id, tool, sent, output)
                return output

            return cast(F, run_async)

        @functools.wraps(func)
        def run(*args: Any, **kwargs: Any) -> Any:
            decision, sent = tools.check(tool, arguments(args, kwargs))
            output = func(**sent)
            tools.report(decision.call_id, tool, sent, output)
            return output

        return cast(F, run)

    return wrap


def guard_langchain_tool(tool: Any, tools: ToolGuard) -> Any:
    """A LangChain / LangGraph tool (`BaseTool`, e.g. from `@tool`) with the same
    name, description and schema whose every run is guarded. A denial or an ask
    comes back to the model as the tool's error message (`handle_tool_error`)."""
    from langchain_core.tools import StructuredTool, ToolException

    def invoke(**kwargs: Any) -> Any:
        try:
            decision, sent = tools.check(tool.name, kwargs)
        except (ToolCallDenied, ToolCallNeedsApproval) as exc:
            raise ToolException(str(exc)) from None
        output = tool.invoke(sent)
        tools.report(decision.call_id, tool.name, sent, output)
        return output

    return StructuredTool.from_function(
        func=invoke,
        name=tool.name,
        description=tool.description,
        args_schema=tool.args_schema,
        handle_tool_error=True,
    )


def openai_tool_guardrails(tools: ToolGuard) -> tuple[Any, Any]:
    """(input guardrail, output guardrail) for OpenAI Agents SDK function tools
    (`function_tool(..., tool_input_guardrails=[i], tool_output_guardrails=[o])`).
    The input guardrail decides the call: allow passes, deny / ask / rewrite
    reject it with the reasons as the tool's answer to the model; the output
    guardrail reports the result."""
    from agents import (
        ToolGuardrailFunctionOutput,
        ToolInputGuardrailData,
        ToolOutputGuardrailData,
        tool_input_guardrail,
        tool_output_guardrail,
    )

    def _arguments(raw: str) -> dict[str, Any]:
        try:
            parsed = json.loads(raw or "{}")
        except ValueError:
            return {"arguments": raw}
        return parsed if isinstance(parsed, dict) else {"arguments": parsed}

    @tool_input_guardrail
    def memgate_guard(data: ToolInputGuardrailData) -> ToolGuardrailFunctionOutput:
        ctx = data.context
        decision = tools.decide(ctx.tool_name, _arguments(ctx.tool_arguments), ctx.tool_call_id)
        info = decision.model_dump(mode="json")
        if decision.decision is Verdict.ALLOW:
            return ToolGuardrailFunctionOutput.allow(output_info=info)
        reasons = "; ".join(decision.reasons)
        if decision.decision is Verdict.DENY:
            message = f"memgate denied this call: {reasons}"
        elif decision.decision is Verdict.ASK:
            message = f"memgate: this call needs a person's approval ({reasons}); it was not run"
        else:
            message = f"memgate: this call would send sensitive values ({reasons}); not run"
        return ToolGuardrailFunctionOutput.reject_content(message, output_info=info)

    @tool_output_guardrail
    def memgate_results(data: ToolOutputGuardrailData) -> ToolGuardrailFunctionOutput:
        ctx = data.context
        tools.report(ctx.tool_call_id, ctx.tool_name, _arguments(ctx.tool_arguments), data.output)
        return ToolGuardrailFunctionOutput.allow()

    return memgate_guard, memgate_results
