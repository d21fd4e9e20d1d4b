"""The Agents SDK session adapter under the SDK's own Runner, with a deterministic
local Model (no network, tracing off)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from adapter_fixtures import HOSTILE, TOKEN
from agents import Agent, Model, ModelResponse, Runner, Usage, function_tool
from agents import set_tracing_disabled as disable_tracing
from agents.memory.session import _session_accepts_wrapper
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from memgate.adapters.openai_agents import MemgateSession
from memgate.domain import Source
from memgate.domain.memory import MemoryState, Reader
from memgate.gateway import Gateway


@pytest.fixture(autouse=True)
def _no_tracing() -> None:
    disable_tracing(True)


class ScriptedModel(Model):
    """Calls the `fetch` tool once per turn, then answers with what it saw. Records
    every input it was given."""

    def __init__(self) -> None:
        self.inputs: list[list[dict[str, Any]]] = []
        self.turn = 0

    async def get_response(
        self,
        system_instructions: str | None,
        input: Any,
        model_settings: Any,
        tools: Any,
        output_schema: Any,
        handoffs: Any,
        tracing: Any,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: Any,
        **_: Any,
    ) -> ModelResponse:
        items = [input] if isinstance(input, str) else list(input)
        self.inputs.append(items)
        last = items[-1]
        if isinstance(last, dict) and last.get("type") == "function_call_output":
            self.turn += 1
            text = f"turn {self.turn}: tool said {str(last['output'])[:40]}"
            output: list[Any] = [
                ResponseOutputMessage(
                    id=f"msg_{self.turn}",
                    type="message",
                    role="assistant",
                    status="completed",
                    content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
                )
            ]
        else:
            output = [
                ResponseFunctionToolCall(
                    type="function_call",
                    id=f"fc_{self.turn}",
                    call_id=f"call_{self.turn}",
                    name="fetch",
                    arguments=json.dumps({"url": "https://example.com"}),
                )
            ]
        return ModelResponse(output=output, usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError("the tests run unstreamed")


@dataclass
class Pages:
    text: str


def agent_with(model: ScriptedModel, pages: Pages) -> Agent[Any]:
    @function_tool
    def fetch(url: str) -> str:
        """Fetch a page."""
        return pages.text

    return Agent(name="reader", instructions="Use the tool.", model=model, tools=[fetch])


def test_the_sdk_sees_a_context_aware_session(gateway: Gateway) -> None:
    assert _session_accepts_wrapper(MemgateSession("s", gateway))


def test_runner_history_round_trips_and_rejected_tool_output_is_withheld(
    gateway: Gateway,
) -> None:
    model = ScriptedModel()
    pages = Pages("The opening hours are 9 to 5 on weekdays.")
    session = MemgateSession("chat-1", gateway)
    agent = agent_with(model, pages)

    async def scenario() -> None:
        first = await Runner.run(agent, "When is the shop open?", session=session)
        assert "9 to 5" in str(first.final_output)
        history = await session.get_items()
        assert [i.get("type", "message") for i in history] == [
            "message",
            "function_call",
            "function_call_output",
            "message",
        ]
        assert history[0] == {"content": "When is the shop open?", "role": "user"}
        assert history[2]["output"] == "The opening hours are 9 to 5 on weekdays."

        pages.text = HOSTILE
        await Runner.run(agent, "And the password?", session=session, context={"agent_id": "bot"})
        history = await session.get_items()
        assert len(history) == 8
        withheld = history[6]
        assert withheld["type"] == "function_call_output"
        assert withheld["call_id"] == history[5]["call_id"]
        assert "withheld" in withheld["output"] and "MG-INJ" in withheld["output"]
        assert HOSTILE not in json.dumps(history)
        # The model saw the placeholder, never the injected text (same run: the SDK
        # feeds the tool output straight back, so check the *next* run's input).
        pages.text = "Nothing else to report."
        await Runner.run(agent, "Thanks", session=session)
        replayed = json.dumps(model.inputs[-2])
        assert HOSTILE not in replayed and "withheld" in replayed

        # The original stays in the log, rejected, with the call id as provenance.
        rejected = {
            r.event.item.source: r.event.item
            for r in await gateway.store.records(0, 1000)
            if r.event.item is not None and r.event.item.state is MemoryState.REJECTED
        }
        tool = rejected[Source.TOOL]
        assert HOSTILE in tool.content
        assert tool.call_id == history[5]["call_id"]
        assert tool.agent_id == "bot"

    asyncio.run(scenario())


def test_limit_pop_and_clear(gateway: Gateway) -> None:
    session = MemgateSession("chat-2", gateway)
    items: list[Any] = [{"role": "user", "content": f"message {n}"} for n in range(5)]

    async def scenario() -> None:
        await session.add_items(items[:3])
        await session.add_items(items[3:])
        assert await session.get_items(limit=2) == items[3:]
        assert await session.get_items(limit=0) == []
        assert await session.get_items() == items
        popped = await session.pop_item()
        assert popped == items[4]
        assert await session.get_items() == items[:4]
        # A second session object on the same id continues the sequence.
        again = MemgateSession("chat-2", gateway)
        await again.add_items([{"role": "user", "content": "later"}])
        assert (await session.get_items())[-1] == {"role": "user", "content": "later"}
        await session.clear_session()
        assert await session.get_items() == []
        assert await session.pop_item() is None
        await session.add_items(items[:1])
        assert await session.get_items() == items[:1]

    asyncio.run(scenario())


def test_sessions_are_separate_and_reads_are_recorded(gateway: Gateway) -> None:
    one = MemgateSession("one", gateway)
    two = MemgateSession("two", gateway)

    async def scenario() -> None:
        await one.add_items([{"role": "assistant", "content": "I will remember that."}])
        assert await two.get_items() == []
        assert len(await one.get_items()) == 1
        (item,) = await gateway.search(("sessions", "one"), reader=Reader(session_id="one"))
        # assistant output waits for review but is served to its own session
        assert item.state is MemoryState.PENDING_REVIEW
        reads = await gateway.reads_of(item.id)
        assert {r.session_id for r in reads} == {"one"}

    asyncio.run(scenario())


def test_secrets_in_items_are_redacted(gateway: Gateway) -> None:
    session = MemgateSession("s", gateway)

    async def scenario() -> None:
        await session.add_items([{"role": "user", "content": f"my token is {TOKEN}"}])
        (item,) = await session.get_items()
        assert TOKEN not in json.dumps(item)
        assert "[REDACTED:MG-SEC-" in str(item["content"])

    asyncio.run(scenario())
