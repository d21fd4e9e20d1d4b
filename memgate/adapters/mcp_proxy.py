"""`memgate mcp-proxy -- <upstream server command>`: an MCP server in front of
another MCP server that asks a running memgate to guard every `tools/call`.

    client ─stdio─► memgate mcp-proxy ─stdio─► upstream MCP server
                          │
                          └─HTTP─► memgate serve: /v1/guard/tools, /decide, /results

- At start and on every `tools/list` the proxy fetches the upstream's listing
  (never from a cache) and reports it (`POST /v1/guard/tools`): the first
  listing pins each tool's description and input schema; a tool that changes
  later is asked about on every call until an admin accepts the new description
  (a rug pull).
- Every `tools/call` is decided first (`POST /v1/guard/decide`, the tool named
  `mcp__<server>__<tool>` as Claude Code names MCP tools, so one policy and one
  set of pins serve the hook and the proxy): `allow` forwards the call,
  `rewrite` forwards it with the redacted arguments, `deny` answers a JSON-RPC
  error (code `DENIED`), `ask` answers a tool error result telling the user the
  call needs a person's approval. When memgate cannot be reached the answer is
  that error result, never a forwarded call.
- Each upstream result is reported (`POST /v1/guard/results`) so the sensitive
  values it shows are fingerprinted, as `memgate hook post-tool-use` does.

`ProxyConfig.from_env` reads `MEMGATE_URL`, `MEMGATE_KEY`, `MEMGATE_SESSION`
(default: one session per proxy process), `MEMGATE_GUARD_ROLE`, `MEMGATE_AGENT`,
`MEMGATE_TASK`.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio
import httpx
import mcp.types as types
from mcp import Client, StdioServerParameters
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

__all__ = ["DENIED", "GuardUnavailable", "ProxyConfig", "build_proxy", "main", "server_name"]

log = logging.getLogger(__name__)
DENIED = -32001
"""The JSON-RPC error code of a call the guard denied."""
DEFAULT_URL = "http://127.0.0.1:8765"
MAX_RESULT_CHARS = 512 * 1024
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


class GuardUnavailable(Exception):
    """memgate did not answer, or answered an error."""


def server_name(raw: str | None) -> str:
    """A server name as pins take it (letters, digits, `_.-`)."""
    name = _UNSAFE.sub("_", raw or "").strip("_")[:100]
    return name or "upstream"


@dataclass(frozen=True)
class ProxyConfig:
    url: str = DEFAULT_URL
    key: str | None = None
    session_id: str = field(default_factory=lambda: f"mcp-proxy-{uuid.uuid4().hex[:12]}")
    role: str | None = None
    agent_id: str | None = None
    task_id: str | None = None
    timeout: float = 10.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **given: Any) -> ProxyConfig:
        environ = os.environ if env is None else env
        values: dict[str, Any] = {
            "url": environ.get("MEMGATE_URL") or DEFAULT_URL,
            "key": environ.get("MEMGATE_KEY") or None,
            "role": environ.get("MEMGATE_GUARD_ROLE") or None,
            "agent_id": environ.get("MEMGATE_AGENT") or None,
            "task_id": environ.get("MEMGATE_TASK") or None,
        }
        if environ.get("MEMGATE_SESSION"):
            values["session_id"] = environ["MEMGATE_SESSION"]
        values.update({k: v for k, v in given.items() if v is not None})
        return cls(**values)


class _Memgate:
    """The guard routes of a running memgate."""

    def __init__(self, config: ProxyConfig) -> None:
        headers = {"Authorization": f"Bearer {config.key}"} if config.key else {}
        self._http = httpx.AsyncClient(
            base_url=config.url.rstrip("/"), headers=headers, timeout=config.timeout
        )

    async def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        try:
            response = await self._http.post(path, json=body)
        except httpx.HTTPError as exc:
            raise GuardUnavailable(f"memgate unreachable ({type(exc).__name__})") from None
        if response.status_code != 200:
            detail = ""
            try:
                problem = response.json()
                if isinstance(problem, dict) and isinstance(problem.get("detail"), str):
                    detail = f" ({problem['detail'][:300]})"
            except ValueError:
                pass
            raise GuardUnavailable(f"memgate answered {response.status_code}{detail}")
        answer = response.json()
        if not isinstance(answer, dict):
            raise GuardUnavailable("memgate answered something other than a JSON object")
        return answer

    async def aclose(self) -> None:
        await self._http.aclose()


def _listing(server: str, tools: Sequence[types.Tool]) -> dict[str, Any]:
    return {
        "server": server,
        "tools": [
            {
                "name": tool.name,
                "description": tool.description or "",
                "input_schema": dict(tool.input_schema or {}),
            }
            for tool in tools
        ],
    }


def _output(result: types.CallToolResult) -> Any:
    """What a result showed, as the guard's results route takes it."""
    texts: list[str] = []
    for block in result.content:
        if isinstance(block, types.TextContent):
            texts.append(block.text)
        elif isinstance(block, types.EmbeddedResource):
            resource = block.resource
            if isinstance(resource, types.TextResourceContents):
                texts.append(resource.text)
    output: dict[str, Any] = {"content": "\n".join(texts)[:MAX_RESULT_CHARS]}
    if result.structured_content is not None:
        output["structured"] = result.structured_content
    return output


def _refusal(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


class _Proxy:
    def __init__(self, upstream: Client, server: str, config: ProxyConfig) -> None:
        self.upstream = upstream
        self.server = server
        self.config = config
        self.memgate = _Memgate(config)

    async def tools(self) -> list[types.Tool]:
        tools: list[types.Tool] = []
        cursor: str | None = None
        for _ in range(100):
            page = await self.upstream.list_tools(cursor=cursor, cache_mode="refresh")
            tools.extend(page.tools)
            cursor = page.next_cursor
            if cursor is None:
                break
        try:
            report = await self.memgate.post("/v1/guard/tools", _listing(self.server, tools))
            changed = report.get("changed") or []
            if changed:
                log.warning(
                    "memgate: tools of %s changed since pinned: %s", self.server, ", ".join(changed)
                )
        except GuardUnavailable as exc:
            # The calls are still decided (and fail to ask without memgate).
            log.warning("memgate: tool listing not recorded: %s", exc)
        return tools

    def _call(self, name: str, arguments: dict[str, Any], call_id: str) -> dict[str, Any]:
        body: dict[str, Any] = {
            "tool": f"mcp__{self.server}__{name}",
            "input": arguments,
            "call_id": call_id,
            "session_id": self.config.session_id,
            "agent_id": self.config.agent_id,
            "role": self.config.role,
            "task_id": self.config.task_id,
        }
        return {k: v for k, v in body.items() if v is not None}

    async def call(self, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        call_id = f"mcp_{uuid.uuid4().hex}"
        try:
            decision = await self.memgate.post(
                "/v1/guard/decide", self._call(name, arguments, call_id)
            )
        except GuardUnavailable as exc:
            return _refusal(
                f"memgate could not judge this call ({exc}); it needs a person's approval"
                " and was not run"
            )
        verdict = decision.get("decision")
        reasons = "; ".join(str(r) for r in decision.get("reasons") or [])
        if verdict == "deny":
            raise MCPError(
                DENIED,
                f"memgate denied {name}: {reasons or 'no reason given'}",
                {"decision": "deny", "audit_seq": decision.get("audit_seq")},
            )
        if verdict not in ("allow", "rewrite"):
            return _refusal(
                f"memgate: {name} needs a person's approval before it runs ({reasons}); it was"
                " not run. Ask the user to approve it (memgate's review queue) and retry."
            )
        sent = arguments
        if verdict == "rewrite" and isinstance(decision.get("updated_input"), dict):
            sent = decision["updated_input"]
        result = await self.upstream.call_tool(name, sent)
        result_body = {
            "call_id": call_id,
            "tool": f"mcp__{self.server}__{name}",
            "input": sent,
            "output": _output(result),
            "session_id": self.config.session_id,
        }
        try:
            await self.memgate.post("/v1/guard/results", result_body)
        except GuardUnavailable as exc:
            log.warning("memgate: result of %s not recorded: %s", name, exc)
        return result


def build_proxy(upstream: Client, server: str, config: ProxyConfig) -> Server[Any]:
    """The proxy server in front of a connected upstream client."""
    return _server_for(_Proxy(upstream, server, config))


def _server_for(proxy: _Proxy) -> Server[Any]:
    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=await proxy.tools())

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        return await proxy.call(params.name, dict(params.arguments or {}))

    info = proxy.upstream.server_info
    return Server(
        info.name if info is not None else proxy.server,
        version=info.version if info is not None else "",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve(command: Sequence[str], config: ProxyConfig, name: str | None = None) -> None:
    """Run the upstream server, and the proxy on this process's stdio."""
    params = StdioServerParameters(command=command[0], args=list(command[1:]))
    async with Client(params, cache=None) as upstream:
        info = upstream.server_info
        impl = _Proxy(upstream, server_name(name or (info.name if info else None)), config)
        try:
            await impl.tools()  # pin the listing before the first call can arrive
            proxy = _server_for(impl)
            async with stdio_server() as (read, write):
                await proxy.run(read, write, proxy.create_initialization_options())
        finally:
            await impl.memgate.aclose()


def main(command: Sequence[str], config: ProxyConfig, name: str | None = None) -> None:
    """Blocking entry point of `memgate mcp-proxy`."""
    if not command:
        raise ValueError("give the upstream server command after --")
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(message)s")
    anyio.run(serve, list(command), config, name)
