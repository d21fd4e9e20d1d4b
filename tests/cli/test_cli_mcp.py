"""`memgate mcp` as an MCP client starts it: a real stdio subprocess, driven by the
mcp SDK's client, on a local data directory the CLI reads afterwards."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from mcp import Client, StdioServerParameters
from typer.testing import CliRunner

from memgate.adapters.mcp import ADMIN_TOOLS, AGENT_TOOLS
from memgate.cli.main import app


def server_params(data: Path, *extra: str) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMGATE_")}
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "memgate.cli", "mcp", "--data-dir", str(data), *extra],
        env=env,
    )


def test_mcp_over_stdio_writes_through_the_gateway(tmp_path: Path) -> None:
    data = tmp_path / "data"

    async def scenario() -> tuple[set[str], set[str], dict[str, object]]:
        async with Client(server_params(data)) as client:
            agent_tools = {t.name for t in (await client.list_tools()).tools}
            result = await client.call_tool(
                "add_memory",
                {"content": "The user prefers tea.", "namespace": ["u", "1"], "source": "user"},
            )
            assert not result.is_error, result.content
            written = result.structured_content or {}
        async with Client(server_params(data, "--admin")) as client:
            admin_tools = {t.name for t in (await client.list_tools()).tools}
        return agent_tools, admin_tools, written

    agent_tools, admin_tools, written = asyncio.run(asyncio.wait_for(scenario(), 90))
    assert agent_tools == set(AGENT_TOOLS)
    assert admin_tools == set(AGENT_TOOLS) | set(ADMIN_TOOLS)
    found = CliRunner().invoke(
        app,
        ["search", "tea", "--json", "--data-dir", str(data)],
        env={"MEMGATE_GRAPH": "none", "MEMGATE_URL": ""},
    )
    assert found.exit_code == 0, found.output
    assert [i["id"] for i in json.loads(found.stdout)] == [written["id"]]


def test_mcp_refuses_an_unknown_transport(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["mcp", "--transport", "carrier-pigeon", "--data-dir", str(tmp_path)]
    )
    assert result.exit_code != 0 and "stdio or http" in result.output
