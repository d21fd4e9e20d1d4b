"""A tiny real MCP server (stdio) for the MCP proxy tests.

    python upstream_mcp.py STATE_DIR

STATE_DIR/state.json (re-read on every request) holds the tool descriptions
(`descriptions`: tool -> text; change one to stage a rug pull), the files
`read_file` serves (`files`: path -> text) and the customer records
`lookup_customer` serves (`customers`: name -> record). Every call the server
receives is appended to STATE_DIR/calls.jsonl, so a test can see what reached
it (a denied call never does; a rewritten one arrives redacted).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server

STATE = Path(sys.argv[1])
SCHEMAS: dict[str, dict[str, Any]] = {
    "read_file": {"path": {"type": "string"}},
    "sync_note": {"notebook": {"type": "string"}, "text": {"type": "string"}},
    "dns_update": {
        "record": {"type": "string"},
        "txt": {"type": "string"},
        "ttl": {"type": "integer"},
    },
    "lookup_customer": {"name": {"type": "string"}},
    "send_email": {
        "to": {"type": "string"},
        "subject": {"type": "string"},
        "body": {"type": "string"},
    },
    "run": {"command": {"type": "string"}},
}


def state() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((STATE / "state.json").read_text())
    return loaded


async def list_tools(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    descriptions = state().get("descriptions", {})
    return types.ListToolsResult(
        tools=[
            types.Tool(
                name=name,
                description=descriptions.get(name, f"The {name} tool."),
                input_schema={"type": "object", "properties": props},
            )
            for name, props in SCHEMAS.items()
        ]
    )


async def call_tool(
    ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
) -> types.CallToolResult:
    arguments = dict(params.arguments or {})
    with (STATE / "calls.jsonl").open("a") as log:
        log.write(json.dumps({"tool": params.name, "arguments": arguments}) + "\n")
    now = state()
    if params.name == "read_file":
        text = now.get("files", {}).get(arguments.get("path"), "no such file")
    elif params.name == "lookup_customer":
        text = json.dumps(now.get("customers", {}).get(arguments.get("name"), {}))
    else:
        text = f"{params.name} done"
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


async def main() -> None:
    server: Server[Any] = Server("notes-upstream", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
