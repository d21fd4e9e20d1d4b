"""`memgate mcp` as users start it: the CLI launching `memgate.adapters.mcp.main`
in a subprocess, over stdio and over streamable HTTP, on a real data directory."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from pathlib import Path

from mcp import Client, StdioServerParameters

from memgate.bootstrap import open_gateway


def test_stdio_server_on_a_data_directory(tmp_path: Path) -> None:
    data = tmp_path / "data"
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "memgate.cli", "mcp", "--data-dir", str(data)]
    )

    async def scenario() -> str:
        async with Client(params) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert "add_memory" in names and "approve_memory" not in names
            added = await client.call_tool(
                "add_memory",
                {"content": "Standup is at 9:30.", "namespace": ["team"], "source": "user"},
            )
            assert added.structured_content is not None
            assert added.structured_content["state"] == "approved"
            memory_id: str = added.structured_content["id"]
            return memory_id

    memory_id = asyncio.run(scenario())
    # On a data directory the provenance graph is on by default (embedded FalkorDB).
    assert (data / "graph").is_dir()

    async def check() -> None:
        gateway = await open_gateway(data, graph=None)
        try:
            item = await gateway.get_any(memory_id)
            assert item is not None and item.content == "Standup is at 9:30."
        finally:
            await gateway.close()

    asyncio.run(check())


def test_stdio_server_without_the_graph(tmp_path: Path) -> None:
    data = tmp_path / "data"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memgate.cli", "mcp", "--data-dir", str(data), "--graph", "none"],
    )

    async def scenario() -> None:
        async with Client(params) as client:
            added = await client.call_tool(
                "add_memory", {"content": "Lunch at noon.", "namespace": ["team"], "source": "user"}
            )
            assert added.structured_content is not None
            assert added.structured_content["state"] == "approved"

    asyncio.run(scenario())
    assert (data / "db").is_dir() and not (data / "graph").exists()


def test_http_admin_server(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    command = [
        sys.executable,
        "-m",
        "memgate.cli",
        "mcp",
        "--data-dir",
        str(tmp_path / "d"),
        "--transport",
        "http",
        "--port",
        str(port),
        "--admin",
        "--graph",
        "none",  # the admin tools over HTTP need no graph (a FalkorDB start saved)
    ]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "memgate mcp did not listen"
                time.sleep(0.1)

        async def scenario() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                names = {t.name for t in (await client.list_tools()).tools}
                assert {"add_memory", "approve_memory", "rollback", "verify_log"} <= names
                verdict = await client.call_tool("verify_log", {})
                assert verdict.structured_content is not None
                assert verdict.structured_content["ok"] is True

        asyncio.run(scenario())
    finally:
        server.terminate()
        server.wait(timeout=20)
        if server.stderr is not None:
            server.stderr.close()
