"""Microsoft Agent Framework `ContextProvider` on memgate.

    from memgate.adapters.agent_framework import MemgateContextProvider
    agent = Agent(client, "You are helpful.", context_providers=[
        MemgateContextProvider(gateway, namespace=("users", "42")),
    ])

`before_run` picks the served memories relevant to the new input messages and
adds them as one system message (untrusted ones fenced as quoted data), and
records each as read by the session and agent. `after_run` routes the turn's
new memories through the gateway: the user's input messages as source `user`,
the agent's reply as source `agent` (scanned, routed, logged; what is queued
is served back to this session only, what is rejected never). The receipts of
the last turn are kept in the provider's session state (`state["receipts"]`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agent_framework import AgentSession, ContextProvider, Message, SessionContext

from memgate.adapters._backend import Backend
from memgate.adapters._recall import recall
from memgate.domain.memory import MemoryWrite, Reader, Target
from memgate.domain.recall import SearchMode
from memgate.domain.types import Source
from memgate.gateway import render_context

__all__ = ["MemgateContextProvider"]


class MemgateContextProvider(ContextProvider):
    """Memories in, memories out, both through memgate's gateway."""

    def __init__(
        self,
        backend: Backend,
        *,
        namespace: tuple[str, ...],
        source_id: str = "memgate",
        limit: int = 5,
        remember_input: bool = True,
        remember_response: bool = True,
        target: Target = Target.AUTO,
        search_mode: SearchMode | str = SearchMode.TEXT,
    ) -> None:
        """`search_mode`: how memories are picked for a run's input: text (most
        words shared), vector (nearest in meaning; the recall extra) or hybrid."""
        super().__init__(source_id)
        self.search_mode = SearchMode(search_mode)
        self.backend = backend
        self.namespace = tuple(namespace)
        self.limit = limit
        self.remember_input = remember_input
        self.remember_response = remember_response
        self.target = target

    @staticmethod
    def _reader(agent: Any, session: AgentSession, context: SessionContext) -> Reader:
        name = getattr(agent, "name", None) or getattr(agent, "id", None)
        return Reader(
            session_id=context.session_id or session.session_id,
            agent_id=str(name) if name else None,
        )

    async def before_run(
        self,
        *,
        agent: Any,
        session: AgentSession,
        context: SessionContext,
        state: dict[str, Any],
    ) -> None:
        query = " ".join(m.text for m in context.input_messages if m.text)
        reader = self._reader(agent, session, context)
        items = await recall(
            self.backend, self.namespace, query, self.limit, reader, self.search_mode.value
        )
        state["served"] = [i.id for i in items]
        if not items:
            return
        text = "Relevant memories:\n\n" + render_context(items)
        origins = sorted({i.session_id for i in items if i.session_id} - {reader.session_id})
        context.extend_messages(
            self, [Message("system", [text])], origin_session_ids=origins or None
        )

    async def after_run(
        self,
        *,
        agent: Any,
        session: AgentSession,
        context: SessionContext,
        state: dict[str, Any],
    ) -> None:
        reader = self._reader(agent, session, context)
        turn: list[tuple[Source, Message]] = []
        if self.remember_input:
            turn += [(Source.USER, m) for m in context.input_messages if m.role == "user"]
        if self.remember_response and context.response is not None:
            turn += [(Source.AGENT, m) for m in _replies(context.response.messages)]
        receipts = []
        for source, message in turn:
            if not message.text.strip():
                continue
            receipt = await self.backend.write(
                MemoryWrite(
                    content=message.text,
                    namespace=self.namespace,
                    source=source,
                    session_id=reader.session_id,
                    agent_id=reader.agent_id,
                    call_id=getattr(message, "message_id", None),
                    metadata={"role": message.role},
                    target=self.target,
                )
            )
            receipts.append({"id": receipt.id, "state": receipt.state.value, "role": message.role})
        state["receipts"] = receipts


def _replies(messages: Sequence[Message]) -> list[Message]:
    return [m for m in messages if m.role == "assistant"]
