"""Issue 15, hole 5: slow clients cannot hold the server. A real uvicorn server
(the configuration `memgate serve` uses) on a loopback port, raw sockets."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import uvicorn

from memgate.service.app import create_app
from memgate.service.guards import server_config
from memgate.service.settings import Settings

pytestmark = pytest.mark.anyio

HEADER_TIMEOUT = 0.6
BODY_TIMEOUT = 0.6


@pytest.fixture
async def port(tmp_path: Path) -> AsyncIterator[int]:
    settings = Settings(
        data_dir=tmp_path,
        graph=None,
        port=0,
        header_timeout=HEADER_TIMEOUT,
        body_timeout=BODY_TIMEOUT,
        keep_alive_timeout=5,
    )
    server = uvicorn.Server(server_config(create_app(settings), settings, log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        assert not task.done(), "the server did not start"
        await asyncio.sleep(0.02)
    yield server.servers[0].sockets[0].getsockname()[1]
    server.should_exit = True
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(task, 10)


async def answer(reader: asyncio.StreamReader, limit: float = 10.0) -> bytes:
    """Everything the server sends until it closes the connection."""
    return await asyncio.wait_for(reader.read(), limit)


async def healthz(port: int) -> tuple[bytes, float]:
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    data = await answer(reader)
    writer.close()
    return data, time.perf_counter() - started


async def test_a_connection_that_sends_nothing_is_closed(port: int) -> None:
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = await answer(reader)
    assert data.startswith(b"HTTP/1.1 408")
    assert HEADER_TIMEOUT * 0.9 <= time.perf_counter() - started < HEADER_TIMEOUT + 5
    writer.close()


async def test_headers_sent_a_byte_at_a_time_are_cut_off(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = b"GET /healthz HTTP/1.1\r\nHost: t\r\n" + b"X-Slow: " + b"a" * 200
    started = time.perf_counter()
    heard = b""
    for byte in head:  # 233 bytes, one per 20 ms: ~5 s if the server waited for them
        try:
            writer.write(bytes([byte]))
            heard = await asyncio.wait_for(reader.read(1000), 0.02)
        except TimeoutError:
            continue
        except ConnectionError:
            break
        break  # the server answered (or closed)
    took = time.perf_counter() - started
    assert heard.startswith(b"HTTP/1.1 408") or heard == b""
    assert HEADER_TIMEOUT * 0.9 <= took < HEADER_TIMEOUT + 4
    writer.close()


async def test_a_trickling_body_gets_408_and_the_route_never_runs(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        b"POST /v1/scan HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n" + b'{"content": "'
    )
    await writer.drain()
    started = time.perf_counter()
    data = await answer(reader)
    assert data.startswith(b"HTTP/1.1 408"), data[:80]
    assert b"did not arrive in time" in data
    assert BODY_TIMEOUT * 0.9 <= time.perf_counter() - started < BODY_TIMEOUT + 5
    writer.close()


async def test_prompt_clients_are_served_while_slow_ones_wait(port: int) -> None:
    slow = [await asyncio.open_connection("127.0.0.1", port) for _ in range(20)]
    for _, writer in slow:
        writer.write(b"POST /v1/scan HTTP/1.1\r\nHost: t\r\nContent-Length: 50\r\n\r\n{")
    data, took = await healthz(port)
    assert data.startswith(b"HTTP/1.1 200")
    assert took < BODY_TIMEOUT, "a prompt request waited for the slow ones"
    # A kept-alive connection serves a second request, and is itself held to the
    # head deadline afterwards.
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for _ in range(2):
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        status = await asyncio.wait_for(reader.readline(), 5)
        assert status.startswith(b"HTTP/1.1 200")
        while (await asyncio.wait_for(reader.readline(), 5)) != b"\r\n":
            pass
        await asyncio.wait_for(reader.readexactly(len(b'{"status":"ok"}')), 5)
        await asyncio.sleep(0.1)
    assert (await answer(reader)).startswith(b"HTTP/1.1 408")
    writer.close()
    for reader, writer in slow:
        assert (await answer(reader)).startswith(b"HTTP/1.1 408")
        writer.close()
