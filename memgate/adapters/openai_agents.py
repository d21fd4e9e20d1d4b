"""OpenAI Agents SDK `Session` on memgate: conversation history that is scanned.

    from memgate.adapters.openai_agents import MemgateSession
    session = MemgateSession("chat-42", gateway)
    result = await Runner.run(agent, "hi", session=session)

Each history item is one memory under `(*prefix, session_id)` with a sequence
key, so `get_items` returns them in order. The default prefix is `("sessions",)`
inside the key's first namespace scope (a remote key scoped to `acme` stores
under `("acme", "sessions", id)`, where it may write), `("sessions",)` in-process
or for an unscoped key. Every item passes the gateway: user
messages are written as source `user`, assistant output as `agent`, tool
outputs (`function_call_output` and other `*_output` items) as `tool`. Items are
served to their own session even while they wait for review. An item the scan
rejects stays in the log (with its findings) and is replaced in the history by
a placeholder of the same shape that says it was withheld, so a tool call still
has its output and the model sees why. Items come back as written, except that
secrets and personal data are redacted before anything is stored.

The SDK passes its run context as `wrapper=`: a context object (or mapping)
with `agent_id` or `tenant` names the writer and reader in memgate's records;
tool call ids are recorded as the call of the tool output that carried them.
A reviewer rejecting an item later removes it from the history (it is no longer
served); nothing is invented in its place.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from memgate.adapters._backend import (
    Backend,
    RemoteBackend,
    canonical_json,
    parse_object,
    record_reads,
    scan_namespace,
)
from memgate.domain.memory import MemoryItem, MemoryState, MemoryWrite, Reader, Target
from memgate.domain.types import Source
from memgate.errors import IllegalTransition, NotFound
from memgate.gateway.core import WriteReceipt

if TYPE_CHECKING:
    from agents.items import TResponseInputItem
    from agents.memory.session_settings import SessionSettings
    from agents.run_context import RunContextWrapper

__all__ = ["SESSIONS", "WITHHELD", "MemgateSession", "default_prefix"]

SESSIONS = "sessions"

WITHHELD = "[memgate: this {kind} was withheld: {why} (memory {id})]"
SEQ_KEY = "{:016d}"


def _label(text: str) -> str:
    return text.replace("%", "%25").replace("/", "%2F")


def source_of(item: Mapping[str, Any]) -> Source:
    """Who produced an item: the user, the agent (model output), or a tool."""
    kind = str(item.get("type") or "message")
    role = item.get("role")
    if kind == "message" or role is not None:
        return Source.USER if role in ("user", "system", "developer") else Source.AGENT
    if kind.endswith("_output") or kind.endswith("_result"):
        return Source.TOOL
    return Source.AGENT


def withheld(item: Mapping[str, Any], receipt: WriteReceipt) -> dict[str, Any]:
    """A stand-in of the same shape as the rejected item."""
    rules = ", ".join(sorted({f.rule_id for f in receipt.findings})) or "rejected by the scan"
    kind = str(item.get("type") or "message")
    text = WITHHELD.format(kind=kind.replace("_", " "), why=rules, id=receipt.id)
    out = {k: v for k, v in item.items() if k in ("type", "role", "call_id", "id", "name")}
    if "output" in item:
        out["output"] = text
    elif kind == "function_call":
        out["arguments"] = canonical_json({"withheld": text})
    elif item.get("role") == "assistant" and isinstance(item.get("content"), list):
        out["content"] = [{"type": "output_text", "text": text, "annotations": []}]
        out.setdefault("status", "completed")
    else:
        out["role"] = item.get("role") or "user"
        out["content"] = text
    return out


async def default_prefix(backend: Backend) -> tuple[str, ...]:
    """Where sessions live by default: `sessions` under the remote key's first
    namespace scope (so a key scoped to `acme` may write its history), else
    `("sessions",)`."""
    if isinstance(backend, RemoteBackend):
        scopes = await backend.scopes()
        if scopes:
            return (*scopes[0], SESSIONS)
    return (SESSIONS,)


def _context_value(wrapper: RunContextWrapper[Any] | None, *names: str) -> str | None:
    if wrapper is None:
        return None
    context = wrapper.context
    for name in names:
        value = context.get(name) if isinstance(context, Mapping) else getattr(context, name, None)
        if isinstance(value, str) and value:
            return value
    return None


class MemgateSession:
    """A Session (Agents SDK protocol) whose items pass memgate's gateway."""

    session_settings: SessionSettings | None = None

    def __init__(
        self,
        session_id: str,
        backend: Backend,
        *,
        prefix: tuple[str, ...] | None = None,
        target: Target = Target.LONG,
        agent_id: str | None = None,
        session_settings: SessionSettings | None = None,
    ) -> None:
        """`target` LONG keeps history durable (non-user items wait for review but
        are served to this session); SHORT makes it expire with the policy's TTL.
        `prefix` None: `default_prefix` (asked of a remote server on first use)."""
        self.session_id = session_id
        self.backend = backend
        self._namespace = None if prefix is None else (*prefix, _label(session_id))
        self.target = target
        self.agent_id = agent_id
        self.session_settings = session_settings
        self._next: int | None = None
        self._lock = asyncio.Lock()

    def _reader(self, wrapper: RunContextWrapper[Any] | None) -> Reader:
        agent = _context_value(wrapper, "agent_id", "tenant") or self.agent_id
        return Reader(session_id=self.session_id, agent_id=agent)

    async def namespace(self) -> tuple[str, ...]:
        """The memgate namespace holding this session's items."""
        if self._namespace is None:
            prefix = await default_prefix(self.backend)
            self._namespace = (*prefix, _label(self.session_id))
        return self._namespace

    async def _items(self, reader: Reader) -> list[MemoryItem]:
        namespace = await self.namespace()
        items = await scan_namespace(self.backend, namespace, reader)
        mine = [i for i in items if i.namespace == namespace and i.key is not None]
        return sorted(mine, key=lambda i: i.key or "")

    async def _seq(self, reader: Reader) -> int:
        if self._next is None:
            items = await self._items(reader)
            self._next = int(items[-1].key or 0) + 1 if items else 0
        value = self._next
        self._next += 1
        return value

    async def get_items(
        self, limit: int | None = None, *, wrapper: RunContextWrapper[Any] | None = None
    ) -> list[TResponseInputItem]:
        """The latest `limit` items (all when None), oldest first."""
        reader = self._reader(wrapper)
        items = await self._items(reader)
        if limit is not None:
            items = items[-limit:] if limit > 0 else []
        served = await record_reads(self.backend, items, reader)
        return [self._value(i) for i in served]

    @staticmethod
    def _value(item: MemoryItem) -> TResponseInputItem:
        value = parse_object(item.content)
        if value is None:  # written by another client as text
            value = {"role": "user", "content": item.content}
        return value  # type: ignore[return-value]

    async def add_items(
        self, items: list[TResponseInputItem], *, wrapper: RunContextWrapper[Any] | None = None
    ) -> None:
        reader = self._reader(wrapper)
        namespace = await self.namespace()
        async with self._lock:
            for raw in items:
                item: Mapping[str, Any] = raw
                key = SEQ_KEY.format(await self._seq(reader))
                call = item.get("call_id")
                write = MemoryWrite(
                    content=canonical_json(dict(item)),
                    namespace=namespace,
                    key=key,
                    source=source_of(item),
                    session_id=self.session_id,
                    agent_id=reader.agent_id,
                    call_id=call if isinstance(call, str) else None,
                    target=self.target,
                )
                receipt = await self.backend.write(write)
                if receipt.state is MemoryState.REJECTED:
                    stand_in = withheld(item, receipt)
                    await self.backend.write(
                        write.model_copy(
                            update={
                                "content": canonical_json(stand_in),
                                "source": Source.AGENT,
                                "metadata": {"withheld": receipt.id},
                            }
                        )
                    )

    async def pop_item(
        self, *, wrapper: RunContextWrapper[Any] | None = None
    ) -> TResponseInputItem | None:
        """Remove the newest item (a tombstone in the log) and return it."""
        reader = self._reader(wrapper)
        async with self._lock:
            items = await self._items(reader)
            if not items:
                return None
            newest = items[-1]
            (served,) = await record_reads(self.backend, [newest], reader) or [newest]
            await self.backend.delete(
                newest.id, actor=reader.agent_id or self.session_id, reason="session pop_item"
            )
            return self._value(served)

    async def clear_session(self, *, wrapper: RunContextWrapper[Any] | None = None) -> None:
        """Tombstone every item of this session (the log keeps them)."""
        reader = self._reader(wrapper)
        async with self._lock:
            for item in await self._items(reader):
                with contextlib.suppress(NotFound, IllegalTransition):
                    await self.backend.delete(
                        item.id, actor=reader.agent_id or self.session_id, reason="clear_session"
                    )
            self._next = None
