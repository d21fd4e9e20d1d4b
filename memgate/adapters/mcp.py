"""memgate as an MCP server: memory tools for agents, review tools for operators.

    memgate mcp --data-dir data                 # stdio, agent tools, embedded graph
    memgate mcp --data-dir data --graph none    # the same without the provenance graph
    memgate mcp --url http://host:8765 --key K  # in front of a memgate server
    memgate mcp --admin --transport http        # plus review/rollback/log tools

`build_server(backend, admin=...)` returns the server object (mcp 2.x
`MCPServer`, or 1.x `FastMCP` when that is what is installed) for embedding and
tests. Agent tools: add_memory, search_memories, get_memory, get_memories,
update_memory, delete_memory, memory_history. Admin tools (only on a server
built with `admin=True`; remotely the key must also have the admin role, which
the server enforces): list_pending, approve_memory, reject_memory, rollback (a
dry run unless `dry_run=false`), verify_log, memory_readers.

Every result carries the memory id, its state, trust score and finding
categories. Reads are recorded with the caller's `session_id` (a tool argument;
the server's own session when omitted) and the MCP request id as the call.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from memgate.adapters._backend import Backend, RemoteBackend
from memgate.domain.memory import (
    REPLACES_KEY,
    MemoryItem,
    MemoryState,
    MemoryWrite,
    Reader,
    Target,
)
from memgate.domain.rollback import RollbackScope
from memgate.domain.types import Source
from memgate.errors import IllegalTransition, MemgateError, NotFound
from memgate.gateway import Gateway
from memgate.gateway.core import WriteReceipt

try:  # mcp 2.x
    from mcp.server.mcpserver import Context
    from mcp.server.mcpserver import MCPServer as Server
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.types import ToolAnnotations
except ImportError:  # pragma: no cover - mcp 1.x
    from mcp.server.fastmcp import Context  # type: ignore[no-redef,attr-defined]
    from mcp.server.fastmcp import FastMCP as Server  # type: ignore[no-redef,attr-defined]
    from mcp.server.fastmcp.exceptions import ToolError  # type: ignore[no-redef,import-not-found]
    from mcp.types import ToolAnnotations

__all__ = ["ADMIN_TOOLS", "AGENT_TOOLS", "build_server", "main"]

AGENT_TOOLS = (
    "add_memory",
    "search_memories",
    "get_memory",
    "get_memories",
    "update_memory",
    "delete_memory",
    "memory_history",
)
ADMIN_TOOLS = (
    "list_pending",
    "approve_memory",
    "reject_memory",
    "rollback",
    "verify_log",
    "memory_readers",
)


def _hints(**hints: bool) -> ToolAnnotations:
    # By wire name (camelCase): 2.x fields are snake_case with these aliases, 1.x
    # fields are the wire names themselves.
    return ToolAnnotations.model_validate({"openWorldHint": False, **hints})


READ = _hints(readOnlyHint=True)
WRITE = _hints(readOnlyHint=False, destructiveHint=False)
OVERWRITE = _hints(readOnlyHint=False, destructiveHint=True)
REMOVE = _hints(readOnlyHint=False, destructiveHint=True, idempotentHint=True)
Namespace = list[str] | str
SourceName = Literal["user", "agent", "tool", "web", "document"]
ModeName = Annotated[
    Literal["text", "vector", "hybrid"],
    Field(
        description="text: every word of the query occurs; vector: nearest by meaning;"
        " hybrid: both, fused by rank"
    ),
]
"""Who produced the content (memgate's `Source`), as the tool schemas' enum."""
TargetName = Literal["auto", "short", "long"]
"""Where a write goes (memgate's `Target`), as the tool schemas' enum."""
MAX_LIMIT = 100
Limit = Annotated[int, Field(ge=1, le=MAX_LIMIT, description="page size, 1..100")]
Offset = Annotated[int, Field(ge=0, le=100_000, description="items to skip")]


def _ns(namespace: Namespace | None) -> tuple[str, ...]:
    if namespace is None:
        return ()
    if isinstance(namespace, str):
        return tuple(part for part in namespace.split("/") if part)
    return tuple(namespace)


def _receipt(receipt: WriteReceipt) -> dict[str, Any]:
    return {
        "id": receipt.id,
        "state": receipt.state.value,
        "pool": receipt.pool.value,
        "trust_score": receipt.trust_score,
        "decision": receipt.decision.value,
        "categories": sorted({f.category for f in receipt.findings}),
        "rule_ids": sorted({f.rule_id for f in receipt.findings}),
        "version": receipt.version,
    }


def _item(item: MemoryItem) -> dict[str, Any]:
    return {
        "id": item.id,
        "namespace": list(item.namespace),
        "key": item.key,
        "content": item.content,
        "state": item.state.value,
        "pool": item.pool.value,
        "trust_score": item.trust_score,
        "categories": sorted({f.category.value for f in item.findings}),
        "rule_ids": sorted({f.rule_id for f in item.findings}),
        "source": item.source.value,
        "metadata": item.metadata,
        "created_at": item.created_at.isoformat(),
        "updated_at": item.updated_at.isoformat(),
        "version": item.version,
    }


class _Tools:
    """The tool bodies, bound to one backend. Errors memgate raises on purpose
    become tool errors with their message (the client sees why)."""

    def __init__(self, backend: Backend, *, session_id: str, agent_id: str, reviewer: str):
        self.backend = backend
        self.session_id = session_id
        self.agent_id = agent_id
        self.reviewer = reviewer

    def reader(self, session_id: str | None, ctx: Context | None) -> Reader:
        call = str(ctx.request_id) if ctx is not None else None
        return Reader(
            session_id=session_id or self.session_id, call_id=call, agent_id=self.agent_id
        )

    async def add(
        self,
        content: str,
        namespace: Namespace,
        key: str | None,
        source: str,
        metadata: dict[str, Any] | None,
        ttl_seconds: float | None,
        target: str,
        session_id: str | None,
        ctx: Context | None,
    ) -> dict[str, Any]:
        who = self.reader(session_id, ctx)
        receipt = await self.backend.write(
            MemoryWrite(
                content=content,
                namespace=_ns(namespace),
                key=key,
                source=Source(source),
                session_id=who.session_id,
                agent_id=who.agent_id,
                call_id=who.call_id,
                metadata=metadata or {},
                target=Target.SHORT if ttl_seconds else Target(target),
                ttl_seconds=ttl_seconds,
            )
        )
        return _receipt(receipt)

    async def search(
        self,
        namespace: Namespace | None,
        query: str | None,
        metadata: dict[str, Any] | None,
        limit: int,
        offset: int,
        session_id: str | None,
        ctx: Context | None,
        mode: str = "text",
    ) -> dict[str, Any]:
        items = await self.backend.search(
            _ns(namespace),
            query,
            metadata=metadata,
            limit=limit,
            offset=offset,
            reader=self.reader(session_id, ctx),
            mode=mode,
        )
        return {"items": [_item(i) for i in items]}

    async def update(
        self,
        memory_id: str,
        content: str,
        source: str,
        session_id: str | None,
        ctx: Context | None,
    ) -> dict[str, Any]:
        """A keyed memory gets a new version (same id). An unkeyed one is replaced
        by a new memory that names it (`memgate_replaces` in its metadata): the
        original stays served until the replacement is approved -- at once when
        the scan approves it, else when a reviewer does (the gateway then
        tombstones the original in the same transaction) -- and stays for good
        if the replacement is rejected. The new content is the caller's, so it is
        scanned as the caller's `source`, never as the old memory's (an agent
        must not inherit a user's trust by editing)."""
        who = self.reader(session_id, ctx)
        old = await self.backend.read(memory_id, who)
        if old is None:
            raise ToolError(f"no memory {memory_id} visible to this session")
        metadata = {k: v for k, v in old.metadata.items() if k != REPLACES_KEY}
        if old.key is None:
            metadata[REPLACES_KEY] = old.id
        receipt = await self.backend.write(
            MemoryWrite(
                content=content,
                namespace=old.namespace,
                key=old.key,
                source=Source(source),
                session_id=who.session_id,
                agent_id=who.agent_id,
                call_id=who.call_id,
                metadata=metadata,
                target=Target(old.pool.value) if old.pool.value != "none" else Target.AUTO,
            )
        )
        out = _receipt(receipt)
        if receipt.id != old.id:
            out["replaces"] = old.id
            if receipt.state.served:
                with contextlib.suppress(NotFound, IllegalTransition):  # gone meanwhile
                    await self.backend.delete(
                        old.id,
                        actor=who.agent_id or self.agent_id,
                        reason=f"updated as {receipt.id}",
                    )
                out["original"] = "deleted"
            elif receipt.state is MemoryState.PENDING_REVIEW:
                out["original"] = "kept until the replacement is approved"
            else:
                out["original"] = "kept: the replacement was rejected"
        return out

    async def delete(
        self, memory_id: str, reason: str | None, session_id: str | None, ctx: Context | None
    ) -> dict[str, Any]:
        """Tombstone a visible memory. Idempotent: a memory already deleted answers
        as deleted again (`already_deleted`), with no new event."""
        who = self.reader(session_id, ctx)
        gone = {"id": memory_id, "state": MemoryState.DELETED.value, "already_deleted": True}
        item = await self.backend.read(memory_id, who)
        # Remotely the server decides what this key may delete (its own writes and
        # what is served to it), so a memory not served is tried there too.
        if item is not None or not isinstance(self.backend, Gateway):
            try:
                done = await self.backend.delete(
                    memory_id, actor=who.agent_id or self.agent_id, reason=reason
                )
            except IllegalTransition:
                return gone  # only a tombstone cannot become one
            except NotFound:
                if not isinstance(self.backend, Gateway):
                    raise
            else:
                return {**_item(done), "already_deleted": False}
        records = await self.backend.history(memory_id)
        if not records or records[-1].event.state_after is not MemoryState.DELETED:
            raise ToolError(f"no memory {memory_id} visible to this session")
        return gone


async def _tool_call[T](work: Awaitable[T]) -> T:
    """Refusals memgate makes on purpose, and bad arguments, reach the client as a
    tool error with their message (never a secret: messages name rules, not values)."""
    try:
        return await work
    except ValidationError as exc:
        # Field and reason only: pydantic's own text would echo the input back.
        raise ToolError("; ".join(_problem(e) for e in exc.errors())) from None
    except (MemgateError, ValueError) as exc:
        raise ToolError(str(exc)) from None


def _problem(error: Any) -> str:
    where = ".".join(str(part) for part in error.get("loc", ())) or "input"
    return f"{where}: {error.get('msg', 'invalid')}"


def build_server(
    backend: Backend,
    *,
    admin: bool = False,
    name: str = "memgate",
    session_id: str | None = None,
    agent_id: str = "mcp",
    reviewer: str = "mcp-admin",
) -> Server:
    """An MCP server over `backend` (an in-process Gateway or a RemoteBackend).
    `reviewer` is the identity approvals are recorded under in-process (it may
    not approve its own writes); remotely the admin key is the identity."""
    server = Server(name, instructions="Memory that is scanned, reviewed and audited.")
    tools = _Tools(
        backend,
        session_id=session_id or f"mcp-{uuid.uuid4().hex[:12]}",
        agent_id=agent_id,
        reviewer=reviewer,
    )
    _agent_tools(server, tools)
    if admin:
        _admin_tools(server, tools)
    return server


def _agent_tools(server: Server, tools: _Tools) -> None:
    backend = tools.backend

    @server.tool(annotations=WRITE)
    async def add_memory(
        content: str,
        namespace: Namespace,
        key: str | None = None,
        source: SourceName = "agent",
        metadata: dict[str, Any] | None = None,
        ttl_seconds: float | None = None,
        target: TargetName = "auto",
        session_id: str | None = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Remember something. It is scanned first: the answer says whether it was
        approved, queued for review (served to your session only) or rejected.
        `namespace` is a list of labels (or "a/b"); `target` is auto (by source),
        short (expires; `ttl_seconds` implies it) or long (reviewed knowledge)."""
        return await _tool_call(
            tools.add(
                content, namespace, key, source, metadata, ttl_seconds, target, session_id, ctx
            )
        )

    @server.tool(annotations=READ)
    async def search_memories(
        query: str | None = None,
        namespace: Namespace | None = None,
        metadata: dict[str, Any] | None = None,
        limit: Limit = 10,
        offset: Offset = 0,
        session_id: str | None = None,
        mode: ModeName = "text",
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Memories under a namespace: with mode `text`, those whose content has
        every word of `query`; `vector`, the approved ones nearest to it in meaning;
        `hybrid`, both fused by rank."""
        return await _tool_call(
            tools.search(namespace, query, metadata, limit, offset, session_id, ctx, mode)
        )

    @server.tool(annotations=READ)
    async def get_memory(
        memory_id: str, session_id: str | None = None, ctx: Context | None = None
    ) -> dict[str, Any]:
        """One memory by id, if it is served to you."""
        item = await _tool_call(backend.read(memory_id, tools.reader(session_id, ctx)))
        if item is None:
            raise ToolError(f"no memory {memory_id} visible to this session")
        return _item(item)

    @server.tool(annotations=READ)
    async def get_memories(
        namespace: Namespace,
        limit: Limit = 50,
        offset: Offset = 0,
        session_id: str | None = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """The memories under a namespace, newest first."""
        return await _tool_call(tools.search(namespace, None, None, limit, offset, session_id, ctx))

    @server.tool(annotations=OVERWRITE)
    async def update_memory(
        memory_id: str,
        content: str,
        source: SourceName = "agent",
        session_id: str | None = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Replace a memory's content (rescanned as `source`). The original stays
        served until the replacement is approved (`original` in the answer says
        what became of it); every version stays in the log."""
        return await _tool_call(tools.update(memory_id, content, source, session_id, ctx))

    @server.tool(annotations=REMOVE)
    async def delete_memory(
        memory_id: str,
        reason: str | None = None,
        session_id: str | None = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Forget a memory (a tombstone: never served again, kept in the audit log).
        Idempotent: deleting it again answers `already_deleted: true`."""
        return await _tool_call(tools.delete(memory_id, reason, session_id, ctx))

    @server.tool(annotations=READ)
    async def memory_history(memory_id: str) -> dict[str, Any]:
        """The memory's audit trail: every state change, who made it and why."""
        records = await _tool_call(backend.history(memory_id))
        return {
            "events": [
                {
                    "seq": r.seq,
                    "op": r.event.op.value,
                    "at": r.event.at.isoformat(),
                    "actor": r.event.actor,
                    "reason": r.event.reason,
                    "state_before": r.event.state_before,
                    "state_after": r.event.state_after,
                }
                for r in records
            ]
        }


def _admin_tools(server: Server, tools: _Tools) -> None:
    backend = tools.backend

    @server.tool(annotations=READ)
    async def list_pending(
        namespace: Namespace | None = None,
        category: str | None = None,
        limit: Limit = 50,
        offset: Offset = 0,
    ) -> dict[str, Any]:
        """The review queue, oldest first."""
        if isinstance(backend, Gateway):
            items = await _tool_call(
                backend.pending(
                    namespace_prefix=_ns(namespace), category=category, limit=limit, offset=offset
                )
            )
        else:
            items = await _tool_call(
                _client(backend).pending(
                    namespace_prefix=_ns(namespace) or None,
                    category=category,
                    limit=limit,
                    offset=offset,
                )
            )
        return {"items": [_item(i) for i in items]}

    @server.tool(annotations=WRITE)
    async def approve_memory(memory_id: str, note: str | None = None) -> dict[str, Any]:
        """Approve a pending memory: it is served to every reader from now on."""
        if isinstance(backend, Gateway):
            item = await _tool_call(
                backend.approve(memory_id, reviewer=tools.reviewer, reason=note)
            )
        else:
            item = await _tool_call(_client(backend).approve(memory_id, note=note))
        return _item(item)

    @server.tool(annotations=OVERWRITE)
    async def reject_memory(memory_id: str, reason: str) -> dict[str, Any]:
        """Reject a pending memory (final; it stays in the log)."""
        if isinstance(backend, Gateway):
            item = await _tool_call(
                backend.reject(memory_id, reviewer=tools.reviewer, reason=reason)
            )
        else:
            item = await _tool_call(_client(backend).reject(memory_id, reason=reason))
        return _item(item)

    @server.tool(annotations=OVERWRITE)
    async def rollback(
        reason: str,
        to_seq: int | None = None,
        to_time: str | None = None,
        namespace: Namespace | None = None,
        session_id: str | None = None,
        memory_id: str | None = None,
        dry_run: bool = True,
    ) -> dict[str, Any]:
        """Return memories to how they were after log entry `to_seq` (or at
        `to_time`, ISO 8601). A dry run (the default) only lists the changes."""
        if (to_seq is None) == (to_time is None):
            raise ToolError("give exactly one of to_seq and to_time")
        try:
            to: int | datetime = (
                to_seq if to_seq is not None else datetime.fromisoformat(str(to_time))
            )
            scope = RollbackScope(
                namespace_prefix=_ns(namespace), session_id=session_id, memory_id=memory_id
            )
        except ValueError as exc:
            raise ToolError(str(exc)) from None
        if isinstance(backend, Gateway):
            plan = await _tool_call(
                backend.rollback(
                    to=to, reason=reason, actor=tools.reviewer, scope=scope, dry_run=dry_run
                )
            )
        else:
            plan = await _tool_call(
                _client(backend).rollback(to=to, reason=reason, scope=scope, dry_run=dry_run)
            )
        return plan.model_dump(mode="json")

    @server.tool(annotations=READ)
    async def verify_log() -> dict[str, Any]:
        """Check the audit log's MAC chain end to end."""
        if isinstance(backend, Gateway):
            result = await _tool_call(backend.verify())
        else:
            result = await _tool_call(_client(backend).verify())
        return result.model_dump(mode="json")

    @server.tool(annotations=READ)
    async def memory_readers(memory_id: str) -> dict[str, Any]:
        """Who read a memory: every recorded read (in-process), and the
        provenance graph's answer (sessions and calls) when a graph runs."""
        if isinstance(backend, Gateway):
            reads = await _tool_call(backend.reads_of(memory_id))
            graph = await _tool_call(backend.readers(memory_id))
            return {
                "reads": [r.model_dump(mode="json") for r in reads],
                "graph": graph.model_dump(mode="json"),
            }
        graph = await _tool_call(_client(backend).readers(memory_id))
        return {"reads": None, "graph": graph.model_dump(mode="json")}


def _client(backend: Backend) -> Any:
    if isinstance(backend, RemoteBackend):
        return backend.client
    raise ToolError("admin tools need an in-process Gateway or a remote memgate server")


def main(
    data_dir: Path | None,
    url: str | None,
    key: str | None,
    transport: str = "stdio",
    host: str = "127.0.0.1",
    port: int = 8765,
    admin: bool = False,
    graph: str | None = "embedded",
) -> None:
    """Serve until the client goes away (stdio) or the process is stopped (http).
    Exactly one of `data_dir` (in-process gateway) and `url` (remote server, with
    `key`) is used; `transport` is "stdio" or "http" (streamable HTTP). On a data
    directory the provenance graph is `graph`: embedded FalkorDB by default, a
    FalkorDB URL, or None for none."""
    import anyio

    if (data_dir is None) == (url is None):
        raise ValueError("give exactly one of data_dir and url")
    if transport not in ("stdio", "http", "streamable-http"):
        raise ValueError(f"unknown transport {transport!r}: use stdio or http")

    async def serve() -> None:
        async with AsyncExitStack() as stack:
            backend: Backend
            if url is not None:
                remote = RemoteBackend.connect(url, key)
                stack.push_async_callback(remote.close)
                backend = remote
            else:
                from memgate.bootstrap import open_gateway

                assert data_dir is not None  # noqa: S101 - checked above
                gateway = await open_gateway(Path(data_dir), graph=graph)
                stack.push_async_callback(gateway.close)
                backend = gateway
            server = build_server(backend, admin=admin)
            await _run(server, transport, host, port)

    anyio.run(serve)


async def _run(server: Server, transport: str, host: str, port: int) -> None:
    if transport == "stdio":
        await server.run_stdio_async()
        return
    run_http: Callable[..., Awaitable[None]] = server.run_streamable_http_async
    try:
        await run_http(host=host, port=port)
    except TypeError:  # pragma: no cover - mcp 1.x reads host/port from settings
        server.settings.host = host  # type: ignore[attr-defined]
        server.settings.port = port  # type: ignore[attr-defined]
        await run_http()
